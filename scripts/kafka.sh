#!/usr/bin/env bash
# A real single-node Apache Kafka (KRaft, broker+controller, 127.0.0.1 only) from Maven Central jars, for
# development and tests: fetch | start | stop | status. Recipe and pitfalls: docs/kafka.md.
# Kafka 4.1.2: kafkajs 2.2.4 negotiates versions inside 4.x's ranges (test/kafka-bus.test.ts proves it).
set -euo pipefail

KAFKA_VERSION="${KAFKA_VERSION:-4.1.2}"
# The log4j2 backend is not in the broker POM (compileOnly); 2.25.x is what the 4.x release tarballs ship.
LOG4J_VERSION="${LOG4J_VERSION:-2.25.3}"
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${PERFPIPE_CACHE:-$HOME/.cache/perfpipe}"
KAFKA_DIR="$CACHE_ROOT/kafka-$KAFKA_VERSION"
LIBS="$KAFKA_DIR/libs"

PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT=$((PORT + 1))
DATA="${KAFKA_DATA:-${TMPDIR:-/tmp}/perfpipe-kafka-$PORT}"
PID_FILE="$DATA/kafka.pid"
READY_TIMEOUT_S="${KAFKA_READY_TIMEOUT:-90}"
STOP_TIMEOUT_S="${KAFKA_STOP_TIMEOUT:-30}"

say() { echo "kafka: $*"; }
die() { echo "kafka: $*" >&2; exit 1; }

fetch() {
  if [[ -f "$LIBS/.complete" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  mkdir -p "$KAFKA_DIR"
  # Two test files may fetch at once on a fresh machine: one downloads, the other waits on the lock.
  exec 9>"$KAFKA_DIR/.fetch.lock"
  flock 9
  if [[ -f "$LIBS/.complete" ]]; then
    return 0
  fi
  local work="$KAFKA_DIR/.fetch"
  rm -rf "$work" "$LIBS.partial"
  mkdir -p "$work"
  sed -e "s/@KAFKA_VERSION@/$KAFKA_VERSION/" -e "s/@LOG4J_VERSION@/$LOG4J_VERSION/" \
    "$HERE/kafka/pom.xml.tmpl" >"$work/pom.xml"
  say "fetching Kafka $KAFKA_VERSION jars from Maven Central into $LIBS"
  if ! mvn -B -q -f "$work/pom.xml" -Dmaven.repo.local="$CACHE_ROOT/m2" \
    "$DEP_PLUGIN:copy-dependencies" -DincludeScope=runtime -DoutputDirectory="$LIBS.partial" \
    >"$work/mvn.log" 2>&1; then
    tail -n 40 "$work/mvn.log" >&2
    die "maven could not fetch kafka_2.13:$KAFKA_VERSION"
  fi
  # Publish the directory only once complete, so an interrupted fetch is never mistaken for a cache hit.
  rm -rf "$LIBS"
  mv "$LIBS.partial" "$LIBS"
  touch "$LIBS/.complete"
  say "$(ls "$LIBS" | wc -l) jars in $LIBS"
}

# The PID is ours only if it is still a kafka.Kafka JVM started on this data dir (PIDs get reused).
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "kafka.Kafka $DATA/server.properties" || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_properties() {
  cat >"$DATA/server.properties" <<EOF
# Written by scripts/kafka.sh: single combined KRaft node, loopback only (::1 pitfall, docs/kafka.md §4).
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA/logs
num.partitions=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
# One node: internal topics must have RF 1 or groups never become available. Few offset partitions make
# the first group join quick (the default 50 are created on first use).
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
EOF
}

java_base() {
  # zstd/snappy unpack native code into tmp; a noexec /tmp breaks them (3.7.2 upgrade notes).
  JAVA_BASE=(-cp "$LIBS/*" -Djava.awt.headless=true -Dlog4j2.configurationFile="$HERE/kafka/log4j2.properties"
    -Dkafka.logs.dir="$DATA" -DZstdTempFolder="$DATA/tmp" -Dorg.xerial.snappy.tempdir="$DATA/tmp")
}

new_cluster_id() {
  # Kafka's Uuid: 16 random bytes, base64url without padding; StorageTool never hands out one starting with '-'.
  local id
  while :; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    [[ "$id" != -* ]] && { echo "$id"; return; }
  done
}

start() {
  fetch
  mkdir -p "$DATA/tmp"
  local pid
  if pid="$(running_pid)"; then
    say "ready on 127.0.0.1:$PORT (pid $pid)"
    return 0
  fi
  for p in "$PORT" "$CONTROLLER_PORT"; do
    port_open "$p" && die "port 127.0.0.1:$p is already in use (set KAFKA_PORT)"
  done
  write_properties
  java_base
  [[ -f "$DATA/cluster.id" ]] || new_cluster_id >"$DATA/cluster.id"
  # The data dir keeps its cluster id across restarts; -g makes formatting a formatted dir a no-op.
  if [[ ! -f "$DATA/logs/meta.properties" ]]; then
    java -Xmx256m "${JAVA_BASE[@]}" kafka.tools.StorageTool format -g -t "$(cat "$DATA/cluster.id")" \
      -c "$DATA/server.properties" >"$DATA/format.log" 2>&1 || { cat "$DATA/format.log" >&2; die "format failed"; }
  fi
  [[ -f "$DATA/server.log" ]] && mv "$DATA/server.log" "$DATA/server.log.1"
  nohup java -Xms128m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExplicitGCInvokesConcurrent \
    "${JAVA_BASE[@]}" kafka.Kafka "$DATA/server.properties" >"$DATA/server.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$DATA/server.log" >&2
      rm -f "$PID_FILE"
      die "broker exited during start-up (log: $DATA/server.log)"
    fi
    if grep -qs "Kafka Server started" "$DATA/server.log" && port_open "$PORT"; then
      say "ready on 127.0.0.1:$PORT (pid $pid)"
      return 0
    fi
    sleep 0.2
  done
  tail -n 40 "$DATA/server.log" >&2
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
  die "not ready after ${READY_TIMEOUT_S}s (log: $DATA/server.log)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    say "not running (127.0.0.1:$PORT)"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT_S))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "no exit ${STOP_TIMEOUT_S}s after SIGTERM, sending SIGKILL to $pid"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$PID_FILE"
  say "stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    say "running on 127.0.0.1:$PORT (pid $pid, data $DATA)"
  else
    say "not running (127.0.0.1:$PORT)"
    exit 3
  fi
}

case "${1:-}" in
  fetch) fetch; say "Kafka $KAFKA_VERSION jars in $LIBS" ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: scripts/kafka.sh fetch|start|stop|status  (env KAFKA_VERSION, KAFKA_PORT, KAFKA_DATA, PERFPIPE_CACHE)" >&2; exit 2 ;;
esac

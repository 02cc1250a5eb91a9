#!/usr/bin/env bash
# The four real ClickHouse clients the tests of perfpipe's ClickHouse HTTP interface run (docs/clickhouse-http.md §8),
# each from its own registry and cached, so that a fresh machine's `npm test` has them and a second run is a no-op:
# - clickhouse-connect and pandas (PyPI) in a virtualenv under $PERFPIPE_CLIENTS_DIR (default ~/.cache/perfpipe);
# - the ClickHouse JDBC driver (Maven Central) in the local Maven repository (test/clients/jdbc/pom.xml);
# - clickhouse-go v2 (the Go module proxy) in the Go module and build caches (test/clients/go/go.mod);
# - @clickhouse/client is a dependency of perfpipe itself (npm install).
# Called by scripts/test-env.sh; under CI=true a client that cannot be installed fails the run.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
DIR="${PERFPIPE_CLIENTS_DIR:-$HOME/.cache/perfpipe}"
CI_MODE=0
case "${CI:-}" in true | 1 | yes) CI_MODE=1 ;; esac
say() { echo "clickhouse-clients: $*" >&2; }
missing() { if [[ $CI_MODE -eq 1 ]]; then say "$1 (CI=true: its test would fail)"; exit 1; else say "$1; its test will be reported as skipped"; fi; }

# Versions: the newest each registry serves that resolve here (clickhouse-jdbc 0.11.x needs a file not served).
CONNECT_VERSION=1.12.0
PANDAS_VERSION=3.1.1

VENV="$DIR/clickhouse-connect-venv"
if ! "$VENV/bin/python" -c "import clickhouse_connect, pandas, sys; sys.exit(clickhouse_connect.__version__ != '$CONNECT_VERSION')" 2>/dev/null; then
  if command -v python3 >/dev/null 2>&1; then
    mkdir -p "$DIR"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "clickhouse-connect==$CONNECT_VERSION" "pandas==$PANDAS_VERSION" >/dev/null
    say "installed clickhouse-connect $CONNECT_VERSION and pandas $PANDAS_VERSION in $VENV"
  else
    missing "no python3 for the clickhouse-connect virtualenv"
  fi
fi

if command -v mvn >/dev/null 2>&1; then
  mvn -q -B -f "$ROOT/test/clients/jdbc/pom.xml" dependency:resolve >/dev/null
else
  missing "no mvn for the ClickHouse JDBC driver"
fi

if command -v go >/dev/null 2>&1; then
  # Download and compile once: the tests then build offline in seconds (the first compile takes minutes here).
  # ./... : every program of the module (docs/clickhouse-http.md §8), built into a folder that is then dropped.
  out="$(mktemp -d)"
  (cd "$ROOT/test/clients/go" && go mod download && go build -o "$out/" ./...)
  rm -rf "$out"
else
  missing "no go for clickhouse-go"
fi

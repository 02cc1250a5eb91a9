#!/usr/bin/env bash
# Makes this machine ready for `npm test` before any test starts (the pretest step): the Debian packages whose
# real programs the tests run, the locales the tests' PostgreSQL speaks, and the Kafka broker's jars.
#
# Order matters. A locale has to exist before any server that should use it starts: PostgreSQL resolves
# lc_messages through glibc, which maps the locale archive once per process, so a server already running when
# `localedef` adds ru_RU.UTF-8 goes on answering in English (issue 15: test/pg-live.test.ts failed its `ru` phase
# on a fresh machine and passed on the second run). Packages come first because installing `locales` runs
# locale-gen, which rebuilds the archive from /etc/locale.gen and would drop a locale made any other way.
#
# As root it installs what is missing. Otherwise it lists what is missing and, under CI=true, fails: a missing
# prerequisite there must stop the run, not turn tests into skips (test/support/prerequisites.ts is the
# other half). Tools are looked up the way the tests look them up: on PATH, PostgreSQL under /usr/lib/postgresql.
#
# PERFPIPE_TEST_LOCALES (default "ru_RU.UTF-8") names the locales to make, space-separated.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOCALES="${PERFPIPE_TEST_LOCALES:-ru_RU.UTF-8}"
CI_MODE=0
case "${CI:-}" in true | 1 | yes) CI_MODE=1 ;; esac

say() { echo "test-env: $*" >&2; }

# "program package" pairs: the program the tests run and the Debian package that provides it.
PROGRAMS=(
  "atop atop" "atopsar atop"
  "pgbadger pgbadger"
  "mvn maven" "java openjdk-17-jre-headless" "javac openjdk-17-jdk-headless"
  "chromium chromium"
  "prometheus prometheus" "promtool prometheus"
  "prometheus-alertmanager prometheus-alertmanager"
  "localedef libc-bin" "locale-gen locales"
)

postgres_installed() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }

missing_packages() {
  local entry program package list=()
  for entry in "${PROGRAMS[@]}"; do
    read -r program package <<<"$entry"
    command -v "$program" >/dev/null 2>&1 || list+=("$package")
  done
  postgres_installed || list+=(postgresql)
  # pg_wait_sampling for the pg_activity source's tests (issue 16); Debian 12's PostgreSQL is 15.
  compgen -G '/usr/lib/postgresql/*/lib/pg_wait_sampling.so' >/dev/null || list+=(postgresql-15-pg-wait-sampling)
  # A locale's source comes with the `locales` package; a minimal image has locale-gen's package without them.
  [[ -d /usr/share/i18n/locales ]] || list+=(locales)
  [[ ${#list[@]} -eq 0 ]] || printf '%s\n' "${list[@]}" | sort -u | tr '\n' ' '
}

# `ru_RU.UTF-8` is listed by `locale -a` as `ru_RU.utf8`: compare the names that way.
normalise_locale() { echo "$1" | sed -E 's/\.[Uu][Tt][Ff]-?8$/.utf8/'; }

missing_locales() {
  local have name list=()
  have="$(locale -a 2>/dev/null || true)"
  for name in $LOCALES; do
    grep -qxF "$(normalise_locale "$name")" <<<"$have" || list+=("$name")
  done
  [[ ${#list[@]} -eq 0 ]] || echo "${list[*]}"
}

# The Debian way, so that the locale survives later runs of locale-gen: its line in /etc/locale.gen
# (uncommented, or added), then locale-gen --keep-existing, which builds only the locales not built yet.
make_locales() {
  local name
  for name in "$@"; do
    local line="$name ${name##*.}"
    if grep -qE "^[[:space:]]*#[[:space:]]*${name//./\\.}[[:space:]]" /etc/locale.gen 2>/dev/null; then
      sed -i -E "s/^[[:space:]]*#[[:space:]]*(${name//./\\.}[[:space:]].*)$/\1/" /etc/locale.gen
    elif ! grep -qE "^${name//./\\.}[[:space:]]" /etc/locale.gen 2>/dev/null; then
      echo "$line" >>/etc/locale.gen
    fi
  done
  locale-gen --keep-existing >/dev/null
}

packages="$(missing_packages)"
locales_missing="$(missing_locales)"

if [[ "$(id -u)" -ne 0 ]]; then
  if [[ -n "$packages$locales_missing" ]]; then
    parts=()
    [[ -z "$packages" ]] || parts+=("packages ${packages% } (apt-get install ${packages% })")
    [[ -z "$locales_missing" ]] || parts+=("locales $locales_missing (locale-gen)")
    what="$(IFS=';'; echo "${parts[*]}" | sed 's/;/; /g')"
    if [[ $CI_MODE -eq 1 ]]; then
      say "missing $what; run this script as root (CI=true: their tests would fail)"
      exit 1
    fi
    say "missing $what; install them as root or their tests will be reported as skipped"
  fi
else
  if [[ -n "$packages" ]]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y -qq --no-install-recommends $packages >/dev/null
    say "installed $packages"
    left="$(missing_packages)"
    [[ -z "$left" ]] || { say "still missing after apt-get install: $left"; exit 1; }
  fi
  locales_missing="$(missing_locales)"
  if [[ -n "$locales_missing" ]]; then
    # shellcheck disable=SC2086 # one word per locale
    make_locales $locales_missing
    left="$(missing_locales)"
    [[ -z "$left" ]] || { say "locale-gen did not make $left"; exit 1; }
    say "made locales $locales_missing"
  fi
fi

# The broker's jars before the first Kafka test: a cold fetch inside a test's start-up would count against its
# timeout. Cached in ~/.cache/perfpipe; a no-op once there.
if command -v mvn >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then
  bash "$HERE/kafka.sh" fetch >/dev/null
elif [[ $CI_MODE -eq 1 ]]; then
  say "cannot fetch the Kafka jars without maven and java"
  exit 1
fi

# The ClickHouse clients of the HTTP interface's tests (clickhouse-connect, the JDBC driver, clickhouse-go).
bash "$HERE/clickhouse-clients.sh"

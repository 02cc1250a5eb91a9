#!/usr/bin/env bash
# Installs the Debian packages the tests run for real (atop for the atop tests; PostgreSQL and pgBadger
# for the PostgreSQL tests), when they are missing and we are root; otherwise says what is missing.
# The Kafka broker comes from Maven Central through scripts/kafka.sh, which the Kafka tests start.
set -euo pipefail
need=()
command -v atop >/dev/null 2>&1 || need+=(atop)
command -v pgbadger >/dev/null 2>&1 || need+=(pgbadger)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)
command -v chromium >/dev/null 2>&1 || need+=(chromium) # renders the HTML report in test/report-html.test.ts
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "test-env: missing ${need[*]}; install them (apt-get install ${need[*]}) or their tests will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "test-env: installed ${need[*]}" >&2

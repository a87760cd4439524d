#!/usr/bin/env bash
# The write-store and shared-state tests run against real PostgreSQL 15 and
# Redis 7 from Debian's packages. Install them when missing and we can (root +
# apt); otherwise stop with one line saying how. The test harness
# (tests/helpers/engines.ts) starts its own throw-away instances on loopback
# ports; nothing here starts a system service.
set -euo pipefail
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
REDIS_SERVER="${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}"
missing=()
[ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] || missing+=(postgresql)
[ -x "$REDIS_SERVER" ] || missing+=(redis-server)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "${missing[*]} not found: installing Debian's ${missing[*]} with apt-get" >&2
  # Debian's packages start a system service on install; policy-rc.d keeps them from starting.
  policy_added=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy_added=1
  fi
  status=0
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null) || status=$?
  [ "$policy_added" = 1 ] && rm -f /usr/sbin/policy-rc.d
  if [ "$status" = 0 ] && [ -x "$PG_BIN/initdb" ] && [ -x "$(command -v redis-server || echo /usr/bin/redis-server)" ]; then exit 0; fi
  echo "Could not install ${missing[*]}: run 'sudo apt-get install -y postgresql redis-server' and retry." >&2
  exit 1
fi
echo "The intake and cluster tests need PostgreSQL 15 ($PG_BIN) and Redis 7 (redis-server): run 'sudo apt-get install -y postgresql redis-server' and retry." >&2
exit 1

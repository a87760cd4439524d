#!/usr/bin/env bash
# Browser tests need Debian's chromium. Install it when we can (root + apt);
# otherwise stop with one line saying how. Never skip the browser tests.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium not found: installing Debian's chromium with apt-get" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || { echo "Could not install chromium: run 'sudo apt-get install -y chromium' and retry." >&2; exit 1; }
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "Browser tests need chromium at $CHROMIUM: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH) and retry." >&2
exit 1

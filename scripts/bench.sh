#!/usr/bin/env bash
# npm run bench -- [--no-build] [--no-write] [--regenerate] [--seconds N] [--warmup N] [--connections N]
# Speed at national scale: build, national data, production server, autocannon
# from a second process; appends the run to docs/benchmarks.md. See scripts/bench.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx scripts/bench.ts "$@"

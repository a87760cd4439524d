#!/usr/bin/env bash
# `npm test`: every test, end-to-end included. Builds first so the
# integration and browser tests run against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
# PostgreSQL 15 and Redis 7 for the write-store, rate-rule and cluster tests (tests/helpers/engines.ts).
bash scripts/ensure-engines.sh
# Real PDFs from Debian documentation packages for the upload tests (issue 30 item 7).
bash scripts/ensure-test-documents.sh
npm run --silent build >/dev/null
npx vitest run
npx vitest run --config vitest.e2e.config.ts

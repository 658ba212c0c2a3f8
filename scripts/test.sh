#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, starts the test PostgreSQL server, then `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
# The PostgresStore tests need a server: start the throwaway one unless a URL is given or they are skipped explicitly.
if [ -z "${TESSERA_TEST_POSTGRES_URL:-}" ] && [ "${TESSERA_SKIP_POSTGRES:-}" != "1" ]; then
    TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
    export TESSERA_TEST_POSTGRES_URL
fi
# The browser payment sheet test drives a real headless Chromium.
[ "${TESSERA_SKIP_BROWSER:-}" = "1" ] || scripts/chromium.sh
swift test "$@"

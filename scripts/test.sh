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
# A test process whose Swift executor or timers stop (ExecutorWatchdog in Tests/TesseraTestSupport reports which, with
# the marker below) is run again, at most twice, and the run says so; any other failure fails at once.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for attempt in 1 2 3; do
    status=0
    swift test "$@" 2>&1 | tee "$log" || status=$?
    [ "$status" -ne 0 ] && grep -q 'tessera-test-stall' "$log" && [ "$attempt" -lt 3 ] || exit "$status"
    echo "scripts/test.sh: the test process stalled (see tessera-test-stall above); running the suite again" >&2
done

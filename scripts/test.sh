#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, starts the test PostgreSQL server, then `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
# shellcheck source=scripts/pip-install.sh
. scripts/pip-install.sh
# The PostgresStore tests need a server: start the throwaway one unless a URL is given or they are skipped explicitly.
if [ -z "${TESSERA_TEST_POSTGRES_URL:-}" ] && [ "${TESSERA_SKIP_POSTGRES:-}" != "1" ]; then
    TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
    # The same server's Unix-domain socket folder, for the tests that connect through it.
    TESSERA_TEST_POSTGRES_SOCKET_DIR="$(scripts/postgres.sh socket-dir)"
    export TESSERA_TEST_POSTGRES_URL TESSERA_TEST_POSTGRES_SOCKET_DIR
fi
# The browser payment sheet test drives a real headless Chromium.
[ "${TESSERA_SKIP_BROWSER:-}" = "1" ] || scripts/chromium.sh
# A stalled or crashed test process is ended and the suite run again, at most twice, saying so; any other failure
# fails at once. A crash (a signal: a trap, a bad access) is written to the log with the crashed thread's backtrace,
# marked `tessera-test-crash`, so it can be found and fixed. Stalled means either of:
# - ExecutorWatchdog (Tests/TesseraTestSupport) found Swift's executor idle and not running jobs, and ended the process
#   with a `tessera-test-stall` line naming what stopped;
# - the run wrote nothing for TESSERA_TEST_QUIET_SECONDS (300 by default): this script then lists the tests that
#   started and did not finish, and ends the process.
quiet="${TESSERA_TEST_QUIET_SECONDS:-300}"
log="$(mktemp)"
# The session of the `swift test` running now: what it started (servers, browsers) is ended with it, also when this
# script is interrupted or killed (the suite runs in a session of its own, which a terminal's Ctrl-C does not reach).
active_session=""
end_session() { [ -z "$active_session" ] || pkill -KILL -s "$active_session" 2>/dev/null || true; }
trap 'end_session; rm -f "$log"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Ends a process and everything it started, children first (SwiftPM starts the test process in a process group of
# its own, so a group kill is not enough).
kill_tree() {
    local child
    for child in $(pgrep -P "$1"); do kill_tree "$child"; done
    kill -9 "$1" 2>/dev/null || true
}

run_suite() {
    : > "$log"
    # Swift's backtracer writes a crash's backtrace to a file here (symbolicated quickly: a full symbolication of the
    # debug test binary can take minutes), for this script to copy into the log.
    local crashes
    crashes="$(mktemp -d)"
    export SWIFT_BACKTRACE="${TESSERA_TEST_BACKTRACE:-enable=yes,interactive=no,symbolicate=fast,threads=crashed,registers=none,images=none,output-to=$crashes}"
    # In a process group of its own, so a stall can end it with everything it started; appending, so the lines this
    # script adds are never overwritten by the runner's own writes. Line-buffered: SwiftPM passes the test process's
    # output on through a buffered stream, which would otherwise hold the last lines back (a quiet run would then
    # seem to stop earlier than it did, and list tests as unfinished that had finished).
    setsid -w stdbuf -oL -eL swift test "$@" >> "$log" 2>&1 &
    local runner=$! size=0 now last
    active_session=$runner
    tail -n +1 -f --pid="$runner" "$log" &
    local follower=$!
    last=$(date +%s)
    local crashed_at=0
    while kill -0 "$runner" 2>/dev/null; do
        sleep 5
        # A backtrace written and the process still there 60 s later: the backtracer is stuck, end it.
        if [ -n "$(ls -A "$crashes")" ]; then
            [ "$crashed_at" -gt 0 ] || crashed_at=$(date +%s)
            if [ $(( $(date +%s) - crashed_at )) -ge 60 ]; then
                kill_tree "$runner"
                kill -9 -- "-$runner" 2>/dev/null || true
                break
            fi
        fi
        now=$(stat -c %s "$log")
        if [ "$now" != "$size" ]; then size=$now; last=$(date +%s); continue; fi
        if [ $(( $(date +%s) - last )) -ge "$quiet" ]; then
            {
                echo "tessera-test-stall: no output for $quiet s; tests started and not finished:"
                grep -oE '◇ Test "[^"]*" started' "$log" | sed -E 's/^◇ Test "(.*)" started$/\1/' | sort | uniq > "$log.started"
                grep -oE '[✔✘] Test "[^"]*"' "$log" | sed -E 's/^. Test "(.*)"$/\1/' | sort | uniq \
                    | comm -23 "$log.started" - | sed 's/^/  /'
                rm -f "$log.started"
                # Where every thread of the test process is, when gdb is there to say (for the one debugging the stall).
                local tests
                tests="$(pgrep -f 'PackageTests.xctest' | head -1 || true)"
                if pgrep -f swift-backtrace > /dev/null; then
                    echo "tessera-test-stall: Swift's backtracer is running: the test process crashed and its report is stuck"
                fi
                if [ -n "$tests" ] && command -v gdb > /dev/null; then
                    echo "tessera-test-stall: the test process's threads (pid $tests):"
                    timeout 120 gdb -p "$tests" -batch -ex 'thread apply all bt 25' 2>/dev/null | grep -E '^(Thread|#)' | head -4000 || true
                fi
            } >> "$log"
            kill_tree "$runner"
            kill -9 -- "-$runner" 2>/dev/null || true
            break
        fi
    done
    local status=0
    wait "$runner" || status=$?
    wait "$follower" 2>/dev/null || true
    # Whatever the run left behind (a server or browser of a test that crashed) does not take the next run's cores.
    end_session
    active_session=""
    if [ -n "$(ls -A "$crashes")" ]; then
        [ "$status" -ne 0 ] || status=1
        {
            echo "tessera-test-crash: the test process crashed; the backtracer's report:"
            cat "$crashes"/*
        } | tee -a "$log" >&2
    fi
    rm -rf "$crashes"
    # A failed run's failures again at its end, where a log read from its tail shows them (a run prints a failure
    # when it happens, often hundreds of lines before its last one).
    if [ "$status" -ne 0 ]; then
        {
            echo "scripts/test.sh: what failed in this run:"
            grep -E '✘|recorded an issue|Expectation failed|Caught error' "$log" | grep -v 'Test run with' | head -60 || true
        } | tee -a "$log" >&2
    fi
    return "$status"
}

# Runs `swift test` with the given arguments, again after a stall (at most twice more).
run_with_retries() {
    local attempt status
    for attempt in 1 2 3; do
        status=0
        run_suite "$@" || status=$?
        [ "$status" -ne 0 ] && grep -qE 'tessera-test-(stall|crash)' "$log" && [ "$attempt" -lt 3 ] || return "$status"
        echo "scripts/test.sh: the test process stalled or crashed (see tessera-test-stall or tessera-test-crash above); running the suite again" >&2
    done
}

# The timing suite compares the medians of two request paths a few microseconds apart; with the rest of the suite
# running beside it on two cores, the noise is milliseconds and changes from one round to the next. So a whole run
# measures it alone, after everything else. Arguments (a filter, say) are passed on as given, in one run.
timing='ServeTimingTests'
if [ "$#" -gt 0 ]; then
    run_with_retries "$@"
else
    run_with_retries --skip "$timing"
    echo "scripts/test.sh: the timing suite, alone on a quiet machine" >&2
    run_with_retries --filter "$timing"
fi

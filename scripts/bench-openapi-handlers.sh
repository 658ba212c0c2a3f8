#!/usr/bin/env bash
# Handlers generated from the OpenAPI document against the hand-written device routes (issue #17), alternated round
# by round on the same machine: Benchmarks/OpenAPIHandlers serves the same SQLite store both ways, with the event
# loops as Swift's global executor as in `tessera serve`, and wrk drives the serial-number list, the pass fetch
# answered 304 and the registration of a new device. Each row gives the server's CPU time per request (user + system
# from /proc, divided by the requests wrk completed) and requests/s; CPU per request is the figure to trust on a busy
# machine. The medians of every variant and endpoint close the output.
#
#   scripts/bench-openapi-handlers.sh
#
# Environment: ROUNDS (default 5), DURATION (wrk seconds per endpoint, default 8; WARMUP more are run first, uncounted,
# default 2), CONNECTIONS (default 64), BIN (a folder holding `tessera` and `tessera-bench`, for the dev certificates
# and the seeding; default .build/release, built in release when missing), SEED (a store already seeded by
# `tessera-bench seed --sqlite`; default: seeded here with 100,000 passes and 1,000,000 registrations).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${ROUNDS:-5}"; duration="${DURATION:-8}"; warmup="${WARMUP:-2}"; connections="${CONNECTIONS:-64}"
bin="${BIN:-.build/release}"
package=Benchmarks/OpenAPIHandlers
command -v wrk >/dev/null || { echo "==> installing wrk" >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
if [ ! -x "$bin/tessera" ] || [ ! -x "$bin/tessera-bench" ]; then
    swift build -c release --product tessera >&2
    swift build -c release --product tessera-bench >&2
fi
swift build -c release --package-path "$package" --product openapi-handlers >&2
server="$(swift build -c release --package-path "$package" --show-bin-path)/openapi-handlers"

work="$(mktemp -d /tmp/tessera-openapi-XXXXXX)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/bench-wrk-scripts.sh "$work"
"$bin/tessera" certs dev --out "$work/certs" >/dev/null
if [ -n "${SEED:-}" ]; then
    sqlite3 "$SEED" ".backup '$work/seed.sqlite'"
else
    "$bin/tessera-bench" seed --sqlite "$work/seed.sqlite" >&2
fi
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
echo "wrk, $connections connections, ${duration} s per endpoint after ${warmup} s uncounted, $(nproc) cores; server CPU µs/request (requests/s)"
echo
echo "| round | variant | list | 304 | registration | non-2xx/3xx | load |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq 1 "$rounds"); do
    # Which variant goes first alternates, so neither always meets the warmer (or the busier) machine.
    if [ $((round % 2)) -eq 1 ]; then variants=(generated hand-written); else variants=(hand-written generated); fi
    for variant in "${variants[@]}"; do
        cp "$work/seed.sqlite" "$work/run.sqlite"; rm -f "$work/run.sqlite-wal" "$work/run.sqlite-shm"
        "$server" serve --sqlite "$work/run.sqlite" --port 18291 "--$variant" --templates PassTemplates \
            --cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem" \
            >"$work/serve.log" 2>&1 &
        pid=$!
        # An answer at all (204 for an unknown device) means the server listens.
        for _ in $(seq 1 100); do
            curl -s -o /dev/null http://127.0.0.1:18291/v1/devices/probe/registrations/pass.dev.tessera.demo && break
            sleep 0.2
        done
        row="| $round | $variant |"; failures=0
        for script in list download304 register; do
            wrk -t 2 -c "$connections" -d "${warmup}s" -s "$work/$script.lua" http://127.0.0.1:18291 >/dev/null 2>&1
            before=$(ticks "$pid")
            out=$(wrk -t 2 -c "$connections" -d "${duration}s" -s "$work/$script.lua" http://127.0.0.1:18291 2>&1)
            after=$(ticks "$pid")
            requests=$(echo "$out" | grep -oE '[0-9]+ requests in' | grep -oE '^[0-9]+')
            rate=$(echo "$out" | grep -oE 'Requests/sec: +[0-9.]+' | grep -oE '[0-9.]+$')
            failed=$(echo "$out" | grep -oE 'Non-2xx or 3xx responses: [0-9]+' | grep -oE '[0-9]+$' || true)
            failures=$((failures + ${failed:-0}))
            cpu=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
            printf '%s\t%s\t%s\t%s\n' "$variant" "$script" "$cpu" "${rate%.*}" >>"$work/results.tsv"
            row="$row $cpu (${rate%.*}) |"
        done
        echo "$row $failures | $(cut -d' ' -f1 /proc/loadavg) |"
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
done
python3 - "$work/results.tsv" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
names = {"list": "GET registrations (serial-number list)", "download304": "GET pass (If-Modified-Since, 304)",
         "register": "POST registration (new device)"}
print()
print("| endpoint | generated µs/request | hand-written µs/request | generated vs hand-written (CPU) | generated requests/s | hand-written requests/s |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for script, name in names.items():
    def median(variant, column):
        return statistics.median(float(r[column]) for r in rows if r[0] == variant and r[1] == script)
    generated, hand = median("generated", 2), median("hand-written", 2)
    print(f"| {name} | {generated:.1f} | {hand:.1f} | {100 * (generated - hand) / hand:+.1f} % "
          f"| {median('generated', 3):,.0f} | {median('hand-written', 3):,.0f} |")
PY

#!/usr/bin/env bash
# Load benchmark of `tessera serve` for docs/benchmarks.md: wrk at 64 connections against the device endpoints, next
# to a minimal Hummingbird hello-world route measured in the same run on the same machine.
#
#   scripts/bench-server.sh [sqlite|postgres|checkout|all]      (default all)
#
# SQLite: one server process on a store seeded with 100,000 passes and 1,000,000 registrations.
# PostgreSQL: the same data, two server processes on one database, load split evenly between them.
# SQLite also measures the floor under a registration: the same requests to a route that stores nothing, and SQLite's
# own cost of the rows (`tessera-bench registration-floor`).
# Checkout: checkout session creations (POST /checkout/v1/sessions, a fresh Idempotency-Key each) on SQLite.
# Environment: DURATION (wrk seconds per endpoint, default 15), WARMUP (uncounted wrk seconds before each, default 2), CONNECTIONS (default 64), BIN (release binaries),
# PG_POOL (PostgreSQL connections per server process; default: the server's own), PG_EVENT_LOOPS (event loop threads per
# PostgreSQL server process; default: each its share of the cores, as docs/architecture.md advises for several processes
# on one machine), REGISTRATIONS (PostgreSQL seed size, default 1,000,000; four per device).
# Each row also gives the CPU time the measured server process(es) spent per request (user + system, from /proc): far
# steadier than requests/s on a busy machine, so two builds can be compared by it even when the machine is not quiet.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
duration="${DURATION:-15}"
warmup="${WARMUP:-2}"
connections="${CONNECTIONS:-64}"
bin="${BIN:-.build/release}"
command -v wrk >/dev/null || { echo "==> installing wrk" >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
if [ ! -x "$bin/tessera" ] || [ ! -x "$bin/tessera-bench" ]; then
    swift build -c release --product tessera >&2
    swift build -c release --product tessera-bench >&2
fi

work="$(mktemp -d /tmp/tessera-bench-XXXXXX)"
pids=()
declare -A port_pid  # server port -> its process, for the CPU-per-request column
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"; }
trap cleanup EXIT

"$bin/tessera" certs dev --out "$work/certs" --order-type-id order.dev.tessera.demo >/dev/null
credentials=(--cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem")
order_flags=(--order-templates OrderTemplates --order-cert "$work/certs/order.pem" --order-key "$work/certs/order.key")

# wrk request scripts: random devices and passes, the names `tessera-bench seed` uses.
. "$(dirname "$0")/bench-wrk-scripts.sh" "$work"

wait_for() { for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }

# Runs wrk against one or more base URLs at once (connections split evenly) and prints one table row.
measure() {
    local label="$1" script="$2" path="$3"; shift 3
    local share=$((connections / $#)) outputs=() index=0 runs=() ticks_before=0 ticks_after=0 base_port
    # Warm-up at the same load, not counted: fresh connections, SQLite's pages mapped, the allocator's caches filled.
    if [ "$warmup" -gt 0 ]; then
        for base in "$@"; do
            wrk -t "$(( share < 2 ? 1 : 2 ))" -c "$share" -d "${warmup}s" -s "$work/$script" "$base$path" >/dev/null 2>&1 & runs+=($!)
        done
        wait "${runs[@]}"; runs=()
    fi
    for base in "$@"; do
        base_port="${base##*:}"; base_port="${base_port%%/*}"
        ticks_before=$((ticks_before + $(awk '{print $14 + $15}' "/proc/${port_pid[$base_port]}/stat")))
    done
    for base in "$@"; do
        wrk -t "$(( share < 2 ? 1 : 2 ))" -c "$share" -d "${duration}s" --latency -s "$work/$script" "$base$path" \
            >"$work/wrk-$label-$index.txt" 2>&1 & runs+=($!)
        outputs+=("$work/wrk-$label-$index.txt"); index=$((index + 1))
    done
    wait "${runs[@]}"
    for base in "$@"; do
        base_port="${base##*:}"; base_port="${base_port%%/*}"
        ticks_after=$((ticks_after + $(awk '{print $14 + $15}' "/proc/${port_pid[$base_port]}/stat")))
    done
    python3 - "$label" "$((ticks_after - ticks_before))" "$(getconf CLK_TCK)" "${outputs[@]}" <<'EOF'
import re, sys
label, ticks, hertz, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
rate = 0.0; p99 = 0.0; errors = 0; requests = 0
def ms(value, unit): return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
for name in files:
    text = open(name).read()
    rate += float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    requests += int(re.search(r"(\d+) requests in", text).group(1))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)", text); p99 = max(p99, ms(*m.groups()))
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text); errors += int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors += sum(map(int, m.groups())) if m else 0
cpu = ticks / hertz * 1e6 / max(requests, 1)
print(f"| {label} | {rate:,.0f} | {p99:.2f} | {requests:,} | {errors} | {cpu:.1f} |")
EOF
}

header() { echo; echo "$1 (wrk, $connections connections, ${duration} s each, $(nproc) cores)"; echo; echo "| endpoint | requests/s | p99 (ms) | requests | errors | server CPU (µs/request) |"; echo "| --- | ---: | ---: | ---: | ---: | ---: |"; }

# The hello-world baseline also serves /bytes: an event-ticket-sized body (160,895 bytes) from memory, the most a
# Hummingbird route can do for the pass download on this machine.
"$bin/tessera-bench" hello --port 18090 --bytes 160895 >/dev/null 2>&1 & pids+=($!); port_pid[18090]=$!
wait_for http://127.0.0.1:18090/hello

# Fetches the 1,000 items the download scripts ask for once, so each process's bundle cache holds them:
# warm BASE PATH_PREFIX CREDENTIAL_PREFIX (item i is PATH_PREFIX + 7 digits, its token CREDENTIAL_PREFIX + 22 digits).
warm() {
    python3 - "$@" <<'EOF'
import sys, urllib.request
base, path, credential = sys.argv[1:4]
for i in range(1000):
    r = urllib.request.Request(f"{base}/v1/{path}{i:07d}", headers={"Authorization": f"{credential}{i:022d}"})
    urllib.request.urlopen(r).read()
EOF
}

run_endpoints() {
    local orders=no
    if [ "$1" = --orders ]; then orders=yes; shift; fi
    measure "hello-world (Hummingbird)" hello.lua /hello http://127.0.0.1:18090
    for base in "$@"; do warm "$base" passes/pass.dev.tessera.demo/B "ApplePass benchtoken"; done
    measure "GET registrations (serial-number list)" list.lua "" "$@"
    measure "hello-world, 160,895-byte body from memory (download ceiling)" hello.lua /bytes http://127.0.0.1:18090
    measure "GET pass (cached bundle, 200)" download.lua "" "$@"
    measure "GET pass (If-Modified-Since, 304)" download304.lua "" "$@"
    measure "POST registration (new device)" register.lua "" "$@"
    # The same requests to a route that decodes them and answers 201 with nothing stored: what HTTP alone costs a
    # registration on this machine (the floor under the row above, with the store's below).
    measure "hello-world, a registration's request (route, JSON body, 201; nothing stored)" register.lua "" http://127.0.0.1:18090
    if [ "$orders" = yes ]; then
        for base in "$@"; do warm "$base" orders/order.dev.tessera.demo/O "AppleOrder ordertoken"; done
        measure "GET registrations (order identifiers list)" order-list.lua "" "$@"
        measure "GET order (cached bundle, 200)" order-download.lua "" "$@"
        measure "GET order (If-Modified-Since, 304)" order-download304.lua "" "$@"
    fi
    measure "hello-world (Hummingbird), again" hello.lua /hello http://127.0.0.1:18090
}

if [ "$mode" = sqlite ] || [ "$mode" = all ]; then
    "$bin/tessera-bench" seed --sqlite "$work/bench.sqlite" >&2
    # The server also issues Wallet orders (the production set-up with orders on), so the order endpoints are
    # measured next to the pass ones; the first start creates the order tables, which are then seeded alike.
    "$bin/tessera" serve --port 18091 --database "sqlite:$work/bench.sqlite" --templates PassTemplates "${credentials[@]}" \
        "${order_flags[@]}" --log-level warning >"$work/serve-sqlite.log" 2>&1 & pids+=($!); port_pid[18091]=$!
    wait_for http://127.0.0.1:18091/health
    kill "${port_pid[18091]}"; wait "${port_pid[18091]}" 2>/dev/null || true
    scripts/bench-seed-sqlite-orders.sh "$work/bench.sqlite"
    "$bin/tessera" serve --port 18091 --database "sqlite:$work/bench.sqlite" --templates PassTemplates "${credentials[@]}" \
        "${order_flags[@]}" --log-level warning >>"$work/serve-sqlite.log" 2>&1 & pids+=($!); port_pid[18091]=$!
    wait_for http://127.0.0.1:18091/health
    header "SQLite store, one server process: 100,000 passes, 1,000,000 registrations; 100,000 orders, 1,000,000 order registrations"
    run_endpoints --orders http://127.0.0.1:18091
    kill "${port_pid[18091]}"; wait "${port_pid[18091]}" 2>/dev/null || true
    # What SQLite itself charges for a new device's rows (device, registration, event; plain SQL), and the store's
    # own registration, in process on the same file: with the HTTP row above, the floor under a registration.
    echo; echo "A new device's registration without HTTP, in process on the same file (CPU of the whole process):"; echo
    "$bin/tessera-bench" registration-floor --sqlite "$work/bench.sqlite" --event-loop-executor
fi

if [ "$mode" = postgres ] || [ "$mode" = all ]; then
    # A server of its own (not the tests' one), with shared_buffers at a quarter of the memory as PostgreSQL's
    # documentation advises for a dedicated machine.
    export TESSERA_POSTGRES_PORT="${BENCH_POSTGRES_PORT:-54339}"
    url="$(TESSERA_POSTGRES_SHARED_BUFFERS="$(awk '/MemTotal/ {print int($2 / 1024 / 4)}' /proc/meminfo)MB" scripts/postgres.sh)"
    bench_url="${url%/*}/tessera_bench"
    # PG_TRANSPORT: unix (default; the server's socket, as libpq connects on one machine) or tcp (127.0.0.1).
    transport="${PG_TRANSPORT:-unix}"
    query=""
    [ "$transport" = unix ] && query="host=$(scripts/postgres.sh socket-dir)"
    [ -n "${PG_POOL:-}" ] && query="${query:+$query&}max_connections=$PG_POOL"  # PG_POOL: connections per process
    serve_url="$bench_url${query:+?$query}"
    registrations="${REGISTRATIONS:-1000000}"; devices=$((registrations / 4))
    pg_loops="${PG_EVENT_LOOPS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}"
    DEVICES="$devices" . "$(dirname "$0")/bench-wrk-scripts.sh" "$work"
    psql "${url%/*}/postgres" -qc "DROP DATABASE IF EXISTS tessera_bench" -c "CREATE DATABASE tessera_bench" >&2
    TESSERA_EVENT_LOOP_THREADS="$pg_loops" "$bin/tessera" serve --port 18092 --database "$serve_url" \
        --templates PassTemplates "${credentials[@]}" --log-level warning >"$work/serve-pg-1.log" 2>&1 &
    pids+=($!); port_pid[18092]=$!
    wait_for http://127.0.0.1:18092/health
    scripts/bench-seed-postgres.sh "$bench_url" "$registrations"
    TESSERA_EVENT_LOOP_THREADS="$pg_loops" "$bin/tessera" serve --port 18093 --database "$serve_url" \
        --templates PassTemplates "${credentials[@]}" --log-level warning >"$work/serve-pg-2.log" 2>&1 &
    pids+=($!); port_pid[18093]=$!
    wait_for http://127.0.0.1:18093/health
    header "PostgreSQL store ($transport), two server processes on one database ($pg_loops event loop threads each): 100,000 passes, $(printf "%'d" "$registrations") registrations"
    run_endpoints http://127.0.0.1:18092 http://127.0.0.1:18093
fi

if [ "$mode" = checkout ] || [ "$mode" = all ]; then
    # The documented example merchant without its credential files: creating sessions needs none of them.
    python3 - docs/examples/merchant.json "$work/merchant.json" <<'EOF'
import json, sys
config = json.load(open(sys.argv[1]))
for key in ("merchantIdentity", "paymentProcessingKeyPaths", "appleRootCertificatePath", "paymentProcessor", "apiKeyFile"):
    config.pop(key, None)
json.dump(config, open(sys.argv[2], "w"))
EOF
    # One client creating sessions as fast as it can: the per-client limit of anonymous creations is off.
    TESSERA_CHECKOUT_ANONYMOUS_SESSIONS_PER_MINUTE=0 "$bin/tessera" serve --port 18094 --database "sqlite:$work/checkout.sqlite" --templates PassTemplates \
        "${credentials[@]}" --merchant-config "$work/merchant.json" --log-level warning >"$work/serve-checkout.log" 2>&1 &
    pids+=($!); port_pid[18094]=$!
    wait_for http://127.0.0.1:18094/health
    header "Checkout, one server process on SQLite"
    measure "hello-world (Hummingbird)" hello.lua /hello http://127.0.0.1:18090
    measure "POST checkout session (new Idempotency-Key)" session.lua /checkout/v1/sessions http://127.0.0.1:18094
    measure "hello-world (Hummingbird), again" hello.lua /hello http://127.0.0.1:18090
fi

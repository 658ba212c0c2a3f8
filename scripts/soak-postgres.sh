#!/usr/bin/env bash
# Soak test of the scale-out set-up: two `tessera serve` processes on one PostgreSQL database under mixed device
# traffic (scripts/soak-client.py) for SOAK_SECONDS (default 600), the second process restarted in the middle (SIGTERM,
# wait for it to exit, start it again). Prints the client's counts and each process's resident memory once a minute.
#
#   scripts/soak-postgres.sh
#
# Passes when there is no error other than the restarted process's own in-flight requests and the memory of the
# process that ran throughout does not grow by more than SOAK_MEMORY_GROWTH_PERCENT (default 10) between its first and
# last sample after the warm-up minute.
# Environment: SOAK_SECONDS, SOAK_CONNECTIONS (default 32), BIN (release binaries), REGISTRATIONS (default 1,000,000),
# BENCH_POSTGRES_PORT (the benchmark's own server, default 54339).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SOAK_SECONDS:-600}"
connections="${SOAK_CONNECTIONS:-32}"
registrations="${REGISTRATIONS:-1000000}"
growth_limit="${SOAK_MEMORY_GROWTH_PERCENT:-10}"
bin="${BIN:-.build/release}"
[ -x "$bin/tessera" ] || swift build -c release --product tessera >&2

work="$(mktemp -d /tmp/tessera-soak-XXXXXX)"
declare -A pid_of
cleanup() { for pid in "${pid_of[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"; }
trap cleanup EXIT

"$bin/tessera" certs dev --out "$work/certs" >/dev/null
export TESSERA_POSTGRES_PORT="${BENCH_POSTGRES_PORT:-54339}"
url="$(TESSERA_POSTGRES_SHARED_BUFFERS="$(awk '/MemTotal/ {print int($2 / 1024 / 4)}' /proc/meminfo)MB" scripts/postgres.sh)"
soak_url="${url%/*}/tessera_soak"
serve_url="$soak_url?host=$(scripts/postgres.sh socket-dir)"
loops=$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))
psql "${url%/*}/postgres" -qc "DROP DATABASE IF EXISTS tessera_soak" -c "CREATE DATABASE tessera_soak" >&2

start_server() {  # port
    TESSERA_EVENT_LOOP_THREADS="$loops" "$bin/tessera" serve --port "$1" --database "$serve_url" \
        --templates PassTemplates --cert "$work/certs/pass.pem" --key "$work/certs/pass.key" \
        --wwdr "$work/certs/wwdr.pem" --log-level warning >>"$work/serve-$1.log" 2>&1 &
    pid_of[$1]=$!
    for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0; sleep 0.2; done
    echo "server on port $1 did not start" >&2; cat "$work/serve-$1.log" >&2; return 1
}
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

start_server 18095
scripts/bench-seed-postgres.sh "$soak_url" "$registrations"
start_server 18096

echo "soak: $seconds s, $connections connections, two processes ($loops event loop threads each), $registrations registrations" >&2
python3 scripts/soak-client.py --seconds "$seconds" --connections "$connections" --devices $((registrations / 4)) \
    --restarting-file "$work/restarting" 18095 18096 >"$work/client.json" &
client=$!

samples="$work/memory.txt"
elapsed=0
restarted=no
while kill -0 "$client" 2>/dev/null; do
    sleep 10; elapsed=$((elapsed + 10))
    if [ $((elapsed % 60)) -eq 0 ]; then
        echo "$elapsed $(rss_kb "${pid_of[18095]}") $(rss_kb "${pid_of[18096]}")" >>"$samples"
        echo "[$elapsed s] resident memory (KB): 18095 $(rss_kb "${pid_of[18095]}"), 18096 $(rss_kb "${pid_of[18096]}")" >&2
    fi
    if [ "$restarted" = no ] && [ "$elapsed" -ge $((seconds / 2)) ]; then
        echo "[$elapsed s] restarting the server on 18096: SIGTERM" >&2
        echo 18096 >"$work/restarting"
        kill -TERM "${pid_of[18096]}"
        wait "${pid_of[18096]}" || true
        start_server 18096
        echo >"$work/restarting"
        echo "[$elapsed s] 18096 is back" >&2
        restarted=yes
    fi
done
wait "$client"

python3 - "$work/client.json" "$samples" "$growth_limit" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
counts = result["counts"]
rows = [line.split() for line in open(sys.argv[2]) if line.strip()]
ok = sum(v for k, v in counts.items() if k.endswith(" ok"))
errors = {k: v for k, v in counts.items() if k.endswith(" bad status") or k.endswith(" lost in flight")}
excused = {k: v for k, v in counts.items() if "restarting" in k}
print(f"requests answered: {ok:,} in {result['seconds']} s ({ok / result['seconds']:,.0f}/s)")
print(f"errors: {sum(errors.values())} {errors} {result['badStatuses']}")
print(f"in flight on the restarted process: {sum(excused.values())}; retried elsewhere (not sent, refused): "
      f"{ {k: v for k, v in counts.items() if k.endswith('not sent') or k.endswith('refused')} }")
steady = [int(row[1]) for row in rows if int(row[0]) > 60]
growth = (steady[-1] - steady[0]) * 100 / steady[0] if len(steady) >= 2 else 0
print(f"resident memory of the process that ran throughout, after the first minute: {steady[0] if steady else 0:,} KB "
      f"-> {steady[-1] if steady else 0:,} KB ({growth:+.1f} %)")
print("minute samples (seconds, KB of 18095, KB of 18096):", "; ".join(" ".join(row) for row in rows))
sys.exit(1 if errors or growth > float(sys.argv[3]) else 0)
EOF

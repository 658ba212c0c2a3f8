#!/usr/bin/env bash
# Two builds of tessera, alternated round by round on the same machine: server CPU time per request (user + system
# time of the `tessera serve` process from /proc, divided by the requests wrk completed) and requests per second, for
# the SQLite device endpoints of bench-server.sh. CPU per request moves far less than requests per second when the
# machine is busy, so small differences between builds show.
#
#   scripts/bench-ab.sh BASE_BIN NEW_BIN     (each a folder holding release `tessera` and `tessera-bench`)
#
# Environment: ROUNDS (default 5), DURATION (wrk seconds per endpoint, default 8; 2 more are run first, uncounted),
# CONNECTIONS (default 64), SEEDS ("BASE.sqlite NEW.sqlite": stores already seeded by each build's
# `tessera-bench seed --sqlite`; default: seeded here, once per build: 100,000 passes and 1,000,000 registrations).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: scripts/bench-ab.sh BASE_BIN NEW_BIN" >&2; exit 2; }
builds=("$1" "$2")
rounds="${ROUNDS:-5}"; duration="${DURATION:-8}"; connections="${CONNECTIONS:-64}"
command -v wrk >/dev/null || { echo "==> installing wrk" >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
work="$(mktemp -d /tmp/tessera-ab-XXXXXX)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/bench-wrk-scripts.sh "$work"
"${builds[1]}/tessera" certs dev --out "$work/certs" >/dev/null
read -r -a seeds <<<"${SEEDS:-}"
for index in 0 1; do
    if [ -n "${seeds[$index]:-}" ]; then
        sqlite3 "${seeds[$index]}" ".backup '$work/seed-$index.sqlite'"
    else
        "${builds[$index]}/tessera-bench" seed --sqlite "$work/seed-$index.sqlite" >/dev/null
    fi
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
echo "| round | build | list µs/req (req/s, p99 ms) | download | 304 | registration | load |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq 1 "$rounds"); do
    for index in 0 1; do
        bin="${builds[$index]}"
        cp "$work/seed-$index.sqlite" "$work/run.sqlite"; rm -f "$work/run.sqlite-wal" "$work/run.sqlite-shm"
        "$bin/tessera" serve --port 18191 --database "sqlite:$work/run.sqlite" --templates PassTemplates \
            --cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem" \
            --log-level warning >"$work/serve.log" 2>&1 &
        pid=$!
        for _ in $(seq 1 100); do curl -fs http://127.0.0.1:18191/health >/dev/null 2>&1 && break; sleep 0.2; done
        # The first 1,000 passes into the bundle cache, as the download scripts ask for them.
        for i in $(seq 0 999); do printf 'url = "http://127.0.0.1:18191/v1/passes/pass.dev.tessera.demo/B%07d"\nheader = "Authorization: ApplePass benchtoken%022d"\noutput = /dev/null\n' "$i" "$i"; done \
            | curl -fs --no-progress-meter --parallel --parallel-max 16 -K - 2>/dev/null || true
        row="| $round | $(basename "$bin") |"
        for script in list download download304 register; do
            wrk -t 2 -c "$connections" -d 2s -s "$work/$script.lua" http://127.0.0.1:18191 >/dev/null 2>&1
            before=$(ticks "$pid")
            out=$(wrk -t 2 -c "$connections" -d "${duration}s" --latency -s "$work/$script.lua" http://127.0.0.1:18191 2>&1)
            after=$(ticks "$pid")
            requests=$(echo "$out" | grep -oE '[0-9]+ requests in' | grep -oE '^[0-9]+')
            rate=$(echo "$out" | grep -oE 'Requests/sec: +[0-9.]+' | grep -oE '[0-9.]+$')
            p99=$(echo "$out" | awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.1f", v }')
            row="$row $(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }') (${rate%.*}, $p99) |"
        done
        echo "$row $(cut -d' ' -f1 /proc/loadavg) |"
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
done

#!/usr/bin/env bash
# Export benchmark for docs/benchmarks.md: every pass of a store of PASSES passes (default 1,000,000, 4 devices' worth of
# registrations on a quarter of them) streamed by GET /api/v1/passes as CSV and as NDJSON, on SQLite.
#
#   scripts/bench-export.sh
#
# Reported for each format: rows, bytes, seconds, rows per second, and the server's memory sampled every 0.2 s: its
# anonymous resident memory (RssAnon: heap and stacks) before the export, largest while the first tenth of the rows
# arrived and largest over the whole export (memory bounded by the page, not the table, shows as the last two being
# alike), and its largest VmRSS, which also counts the pages of the SQLite file the store memory-maps (they grow with
# the part of the file read, and the kernel takes them back under pressure). In the same run, as the
# baseline: a JSON page of 1,000 passes (the largest page), timed the same way.
# Environment: BIN (release binaries, default .build/release), PASSES.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-common.sh
passes="${PASSES:-1000000}"
bench_setup export
"$bin/tessera-bench" seed --sqlite "$work/export.sqlite" --passes "$passes" --devices $((passes / 16)) >&2
"$bin/tessera" serve --port 18401 --database "sqlite:$work/export.sqlite" --templates PassTemplates \
    --cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem" \
    --admin-token-file "$work/admin-token" --log-level warning >"$work/serve.log" 2>&1 &
server=$!; pids+=($server)
for _ in $(seq 1 300); do curl -fs http://127.0.0.1:18401/health >/dev/null 2>&1 && break; sleep 0.2; done
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$server/status"; }
anon() { awk '/RssAnon/ {print int($2 / 1024)}' "/proc/$server/status"; }

echo "| export ($passes passes) | rows | MB | seconds | rows/s | RssAnon before MB | largest RssAnon, first tenth MB | largest RssAnon, whole export MB | largest VmRSS MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for format in text/csv application/x-ndjson; do
    out="$work/export.out"
    before=$(anon)
    started=$(date +%s.%N)
    : >"$out"
    curl -fs -H "Authorization: Bearer $token" -H "Accept: $format" http://127.0.0.1:18401/api/v1/passes -o "$out" &
    client=$!
    first=0; peak=0; rsspeak=0; tenth=$((passes / 10))
    while kill -0 "$client" 2>/dev/null; do
        now=$(anon); [ "$now" -gt "$peak" ] && peak=$now
        now=$(rss); [ "$now" -gt "$rsspeak" ] && rsspeak=$now
        lines=$(wc -l <"$out")
        [ "$lines" -le "$tenth" ] && first=$peak
        sleep 0.2
    done
    wait "$client"
    seconds=$(echo "$(date +%s.%N) - $started" | bc)
    rows=$(wc -l <"$out"); [ "$format" = text/csv ] && rows=$((rows - 1))
    bytes=$(stat -c %s "$out")
    printf '| %s | %d | %.0f | %.1f | %.0f | %d | %d | %d | %d |\n' "$format" "$rows" "$(echo "$bytes / 1048576" | bc -l)" \
        "$seconds" "$(echo "$rows / $seconds" | bc -l)" "$before" "$first" "$peak" "$rsspeak"
done
# The baseline: the largest JSON page, ten times.
started=$(date +%s.%N)
for _ in $(seq 1 10); do curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:18401/api/v1/passes?limit=1000" -o /dev/null; done
page=$(echo "($(date +%s.%N) - $started) / 10" | bc -l)
printf '\nbaseline, same run: one JSON page of 1,000 passes in %.0f ms (%.0f passes/s)\n' "$(echo "$page * 1000" | bc -l)" \
    "$(echo "1000 / $page" | bc -l)"

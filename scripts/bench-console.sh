#!/usr/bin/env bash
# Console benchmark for docs/benchmarks.md: what the console's pages ask of a store of PASSES passes (default
# 1,000,000, all of template event-ticket) on SQLite, through the issuer API with a console session's cookie.
#
#   scripts/bench-console.sh
#
# Each request is timed ROUNDS times (default 20) with curl; the median and the slowest are reported:
# - the passes page: the first page of 50 and one nine tenths of the way in (keyset cursors: a page should cost the same);
# - the templates page: the counts of passes per template version (an index-only count over the template's passes);
# - the campaign composer's live count: 10 pages of 1,000;
# - a pass page's history and its picture (PNG drawn on each request).
# In the same run, as the baseline: GET /api/v1/templates (no pass read).
# Environment: BIN (release binaries, default .build/release), PASSES, ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-common.sh
passes="${PASSES:-1000000}"
rounds="${ROUNDS:-20}"
bench_setup console
"$bin/tessera-bench" seed --sqlite "$work/console.sqlite" --passes "$passes" --devices $((passes / 16)) >&2
port=18411
"$bin/tessera" serve --port "$port" --database "sqlite:$work/console.sqlite" --templates PassTemplates \
    --cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem" \
    --admin-token-file "$work/admin-token" --log-level warning >"$work/serve.log" 2>&1 &
server=$!; pids+=($server)
base="http://127.0.0.1:$port"
for _ in $(seq 1 300); do curl -fs "$base/health" >/dev/null 2>&1 && break; sleep 0.2; done

# Sign in as the console does; every request below carries the session cookie, not the bearer token.
curl -fs -c "$work/cookies" -H 'Content-Type: application/json' -d "{\"token\":\"$token\"}" "$base/console/session" >/dev/null
# The template is read (and its passes pinned to its version) on first use: not timed.
curl -fs -b "$work/cookies" "$base/api/v1/templates" >/dev/null

# Prints "median ms, slowest ms" of ROUNDS requests to a path.
timed() {
    local times=()
    for _ in $(seq 1 "$rounds"); do
        times+=("$(curl -fs -b "$work/cookies" -o /dev/null -w '%{time_total}' "$base$1")")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 * 1000 } END { printf "%.1f | %.1f", t[int((NR + 1) / 2)], t[NR] }'
}

serial=$(curl -fs -b "$work/cookies" "$base/api/v1/passes?template=event-ticket&limit=1" | python3 -c 'import json,sys; p=json.load(sys.stdin)["passes"][0]; print(p["passTypeIdentifier"] + "/" + p["serialNumber"])')
# A cursor 900,000 passes in: walk there 1,000 at a time (not timed).
cursor=""
for _ in $(seq 1 $(((passes * 9 / 10) / 1000))); do
    cursor=$(curl -fs -b "$work/cookies" "$base/api/v1/passes?template=event-ticket&limit=1000${cursor:+&cursor=$cursor}" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["nextCursor"] or "")')
done
count_pages() {
    local c=""
    for _ in $(seq 1 10); do
        c=$(curl -fs -b "$work/cookies" "$base/api/v1/passes?template=event-ticket&voided=false&limit=1000${c:+&cursor=$c}" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["nextCursor"] or "")')
    done
}

echo "| console request ($passes passes, $rounds rounds) | median ms | slowest ms |"
echo "| --- | ---: | ---: |"
echo "| baseline: GET /api/v1/templates | $(timed /api/v1/templates) |"
echo "| passes page: first 50 | $(timed '/api/v1/passes?template=event-ticket&limit=50') |"
echo "| passes page: 50 after $((passes * 9 / 10)) | $(timed "/api/v1/passes?template=event-ticket&limit=50&cursor=$cursor") |"
echo "| templates page: passes per version | $(timed /api/v1/templates/event-ticket/versions) |"
echo "| pass page: history | $(timed "/api/v1/passes/$serial/events") |"
echo "| pass page: picture (PNG) | $(timed "/api/v1/passes/$serial/preview") |"
started=$(date +%s.%N)
for _ in $(seq 1 5); do count_pages; done
printf '| campaign composer: live count (10 pages of 1,000, python parsing included) | %.1f | — |\n' \
    "$(echo "($(date +%s.%N) - $started) * 1000 / 5" | bc -l)"

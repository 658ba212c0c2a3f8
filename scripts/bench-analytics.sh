#!/usr/bin/env bash
# Analytics benchmark for docs/benchmarks.md: GET /api/v1/analytics/passes over EVENTS events (default 10,000,000).
#
#   scripts/bench-analytics.sh [sqlite|postgres|all]      (default all)
#
# The store gets 10,000 passes of ten templates (bench-0 ... bench-9) and EVENTS events spread over 120 days, written
# straight into the event log by one set-based statement: in every 20 events, 12 pass.updated, 5 pass.registered (a new
# device adding five passes) and 3 pass.unregistered (that device removing three of them again); EVENTS / 20 devices. `tessera serve` then folds them into its hourly rollups (how long that takes is
# reported: events per second); then one template's last 90 days by day is asked QUERIES times (default 50), with
# GET /health asked the same way in the same run as the HTTP floor. Reported: median, p95 and max of each.
# Environment: BIN (release binaries, default .build/release), EVENTS, QUERIES, BENCH_POSTGRES_PORT (default 54339).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
bin="${BIN:-.build/release}"
events="${EVENTS:-10000000}"
queries="${QUERIES:-50}"
case "$mode" in sqlite|postgres|all) ;; *) echo "usage: $0 [sqlite|postgres|all]" >&2; exit 2 ;; esac
command -v sqlite3 >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >&2
[ -x "$bin/tessera" ] || swift build -c release --product tessera >&2

work="$(mktemp -d /tmp/tessera-bench-analytics-XXXXXX)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq 1 300); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }

"$bin/tessera" certs dev --out "$work/certs" >/dev/null
openssl rand -hex 24 >"$work/admin-token"
token="$(cat "$work/admin-token")"

serve() {  # serve PORT DATABASE LOG
    "$bin/tessera" serve --port "$1" --database "$2" --templates PassTemplates --cert "$work/certs/pass.pem" \
        --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem" --admin-token-file "$work/admin-token" \
        --log-level warning >"$3" 2>&1 &
    pids+=($!); last_pid=$!
    wait_for "http://127.0.0.1:$1/health"
}

# The end of the seeded period: whole days, so "the last 90 days by day" is 90 buckets.
end_epoch=$(( ($(date +%s) / 86400) * 86400 ))
span=$((120 * 86400))

# The rows, as SQL both stores run: passes, then the events (n = 1 ... EVENTS). An unregistration names the pass the
# registration five events before it added.
event_type="CASE WHEN n % 20 < 12 THEN 'pass.updated' WHEN n % 20 < 17 THEN 'pass.registered' ELSE 'pass.unregistered' END"
subject="(CASE WHEN n % 20 >= 17 THEN n - 5 ELSE n END) % 10000"

timings() {  # timings LABEL URL: QUERIES requests, one at a time; prints median, p95 and max in ms
    local label="$1" url="$2" file="$work/times"
    : >"$file"
    for _ in $(seq 1 "$queries"); do
        curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $token" "$url" >>"$file"
    done
    sort -n "$file" | awk -v label="$label" '{ t[NR] = $1 * 1000 } END {
        printf "| %s | %.1f | %.1f | %.1f |\n", label, t[int((NR + 1) / 2)], t[int(NR * 0.95 + 0.5)], t[NR] }'
}

report() {  # report STORE PORT FOLD_SECONDS
    local from to
    from="$(date -u -d "@$((end_epoch - 90 * 86400))" +%Y-%m-%dT%H:%M:%SZ)"
    to="$(date -u -d "@$end_epoch" +%Y-%m-%dT%H:%M:%SZ)"
    echo
    echo "### $1: $events events folded in $3 s ($(echo "$events / $3" | bc) events/s)"
    echo
    echo "| request ($queries times, one at a time) | median ms | p95 ms | max ms |"
    echo "| --- | ---: | ---: | ---: |"
    timings "GET /health (the HTTP floor, same run)" "http://127.0.0.1:$2/health"
    timings "one template, 90 days by day" \
        "http://127.0.0.1:$2/api/v1/analytics/passes?template=bench-3&from=$from&to=$to&interval=day"
    timings "every pass, 90 days by day" "http://127.0.0.1:$2/api/v1/analytics/passes?from=$from&to=$to&interval=day"
    timings "one template, 90 days by hour" \
        "http://127.0.0.1:$2/api/v1/analytics/passes?template=bench-3&from=$from&to=$to&interval=hour"
    curl -fs -H "Authorization: Bearer $token" \
        "http://127.0.0.1:$2/api/v1/analytics/passes?template=bench-3&from=$from&to=$to&interval=day" \
        | python3 -c 'import json,sys; t=json.load(sys.stdin)["totals"]; print("\ntotals of bench-3:", t)'
}

wait_folded() {  # wait_folded COMMAND...: until it prints 1 (the fold cursor reached the last event); prints the seconds
    local started=$SECONDS
    until [ "$("$@" 2>/dev/null)" = "1" ]; do sleep 1; done
    echo $((SECONDS - started))
}

if [ "$mode" = sqlite ] || [ "$mode" = all ]; then
    db="$work/analytics.sqlite"
    serve 18301 "sqlite:$db" "$work/serve-sqlite-migrate.log"; kill "$last_pid"; wait "$last_pid" 2>/dev/null || true
    started=$SECONDS
    sqlite3 "$db" <<EOF
PRAGMA journal_mode = WAL;
WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 9999)
INSERT INTO passes (pass_type_identifier, serial_number, authentication_token, template, data, voided, download_token,
                    update_tag, last_modified, created_at)
SELECT 'pass.dev.tessera.demo', printf('A%07d', n), printf('benchtoken%022d', n), 'bench-' || (n % 10), CAST('{}' AS BLOB),
       0, printf('dl%038d', n), n + 1, $end_epoch, $end_epoch FROM i;
UPDATE counters SET value = 10000 WHERE name = 'update_tag';
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $events)
INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
SELECT $event_type, $((end_epoch - span)) + n * $span.0 / $events, 'pass.dev.tessera.demo', printf('A%07d', $subject),
       printf('%032x', n / 20),
       CAST(json_object('passTypeIdentifier', 'pass.dev.tessera.demo', 'serialNumber', printf('A%07d', $subject),
                        'device', printf('%032x', n / 20)) AS BLOB) FROM i;
EOF
    echo "SQLite: seeded 10,000 passes and $events events in $((SECONDS - started)) s" >&2
    serve 18301 "sqlite:$db" "$work/serve-sqlite.log"
    fold=$(wait_folded sqlite3 "$db" "SELECT cursor_id >= (SELECT max(id) FROM events) FROM analytics_state")
    report "SQLite" 18301 "$fold"
    kill "$last_pid"; wait "$last_pid" 2>/dev/null || true
fi

if [ "$mode" = postgres ] || [ "$mode" = all ]; then
    export TESSERA_POSTGRES_PORT="${BENCH_POSTGRES_PORT:-54339}"
    url="$(scripts/postgres.sh)"
    socket="host=$(scripts/postgres.sh socket-dir)"
    psql "${url%/*}/postgres" -qc "DROP DATABASE IF EXISTS tessera_analytics" -c "CREATE DATABASE tessera_analytics" >&2
    database="${url%/*}/tessera_analytics"
    serve 18302 "$database?$socket" "$work/serve-pg-migrate.log"; kill "$last_pid"; wait "$last_pid" 2>/dev/null || true
    started=$SECONDS
    psql "$database" -q -v ON_ERROR_STOP=1 <<EOF >&2
INSERT INTO passes (pass_type_identifier, serial_number, authentication_token, template, data, voided, download_token,
                    update_tag, last_modified, created_at)
SELECT 'pass.dev.tessera.demo', 'A' || lpad(n::text, 7, '0'), 'benchtoken' || lpad(n::text, 22, '0'), 'bench-' || (n % 10),
       convert_to('{}', 'UTF8'), false, 'dl' || lpad(n::text, 38, '0'), n + 1, to_timestamp($end_epoch), to_timestamp($end_epoch)
FROM generate_series(0, 9999) AS n;
UPDATE counters SET value = 10000 WHERE name = 'update_tag';
INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
SELECT $event_type, to_timestamp($((end_epoch - span)) + n * $span.0 / $events), 'pass.dev.tessera.demo',
       'A' || lpad(($subject)::text, 7, '0'), lpad(to_hex(n / 20), 32, '0'),
       jsonb_build_object('passTypeIdentifier', 'pass.dev.tessera.demo', 'serialNumber', 'A' || lpad(($subject)::text, 7, '0'),
                          'device', lpad(to_hex(n / 20), 32, '0'))
FROM generate_series(1, $events) AS n;
ANALYZE;
EOF
    echo "PostgreSQL: seeded 10,000 passes and $events events in $((SECONDS - started)) s" >&2
    serve 18302 "$database?$socket" "$work/serve-pg.log"
    fold=$(wait_folded psql "$database" -Atc "SELECT CASE WHEN (SELECT (cursor_transaction, cursor_id) FROM analytics_state)
        >= (SELECT (transaction_id, id) FROM events ORDER BY transaction_id DESC, id DESC LIMIT 1) THEN 1 ELSE 0 END")
    report "PostgreSQL" 18302 "$fold"
fi

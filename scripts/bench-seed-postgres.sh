#!/usr/bin/env bash
# Seeds a migrated Tessera PostgreSQL database for the load benchmarks (scripts/bench-server.sh, scripts/soak-postgres.sh):
#
#     scripts/bench-seed-postgres.sh URL [REGISTRATIONS]
#
# 100,000 passes of `pass.dev.tessera.demo` (serial numbers B0000000..., tokens benchtoken..., the names the wrk scripts
# and `tessera-bench seed` use) and REGISTRATIONS registrations (default 1,000,000), four per device (dev00000000...).
# One set-based statement per table, run in the server, with foreign-key triggers off for the load (the rows are made
# consistent): 10,000,000 registrations take minutes, not hours.
set -euo pipefail
url="$1"
registrations="${2:-1000000}"
devices=$((registrations / 4))
started=$SECONDS
psql "$url" -q -v ON_ERROR_STOP=1 -v devices="$devices" <<'EOF' >&2
SET session_replication_role = replica;
INSERT INTO passes (pass_type_identifier, serial_number, authentication_token, template, data, voided, download_token,
                    update_tag, last_modified, created_at)
SELECT 'pass.dev.tessera.demo', 'B' || lpad(i::text, 7, '0'), 'benchtoken' || lpad(i::text, 22, '0'), 'event-ticket',
       convert_to('{"fields":{"seat":"' || (i % 40 + 1) || '"}}', 'UTF8'), false, 'dl' || lpad(i::text, 38, '0'),
       i + 1, date_trunc('second', now()), date_trunc('second', now())
FROM generate_series(0, 99999) AS i;
UPDATE counters SET value = 100000 WHERE name = 'update_tag';
INSERT INTO devices SELECT 'dev' || lpad(d::text, 8, '0'), lpad(to_hex(d), 64, '0'), now() FROM generate_series(0, :devices - 1) AS d;
INSERT INTO registrations
SELECT 'dev' || lpad(d::text, 8, '0'), 'pass.dev.tessera.demo', 'B' || lpad(((d * 4 + k) % 100000)::text, 7, '0'), now()
FROM generate_series(0, :devices - 1) AS d, generate_series(0, 3) AS k;
ANALYZE;
EOF
echo "seeded 100,000 passes and $registrations registrations in $((SECONDS - started)) s" >&2

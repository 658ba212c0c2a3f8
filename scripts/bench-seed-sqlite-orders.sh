#!/usr/bin/env bash
# Seeds the Wallet order tables of a Tessera SQLite store (created by a first `tessera serve --order-templates` on it)
# for scripts/bench-server.sh, like `tessera-bench seed` seeds its passes:
#
#     scripts/bench-seed-sqlite-orders.sh FILE [REGISTRATIONS]
#
# 100,000 orders of `order.dev.tessera.demo` from the `shop-order` template (O0000000..., tokens ordertoken...) and
# REGISTRATIONS order registrations (default 1,000,000), four per device (odev00000000...). One set-based statement per
# table in one transaction.
set -euo pipefail
file="$1"
registrations="${2:-1000000}"
devices=$((registrations / 4))
started=$SECONDS
command -v sqlite3 >/dev/null || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >&2; }
sqlite3 "$file" <<EOF
PRAGMA foreign_keys = OFF;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
INSERT INTO orders (pass_type_identifier, serial_number, authentication_token, template, data, voided, download_token,
                    update_tag, last_modified, created_at)
SELECT 'order.dev.tessera.demo', printf('O%07d', i), printf('ordertoken%022d', i), 'shop-order',
       CAST(printf('{"orderIdentifier":"O%07d"}', i) AS BLOB), 0, printf('od%038d', i), i + 1,
       CAST(strftime('%s', 'now') AS INTEGER), CAST(strftime('%s', 'now') AS INTEGER)
FROM n;
UPDATE counters SET value = 100000 WHERE name = 'order_update_tag';
WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < $devices - 1)
INSERT INTO order_devices (device_library_identifier, push_token, updated_at)
SELECT printf('odev%08d', i), printf('%064x', i), CAST(strftime('%s', 'now') AS REAL) FROM d;
WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < $devices - 1), k(j) AS (VALUES (0), (1), (2), (3))
INSERT INTO order_registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
SELECT printf('odev%08d', i), 'order.dev.tessera.demo', printf('O%07d', (i * 4 + j) % 100000), CAST(strftime('%s', 'now') AS REAL)
FROM d, k;
COMMIT;
ANALYZE;
EOF
echo "seeded 100,000 orders and $registrations order registrations in $((SECONDS - started)) s" >&2

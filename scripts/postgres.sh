#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests and prints its URL on stdout (everything else goes to stderr):
#
#     export TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
#
# The cluster listens on 127.0.0.1 only, with trust authentication, and holds database `tessera_test`. Installs
# `postgresql` with apt when missing. Idempotent: a server already answering on the port is reused.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user and lives under /tmp;
# otherwise it lives in .build-postgres/ (ignored by git). Stop it with `scripts/postgres.sh stop`.
# `scripts/postgres.sh socket-dir` prints the folder of the server's Unix-domain socket instead (the URL's `?host=`).
# Environment: TESSERA_POSTGRES_PORT (default 54329), TESSERA_POSTGRES_SHARED_BUFFERS (shared_buffers when this script
# starts the server; default PostgreSQL's 128MB; the benchmarks give their own server 25 % of the memory).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."

port="${TESSERA_POSTGRES_PORT:-54329}"
database=tessera_test

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "==> installing postgresql" >&2
    # shellcheck source=scripts/apt-install.sh
    . "$here/apt-install.sh"
    apt_install postgresql >&2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"

if [ "$(id -u)" -eq 0 ]; then
    user=postgres
    id "$user" >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash "$user"
    base="/tmp/tessera-postgres-$port"
    as_owner() { (cd / && runuser -u "$user" -- "$@"); }
else
    user="$(id -un)"
    base="$PWD/.build-postgres"
    as_owner() { "$@"; }
fi
data="$base/data"

if [ "${1:-}" = "socket-dir" ]; then
    echo "$base"
    exit 0
fi
if [ "${1:-}" = "stop" ]; then
    [ -f "$data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2
    exit 0
fi

if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
    mkdir -p "$base"
    [ "$(id -u)" -eq 0 ] && chown "$user" "$base" && chmod 700 "$base"
    if [ ! -s "$data/PG_VERSION" ]; then
        echo "==> initialising a PostgreSQL cluster in $data" >&2
        as_owner "$bin/initdb" -D "$data" -U "$user" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$base/initdb.log" 2>&1 \
            || { cat "$base/initdb.log" >&2; exit 1; }
    fi
    echo "==> starting PostgreSQL on 127.0.0.1:$port" >&2
    # fsync off: a throwaway test cluster trades durability for speed.
    options="-c listen_addresses=127.0.0.1 -p $port -k $base -c fsync=off -c synchronous_commit=off -c max_connections=500"
    options="$options -c shared_buffers=${TESSERA_POSTGRES_SHARED_BUFFERS:-128MB}"
    as_owner "$bin/pg_ctl" -D "$data" -l "$base/server.log" -w -t 60 -o "$options" start >&2 \
        || { tail -n 20 "$base/server.log" >&2; exit 1; }
fi

exists="$(as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U "$user" -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$database'")"
if [ "$exists" != "1" ]; then
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$user" "$database" >&2
fi

echo "postgres://$user@127.0.0.1:$port/$database"

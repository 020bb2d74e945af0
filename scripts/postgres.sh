#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on 127.0.0.1 for the cluster tests and prints its URL.
#   eval "$(bash scripts/postgres.sh)"   # sets TYPEWIRE_TEST_POSTGRES_URL
# Installs Debian's postgresql package if it is missing (needs root and apt). The data folder lives
# under /tmp and trusts local connections; nothing here is for production.
set -euo pipefail
PORT="${TYPEWIRE_TEST_POSTGRES_PORT:-54329}"
DATA="${TYPEWIRE_TEST_POSTGRES_DATA:-/tmp/typewire-postgres-$PORT}"

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    echo "installing postgresql from Debian's packages" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
BIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")"
RUN_AS=()
[ "$(id -u)" = 0 ] && RUN_AS=(runuser -u postgres --)  # PostgreSQL refuses to run as root

if ! "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    rm -rf "$DATA"
    mkdir -p "$DATA"
    [ "$(id -u)" = 0 ] && chown postgres "$DATA"
    "${RUN_AS[@]}" "$BIN/initdb" -D "$DATA" -U postgres --auth=trust >/dev/null
    "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
        -o "-h 127.0.0.1 -p $PORT -k $DATA -c max_connections=300 -c fsync=off" start >/dev/null
fi
"$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'typewire_test'" | grep -q 1 \
    || "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE typewire_test" >/dev/null
echo "export TYPEWIRE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$PORT/typewire_test"

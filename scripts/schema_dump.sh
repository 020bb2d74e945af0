#!/usr/bin/env bash
# Records a release's stores for SchemaUpgradeTests (Tests/TypewireServerTests/Store/SchemaUpgradeTests.swift):
# OUT/sqlite-VERSION.sql and OUT/postgres-VERSION.sql, each made by that release's own server, built from its tag
# in a worktree, and filled by scripts/schema_fill.py. A release that adds a migration records its own beside
# the others in TestVectors/schema, and the test opens them with every later release.
#   eval "$(bash scripts/postgres.sh)"; bash scripts/schema_dump.sh 0.3.0 [OUT]
# Needs: the PostgreSQL server of TYPEWIRE_TEST_POSTGRES_URL (scripts/postgres.sh starts one), psql and pg_dump,
# and python3 with websocket-client (the CI's virtual environment has it: .build/ci-python/bin/python3).
set -euo pipefail
version="${1:?usage: bash scripts/schema_dump.sh VERSION [OUT]}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${2:-$root/TestVectors/schema}" && cd "${2:-$root/TestVectors/schema}" && pwd)"
python="${PYTHON:-$root/.build/ci-python/bin/python3}"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    git -C "$root" worktree remove --force "$work/src" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add -q --detach "$work/src" "$version"
(cd "$work/src" && swift build --product typewire -debug-info-format none >"$work/build.log" 2>&1) || {
    tail -n 30 "$work/build.log" >&2
    exit 1
}
bin="$work/src/.build/debug/typewire"
secret="schema-dump-secret-of-thirty-two-bytes-or-more"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Runs the release's server on a store (its arguments), fills it, and stops it gracefully.
fill() {
    local port
    port="$(free_port)"
    "$bin" serve --seed-demo --jwt-secret "$secret" --host 127.0.0.1 --port "$port" \
        --webhook-url http://127.0.0.1:9/hook --webhook-secret "$secret" "$@" >"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    "$python" "$root/scripts/schema_fill.py" "$bin" "$secret" "$port"
    kill -TERM "$server"
    wait "$server" || true
    server=""
}

fill --sqlite "$work/t.sqlite"
python3 - "$work/t.sqlite" "$out/sqlite-$version.sql" "$version" <<'PYTHON'
import sqlite3, sys
database, target, version = sys.argv[1:]
connection = sqlite3.connect(database)
schema = connection.execute("SELECT max(version) FROM schema_version").fetchone()[0]
header = (f"-- A SQLite file of typewire {version} (schema version {schema}), made by that release's server and\n"
          "-- scripts/schema_fill.py (scripts/schema_dump.sh): the demo's users and conversations, messages with an edit and\n"
          "-- a reply in a thread, reads (shared and private), delivered marks, settings, a block, last seen, and webhook\n"
          "-- events waiting for a receiver that is down. SchemaUpgradeTests opens a file made from it with every later release.\n")
open(target, "w").write(header + "\n".join(connection.iterdump()) + "\n")
PYTHON

# The test server's address, a database of our own on it.
url="${TYPEWIRE_TEST_POSTGRES_URL:?run eval \"\$(bash scripts/postgres.sh)\" first}"
read -r pguser pghost pgport < <(python3 -c 'import sys, urllib.parse as u; p = u.urlparse(sys.argv[1]); print(p.username, p.hostname, p.port or 5432)' "$url")
database="schema_dump_$$"
pg() { "$@" -h "$pghost" -p "$pgport" -U "$pguser"; }
pg psql -q -d postgres -c "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database"
fill --postgres-url "postgres://$pguser@$pghost:$pgport/$database" --cluster-secret "$secret"
pg pg_dump --inserts --no-owner --no-privileges -d "$database" >"$work/raw.sql"
pg psql -q -d postgres -c "DROP DATABASE $database"
python3 - "$work/raw.sql" "$out/postgres-$version.sql" "$version" <<'PYTHON'
import sys
raw, target, version = sys.argv[1:]
lines = []
for line in open(raw).read().split("\n"):
    # Comments, session settings and newer pg_dumps' \restrict guards: the test runs statements, not psql.
    if line.startswith(("--", "SET ", "SELECT pg_catalog.set_config", "\\restrict", "\\unrestrict")):
        continue
    if line == "" and (not lines or lines[-1] == ""):
        continue
    lines.append(line)
while lines and lines[0] == "":
    lines.pop(0)
header = (f"-- Typewire {version}'s PostgreSQL schema and rows, for SchemaUpgradeTests: pg_dump --inserts --no-owner\n"
          "-- --no-privileges of a database made by that release's server and scripts/schema_fill.py (scripts/schema_dump.sh),\n"
          "-- pg_dump's session settings left out. Each statement ends with `;` at the end of a line.\n")
open(target, "w").write(header + "\n".join(lines).rstrip("\n") + "\n")
PYTHON
echo "wrote $out/sqlite-$version.sql and $out/postgres-$version.sql"

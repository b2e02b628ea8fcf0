#!/usr/bin/env bash
# Starts (once) a throwaway PostgreSQL server on loopback for the store's tests and prints its
# URL (`scripts/pg.sh stop` stops it). Data lives in target/pg (owned by the postgres user, as PostgreSQL refuses root).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port="${BATON_PG_PORT:-55432}"
data="$root/target/pg/data"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = "stop" ]; then
  if [ -f "$data/postmaster.pid" ]; then as_pg "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null || true; fi
  exit 0
fi
if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  mkdir -p "$root/target/pg"
  if [ ! -f "$data/PG_VERSION" ]; then
    rm -rf "$data"; mkdir -p "$data"
    [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root/target/pg"
    as_pg "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
  fi
  [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root/target/pg"
  as_pg "$bin/pg_ctl" -D "$data" -l "$root/target/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k /tmp -c fsync=off" start >/dev/null
fi
echo "postgres://postgres@127.0.0.1:$port/postgres"

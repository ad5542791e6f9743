#!/usr/bin/env bash
# pg.sh: the benchmark's private PostgreSQL 15 cluster on 127.0.0.1:$PEERS_PG_PORT
# (default 5545), data in $PEERS_PG_DIR (default /tmp/pbem-peers-pg), initdb's
# settings (fsync and synchronous_commit on). Never the shared server on 5432.
#
#   pg.sh              start it unless something answers on the port; print its URL
#   pg.sh checkpoint   CHECKPOINT (before each measurement)
#   pg.sh clean        drop databases left by interrupted runs (peers_*, pbem_load_*)
#   pg.sh defaults     ALTER SYSTEM RESET ALL: initdb's settings again (run.sh, compare.sh)
#   pg.sh settings     the data directory and what ALTER SYSTEM changed (run.sh prints it:
#                      another harness may answer on the same port)
#   pg.sh stop         stop it
set -euo pipefail
port=${PEERS_PG_PORT:-5545}
dir=${PEERS_PG_DIR:-/tmp/pbem-peers-pg}
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
url="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }
sql() { "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"; }
case "${1:-start}" in
start)
  if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then echo "$url"; exit 0; fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_pg "$bin/initdb -D $dir/data -U postgres -A trust -E UTF8 --locale=C.UTF-8 >$dir/initdb.log"
  fi
  as_pg "$bin/pg_ctl -D $dir/data -l $dir/log -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1\" start" >&2
  echo "$url" ;;
checkpoint) sql -c CHECKPOINT ;;
defaults) sql -c "ALTER SYSTEM RESET ALL" -c "SELECT pg_reload_conf()" >/dev/null ;;
settings)
  sql -At -c "SELECT 'data directory: ' || current_setting('data_directory') || ', ALTER SYSTEM settings: ' ||
    coalesce((SELECT string_agg(name || '=' || setting, ', ') FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf'), 'none')" ;;
clean)
  for d in $(sql -At -c "SELECT datname FROM pg_database WHERE datname ~ '^(peers_|pbem_load_)'"); do
    sql -c "DROP DATABASE IF EXISTS $d WITH (FORCE)"
  done ;;
stop) if [ -f "$dir/data/PG_VERSION" ]; then as_pg "$bin/pg_ctl -D $dir/data -m fast stop" >&2 || true; fi ;;
*) echo "usage: pg.sh [start|checkpoint|defaults|settings|clean|stop]" >&2; exit 2 ;;
esac

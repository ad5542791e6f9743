#!/usr/bin/env bash
# cluster.sh up|down|status|url: a Citus coordinator and two workers on this
# machine, three PostgreSQL clusters on loopback ports under a data dir of
# their own (CITUS_DIR, default $PBEM_DATA/citus, else ./data/citus), for
# `make test-citus` and the figures of docs/SCALING.md. Ports: CITUS_PORT
# (coordinator, default 5480), CITUS_PORT+1 and +2 (workers). Trust
# authentication on 127.0.0.1 only; fsync off (a rehearsal, not a store).
# `up` exits 2 with a clear message when the citus extension is not
# installed for this PostgreSQL (see docs/SCALING.md for its build).
# `url` prints the coordinator's URL; `workers` the workers' URLs;
# `spread DB` the games of database DB on each worker (the rows of the
# games table's shards, counted on each shard, by the node holding it).
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin # runuser, for root
usage="usage: cluster.sh up|down|status|url|workers|spread DB"
cmd=${1:?$usage}
dir=${CITUS_DIR:-${PBEM_DATA:-./data}/citus}
port=${CITUS_PORT:-5480}
pgbin=${PG_BIN:-$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)}
names=(coordinator worker1 worker2)
run() { # run CMD...: as postgres when root (PostgreSQL refuses root)
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
url() { echo "postgres://postgres@127.0.0.1:$1/postgres?sslmode=disable"; }
psqlc() { PGOPTIONS="-c client_min_messages=warning" run "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d postgres -c "$2"; }
case $cmd in
url) url "$port"; exit 0 ;;
workers) url $((port + 1)); url $((port + 2)); exit 0 ;;
spread)
  db=${2:?$usage}
  run "$pgbin/psql" -X -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$db" -c "
SELECT s.nodename || ':' || s.nodeport AS worker, count(*) AS shards, sum(r.result::bigint) AS games
FROM run_command_on_shards('games', 'SELECT count(*) FROM %s') r JOIN citus_shards s ON s.shardid = r.shardid
GROUP BY 1 ORDER BY 1"
  exit 0 ;;
status)
  for i in 0 1 2; do
    run "$pgbin/pg_ctl" -D "$dir/${names[$i]}" status >/dev/null 2>&1 &&
      echo "${names[$i]}: up on $((port + i))" || echo "${names[$i]}: down"
  done
  exit 0 ;;
down)
  for i in 0 1 2; do
    [ -d "$dir/${names[$i]}" ] && run "$pgbin/pg_ctl" -D "$dir/${names[$i]}" -m fast -w stop >/dev/null 2>&1 || true
  done
  echo "citus: stopped (data kept in $dir; rm -rf it to start afresh)"
  exit 0 ;;
up) ;;
*) echo "$usage" >&2; exit 64 ;;
esac
share=$("$pgbin/pg_config" --sharedir 2>/dev/null || pg_config --sharedir)
if [ ! -f "$share/extension/citus.control" ]; then
  echo "citus: the citus extension is not installed for $("$pgbin/postgres" --version) ($share/extension/citus.control is missing): skipped; build it as docs/SCALING.md says" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd) # absolute: the socket directory is written in each node's postgresql.conf
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
for i in 0 1 2; do
  d="$dir/${names[$i]}" p=$((port + i))
  if [ ! -f "$d/PG_VERSION" ]; then
    run "$pgbin/initdb" -D "$d" -U postgres --auth=trust >/dev/null
    cat >>"$d/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $p
unix_socket_directories = '$d'
shared_preload_libraries = 'citus'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 128MB
max_prepared_transactions = 200
citus.shard_count = 8
CONF
  fi
  run "$pgbin/pg_ctl" -D "$d" status >/dev/null 2>&1 ||
    run "$pgbin/pg_ctl" -D "$d" -l "$d/log" -w start >/dev/null
done
for i in 0 1 2; do psqlc $((port + i)) "CREATE EXTENSION IF NOT EXISTS citus"; done
psqlc "$port" "SELECT citus_set_coordinator_host('127.0.0.1', $port)" >/dev/null
for i in 1 2; do
  psqlc "$port" "SELECT citus_add_node('127.0.0.1', $((port + i))) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = $((port + i)))" >/dev/null
done
echo "citus: coordinator $(url "$port"), workers on $((port + 1)) and $((port + 2)) ($dir)"

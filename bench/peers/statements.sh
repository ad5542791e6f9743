#!/usr/bin/env bash
# statements.sh TREE [seconds [players]]: what a move costs PostgreSQL,
# statement by statement: one pbem-load.js play of TREE (default 15 s, 32
# players: `pbem serve` apart, driven by `pbemload -url`) on a private
# cluster that loads pg_stat_statements, whose counters are reset when the
# play starts (the "loadtest:" line) and read when it ends (the "moves:"
# line). Prints, per statement of the play's database: calls a move,
# execution time a move (µs) and its share, rows a call, WAL bytes a move
# and WAL records a move; then the totals. Execution time is PostgreSQL's
# own (planning aside) and moves with the machine's load; the calls, rows
# and WAL are counts, which hold on a busy machine.
#
# The cluster is its own (pg.sh's cannot preload a library without a
# restart): $STATEMENTS_PG_DIR (default /tmp/pbem-statements-pg) on port
# $STATEMENTS_PG_PORT (default 5547), started here with
# shared_preload_libraries=pg_stat_statements and otherwise initdb's
# settings; `PEERS_PG_DIR=/tmp/pbem-statements-pg PEERS_PG_PORT=5547
# bench/peers/pg.sh stop` stops it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "${1:?usage: statements.sh TREE [seconds [players]]}" && pwd)
secs=${2:-15} players=${3:-32}
export PATH=/usr/local/go/bin:$PATH
"$here/needs.sh"
dir=${STATEMENTS_PG_DIR:-/tmp/pbem-statements-pg}
port=${STATEMENTS_PG_PORT:-5547}
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
url="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }
sql() { "$bin/psql" -X -At -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "$1"; }
if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_pg "$bin/initdb -D $dir/data -U postgres -A trust -E UTF8 --locale=C.UTF-8 >$dir/initdb.log"
  fi
  as_pg "$bin/pg_ctl -D $dir/data -l $dir/log -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.max=10000\" start" >&2
fi
[ "$(sql "SHOW shared_preload_libraries")" = pg_stat_statements ] ||
  { echo "statements.sh: the server on port $port does not preload pg_stat_statements" >&2; exit 1; }
sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
[ -d "$here/_node/node_modules/pg" ] || (cd "$here/_node" && npm ci --no-audit --no-fund)
export NODE_PATH=$here/_node/node_modules
work=$(mktemp -d /tmp/pbem-statements.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/build.sh" "$tree" "$work/bin"
sql CHECKPOINT >/dev/null
db= moves=
while IFS= read -r line; do
  echo "$line" >&2
  case "$line" in
  "pbem: server pid"*) db=$(sed -nE 's/.* database (peers_pbem_[0-9a-f]+).*/\1/p' <<<"$line") ;;
  "loadtest:"*) sql "SELECT pg_stat_statements_reset()" >/dev/null ;;
  "moves:"*)
    moves=$(sed -E 's/.*\(([0-9]+) moves.*/\1/' <<<"$line")
    sql "COPY (SELECT calls, total_exec_time, rows, wal_bytes, wal_records, regexp_replace(query, '\s+', ' ', 'g')
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db') TO STDOUT" >"$work/stats" ;;
  esac
done < <(node "$here/pbem-load.js" --bin "$work/bin" --url "$url" --duration "$secs" --players "$players" 2>&1)
[ -n "$moves" ] && [ -s "$work/stats" ] || { echo "statements.sh: no play found" >&2; exit 1; }
echo "statements of the play, per move ($moves moves; $(date -Is), load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%8s %9s %6s %8s %8s %8s  %s\n' calls µs share rows/call WAL_B WAL_recs statement
awk -F'\t' -v m="$moves" '{ t += $2; c += $1; w += $4; r += $5; line[NR] = $0 }
  END {
    for (i = 1; i <= NR; i++) { split(line[i], f, "\t")
      printf "%8.3f %9.1f %5.1f%% %8.1f %8.0f %8.2f  %s\n", f[1]/m, 1000*f[2]/m, 100*f[2]/t, f[3]/(f[1] ? f[1] : 1), f[4]/m, f[5]/m, substr(f[6], 1, 110) }
    printf "%8.3f %9.1f %5.1f%% %8s %8.0f %8.2f  %s\n", c/m, 1000*t/m, 100, "", w/m, r/m, "all statements"
  }' "$work/stats" | sort -k2 -rn

#!/usr/bin/env bash
# sqlcount.sh TREE [seconds [players]]: the SQL statements a move costs in
# `pbem serve`: one pbem-load.js play of TREE (default 5 s, 32 players) on
# the private cluster with log_statement=all for the run, then the
# statements its database ran during the play (from the "loadtest:" line
# to the "moves:" line), per move, by kind (their first words). A count,
# not a time: it holds on a busy machine, where CPU figures do not. The
# logging slows the play; compare counts per move, not rates.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "${1:?usage: sqlcount.sh TREE [seconds [players]]}" && pwd)
secs=${2:-5} players=${3:-32}
export PATH=/usr/local/go/bin:$PATH
"$here/needs.sh"
dir=${PEERS_PG_DIR:-/tmp/pbem-peers-pg}
port=${PEERS_PG_PORT:-5545}
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
url=$("$here/pg.sh")
[ -d "$here/_node/node_modules/pg" ] || (cd "$here/_node" && npm ci --no-audit --no-fund)
export NODE_PATH=$here/_node/node_modules
work=$(mktemp -d /tmp/pbem-sqlcount.XXXXXX)
sql() { "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "$1" >/dev/null; }
trap 'sql "ALTER SYSTEM RESET log_statement"; sql "ALTER SYSTEM RESET log_line_prefix"; sql "SELECT pg_reload_conf()"; rm -rf "$work"' EXIT
"$here/build.sh" "$tree" "$work/bin"
sql "ALTER SYSTEM SET log_statement = 'all'"
sql "ALTER SYSTEM SET log_line_prefix = '%m [%p] %d '"
sql "SELECT pg_reload_conf()"
log=$dir/log
from=$(wc -l <"$log")
node "$here/pbem-load.js" --bin "$work/bin" --url "$url" --duration "$secs" --players "$players" 2>&1 | tee "$work/out"
db=$(sed -nE 's/.* database (peers_pbem_[0-9a-f]+).*/\1/p' "$work/out" | head -1)
moves=$(sed -nE 's/^moves: .*\(([0-9]+) moves.*/\1/p' "$work/out")
[ -n "$db" ] && [ -n "$moves" ] || { echo "sqlcount: no play found" >&2; exit 1; }
# The play's statements: those of its database between the first statement
# pbemload's own connection ran (its CPU clock reads pg_stat_activity when
# the play starts) and the last one it ran (when the play ends).
tail -n +"$((from + 1))" "$log" | awk -v db="$db" -v moves="$moves" '
  $0 ~ "^[0-9-]+ [0-9:.]+ UTC \\[[0-9]+\\] " db " LOG:  (statement|execute [^:]*): " {
    line = $0; sub(/.*LOG:  (statement|execute [^:]*): /, "", line)
    # a statement starting on the next line (a leading newline, WITH ...)
    if (line == "" || line ~ /^[ \t]*$/) { getline nxt; line = nxt }
    gsub(/[ \t]+/, " ", line); sub(/^ /, "", line)
    if (line ~ /pg_stat_activity WHERE datname = current_database/) { clock++; if (clock == 1) { on = 1; next } else { on = 0 } }
    if (!on) next
    n++; k[substr(line, 1, 70)]++
  }
  END {
    printf "statements in the play: %d for %d moves = %.2f a move\n", n, moves, n / moves
    for (s in k) printf "%8.3f  %s\n", k[s] / moves, s
  }' | { IFS= read -r head; echo "$head"; sort -rn -k1,1 -s; }

#!/usr/bin/env bash
# walstats.sh PBEM_BINARY [seconds]: runs the load test (`pbem loadtest`, or
# PBEM_LOADTEST="" with a pbemload binary) on the private cluster and prints
# pg_waldump's per-record statistics of its play: from the "plain INSERT"
# line (the database made, the baseline done) to the "moves:" line, with
# the bytes per move. Without -games, the play includes creating the games
# it plays (about one per 150 moves).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
pbem=${1:?usage: walstats.sh PBEM_BINARY [seconds]}
secs=${2:-10}
url=$("$here/pg.sh")
dir=${PEERS_PG_DIR:-/tmp/pbem-peers-pg}
port=${PEERS_PG_PORT:-5545}
sql() { "$bin/psql" -X -At -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "$1"; }
# pg_waldump needs the WAL of the play: keep it past checkpoints for the
# run, then give the cluster back initdb's setting (run.sh's method).
sql "ALTER SYSTEM SET wal_keep_size = '4GB'" >/dev/null; sql "SELECT pg_reload_conf()" >/dev/null
trap 'sql "ALTER SYSTEM RESET wal_keep_size" >/dev/null; sql "SELECT pg_reload_conf()" >/dev/null' EXIT
"$here/pg.sh" checkpoint
start= end= moves= db=
names=$(mktemp)
while IFS= read -r line; do
  echo "$line" >&2
  case "$line" in
  *"PostgreSQL postgres://"*) db=$(sed -E 's#.*/([a-z0-9_]+)\?.*#\1#' <<<"$line") ;;
  "plain INSERT:"*)
    start=$(sql "SELECT pg_current_wal_lsn()")
    # relfilenode -> table name (indexes and TOAST under their table's name)
    "$bin/psql" -X -At -F ' ' -h 127.0.0.1 -p "$port" -U postgres -d "$db" -c "SELECT c.relfilenode,
      coalesce(t.relname, i.relname, c.relname) || CASE WHEN c.relkind = 'i' THEN ' (index)' WHEN c.relkind = 't' THEN ' (toast)' ELSE '' END
      FROM pg_class c LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class i ON i.oid = x.indrelid
      LEFT JOIN pg_class t ON t.reltoastrelid = c.oid OR t.reltoastrelid = x.indrelid
      WHERE c.relfilenode <> 0" > "$names" ;;
  "moves:"*) end=$(sql "SELECT pg_current_wal_lsn()"); moves=$(sed -E 's/.*\(([0-9]+) moves.*/\1/' <<<"$line") ;;
  esac
done < <(DATABASE_URL=$url "$pbem" ${PBEM_LOADTEST-loadtest} -duration "${secs}s" -games 0 -baseline 1s -players "${PLAYERS:-32}")
[ -n "$start" ] && [ -n "$end" ] || { echo "walstats: no play found in the output" >&2; exit 1; }
bytes=$(sql "SELECT pg_wal_lsn_diff('$end', '$start')")
echo "WAL of the play $start..$end: $bytes bytes for $moves moves = $((bytes / moves)) bytes a move"
# Per record type: count, record bytes, full-page-image bytes, combined, then
# the combined bytes per move. The cluster must keep the WAL of the play:
# wal_keep_size, set above (checkpoints otherwise recycle it).
"$bin/pg_waldump" -p "$dir/data/pg_wal" -s "$start" -e "$end" --stats=record |
  awk -v m="$moves" '/^[A-Za-z]+\/[A-Z_+]|^Total/ {c=$(NF-1); printf "%-110s %8.0f B/move\n", $0, c/m; next} {print}'
# Per relation (first block reference of each record; indexes and TOAST
# shown apart): bytes per move.
echo
echo "per relation (bytes a move):"
"$bin/pg_waldump" -p "$dir/data/pg_wal" -s "$start" -e "$end" 2>/dev/null |
  awk -v m="$moves" 'NR==FNR {n=$1; $1=""; name[n]=substr($0,2); next}
    { split($0, a, "len \\(rec/tot\\): *[0-9]+/ *"); split(a[2], b, ","); tot=b[1]+0
      rel="(no relation: commits...)"; if (match($0, /rel [0-9]+\/[0-9]+\/[0-9]+/)) { split(substr($0, RSTART+4, RLENGTH-4), r, "/"); rel=(r[3] in name) ? name[r[3]] : "relfilenode " r[3] }
      sum[rel]+=tot }
    END { for (k in sum) printf "%8.0f  %s\n", sum[k]/m, k }' "$names" - | sort -rn
# Per relation and record type (Heap INSERT, Heap UPDATE, Heap HOT_UPDATE,
# Btree INSERT_LEAF...), with how many records a move writes: what to cut.
echo
echo "per relation and record type (bytes a move, records a move):"
"$bin/pg_waldump" -p "$dir/data/pg_wal" -s "$start" -e "$end" 2>/dev/null |
  awk -v m="$moves" 'NR==FNR {n=$1; $1=""; name[n]=substr($0,2); next}
    { split($0, a, "len \\(rec/tot\\): *[0-9]+/ *"); split(a[2], b, ","); tot=b[1]+0
      split($0, r0, "rmgr: *"); split(r0[2], rm, " "); split($0, d0, "desc: "); split(d0[2], d, " ")
      rel="(no relation)"; if (match($0, /rel [0-9]+\/[0-9]+\/[0-9]+/)) { split(substr($0, RSTART+4, RLENGTH-4), r, "/"); rel=(r[3] in name) ? name[r[3]] : "relfilenode " r[3] }
      k=rel " " rm[1] "/" d[1]; sum[k]+=tot; cnt[k]++ }
    END { for (k in sum) printf "%8.0f %6.2f  %s\n", sum[k]/m, cnt[k]/m, k }' "$names" - | sort -rn | sed -n 1,30p
rm -f "$names"

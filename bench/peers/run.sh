#!/usr/bin/env bash
# run.sh [seconds]: pbem beside its peers on one private PostgreSQL server,
# in one run, then the table (make peers). seconds (default 20) is the play
# of each load-test round.
#
#  1. the cluster (pg.sh: 127.0.0.1:$PEERS_PG_PORT, initdb's settings, durable
#     commits), the npm packages (npm ci in _node/) when missing;
#  2. a copy of the tree under test (PBEM_SRC, default this repository) in a
#     private temporary directory, built there: the load client is
#     cmd/pbemload when the tree has it, else `pbem loadtest`;
#  3. LOAD_ROUNDS rounds of two load tests, interleaved (odd rounds
#     boardgame.io first, even rounds pbem first), each after a CHECKPOINT:
#     pbem's (32 players, each playing its own four-player Lords of Scotland
#     games over HTTP; the clients in the load process, the server in its
#     own), with the WAL of the play per move (walstats.sh); and
#     boardgame.io with bgio-postgres (bgio/: a 144-move four-player card
#     game, 32 players with a socket.io client per seat, the server in its
#     own process), after BGIO_WARMUP seconds of play;
#  4. the event-store benchmark (eventstore/): pbem, Message DB with one
#     category for all writers and with a category per writer, a plain
#     INSERT; ES_ROUNDS rounds of ES_PHASE per system, interleaved;
#  5. the table. Everything goes to out/<date>/ as well.
#
# Environment (defaults): PBEM_SRC (this repository), ES_PHASE (3s),
# ES_ROUNDS (3), ES_WRITERS (1,8,32), LOAD_ROUNDS (2), PLAYERS (32), BGIO_WARMUP (20),
# PEERS_PG_PORT (5545), PEERS_PG_DIR (/tmp/pbem-peers-pg).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-20}
export PATH=/usr/local/go/bin:$PATH
src=$(cd "${PBEM_SRC:-$here/../..}" && pwd)
ES_PHASE=${ES_PHASE:-3s} ES_ROUNDS=${ES_ROUNDS:-3} ES_WRITERS=${ES_WRITERS:-1,8,32} LOAD_ROUNDS=${LOAD_ROUNDS:-2}
PLAYERS=${PLAYERS:-32} BGIO_WARMUP=${BGIO_WARMUP:-20}
out=$here/out/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
exec > >(tee "$out/run.log") 2>&1
echo "== bench/peers/run.sh $secs: $(date -Is), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
url=$("$here/pg.sh")
export PEERS_DATABASE_URL=$url
"$here/pg.sh" clean
# pg_waldump needs the WAL of a play: keep it past checkpoints (this cluster only).
"$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql" -X -q -h 127.0.0.1 -p "${PEERS_PG_PORT:-5545}" -U postgres \
  -c "ALTER SYSTEM SET wal_keep_size = '4GB'" -c "SELECT pg_reload_conf()" postgres >/dev/null
# npm packages live in _node/ (a directory the go command ignores: some
# packages ship Go files); the scripts find them through NODE_PATH.
[ -d "$here/_node/node_modules/boardgame.io" ] || (cd "$here/_node" && npm ci --no-audit --no-fund)
export NODE_PATH=$here/_node/node_modules

work=$(mktemp -d /tmp/pbem-peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/build.sh" "$src" "$work"
desc=$src
if git -C "$src" rev-parse --short HEAD >/dev/null 2>&1; then
  desc="$src at $(git -C "$src" rev-parse --short HEAD)"
  [ -z "$(git -C "$src" status --porcelain)" ] || desc="$desc (with uncommitted changes)"
fi
echo "pbem: $desc"
load=(env $(cat "$work/load.env") "$here/walstats.sh" "$work/load")

pbem() {
  echo; echo "== pbem load test, round $1: ${secs}s of play"
  PLAYERS=$PLAYERS "${load[@]}" "$secs" 2>&1 | tee "$out/load-$1.txt" | grep -v '^[A-Z][A-Za-z0-9]*/[A-Z_+0-9]* \|^Type\|^----\|^ *---'
}
bgio() {
  "$here/pg.sh" checkpoint
  echo; echo "== boardgame.io + bgio-postgres, round $1: ${BGIO_WARMUP}s warm-up, ${secs}s measured"
  node "$here/bgio/bench.js" --url "$url" --duration "$secs" --warmup "$BGIO_WARMUP" --players "$PLAYERS" 2>&1 |
    grep -v 'origins\|CORS\|documentation' | tee "$out/bgio-$1.txt"
}
for r in $(seq 1 "$LOAD_ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then bgio "$r"; pbem "$r"; else pbem "$r"; bgio "$r"; fi
done
echo; "$here/pg.sh" checkpoint
echo "== event store: $ES_ROUNDS round(s) of $ES_PHASE per system and writer count"
"$work/eventstore" -url "$url" -phase "$ES_PHASE" -rounds "$ES_ROUNDS" -writers "$ES_WRITERS" \
  -mdb-install "$here/mdb-install.sh" -json "$out/eventstore.json" | tee "$out/eventstore.txt"

echo; echo "== the table ($desc; load average at the end $(cut -d' ' -f1-3 /proc/loadavg))"
{
  echo "move path (pbem load test, $LOAD_ROUNDS round(s) of ${secs}s, mean of the rounds):"
  cat "$out"/load-*.txt | awk '
    /^moves:/ { n++; split($0, a, " "); rate += a[2] }
    /^POST \/moves:/ { p50 += $4; p99 += $7 }
    /^CPU per move:/ { match($0, /clients\) [0-9.]+/); c += substr($0, RSTART+9, RLENGTH-9); match($0, /PostgreSQL [0-9.]+/); pg += substr($0, RSTART+11, RLENGTH-11) }
    /^WAL of the play/ { match($0, /= [0-9]+ bytes/); w += substr($0, RSTART+2, RLENGTH-8) }
    END { if (n) printf "  %8s %8s %8s %14s %12s %12s %10s\n  %8.0f %8.2f %8.2f %14.3f %12.3f %12.3f %10.0f\n",
      "moves/s", "p50 ms", "p99 ms", "CPU proc ms", "CPU PG ms", "CPU sum ms", "WAL B",
      rate/n, p50/n, p99/n, c/n, pg/n, (c+pg)/n, w/n }'
  echo "boardgame.io + bgio-postgres (same rounds; CPU: server + clients + PostgreSQL):"
  cat "$out"/bgio-*.txt | awk '
    /^moves:/ { n++; rate += $2 }
    /^move latency:/ { p50 += $4; p99 += $7 }
    /^CPU per move:/ { s += $5; c += $8; pg += $11 }
    /^WAL per move:/ { w += $4 }
    END { if (n) printf "  %8.0f %8.2f %8.2f %14.3f %12.3f %12.3f %10.0f\n", rate/n, p50/n, p99/n, (s+c)/n, pg/n, (s+c+pg)/n, w/n }'
  echo "appends (event store):"
  sed -n '/^summary/,$p' "$out/eventstore.txt" | tail -n +2
} | tee "$out/table.txt"
echo "(everything in $out)"

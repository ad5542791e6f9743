#!/usr/bin/env bash
# run.sh [seconds]: pbem beside its peers on one private PostgreSQL server,
# in one run, then the tables (make peers). seconds (default 20) is the
# measured play of each load-test round. The method is ../shared/peers'
# (README.md here says where and why):
#
#  1. what it needs (Node.js and npm, PostgreSQL's binaries: installed with
#     apt-get when missing and run as root), the cluster (pg.sh:
#     127.0.0.1:$PEERS_PG_PORT, initdb's settings, durable commits), the npm
#     packages (npm ci in _node/) when missing;
#  2. a copy of the tree under test (PBEM_SRC, default this repository) in a
#     private temporary directory, built there (build.sh): pbem, pbemload,
#     the append benchmark;
#  3. LOAD_ROUNDS rounds of the three load tests, interleaved (odd rounds
#     boardgame.io, pbem, the floor; even rounds the floor, pbem,
#     boardgame.io, as ../shared/peers orders them), each after a CHECKPOINT,
#     32 players each: pbem-load.js (`pbem serve` in its own process,
#     `pbemload -url` in another) and bgio/bench.js (boardgame.io with
#     bgio-postgres in its own process, plain socket.io clients in another,
#     after BGIO_WARMUP seconds of play). Both read the CPU of the server,
#     of the clients and of the whole PostgreSQL cluster, and the WAL, with
#     the same code (lib/meter.js); and the floor (floor/: an HTTP endpoint
#     doing one durable INSERT of a move-sized row a request, its clients in
#     its own process, as ../shared/peers' limit/; the harness's program,
#     built from this repository, not from the tree under test), which reads
#     its process and the cluster as lib/meter.js does;
#  4. the event-store benchmark (eventstore/): pbem, Message DB with one
#     category for all writers and with a category per writer, a plain
#     INSERT; ES_ROUNDS rounds of ES_PHASE per system, interleaved;
#  5. the tables (table.js), with pbem/floor. Everything goes to out/<date>/ as well.
#
# With PBEM_BEFORE=TREE, a second pbem tree (the same code before a
# change) plays in every round too, beside the first (odd rounds after it,
# even rounds before it), and a last table gives it against PBEM_SRC
# (table.js OUTDIR before pbem): before and after, each beside the floor
# and boardgame.io, in one run.
#
# Environment (defaults): PBEM_SRC (this repository), PBEM_BEFORE (none), ES_PHASE (3s),
# ES_ROUNDS (3), ES_WRITERS (1,8,32), LOAD_ROUNDS (2), PLAYERS (32),
# BGIO_WARMUP (20), ACTIVE_GAMES (0: games/matches created before the play,
# in both), PEERS_PG_PORT (5545), PEERS_PG_DIR (/tmp/pbem-peers-pg).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-20}
export PATH=/usr/local/go/bin:$PATH
src=$(cd "${PBEM_SRC:-$here/../..}" && pwd)
ES_PHASE=${ES_PHASE:-3s} ES_ROUNDS=${ES_ROUNDS:-3} ES_WRITERS=${ES_WRITERS:-1,8,32} LOAD_ROUNDS=${LOAD_ROUNDS:-2}
PLAYERS=${PLAYERS:-32} BGIO_WARMUP=${BGIO_WARMUP:-20} ACTIVE_GAMES=${ACTIVE_GAMES:-0}
"$here/needs.sh"
out=$here/out/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
exec > >(tee "$out/run.log") 2>&1
echo "== bench/peers/run.sh $secs: $(date -Is), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
url=$("$here/pg.sh")
export PEERS_DATABASE_URL=$url
"$here/pg.sh" clean
"$here/pg.sh" defaults
"$here/pg.sh" settings
# npm packages live in _node/ (a directory the go command ignores: some
# packages ship Go files); the scripts find them through NODE_PATH.
[ -d "$here/_node/node_modules/boardgame.io" ] || (cd "$here/_node" && npm ci --no-audit --no-fund)
export NODE_PATH=$here/_node/node_modules

work=$(mktemp -d /tmp/pbem-peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/build.sh" "$src" "$work"
(cd "$here/../.." && go build -o "$work/floor" ./bench/peers/floor)
if [ -n "${PBEM_BEFORE:-}" ]; then
  before=$(cd "$PBEM_BEFORE" && pwd)
  "$here/build.sh" "$before" "$work/before"
  echo "pbem before: $before at $(git -C "$before" rev-parse --short HEAD 2>/dev/null || echo '?')"
fi
desc=$src
if git -C "$src" rev-parse --short HEAD >/dev/null 2>&1; then
  desc="$src at $(git -C "$src" rev-parse --short HEAD)"
  [ -z "$(git -C "$src" status --porcelain)" ] || desc="$desc (with uncommitted changes)"
fi
echo "pbem: $desc"

pbem() {
  "$here/pg.sh" checkpoint
  echo; echo "== pbem (pbem serve + pbemload -url), round $1: ${secs}s of play"
  node "$here/pbem-load.js" --bin "$work" --url "$url" --duration "$secs" --players "$PLAYERS" --games "$ACTIVE_GAMES" \
    --json "$out/pbem-$1.json"
}
bgio() {
  "$here/pg.sh" checkpoint
  echo; echo "== boardgame.io + bgio-postgres, round $1: ${BGIO_WARMUP}s warm-up, ${secs}s measured"
  node "$here/bgio/bench.js" --url "$url" --duration "$secs" --warmup "$BGIO_WARMUP" --players "$PLAYERS" --active "$ACTIVE_GAMES" \
    --json "$out/bgio-$1.json"
}
floor() {
  "$here/pg.sh" checkpoint
  echo; echo "== the floor (HTTP + one durable INSERT a request), round $1: 3s warm-up, ${secs}s measured"
  "$work/floor" -url "$url" -duration "${secs}s" -players "$PLAYERS" -json "$out/floor-$1.json"
}
before() { # the PBEM_BEFORE tree, as pbem
  [ -n "${before:-}" ] || return 0
  "$here/pg.sh" checkpoint
  echo; echo "== pbem before (PBEM_BEFORE), round $1: ${secs}s of play"
  node "$here/pbem-load.js" --bin "$work/before" --url "$url" --duration "$secs" --players "$PLAYERS" --games "$ACTIVE_GAMES" \
    --json "$out/before-$1.json"
}
for r in $(seq 1 "$LOAD_ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then bgio "$r"; pbem "$r"; before "$r"; floor "$r"; else floor "$r"; before "$r"; pbem "$r"; bgio "$r"; fi
done
echo; "$here/pg.sh" checkpoint
echo "== event store: $ES_ROUNDS round(s) of $ES_PHASE per system and writer count"
"$work/eventstore" -url "$url" -phase "$ES_PHASE" -rounds "$ES_ROUNDS" -writers "$ES_WRITERS" \
  -mdb-install "$here/mdb-install.sh" -json "$out/eventstore.json"

echo; echo "== the tables ($desc; load average at the end $(cut -d' ' -f1-3 /proc/loadavg))"
node "$here/table.js" "$out" | tee "$out/table.txt"
if [ -n "${before:-}" ]; then
  echo; echo "== before (PBEM_BEFORE) beside the floor and boardgame.io, the same rounds"
  mkdir -p "$out/before-as-pbem"
  for f in "$out"/floor-*.json "$out"/bgio-*.json; do [ -e "$f" ] && ln -sf "$f" "$out/before-as-pbem/"; done
  for f in "$out"/before-*.json; do ln -sf "$f" "$out/before-as-pbem/pbem-${f##*/before-}"; done
  node "$here/table.js" "$out/before-as-pbem" | tee -a "$out/table.txt"
  echo; echo "== before (PBEM_BEFORE) and after (PBEM_SRC), the same rounds"
  node "$here/table.js" "$out" before pbem | tee -a "$out/table.txt"
fi
echo "(everything in $out)"

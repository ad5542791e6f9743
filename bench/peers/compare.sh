#!/usr/bin/env bash
# compare.sh TREE_A TREE_B [rounds [seconds]]: the move path of two pbem
# trees side by side in one run, measured as run.sh measures pbem
# (pbem-load.js: each tree's `pbem serve` in its own process, its
# `pbemload -url` in another, 32 players, CPU of the server, the clients
# and the whole PostgreSQL cluster, WAL): rounds of `seconds` of play on
# the private cluster (pg.sh), alternating A B B A A B..., each after a
# CHECKPOINT; then the mean of each tree's rounds and B/A (table.js).
# A tree is a directory (a git worktree of an older commit, say) with
# pbemload -url (build.sh); it is copied and built as run.sh does. The
# JSON of every round stays in out/compare-<date>/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
a=$(cd "${1:?usage: compare.sh TREE_A TREE_B [rounds [seconds]]}" && pwd)
b=$(cd "${2:?usage: compare.sh TREE_A TREE_B [rounds [seconds]]}" && pwd)
rounds=${3:-4} secs=${4:-10}
export PATH=/usr/local/go/bin:$PATH
"$here/needs.sh"
url=$("$here/pg.sh")
"$here/pg.sh" defaults
[ -d "$here/_node/node_modules/pg" ] || (cd "$here/_node" && npm ci --no-audit --no-fund)
export NODE_PATH=$here/_node/node_modules
out=$here/out/compare-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
work=$(mktemp -d /tmp/pbem-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT
build() { # build NAME TREE: $work/NAME/pbem and pbemload (build.sh)
  "$here/build.sh" "$2" "$work/$1"
  echo "$1: $2 at $(git -C "$2" rev-parse --short HEAD 2>/dev/null || echo '?')" | tee -a "$out/trees.txt"
}
build A "$a"; build B "$b"
echo "== compare.sh: $rounds rounds of ${secs}s, $(date -Is), load average at the start $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/trees.txt"
play() { # play NAME ROUND
  "$here/pg.sh" clean >/dev/null 2>&1 || true
  "$here/pg.sh" checkpoint
  node "$here/pbem-load.js" --bin "$work/$1" --url "$url" --duration "$secs" --players 32 --json "$out/$1-$2.json" |
    grep -E '^(moves:|POST /moves:|pbem CPU|pbem WAL|pbem server)' | sed "s/^/$1 $2: /"
}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then play A "$r"; play B "$r"; else play B "$r"; play A "$r"; fi
done
echo "== load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/trees.txt"
node "$here/table.js" "$out" A B | tee "$out/table.txt"

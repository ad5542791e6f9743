#!/usr/bin/env bash
# compare.sh TREE_A TREE_B [rounds [seconds]]: the move path of two pbem
# trees side by side in one run: each tree's load test (cmd/pbemload, or
# `pbem loadtest` in trees before it), rounds of `seconds` of play on the
# private cluster (pg.sh), alternating A B B A A B..., each after a
# CHECKPOINT; then the mean moves/s, p50 and p99 of POST /moves, CPU and
# WAL a move of each, and B/A.
# A tree is a directory (a git worktree of an older commit, say); it is
# copied and built as run.sh does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
a=$(cd "${1:?usage: compare.sh TREE_A TREE_B [rounds [seconds]]}" && pwd)
b=$(cd "${2:?usage: compare.sh TREE_A TREE_B [rounds [seconds]]}" && pwd)
rounds=${3:-4} secs=${4:-10}
export PATH=/usr/local/go/bin:$PATH
"$here/pg.sh" >/dev/null
"$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql" -X -q -h 127.0.0.1 -p "${PEERS_PG_PORT:-5545}" -U postgres \
  -c "ALTER SYSTEM SET wal_keep_size = '4GB'" -c "SELECT pg_reload_conf()" postgres >/dev/null
work=$(mktemp -d /tmp/pbem-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT
build() { # build NAME TREE: $work/NAME/load and $work/NAME/load.env (build.sh)
  "$here/build.sh" "$2" "$work/$1"
  echo "$1: $2 at $(git -C "$2" rev-parse --short HEAD 2>/dev/null || echo '?')"
}
build A "$a"; build B "$b"
play() { # play NAME ROUND
  "$here/pg.sh" clean >/dev/null 2>&1 || true
  env $(cat "$work/$1/load.env") PLAYERS=32 "$here/walstats.sh" "$work/$1/load" "$secs" 2>&1 |
    grep -E '^(moves:|POST /moves:|CPU per move:|WAL of the play)' | sed "s/^/$1 $2 /" | tee -a "$work/results"
}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then play A "$r"; play B "$r"; else play B "$r"; play A "$r"; fi
done
echo "== mean of $rounds rounds of ${secs}s (load average at the end $(cut -d' ' -f1-3 /proc/loadavg))"
awk '
  $3 == "moves:" { n[$1]++; rate[$1] += $4 }
  $3 == "CPU" { match($0, /clients\) [0-9.]+/); c[$1] += substr($0, RSTART+9, RLENGTH-9); match($0, /PostgreSQL [0-9.]+/); pg[$1] += substr($0, RSTART+11, RLENGTH-11) }
  $3 == "POST" { match($0, /p50 [0-9.]+/); p50[$1] += substr($0, RSTART+4, RLENGTH-4); match($0, /p99 [0-9.]+/); p99[$1] += substr($0, RSTART+4, RLENGTH-4) }
  $3 == "WAL" { match($0, /= [0-9]+ bytes/); w[$1] += substr($0, RSTART+2, RLENGTH-8) }
  END {
    printf "  %-4s %9s %7s %7s %12s %10s %10s %8s\n", "tree", "moves/s", "p50 ms", "p99 ms", "CPU proc ms", "CPU PG ms", "CPU ms", "WAL B"
    for (t in n) printf "  %-4s %9.0f %7.2f %7.2f %12.3f %10.3f %10.3f %8.0f\n", t, rate[t]/n[t], p50[t]/n[t], p99[t]/n[t], c[t]/n[t], pg[t]/n[t], (c[t]+pg[t])/n[t], w[t]/n[t]
    if (n["A"] && n["B"]) printf "  B/A  %9.2f %7.2f %7.2f %12.2f %10.2f %10.2f %8.2f\n", (rate["B"]/n["B"])/(rate["A"]/n["A"]),
      p50["B"]/p50["A"], p99["B"]/p99["A"],
      (c["B"]/n["B"])/(c["A"]/n["A"]), (pg["B"]/n["B"])/(pg["A"]/n["A"]), ((c["B"]+pg["B"])/n["B"])/((c["A"]+pg["A"])/n["A"]), (w["B"]/n["B"])/(w["A"]/n["A"])
  }' "$work/results"

#!/usr/bin/env bash
# Scale with history (issue #18 item 4): move and view latency on an empty
# database and on one with history, side by side in one run, and the
# throughput of `pbem verify --all` and `pbem rebuild` on the latter.
#
#   bench/history/run.sh [FINISHED [ACTIVE]]     (default 100000 10000)
#
# PostgreSQL: DATABASE_URL (a database where CREATE DATABASE may run), else
# 127.0.0.1:5432 as user postgres. It builds the history database with
# bench/history (kept as pbem_history; drop it after), then plays
# bin/pbemload for ROUNDS rounds on a scratch database and on
# pbem_history alternately, and prints the figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/go/bin"
FINISHED=${1:-100000}
ACTIVE=${2:-10000}
ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-20s}
PLAYERS=${PLAYERS:-32}
ADMIN=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
HIST=${ADMIN%%\?*}; HIST=${HIST%/*}/pbem_history?sslmode=disable
OUT=${OUT:-bench/history/out}
mkdir -p "$OUT" bin
go build -o bin/pbem ./cmd/pbem
go build -o bin/pbemload ./cmd/pbemload
go build -o bin/pbemhistory ./bench/history

echo "== building the history database ($FINISHED finished, $ACTIVE in progress)"
DATABASE_URL=$ADMIN bin/pbemhistory -url "$ADMIN" -db pbem_history -finished "$FINISHED" -active "$ACTIVE" | tee "$OUT/build.txt"
events=$(psql "$HIST" -Atc "SELECT count(*) FROM events")

export PBEM_SECRET=history-benchmark
echo "== pbem verify --all"
start=$(date +%s.%N)
DATABASE_URL=$HIST bin/pbem verify --all > "$OUT/verify.txt"
end=$(date +%s.%N)
tail -1 "$OUT/verify.txt"
awk -v e="$events" -v a="$start" -v b="$end" 'BEGIN { printf "verify:  %d events in %.1f s = %.0f events/s\n", e, b-a, e/(b-a) }' | tee "$OUT/verify-rate.txt"

echo "== pbem rebuild"
start=$(date +%s.%N)
DATABASE_URL=$HIST bin/pbem rebuild > "$OUT/rebuild.txt"
end=$(date +%s.%N)
tail -1 "$OUT/rebuild.txt"
awk -v e="$events" -v a="$start" -v b="$end" 'BEGIN { printf "rebuild: %d events in %.1f s = %.0f events/s\n", e, b-a, e/(b-a) }' | tee "$OUT/rebuild-rate.txt"
psql "$HIST" -qc "VACUUM ANALYZE"

echo "== pbemload, empty and with history, $ROUNDS rounds of $DURATION each"
for r in $(seq "$ROUNDS"); do
	DATABASE_URL=$ADMIN bin/pbemload -players "$PLAYERS" -duration "$DURATION" -games 1000 -baseline 2s > "$OUT/empty-$r.txt"
	DATABASE_URL=$ADMIN bin/pbemload -db "$HIST" -players "$PLAYERS" -duration "$DURATION" -games 1000 -baseline 2s > "$OUT/history-$r.txt"
done
p99() { grep "^$2" "$1" | sed -E 's/.*p99 ([0-9.]+) ms.*/\1/'; }
echo
printf '| round | move p99 empty (ms) | move p99 history (ms) | ratio | view p99 empty (ms) | view p99 history (ms) | ratio |\n|---|---|---|---|---|---|---|\n'
for r in $(seq "$ROUNDS"); do
	me=$(p99 "$OUT/empty-$r.txt" "POST /moves"); mh=$(p99 "$OUT/history-$r.txt" "POST /moves")
	ve=$(p99 "$OUT/empty-$r.txt" "GET /view"); vh=$(p99 "$OUT/history-$r.txt" "GET /view")
	awk -v r="$r" -v me="$me" -v mh="$mh" -v ve="$ve" -v vh="$vh" \
		'BEGIN { printf "| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", r, me, mh, mh/me, ve, vh, vh/ve }'
done

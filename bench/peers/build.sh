#!/usr/bin/env bash
# build.sh SRC DEST: copies the pbem tree SRC (its files, not .git, data,
# bin or the benchmark's npm packages and outputs) to DEST and builds there
# DEST/load, its load test, and DEST/eventstore, the append benchmark (this
# harness's, for a tree older than it). DEST/load.env holds what walstats.sh
# needs to run DEST/load: PBEM_LOADTEST= for cmd/pbemload, nothing for
# `pbem loadtest` in trees before it. run.sh and compare.sh build with it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh SRC DEST} dest=${2:?usage: build.sh SRC DEST}
export PATH=/usr/local/go/bin:$PATH
mkdir -p "$dest"
tar -C "$src" --exclude=./.git --exclude=./data --exclude=./bin --exclude=./bench/peers/_node/node_modules \
  --exclude=./bench/peers/out -cf - . | tar -C "$dest" -xf -
[ -d "$dest/bench/peers/eventstore" ] || { mkdir -p "$dest/bench/peers"; cp -r "$here/eventstore" "$dest/bench/peers/"; }
if [ -d "$dest/cmd/pbemload" ]; then
  (cd "$dest" && go build -o load ./cmd/pbemload); echo "PBEM_LOADTEST=" > "$dest/load.env"
else
  (cd "$dest" && go build -o load ./cmd/pbem); : > "$dest/load.env"
fi
(cd "$dest" && go build -o eventstore ./bench/peers/eventstore)

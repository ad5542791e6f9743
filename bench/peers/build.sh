#!/usr/bin/env bash
# build.sh SRC DEST: copies the pbem tree SRC (its files, not .git, data,
# bin or the benchmark's npm packages and outputs) to DEST and builds there
# DEST/pbem (the server), DEST/pbemload (its load client, which drives a
# pbem serve apart with -url) and DEST/eventstore (the append benchmark:
# this harness's copy for a tree older than it). run.sh and compare.sh
# build with it; the tree must have cmd/pbemload with -url (2fdc95a,
# 2026-11-26, and later).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh SRC DEST} dest=${2:?usage: build.sh SRC DEST}
export PATH=/usr/local/go/bin:$PATH
mkdir -p "$dest"
tar -C "$src" --exclude=./.git --exclude=./data --exclude=./bin --exclude=./bench/peers/_node/node_modules \
  --exclude=./bench/peers/out -cf - . | tar -C "$dest" -xf -
[ -d "$dest/bench/peers/eventstore" ] || { mkdir -p "$dest/bench/peers"; cp -r "$here/eventstore" "$dest/bench/peers/"; }
grep -q 'remoteLoadtest' "$dest"/cmd/pbemload/*.go 2>/dev/null ||
  { echo "build.sh: $src has no pbemload -url (a server apart): too old for this harness" >&2; exit 1; }
(cd "$dest" && go build -o pbem ./cmd/pbem && go build -o pbemload ./cmd/pbemload && go build -o eventstore ./bench/peers/eventstore)

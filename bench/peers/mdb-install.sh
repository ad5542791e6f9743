#!/usr/bin/env bash
# mdb-install.sh DBNAME: Message DB's own install.sh (npm @eventide/message-db)
# creates database DBNAME on PGHOST:PGPORT (default: the private cluster of
# pg.sh) with its schema message_store, functions and role.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
export PATH="$bin:$PATH" PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-${PEERS_PG_PORT:-5545}} PGUSER=${PGUSER:-postgres}
export DATABASE_NAME=${1:?usage: mdb-install.sh DBNAME} CREATE_DATABASE=on
db=$here/_node/node_modules/@eventide/message-db/database
bash "$db/install.sh"

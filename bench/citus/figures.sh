#!/usr/bin/env bash
# figures.sh: the figures of docs/SCALING.md, "Running on Citus": `pbem
# serve` on one plain PostgreSQL and on the Citus cluster (a coordinator
# and two workers, cluster.sh), each driven by `pbemload -url -pid`, in
# alternating rounds of one sitting. The plain PostgreSQL is a fourth
# cluster under the same data dir on CITUS_PORT+3, with the Citus nodes'
# settings but the extension (fsync off: a rehearsal), so that its CPU is
# its own and not the shared server's. Each round prints pbemload's
# moves/s and p99 of POST /moves, the server's CPU a move (-pid) and the
# CPU a move of all the database processes of its side: every postmaster
# of it with its live and reaped children (three for Citus, one for the
# plain one; for Citus, the coordinator's share apart), read from /proc.
# Then the games on each worker (cluster.sh spread) and the load average.
# The servers run as an operator's would: their secret, no rate limits,
# no PBEM_SMTP_URL (the outbox worker renders each email into the dev
# mailbox, a table of the coordinator on Citus).
#   CITUS_ROUNDS (default 2) rounds of CITUS_SECONDS (15) seconds,
#   CITUS_PLAYERS (16) players. Start the cluster outside `heavy`
#   (`make citus-up`), then `heavy bench/citus/figures.sh`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
export PATH=/usr/local/go/bin:$PATH
rounds=${CITUS_ROUNDS:-2} secs=${CITUS_SECONDS:-15} players=${CITUS_PLAYERS:-16}
port=${CITUS_PORT:-5480} plain=$((${CITUS_PORT:-5480} + 3))
dir=$(mkdir -p "${CITUS_DIR:-${PBEM_DATA:-./data}/citus}" && cd "${CITUS_DIR:-${PBEM_DATA:-./data}/citus}" && pwd)
pgbin=${PG_BIN:-$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)}
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
sql() { PGOPTIONS="-c client_min_messages=warning" run "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d "$2" -c "$3"; }
"$here/cluster.sh" up
if [ ! -f "$dir/plain/PG_VERSION" ]; then
  run "$pgbin/initdb" -D "$dir/plain" -U postgres --auth=trust >/dev/null
  grep -v shared_preload_libraries "$dir/coordinator/postgresql.conf" | grep -v '^citus\.' |
    sed "s/^port = .*/port = $plain/; s#^unix_socket_directories = .*#unix_socket_directories = '$dir/plain'#" |
    run tee "$dir/plain/postgresql.conf" >/dev/null
fi
run "$pgbin/pg_ctl" -D "$dir/plain" status >/dev/null 2>&1 || run "$pgbin/pg_ctl" -D "$dir/plain" -l "$dir/plain/log" -w start >/dev/null
work=$(mktemp -d /tmp/pbem-citus-figures.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  run "$pgbin/pg_ctl" -D "$dir/plain" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/pbem" ./cmd/pbem
go build -o "$work/pbemload" ./cmd/pbemload
db=pbem_figures
# The plain database, then the Citus one as docs/SCALING.md's step 3 says.
sql "$plain" postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)"
sql "$plain" postgres "CREATE DATABASE $db"
for p in "$port" $((port + 1)) $((port + 2)); do
  sql "$p" postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  sql "$p" postgres "CREATE DATABASE $db"
  sql "$p" "$db" "CREATE EXTENSION citus"
done
sql "$port" "$db" "SELECT citus_set_coordinator_host('127.0.0.1', $port)"
for p in $((port + 1)) $((port + 2)); do sql "$port" "$db" "SELECT citus_add_node('127.0.0.1', $p)"; done
plainURL="postgres://postgres@127.0.0.1:$plain/$db?sslmode=disable"
citusURL="postgres://postgres@127.0.0.1:$port/$db?sslmode=disable"
DATABASE_URL=$plainURL "$work/pbem" migrate up >/dev/null
DATABASE_URL=$citusURL "$work/pbem" migrate up >/dev/null
run "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -d "$citusURL" -f migrations/citus/distribute.sql >/dev/null
secret=$(head -c 32 /dev/urandom | base64)
serve() { # serve NAME URL PORT: pbem serve in the background; sets srv_pid
  PBEM_SECRET=$secret DATABASE_URL=$2 PBEM_LISTEN=127.0.0.1:$3 PBEM_DATA=$work/$1 \
    PBEM_LIMIT_GAMES_ADDRESS=off PBEM_LIMIT_GAMES_IP=off PBEM_LIMIT_INVITATIONS_ADDRESS=off \
    PBEM_LIMIT_INVITATIONS_IP=off PBEM_LIMIT_SIGNINS=off PBEM_LIMIT_RECIPIENT_MAILS=off PBEM_SMTP_URL= \
    "$work/pbem" serve >"$work/$1.log" 2>&1 &
  srv_pid=$!
  pids+=("$srv_pid")
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$3/healthz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "figures: pbem serve on $1 did not answer in 60 s" >&2
  cat "$work/$1.log" >&2
  exit 1
}
serve plain "$plainURL" 8483
plain_pid=$srv_pid
serve citus "$citusURL" 8484
citus_pid=$srv_pid
dbcpu() { # dbcpu DATADIR...: CPU ticks of the postmasters of the data dirs, their live and reaped children
  local pms=""
  for d in "$@"; do pms="$pms $(head -1 "$d/postmaster.pid")"; done
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v pms="$pms" '
    BEGIN { n = split(pms, a, " "); for (i = 1; i <= n; i++) pm[a[i]] = 1 }
    { pid = $1; sub(/.*\) /, "")
      if (pid in pm) t += $12 + $13 + $14 + $15
      else if ($2 in pm) t += $12 + $13 }
    END { print t + 0 }'
}
play() { # play NAME URL PID DATADIR...
  local name=$1 url=$2 pid=$3
  shift 3
  local before after first0 first1 out moves
  before=$(dbcpu "$@") first0=$(dbcpu "$1")
  out=$(PBEM_SECRET=$secret "$work/pbemload" -url "$url" -pid "$pid" -games 0 -duration "${secs}s" -players "$players")
  after=$(dbcpu "$@") first1=$(dbcpu "$1")
  moves=$(echo "$out" | sed -n 's/^moves: *[0-9.]* moves\/s (\([0-9]*\) moves.*/\1/p')
  echo "$out" | grep -E '^(moves:|POST /moves:|CPU per move:)' | sed "s/^/$name: /"
  awk -v t=$((after - before)) -v c=$((first1 - first0)) -v k=$# -v n="$moves" -v name="$name" 'BEGIN {
    printf "%s: CPU per move: all database processes %.3f ms (%d moves)", name, t * 10 / n, n
    if (k > 1) printf "; the coordinator %.3f ms, the workers %.3f ms", c * 10 / n, (t - c) * 10 / n
    printf "\n" }'
}
echo "== figures.sh: $rounds rounds of ${secs}s, $players players, $(date -Is), tree at $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# What the idle servers' pollers (outbox worker, scheduler, bots) cost
# the databases, before any play: CPU a second over 5 s.
i0=$(dbcpu "$dir/plain") j0=$(dbcpu "$dir/coordinator" "$dir/worker1" "$dir/worker2")
sleep 5
i1=$(dbcpu "$dir/plain") j1=$(dbcpu "$dir/coordinator" "$dir/worker1" "$dir/worker2")
echo "idle: all database processes $(((i1 - i0) * 10 / 5)) ms of CPU a second (plain), $(((j1 - j0) * 10 / 5)) ms (citus)"
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then order="plain citus"; else order="citus plain"; fi
  for side in $order; do
    if [ "$side" = plain ]; then
      play "round $r plain" "http://127.0.0.1:8483" "$plain_pid" "$dir/plain"
    else
      play "round $r citus" "http://127.0.0.1:8484" "$citus_pid" "$dir/coordinator" "$dir/worker1" "$dir/worker2"
    fi
  done
done
echo "== load average at the end $(cut -d' ' -f1-3 /proc/loadavg); games on each worker:"
"$here/cluster.sh" spread "$db"

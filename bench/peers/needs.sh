#!/usr/bin/env bash
# needs.sh: checks what run.sh and compare.sh need besides Go (Node.js 18+
# with npm, PostgreSQL's server binaries) and, run as root on Debian,
# installs what is missing with apt-get, as .ci/run does for the tests.
set -euo pipefail
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x /usr/local/go/bin/go ] || command -v go >/dev/null 2>&1 || { echo "bench/peers: Go is missing (/usr/local/go/bin)" >&2; exit 1; }
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "bench/peers: missing ${missing[*]}; install them (Debian: apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "bench/peers: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
v=$(node -p 'process.versions.node.split(".")[0]')
[ "$v" -ge 18 ] || { echo "bench/peers: Node.js $v is too old (18 or later)" >&2; exit 1; }

#!/usr/bin/env bash
# test-install.sh DEB VERSION: installs the pbem Debian package on this
# machine (as root; CI's machine is throwaway), checks what it installed, and
# starts the server as the unit would, then purges the package and drops
# the database and role it created (if they were not there before).
#
# Checks: the package's metadata and contents (dependencies, conffile,
# modes), `pbem version` says VERSION, `systemd-analyze verify` accepts the
# unit, the user and the environment file's owner and mode, the PostgreSQL
# role and database, and a first start with /etc/pbem/pbem.env as the pbem
# user answering /healthz 200 ("Your own server" in docs/operating.md). Where PID 1
# is systemd it also starts the unit itself.
set -euo pipefail

deb=$(realpath "$1")
version=$2
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
step() { echo "test-install: $*"; }
[ "$(id -u)" -eq 0 ] || fail "needs root"

# The machine's clusters run (a container without systemd does not start them).
pg_lsclusters -h | while read -r v c _ status _; do
  [ "$status" = online ] || pg_ctlcluster "$v" "$c" start
done
psql_q() { runuser -u postgres -- psql -qAtc "$1"; }
# A database pbem already there (make run's, make test's) is put aside and back.
had_db=$(psql_q "SELECT 1 FROM pg_database WHERE datname = 'pbem'")
had_role=$(psql_q "SELECT 1 FROM pg_roles WHERE rolname = 'pbem'")
[ -z "$had_db" ] || psql_q "ALTER DATABASE pbem RENAME TO pbem_aside_test_install"
pid=""
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  dpkg --purge pbem >/dev/null 2>&1 || true
  psql_q "DROP DATABASE IF EXISTS pbem" || true
  [ -z "$had_db" ] || psql_q "ALTER DATABASE pbem_aside_test_install RENAME TO pbem" || true
  [ -n "$had_role" ] || psql_q "DROP ROLE IF EXISTS pbem" || true
  rm -rf /var/lib/pbem /etc/pbem
  userdel pbem 2>/dev/null || true
}
trap cleanup EXIT

step "package metadata and contents"
info=$(dpkg-deb --info "$deb")
grep -q "^ Package: pbem$" <<<"$info" || fail "package name"
grep -q "^ Version: $version$" <<<"$info" || fail "version is not $version"
grep -q "^ Depends: .*postgresql" <<<"$info" || fail "no dependency on postgresql"
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/pbem ./usr/sbin/pbem-backup-setup ./lib/systemd/system/pbem-backup.timer ./lib/systemd/system/pbem.service ./etc/pbem/pbem.env ./usr/share/doc/pbem/README.md ./usr/share/doc/pbem/docs/operating.md; do
  grep -q " $f$" <<<"$contents" || fail "$f not in the package"
done
grep -q "^-rwxr-xr-x root/root .* ./usr/bin/pbem$" <<<"$contents" || fail "/usr/bin/pbem mode or owner"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/pbem/pbem.env || fail "pbem.env is not a conffile"

step "apt-get install $deb"
apt-get install -y -q -o DPkg::Lock::Timeout=600 "$deb"

step "pbem version"
out=$(pbem version)
echo "  $out"
[[ $out == "pbem $version (commit "* ]] || fail "pbem version says: $out"
file -L /usr/bin/pbem 2>/dev/null | grep -q "statically linked" || [ ! -x /usr/bin/file ] || fail "/usr/bin/pbem is not static"

step "systemd-analyze verify"
systemd-analyze verify /lib/systemd/system/pbem.service /lib/systemd/system/pbem-backup.service /lib/systemd/system/pbem-backup.timer
unit=$(cat /lib/systemd/system/pbem.service)
for d in User=pbem ProtectSystem=strict NoNewPrivileges=yes StateDirectory=pbem EnvironmentFile=/etc/pbem/pbem.env; do
  grep -qx "$d" <<<"$unit" || fail "unit lacks $d"
done

step "user, environment file, database"
id pbem >/dev/null || fail "no user pbem"
[ "$(stat -c '%U:%G %a' /etc/pbem/pbem.env)" = "root:pbem 640" ] || fail "pbem.env: $(stat -c '%U:%G %a' /etc/pbem/pbem.env)"
[ "$(psql_q "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'pbem'")" = pbem ] || fail "no database pbem owned by pbem"

step "DKIM key (docs/operating.md, Your own server, step 3)"
openssl genrsa -out /etc/pbem/dkim.pem 2048
chown root:pbem /etc/pbem/dkim.pem && chmod 640 /etc/pbem/dkim.pem
pub=$(openssl rsa -in /etc/pbem/dkim.pem -pubout -outform der | base64 -w0)
[ ${#pub} -gt 300 ] || fail "DKIM public key: $pub"
runuser -u pbem -- test -r /etc/pbem/dkim.pem || fail "pbem cannot read its DKIM key"
cat >>/etc/pbem/pbem.env <<ENV
PBEM_DKIM_KEY=/etc/pbem/dkim.pem
PBEM_DKIM_SELECTOR=pbem
PBEM_DKIM_DOMAIN=play.example.org
PBEM_MAIL_FROM=pbem@play.example.org
ENV

step "first start as the pbem user with /etc/pbem/pbem.env"
port=$(shuf -i 20000-60000 -n 1)
set -a
# shellcheck disable=SC1091
. /etc/pbem/pbem.env
set +a
cd /
runuser -u pbem -- env PBEM_DATA=/var/lib/pbem PBEM_LISTEN="127.0.0.1:$port" DATABASE_URL="$DATABASE_URL" \
  PBEM_DKIM_KEY="$PBEM_DKIM_KEY" PBEM_DKIM_SELECTOR="$PBEM_DKIM_SELECTOR" PBEM_DKIM_DOMAIN="$PBEM_DKIM_DOMAIN" \
  PBEM_MAIL_FROM="$PBEM_MAIL_FROM" /usr/bin/pbem serve >/tmp/pbem-test-install.log 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null | grep -q '"ok"'; then break; fi
  kill -0 "$pid" 2>/dev/null || { cat /tmp/pbem-test-install.log; fail "pbem serve exited"; }
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/healthz" | grep -q '"ok"' || { cat /tmp/pbem-test-install.log; fail "/healthz"; }
echo "  /healthz: $(curl -fsS "http://127.0.0.1:$port/healthz")"
kill "$pid"; wait "$pid" || true; pid=""

step "pbem verify --all as the pbem user (docs/operating.md, Your own server, step 6)"
runuser -u pbem -- env PBEM_DATA=/var/lib/pbem $(grep ^DATABASE_URL /etc/pbem/pbem.env) pbem verify --all || fail "pbem verify --all"

if [ -d /run/systemd/system ]; then
  step "systemctl start pbem"
  systemctl start pbem
  for _ in $(seq 1 60); do curl -fsS http://127.0.0.1:8080/healthz >/dev/null 2>&1 && break; sleep 0.5; done
  curl -fsS http://127.0.0.1:8080/healthz | grep -q '"ok"' || { journalctl -u pbem --no-pager | tail -30; fail "unit did not serve"; }
  systemctl stop pbem
else
  step "PID 1 is not systemd here: the unit was verified, not started"
fi
step "ok: pbem $version installs, verifies and serves"

#!/bin/sh
# postinst of the pbem package: the system user, the PostgreSQL role and
# database, the service enabled (not started: configure /etc/pbem/pbem.env,
# then `systemctl start pbem`).
set -e

if ! getent passwd pbem >/dev/null; then
  adduser --system --group --home /var/lib/pbem --no-create-home --quiet pbem
fi
install -d -o pbem -g pbem -m 0750 /var/lib/pbem
chown root:pbem /etc/pbem/pbem.env
chmod 0640 /etc/pbem/pbem.env

# The role and database "pbem", owned by the pbem user, reached over the Unix
# socket with peer authentication (Debian's default for local connections).
if command -v psql >/dev/null && runuser -u postgres -- psql -qAtc 'SELECT 1' >/dev/null 2>&1; then
  if [ "$(runuser -u postgres -- psql -qAtc "SELECT 1 FROM pg_roles WHERE rolname = 'pbem'")" != 1 ]; then
    runuser -u postgres -- psql -qc 'CREATE ROLE pbem LOGIN'
  fi
  if [ "$(runuser -u postgres -- psql -qAtc "SELECT 1 FROM pg_database WHERE datname = 'pbem'")" != 1 ]; then
    runuser -u postgres -- psql -qc 'CREATE DATABASE pbem OWNER pbem'
  fi
else
  echo "pbem: PostgreSQL is not running; create the role and database later:" >&2
  echo "  runuser -u postgres -- psql -c 'CREATE ROLE pbem LOGIN' -c 'CREATE DATABASE pbem OWNER pbem'" >&2
fi

if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable pbem.service >/dev/null
  # An upgrade restarts a running server: the new release migrates the
  # schema at start, compatible with the previous one (migrations/README.md).
  if [ "$1" = configure ] && [ -n "$2" ] && systemctl is-active --quiet pbem.service; then
    systemctl restart pbem.service
  fi
fi

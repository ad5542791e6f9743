#!/bin/sh
# postrm of the pbem package. The database and /var/lib/pbem stay, even on
# purge: they hold the games.
set -e
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
fi

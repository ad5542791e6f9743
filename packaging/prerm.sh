#!/bin/sh
# prerm of the pbem package: stop the service on removal (not on upgrade).
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
  systemctl disable --now pbem.service >/dev/null || true
fi

#!/usr/bin/env bash
# build-deb.sh BINARY ARCH VERSION OUTDIR: builds the pbem Debian package of
# one architecture with dpkg-deb (what `make release` runs).
set -euo pipefail
bin=$1 arch=$2 version=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

install -D -m 0755 "$bin" "$stage/usr/bin/pbem"
install -D -m 0644 "$here/pbem.service" "$stage/lib/systemd/system/pbem.service"
install -D -m 0644 "$here/pbem-backup.service" "$stage/lib/systemd/system/pbem-backup.service"
install -D -m 0644 "$here/pbem-backup.timer" "$stage/lib/systemd/system/pbem-backup.timer"
install -D -m 0755 "$here/pbem-backup-setup" "$stage/usr/sbin/pbem-backup-setup"
install -D -m 0755 "$here/pbem-backup-files" "$stage/usr/sbin/pbem-backup-files"
install -D -m 0640 "$here/pbem.env" "$stage/etc/pbem/pbem.env"
install -D -m 0644 "$top/README.md" "$stage/usr/share/doc/pbem/README.md"
install -D -m 0644 "$top/migrations/README.md" "$stage/usr/share/doc/pbem/migrations.md"
# The README's links point into docs/: operating.md is the operator's guide.
for doc in "$top"/docs/*.md; do
	install -D -m 0644 "$doc" "$stage/usr/share/doc/pbem/docs/$(basename "$doc")"
done

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<CONTROL
Package: pbem
Version: $version
Architecture: $arch
Maintainer: pbem developers <pbem@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: adduser, postgresql
Recommends: pgbackrest
Section: games
Priority: optional
Description: play-by-email card game server
 Lords of Scotland and Bagpipes by email and on the web: one binary and
 PostgreSQL, HTTPS by itself (ACME), DKIM-signed mail, replies as moves.
CONTROL
echo /etc/pbem/pbem.env >"$stage/DEBIAN/conffiles"
install -m 0755 "$here/postinst.sh" "$stage/DEBIAN/postinst"
install -m 0755 "$here/prerm.sh" "$stage/DEBIAN/prerm"
install -m 0755 "$here/postrm.sh" "$stage/DEBIAN/postrm"

mkdir -p "$out"
dpkg-deb --root-owner-group -Zgzip --build "$stage" "$out/pbem_${version}_${arch}.deb" >/dev/null
echo "$out/pbem_${version}_${arch}.deb"

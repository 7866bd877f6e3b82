#!/bin/sh
# Fetch a Linux program nobody here wrote for the `pft record --qemu-log`
# end-to-end test: Debian's statically linked busybox for armhf, unpacked into
# DIR (default: build/armhf beside this script's checkout), DIR/bin/busybox.
#
# Enabling the armhf architecture can make `apt-get update` fail on some
# package mirrors, so the architecture is added only long enough to download
# the one package, then removed again.  Needs root (or sudo) and apt.
set -e
cd "$(dirname "$0")/.."
DIR=${1:-build/armhf}
[ -x "$DIR/bin/busybox" ] && exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
mkdir -p "$DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
added=
if ! dpkg --print-foreign-architectures | grep -qx armhf; then
	$SUDO dpkg --add-architecture armhf
	added=1
fi
$SUDO apt-get update -qq >/dev/null 2>&1 || true
( cd "$TMP" && apt-get download -qq busybox-static:armhf >/dev/null 2>&1 ) || status=$?
if [ -n "$added" ]; then
	$SUDO dpkg --remove-architecture armhf
	$SUDO apt-get update -qq >/dev/null 2>&1 || true
fi
[ -z "${status:-}" ] || { echo "fetch_busybox_armhf: cannot download busybox-static:armhf" >&2; exit 1; }
dpkg-deb -x "$TMP"/busybox-static_*_armhf.deb "$TMP/x"
cp "$TMP/x/bin/busybox" "$DIR/bin/busybox" 2>/dev/null || { mkdir -p "$DIR/bin"; cp "$TMP/x/bin/busybox" "$DIR/bin/busybox"; }
echo "busybox for armhf in $DIR/bin/busybox"

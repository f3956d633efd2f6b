#!/bin/sh
# Fetch Debian's packaged kernel for the `regionbench vm` tests and unpack
# it into DIR (default tests/vm-kernel): DIR/boot/vmlinuz-RELEASE and
# DIR/lib/modules/RELEASE.  Nothing is installed: the package is only
# downloaded (apt-get download) and unpacked (dpkg-deb -x).  Does nothing
# when DIR already holds a kernel.
set -eu
dir=${1:-tests/vm-kernel}
if ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1; then
	exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
	echo "vm-kernel: needs apt-get and dpkg-deb (Debian)" >&2
	exit 3
}
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
[ -n "$pkg" ] || {
	echo "vm-kernel: no linux-image-amd64 in the apt lists (apt-get update?)" >&2
	exit 3
}
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's sandbox user may not write here; the download needs no privilege.
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null)
dpkg-deb -x "$tmp"/*.deb "$dir"
ls "$dir"/boot/vmlinuz-*

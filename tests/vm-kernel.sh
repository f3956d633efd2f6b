#!/bin/sh
# Fetch Debian's packaged kernel for the `regionbench vm` tests and unpack
# it into DIR (default tests/vm-kernel): DIR/boot/vmlinuz-RELEASE and
# DIR/lib/modules/RELEASE.  Nothing is installed: the package is only
# downloaded (apt-get download) and unpacked (dpkg-deb -x).  Does nothing
# when DIR already holds a kernel.
#   sh tests/vm-kernel.sh [DIR [PACKAGE]]
# PACKAGE is a package name, or "6.12" for the newest Debian 12 6.12
# kernel (the generic amd64 flavour, signed or else unsigned: DAMON's
# tried_regions need >= 6.2); default: what linux-image-amd64 depends on.
set -eu
dir=${1:-tests/vm-kernel}
want=${2:-}
if ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1; then
	exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
	echo "vm-kernel: needs apt-get and dpkg-deb (Debian)" >&2
	exit 3
}
case $want in
'')
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	    sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' |
	    head -1)
	;;
[0-9]*.[0-9]*)
	# Not rt, cloud or dbg: the anchored name leaves them out.  The
	# signed image is preferred when both exist for the newest version.
	v=$(echo "$want" | sed 's/\./\\./g')
	pkg=$(apt-cache search --names-only \
	    "^linux-image-$v\\.[0-9]+\\+deb[0-9]+-amd64(-unsigned)?\$" \
	    2>/dev/null | cut -d' ' -f1 | sort -V | tail -2 |
	    awk '{ n[NR] = $1 } END {
		if (NR == 2 && n[2] == n[1] "-unsigned") print n[1]
		else print n[NR] }')
	;;
*)
	pkg=$want
	;;
esac
[ -n "$pkg" ] || {
	echo "vm-kernel: no ${want:-linux-image-amd64} kernel in the apt lists" \
	    "(apt-get update?)" >&2
	exit 3
}
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's sandbox user may not write here; the download needs no privilege.
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null)
dpkg-deb -x "$tmp"/*.deb "$dir"
ls "$dir"/boot/vmlinuz-*

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Get Debian's stock kernel and busybox for the Linux control domain,
# without installing either on this machine:
#   apt-get download  the linux-image-<ver>-amd64 package that
#                     linux-image-amd64 depends on, and busybox-static;
#   dpkg -x           each into DIR (never dpkg -i);
#   extract-vmlinux   the uncompressed kernel out of the bzImage, checked
#                     for the PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY).
#
#   fetch-kernel.sh [-o DIR] [-q]
#
#   -o DIR   the cache (default build/dom0); a second run finds everything
#            there and neither downloads nor asks apt anything
#   -q       quiet: print nothing but errors
#
# DOM0_KERNEL_PKG=linux-image-X-amd64 picks another kernel package.
#
# Leaves in DIR:
#   debs/*.deb          the packages as downloaded
#   kernel/             the kernel package's tree (boot/, lib/modules/ with
#                       drivers/xen only)
#   busybox/            busybox-static's tree (bin/busybox)
#   vmlinux             the uncompressed kernel (ELF64, PVH entry note)
#   kernel.env          KVER=..., PVH_ENTRY=0x..., VMLINUX_BYTES=...

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$ROOT/build/dom0
quiet=0
while getopts "o:qh" opt; do
    case $opt in
    o) dir=$OPTARG ;;
    q) quiet=1 ;;
    *) sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
say() { [ $quiet = 1 ] || echo "fetch-kernel: $*"; }
die() { echo "fetch-kernel: $*" >&2; exit 1; }

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -s "$dir/kernel.env" ] && [ -s "$dir/vmlinux" ] && [ -x "$dir/busybox/bin/busybox" ]; then
    say "cached in ${dir#$ROOT/}: $(tr '\n' ' ' < "$dir/kernel.env")"
    exit 0
fi

for tool in apt-get apt-cache dpkg xz readelf; do
    command -v $tool > /dev/null || die "$tool is missing (tools/misc/install-deps.sh dom0)"
done

# The package linux-image-amd64 depends on, e.g. linux-image-6.1.0-57-amd64.
resolve() {
    apt-cache depends linux-image-amd64 2> /dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1
}
pkg=${DOM0_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
    pkg=$(resolve)
    if [ -z "$pkg" ]; then
        say "apt-get update (apt knows no linux-image-amd64 yet)"
        SUDO=
        [ "$(id -u)" -eq 0 ] || SUDO=sudo
        $SUDO apt-get update -qq > /dev/null
        pkg=$(resolve)
    fi
    [ -n "$pkg" ] || die "cannot tell which kernel linux-image-amd64 depends on"
fi
kver=${pkg#linux-image-}

# Download (only what is not in debs/ already).
mkdir -p "$dir/debs"
for p in "$pkg" busybox-static; do
    if ! ls "$dir/debs/${p}_"*.deb > /dev/null 2>&1; then
        say "apt-get download $p"
        # As root apt warns that it downloads unsandboxed: keep its words
        # for a failure.
        (cd "$dir/debs" && apt-get download -q "$p" > "$dir/apt.log" 2>&1) ||
            { cat "$dir/apt.log" >&2; die "apt-get download $p failed"; }
    fi
done

say "dpkg -x $pkg, busybox-static"
rm -rf "$dir/kernel" "$dir/busybox"
dpkg -x "$(ls "$dir/debs/${pkg}_"*.deb | head -n 1)" "$dir/kernel"
dpkg -x "$(ls "$dir/debs/busybox-static_"*.deb | head -n 1)" "$dir/busybox"
# Of the ~400 MB of modules only drivers/xen is used (mk-initramfs.sh).
mdir=$dir/kernel/lib/modules/$kver/kernel
if [ -d "$mdir/drivers/xen" ]; then
    find "$mdir" -mindepth 1 -maxdepth 1 ! -name drivers -exec rm -rf {} +
    find "$mdir/drivers" -mindepth 1 -maxdepth 1 ! -name xen -exec rm -rf {} +
fi
[ -x "$dir/busybox/bin/busybox" ] || die "busybox-static has no bin/busybox"

bz=$dir/kernel/boot/vmlinuz-$kver
[ -f "$bz" ] || die "$pkg has no boot/vmlinuz-$kver"
say "extracting vmlinux from the bzImage's XZ payload"
"$ROOT/tools/dom0/extract-vmlinux.sh" "$bz" "$dir/vmlinux.tmp"

# XEN_ELFNOTE_PHYS32_ENTRY is note type 18 of owner "Xen".  readelf prints
# it as "Xen 0x... Unknown note type: (0x00000012)" followed by the bytes
# of its descriptor ("description data: 50 08 00 01").
entry=$(LC_ALL=C readelf -n "$dir/vmlinux.tmp" | awk '
    /^ *Xen / && /0x00000012/ { want = 1; next }
    want && /description data:/ {
        sub(/.*description data: */, "")
        n = split($0, b, " ")
        v = ""
        for (i = n; i >= 1; i--) v = v b[i]
        print "0x" v
        exit
    }
    { want = 0 }')
if [ -z "$entry" ]; then
    rm -f "$dir/vmlinux.tmp"
    die "$kver's vmlinux has no XEN_ELFNOTE_PHYS32_ENTRY note: it cannot boot as PVH"
fi
entry=$(printf '%#x' "$entry")
mv "$dir/vmlinux.tmp" "$dir/vmlinux"
{
    echo "KVER=$kver"
    echo "PVH_ENTRY=$entry"
    echo "VMLINUX_BYTES=$(stat -c %s "$dir/vmlinux")"
} > "$dir/kernel.env"
say "$(tr '\n' ' ' < "$dir/kernel.env")"

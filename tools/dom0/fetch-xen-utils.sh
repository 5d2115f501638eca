#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Get Xen's own xenstore and console daemons, as Debian 12 ships them, for
# the Linux control domain's initramfs, without installing anything on this
# machine (as fetch-kernel.sh does for the kernel):
#   apt-get download  xen-utils-4.17 (C xenstored, xenconsoled, xenconsole),
#                     xenstore-utils (xenstore-read, -write, -ls, ...) and the
#                     Xen libraries they link (libxenstore4, libxenmisc4.17
#                     for libxenctrl.so.4.17, libxencall1, libxenevtchn1,
#                     libxengnttab1, libxenforeignmemory1, libxendevicemodel1,
#                     libxentoolcore1, libxentoollog1), all of one version;
#                     and Debian's own xl (xen-utils-4.17) with what it links
#                     (libxenmisc4.17's libxenlight, libxlutil, libxenguest;
#                     libxenhypfs1; libyajl, libuuid, liblzma, libzstd, libz
#                     and libgcc_s (which glibc loads for pthread_cancel)
#                     from the build host, Debian 12, as libc);
#   dpkg -x           each into DIR/xen (never dpkg -i), keeping only the
#                     programs named below and the libraries;
#   readelf           checks that every library a kept program needs, directly
#                     or not, is there (libc's are the build host's, Debian 12's,
#                     as for tmux: mk-initramfs.sh copies them).
#
#   fetch-xen-utils.sh [-o DIR] [-q]
#
#   -o DIR   the cache (default build/dom0); a second run finds DIR/xen.env
#            and neither downloads nor asks apt anything
#   -q       quiet: print nothing but errors
#
# Leaves in DIR:
#   debs/*.deb                 the packages as downloaded
#   xen/usr/lib/xen-4.17/bin/  xenstored, xenconsoled, xenconsole
#   xen/usr/bin/xenstore       xenstore-utils' program (xenstore-read, -ls... by name)
#   xen/usr/lib/x86_64-linux-gnu/  the Xen libraries, with their soname links
#   xen/usr/lib/xen-4.17/bin/xl    Debian's xl (mk-initramfs.sh puts it at
#                              /usr/lib/xen-4.17/bin/xl, run through
#                              /usr/lib/debian-xen/bin/xl: ours stays xl)
#   xen.env                    XEN_UTILS_VERSION=..., XEN_LIBS="the sonames the
#                              programs need", XENSTORE_TOOLS="xenstore-read ...",
#                              DEBIAN_XL_LIBS="the sonames Debian's xl needs"
#                              (libc's aside), HOST_LIBS="those of them taken
#                              from the build host"

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$ROOT/build/dom0
quiet=0
while getopts "o:qh" opt; do
    case $opt in
    o) dir=$OPTARG ;;
    q) quiet=1 ;;
    *) sed -n '4,31p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
say() { [ $quiet = 1 ] || echo "fetch-xen-utils: $*"; }
die() { echo "fetch-xen-utils: $*" >&2; exit 1; }

# The programs kept (paths inside the packages).
PROGRAMS="usr/lib/xen-4.17/bin/xenstored usr/lib/xen-4.17/bin/xenconsoled
          usr/lib/xen-4.17/bin/xenconsole usr/bin/xenstore"
PACKAGES="xen-utils-4.17 xenstore-utils libxenstore4 libxenmisc4.17 libxencall1
          libxenevtchn1 libxengnttab1 libxenforeignmemory1 libxendevicemodel1
          libxentoolcore1 libxentoollog1 libxenhypfs1"
# Debian's xl: not one of PROGRAMS (XEN_LIBS stays what the daemons need).
DEBIAN_XL=usr/lib/xen-4.17/bin/xl
# What Debian's xl links that no Xen package holds: the build host's.
HOST_OK="libyajl.so.2 libuuid.so.1 liblzma.so.5 libzstd.so.1 libz.so.1"
# What glibc loads for it at run time (pthread_cancel: "libgcc_s.so.1 must
# be installed"; xl create aborts without it): the build host's too.
XL_DLOPEN="libgcc_s.so.1"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -s "$dir/xen.env" ] && [ -x "$dir/xen/usr/lib/xen-4.17/bin/xenstored" ] &&
   [ -x "$dir/xen/$DEBIAN_XL" ] && grep -q '^HOST_LIBS=.*libgcc_s' "$dir/xen.env"; then
    say "cached in ${dir#$ROOT/}: $(tr '\n' ' ' < "$dir/xen.env")"
    exit 0
fi
for tool in apt-get apt-cache dpkg readelf; do
    command -v $tool > /dev/null || die "$tool is missing"
done

# One version for all of them: xen-utils-4.17's candidate.
ver=$(apt-cache policy xen-utils-4.17 2> /dev/null | sed -n 's/^ *Candidate: //p')
if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
    say "apt-get update (apt knows no xen-utils-4.17 yet)"
    SUDO=
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq > /dev/null
    ver=$(apt-cache policy xen-utils-4.17 2> /dev/null | sed -n 's/^ *Candidate: //p')
fi
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "apt knows no xen-utils-4.17"

mkdir -p "$dir/debs"
want=
for p in $PACKAGES; do
    ls "$dir/debs/${p}_"*.deb > /dev/null 2>&1 || want="$want $p=$ver"
done
if [ -n "$want" ]; then
    say "apt-get download$want"
    (cd "$dir/debs" && apt-get download -q $want > "$dir/apt.log" 2>&1) ||
        { cat "$dir/apt.log" >&2; die "apt-get download failed"; }
fi

say "dpkg -x $PACKAGES"
rm -rf "$dir/xen" "$dir/xen.tmp"
for p in $PACKAGES; do
    dpkg -x "$(ls "$dir/debs/${p}_"*.deb | head -n 1)" "$dir/xen.tmp"
done
# Keep the programs and the libraries; drop the rest (the shim, pygrub...).
mkdir -p "$dir/xen"
for f in $PROGRAMS $DEBIAN_XL; do
    [ -f "$dir/xen.tmp/$f" ] || die "no $f in the packages"
    mkdir -p "$dir/xen/$(dirname "$f")"
    cp -a "$dir/xen.tmp/$f" "$dir/xen/$f"
done
# xenstore-read and friends: hard links to xenstore, which acts by the name
# it is run as (mk-initramfs.sh makes them symbolic links).
tools=
for l in "$dir"/xen.tmp/usr/bin/xenstore-*; do
    [ "$l" -ef "$dir/xen.tmp/usr/bin/xenstore" ] && tools="$tools $(basename "$l")"
done
[ -n "$tools" ] || die "xenstore-utils has no xenstore-read"
mkdir -p "$dir/xen/usr/lib/x86_64-linux-gnu"
cp -a "$dir"/xen.tmp/usr/lib/x86_64-linux-gnu/libxen*.so* "$dir/xen/usr/lib/x86_64-linux-gnu/"
cp -a "$dir"/xen.tmp/usr/lib/x86_64-linux-gnu/libxlutil.so* "$dir/xen/usr/lib/x86_64-linux-gnu/"
rm -rf "$dir/xen.tmp"

# Every library needed, directly or through another one, is either here or
# libc's (the build host's glibc, which mk-initramfs.sh copies).
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
lib=$dir/xen/usr/lib/x86_64-linux-gnu
todo=
for f in $PROGRAMS; do todo="$todo $dir/xen/$f"; done
seen=
while [ -n "$todo" ]; do
    set -- $todo
    f=$1; shift; todo="$*"
    for n in $(needed "$f"); do
        case " $seen " in *" $n "*) continue ;; esac
        seen="$seen $n"
        if [ -e "$lib/$n" ]; then
            todo="$todo $lib/$n"
        else
            case $n in
            libc.so.6|ld-linux-x86-64.so.2) ;;
            *) die "$(basename "$f") needs $n, which no fetched package holds" ;;
            esac
        fi
    done
done

# Debian's xl: the same walk; what no package holds must be one of HOST_OK
# and on the build host (ldconfig knows it).
hostlib() { ldconfig -p | sed -n "s/^\t$1 (libc6,x86-64) => //p" | head -n 1; }
todo=$dir/xen/$DEBIAN_XL
xlseen=
hostlibs=
while [ -n "$todo" ]; do
    set -- $todo
    f=$1; shift; todo="$*"
    for n in $(needed "$f"); do
        case " $xlseen libc.so.6 ld-linux-x86-64.so.2 " in *" $n "*) continue ;; esac
        xlseen="$xlseen $n"
        if [ -e "$lib/$n" ]; then
            todo="$todo $lib/$n"
        else
            case " $HOST_OK " in
            *" $n "*) h=$(hostlib "$n")
                      [ -n "$h" ] || die "Debian's xl needs $n: not on this host (apt-get install it)"
                      hostlibs="$hostlibs $n"
                      todo="$todo $h" ;;
            *) die "Debian's xl needs $n, which no fetched package holds" ;;
            esac
        fi
    done
done
for n in $XL_DLOPEN; do
    [ -n "$(hostlib "$n")" ] || die "Debian's xl needs $n at run time: not on this host"
    xlseen="$xlseen $n"
    hostlibs="$hostlibs $n"
done

{
    echo "XEN_UTILS_VERSION=$ver"
    echo "XEN_LIBS=\"$(echo $seen)\""
    echo "XENSTORE_TOOLS=\"$(echo $tools)\""
    echo "DEBIAN_XL_LIBS=\"$(echo $xlseen)\""
    echo "HOST_LIBS=\"$(echo $hostlibs)\""
} > "$dir/xen.env"
say "$(tr '\n' ' ' < "$dir/xen.env")"

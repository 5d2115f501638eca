#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the Linux control domain's initramfs: a cpio "newc" archive
# (tools/dom0/gen-cpio.py) holding
#   /bin/busybox + its applets   Debian's busybox-static
#   /init, /etc/dom0/checks.sh   tools/dom0/init, tools/dom0/checks.sh
#   /lib/modules/*.ko            xen-privcmd, xen-evtchn, xen-gntdev, xenfs
#                                from the same kernel package
#   /usr/sbin/xl                 tools/xl/xl.dom0, stripped (Debian's libxenstore.so.4
#                                and glibc shared, libm from the build host)
#   /usr/sbin/xen-logdirty-check tools/misc/xen-logdirty-check.static, stripped
#   /usr/sbin/xen-hcall-buffer-check  tools/misc/xen-hcall-buffer-check.static,
#                                stripped
#   /etc/dom0/checks-*.sh        sourced by checks.sh
#   /usr/bin/ssh                 tools/dom0/ssh: runs the command for localhost
#   /usr/sbin/xentop             tools/xentop/xentop.static, stripped (`xl top`
#                                runs it; batch mode needs no terminfo)
#   /usr/bin/tmux                the build host's tmux (if installed), with
#                                the shared libraries ldd lists and the
#                                terminfo entries it and xentop's screen use,
#                                glibc's C.UTF-8 LC_CTYPE (tmux needs UTF-8)
#                                (checks-top-screen.sh drives `xl top` in it)
#   /usr/lib/xen-4.17/bin/       Debian's xenstored, xenconsoled, xenconsole
#   /usr/bin/xenstore-*          and xenstore-utils, unmodified, with the Xen
#   /usr/lib/x86_64-linux-gnu/   libraries they link from the same packages
#   /lib/x86_64-linux-gnu/libc.so.6, /lib64/ld-linux-x86-64.so.2
#                                the build host's glibc (Debian 12's) for them
#                                (tools/dom0/fetch-xen-utils.sh)
#   /usr/lib/xen-4.17/bin/xl     Debian's own xl, unmodified, run as
#   /usr/lib/debian-xen/bin/xl   (tools/dom0/debian-xl) on Debian's libraries
#                                in /usr/lib/debian-xen/lib (checks-debian-xl.sh)
#   /usr/lib/xen-pml/*.elf       the domU test kernels to `xl create` from
#   /etc/xen/*.cfg               their xl configurations (tools/dom0/etc/)
#   /dev/console                 for init's standard streams
#   with -L, the Debian domU:
#   /usr/lib/xen-pml/vmlinux     the same kernel as dom0's (vmlinux.pvh)
#   /usr/lib/xen-pml/debian.cpio its initramfs: busybox-static,
#                                tools/dom0/domu/init, its pattern writer
#                                and jbb (domu/, built static)
#   /etc/xen/debian.cfg          tools/dom0/domu/debian.cfg
#   /etc/dom0/checks-domu.sh     its checks (section domu), and
#   /etc/dom0/checks-suspend.sh, checks-restore.sh (sections suspend, restore)
#
#   mk-initramfs.sh [-o DIR] [-m checks|shell] [-z gzip|none] [-L]
#
#   -o DIR   where fetch-kernel.sh left the kernel (default build/dom0);
#            writes DIR/initramfs.cpio or DIR/initramfs.cpio.gz and
#            DIR/initramfs.list (what went in)
#   -m shell the archive for a shell (make run in a terminal), without what
#            only the checks use: tmux with its libraries and locale, the
#            checkers, the checks' scripts (6 MB less for GRUB to read and
#            Linux to unpack); DIR/initramfs-shell.cpio, .list
#   -z       compression (default none: GRUB passes a gzip archive as it
#            is, and Linux's inflating it costs about what GRUB's reading
#            the bytes saved does; see docs/misc/dom0-linux.md)
#   -L       with the Debian domU above (35 MB more: the kernel again)
#
# Needs `make -C tools/xl xl.dom0`, `make -C tools/xentop xentop.static`
# and `make -C tests` done.

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$ROOT/build/dom0
z=none
mode=checks
linux_domu=0
while getopts "o:m:z:Lh" opt; do
    case $opt in
    o) dir=$OPTARG ;;
    m) mode=$OPTARG ;;
    z) z=$OPTARG ;;
    L) linux_domu=1 ;;
    *) sed -n '4,52p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
case $z in gzip|none) ;; *) echo "mk-initramfs: -z gzip or none" >&2; exit 2 ;; esac
case $mode in checks|shell) ;; *) echo "mk-initramfs: -m checks or shell" >&2; exit 2 ;; esac
name=initramfs
[ $mode = shell ] && name=initramfs-shell
die() { echo "mk-initramfs: $*" >&2; exit 1; }

[ -s "$dir/kernel.env" ] || die "no kernel in $dir: run tools/dom0/fetch-kernel.sh"
. "$dir/kernel.env"
[ -s "$dir/xen.env" ] || die "no Xen daemons in $dir: run tools/dom0/fetch-xen-utils.sh"
. "$dir/xen.env"
: "${DEBIAN_XL_LIBS:?no Debian xl in $dir/xen.env: run tools/dom0/fetch-xen-utils.sh}"
mods=$dir/kernel/lib/modules/$KVER/kernel/drivers/xen
bb=$dir/busybox/bin/busybox
xl=$ROOT/tools/xl/xl.dom0
[ -x "$xl" ] || die "no $xl: make -C tools/xl xl.dom0"
xentop=$ROOT/tools/xentop/xentop.static
[ -x "$xentop" ] || die "no $xentop: make -C tools/xentop xentop.static"
DOMU_KERNELS="boot demo dirtier jbb pause-spin smp-rr crash hypercall-errors mig-writer console-ring"

stage=$dir/$name.d
rm -rf "$stage"
mkdir -p "$stage"
strip -o "$stage/xl" "$xl"
ldc=$ROOT/tools/misc/xen-logdirty-check.static
[ -x "$ldc" ] || die "no $ldc: make -C tools/misc xen-logdirty-check.static"
strip -o "$stage/xen-logdirty-check" "$ldc"
hbc=$ROOT/tools/misc/xen-hcall-buffer-check.static
[ -x "$hbc" ] || die "no $hbc: make -C tools/misc xen-hcall-buffer-check.static"
strip -o "$stage/xen-hcall-buffer-check" "$hbc"
strip -o "$stage/xentop" "$xentop"

# The Debian domU's initramfs: busybox, its /init, the pattern writer
# (tools/dom0/domu/pattern.c) and jbb (domu/jbb/), static, nothing else.
if [ $linux_domu = 1 ]; then
    [ -s "$dir/vmlinux.pvh" ] ||
        die "no $dir/vmlinux.pvh: tools/dom0/trim-vmlinux.py $dir/vmlinux $dir/vmlinux.pvh"
    ${CC:-gcc} -static -O2 -s -Wall -Wextra -Werror -o "$stage/pattern" \
        "$ROOT/tools/dom0/domu/pattern.c" ||
        die "cannot build the domU's pattern writer (static: needs libc6-dev's libc.a)"
    # jbb's transaction loop (tests/jbb/main.c) as a Linux program, linked
    # above the guest-physical addresses it maps (domu/jbb/jbb.c).
    ${CC:-gcc} -static -O2 -s -Wall -Wextra -Werror -Wl,-Ttext-segment=0x10000000 \
        -I "$ROOT/tools/dom0/domu/jbb" -I "$ROOT/tests/common/include" -o "$stage/jbb" \
        "$ROOT/tools/dom0/domu/jbb/jbb.c" "$ROOT/tests/jbb/main.c" ||
        die "cannot build the domU's jbb"
    {
        for d in bin sbin usr usr/bin usr/sbin dev proc sys tmp root etc; do
            echo "dir /$d 0755 0 0"
        done
        echo "nod /dev/console 0600 0 0 c 5 1"
        echo "file /init $ROOT/tools/dom0/domu/init 0755 0 0"
        echo "file /bin/busybox $bb 0755 0 0"
        echo "file /bin/pattern $stage/pattern 0755 0 0"
        echo "file /bin/jbb $stage/jbb 0755 0 0"
        "$bb" --list-full | while read -r a; do
            [ "$a" = bin/busybox ] || echo "slink /$a /bin/busybox 0777 0 0"
        done
    } > "$stage/debian.list"
    "$ROOT/tools/dom0/gen-cpio.py" "$stage/debian.list" "$stage/debian.cpio"
fi

list=$dir/$name.list
# Each path once (tmux and the Xen daemons share glibc).
emitted=" "
entry() {
    case $emitted in *" $2 "*) return ;; esac
    emitted="$emitted$2 "
    echo "$*"
}
# The directories above a path that the list does not make otherwise.
parents() {
    local p= c
    for c in $(dirname "$1" | tr / ' '); do
        p=$p/$c
        case " bin sbin usr usr/bin usr/sbin usr/lib lib " in
        *" ${p#/} "*) ;; *) entry dir $p 0755 0 0 ;; esac
    done
}
{
    for d in bin sbin usr usr/bin usr/sbin usr/lib usr/lib/xen-pml lib \
             lib/modules etc etc/dom0 etc/xen dev proc sys tmp run root \
             var var/lib var/lib/xen var/log var/log/xen; do
        echo "dir /$d 0755 0 0"
    done
    # As Debian: /var/run is /run (a tmpfs /init mounts), /var/lock is
    # /run/lock (xenconsole's lock files), /var/lib/xen stays.
    echo "slink /var/run /run 0777 0 0"
    echo "slink /var/lock /run/lock 0777 0 0"
    echo "nod /dev/console 0600 0 0 c 5 1"
    echo "file /init $ROOT/tools/dom0/init 0755 0 0"
    echo "file /etc/profile $ROOT/tools/dom0/profile 0644 0 0"
    if [ $mode = checks ]; then
        echo "file /etc/dom0/checks.sh $ROOT/tools/dom0/checks.sh 0755 0 0"
        # Exactness and migration: the checks, the checkers.
        for f in checks-logdirty.sh checks-migrate.sh checks-hcall-buffer.sh \
                 checks-top-screen.sh checks-xenstore.sh checks-debian-xl.sh; do
            echo "file /etc/dom0/$f $ROOT/tools/dom0/$f 0644 0 0"
        done
        echo "file /usr/sbin/xen-logdirty-check $stage/xen-logdirty-check 0755 0 0"
        echo "file /usr/sbin/xen-hcall-buffer-check $stage/xen-hcall-buffer-check 0755 0 0"
    fi
    # xl migrate <dom> localhost runs "ssh localhost xl migrate-receive".
    echo "file /usr/bin/ssh $ROOT/tools/dom0/ssh 0755 0 0"
    echo "file /bin/busybox $bb 0755 0 0"
    # Every applet a link to busybox, where Debian's busybox puts it.
    "$bb" --list-full | while read -r a; do
        [ "$a" = bin/busybox ] || echo "slink /$a /bin/busybox 0777 0 0"
    done
    for m in xen-privcmd xen-evtchn xen-gntdev xenfs/xenfs; do
        [ -f "$mods/$m.ko" ] || die "no $m.ko in $KVER"
        echo "file /lib/modules/${m#*/}.ko $mods/$m.ko 0644 0 0"
    done
    echo "file /usr/sbin/xl $stage/xl 0755 0 0"
    # Xen's xenstored, xenconsoled and xenconsole (xl console runs it) and
    # xenstore-utils, as Debian ships them, at Debian's paths; the Xen
    # libraries they link; glibc.
    xb=$dir/xen/usr/lib/xen-4.17/bin
    entry dir /usr/lib/xen-4.17 0755 0 0
    entry dir /usr/lib/xen-4.17/bin 0755 0 0
    for p in xenstored xenconsoled xenconsole; do
        entry file /usr/lib/xen-4.17/bin/$p $xb/$p 0755 0 0
    done
    entry slink /usr/sbin/xenstored /usr/lib/xen-4.17/bin/xenstored 0777 0 0
    entry slink /usr/sbin/xenconsoled /usr/lib/xen-4.17/bin/xenconsoled 0777 0 0
    entry file /usr/bin/xenstore $dir/xen/usr/bin/xenstore 0755 0 0
    for t in $XENSTORE_TOOLS; do
        entry slink /usr/bin/$t xenstore 0777 0 0
    done
    entry dir /usr/lib/x86_64-linux-gnu 0755 0 0
    for l in $XEN_LIBS; do
        case $l in
        libc.so.6) f=$(ldconfig -p | sed -n 's/^\tlibc.so.6 (libc6,x86-64) => //p' | head -n 1)
                   parents "$f"
                   entry file "$f" "$(readlink -f "$f")" 0755 0 0 ;;
        *) entry file /usr/lib/x86_64-linux-gnu/$l \
                 "$(readlink -f "$dir/xen/usr/lib/x86_64-linux-gnu/$l")" 0755 0 0 ;;
        esac
    done
    # Debian's own xl, unmodified, at Debian's path, with every library it
    # links in /usr/lib/debian-xen/lib (links to the daemons' copies where
    # they share one; the rest from the packages or, HOST_LIBS, the build
    # host), run by /usr/lib/debian-xen/bin/xl (tools/dom0/debian-xl).
    entry file /usr/lib/xen-4.17/bin/xl $xb/xl 0755 0 0
    entry dir /usr/lib/debian-xen 0755 0 0
    entry dir /usr/lib/debian-xen/bin 0755 0 0
    entry dir /usr/lib/debian-xen/lib 0755 0 0
    entry file /usr/lib/debian-xen/bin/xl $ROOT/tools/dom0/debian-xl 0755 0 0
    for l in $DEBIAN_XL_LIBS; do
        case " $XEN_LIBS " in
        *" $l "*) entry slink /usr/lib/debian-xen/lib/$l /usr/lib/x86_64-linux-gnu/$l 0777 0 0 ;;
        *) case " $HOST_LIBS " in
           *" $l "*) f=$(ldconfig -p | sed -n "s/^\t$l (libc6,x86-64) => //p" | head -n 1) ;;
           *) f=$dir/xen/usr/lib/x86_64-linux-gnu/$l ;;
           esac
           [ -e "$f" ] || die "no $l for Debian's xl: run tools/dom0/fetch-xen-utils.sh"
           entry file /usr/lib/debian-xen/lib/$l "$(readlink -f "$f")" 0755 0 0 ;;
        esac
    done
    # What else xl links (glibc's libm), from the build host's glibc as
    # libc.so.6; Debian's libxenstore.so.4 is there already (XEN_LIBS).
    # And libgcc_s.so.1, which glibc loads for pthread_cancel (xs_close
    # cancels libxenstore's reader thread; without it glibc aborts).
    for l in $(ldd "$xl" | awk '$2 == "=>" { print $1 }') libgcc_s.so.1; do
        case " $XEN_LIBS " in *" $l "*) continue ;; esac
        f=$(ldconfig -p | sed -n "s/^\t$l (libc6,x86-64) => //p" | head -n 1)
        [ -n "$f" ] || die "no $l (which xl needs) on the build host"
        parents "$f"
        entry file "$f" "$(readlink -f "$f")" 0755 0 0
    done
    entry dir /lib64 0755 0 0
    entry file /lib64/ld-linux-x86-64.so.2 "$(readlink -f /lib64/ld-linux-x86-64.so.2)" 0755 0 0
    echo "file /usr/sbin/xentop $stage/xentop 0755 0 0"
    # tmux, dynamically linked: the binary, what ldd lists (each at the
    # path ldd names, the file behind any symlink), the terminfo entries.
    tmux=
    [ $mode = checks ] && tmux=$(command -v tmux || true)
    if [ -n "$tmux" ]; then
        echo "file /usr/bin/tmux $(readlink -f "$tmux") 0755 0 0"
        for l in $(ldd "$tmux" | grep -oE '/[^ ]+'); do
            parents "$l"
            entry file "$l" "$(readlink -f "$l")" 0755 0 0
        done
        # tmux 3.3 wants a UTF-8 LC_CTYPE: it tries C.UTF-8 (glibc's
        # C.utf8, which Debian's libc-bin ships as files).
        loc=/usr/lib/locale/C.utf8/LC_CTYPE
        if [ -f $loc ]; then
            for d in /usr/lib/locale /usr/lib/locale/C.utf8; do
                echo "dir $d 0755 0 0"
            done
            echo "file $loc $loc 0644 0 0"
        fi
    fi
    # The terminal types a user's terminal may be (xl top, vi and less on
    # the console; tmux in the checks): the build host's terminfo entries.
    echo "dir /lib/terminfo 0755 0 0"
    tdirs=
    for t in tmux tmux-256color screen screen-256color xterm xterm-256color \
             xterm-color rxvt rxvt-unicode-256color linux vt100 vt220 ansi dumb; do
        f=
        for td in /lib/terminfo /usr/share/terminfo /etc/terminfo; do
            [ -f "$td/${t:0:1}/$t" ] && { f=$td/${t:0:1}/$t; break; }
        done
        [ -n "$f" ] || continue
        case " $tdirs " in *" ${t:0:1} "*) ;; *)
            tdirs="${tdirs:-} ${t:0:1}"
            echo "dir /lib/terminfo/${t:0:1} 0755 0 0" ;;
        esac
        echo "file /lib/terminfo/${t:0:1}/$t $(readlink -f "$f") 0644 0 0"
    done
    # Without their debug information (a quarter of the size; the PVH
    # note stays): every byte costs GRUB and Linux time at boot.
    for g in $DOMU_KERNELS; do
        [ -f "$ROOT/tests/bin/$g.elf" ] || die "no tests/bin/$g.elf: make -C tests"
        strip --strip-debug -o "$stage/$g.elf" "$ROOT/tests/bin/$g.elf" ||
            die "cannot strip tests/bin/$g.elf"
        echo "file /usr/lib/xen-pml/$g.elf $stage/$g.elf 0644 0 0"
    done
    for c in "$ROOT"/tools/dom0/etc/*.cfg; do
        echo "file /etc/xen/$(basename "$c") $c 0644 0 0"
    done
    if [ $linux_domu = 1 ]; then
        echo "file /usr/lib/xen-pml/vmlinux $dir/vmlinux.pvh 0644 0 0"
        echo "file /usr/lib/xen-pml/debian.cpio $stage/debian.cpio 0644 0 0"
        echo "file /etc/xen/debian.cfg $ROOT/tools/dom0/domu/debian.cfg 0644 0 0"
        [ $mode = checks ] &&
            echo "file /etc/dom0/checks-domu.sh $ROOT/tools/dom0/checks-domu.sh 0644 0 0"
        [ $mode = checks ] &&
            echo "file /etc/dom0/checks-suspend.sh $ROOT/tools/dom0/checks-suspend.sh 0644 0 0"
        [ $mode = checks ] &&
            echo "file /etc/dom0/checks-restore.sh $ROOT/tools/dom0/checks-restore.sh 0644 0 0"
    fi
} > "$list"

cpio=$dir/$name.cpio
rm -f "$cpio" "$cpio.gz"
"$ROOT/tools/dom0/gen-cpio.py" "$list" "$cpio"
if [ $z = gzip ]; then
    gzip -9 -n "$cpio"
    cpio=$cpio.gz
fi
echo "$cpio"

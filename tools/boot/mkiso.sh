#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build a GRUB (BIOS, El Torito) rescue ISO that boots the hypervisor with
# multiboot2 and hands it one module per domain.
#
#   mkiso.sh -o OUT.iso [-x XEN] [-c "XEN CMDLINE"] [MODULE ...]
#
#   -o OUT.iso   the ISO to write (its staging tree goes to OUT.iso.d/)
#   -x XEN       the hypervisor image (default: xen/xen of this tree)
#   -c CMDLINE   the hypervisor's command line
#   MODULE       "FILE[|OPTIONS]": a guest kernel and the rest of its module
#                line, i.e. "<domain options> [-- <guest cmdline>]".  Module 0
#                is domain 0, module 1 domain 1, and so on.
#
# The menu entry is
#   multiboot2 /boot/xen CMDLINE
#   module2 /boot/FILE OPTIONS          (one per MODULE, in order)
# with timeout=0.  Only the files named are on the ISO besides GRUB itself.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=
xen=$ROOT/xen/xen
xen_cmdline=

usage() {
    sed -n '4,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while getopts "o:x:c:h" opt; do
    case $opt in
    o) out=$OPTARG ;;
    x) xen=$OPTARG ;;
    c) xen_cmdline=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ -n "$out" ] || usage
[ -f "$xen" ] || { echo "mkiso.sh: no hypervisor image at $xen" >&2; exit 1; }

# Quote a line of words for grub.cfg: a word with anything beyond a safe set
# of characters goes in single quotes (GRUB's script syntax is shell-like).
grub_words() {
    local w out=() q="'"
    read -r -a words <<< "$1" || true
    for w in "${words[@]}"; do
        if [[ $w =~ ^[A-Za-z0-9_=.,:/+@%-]+$ ]]; then
            out+=("$w")
        else
            out+=("'${w//$q/$q\\$q$q}'")
        fi
    done
    echo "${out[*]}"
}

stage=$out.d
rm -rf "$stage"
mkdir -p "$stage/boot/grub"
cp "$xen" "$stage/boot/xen"

{
    echo "set timeout=0"
    echo "set default=0"
    echo "menuentry \"xen\" {"
    echo "    multiboot2 /boot/xen $(grub_words "$xen_cmdline")"
    for m in "$@"; do
        file=${m%%|*}
        opts=
        [[ $m == *"|"* ]] && opts=${m#*|}
        [ -f "$file" ] || { echo "mkiso.sh: no module $file" >&2; exit 1; }
        name=$(basename "$file")
        # The same guest twice (two domains) is stored once.
        if [ -e "$stage/boot/$name" ] && ! cmp -s "$file" "$stage/boot/$name"; then
            echo "mkiso.sh: two different modules named $name" >&2
            exit 1
        fi
        cp "$file" "$stage/boot/$name"
        echo "    module2 /boot/$name $(grub_words "$opts")"
    done
    echo "    boot"
    echo "}"
} > "$stage/boot/grub/grub.cfg"

grub-mkrescue -o "$out" \
    --install-modules="multiboot2 normal configfile iso9660 biosdisk echo" \
    --locales= --fonts= --themes= \
    "$stage" > "$out.log" 2>&1 || {
    cat "$out.log" >&2
    exit 1
}

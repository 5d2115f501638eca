#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Check that every public header compiles on its own in each of the ways
# it is used: by a freestanding 64-bit guest, by the hypervisor (__XEN__,
# -nostdinc), by the toolstack on the host (__XEN_TOOLS__), and from
# assembly (__ASSEMBLY__).  Prints "PASS <what>" or "FAIL <what>" lines
# for abi-check to count; compiler output of failures goes to stderr.
#
# usage: standalone.sh <xen/include dir> [cc]

set -u

inc=$(cd "$1" && pwd) || exit 1
cc=${2:-gcc}
gccinc=$($cc -print-file-name=include)
free="-ffreestanding -nostdinc -isystem $gccinc -m64 -mno-red-zone"
warn="-Wall -Wextra -Werror"
tmp=${TMPDIR:-/tmp}/abi-standalone.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

check() {  # <label> <header> <lang> <flags...>
    label=$1 hdr=$2 lang=$3
    shift 3
    if [ "$lang" = c ]; then
        printf '#include "public/%s"\nint abi_standalone_dummy;\n' "$hdr" > "$tmp/t.c"
        src=$tmp/t.c
    else
        printf '#include "public/%s"\n' "$hdr" > "$tmp/t.S"
        src=$tmp/t.S
    fi
    if $cc "$@" -I"$inc" -c "$src" -o "$tmp/t.o" 2> "$tmp/err"; then
        echo "PASS $label public/$hdr"
    else
        echo "FAIL $label public/$hdr"
        head -n 20 "$tmp/err" >&2
    fi
}

cd "$inc" || exit 1
for hdr in $(find public -name '*.h' | sed 's|^public/||' | LC_ALL=C sort); do
    case $hdr in
    domctl.h|sysctl.h) ;;       # toolstack/hypervisor only, by design
    *) check guest "$hdr" c $free $warn -std=c11 -pedantic ;;
    esac
    check hypervisor "$hdr" c $free $warn -std=gnu11 -D__XEN__
    check toolstack "$hdr" c $warn -std=gnu11 -D__XEN_TOOLS__
    check assembly "$hdr" S -D__ASSEMBLY__ -D__XEN__
done

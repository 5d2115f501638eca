#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Write the uncompressed kernel (vmlinux, an ELF64 image) out of an x86
# bzImage whose payload is XZ-compressed, as Linux's scripts/extract-vmlinux
# does: find the XZ stream magic (FD 37 7A 58 5A 00) and decompress from
# there, ignoring what follows the stream.
#
#   extract-vmlinux.sh BZIMAGE OUT
#
# Fails unless the result is an ELF file.

set -euo pipefail
[ $# -eq 2 ] || { echo "usage: extract-vmlinux.sh BZIMAGE OUT" >&2; exit 2; }
img=$1
out=$2

# Every offset of the magic; the first that decompresses to an ELF wins
# (the setup code could contain the bytes by chance).
mapfile -t offsets < <(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$img" | cut -d: -f1)
[ ${#offsets[@]} -gt 0 ] || { echo "extract-vmlinux.sh: no XZ stream in $img" >&2; exit 1; }

for off in "${offsets[@]}"; do
    # xz stops at the end of the stream: tail may die of SIGPIPE, and
    # only xz's status counts.
    tail -c +$((off + 1)) "$img" 2> /dev/null |
        xz -dc --single-stream > "$out.tmp" 2> /dev/null && rc=0 || rc=${PIPESTATUS[1]}
    if [ "$rc" -eq 0 ] &&
       [ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
        mv "$out.tmp" "$out"
        exit 0
    fi
done
rm -f "$out.tmp"
echo "extract-vmlinux.sh: no XZ stream in $img decompresses to an ELF image" >&2
exit 1

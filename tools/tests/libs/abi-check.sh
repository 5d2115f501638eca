#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A library of ours against Xen's build of it (Debian's): every symbol
# Xen's exports that ours exports too must carry the same version node, so
# that a program linked against Xen's library finds ours (a symbol of Xen's
# that ours lacks is not implemented here, and is counted, not refused).
#
#   abi-check.sh OURS XENS
#
# Prints "<library>: N of Xen's M symbols, same version nodes" and exits 0,
# or one line per symbol whose node differs ("name: ours V1, Xen's V2") and
# exits 1.
set -euo pipefail
here=$(dirname "$0")
ours=$("$here/exports.sh" "$1")
xens=$("$here/exports.sh" "$2")
bad=$(join <(echo "$ours") <(echo "$xens") | awk '$2 != $3 { print $1 ": ours " $2 ", Xen'"'"'s " $3 }')
if [ -n "$bad" ]; then
    echo "$bad"
    exit 1
fi
echo "$(basename "$1"): $(join <(echo "$ours") <(echo "$xens") | wc -l) of Xen's $(echo "$xens" | grep -c .) symbols, same version nodes"

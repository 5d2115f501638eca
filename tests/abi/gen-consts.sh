#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Emit one table row per object-like macro defined in our public headers,
# guarded by #ifdef so the same file compiles against either header set:
#
#   #ifdef NAME
#   { "NAME", (unsigned long long)(NAME), 1 },
#   #else
#   { "NAME", 0, 0 },
#   #endif
#
# Headers under ext/ are this project's own extensions, not Xen's: skipped.
# Include guards and macros that are not integer constants (strings, type
# aliases, empty markers) are skipped; add to SKIP if a new one appears.
#
# usage: gen-consts.sh <xen/include/public dir>  > consts.inc

set -eu

dir=$1

SKIP='PRI_xen_pfn PRIu_xen_pfn PRI_xen_ulong XEN_EMULATE_PREFIX XEN_CPUID
XEN_FLEX_ARRAY_DIM xen_wc_sec_hi xen_vga_console_info xen_vga_console_info_t
int64_aligned_t uint64_aligned_t LOCAL_XEN_PUBLIC_HEADERS GNTTABOP_error_msgs'

find "$dir" -path "$dir/ext" -prune -o -name '*.h' -print | LC_ALL=C sort | xargs cat |
    sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)\([[:space:]].*\)$/\1/p' |
    grep -v '^__LOCAL_' |
    LC_ALL=C sort -u |
    while read -r name; do
        case " $(echo $SKIP) " in
        *" $name "*) continue ;;
        esac
        printf '#ifdef %s\n{ "%s", (unsigned long long)(%s), 1 },\n#else\n{ "%s", 0, 0 },\n#endif\n' \
            "$name" "$name" "$name" "$name"
    done

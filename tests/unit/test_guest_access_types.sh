#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compile-time checks of the typed guest handles (guest_access_types.c):
# the file must compile as it is, and must fail to compile with each
# -DCASE_<name> it contains.  $TYPECHECK_CC is the compiler and flags the
# hypervisor's code is built with (set by the Makefile).  Prints one
# "RESULT passed failed" line, as the test binaries do.
dir=$(dirname "$0")
src="$dir/guest_access_types.c"
if [ -z "$TYPECHECK_CC" ]; then
    echo "test_guest_access_types: TYPECHECK_CC is not set (run it through make)"
    exit 2
fi
passed=0
failed=0
if $TYPECHECK_CC -fsyntax-only "$src" 2>/dev/null; then
    passed=$((passed + 1))
else
    echo "guest_access_types.c: the valid uses do not compile:"
    $TYPECHECK_CC -fsyntax-only "$src" 2>&1 | head -20
    failed=$((failed + 1))
fi
cases=$(sed -n 's/^#ifdef CASE_\([a-z0-9_]*\)$/\1/p' "$src")
[ -n "$cases" ] || { echo "guest_access_types.c: no cases found"; failed=$((failed + 1)); }
for c in $cases; do
    if $TYPECHECK_CC -fsyntax-only -DCASE_"$c" "$src" 2>/dev/null; then
        echo "guest_access_types.c: CASE_$c compiled, but must not"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "RESULT $passed $failed"
[ "$failed" -eq 0 ]

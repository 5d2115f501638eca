#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every test binary given; print failures, one line per binary and
# finally the total "N passed, N failed".  Exit non-zero on any failure.
# A binary that runs longer than 60 s (a lock test that deadlocks, say)
# is killed and counts as failed.
passed=0
failed=0
for t in "$@"; do
    name=$(basename "$t")
    out=$(timeout 60 "$t" 2>&1)
    rc=$?
    res=$(printf '%s\n' "$out" | sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\1 \2/p')
    printf '%s\n' "$out" | grep -v '^RESULT '
    if [ -z "$res" ]; then
        echo "$name: exited with status $rc before reporting"
        failed=$((failed + 1))
        continue
    fi
    p=${res% *}
    f=${res#* }
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -eq 0 ] && [ "$rc" -eq 0 ]; then
        echo "$name: ok ($p checks)"
    else
        echo "$name: FAILED ($f of $((p + f)) checks)"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

# SPDX-License-Identifier: GPL-2.0-only
#
# What the shell suites over the fake hypervisor share (sourced by
# tools/tests/xl/run-tests.sh and tools/tests/xentop/run-tests.sh, and by
# tools/tests/libs/run-tests.sh): a scratch directory $W holding the fake's
# machine ($W/state, FAKE_XEN_STATE) and its call log ($W/log,
# FAKE_XEN_LOG), libxl's run directory ($W/run), the cases' bookkeeping and
# the checks.  A case:
#
#   begin "what it shows"; <set the machine up>; run PROGRAM ARGS...;
#   want_rc 0; want_out <<<"..."; want_log_has "pause 5"; ...; end
#
# `finish` prints "N passed, N failed" and is the script's exit status.
# A suite sets LIB_CLEANUP to a function of its own to run at exit, and
# BEGIN_CLEARS_LOG=0 if a case may look at the calls of the cases before it
# (the log is emptied at each begin otherwise).

HERE=$PWD
BIN=$HERE/bin
pass=0
fail=0
W=$(mktemp -d)
LIB_CLEANUP=
BEGIN_CLEARS_LOG=1
lib_cleanup() {
    [ -n "$LIB_CLEANUP" ] && "$LIB_CLEANUP"
    rm -rf "$W"
}
trap lib_cleanup EXIT
export FAKE_XEN_STATE=$W/state FAKE_XEN_LOG=$W/log LIBXL_RUN_DIR=$W/run
# The fake xenstored's tree (tools/tests/fake/fake_xs.c): one node a line,
# "<path> <perms> <value>".
export FAKE_XS_STATE=$W/xenstore

CASE= CASE_OK=1 CASE_MSG=
begin() {
    CASE=$1
    CASE_OK=1
    CASE_MSG=
    [ "$BEGIN_CLEARS_LOG" = 1 ] && : >"$W/log"
    return 0
}
problem() {
    CASE_OK=0
    CASE_MSG+="$1"$'\n'
}
end() {
    if [ "$CASE_OK" -eq 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $CASE"
        sed 's/^/    /' <<<"$CASE_MSG"
    fi
}
# Add the counts of a program's own "[word: ]N passed, N failed" line.
add_counts() {   # output exit-status
    local last
    last=$(tail -n 1 <<<"$1")
    if [[ $last =~ ^([a-z]+:\ )?([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        pass=$((pass + BASH_REMATCH[2]))
        fail=$((fail + BASH_REMATCH[3]))
        [ "$2" -ne 0 ] && [ "${BASH_REMATCH[3]}" -eq 0 ] && fail=$((fail + 1))
    else
        echo "FAIL: no result line (exit status $2)"
        fail=$((fail + 1))
    fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# The fake machine: change a field of one domain (setfield 5 logdirty=1).
setfield() {
    local dom=$1 kv=$2 key=${2%%=*}
    sed -i -E "/^domain $dom /{s/ $key=[^ ]*//; s/\$/ $kv/}" "$W/state"
}
# A domain's name, where Xen's libxl keeps it: xenstore's
# /local/domain/<domid>/name and /vm/<uuid>/name (name_domain 1 <uuid> guest1).
name_domain() {
    printf '%s n0,r%s %s\n' "/local/domain/$1" "$1" - "/local/domain/$1/vm" "$1" "/vm/$2" \
        "/local/domain/$1/name" "$1" "$3" "/vm/$2" "$1" - "/vm/$2/name" "$1" "$3" \
        >>"$W/xenstore"
}
# A fresh xenstore with what xen-init-dom0 writes: Domain-0's name and domid.
xenstore_dom0() {
    printf '/local/domain/0/name n0 Domain-0\n/local/domain/0/domid n0 0\n' >"$W/xenstore"
}
want_xs_has() {
    grep -qE -- "$1" "$W/xenstore" || problem "xenstore lacks /$1/:"$'\n'"$(cat "$W/xenstore")"
}
want_xs_lacks() {
    ! grep -qE -- "$1" "$W/xenstore" || problem "xenstore has /$1/:"$'\n'"$(cat "$W/xenstore")"
}

# Run a program: its stdout, stderr and exit status to $W/out, err, rc.
run() {
    "$@" >"$W/out" 2>"$W/err"
    echo $? >"$W/rc"
}

want_rc() {
    local rc
    rc=$(cat "$W/rc")
    [ "$rc" = "$1" ] || problem "exit status $rc, want $1; stderr: $(cat "$W/err")"
}
compare() {   # what file (expected on stdin)
    local d
    d=$(diff -u - "$2")
    [ -z "$d" ] || problem "$1 differs (- want, + got):"$'\n'"$d"
}
want_out() { compare stdout "$W/out"; }
want_err() { compare stderr "$W/err"; }
want_log() { compare "call log" "$W/log"; }
want_out_has() {
    grep -qE -- "$1" "$W/out" || problem "stdout lacks /$1/:"$'\n'"$(cat "$W/out")"
}
want_err_has() {
    grep -qE -- "$1" "$W/err" || problem "stderr lacks /$1/:"$'\n'"$(cat "$W/err")"
}
want_err_lines() {
    local n
    n=$(wc -l <"$W/err")
    [ "$n" -eq "$1" ] || problem "stderr has $n lines, want $1:"$'\n'"$(cat "$W/err")"
}
want_no_out() {
    [ ! -s "$W/out" ] || problem "unexpected stdout:"$'\n'"$(cat "$W/out")"
}
want_log_has() {
    grep -qxF -- "$1" "$W/log" || problem "call log lacks '$1':"$'\n'"$(cat "$W/log")"
}
want_log_lacks() {
    ! grep -qE -- "$1" "$W/log" || problem "call log has /$1/:"$'\n'"$(cat "$W/log")"
}
want_state_has() {
    grep -qE -- "$1" "$W/state" || problem "state lacks /$1/:"$'\n'"$(cat "$W/state")"
}

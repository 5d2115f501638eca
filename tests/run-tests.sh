#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the guest test cases of tests/unittests.cfg under Bochs.
#
#   tests/run-tests.sh [options] [CASE|GROUP ...]
#
#   CASE|GROUP  run these test cases (shell patterns allowed) or every case
#               of these groups; default: every case not in group nodefault
#   -g GROUP    also select every case in GROUP
#   -j N        run N cases at a time (default 2)
#   -t SECONDS  override every case's timeout
#   -n          do not build (use tests/bin/*.elf and xen/xen as they are)
#   -f          follow: show the serial line live (one case at a time)
#   -v          print the serial log of every failed case
#   -l          list the cases and exit
#   -c FILE     the test list (default tests/unittests.cfg)
#
# XEN_IMAGE=FILE in the environment boots FILE instead of xen/xen;
# TESTS_OUT=DIR puts the cases' directories in DIR instead of tests/out.
#
# Each case gets tests/out/<case>/ (xen.iso, bochsrc, serial.out,
# bochs.log, verdict).  Prints "PASS <case>", "SKIP <case> (why)" or
# "FAIL <case> (why)" per case and ends with "N passed, N failed"; exits
# non-zero if any case failed.  The list format is described at the top of
# tests/unittests.cfg.

set -uo pipefail

TESTS=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$TESTS/.." && pwd)
BOOT=$ROOT/tools/boot
OUT=${TESTS_OUT:-$TESTS/out}
XEN=${XEN_IMAGE:-$ROOT/xen/xen}

cfg=$TESTS/unittests.cfg
jobs=2
timeout_override=
build=1
follow=0
verbose=0
list_only=0
groups_sel=()

usage() {
    sed -n '4,25p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while getopts "g:j:t:c:nfvlh" opt; do
    case $opt in
    g) groups_sel+=("$OPTARG") ;;
    j) jobs=$OPTARG ;;
    t) timeout_override=$OPTARG ;;
    c) cfg=$OPTARG ;;
    n) build=0 ;;
    f) follow=1 ;;
    v) verbose=1 ;;
    l) list_only=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ -f "$cfg" ] || { echo "run-tests.sh: no test list $cfg" >&2; exit 2; }

# ---------------------------------------------------------------------------
# The test list: "[name]" starts a case, "key = value" lines follow.
# Single-valued keys: extra_params cpu smp smp_also megs timeout groups results
# worst stop_on end_on streams panics.
# Repeatable keys: domain (file is a synonym), expect, expect_once, reject,
# serial_input.

declare -a CASES=()
declare -A KV=()     # "case:key" -> value (repeatable keys: newline-separated)

parse_cfg() {
    local line key val cur= n=0

    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        line=${line%$'\r'}
        [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
        if [[ $line =~ ^\[([A-Za-z0-9_.+-]+)\][[:space:]]*$ ]]; then
            cur=${BASH_REMATCH[1]}
            if [ -n "${KV[$cur:defined]:-}" ]; then
                echo "$cfg:$n: case [$cur] defined twice" >&2
                exit 2
            fi
            KV[$cur:defined]=1
            CASES+=("$cur")
            continue
        fi
        if ! [[ $line =~ ^[[:space:]]*([a-z_]+)[[:space:]]*=[[:space:]]?(.*)$ ]]; then
            echo "$cfg:$n: cannot parse: $line" >&2
            exit 2
        fi
        key=${BASH_REMATCH[1]}
        val=${BASH_REMATCH[2]}
        val=${val%"${val##*[![:space:]]}"}      # trailing blanks
        if [ -z "$cur" ]; then
            echo "$cfg:$n: '$key' outside a [case]" >&2
            exit 2
        fi
        case $key in
        file) key=domain ;&
        domain|expect|expect_once|reject|serial_input)
            if [ -n "${KV[$cur:$key]:-}" ]; then
                KV[$cur:$key]+=$'\n'$val
            else
                KV[$cur:$key]=$val
            fi
            ;;
        extra_params|cpu|smp|smp_also|megs|timeout|groups|results|worst|stop_on|end_on|streams|panics)
            KV[$cur:$key]=$val ;;
        *)
            echo "$cfg:$n: unknown key '$key'" >&2
            exit 2
            ;;
        esac
    done < "$cfg"

    local c
    for c in "${CASES[@]}"; do
        if [ -z "${KV[$c:domain]:-}" ]; then
            echo "$cfg: case [$c] has no domain" >&2
            exit 2
        fi
    done
    expand_smp_also
}

# "smp_also = 2 4": the case again as <case>.smp2 and <case>.smp4, on that
# many physical CPUs, in groups smp-host and smp-host-N only (so that a
# group run on one CPU does not run them thrice).
expand_smp_also() {
    local c n v k key
    local -a base=("${CASES[@]}")
    for c in "${base[@]}"; do
        for n in ${KV[$c:smp_also]:-}; do
            v=$c.smp$n
            CASES+=("$v")
            for k in "${!KV[@]}"; do
                [[ $k == "$c:"* ]] || continue
                key=${k#"$c:"}
                KV[$v:$key]=${KV[$k]}
            done
            KV[$v:smp]=$n
            KV[$v:groups]="smp-host smp-host-$n"
            KV[$v:expect_once]="^\(XEN\) Brought up $n CPUs\$${KV[$v:expect_once]:+$'\n'${KV[$v:expect_once]}}"
            unset "KV[$v:smp_also]"
        done
    done
}

get() {  # get CASE KEY DEFAULT
    local v=${KV[$1:$2]:-}
    echo "${v:-$3}"
}

in_group() {  # in_group CASE GROUP
    local g
    for g in $(get "$1" groups ""); do
        [ "$g" = "$2" ] && return 0
    done
    return 1
}

# The guest kernel a domain line names: a bare name is tests/bin/<name>.elf.
domain_file() {
    local f=$1
    if [[ $f != */* && $f != *.elf ]]; then
        f=$TESTS/bin/$f.elf
    elif [[ $f != /* ]]; then
        f=$ROOT/$f
    fi
    echo "$f"
}

# ---------------------------------------------------------------------------
# One case: ISO, Bochs, then the verdict from the serial log.

verdict() {  # verdict DIR WORD [REASON]
    echo "$2${3:+ $3}" > "$1/verdict"
}

# Prints the worst of a list of statuses.
# What ends a run early: stop_on, by default Xen's panic line (none for a
# case that panics = yes: it must run on to the power-off).
stop_on() {
    if [ "$(get "$1" panics no)" = yes ]; then
        get "$1" stop_on '^\(XEN\) stop_on: none$'
    else
        get "$1" stop_on 'Panic on CPU'
    fi
}

worst_status() {
    local s w=SUCCESS rank=0 r
    for s in "$@"; do
        case $s in
        SUCCESS) r=0 ;; SKIP) r=1 ;; ERROR) r=2 ;; FAILURE) r=3 ;; *) r=4 ;;
        esac
        if [ $r -gt $rank ]; then
            rank=$r
            w=$s
        fi
    done
    echo $w
}

run_case() {
    local c=$1 dir=$OUT/$1
    local -a domains=() modules=() bochs_args=()
    local d file opts i timeout

    rm -rf "$dir"
    mkdir -p "$dir"

    mapfile -t domains <<< "$(get "$c" domain "")"
    for d in "${domains[@]}"; do
        file=$(domain_file "${d%% *}")
        opts=
        [[ $d == *" "* ]] && opts=${d#* }
        modules+=("$file|$opts")
    done

    if [ ! -f "$XEN" ]; then
        verdict "$dir" FAIL "no hypervisor image at ${XEN#$ROOT/}"
        return
    fi
    # Test kernels run as dom0 and often end before the domUs they boot
    # with: keep the host up until the last domain is gone, unless the
    # case says otherwise (dom0_shutdown=, xen/common/shutdown.c).
    local cmdline
    cmdline=$(get "$c" extra_params "")
    [[ " $cmdline" == *" dom0_shutdown="* ]] || cmdline="${cmdline:+$cmdline }dom0_shutdown=domain"
    if ! "$BOOT/mkiso.sh" -o "$dir/xen.iso" -x "$XEN" \
            -c "$cmdline" "${modules[@]}" \
            > "$dir/mkiso.log" 2>&1; then
        verdict "$dir" FAIL "ISO build failed, see ${dir#$ROOT/}/mkiso.log"
        return
    fi

    timeout=${timeout_override:-$(get "$c" timeout 60)}
    bochs_args=(-d "$dir" -i "$dir/xen.iso" -c "$(get "$c" cpu tigerlake)"
                -n "$(get "$c" smp 1)" -m "$(get "$c" megs 256)"
                -t "$timeout" -s "$(stop_on "$c")")
    [ $follow = 1 ] && bochs_args+=(-f)
    # end_on = [N ]REGEX: the run ends once N lines matched (a machine that
    # would go on, e.g. rebooting).
    local end_on
    end_on=$(get "$c" end_on "")
    if [[ $end_on =~ ^([0-9]+)\ (.*)$ ]]; then
        bochs_args+=(-e "${BASH_REMATCH[2]}" -k "${BASH_REMATCH[1]}")
    elif [ -n "$end_on" ]; then
        bochs_args+=(-e "$end_on")
    fi
    local input text
    while IFS= read -r input; do
        [ -n "$input" ] || continue
        if [[ $input != *" => "* ]]; then
            verdict "$dir" FAIL "serial_input is not 'REGEX => TEXT'"
            return
        fi
        text=${input#* => }
        # @FILE: a file under tests/, sent in one burst.
        [[ $text == @* ]] && text=@$TESTS/${text#@}
        bochs_args+=(-w "${input%% => *}" -S "$text")
    done <<< "$(get "$c" serial_input "")"
    "$BOOT/bochs-run.sh" "${bochs_args[@]}"

    evaluate "$c" "$dir" "${#domains[@]}" "$timeout"
}

evaluate() {
    local c=$1 dir=$2 ndom=$3 timeout=$4
    local log=$dir/serial.txt status want dom n re
    local -a reasons=() statuses=() lines=()

    tr -d '\r' < "$dir/serial.out" > "$log" 2> /dev/null || : > "$log"
    status=$(cat "$dir/status" 2> /dev/null || echo missing)

    case $status in
    timeout) reasons+=("timeout after ${timeout}s") ;;
    stopped) reasons+=("stopped on: $(stop_on "$c")") ;;
    ended) ;;
    exited)
        [ -e "$dir/serial.out" ] ||
            reasons+=("no serial output, see ${dir#$ROOT/}/bochs.out") ;;
    *) reasons+=("Bochs did not run, see ${dir#$ROOT/}/bochs.out") ;;
    esac

    # end_on: the run must have ended there, not by itself before.
    if [ -n "$(get "$c" end_on "")" ] && [ "$status" != ended ]; then
        reasons+=("the run ended before end_on ($(get "$c" end_on "")) matched")
    fi

    # A hypervisor panic fails every case, even one that printed all its
    # results first (the machine may power off before the runner's
    # stop_on watch sees the line).
    # panics = yes: the case is that panic, and the machine powers off.
    if [ "$(get "$c" panics no)" = yes ]; then
        grep -qE '^\(XEN\) Panic on CPU' "$log" ||
            reasons+=("the hypervisor did not panic")
    elif grep -qE '^\(XEN\) (Panic on CPU|Xen BUG at)' "$log"; then
        reasons+=("the hypervisor panicked")
    fi

    # "(dN) ... Test result: STATUS" lines: "N STATUS" ("- STATUS" if the
    # line names no domain).
    mapfile -t lines < <(awk '
        /Test result: / {
            d = "-"
            if (match($0, /\(d[0-9]+\)/))
                d = substr($0, RSTART + 2, RLENGTH - 3)
            s = $0
            sub(/.*Test result: /, "", s)
            sub(/[^A-Z].*/, "", s)
            print d, s
        }' "$log")
    for n in "${lines[@]}"; do
        [ -n "$n" ] && statuses+=("${n#* }")
    done

    want=$(get "$c" results all)
    if [ "$want" = all ]; then
        want=
        for ((n = 0; n < ndom; n++)); do
            want+="d$n "
        done
    fi
    if [[ $want =~ ^[0-9]+$ ]]; then
        [ ${#statuses[@]} -ge "$want" ] ||
            reasons+=("${#statuses[@]} of $want results")
    else
        for dom in $want; do
            n=$(printf '%s\n' "${lines[@]}" | grep -c "^${dom#d} ")
            if [ "$n" -eq 0 ]; then
                reasons+=("no result from $dom")
            elif [ "$n" -gt 1 ]; then
                reasons+=("$n results from $dom")
            fi
        done
    fi

    local worst want_worst
    worst=$(worst_status "${statuses[@]}")
    want_worst=$(get "$c" worst "")
    if [ -n "$want_worst" ]; then
        # A case whose guest must report this (e.g. a bound that must fire).
        [ "$worst" = "$want_worst" ] ||
            reasons+=("Test result: $worst, expected $want_worst")
    else
        case $worst in
        SUCCESS|SKIP) ;;
        *) reasons+=("Test result: $worst") ;;
        esac
    fi

    # Migration streams printed on the serial line: decoded, then checked.
    want=$(get "$c" streams "")
    if [ -n "$want" ]; then
        local out f nstreams=0
        if ! out=$(python3 "$ROOT/tools/tests/migrate/extract-streams.py" \
                   "$log" "$dir" 2>&1); then
            reasons+=("streams: ${out//$'\n'/; }")
        fi
        for f in "$dir"/*.stream; do
            [ -e "$f" ] || continue
            nstreams=$((nstreams + 1))
            "$SR_CHECK" "$f" > "$f.check" 2>&1 ||
                reasons+=("sr-check: $(head -1 "$f.check")")
        done
        [ "$nstreams" -ge "$want" ] ||
            reasons+=("$nstreams of $want migration streams")
    fi

    while IFS= read -r re; do
        [ -n "$re" ] || continue
        grep -qaE -- "$re" "$log" && reasons+=("rejected: $re")
    done <<< "$(get "$c" reject "")"
    while IFS= read -r re; do
        [ -n "$re" ] || continue
        grep -qaE -- "$re" "$log" || reasons+=("expected: $re")
    done <<< "$(get "$c" expect "")"
    while IFS= read -r re; do
        [ -n "$re" ] || continue
        n=$(grep -caE -- "$re" "$log" || true)
        [ "$n" -eq 1 ] || reasons+=("expected once, found $n times: $re")
    done <<< "$(get "$c" expect_once "")"

    if [ ${#reasons[@]} -gt 0 ]; then
        local why=${reasons[0]}
        for ((n = 1; n < ${#reasons[@]}; n++)); do
            why+="; ${reasons[$n]}"
        done
        verdict "$dir" FAIL "$why"
    elif [ "$worst" = SKIP ]; then
        verdict "$dir" SKIP "a domain reported SKIP"
    else
        verdict "$dir" PASS
    fi
}

# ---------------------------------------------------------------------------

parse_cfg

# Select cases.
declare -a selected=()
select_case() {
    local s
    for s in "${selected[@]}"; do
        [ "$s" = "$1" ] && return
    done
    selected+=("$1")
}

if [ $# -eq 0 ] && [ ${#groups_sel[@]} -eq 0 ]; then
    for c in "${CASES[@]}"; do
        in_group "$c" nodefault || select_case "$c"
    done
else
    for arg in "$@"; do
        found=0
        for c in "${CASES[@]}"; do
            # shellcheck disable=SC2053
            if [[ $c == $arg ]] || in_group "$c" "$arg"; then
                select_case "$c"
                found=1
            fi
        done
        [ $found = 1 ] || { echo "run-tests.sh: no case or group '$arg'" >&2; exit 2; }
    done
    for g in "${groups_sel[@]}"; do
        for c in "${CASES[@]}"; do
            in_group "$c" "$g" && select_case "$c"
        done
    done
fi

if [ $list_only = 1 ]; then
    for c in "${selected[@]}"; do
        printf '%-24s [%s]\n' "$c" "$(get "$c" groups "")"
        while IFS= read -r d; do
            printf '    %s\n' "$d"
        done <<< "$(get "$c" domain "")"
        [ -n "$(get "$c" extra_params "")" ] &&
            printf '    xen: %s\n' "$(get "$c" extra_params "")"
    done
    exit 0
fi

[ ${#selected[@]} -gt 0 ] || { echo "run-tests.sh: no case selected" >&2; exit 2; }
[ $follow = 1 ] && jobs=1

mkdir -p "$OUT"
if [ $build = 1 ]; then
    if ! make -C "$TESTS" guests > "$OUT/build-tests.log" 2>&1; then
        tail -20 "$OUT/build-tests.log"
        echo "run-tests.sh: building the guest kernels failed (tests/out/build-tests.log)"
        echo "0 passed, ${#selected[@]} failed"
        exit 1
    fi
    if ! make -C "$ROOT/xen" > "$OUT/build-xen.log" 2>&1; then
        tail -20 "$OUT/build-xen.log"
        echo "run-tests.sh: building the hypervisor failed (tests/out/build-xen.log)"
        echo "0 passed, ${#selected[@]} failed"
        exit 1
    fi
fi

# The stream checker, for cases that print migration streams.
SR_CHECK=$ROOT/tools/tests/migrate/bin/sr-check
for c in "${selected[@]}"; do
    if [ -n "$(get "$c" streams "")" ]; then
        make -s -C "$ROOT/tools/tests/migrate" sr-check > /dev/null 2>&1 ||
            echo "run-tests.sh: cannot build sr-check" >&2
        break
    fi
done

passed=0
failed=0
skipped=0

report() {
    local c=$1 v word reason
    v=$(cat "$OUT/$c/verdict" 2> /dev/null || echo "FAIL no verdict")
    word=${v%% *}
    reason=
    [ "$word" != "$v" ] && reason=${v#* }
    case $word in
    PASS)
        echo "PASS $c"
        passed=$((passed + 1))
        ;;
    SKIP)
        echo "SKIP $c ($reason)"
        skipped=$((skipped + 1))
        ;;
    *)
        echo "FAIL $c ($reason)"
        echo "     log: ${OUT#$ROOT/}/$c/serial.out"
        if [ $verbose = 1 ] && [ -s "$OUT/$c/serial.out" ]; then
            tr -d '\r' < "$OUT/$c/serial.out" | sed 's/^/     | /'
        fi
        failed=$((failed + 1))
        ;;
    esac
}

# Run with at most $jobs cases at once, reporting in completion order.
declare -A running=()   # pid -> case
reap() {
    local pid
    wait -n 2> /dev/null
    for pid in "${!running[@]}"; do
        if ! kill -0 "$pid" 2> /dev/null; then
            wait "$pid" 2> /dev/null
            report "${running[$pid]}"
            unset "running[$pid]"
        fi
    done
}
for c in "${selected[@]}"; do
    while [ ${#running[@]} -ge "$jobs" ]; do
        reap
    done
    run_case "$c" &
    running[$!]=$c
done
while [ ${#running[@]} -gt 0 ]; do
    reap
done

if [ $skipped -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]

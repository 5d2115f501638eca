#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot an ISO in Bochs, headless, in its own working directory.
#
#   bochs-run.sh -d DIR -i ISO [-c CPU] [-n NCPUS] [-m MEGS] [-t SECONDS]
#                [-s REGEX] [-I IPS] [-f] [-T TTY] [-w REGEX -S TEXT]
#
#   -d DIR      working directory: bochsrc, cont.rc, serial.out (COM1),
#               bochs.log, bochs.out (Bochs's own terminal output), status
#   -i ISO      the CD-ROM image to boot
#   -c CPU      Bochs CPU model (default tigerlake; see `bochs --help cpu`)
#   -n NCPUS    number of physical CPUs (default 1)
#   -m MEGS     RAM in MiB (default 256).  Bochs 2.7 allocates at most 2048
#               MiB of host memory for it ("megs:" and "memory: host=" are
#               limited to 2048); above that the bochsrc says
#               "memory: guest=MEGS, host=2048" and Bochs swaps the blocks
#               touched last least recently to a temporary file
#   -t SECONDS  kill Bochs after this long (default 120; 0: no limit)
#   -s REGEX    stop Bochs 1 s after REGEX (grep -E) appears on the serial
#               line (e.g. a hypervisor panic, to save waiting for -t)
#   -e REGEX -k N
#               end the run once N lines (default 1) of the serial line
#               match REGEX: for a machine that would go on (it reboots)
#   -I IPS      Bochs "cpu: ips=": with clock sync=none the TSC still
#               advances one tick per instruction; IPS sets only what the
#               guest believes the TSC (and PIT) frequency is, hence how
#               many ticks a millisecond of timer time lasts (default:
#               Bochs's own, 4000000)
#   -f          follow: copy the serial line to stdout while Bochs runs
#   -T TTY      COM1 on the terminal TTY, both ways, raw (Ctrl-C is a byte
#               for the guest): for an interactive console.  Bochs's "term"
#               mode on a pseudo-terminal that serial-pty.py relays to TTY
#               and logs to serial.out (so -s works; -f would echo twice)
#   -w REGEX -S TEXT
#               type TEXT on COM1 once a serial line matches REGEX
#               (Python re): COM1 is then a pseudo-terminal that
#               serial-pty.py logs to serial.out (so -s and -f work) and
#               types into; TEXT takes Python escapes (\r, \x01), or is
#               @FILE: FILE's bytes in one burst.  Pairs may be repeated:
#               they are steps, taken in order
#
# Returns when Bochs exits (the hypervisor powers off by writing "Shutdown"
# to port 0x8900), when REGEX matched, or at the timeout.  DIR/status then
# holds one word: "exited", "stopped" (-s), "ended" (-e) or "timeout"; the
# exit status is 0, 0, 0 and 124 respectively.  Judge a run by its serial output, never by
# Bochs's own exit status.

set -uo pipefail

dir=
iso=
cpu=tigerlake
ncpus=1
megs=256
timeout=120
stop_regex=
end_regex=
end_count=1
ips=
follow=0
tty=
input_regex=()
input_text=()
pty_pid=

usage() {
    sed -n '4,47p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while getopts "d:i:c:n:m:t:s:e:k:I:fT:w:S:h" opt; do
    case $opt in
    d) dir=$OPTARG ;;
    i) iso=$OPTARG ;;
    c) cpu=$OPTARG ;;
    n) ncpus=$OPTARG ;;
    m) megs=$OPTARG ;;
    t) timeout=$OPTARG ;;
    s) stop_regex=$OPTARG ;;
    e) end_regex=$OPTARG ;;
    k) end_count=$OPTARG ;;
    I) ips=$OPTARG ;;
    f) follow=1 ;;
    T) tty=$OPTARG ;;
    w) input_regex+=("$OPTARG") ;;
    S) input_text+=("$OPTARG") ;;
    *) usage ;;
    esac
done
[ -n "$dir" ] && [ -n "$iso" ] || usage
command -v bochs > /dev/null || { echo "bochs-run.sh: bochs is not installed" >&2; exit 1; }
[ -f "$iso" ] || { echo "bochs-run.sh: no ISO at $iso" >&2; exit 1; }
if [ ${#input_regex[@]} -ne ${#input_text[@]} ] ||
   { [ ${#input_regex[@]} -gt 0 ] && [ -n "$tty" ]; }; then
    echo "bochs-run.sh: -w and -S go together, without -T" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$dir"
iso=$(cd "$(dirname "$iso")" && pwd)/$(basename "$iso")
cd "$dir" || exit 1
rm -f serial.out bochs.log bochs.out status pty.path

if [ ${#input_text[@]} -gt 0 ] || [ -n "$tty" ]; then
    steps=()
    for i in "${!input_text[@]}"; do
        steps+=("${input_regex[$i]}" "${input_text[$i]}")
    done
    : > serial.out
    if [ -n "$tty" ]; then
        "$here/serial-pty.py" --tty "$tty" serial.out > pty.path &
        follow=0
    else
        "$here/serial-pty.py" serial.out "${steps[@]}" > pty.path &
    fi
    pty_pid=$!
    for _ in $(seq 50); do
        [ -s pty.path ] && break
        sleep 0.1
    done
    tty=$(head -n 1 pty.path)
    [ -n "$tty" ] || { echo "bochs-run.sh: serial-pty.py gave no pty" >&2; kill $pty_pid; exit 1; }
fi

if [ "$megs" -gt 2048 ]; then
    memory="memory: guest=$megs, host=2048"
else
    memory="megs: $megs"
fi
cat > bochsrc <<EOF_RC
$memory
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/bochs/VGABIOS-lgpl-latest
cpu: model=$cpu, count=$ncpus, reset_on_triple_fault=0, ignore_bad_msrs=0${ips:+, ips=$ips}
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path=$iso, status=inserted
boot: cdrom
display_library: term
com1: enabled=1, $([ -n "$pty_pid" ] && echo "mode=term, dev=$tty" || echo "mode=file, dev=serial.out")
clock: sync=none, time0=946684800
port_e9_hack: enabled=0
log: bochs.log
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
mouse: enabled=0
speaker: enabled=0
sound: driver=dummy
EOF_RC
printf 'c\n' > cont.rc

TERM=dumb bochs -q -f bochsrc -rc cont.rc < /dev/null > bochs.out 2>&1 &
pid=$!

tail_pid=
start_tail() {
    [ $follow = 1 ] && [ -z "$tail_pid" ] && [ -e serial.out ] || return 0
    tail -n +1 -f --pid=$pid serial.out &
    tail_pid=$!
}

status=exited
start=$SECONDS
while kill -0 $pid 2> /dev/null; do
    start_tail
    if [ "$timeout" -gt 0 ] && [ $((SECONDS - start)) -ge "$timeout" ]; then
        status=timeout
        break
    fi
    if [ -n "$stop_regex" ] && [ -e serial.out ] &&
       grep -qE -- "$stop_regex" serial.out; then
        sleep 1
        status=stopped
        break
    fi
    if [ -n "$end_regex" ] && [ -e serial.out ] &&
       [ "$(tr -d '\r' < serial.out | grep -cE -- "$end_regex")" -ge "$end_count" ]; then
        status=ended
        break
    fi
    sleep 0.2
done

if kill -0 $pid 2> /dev/null; then
    kill $pid 2> /dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 $pid 2> /dev/null || break
        sleep 0.2
    done
    kill -9 $pid 2> /dev/null
fi
wait $pid 2> /dev/null
if [ -n "$pty_pid" ]; then
    sleep 0.2                   # the last bytes
    kill $pty_pid 2> /dev/null
    wait $pty_pid 2> /dev/null
fi

start_tail
if [ -n "$tail_pid" ]; then
    # tail exits on its own once Bochs is gone, after a last read.
    wait "$tail_pid" 2> /dev/null
fi

echo $status > status
[ $status = timeout ] && exit 124
exit 0

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Give Bochs's COM1 a pseudo-terminal, log what the guest writes, type into it.

    serial-pty.py OUT REGEX TEXT [REGEX TEXT ...]
    serial-pty.py --tty TTY OUT

Opens a pty pair and prints the slave's path on stdout (one line; Bochs's
"com1: mode=term, dev=PATH" opens it).  Everything the machine writes to
COM1 is appended to OUT as it arrives (bochs-run.sh's serial.out, so its
-s and -f work as with mode=file).

The REGEX TEXT pairs are steps, in order: once a line of the output
matches the step's REGEX (Python re.search; lines after the previous
step's), its TEXT is written to the machine's COM1 receiver, one byte
every 2 ms of wall time; TEXT takes Python escapes (\\r, \\x01).  A TEXT of
the form @FILE sends FILE's bytes in one write instead: a burst at the
line's full rate.  Each step sent is recorded in OUT.input (when, which
step, how many bytes), so that a case that waited in vain shows whether
its input went out.

With --tty, the terminal TTY is COM1's other end, both ways: its input
(raw: Ctrl-C and Ctrl-Z are bytes for the guest) goes to the machine and
the machine's output to it, as with Bochs's own "mode=term" on TTY, but
logged to OUT as well.  The terminal's settings are restored at the end.

Runs until killed (SIGTERM, SIGHUP) or until the pty closes.
"""
import os
import re
import select
import signal
import sys
import termios
import time
import tty


def step_data(text):
    if text.startswith("@"):
        with open(text[1:], "rb") as f:
            return f.read(), True
    return text.encode("latin-1").decode("unicode_escape").encode("latin-1"), False


class Stop(Exception):
    pass


def on_signal(signum, frame):
    raise Stop()


def write_all(fd, data):
    while data:
        n = os.write(fd, data)
        data = data[n:]


def main():
    args = sys.argv[1:]
    term = None
    if len(args) >= 2 and args[0] == "--tty":
        term = args[1]
        args = args[2:]
        if len(args) != 1:
            sys.stderr.write(__doc__)
            return 2
    elif len(args) < 3 or len(args) % 2 == 0:
        sys.stderr.write(__doc__)
        return 2
    out_path = args[0]
    steps = []
    for regex, text in zip(args[1::2], args[2::2]):
        data, burst = step_data(text)
        steps.append((re.compile(regex), data, burst))

    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)
    print(os.ttyname(slave), flush=True)

    term_fd = None
    saved = None
    if term:
        term_fd = os.open(term, os.O_RDWR | os.O_NOCTTY)
        saved = termios.tcgetattr(term_fd)
        tty.setraw(term_fd, termios.TCSANOW)
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, on_signal)

    pending = b""
    sent_log = open(out_path + ".input", "a", buffering=1)
    try:
        with open(out_path, "ab", buffering=0) as out:
            while True:
                fds = [master] + ([term_fd] if term_fd is not None else [])
                ready, _, _ = select.select(fds, [], [])
                if term_fd in ready:
                    data = os.read(term_fd, 4096)
                    if not data:
                        break           # the terminal went away
                    write_all(master, data)
                if master not in ready:
                    continue
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out.write(chunk)
                if term_fd is not None:
                    write_all(term_fd, chunk)
                if not steps:
                    continue
                pending += chunk
                lines = pending.split(b"\n")
                pending = lines.pop()
                for line in lines:
                    pattern, data, burst = steps[0]
                    if not pattern.search(line.decode("latin-1").rstrip("\r")):
                        continue
                    if burst:
                        write_all(master, data)
                    else:
                        for b in data:
                            os.write(master, bytes([b]))
                            time.sleep(0.002)
                    sent_log.write("%.3f sent %d byte(s)%s for /%s/\n" % (
                        time.time(), len(data), " in one write" if burst else "",
                        pattern.pattern))
                    steps.pop(0)
                    if not steps:
                        break
    except Stop:
        pass
    finally:
        sent_log.close()
        if saved is not None:
            termios.tcsetattr(term_fd, termios.TCSADRAIN, saved)
    os.close(slave)
    return 0


if __name__ == "__main__":
    sys.exit(main())

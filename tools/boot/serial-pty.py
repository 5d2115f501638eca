#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Give Bochs's COM1 a pseudo-terminal, log what the guest writes, type into it.

    serial-pty.py OUT REGEX TEXT [REGEX TEXT ...]

Opens a pty pair and prints the slave's path on stdout (one line; Bochs's
"com1: mode=term, dev=PATH" opens it).  Everything the machine writes to
COM1 is appended to OUT as it arrives (bochs-run.sh's serial.out, so its
-s and -f work as with mode=file).  The REGEX TEXT pairs are steps, in
order: once a line of the output matches the step's REGEX (Python
re.search; lines after the previous step's), its TEXT is written to the
machine's COM1 receiver, one byte every 2 ms of wall time; TEXT takes
Python escapes (\\r, \\x01).  A TEXT of the form @FILE sends FILE's bytes
in one write instead: a burst at the line's full rate.
Runs until killed or until the pty closes.
"""
import os
import re
import sys
import termios
import time
import tty


def step_data(text):
    if text.startswith("@"):
        with open(text[1:], "rb") as f:
            return f.read(), True
    return text.encode("latin-1").decode("unicode_escape").encode("latin-1"), False


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        sys.stderr.write(__doc__)
        return 2
    out_path = sys.argv[1]
    steps = []
    for regex, text in zip(sys.argv[2::2], sys.argv[3::2]):
        data, burst = step_data(text)
        steps.append((re.compile(regex), data, burst))

    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)
    print(os.ttyname(slave), flush=True)

    pending = b""
    with open(out_path, "ab", buffering=0) as out:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out.write(chunk)
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
                    os.write(master, data)
                else:
                    for b in data:
                        os.write(master, bytes([b]))
                        time.sleep(0.002)
                steps.pop(0)
                if not steps:
                    break
    os.close(slave)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Give Bochs's COM1 a pseudo-terminal, log what the guest writes, type into it.

    serial-pty.py OUT REGEX TEXT

Opens a pty pair and prints the slave's path on stdout (one line; Bochs's
"com1: mode=term, dev=PATH" opens it).  Everything the machine writes to
COM1 is appended to OUT as it arrives (bochs-run.sh's serial.out, so its
-s and -f work as with mode=file).  Once a line of the output matches
REGEX (Python re.search), TEXT is written to the machine's COM1 receiver,
one byte every 2 ms of wall time; TEXT takes Python escapes (\\r, \\x01).
Runs until killed or until the pty closes.
"""
import os
import re
import sys
import termios
import time
import tty


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    out_path, regex, text = sys.argv[1:]
    data = text.encode("latin-1").decode("unicode_escape").encode("latin-1")
    pattern = re.compile(regex)

    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)
    print(os.ttyname(slave), flush=True)

    typed = False
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
            if typed:
                continue
            pending += chunk
            lines = pending.split(b"\n")
            pending = lines.pop()
            for line in lines:
                if pattern.search(line.decode("latin-1").rstrip("\r")):
                    for b in data:
                        os.write(master, bytes([b]))
                        time.sleep(0.002)
                    typed = True
                    break
    os.close(slave)
    return 0


if __name__ == "__main__":
    sys.exit(main())

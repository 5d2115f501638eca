#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# extract-streams.py SERIAL-LOG OUTDIR
#
# Decode the migration streams a control-domain test kernel printed
# (tests/migrate/main.c, dump_stream) into OUTDIR/<name>.stream:
#
#   (d0) --- stream begin <name> <octets> ---
#   (d0) S <word> <word>*<count> ...     8-octet little-endian words, hex,
#                                         a run of equal words as value*count
#   (d0) --- stream end <name> <fnv1a-64 hex> ---
#
# Prints one line per stream: "<path> <octets>"; exits 1 if a stream is
# incomplete, malformed, or its length or hash does not match.
import re
import struct
import sys


def main():
    log, outdir = sys.argv[1], sys.argv[2]
    begin = re.compile(r'--- stream begin (\S+) (\d+) ---')
    end = re.compile(r'--- stream end (\S+) ([0-9a-f]{16}) ---')
    cur = None
    ok = True
    with open(log, 'r', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            text = re.sub(r'^\(d\d+\) ', '', line)
            m = begin.search(text)
            if m:
                cur = (m.group(1), int(m.group(2)), bytearray())
                continue
            if cur is None:
                continue
            m = end.search(text)
            if m:
                name, length, data = cur
                h = 0xcbf29ce484222325
                for b in data:
                    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
                path = '%s/%s.stream' % (outdir, name)
                with open(path, 'wb') as o:
                    o.write(data)
                if len(data) != length or '%016x' % h != m.group(2):
                    print('%s: %d octets (want %d), hash %016x (want %s)' %
                          (path, len(data), length, h, m.group(2)))
                    ok = False
                else:
                    print('%s %d' % (path, length))
                cur = None
                continue
            if text.startswith('S '):
                for tok in text[2:].split():
                    v, _, n = tok.partition('*')
                    cur[2].extend(struct.pack('<Q', int(v, 16)) * (int(n) if n else 1))
    if cur is not None:
        print('stream %s: no end marker' % cur[0])
        ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a cpio archive in the "newc" format Linux unpacks as initramfs.

    gen-cpio.py LIST OUT

LIST has one entry a line, Linux's usr/gen_init_cpio syntax:

    dir   NAME MODE UID GID
    file  NAME SOURCE MODE UID GID
    slink NAME TARGET MODE UID GID
    nod   NAME MODE UID GID c|b MAJOR MINOR

(MODE in octal; blank lines and lines starting with # are skipped).
Nothing is read from the build machine but the SOURCE files, so device
nodes need no root and the archive is the same on every run (mtime 0,
inode numbers in order).
"""
import os
import stat
import sys

TYPES = {"dir": stat.S_IFDIR, "file": stat.S_IFREG, "slink": stat.S_IFLNK,
         "nod": None}


def header(ino, mode, uid, gid, nlink, size, rmaj, rmin, name):
    namez = name.encode() + b"\0"
    fields = [ino, mode, uid, gid, nlink, 0, size, 0, 0, rmaj, rmin,
              len(namez), 0]
    h = b"070701" + b"".join(b"%08X" % f for f in fields) + namez
    return h + bytes(-len(h) % 4)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-cpio.py LIST OUT")
    out = bytearray()
    ino = 300
    for n, line in enumerate(open(sys.argv[1]), 1):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        where = "%s:%d" % (sys.argv[1], n)
        if w[0] not in TYPES:
            sys.exit("%s: unknown entry type %s" % (where, w[0]))
        name = w[1].lstrip("/")
        data, rmaj, rmin, nlink = b"", 0, 0, 1
        try:
            if w[0] == "dir":
                mode, uid, gid = int(w[2], 8) | stat.S_IFDIR, int(w[3]), int(w[4])
                nlink = 2
            elif w[0] == "file":
                data = open(w[2], "rb").read()
                mode, uid, gid = int(w[3], 8) | stat.S_IFREG, int(w[4]), int(w[5])
            elif w[0] == "slink":
                data = w[2].encode()
                mode, uid, gid = int(w[3], 8) | stat.S_IFLNK, int(w[4]), int(w[5])
            else:
                kind = {"c": stat.S_IFCHR, "b": stat.S_IFBLK}[w[5]]
                mode, uid, gid = int(w[2], 8) | kind, int(w[3]), int(w[4])
                rmaj, rmin = int(w[6]), int(w[7])
        except (IndexError, ValueError, KeyError, OSError) as e:
            sys.exit("%s: bad entry (%s): %s" % (where, e, line.strip()))
        out += header(ino, mode, uid, gid, nlink, len(data), rmaj, rmin, name)
        out += data + bytes(-len(data) % 4)
        ino += 1
    out += header(0, 0, 0, 0, 1, 0, 0, 0, "TRAILER!!!")
    out += bytes(-len(out) % 512)
    with open(sys.argv[2] + ".tmp", "wb") as f:
        f.write(out)
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a smaller ELF64 image that loads exactly the same memory.

    trim-vmlinux.py IN OUT

Linux's vmlinux carries in its file what a loader would zero anyway:
2 MiB of padding before the first segment, and .bss/.brk/.init.scratch
(about 23 MiB of zeros) inside the last PT_LOAD because .init.scratch is
PROGBITS.  Every byte GRUB reads from the emulated CD-ROM costs time, so
this keeps the ELF header and program headers, drops each PT_LOAD's
trailing zero bytes from the file (p_filesz shrinks, p_memsz stays: a
PVH loader zero-fills the rest), packs the segments one after the other
(file offset congruent to the address modulo 4 KiB, p_align 4 KiB),
moves PT_NOTE along with the PT_LOAD that holds it, and drops the
section headers (a loader uses the program headers only).  Then it
checks that every segment loads the same bytes as before.
"""
import struct
import sys

PT_LOAD, PT_NOTE = 1, 4
PAGE = 4096
EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
PHDR = struct.Struct("<IIQQQQQQ")


def die(msg):
    sys.exit("trim-vmlinux: " + msg)


def load_image(data, phdrs):
    """The memory a loader makes of each PT_LOAD: (paddr, bytes)."""
    return [(p[4], data[p[2]:p[2] + p[5]] + bytes(p[6] - p[5]))
            for p in phdrs if p[0] == PT_LOAD]


def main():
    if len(sys.argv) != 3:
        die("usage: trim-vmlinux.py IN OUT")
    data = open(sys.argv[1], "rb").read()
    eh = list(EHDR.unpack_from(data))
    if data[:4] != b"\x7fELF" or data[4] != 2 or eh[2] != 62:
        die("%s is not an x86-64 ELF64 image" % sys.argv[1])
    phoff, phentsize, phnum = eh[5], eh[9], eh[10]
    if phentsize != PHDR.size:
        die("unexpected program header size %d" % phentsize)
    orig = [PHDR.unpack_from(data, phoff + i * PHDR.size) for i in range(phnum)]
    phdrs = [list(p) for p in orig]

    # New layout: ELF header, program headers, then the segments.
    out_off = EHDR.size + phnum * PHDR.size
    chunks = []
    moved = {}                      # old PT_LOAD file range -> new offset
    for p in phdrs:
        if p[0] != PT_LOAD:
            continue
        body = data[p[2]:p[2] + p[5]].rstrip(b"\0")
        out_off += (p[3] - out_off) % PAGE      # offset == vaddr mod 4 KiB
        moved[(p[2], p[2] + p[5])] = out_off
        chunks.append((out_off, body))
        p[2], p[5], p[7] = out_off, len(body), PAGE
        out_off += len(body)
    for p in phdrs:
        if p[0] == PT_LOAD:
            continue
        for (start, end), new in moved.items():
            if start <= p[2] and p[2] + p[5] <= end:
                p[2] = new + (p[2] - start)
                break
        else:
            if p[0] == PT_NOTE:
                die("a PT_NOTE outside every PT_LOAD")
            p[2] = p[5] = 0     # anything else is not needed to boot

    eh[5] = EHDR.size           # program headers right after the header
    eh[6] = eh[11] = eh[12] = eh[13] = 0    # no section headers
    img = bytearray(out_off)
    EHDR.pack_into(img, 0, *eh)
    for i, p in enumerate(phdrs):
        PHDR.pack_into(img, EHDR.size + i * PHDR.size, *p)
    for off, body in chunks:
        img[off:off + len(body)] = body

    if load_image(bytes(img), phdrs) != load_image(data, orig):
        die("the trimmed image would load different memory")
    for p, q in zip(phdrs, orig):
        if p[0] == PT_NOTE and data[q[2]:q[2] + q[5]] != img[p[2]:p[2] + p[5]]:
            die("the notes moved wrongly")
    open(sys.argv[2], "wb").write(img)


main()

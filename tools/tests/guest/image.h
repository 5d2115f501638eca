/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small PVH kernel images for the host tests of libxenguest (and of xl
 * create): an ELF64 or ELF32 x86 executable with one PT_LOAD segment and
 * one PT_NOTE segment holding Xen's XEN_ELFNOTE_PHYS32_ENTRY note.  Tests
 * then corrupt a copy field by field.
 */
#ifndef TOOLS_TESTS_GUEST_IMAGE_H
#define TOOLS_TESTS_GUEST_IMAGE_H

#include <stddef.h>
#include <stdint.h>

struct image_opts {
    uint64_t paddr;             /* where the segment loads (p_paddr) */
    size_t text;                /* bytes in the file (p_filesz) */
    size_t bss;                 /* more bytes in memory (p_memsz - p_filesz) */
    uint64_t entry;             /* the note's value */
    unsigned int entry_size;    /* 4 or 8; 0: no note at all */
    unsigned int elf_class;     /* IMAGE_ELF64 (the default) or IMAGE_ELF32 */
    uint16_t machine;           /* e_machine: 62 (EM_X86_64, default) or 3 */
};

#define IMAGE_ELF32         1   /* the e_ident[EI_CLASS] values */
#define IMAGE_ELF64         2

/* The layout: headers, the note at IMAGE_NOTE_OFFSET, text at IMAGE_TEXT_OFFSET. */
#define IMAGE_PHDR_OFFSET   64
#define IMAGE_NOTE_OFFSET   0x100
#define IMAGE_TEXT_OFFSET   0x1000

/*
 * The default: ELF64 x86-64, 1 MiB, 0x2345 bytes + 0x1800 of bss, entry
 * 1 MiB + 0x40.
 */
void image_default_opts(struct image_opts *o);

/* The byte at offset i of the text (a pattern tests can check). */
uint8_t image_text_byte(size_t i);

/* Write the image into buf (room bytes); its size, or 0 if no room. */
size_t image_build(uint8_t *buf, size_t room, const struct image_opts *o);

#endif /* TOOLS_TESTS_GUEST_IMAGE_H */

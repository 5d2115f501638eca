/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Link map of a guest test kernel: one loadable segment at 1 MiB
 * (guest-physical, identity-mapped) and the PT_NOTE segment holding the
 * PVH entry note.
 */
#include "config.h"

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(_start)

PHDRS
{
    load PT_LOAD FLAGS(7);
    note PT_NOTE FLAGS(4);
}

SECTIONS
{
    . = GUEST_LOAD_ADDR;
    _image_start = .;

    .note : { *(.note.Xen) } :load :note

    .text : {
        *(.text.head)
        *(.text .text.*)
    } :load

    .rodata : { *(.rodata .rodata.*) }

    /* Exception fixups (extable.h): { faulting RIP, resume RIP } pairs. */
    .ex_table : {
        . = ALIGN(8);
        __start_ex_table = .;
        *(.ex_table)
        __stop_ex_table = .;
    }

    .data : { *(.data .data.*) }

    . = ALIGN(0x1000);
    __bss_start = .;
    .bss : {
        *(.bss.page_aligned)
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(8);
    }
    __bss_end = .;
    _image_end = .;

    /DISCARD/ : {
        *(.eh_frame)
        *(.comment)
        *(.note.GNU-stack)
        *(.note.gnu.*)
    }
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* Link map of the hypervisor image: identity-mapped at XEN_LOAD_ADDR. */
#include <asm/config.h>

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(start)

PHDRS
{
    text PT_LOAD FLAGS(7);
}

SECTIONS
{
    . = XEN_LOAD_ADDR;
    __image_start = .;

    .text : {
        *(.text.header)
        *(.text .text.*)
    } :text

    .rodata : {
        *(.rodata .rodata.*)
    } :text

    . = ALIGN(16);
    .init.setup : {
        __setup_start = .;
        KEEP(*(.init.setup))
        __setup_end = .;
    } :text

    . = ALIGN(16);

    . = ALIGN(4096);
    .data : {
        *(.data.page_aligned)
        *(.data .data.*)
    } :text

    . = ALIGN(4096);
    .bss : {
        __bss_start = .;
        *(.bss.stack)
        *(.bss.page_aligned)
        . = ALIGN(4096);
        __per_cpu_start = .;
        *(.bss.percpu)
        . = ALIGN(4096);
        __per_cpu_data_end = .;
        *(.bss .bss.* COMMON)
        . = ALIGN(8);
        __bss_end = .;
    } :text

    . = ALIGN(4096);
    __image_end = .;

    /DISCARD/ : {
        *(.note.*) *(.comment) *(.eh_frame)
    }
}

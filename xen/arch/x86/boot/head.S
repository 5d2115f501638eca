/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Multiboot2 entry: GRUB jumps here in 32-bit protected mode, paging off,
 * EAX = multiboot2 magic, EBX = physical address of the boot information.
 *
 * We build an identity map of the low 4 GiB with 2 MiB pages (the top GiB,
 * where the local APIC and other MMIO live, uncached), switch to long mode
 * and call __start_xen(magic, mbi) on the boot stack.  The hypervisor runs
 * identity-mapped: virtual == physical for everything it touches.
 */
#include <asm/config.h>
#include <asm/current.h>

#define MB2_HEADER_MAGIC    0xe85250d6
#define MB2_ARCH_I386       0
#define MB2_TAG_END         0
#define MB2_TAG_ENTRY       3
#define MB2_TAG_OPTIONAL    1

        .section .text.header, "ax", @progbits
        .code32
        .balign 8
mb2_header:
        .long   MB2_HEADER_MAGIC
        .long   MB2_ARCH_I386
        .long   mb2_header_end - mb2_header
        .long   -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
        /* Entry address tag: our ELF entry is 64-bit code's address space. */
        .balign 8
        .short  MB2_TAG_ENTRY
        .short  0
        .long   12
        .long   start
        .balign 8
        .short  MB2_TAG_END
        .short  0
        .long   8
mb2_header_end:

        .globl  start
start:
        cli
        cld
        mov     %eax, %edx              /* magic */
        mov     %ebx, %esi              /* mbi    -> 2nd argument */

        /* Zero .bss (it holds the boot stack, so before any push). */
        mov     $__bss_start, %edi
        mov     $__bss_end, %ecx
        sub     %edi, %ecx
        xor     %eax, %eax
        rep stosb

        mov     %edx, %edi              /* magic  -> 1st argument */
        mov     $boot_stack_top, %esp

        /* PML4[0] -> l3_ident */
        mov     $l3_ident, %eax
        or      $(PTE_P | PTE_W), %eax
        mov     %eax, l4_ident

        /* l3_ident[0..3] -> l2_ident + i*4K */
        xor     %ecx, %ecx
1:      mov     %ecx, %eax
        shl     $12, %eax
        add     $l2_ident, %eax
        or      $(PTE_P | PTE_W), %eax
        mov     %eax, l3_ident(,%ecx,8)
        inc     %ecx
        cmp     $4, %ecx
        jb      1b

        /* l2_ident[0..2047]: 2 MiB pages; the 4th GiB uncached (MMIO). */
        xor     %ecx, %ecx
2:      mov     %ecx, %eax
        shl     $21, %eax
        or      $(PTE_P | PTE_W | PTE_PSE), %eax
        cmp     $1536, %ecx
        jb      3f
        or      $(PTE_PWT | PTE_PCD), %eax
3:      mov     %eax, l2_ident(,%ecx,8)
        inc     %ecx
        cmp     $2048, %ecx
        jb      2b

        /* CR4.PAE, CR3, EFER.LME|NXE, CR0.PG */
        mov     %cr4, %eax
        or      $(X86_CR4_PAE | X86_CR4_PGE), %eax
        mov     %eax, %cr4
        mov     $l4_ident, %eax
        mov     %eax, %cr3
        mov     $MSR_EFER, %ecx
        rdmsr
        or      $(EFER_LME | EFER_NXE), %eax
        wrmsr
        mov     %cr0, %eax
        or      $(X86_CR0_PG | X86_CR0_PE | X86_CR0_WP | X86_CR0_NE), %eax
        mov     %eax, %cr0

        lgdt    boot_gdt_descr
        ljmp    $__HYPERVISOR_CS, $start64

        .code64
start64:
        mov     $__HYPERVISOR_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        xor     %eax, %eax
        mov     %eax, %fs
        mov     %eax, %gs
        /* The stack starts below the boot CPU's struct cpu_info (asm/current.h). */
        mov     $boot_stack_top - CPUINFO_SIZE, %rsp
        xor     %ebp, %ebp
        /* %edi = magic, %esi = mbi (zero-extended by the 32-bit moves) */
        mov     %edi, %edi
        mov     %esi, %esi
        call    __start_xen
4:      hlt
        jmp     4b

        .section .data.page_aligned, "aw", @progbits
        .balign 4096
        .globl  l4_ident
l4_ident:
        .fill   512, 8, 0
l3_ident:
        .fill   512, 8, 0
l2_ident:
        .fill   2048, 8, 0

        .section .data, "aw", @progbits
        .balign 16
        .globl  boot_gdt
boot_gdt:
        .quad   0                       /* 0x00: null */
        .quad   0x00af9b000000ffff      /* 0x08: 64-bit ring-0 code */
        .quad   0x00cf93000000ffff      /* 0x10: ring-0 data */
        .quad   0                       /* 0x18: TSS, 16 bytes, filled */
        .quad   0                       /*       by percpu_traps_init() */
        .quad   0x00cf9b000000ffff      /* 0x28: 32-bit ring-0 code (trampoline.S) */
        .globl  boot_gdt_end
boot_gdt_end:
        .globl  boot_gdt_limit
        .set    boot_gdt_limit, boot_gdt_end - boot_gdt - 1
        .globl  boot_gdt_descr
boot_gdt_descr:
        .short  boot_gdt_end - boot_gdt - 1
        .quad   boot_gdt

        /* STACK_SIZE-aligned: get_cpu_info() rounds %rsp up to find its top. */
        .section .bss.stack, "aw", @nobits
        .balign STACK_SIZE
        .globl  boot_stack
boot_stack:
        .skip   STACK_SIZE
        .globl  boot_stack_top
boot_stack_top:

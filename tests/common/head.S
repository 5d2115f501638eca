/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entry points of the guest test kernels.
 *
 * The boot vCPU enters at _start through Xen's PVH protocol: 32-bit
 * protected mode, paging off, flat segments, %ebx = guest-physical address
 * of struct hvm_start_info, no stack, no GDT/IDT of ours.  We switch to long
 * mode with an identity map of the first 4 GiB (2 MiB pages) and call
 * guest_start() on the first vCPU stack.
 *
 * Secondary vCPUs enter at ap_start64, already in long mode (VCPUOP_initialise
 * with VCPU_HVM_MODE_64B), with our CR3 and %rsp = their stack, on which
 * vcpu_start() left { fn, id }.
 */

#include "config.h"
#include "x86.h"
#include "public/elfnote.h"

/* The PVH entry point, found by the loader in a PT_NOTE segment. */
        .section .note.Xen, "a", @note
        .p2align 2
        .long   4f - 3f                         /* namesz */
        .long   6f - 5f                         /* descsz */
        .long   XEN_ELFNOTE_PHYS32_ENTRY        /* type */
3:      .asciz  "Xen"
4:      .p2align 2
5:      .long   _start
6:      .p2align 2

        .section .text.head, "ax", @progbits
        .code32
        .globl  _start
_start:
        cld
        cli
        mov     %ebx, start_info_pa             /* .data: survives the bss clear */

        lgdt    gdt_ptr
        mov     $GDT_SEL_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        mov     %eax, %fs
        mov     %eax, %gs
        ljmp    $GDT_SEL_CS32, $1f
1:
        /* Clear .bss ourselves rather than trust the loader. */
        mov     $__bss_start, %edi
        mov     $__bss_end, %ecx
        sub     %edi, %ecx
        shr     $2, %ecx
        xor     %eax, %eax
        rep stosl

        mov     $cpu_stacks + GUEST_STACK_SIZE, %esp

        /* Long mode is required; say so on the debug port if it is missing. */
        mov     $0x80000000, %eax
        cpuid
        cmp     $0x80000001, %eax
        jb      no_long_mode
        mov     $0x80000001, %eax
        cpuid
        test    $CPUID_EXT_EDX_LM, %edx
        jz      no_long_mode
        mov     %edx, %esi                      /* keep the NX bit for EFER */

        /* L4[0] -> L3; L3[0..3] -> the four L2 pages; L2 maps 2 MiB pages. */
        movl    $l3_ident + (_PAGE_PRESENT | _PAGE_RW), l4_ident

        xor     %ecx, %ecx
1:      mov     %ecx, %eax
        shl     $PAGE_SHIFT, %eax
        add     $l2_ident + (_PAGE_PRESENT | _PAGE_RW), %eax
        mov     %eax, l3_ident(, %ecx, 8)
        inc     %ecx
        cmp     $GUEST_IDENT_L2_PAGES, %ecx
        jb      1b

        xor     %ecx, %ecx
1:      mov     %ecx, %eax
        shl     $L2_PAGETABLE_SHIFT, %eax
        or      $(_PAGE_PRESENT | _PAGE_RW | _PAGE_PSE), %eax
        mov     %eax, l2_ident(, %ecx, 8)
        inc     %ecx
        cmp     $GUEST_IDENT_L2_PAGES * 512, %ecx
        jb      1b

        mov     %cr4, %eax
        or      $X86_CR4_PAE, %eax
        mov     %eax, %cr4

        mov     $l4_ident, %eax
        mov     %eax, %cr3

        mov     $MSR_EFER, %ecx
        rdmsr
        or      $EFER_LME, %eax
        test    $CPUID_EXT_EDX_NX, %esi
        jz      1f
        or      $EFER_NXE, %eax
1:      wrmsr

        mov     %cr0, %eax
        or      $(X86_CR0_PG | X86_CR0_WP | X86_CR0_PE), %eax
        mov     %eax, %cr0

        ljmp    $GDT_SEL_CS64, $start64

no_long_mode:
        mov     $msg_no_lm, %esi
1:      lodsb
        test    %al, %al
        jz      2f
        outb    %al, $DEBUGCON_PORT
        jmp     1b
2:      hlt
        jmp     2b

        .code64
start64:
        mov     $GDT_SEL_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        mov     %eax, %fs
        mov     %eax, %gs
        mov     $cpu_stacks + GUEST_STACK_SIZE, %rsp
        xor     %ebp, %ebp
        call    guest_start
        ud2

/* Secondary vCPUs: %rsp -> { fn, id }, 16-byte aligned. */
        .globl  ap_start64
ap_start64:
        lgdt    gdt_ptr(%rip)
        push    $GDT_SEL_CS64
        lea     1f(%rip), %rax
        push    %rax
        lretq
1:      mov     $GDT_SEL_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        mov     %eax, %fs
        mov     %eax, %gs
        mov     8(%rsp), %rdi                   /* id */
        mov     (%rsp), %rsi                    /* fn */
        xor     %ebp, %ebp
        call    smp_ap_main
        ud2

        .section .rodata, "a", @progbits
msg_no_lm:
        .asciz  "guest: no long mode, halting\n"

        .p2align 3
gdt:
        .quad   0                               /* null */
        .quad   0x00af9b000000ffff              /* GDT_SEL_CS64: 64-bit code */
        .quad   0x00cf9b000000ffff              /* GDT_SEL_CS32: 32-bit code */
        .quad   0x00cf93000000ffff              /* GDT_SEL_DS: flat data */
gdt_end:

        /* Limit and base; the 32-bit lgdt reads the low 4 bytes of base. */
        .p2align 3
        .word   0, 0, 0
gdt_ptr:
        .word   gdt_end - gdt - 1
        .quad   gdt

        .data
        .p2align 3
        .globl  start_info_pa
start_info_pa:
        .quad   0

        .section .bss.page_aligned, "aw", @nobits
        .p2align PAGE_SHIFT
l4_ident:
        .skip   PAGE_SIZE
l3_ident:
        .skip   PAGE_SIZE
l2_ident:
        .skip   PAGE_SIZE * GUEST_IDENT_L2_PAGES

        /* Filled with call stubs by the hypervisor (hypercall N at N * 32). */
        .globl  hypercall_page
hypercall_page:
        .skip   PAGE_SIZE

        .globl  cpu_stacks
cpu_stacks:
        .skip   GUEST_STACK_SIZE * GUEST_MAX_VCPUS

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a secondary CPU starts (Xen's trampoline.S, much reduced).
 *
 * The STARTUP IPI starts the CPU in real mode at CS:IP = (vector << 8):0,
 * i.e. at physical trampoline_phys, below 1 MiB, where smpboot.c copies
 * trampoline_start..trampoline_end.  That code is position-independent
 * (it addresses its own data through CS) and leaves real mode at once: it
 * loads boot_gdt (whose linked address is below 4 GiB) and jumps to
 * trampoline_protmode, which is in the image proper.  From there the CPU
 * follows head.S's path to long mode on the same page tables (l4_ident),
 * loads the stack the boot CPU prepared (smpboot_stack: the address of the
 * new CPU's struct cpu_info) and calls start_secondary().
 */
#include <asm/config.h>

        .section .text.trampoline, "ax", @progbits
        .code16
        .balign 16
        .globl  trampoline_start
trampoline_start:
        cli
        cld
        mov     %cs, %ax
        mov     %ax, %ds
        /* Tell the boot CPU that the STARTUP IPI arrived. */
        movl    $1, %ds:(trampoline_seen - trampoline_start)
        lgdtl   %ds:(trampoline_gdt_descr - trampoline_start)
        mov     %cr0, %eax
        or      $X86_CR0_PE, %eax
        mov     %eax, %cr0
        ljmpl   $__BOOT_CS32, $trampoline_protmode

        .balign 8
trampoline_gdt_descr:
        .short  boot_gdt_limit
        .long   boot_gdt
        .balign 4
        .globl  trampoline_seen
trampoline_seen:
        .long   0
        .globl  trampoline_end
trampoline_end:

        .text
        .code32
trampoline_protmode:
        mov     $__HYPERVISOR_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss

        /* As head.S: PAE and global pages, the boot page tables, long mode. */
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
        ljmp    $__HYPERVISOR_CS, $trampoline_long

        .code64
trampoline_long:
        mov     $__HYPERVISOR_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        xor     %eax, %eax
        mov     %eax, %fs
        mov     %eax, %gs
        mov     smpboot_stack(%rip), %rsp
        xor     %ebp, %ebp
        call    start_secondary
1:      hlt
        jmp     1b

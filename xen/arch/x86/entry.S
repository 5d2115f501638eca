/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception and interrupt entry for the hypervisor itself.  Every vector
 * gets a stub that makes the frame uniform (a zero error code where the
 * CPU pushes none, the vector number beside it) and jumps to one common
 * path that saves the registers as a struct cpu_user_regs and calls
 * do_trap().  Guests never reach this: their events arrive as VM exits.
 */
#include <asm/config.h>
#include <asm/regs.h>

        .section .text, "ax", @progbits

        .macro  TRAP_STUB vec
        .balign 16
trap_stub_\vec:
        .if (\vec == 8) || (\vec == 10) || (\vec == 11) || (\vec == 12) || \
            (\vec == 13) || (\vec == 14) || (\vec == 17) || (\vec == 21) || \
            (\vec == 29) || (\vec == 30)
        .else
        push    $0
        .endif
        movl    $\vec, 4(%rsp)
        jmp     trap_common
        .endm

        .altmacro
        .set    vec, 0
        .rept   256
        TRAP_STUB %vec
        .set    vec, vec + 1
        .endr

trap_common:
        push    %rdi
        push    %rsi
        push    %rdx
        push    %rcx
        push    %rax
        push    %r8
        push    %r9
        push    %r10
        push    %r11
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        mov     %rsp, %rdi
        cld
        call    do_trap
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        pop     %r11
        pop     %r10
        pop     %r9
        pop     %r8
        pop     %rax
        pop     %rcx
        pop     %rdx
        pop     %rsi
        pop     %rdi
        add     $8, %rsp                /* error code + vector */
        iretq

        /* Stubs are 16 bytes apart: trap_stubs + 16 * vector. */
        .section .rodata, "a", @progbits
        .balign 8
        .globl  trap_stubs
trap_stubs:
        .quad   trap_stub_0

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception entry stubs: each pushes a dummy error code where the CPU does
 * not push one, then its vector, saves the general registers (a struct
 * cpu_regs on the stack) and calls do_exception().
 */

#include "x86.h"

        .text
        .p2align 4
exc_common:
        push    %rax
        push    %rbx
        push    %rcx
        push    %rdx
        push    %rsi
        push    %rdi
        push    %rbp
        push    %r8
        push    %r9
        push    %r10
        push    %r11
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        mov     %rsp, %rdi
        cld
        call    do_exception
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %r11
        pop     %r10
        pop     %r9
        pop     %r8
        pop     %rbp
        pop     %rdi
        pop     %rsi
        pop     %rdx
        pop     %rcx
        pop     %rbx
        pop     %rax
        add     $16, %rsp                       /* vector, error code */
        iretq

        .macro  exc_stub vec
        .p2align 4
exc_stub_\vec:
        .if     !((X86_EXC_HAVE_EC >> \vec) & 1)
        push    $0
        .endif
        push    $\vec
        jmp     exc_common
        .endm

        .altmacro
        .macro  exc_stubs from=0, to=31
        exc_stub \from
        .if     \to - \from
        exc_stubs %(\from + 1), \to
        .endif
        .endm
        exc_stubs

        .macro  exc_entry vec
        .quad   exc_stub_\vec
        .endm

        .macro  exc_entries from=0, to=31
        exc_entry \from
        .if     \to - \from
        exc_entries %(\from + 1), \to
        .endif
        .endm

        .section .rodata, "a", @progbits
        .p2align 3
        .globl  exception_stubs
exception_stubs:
        exc_entries

/*
 * The event channel upcall: an interrupt gate (IF is clear on entry).
 * Saves the registers the C calling convention lets do_evtchn_upcall()
 * clobber and returns with IRETQ.
 */
        .text
        .p2align 4
        .globl  evtchn_upcall_entry
evtchn_upcall_entry:
        push    %rax
        push    %rcx
        push    %rdx
        push    %rsi
        push    %rdi
        push    %r8
        push    %r9
        push    %r10
        push    %r11
        mov     %rsp, %rax
        and     $~15, %rsp                      /* the ABI's stack alignment */
        push    %rax
        push    %rax
        cld
        call    do_evtchn_upcall
        pop     %rax
        mov     %rax, %rsp
        pop     %r11
        pop     %r10
        pop     %r9
        pop     %r8
        pop     %rdi
        pop     %rsi
        pop     %rdx
        pop     %rcx
        pop     %rax
        iretq

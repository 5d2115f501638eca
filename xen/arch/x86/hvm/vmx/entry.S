/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VM entry and exit.
 *
 * vmx_enter_guest(regs, launched) is called like a function: it saves the
 * host's callee-saved registers, records the stack pointer as HOST_RSP,
 * loads the guest's general-purpose registers from *regs and executes
 * VMLAUNCH or VMRESUME.  A VM exit lands in vmx_asm_vmexit_handler with
 * that same stack: it stores the guest registers back into *regs and
 * returns 0 from vmx_enter_guest().  If the entry itself fails (VMfail),
 * vmx_enter_guest() returns the RFLAGS of the failure (never 0).
 *
 * Stack while the guest runs (HOST_RSP points at 'launched'):
 *     [rsp+0]  launched flag     [rsp+8]  regs pointer
 *     [rsp+16] r15 r14 r13 r12 rbx rbp, then the return address
 */
#include <asm/config.h>
#include <asm/regs.h>

#define HOST_RSP 0x6c14

        .section .text, "ax", @progbits

        .globl  vmx_enter_guest
vmx_enter_guest:
        push    %rbp
        push    %rbx
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        push    %rdi                    /* regs */
        movzbl  %sil, %esi
        push    %rsi                    /* launched */

        mov     $HOST_RSP, %eax
        vmwrite %rsp, %rax
        jbe     .Lvmfail                /* CF or ZF: the vmwrite failed */

        cmpq    $0, (%rsp)              /* flags survive the movs below */

        mov     UREGS_rax(%rdi), %rax
        mov     UREGS_rbx(%rdi), %rbx
        mov     UREGS_rcx(%rdi), %rcx
        mov     UREGS_rdx(%rdi), %rdx
        mov     UREGS_rsi(%rdi), %rsi
        mov     UREGS_rbp(%rdi), %rbp
        mov     UREGS_r8(%rdi),  %r8
        mov     UREGS_r9(%rdi),  %r9
        mov     UREGS_r10(%rdi), %r10
        mov     UREGS_r11(%rdi), %r11
        mov     UREGS_r12(%rdi), %r12
        mov     UREGS_r13(%rdi), %r13
        mov     UREGS_r14(%rdi), %r14
        mov     UREGS_r15(%rdi), %r15
        mov     UREGS_rdi(%rdi), %rdi

        jne     1f
        vmlaunch
        jmp     .Lvmfail
1:      vmresume

.Lvmfail:
        pushfq
        pop     %rax
        or      $1, %rax                /* never 0 */
        add     $16, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbx
        pop     %rbp
        ret

        .globl  vmx_asm_vmexit_handler
vmx_asm_vmexit_handler:
        push    %rdi                    /* guest rdi */
        mov     16(%rsp), %rdi          /* regs */
        mov     %rax, UREGS_rax(%rdi)
        mov     %rbx, UREGS_rbx(%rdi)
        mov     %rcx, UREGS_rcx(%rdi)
        mov     %rdx, UREGS_rdx(%rdi)
        mov     %rsi, UREGS_rsi(%rdi)
        mov     %rbp, UREGS_rbp(%rdi)
        mov     %r8,  UREGS_r8(%rdi)
        mov     %r9,  UREGS_r9(%rdi)
        mov     %r10, UREGS_r10(%rdi)
        mov     %r11, UREGS_r11(%rdi)
        mov     %r12, UREGS_r12(%rdi)
        mov     %r13, UREGS_r13(%rdi)
        mov     %r14, UREGS_r14(%rdi)
        mov     %r15, UREGS_r15(%rdi)
        popq    UREGS_rdi(%rdi)
        add     $16, %rsp               /* launched, regs */
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbx
        pop     %rbp
        xor     %eax, %eax
        ret

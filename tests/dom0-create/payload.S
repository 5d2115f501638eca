/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The whole kernel of the domain tests/dom0-create builds: 32-bit code, run
 * at guest-physical BUILT_LOAD_ADDR with paging off.  It prints a line on
 * Xen's debug port (0xE9) and powers its domain off with sched_op (32-bit
 * hypercall ABI: EAX number, EBX and ECX arguments), without a hypercall
 * page: a bare VMCALL.
 */
#define BUILT_LOAD_ADDR     0x100000
#define XEN_DEBUG_PORT      0xe9
#define HYPERCALL_SCHED_OP  29
#define SCHEDOP_SHUTDOWN    2

#define ADDR(sym) (BUILT_LOAD_ADDR + (sym) - built_payload_start)

        .section .rodata, "a", @progbits
        .code32
        .globl  built_payload_start, built_payload_end
built_payload_start:
        mov     $XEN_DEBUG_PORT, %dx
        mov     $ADDR(message), %esi
1:      lodsb
        test    %al, %al
        jz      2f
        outb    %al, %dx
        jmp     1b
2:      mov     $HYPERCALL_SCHED_OP, %eax
        mov     $SCHEDOP_SHUTDOWN, %ebx
        mov     $ADDR(reason), %ecx
        vmcall
3:      hlt
        jmp     3b
        .balign 4
reason: .long   0                       /* SHUTDOWN_poweroff */
message:
        .asciz  "hello from a domain built by d0\n"
built_payload_end:
        .code64

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Saved general-purpose registers: the frame of a hypervisor trap, and
 * also a vCPU's guest registers (rip, rsp and rflags of a guest live in
 * the VMCS and are copied in and out around each VM exit).
 * The structure is the public one (public/arch-x86/xen-x86_64.h); the
 * offsets below are what assembly uses, checked against it in traps.c.
 */
#ifndef __ASM_X86_REGS_H__
#define __ASM_X86_REGS_H__

#define UREGS_r15           0
#define UREGS_r14           8
#define UREGS_r13           16
#define UREGS_r12           24
#define UREGS_rbp           32
#define UREGS_rbx           40
#define UREGS_r11           48
#define UREGS_r10           56
#define UREGS_r9            64
#define UREGS_r8            72
#define UREGS_rax           80
#define UREGS_rcx           88
#define UREGS_rdx           96
#define UREGS_rsi           104
#define UREGS_rdi           112
#define UREGS_error_code    120
#define UREGS_entry_vector  124
#define UREGS_rip           128
#define UREGS_cs            136
#define UREGS_rflags        144
#define UREGS_rsp           152
#define UREGS_ss            160

#ifndef __ASSEMBLY__
#include <xen/types.h>
#include <public/xen.h>     /* struct cpu_user_regs: Xen's public layout */

void show_registers(const struct cpu_user_regs *regs);
#endif

#endif /* __ASM_X86_REGS_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small x86 instruction emulator for emulated MMIO (Xen's x86_emulate,
 * reduced to instructions with one memory operand whose address the
 * caller already knows from the VM exit): MOV, MOVZX/MOVSX, the ALU
 * operations, TEST, INC/DEC, NOT/NEG, shifts and rotates, XCHG, XADD,
 * CMPXCHG, BT/BTS/BTR/BTC, SETcc; 8-, 16-, 32- and 64-bit operands; in
 * 16-, 32- and 64-bit code.  Flags are computed by the host CPU running
 * the same operation, so they are exactly what the guest's CPU gives.
 */
#ifndef __ASM_X86_X86_EMULATE_H__
#define __ASM_X86_X86_EMULATE_H__

#include <xen/types.h>
#include <public/xen.h>

/* Xen's return codes. */
#define X86EMUL_OKAY            0
#define X86EMUL_UNHANDLEABLE    1   /* not an instruction this emulator knows */
#define X86EMUL_EXCEPTION       2   /* ctxt->exception is to be injected */

struct x86_emulate_ops {
    /* Read or write 'bytes' (1, 2, 4, 8) of the memory operand. */
    int (*read)(void *priv, unsigned int bytes, uint64_t *val);
    int (*write)(void *priv, unsigned int bytes, uint64_t val);
};

struct x86_emulate_ctxt {
    /* In. */
    struct cpu_user_regs *regs;     /* GPRs, rflags; rip is advanced */
    unsigned int          mode;     /* 16, 32 or 64: the code segment's */
    const uint8_t        *insn;     /* the bytes at rip */
    unsigned int          insn_bytes;   /* how many of them were fetched */
    void                 *priv;     /* for the callbacks */
    /* Out. */
    unsigned int          len;      /* the instruction's length */
    unsigned int          op_bytes; /* the memory operand's size */
    bool                  mem_read, mem_write;
    uint8_t               exception;    /* X86EMUL_EXCEPTION: the vector */
};

/* Decode and execute one instruction; nothing changes unless X86EMUL_OKAY. */
int x86_emulate(struct x86_emulate_ctxt *ctxt, const struct x86_emulate_ops *ops);

#endif /* __ASM_X86_X86_EMULATE_H__ */

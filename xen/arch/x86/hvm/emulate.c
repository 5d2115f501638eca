/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoding the few instructions that touch emulated MMIO (the local APIC
 * page when the CPU cannot virtualize an access, Xen's hvm/emulate.c
 * reduced to them): MOV r32, m32 (8B /r), MOV m32, r32 (89 /r) and
 * MOV m32, imm32 (C7 /0), MOV eAX, moffs (A1) and MOV moffs, eAX (A3),
 * with an operand-size prefix, segment prefixes
 * and REX in 64-bit code.  The caller knows the address from the exit;
 * the decoder finds the register (or immediate) and the length.
 * Anything else is refused and the caller crashes the guest.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>

#define MAX_INSN_LEN 15

int hvm_decode_mmio_mov(unsigned long rip, bool long_mode, struct hvm_mmio_insn *insn)
{
    uint8_t b[MAX_INSN_LEN];
    unsigned int n, i = 0, rex = 0, modrm, mod, rm;
    uint8_t op;

    /* Fetch what is mapped of the 15 bytes (the instruction may end a page). */
    for ( n = 0; n < MAX_INSN_LEN; n++ )
        if ( hvm_fetch_from_guest_linear(&b[n], rip + n, 1) )
            break;

    insn->bytes = 4;
    for ( ; i < n; i++ )
    {
        if ( b[i] == 0x66 )
            insn->bytes = 2;
        else if ( b[i] != 0x2e && b[i] != 0x3e && b[i] != 0x26 && b[i] != 0x36 &&
                  b[i] != 0x64 && b[i] != 0x65 )
            break;
    }
    if ( long_mode && i < n && (b[i] & 0xf0) == 0x40 )
        rex = b[i++];
    if ( rex & 8 )
        return -EOPNOTSUPP;         /* 64-bit accesses: not to APIC registers */
    if ( i + 1 > n )
        return -EFAULT;
    op = b[i++];
    if ( op == 0xa1 || op == 0xa3 )
    {
        /* The absolute address (8 bytes in 64-bit code, else 4) follows. */
        insn->write = op == 0xa3;
        insn->gpr = 0;
        i += long_mode ? 8 : 4;
        if ( i > n )
            return -EFAULT;
        insn->len = i;
        return 0;
    }
    if ( i + 1 > n )
        return -EFAULT;
    modrm = b[i++];
    mod = modrm >> 6;
    rm = modrm & 7;
    insn->gpr = ((modrm >> 3) & 7) | (rex & 4 ? 8 : 0);
    switch ( op )
    {
    case 0x8b: insn->write = false; break;
    case 0x89: insn->write = true; break;
    case 0xc7:
        if ( (modrm >> 3) & 7 )
            return -EOPNOTSUPP;
        insn->write = true;
        insn->gpr = -1;
        break;
    default:
        return -EOPNOTSUPP;
    }
    if ( mod == 3 )
        return -EOPNOTSUPP;         /* a register operand: no memory access */
    if ( rm == 4 )
    {
        if ( i >= n )
            return -EFAULT;
        if ( (b[i++] & 7) == 5 && mod == 0 )
            i += 4;                 /* SIB with no base: disp32 */
    }
    if ( mod == 0 && rm == 5 )
        i += 4;                     /* disp32 (RIP-relative in 64-bit code) */
    else if ( mod == 1 )
        i += 1;
    else if ( mod == 2 )
        i += 4;
    if ( insn->gpr < 0 )
    {
        unsigned int k;

        if ( i + insn->bytes > n )
            return -EFAULT;
        insn->imm = 0;
        for ( k = 0; k < insn->bytes; k++ )
            insn->imm |= (uint32_t)b[i + k] << (8 * k);
        i += insn->bytes;
    }
    if ( i > n )
        return -EFAULT;
    insn->len = i;
    return 0;
}

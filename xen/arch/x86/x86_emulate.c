/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MMIO instruction emulator (asm/x86_emulate.h): decode one
 * instruction with a memory operand, read the operand through the
 * caller, compute, write it back through the caller, update the
 * registers and RIP.  The memory operand's address is the caller's (the
 * VM exit gives it), so addressing modes are decoded for their length
 * only; BT/BTS/BTR/BTC with a register bit offset take the bit within the
 * operand the CPU accessed.
 *
 * What is refused (X86EMUL_UNHANDLEABLE): register-only forms (no memory
 * access, so never an MMIO exit), string instructions and REP, stack
 * forms (PUSH/POP m), MUL/DIV, CMPXCHG8B/16B, x87/SSE/AVX.  A LOCK prefix
 * on an instruction that cannot take it is #UD, as on the CPU.
 *
 * Arithmetic flags come from the host CPU executing the same operation on
 * the same values (as Xen's emulator does), so they match the guest's CPU
 * also where the SDM leaves them undefined (shifts).
 */
#include <xen/lib.h>
#include <xen/string.h>
#include <asm/x86_emulate.h>

#define EFLAGS_ARITH    0x8d5UL     /* CF PF AF ZF SF OF */
#define EFLAGS_CF       0x001UL
#define EFLAGS_PF       0x004UL
#define EFLAGS_ZF       0x040UL
#define EFLAGS_SF       0x080UL
#define EFLAGS_OF       0x800UL

#define X86_EXC_UD      6

/* Operations, for the host-executed helpers. */
enum {
    OP_ADD, OP_OR, OP_ADC, OP_SBB, OP_AND, OP_SUB, OP_XOR, OP_CMP,  /* group 1 order */
    OP_TEST, OP_INC, OP_DEC, OP_NOT, OP_NEG,
    OP_ROL, OP_ROR, OP_RCL, OP_RCR, OP_SHL, OP_SHR, OP_SAL, OP_SAR, /* group 2 order */
    OP_BT, OP_BTS, OP_BTR, OP_BTC,
};

static unsigned long host_flags(void)
{
    unsigned long f;

    asm volatile ( "pushfq; pop %0" : "=r" (f) );
    return f;
}

/*
 * Run 'op' on the host with the guest's arithmetic flags.  The stack
 * pointer steps over a red zone first (this file is also built for the
 * host unit tests, where the compiler may keep locals below RSP).
 */
#define HOST_OP(insn, ...)                                                    \
    asm volatile ( "lea -128(%%rsp), %%rsp; push %[f]; popfq; " insn "; "    \
                   "pushfq; pop %[f]; lea 128(%%rsp), %%rsp"                 \
                   : [d] "+r" (d), [f] "+r" (f) : __VA_ARGS__ : "cc" )

#define SIZED(name, d, s, f)                                                  \
    switch ( bytes )                                                          \
    {                                                                         \
    case 1: HOST_OP(name "b %b[s], %b[d]", [s] "r" (s)); break; \
    case 2: HOST_OP(name "w %w[s], %w[d]", [s] "r" (s)); break; \
    case 4: HOST_OP(name "l %k[s], %k[d]", [s] "r" (s)); break; \
    default: HOST_OP(name "q %[s], %[d]", [s] "r" (s)); break; \
    }

#define SIZED1(name, d, f)                                                    \
    switch ( bytes )                                                          \
    {                                                                         \
    case 1: HOST_OP(name "b %b[d]", "i" (0)); break;     \
    case 2: HOST_OP(name "w %w[d]", "i" (0)); break;     \
    case 4: HOST_OP(name "l %k[d]", "i" (0)); break;     \
    default: HOST_OP(name "q %[d]", "i" (0)); break;     \
    }

#define SIZEDCL(name, d, c, f)                                                \
    switch ( bytes )                                                          \
    {                                                                         \
    case 1: HOST_OP(name "b %%cl, %b[d]", "c" (c)); break; \
    case 2: HOST_OP(name "w %%cl, %w[d]", "c" (c)); break; \
    case 4: HOST_OP(name "l %%cl, %k[d]", "c" (c)); break; \
    default: HOST_OP(name "q %%cl, %[d]", "c" (c)); break; \
    }

/* BT and its kin have no 8-bit form. */
#define SIZEDBT(name, d, s, f)                                                \
    switch ( bytes )                                                          \
    {                                                                         \
    case 2: HOST_OP(name "w %w[s], %w[d]", [s] "r" (s)); break;               \
    case 4: HOST_OP(name "l %k[s], %k[d]", [s] "r" (s)); break;               \
    default: HOST_OP(name "q %[s], %[d]", [s] "r" (s)); break;                \
    }

/* dst op= src in 'bytes'; *rflags' arithmetic flags in and out. */
static uint64_t host_exec(unsigned int op, unsigned int bytes, uint64_t d, uint64_t s,
                          unsigned long *rflags)
{
    unsigned long f = (host_flags() & ~EFLAGS_ARITH) | (*rflags & EFLAGS_ARITH);
    uint8_t c = s;

    switch ( op )
    {
    case OP_ADD:  SIZED("add", d, s, f); break;
    case OP_OR:   SIZED("or", d, s, f); break;
    case OP_ADC:  SIZED("adc", d, s, f); break;
    case OP_SBB:  SIZED("sbb", d, s, f); break;
    case OP_AND:  SIZED("and", d, s, f); break;
    case OP_SUB:  SIZED("sub", d, s, f); break;
    case OP_XOR:  SIZED("xor", d, s, f); break;
    case OP_CMP:  SIZED("cmp", d, s, f); break;
    case OP_TEST: SIZED("test", d, s, f); break;
    case OP_INC:  SIZED1("inc", d, f); break;
    case OP_DEC:  SIZED1("dec", d, f); break;
    case OP_NOT:  SIZED1("not", d, f); break;
    case OP_NEG:  SIZED1("neg", d, f); break;
    case OP_ROL:  SIZEDCL("rol", d, c, f); break;
    case OP_ROR:  SIZEDCL("ror", d, c, f); break;
    case OP_RCL:  SIZEDCL("rcl", d, c, f); break;
    case OP_RCR:  SIZEDCL("rcr", d, c, f); break;
    case OP_SHL:
    case OP_SAL:  SIZEDCL("shl", d, c, f); break;
    case OP_SHR:  SIZEDCL("shr", d, c, f); break;
    case OP_SAR:  SIZEDCL("sar", d, c, f); break;
    /* Bit tests: 16/32/64 only; the bit index is already within the operand. */
    case OP_BT:   SIZEDBT("bt", d, s, f); break;
    case OP_BTS:  SIZEDBT("bts", d, s, f); break;
    case OP_BTR:  SIZEDBT("btr", d, s, f); break;
    case OP_BTC:  SIZEDBT("btc", d, s, f); break;
    }
    *rflags = (*rflags & ~EFLAGS_ARITH) | (f & EFLAGS_ARITH);
    return d;
}

static bool test_cc(unsigned int cc, unsigned long f)
{
    bool r;

    switch ( cc >> 1 )
    {
    case 0: r = f & EFLAGS_OF; break;                                   /* O */
    case 1: r = f & EFLAGS_CF; break;                                   /* B */
    case 2: r = f & EFLAGS_ZF; break;                                   /* Z */
    case 3: r = f & (EFLAGS_CF | EFLAGS_ZF); break;                     /* BE */
    case 4: r = f & EFLAGS_SF; break;                                   /* S */
    case 5: r = f & EFLAGS_PF; break;                                   /* P */
    case 6: r = !(f & EFLAGS_SF) != !(f & EFLAGS_OF); break;            /* L */
    default: r = (f & EFLAGS_ZF) || !(f & EFLAGS_SF) != !(f & EFLAGS_OF); break; /* LE */
    }
    return (cc & 1) ? !r : r;
}

static uint64_t size_mask(unsigned int bytes)
{
    return bytes == 8 ? ~0ULL : (1ULL << (8 * bytes)) - 1;
}

static uint64_t sign_extend(uint64_t v, unsigned int bytes)
{
    unsigned int shift = 64 - 8 * bytes;

    return (uint64_t)((int64_t)(v << shift) >> shift);
}

/* GPR n (0-15) of regs. */
static uint64_t *gpr(struct cpu_user_regs *r, unsigned int n)
{
    switch ( n )
    {
    case 0:  return &r->rax;
    case 1:  return &r->rcx;
    case 2:  return &r->rdx;
    case 3:  return &r->rbx;
    case 4:  return &r->rsp;
    case 5:  return &r->rbp;
    case 6:  return &r->rsi;
    case 7:  return &r->rdi;
    case 8:  return &r->r8;
    case 9:  return &r->r9;
    case 10: return &r->r10;
    case 11: return &r->r11;
    case 12: return &r->r12;
    case 13: return &r->r13;
    case 14: return &r->r14;
    default: return &r->r15;
    }
}

struct decoded {
    unsigned int op_bytes, addr_bytes;
    unsigned int rex;
    bool lock, rep;
    unsigned int opcode;        /* 0x0fXX for two-byte opcodes */
    unsigned int reg;           /* ModRM.reg with REX.R */
    bool has_modrm;
};

/* A register operand: byte registers honour the AH..BH encoding without REX. */
static uint64_t reg_read(struct cpu_user_regs *r, const struct decoded *d,
                         unsigned int n, unsigned int bytes)
{
    if ( bytes == 1 && !d->rex && n >= 4 && n < 8 )
        return (*gpr(r, n - 4) >> 8) & 0xff;
    return *gpr(r, n) & size_mask(bytes);
}

/* Written as the CPU does: 32-bit writes zero-extend, 8/16-bit ones merge. */
static void reg_write(struct cpu_user_regs *r, const struct decoded *d,
                      unsigned int n, unsigned int bytes, uint64_t val)
{
    uint64_t *p;

    if ( bytes == 1 && !d->rex && n >= 4 && n < 8 )
    {
        p = gpr(r, n - 4);
        *p = (*p & ~0xff00ULL) | ((val & 0xff) << 8);
        return;
    }
    p = gpr(r, n);
    if ( bytes == 4 )
        *p = (uint32_t)val;
    else if ( bytes == 8 )
        *p = val;
    else
        *p = (*p & ~size_mask(bytes)) | (val & size_mask(bytes));
}

/* The length of a ModRM memory operand (SIB, displacement); -1 if not memory. */
static int modrm_len(const uint8_t *p, unsigned int avail, unsigned int addr_bytes)
{
    unsigned int modrm, mod, rm, n = 1;

    if ( avail < 1 )
        return -1;
    modrm = p[0];
    mod = modrm >> 6;
    rm = modrm & 7;
    if ( mod == 3 )
        return -1;
    if ( addr_bytes == 2 )
    {
        if ( mod == 0 && rm == 6 )
            n += 2;
        else
            n += mod == 1 ? 1 : mod == 2 ? 2 : 0;
        return n;
    }
    if ( rm == 4 )
    {
        if ( avail < 2 )
            return -1;
        if ( (p[1] & 7) == 5 && mod == 0 )
            n += 4;
        n++;
    }
    if ( mod == 0 && rm == 5 )
        n += 4;
    else if ( mod == 1 )
        n += 1;
    else if ( mod == 2 )
        n += 4;
    return n;
}

static uint64_t fetch_imm(const uint8_t *p, unsigned int bytes)
{
    uint64_t v = 0;
    unsigned int i;

    for ( i = 0; i < bytes; i++ )
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* What an opcode does with its memory operand. */
enum { K_NONE, K_MOV_ST, K_MOV_LD, K_MOV_IMM, K_MOFFS_LD, K_MOFFS_ST, K_ALU_MR, K_ALU_RM,
       K_ALU_IMM, K_TEST_R, K_TEST_IMM, K_UNARY, K_INCDEC, K_SHIFT, K_XCHG, K_MOVX,
       K_BT_R, K_BT_IMM, K_CMPXCHG, K_XADD, K_SETCC };

int x86_emulate(struct x86_emulate_ctxt *ctxt, const struct x86_emulate_ops *ops)
{
    struct cpu_user_regs *regs = ctxt->regs;
    const uint8_t *p = ctxt->insn;
    unsigned int avail = ctxt->insn_bytes, i = 0, kind = K_NONE, op = 0, bytes;
    unsigned int src_bytes = 0, imm_bytes = 0, modrm = 0, sub = 0;
    struct decoded d = { 0 };
    bool opsize = false, addrsize = false, lockable = false, sext = false;
    uint64_t mem = 0, val = 0, src = 0, imm = 0, res;
    unsigned long flags = regs->rflags;
    int ml, rc;

    /* Prefixes; REX must come last (64-bit code only). */
    for ( ; i < avail && i < 15; i++ )
    {
        switch ( p[i] )
        {
        case 0x66: opsize = true; continue;
        case 0x67: addrsize = true; continue;
        case 0xf0: d.lock = true; continue;
        case 0xf2: case 0xf3: d.rep = true; continue;
        case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: continue;
        }
        break;
    }
    if ( ctxt->mode == 64 && i < avail && (p[i] & 0xf0) == 0x40 )
        d.rex = p[i++];
    if ( i >= avail )
        return X86EMUL_UNHANDLEABLE;
    if ( ctxt->mode == 16 )
    {
        d.op_bytes = opsize ? 4 : 2;
        d.addr_bytes = addrsize ? 4 : 2;
    }
    else
    {
        d.op_bytes = opsize ? 2 : 4;
        d.addr_bytes = ctxt->mode == 64 ? (addrsize ? 4 : 8) : (addrsize ? 2 : 4);
    }
    if ( d.rex & 8 )
        d.op_bytes = 8;
    if ( d.rep )
        return X86EMUL_UNHANDLEABLE;

    d.opcode = p[i++];
    if ( d.opcode == 0x0f )
    {
        if ( i >= avail )
            return X86EMUL_UNHANDLEABLE;
        d.opcode = 0x0f00 | p[i++];
    }
    bytes = d.op_bytes;
    d.has_modrm = true;

    switch ( d.opcode )
    {
    case 0x00 ... 0x3f:
        if ( (d.opcode & 7) > 3 )
            return X86EMUL_UNHANDLEABLE;        /* AL/eAX, imm forms; segment ops */
        op = d.opcode >> 3;
        if ( !(d.opcode & 1) )
            bytes = 1;
        kind = (d.opcode & 2) ? K_ALU_RM : K_ALU_MR;
        lockable = !(d.opcode & 2) && op != OP_CMP;
        break;
    case 0x80: case 0x81: case 0x82: case 0x83:
        if ( d.opcode == 0x82 && ctxt->mode == 64 )
            return X86EMUL_UNHANDLEABLE;
        kind = K_ALU_IMM;
        if ( d.opcode == 0x80 || d.opcode == 0x82 )
            bytes = 1;
        imm_bytes = (d.opcode == 0x81) ? (bytes == 2 ? 2 : 4) : 1;
        sext = true;
        break;
    case 0x84: case 0x85:
        kind = K_TEST_R;
        if ( d.opcode == 0x84 )
            bytes = 1;
        break;
    case 0x86: case 0x87:
        kind = K_XCHG;
        if ( d.opcode == 0x86 )
            bytes = 1;
        lockable = true;
        break;
    case 0x88: case 0x89:
        kind = K_MOV_ST;
        if ( d.opcode == 0x88 )
            bytes = 1;
        break;
    case 0x8a: case 0x8b:
        kind = K_MOV_LD;
        if ( d.opcode == 0x8a )
            bytes = 1;
        break;
    case 0xa0: case 0xa1: case 0xa2: case 0xa3:
        kind = (d.opcode & 2) ? K_MOFFS_ST : K_MOFFS_LD;
        if ( !(d.opcode & 1) )
            bytes = 1;
        d.has_modrm = false;
        break;
    case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
        kind = K_SHIFT;
        if ( !(d.opcode & 1) )
            bytes = 1;
        if ( d.opcode <= 0xc1 )
            imm_bytes = 1;
        break;
    case 0xc6: case 0xc7:
        kind = K_MOV_IMM;
        if ( d.opcode == 0xc6 )
            bytes = 1;
        imm_bytes = bytes == 1 ? 1 : bytes == 2 ? 2 : 4;
        sext = true;
        break;
    case 0xf6: case 0xf7:
        kind = K_UNARY;                         /* TEST imm, NOT, NEG */
        if ( d.opcode == 0xf6 )
            bytes = 1;
        break;
    case 0xfe: case 0xff:
        kind = K_INCDEC;
        if ( d.opcode == 0xfe )
            bytes = 1;
        lockable = true;
        break;
    case 0x0f90 ... 0x0f9f:
        kind = K_SETCC;
        bytes = 1;
        break;
    case 0x0fa3: case 0x0fab: case 0x0fb3: case 0x0fbb:
        kind = K_BT_R;
        op = d.opcode == 0x0fa3 ? OP_BT : d.opcode == 0x0fab ? OP_BTS :
             d.opcode == 0x0fb3 ? OP_BTR : OP_BTC;
        lockable = op != OP_BT;
        break;
    case 0x0fba:
        kind = K_BT_IMM;
        imm_bytes = 1;
        break;
    case 0x0fb0: case 0x0fb1:
        kind = K_CMPXCHG;
        if ( d.opcode == 0x0fb0 )
            bytes = 1;
        lockable = true;
        break;
    case 0x0fc0: case 0x0fc1:
        kind = K_XADD;
        if ( d.opcode == 0x0fc0 )
            bytes = 1;
        lockable = true;
        break;
    case 0x0fb6: case 0x0fb7: case 0x0fbe: case 0x0fbf:
        kind = K_MOVX;
        src_bytes = (d.opcode & 1) ? 2 : 1;
        sext = d.opcode >= 0x0fbe;
        break;
    default:
        return X86EMUL_UNHANDLEABLE;
    }

    if ( d.has_modrm )
    {
        if ( i >= avail )
            return X86EMUL_UNHANDLEABLE;
        modrm = p[i];
        sub = (modrm >> 3) & 7;
        d.reg = sub | ((d.rex & 4) ? 8 : 0);
        ml = modrm_len(p + i, avail - i, d.addr_bytes);
        if ( ml < 0 )
            return X86EMUL_UNHANDLEABLE;        /* a register operand */
        i += ml;
    }
    else
        i += d.addr_bytes;                      /* moffs */

    /* Group opcodes: which operation the ModRM.reg field picks. */
    switch ( kind )
    {
    case K_ALU_IMM:
        op = sub;
        lockable = op != OP_CMP;
        break;
    case K_SHIFT:
        op = OP_ROL + sub;
        break;
    case K_MOV_IMM:
        if ( sub )
            return X86EMUL_UNHANDLEABLE;
        break;
    case K_UNARY:
        if ( sub == 0 || sub == 1 )
        {
            kind = K_TEST_IMM;
            imm_bytes = bytes == 1 ? 1 : bytes == 2 ? 2 : 4;
            sext = true;
        }
        else if ( sub == 2 || sub == 3 )
        {
            op = sub == 2 ? OP_NOT : OP_NEG;
            lockable = true;
        }
        else
            return X86EMUL_UNHANDLEABLE;        /* MUL, IMUL, DIV, IDIV */
        break;
    case K_INCDEC:
        if ( sub > 1 )
            return X86EMUL_UNHANDLEABLE;        /* CALL, JMP, PUSH m */
        op = sub ? OP_DEC : OP_INC;
        break;
    case K_BT_IMM:
        if ( sub < 4 )
            return X86EMUL_UNHANDLEABLE;
        op = OP_BT + (sub - 4);
        lockable = op != OP_BT;
        break;
    }
    if ( (kind == K_BT_R || kind == K_BT_IMM) && bytes == 1 )
        return X86EMUL_UNHANDLEABLE;
    if ( i + imm_bytes > avail || i + imm_bytes > 15 )
        return X86EMUL_UNHANDLEABLE;
    if ( imm_bytes )
    {
        imm = fetch_imm(p + i, imm_bytes);
        if ( sext )
            imm = sign_extend(imm, imm_bytes);
        i += imm_bytes;
    }
    if ( d.lock && !lockable )
    {
        ctxt->exception = X86_EXC_UD;
        return X86EMUL_EXCEPTION;
    }

    ctxt->len = i;
    ctxt->op_bytes = kind == K_MOVX ? src_bytes : bytes;
    ctxt->mem_read = !(kind == K_MOV_ST || kind == K_MOV_IMM || kind == K_MOFFS_ST ||
                       kind == K_SETCC);
    ctxt->mem_write = !(kind == K_MOV_LD || kind == K_MOFFS_LD || kind == K_MOVX ||
                        kind == K_TEST_R || kind == K_TEST_IMM ||
                        ((kind == K_BT_R || kind == K_BT_IMM) && op == OP_BT) ||
                        ((kind == K_ALU_MR || kind == K_ALU_IMM) && op == OP_CMP) ||
                        kind == K_ALU_RM);

    if ( ctxt->mem_read && (rc = ops->read(ctxt->priv, ctxt->op_bytes, &mem)) )
        return rc;
    mem &= size_mask(ctxt->op_bytes);

    switch ( kind )
    {
    case K_MOV_ST:
        val = reg_read(regs, &d, d.reg, bytes);
        break;
    case K_MOV_IMM:
        val = imm & size_mask(bytes);
        break;
    case K_MOFFS_ST:
        val = reg_read(regs, &d, 0, bytes);
        break;
    case K_SETCC:
        val = test_cc(d.opcode & 0xf, flags);
        break;
    case K_ALU_MR:
        val = host_exec(op, bytes, mem, reg_read(regs, &d, d.reg, bytes), &flags);
        break;
    case K_ALU_IMM:
        val = host_exec(op, bytes, mem, imm & size_mask(bytes), &flags);
        break;
    case K_ALU_RM:
        res = host_exec(op, bytes, reg_read(regs, &d, d.reg, bytes), mem, &flags);
        if ( op != OP_CMP )
            reg_write(regs, &d, d.reg, bytes, res);
        break;
    case K_TEST_R:
        host_exec(OP_TEST, bytes, mem, reg_read(regs, &d, d.reg, bytes), &flags);
        break;
    case K_TEST_IMM:
        host_exec(OP_TEST, bytes, mem, imm & size_mask(bytes), &flags);
        break;
    case K_UNARY:
    case K_INCDEC:
        val = host_exec(op, bytes, mem, 0, &flags);
        break;
    case K_SHIFT:
        src = d.opcode >= 0xd2 ? (regs->rcx & 0xff) : d.opcode >= 0xd0 ? 1 : imm & 0xff;
        val = host_exec(op, bytes, mem, src, &flags);
        break;
    case K_XCHG:
        val = reg_read(regs, &d, d.reg, bytes);
        break;
    case K_MOV_LD:
    case K_MOFFS_LD:
    case K_MOVX:
        break;
    case K_BT_R:
    case K_BT_IMM:
        src = (kind == K_BT_R ? reg_read(regs, &d, d.reg, bytes) : imm) & (8 * bytes - 1);
        val = host_exec(op, bytes, mem, src, &flags);
        break;
    case K_CMPXCHG:
        host_exec(OP_CMP, bytes, reg_read(regs, &d, 0, bytes), mem, &flags);
        /* The destination is always written (the old value if unequal), as the CPU. */
        val = (flags & EFLAGS_ZF) ? reg_read(regs, &d, d.reg, bytes) : mem;
        break;
    case K_XADD:
        val = host_exec(OP_ADD, bytes, mem, reg_read(regs, &d, d.reg, bytes), &flags);
        break;
    }

    if ( ctxt->mem_write && (rc = ops->write(ctxt->priv, bytes, val & size_mask(bytes))) )
        return rc;

    /* Registers last: a failed write left them as they were. */
    switch ( kind )
    {
    case K_MOV_LD:
        reg_write(regs, &d, d.reg, bytes, mem);
        break;
    case K_MOFFS_LD:
        reg_write(regs, &d, 0, bytes, mem);
        break;
    case K_MOVX:
        reg_write(regs, &d, d.reg, bytes, sext ? sign_extend(mem, src_bytes) : mem);
        break;
    case K_XCHG:
    case K_XADD:
        reg_write(regs, &d, d.reg, bytes, mem);
        break;
    case K_CMPXCHG:
        if ( !(flags & EFLAGS_ZF) )
            reg_write(regs, &d, 0, bytes, mem);
        break;
    }
    regs->rflags = flags;
    regs->rip += i;
    return X86EMUL_OKAY;
}

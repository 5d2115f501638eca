/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/arch/x86/x86_emulate.c against the CPU itself: every instruction
 * form the MMIO emulator knows, in every operand size and a range of
 * addressing modes (base, disp8, disp32, SIB, no base, RIP-relative,
 * r13, 32-bit addresses), with random registers, flags and memory, is run
 * natively on a page of its own and emulated from the same state; memory,
 * every register, RIP and the arithmetic flags must come out the same.
 * Then what only decoding can check: 16- and 32-bit code, moffs, lengths,
 * LOCK on instructions that cannot take it (#UD), refused forms.
 */
#include <xen/lib.h>
#include <xen/string.h>
#include <asm/x86_emulate.h>

#include "harness.h"

#define ARITH 0x8d5UL

struct gprs {
    uint64_t r[16];
    uint64_t rflags;
};

void *native_target;
void native_run(struct gprs *g);
asm ( ".globl native_run\n native_run:\n"
      " push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
      " push %rdi\n"
      " pushq 128(%rdi); popfq\n"
      " mov 0(%rdi), %rax; mov 8(%rdi), %rcx; mov 16(%rdi), %rdx; mov 24(%rdi), %rbx\n"
      " mov 40(%rdi), %rbp; mov 48(%rdi), %rsi\n"
      " mov 64(%rdi), %r8; mov 72(%rdi), %r9; mov 80(%rdi), %r10; mov 88(%rdi), %r11\n"
      " mov 96(%rdi), %r12; mov 104(%rdi), %r13; mov 112(%rdi), %r14; mov 120(%rdi), %r15\n"
      " mov 56(%rdi), %rdi\n"
      " call *native_target(%rip)\n"
      " pushfq; push %rdi\n"
      " mov 16(%rsp), %rdi\n"
      " mov %rax, 0(%rdi); mov %rcx, 8(%rdi); mov %rdx, 16(%rdi); mov %rbx, 24(%rdi)\n"
      " mov %rbp, 40(%rdi); mov %rsi, 48(%rdi)\n"
      " mov %r8, 64(%rdi); mov %r9, 72(%rdi); mov %r10, 80(%rdi); mov %r11, 88(%rdi)\n"
      " mov %r12, 96(%rdi); mov %r13, 104(%rdi); mov %r14, 112(%rdi); mov %r15, 120(%rdi)\n"
      " pop %rax; mov %rax, 56(%rdi)\n"
      " pop %rax; mov %rax, 128(%rdi)\n"
      " add $8, %rsp\n"
      " pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
      " ret\n" );

static uint64_t *ureg(struct cpu_user_regs *r, unsigned int n)
{
    uint64_t *map[16] = { &r->rax, &r->rcx, &r->rdx, &r->rbx, &r->rsp, &r->rbp, &r->rsi,
                          &r->rdi, &r->r8, &r->r9, &r->r10, &r->r11, &r->r12, &r->r13,
                          &r->r14, &r->r15 };

    return map[n];
}

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Interesting values: small, edges, random. */
static uint64_t rnd_val(void)
{
    static const uint64_t edge[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
                                     0x7fffffff, 0x80000000, 0xffffffff,
                                     0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL };
    uint64_t r = rnd();

    switch ( r & 3 )
    {
    case 0:  return edge[(r >> 8) % ARRAY_SIZE(edge)];
    case 1:  return (r >> 8) & 0x3f;
    default: return rnd();
    }
}

/* ---- the emulator's view ---------------------------------------------------- */

static uint8_t *emu_mem;            /* where the emulated access lands */
static unsigned int emu_reads, emu_writes;

static int emu_read(void *priv, unsigned int bytes, uint64_t *val)
{
    (void)priv;
    *val = 0;
    memcpy(val, emu_mem, bytes);
    emu_reads++;
    return X86EMUL_OKAY;
}

static int emu_write(void *priv, unsigned int bytes, uint64_t val)
{
    (void)priv;
    memcpy(emu_mem, &val, bytes);
    emu_writes++;
    return X86EMUL_OKAY;
}

static const struct x86_emulate_ops ops = { .read = emu_read, .write = emu_write };

static int fail_write(void *priv, unsigned int bytes, uint64_t val)
{
    (void)priv; (void)bytes; (void)val;
    return X86EMUL_UNHANDLEABLE;
}

/* ---- building instructions -------------------------------------------------- */

enum addr { A_RBX, A_RBX_D8, A_RBX_D32, A_SIB, A_SIB_NOBASE, A_RIP, A_R13_D8, A_EBX32, A_NR };
static const char *const addr_names[] = {
    "[rbx]", "[rbx+d8]", "[rbx+d32]", "[rbx+rsi*4]", "[rsi*8+d32]", "[rip+d32]",
    "[r13+d8]", "[ebx]",
};

#define F_BYTE      1       /* an 8-bit form (reg field picks byte registers) */
#define F_NOREG     2       /* the reg field is an opcode extension (/n) */
#define F_IMM8      4
#define F_IMMZ      8       /* imm16 with 0x66, else imm32 */
#define F_BTREG     16      /* BT r: the reg field is a bit offset */

struct form {
    const char *name;
    uint8_t op[3];
    unsigned int oplen;
    unsigned int ext;       /* F_NOREG: the /n */
    unsigned int flags;
};

static const struct form forms[] = {
    { "mov m,r",   { 0x89 }, 1, 0, 0 },
    { "mov m8,r8", { 0x88 }, 1, 0, F_BYTE },
    { "mov r,m",   { 0x8b }, 1, 0, 0 },
    { "mov r8,m8", { 0x8a }, 1, 0, F_BYTE },
    { "mov m,iz",  { 0xc7 }, 1, 0, F_NOREG | F_IMMZ },
    { "mov m8,i8", { 0xc6 }, 1, 0, F_NOREG | F_BYTE | F_IMM8 },
    { "movzx r,m8", { 0x0f, 0xb6 }, 2, 0, 0 },
    { "movzx r,m16", { 0x0f, 0xb7 }, 2, 0, 0 },
    { "movsx r,m8", { 0x0f, 0xbe }, 2, 0, 0 },
    { "movsx r,m16", { 0x0f, 0xbf }, 2, 0, 0 },
#define ALU(n, base)                                                        \
    { n " m,r", { base + 1 }, 1, 0, 0 },                                    \
    { n " m8,r8", { base }, 1, 0, F_BYTE },                                 \
    { n " r,m", { base + 3 }, 1, 0, 0 },                                    \
    { n " r8,m8", { base + 2 }, 1, 0, F_BYTE }
    ALU("add", 0x00), ALU("or", 0x08), ALU("adc", 0x10), ALU("sbb", 0x18),
    ALU("and", 0x20), ALU("sub", 0x28), ALU("xor", 0x30), ALU("cmp", 0x38),
#define GRP1(n, e)                                                          \
    { n " m,iz", { 0x81 }, 1, e, F_NOREG | F_IMMZ },                        \
    { n " m,i8", { 0x83 }, 1, e, F_NOREG | F_IMM8 },                        \
    { n " m8,i8", { 0x80 }, 1, e, F_NOREG | F_BYTE | F_IMM8 }
    GRP1("add", 0), GRP1("or", 1), GRP1("adc", 2), GRP1("sbb", 3),
    GRP1("and", 4), GRP1("sub", 5), GRP1("xor", 6), GRP1("cmp", 7),
    { "test m,r",  { 0x85 }, 1, 0, 0 },
    { "test m8,r8", { 0x84 }, 1, 0, F_BYTE },
    { "test m,iz", { 0xf7 }, 1, 0, F_NOREG | F_IMMZ },
    { "test m8,i8", { 0xf6 }, 1, 0, F_NOREG | F_BYTE | F_IMM8 },
    { "not m",     { 0xf7 }, 1, 2, F_NOREG },
    { "not m8",    { 0xf6 }, 1, 2, F_NOREG | F_BYTE },
    { "neg m",     { 0xf7 }, 1, 3, F_NOREG },
    { "neg m8",    { 0xf6 }, 1, 3, F_NOREG | F_BYTE },
    { "inc m",     { 0xff }, 1, 0, F_NOREG },
    { "inc m8",    { 0xfe }, 1, 0, F_NOREG | F_BYTE },
    { "dec m",     { 0xff }, 1, 1, F_NOREG },
    { "dec m8",    { 0xfe }, 1, 1, F_NOREG | F_BYTE },
#define SHIFT(n, e)                                                         \
    { n " m,1", { 0xd1 }, 1, e, F_NOREG },                                  \
    { n " m8,1", { 0xd0 }, 1, e, F_NOREG | F_BYTE },                        \
    { n " m,cl", { 0xd3 }, 1, e, F_NOREG },                                 \
    { n " m8,cl", { 0xd2 }, 1, e, F_NOREG | F_BYTE },                       \
    { n " m,i8", { 0xc1 }, 1, e, F_NOREG | F_IMM8 },                        \
    { n " m8,i8", { 0xc0 }, 1, e, F_NOREG | F_BYTE | F_IMM8 }
    SHIFT("rol", 0), SHIFT("ror", 1), SHIFT("rcl", 2), SHIFT("rcr", 3),
    SHIFT("shl", 4), SHIFT("shr", 5), SHIFT("sal", 6), SHIFT("sar", 7),
    { "xchg m,r",  { 0x87 }, 1, 0, 0 },
    { "xchg m8,r8", { 0x86 }, 1, 0, F_BYTE },
    { "xadd m,r",  { 0x0f, 0xc1 }, 2, 0, 0 },
    { "xadd m8,r8", { 0x0f, 0xc0 }, 2, 0, F_BYTE },
    { "cmpxchg m,r", { 0x0f, 0xb1 }, 2, 0, 0 },
    { "cmpxchg m8,r8", { 0x0f, 0xb0 }, 2, 0, F_BYTE },
    { "bt m,r",    { 0x0f, 0xa3 }, 2, 0, F_BTREG },
    { "bts m,r",   { 0x0f, 0xab }, 2, 0, F_BTREG },
    { "btr m,r",   { 0x0f, 0xb3 }, 2, 0, F_BTREG },
    { "btc m,r",   { 0x0f, 0xbb }, 2, 0, F_BTREG },
    { "bt m,i8",   { 0x0f, 0xba }, 2, 4, F_NOREG | F_IMM8 },
    { "bts m,i8",  { 0x0f, 0xba }, 2, 5, F_NOREG | F_IMM8 },
    { "btr m,i8",  { 0x0f, 0xba }, 2, 6, F_NOREG | F_IMM8 },
    { "btc m,i8",  { 0x0f, 0xba }, 2, 7, F_NOREG | F_IMM8 },
    { "seto m8",   { 0x0f, 0x90 }, 2, 0, F_NOREG | F_BYTE },
    { "setb m8",   { 0x0f, 0x92 }, 2, 0, F_NOREG | F_BYTE },
    { "setz m8",   { 0x0f, 0x94 }, 2, 0, F_NOREG | F_BYTE },
    { "setbe m8",  { 0x0f, 0x96 }, 2, 0, F_NOREG | F_BYTE },
    { "setnbe m8", { 0x0f, 0x97 }, 2, 0, F_NOREG | F_BYTE },
    { "sets m8",   { 0x0f, 0x98 }, 2, 0, F_NOREG | F_BYTE },
    { "setp m8",   { 0x0f, 0x9a }, 2, 0, F_NOREG | F_BYTE },
    { "setl m8",   { 0x0f, 0x9c }, 2, 0, F_NOREG | F_BYTE },
    { "setge m8",  { 0x0f, 0x9d }, 2, 0, F_NOREG | F_BYTE },
    { "setle m8",  { 0x0f, 0x9e }, 2, 0, F_NOREG | F_BYTE },
    { "setg m8",   { 0x0f, 0x9f }, 2, 0, F_NOREG | F_BYTE },
};

/* Operand sizes: 16 (0x66), 32, 64 (REX.W); byte forms once. */
enum { S_16, S_32, S_64, S_NR };

static uint8_t *page;               /* code at 0, memory at DATA */
#define DATA        0x800
#define DATA_SPAN   64              /* bytes compared around the operand */

struct built {
    uint8_t insn[15];
    unsigned int len;
    unsigned int bytes;             /* operand size */
};

/*
 * Build one instruction: prefixes, REX, opcode, ModRM (+SIB, disp), imm.
 * g holds the registers the addressing uses, set so the operand is at
 * page + DATA + mem_off.
 */
static bool build(const struct form *f, unsigned int size, enum addr a, unsigned int reg,
                  struct gprs *g, int64_t mem_off, struct built *b)
{
    unsigned int n = 0, rex = 0, mod, rm, rip_disp_at = 0, i;
    uint64_t target = (uint64_t)(unsigned long)(page + DATA + mem_off);
    bool byte = f->flags & F_BYTE;

    if ( byte && size != S_32 )
        return false;               /* 8-bit forms: one size */
    b->bytes = byte ? 1 : size == S_16 ? 2 : size == S_64 ? 8 : 4;
    if ( a == A_EBX32 )
        b->insn[n++] = 0x67;
    if ( size == S_16 && !byte )
        b->insn[n++] = 0x66;
    if ( size == S_64 && !byte )
        rex |= 8;
    if ( f->flags & F_NOREG )
        reg = f->ext;
    if ( reg >= 8 )
        rex |= 4;
    if ( a == A_R13_D8 )
        rex |= 1;
    /* Byte registers 4-7 are AH..BH without REX, SPL..DIL with one. */
    if ( byte && !(f->flags & F_NOREG) && reg >= 4 && reg < 8 && rex )
        return false;
    if ( rex )
        b->insn[n++] = 0x40 | rex;
    for ( i = 0; i < f->oplen; i++ )
        b->insn[n++] = f->op[i];

    switch ( a )
    {
    case A_RBX:
    case A_EBX32:
        mod = 0; rm = 3;
        g->r[3] = target;
        break;
    case A_RBX_D8:
        mod = 1; rm = 3;
        g->r[3] = target + 8;
        break;
    case A_RBX_D32:
        mod = 2; rm = 3;
        g->r[3] = target - 0x100;
        break;
    case A_SIB:
        mod = 0; rm = 4;
        g->r[6] = 3;
        g->r[3] = target - 12;
        break;
    case A_SIB_NOBASE:
        mod = 0; rm = 4;
        g->r[6] = 1;
        break;
    case A_RIP:
        mod = 0; rm = 5;
        break;
    case A_R13_D8:
        mod = 1; rm = 5;
        g->r[13] = target - 4;
        break;
    default:
        return false;
    }
    b->insn[n++] = (mod << 6) | ((reg & 7) << 3) | rm;
    switch ( a )
    {
    case A_SIB:
        b->insn[n++] = (2 << 6) | (6 << 3) | 3;                /* rbx + rsi*4 */
        break;
    case A_SIB_NOBASE:
        b->insn[n++] = (3 << 6) | (6 << 3) | 5;                /* rsi*8 + disp32 */
        *(int32_t *)&b->insn[n] = (int32_t)(target - 8);
        n += 4;
        break;
    case A_RBX_D8:
        b->insn[n++] = (uint8_t)-8;
        break;
    case A_RBX_D32:
        *(int32_t *)&b->insn[n] = 0x100;
        n += 4;
        break;
    case A_RIP:
        rip_disp_at = n;
        n += 4;
        break;
    case A_R13_D8:
        b->insn[n++] = 4;
        break;
    default:
        break;
    }
    if ( f->flags & F_IMM8 )
        b->insn[n++] = rnd();
    else if ( f->flags & F_IMMZ )
    {
        unsigned int k, ib = b->bytes == 2 ? 2 : 4;

        for ( k = 0; k < ib; k++ )
            b->insn[n++] = rnd();
    }
    if ( rip_disp_at )
        *(int32_t *)&b->insn[rip_disp_at] = (int32_t)(target - (uint64_t)(unsigned long)(page + n));
    b->len = n;
    return true;
}

static unsigned int cases, mismatches;

static void run_one(const struct form *f, unsigned int size, enum addr a, unsigned int reg)
{
    struct gprs g, ng;
    struct cpu_user_regs r;
    struct built b;
    struct x86_emulate_ctxt ctxt;
    uint8_t before[DATA_SPAN], emu[DATA_SPAN];
    int64_t bt_off = 0;
    unsigned int i, rc;
    bool bad = false;

    for ( i = 0; i < 16; i++ )
        g.r[i] = rnd_val();
    g.r[4] = 0;
    g.rflags = 0x202 | (rnd() & ARITH);
    if ( (f->flags & F_BTREG) )
    {
        /* A bit offset beyond the operand moves the access (by whole operands). */
        unsigned int bits = size == S_16 ? 16 : size == S_64 ? 64 : 32;

        g.r[reg] = (uint64_t)(int64_t)((int)(rnd() % (4 * bits)) - (int)(2 * bits));
        if ( size == S_16 )
            g.r[reg] &= 0xffff;
        else if ( size == S_32 )
            g.r[reg] &= 0xffffffff;
        bt_off = (size == S_16 ? (int64_t)(int16_t)g.r[reg] :
                  size == S_32 ? (int64_t)(int32_t)g.r[reg] : (int64_t)g.r[reg]);
        bt_off = (bt_off >= 0 ? bt_off / bits : -((-bt_off + bits - 1) / bits)) * (bits / 8);
    }
    if ( !build(f, size, a, reg, &g, 0, &b) )
        return;
    /* The base and index registers must keep their addresses. */
    for ( i = 0; i < DATA_SPAN; i++ )
        page[DATA - DATA_SPAN / 2 + i] = rnd();
    memcpy(before, page + DATA - DATA_SPAN / 2, DATA_SPAN);

    memcpy(page, b.insn, b.len);
    page[b.len] = 0xc3;                                 /* ret */
    native_target = page;
    ng = g;
    native_run(&ng);

    /* Emulated, from the same state. */
    memcpy(emu, before, DATA_SPAN);
    emu_mem = emu + DATA_SPAN / 2 + bt_off;
    memset(&r, 0, sizeof(r));
    for ( i = 0; i < 16; i++ )
        *ureg(&r, i) = g.r[i];
    r.rflags = g.rflags;
    r.rip = 0x1000;
    memset(&ctxt, 0, sizeof(ctxt));
    ctxt.regs = &r;
    ctxt.mode = 64;
    ctxt.insn = b.insn;
    ctxt.insn_bytes = b.len;
    rc = x86_emulate(&ctxt, &ops);
    cases++;

    if ( rc != X86EMUL_OKAY || ctxt.len != b.len || r.rip != 0x1000 + b.len )
        bad = true;
    for ( i = 0; i < 16 && !bad; i++ )
        if ( i != 4 && *ureg(&r, i) != ng.r[i] )
            bad = true;
    if ( (r.rflags & ARITH) != (ng.rflags & ARITH) )
        bad = true;
    if ( memcmp(emu, page + DATA - DATA_SPAN / 2, DATA_SPAN) )
        bad = true;
    if ( bad && mismatches++ < 20 )
    {
        harness_printf("x86_emulate: %s, %u-byte, %s, reg %u: rc %u len %u/%u flags %#lx/%#lx\n",
                       f->name, b.bytes, addr_names[a], reg, rc, ctxt.len, b.len,
                       (unsigned long)(r.rflags & ARITH), (unsigned long)(ng.rflags & ARITH));
        for ( i = 0; i < 16; i++ )
            if ( i != 4 && *ureg(&r, i) != ng.r[i] )
                harness_printf("  reg %u: %#lx native %#lx\n", i,
                               (unsigned long)*ureg(&r, i), (unsigned long)ng.r[i]);
        for ( i = 0; i < DATA_SPAN; i++ )
            if ( emu[i] != page[DATA - DATA_SPAN / 2 + i] )
                harness_printf("  mem %+d: %#x native %#x\n", (int)i - DATA_SPAN / 2, emu[i],
                               page[DATA - DATA_SPAN / 2 + i]);
    }
    CHECK(!bad);
}

static void test_against_cpu(void)
{
    static const unsigned int regs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 14 };
    unsigned int fi, size, a, ri, k;

    page = harness_exec_page();
    CHECK(page != NULL);
    if ( !page )
        return;
    for ( fi = 0; fi < ARRAY_SIZE(forms); fi++ )
        for ( size = 0; size < S_NR; size++ )
            for ( a = 0; a < A_NR; a++ )
                for ( ri = 0; ri < ARRAY_SIZE(regs); ri++ )
                {
                    unsigned int reg = regs[ri];

                    /* rsp as a data register would be the real stack. */
                    if ( reg == 4 && !(forms[fi].flags & (F_BYTE | F_NOREG)) )
                        continue;
                    /* Registers that hold the address keep it for the native run. */
                    if ( !(forms[fi].flags & F_NOREG) && (reg == 3 || reg == 6) &&
                         (forms[fi].flags & (F_BTREG)) )
                        continue;
                    for ( k = 0; k < 3; k++ )
                        run_one(&forms[fi], size, a, reg);
                    if ( forms[fi].flags & F_NOREG )
                        break;
                }
    harness_printf("x86_emulate: %u instructions compared with the CPU, %u differed\n",
                   cases, mismatches);
    CHECK(cases > 3000);
}

/* ---- decoding only ------------------------------------------------------------ */

struct dcase {
    const char *name;
    unsigned int mode;
    uint8_t insn[15];
    unsigned int len;           /* bytes given */
    int rc;
    unsigned int want_len, op_bytes;
    bool read, write;
};

static const struct dcase dcases[] = {
    { "32: mov [ebx],eax",      32, { 0x89, 0x03 }, 2, X86EMUL_OKAY, 2, 4, false, true },
    { "32: mov [ebx],ax",       32, { 0x66, 0x89, 0x03 }, 3, X86EMUL_OKAY, 3, 2, false, true },
    { "32: mov [ebx],ah",       32, { 0x88, 0x23 }, 2, X86EMUL_OKAY, 2, 1, false, true },
    { "32: mov eax,[disp32]",   32, { 0x8b, 0x05, 0xa0, 0, 0xe0, 0xfe }, 6, X86EMUL_OKAY, 6, 4, true, false },
    { "32: mov eax,[moffs32]",  32, { 0xa1, 0xa0, 0, 0xe0, 0xfe }, 5, X86EMUL_OKAY, 5, 4, true, false },
    { "32: mov [bx+si],ax (67)", 32, { 0x67, 0x66, 0x89, 0x00 }, 4, X86EMUL_OKAY, 4, 2, false, true },
    { "32: or dword [ebx+esi*4+0x10],0x100", 32,
      { 0x81, 0x4c, 0xb3, 0x10, 0, 1, 0, 0 }, 8, X86EMUL_OKAY, 8, 4, true, true },
    { "16: mov [bx],ax",        16, { 0x89, 0x07 }, 2, X86EMUL_OKAY, 2, 2, false, true },
    { "16: mov [bx],eax",       16, { 0x66, 0x89, 0x07 }, 3, X86EMUL_OKAY, 3, 4, false, true },
    { "16: mov [bx+0x1234],ax", 16, { 0x89, 0x87, 0x34, 0x12 }, 4, X86EMUL_OKAY, 4, 2, false, true },
    { "16: mov word [0x100],imm16", 16, { 0xc7, 0x06, 0, 1, 0x34, 0x12 }, 6, X86EMUL_OKAY, 6, 2, false, true },
    { "16: mov [ebx],ax (67)",  16, { 0x67, 0x89, 0x03 }, 3, X86EMUL_OKAY, 3, 2, false, true },
    { "16: mov ax,[moffs16]",   16, { 0xa1, 0, 1 }, 3, X86EMUL_OKAY, 3, 2, true, false },
    { "16: mov byte [bx+0x10],imm8", 16, { 0xc6, 0x47, 0x10, 0x55 }, 4, X86EMUL_OKAY, 4, 1, false, true },
    { "16: es: add [bp+di+disp8],dx", 16, { 0x26, 0x01, 0x53, 0x08 }, 4, X86EMUL_OKAY, 4, 2, true, true },
    { "64: mov eax,[moffs64]",  64, { 0xa1, 0xa0, 0, 0xe0, 0xfe, 0, 0, 0, 0 }, 9, X86EMUL_OKAY, 9, 4, true, false },
    { "64: mov eax,[moffs32] (67)", 64, { 0x67, 0xa1, 0xa0, 0, 0xe0, 0xfe }, 6, X86EMUL_OKAY, 6, 4, true, false },
    { "64: mov rax,[moffs64] (REX.W)", 64, { 0x48, 0xa1, 0, 0, 0xe0, 0xfe, 0, 0, 0, 0 }, 10, X86EMUL_OKAY, 10, 8, true, false },
    { "64: lock or [rbx],eax",  64, { 0xf0, 0x09, 0x03 }, 3, X86EMUL_OKAY, 3, 4, true, true },
    { "64: lock mov [rbx],eax", 64, { 0xf0, 0x89, 0x03 }, 3, X86EMUL_EXCEPTION, 0, 0, false, false },
    { "64: lock cmp [rbx],eax", 64, { 0xf0, 0x39, 0x03 }, 3, X86EMUL_EXCEPTION, 0, 0, false, false },
    { "64: lock bt [rbx],eax",  64, { 0xf0, 0x0f, 0xa3, 0x03 }, 4, X86EMUL_EXCEPTION, 0, 0, false, false },
    { "64: lock add eax,[rbx]", 64, { 0xf0, 0x03, 0x03 }, 3, X86EMUL_EXCEPTION, 0, 0, false, false },
    { "64: mov ebx,eax (no memory)", 64, { 0x89, 0xc3 }, 2, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: rep stosd",          64, { 0xf3, 0xab }, 2, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: push [rbx]",         64, { 0xff, 0x33 }, 2, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: mul dword [rbx]",    64, { 0xf7, 0x23 }, 2, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: cmpxchg8b [rbx]",    64, { 0x0f, 0xc7, 0x0b }, 3, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: 0x82 (invalid)",     64, { 0x82, 0x03, 0x01 }, 3, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "32: 0x82 /0 (add m8,i8)", 32, { 0x82, 0x03, 0x01 }, 3, X86EMUL_OKAY, 3, 1, true, true },
    { "64: truncated disp32",   64, { 0x8b, 0x83, 0, 0 }, 4, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: truncated imm32",    64, { 0xc7, 0x03, 1, 2 }, 4, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
    { "64: movss (SSE)",        64, { 0xf3, 0x0f, 0x10, 0x03 }, 4, X86EMUL_UNHANDLEABLE, 0, 0, false, false },
};

static void test_decode(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(dcases); i++ )
    {
        const struct dcase *c = &dcases[i];
        struct cpu_user_regs r;
        uint64_t mem = 0;
        struct x86_emulate_ctxt ctxt = {
            .regs = &r, .mode = c->mode, .insn = c->insn, .insn_bytes = c->len,
        };
        int rc;

        memset(&r, 0, sizeof(r));
        r.rflags = 0x2;
        emu_mem = (uint8_t *)&mem;
        emu_reads = emu_writes = 0;
        rc = x86_emulate(&ctxt, &ops);
        if ( rc != c->rc )
            harness_printf("x86_emulate decode: %s: rc %d, expected %d\n", c->name, rc, c->rc);
        CHECK_EQ(rc, c->rc);
        if ( rc == X86EMUL_EXCEPTION )
        {
            CHECK_EQ(ctxt.exception, 6);                /* #UD */
            CHECK_EQ(emu_reads + emu_writes, 0);
        }
        if ( rc != X86EMUL_OKAY )
        {
            CHECK_EQ(r.rip, 0);                         /* nothing moved */
            continue;
        }
        if ( ctxt.len != c->want_len )
            harness_printf("x86_emulate decode: %s: len %u, expected %u\n", c->name,
                           ctxt.len, c->want_len);
        CHECK_EQ(ctxt.len, c->want_len);
        CHECK_EQ(r.rip, c->want_len);
        CHECK_EQ(ctxt.op_bytes, c->op_bytes);
        CHECK_EQ(ctxt.mem_read, c->read);
        CHECK_EQ(ctxt.mem_write, c->write);
        CHECK_EQ(emu_reads, c->read);
        CHECK_EQ(emu_writes, c->write);
    }

    /* 16-bit code: the value written, the register written (AX merges). */
    {
        static const uint8_t insn[] = { 0x8b, 0x07 };           /* mov ax,[bx] */
        struct cpu_user_regs r;
        uint64_t mem = 0x12345678;
        struct x86_emulate_ctxt ctxt = { .regs = &r, .mode = 16, .insn = insn,
                                         .insn_bytes = sizeof(insn) };

        memset(&r, 0, sizeof(r));
        r.rax = 0xaaaabbbbccccddddULL;
        emu_mem = (uint8_t *)&mem;
        CHECK_EQ(x86_emulate(&ctxt, &ops), X86EMUL_OKAY);
        CHECK_EQ(r.rax, 0xaaaabbbbcccc5678ULL);
    }
    /* A failing write leaves the registers as they were. */
    {
        static const uint8_t insn[] = { 0x87, 0x03 };           /* xchg [rbx],eax */
        static const struct x86_emulate_ops failing = { .read = emu_read, .write = fail_write };
        struct cpu_user_regs r;
        struct x86_emulate_ctxt ctxt = { .regs = &r, .mode = 64, .insn = insn,
                                         .insn_bytes = sizeof(insn) };
        uint64_t mem = 5;

        memset(&r, 0, sizeof(r));
        r.rax = 7;
        emu_mem = (uint8_t *)&mem;
        CHECK_EQ(x86_emulate(&ctxt, &failing), X86EMUL_UNHANDLEABLE);
        CHECK_EQ(r.rax, 7);
        CHECK_EQ(r.rip, 0);
    }
}

void test_main(void)
{
    test_against_cpu();
    test_decode();
}

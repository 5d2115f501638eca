/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The debug registers as the SDM defines them (vol. 3 ch. 18) and Xen
 * gives them to HVM guests; XTF's debug-regs test covers the first part.
 *
 *  - the state at start: CR4.DE clear, DR0-DR3 0, DR6 0xffff0ff0, DR7 0x400,
 *    IA32_DEBUGCTL 0;
 *  - every register keeps every bit it has (DR0-DR3 all 64), DR6/DR7 their
 *    fixed bits, #GP for bits 63:32 of DR6/DR7 (the register unchanged);
 *  - DR4/DR5 alias DR6/DR7 with CR4.DE clear and #UD with it set;
 *  - MOV DR at CPL 3 is #GP(0) (the MOV-DR exit comes before that check);
 *  - DR7.GD: the next MOV DR is a #DB fault with DR6.BD, and delivery
 *    clears GD;
 *  - an instruction breakpoint (fault, B0) and data breakpoints in every
 *    register at every length (1, 2, 4, 8 bytes), write and read/write,
 *    hit at each byte they cover and not beside (traps, Bn);
 *  - single-step, also over instructions the hypervisor completes for
 *    the guest (CPUID, OUT, a hypercall): one #DB with DR6.BS after each;
 *  - ICEBP (INT1): #DB reported after the instruction;
 *  - IA32_DEBUGCTL: BTF kept, LBR dropped, reserved bits #GP;
 *  - the values survive VM exits and, for rounds=<n> rounds, the CPU going
 *    to other domains (run beside a second instance that writes its own:
 *    nothing of one may show in the other).
 *
 * Guest command line: rounds=<n> (default 200).
 */
#include "test.h"
#include "events.h"
#include "fault.h"

const char test_title[] = "Debug registers: DR0-DR7, DEBUGCTL, breakpoints, single-step";

#define X86_CR4_DE          (1UL << 3)
#define X86_EFLAGS_TF       (1UL << 8)
#define X86_EFLAGS_RF       (1UL << 16)
#define MSR_DEBUGCTL        0x1d9
#define DEBUGCTL_LBR        (1UL << 0)
#define DEBUGCTL_BTF        (1UL << 1)

#define DR6_DEFAULT         0xffff0ff0UL
#define DR6_BD              (1UL << 13)
#define DR6_BS              (1UL << 14)
#define DR7_DEFAULT         0x400UL
#define DR7_GD              (1UL << 13)
#define DR7_L(n)            (1UL << ((n) * 2))
#define DR7_G(n)            (2UL << ((n) * 2))
#define DR7_RW(n, rw)       ((unsigned long)(rw) << (16 + (n) * 4))
#define DR7_LEN(n, len)     ((unsigned long)(len) << (18 + (n) * 4))
#define RW_EXEC             0
#define RW_WRITE            1
#define RW_RW               3

/* ---- the registers ------------------------------------------------------- */

#define DR_ACCESSORS(n)                                                     \
static inline unsigned long read_dr##n(void)                                \
{                                                                           \
    unsigned long v;                                                        \
    asm volatile ( "mov %%db" #n ", %0" : "=r" (v) );                       \
    return v;                                                               \
}                                                                           \
static inline void write_dr##n(unsigned long v)                             \
{                                                                           \
    asm volatile ( "mov %0, %%db" #n :: "r" (v) : "memory" );               \
}                                                                           \
static inline unsigned long read_dr##n##_ex(unsigned long *v)               \
{                                                                           \
    unsigned long ex = 0, val = 0x5a5a5a5a;                                 \
    asm volatile ( "1: mov %%db" #n ", %1; 2:" _ASM_EXTABLE(1b, 2b)         \
                   : "+D" (ex), "+r" (val) );                               \
    *v = val;                                                               \
    return ex;                                                              \
}                                                                           \
static inline unsigned long write_dr##n##_ex(unsigned long v)               \
{                                                                           \
    unsigned long ex = 0;                                                   \
    asm volatile ( "1: mov %1, %%db" #n "; 2:" _ASM_EXTABLE(1b, 2b)         \
                   : "+D" (ex) : "r" (v) : "memory" );                      \
    return ex;                                                              \
}
DR_ACCESSORS(0)
DR_ACCESSORS(1)
DR_ACCESSORS(2)
DR_ACCESSORS(3)
DR_ACCESSORS(4)
DR_ACCESSORS(5)
DR_ACCESSORS(6)
DR_ACCESSORS(7)
#undef DR_ACCESSORS

static unsigned long read_dr(unsigned int n)
{
    switch ( n )
    {
    case 0: return read_dr0();
    case 1: return read_dr1();
    case 2: return read_dr2();
    case 3: return read_dr3();
    case 6: return read_dr6();
    default: return read_dr7();
    }
}

static void write_dr(unsigned int n, unsigned long v)
{
    switch ( n )
    {
    case 0: write_dr0(v); break;
    case 1: write_dr1(v); break;
    case 2: write_dr2(v); break;
    case 3: write_dr3(v); break;
    case 6: write_dr6(v); break;
    default: write_dr7(v); break;
    }
}

static void write_cr4(unsigned long v)
{
    unsigned long ex = write_cr4_ex(v);

    if ( ex )
        panic("CR4 write %#lx: vector %u\n", v, EXINFO_VECTOR(ex));
}

static void check_exc(const char *what, unsigned long ex, unsigned int vec)
{
    char buf[80];

    snprintf(buf, sizeof(buf), "%s faults", what);
    if ( ex && EXINFO_VECTOR(ex) == vec )
        check_true(buf, true);
    else if ( ex )
        xtf_failure("Fail: %s: vector %u, expected %u\n", what, EXINFO_VECTOR(ex), vec);
    else
        xtf_failure("Fail: %s: no fault, expected vector %u\n", what, vec);
}

/* ---- our #DB handler ------------------------------------------------------- */

/* The frame the CPU pushes for #DB (no error code). */
struct db_frame {
    unsigned long rip, cs, rflags, rsp, ss;
};

#define DB_LOG 16

/*
 * Each #DB is logged (RIP, DR6 and DR7 as the handler finds them), DR6 is
 * reset as an OS does, RF is set (an instruction breakpoint must not fire
 * again on return), TF is cleared when the #DB is reported at 'stop' (or
 * always if stop is 0), and RIP moves to 'resume' for a fault the test
 * does not want to repeat.
 */
static volatile struct {
    unsigned int hits;
    unsigned long rip[DB_LOG], dr6[DB_LOG], dr7[DB_LOG];
    unsigned long stop, resume;
} db;

void db_handler(struct db_frame *f);
void db_handler(struct db_frame *f)
{
    unsigned int i = db.hits++;

    if ( i < DB_LOG )
    {
        db.rip[i] = f->rip;
        db.dr6[i] = read_dr6();
        db.dr7[i] = read_dr7();
    }
    write_dr6(DR6_DEFAULT);
    if ( db.resume )
    {
        f->rip = db.resume;
        db.resume = 0;
    }
    if ( !db.stop || f->rip == db.stop || db.hits >= DB_LOG )
        f->rflags &= ~X86_EFLAGS_TF;
    f->rflags |= X86_EFLAGS_RF;
}

void db_stub(void);
asm ( ".pushsection .text\n"
      ".p2align 4\n"
      "db_stub:\n"
      "  push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"
      "  push %r8; push %r9; push %r10; push %r11\n"
      "  lea 72(%rsp), %rdi\n"
      "  cld\n"
      "  call db_handler\n"
      "  pop %r11; pop %r10; pop %r9; pop %r8\n"
      "  pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      "  iretq\n"
      ".popsection\n" );

static void db_reset(void)
{
    memset((void *)&db, 0, sizeof(db));
}

/* ---- 1. the state at start --------------------------------------------------- */

static void test_initial_state(void)
{
    uint64_t debugctl = ~0ULL;

    printk("Initial state\n");
    check_true("CR4.DE clear", !(read_cr4() & X86_CR4_DE));
    check_val("DR0", read_dr0(), 0);
    check_val("DR1", read_dr1(), 0);
    check_val("DR2", read_dr2(), 0);
    check_val("DR3", read_dr3(), 0);
    check_val("DR6", read_dr6(), DR6_DEFAULT);
    check_val("DR7", read_dr7(), DR7_DEFAULT);
    check_ok("RDMSR IA32_DEBUGCTL", rdmsr_ex(MSR_DEBUGCTL, &debugctl));
    check_val("IA32_DEBUGCTL", debugctl, 0);
}

/* ---- 2. what each register holds ------------------------------------------------ */

static const unsigned long patterns[] = {
    0, ~0UL, 0x5555555555555555UL, 0xaaaaaaaaaaaaaaaaUL, 0x00007fffffffffffUL,
    0xffff800000000000UL, 0x8000000000000000UL, 0x0000000100000001UL,
};

/* What DR6/DR7 read back after a write of v (no RTM, no bus-lock detection). */
static unsigned long dr6_expect(unsigned long v)
{
    return DR6_DEFAULT | (v & 0xe00fUL);
}

static unsigned long dr7_expect(unsigned long v)
{
    return (v & ~0xd000UL) | DR7_DEFAULT;
}

static void test_values(void)
{
    static const unsigned long dr6_vals[] = { 0, 0xf, 0x1, 0x8, 0x2000, 0x4000, 0x8000, 0xffffffffUL };
    /* No GD (bit 13) and no RTM (bit 11): those are tested on their own. */
    static const unsigned long dr7_vals[] = {
        0, 0xffUL, 0x300UL, 0xffff0000UL, 0x5555d555UL, 0xaaaa00aaUL, 0x0000d000UL, 0xffff07ffUL,
    };
    unsigned int n, i;
    unsigned long v;
    char what[64];

    printk("Values: DR0-DR3 keep all 64 bits, DR6/DR7 their fixed bits\n");
    for ( n = 0; n < 4; n++ )
        for ( i = 0; i < ARRAY_SIZE(patterns); i++ )
        {
            write_dr(n, patterns[i]);
            snprintf(what, sizeof(what), "DR%u = %#lx", n, patterns[i]);
            check_val(what, read_dr(n), patterns[i]);
        }
    for ( n = 0; n < 4; n++ )
        write_dr(n, 0);

    for ( i = 0; i < ARRAY_SIZE(dr6_vals); i++ )
    {
        write_dr6(dr6_vals[i]);
        snprintf(what, sizeof(what), "DR6 after writing %#lx", dr6_vals[i]);
        check_val(what, read_dr6(), dr6_expect(dr6_vals[i]));
    }
    write_dr6(DR6_DEFAULT);

    /* DR0-DR3 point nowhere the test goes while breakpoints are enabled. */
    for ( i = 0; i < ARRAY_SIZE(dr7_vals); i++ )
    {
        write_dr7(dr7_vals[i]);
        v = read_dr7();
        write_dr7(0);
        snprintf(what, sizeof(what), "DR7 after writing %#lx", dr7_vals[i]);
        check_val(what, v, dr7_expect(dr7_vals[i]));
    }

    printk("Bits 63:32 of DR6 and DR7: #GP, register unchanged\n");
    write_dr6(0x1);
    check_gp("MOV DR6 <- 1 << 32", write_dr6_ex(1UL << 32));
    check_gp("MOV DR6 <- ~0", write_dr6_ex(~0UL));
    check_val("DR6 unchanged", read_dr6(), dr6_expect(0x1));
    write_dr6(DR6_DEFAULT);
    write_dr7(0x1);
    check_gp("MOV DR7 <- 1 << 32", write_dr7_ex(1UL << 32));
    check_gp("MOV DR7 <- 1 << 63", write_dr7_ex(1UL << 63));
    check_val("DR7 unchanged", read_dr7(), dr7_expect(0x1));
    write_dr7(0);
}

/* ---- 3. DR4/DR5 ---------------------------------------------------------------------- */

static void test_dr4_dr5(void)
{
    unsigned long cr4 = read_cr4(), v = 0;

    printk("DR4/DR5 alias DR6/DR7 with CR4.DE clear\n");
    write_cr4(cr4 & ~X86_CR4_DE);
    write_dr4(0x4001);
    check_val("DR6 after writing DR4", read_dr6(), dr6_expect(0x4001));
    check_ok("MOV from DR4", read_dr4_ex(&v));
    check_val("DR4 reads DR6", v, read_dr6());
    write_dr5(0x10);
    check_val("DR7 after writing DR5", read_dr7(), dr7_expect(0x10));
    check_ok("MOV from DR5", read_dr5_ex(&v));
    check_val("DR5 reads DR7", v, read_dr7());
    write_dr7(0);
    write_dr6(DR6_DEFAULT);

    printk("DR4/DR5 #UD with CR4.DE set\n");
    write_cr4(cr4 | X86_CR4_DE);
    check_exc("MOV from DR4 with CR4.DE", read_dr4_ex(&v), X86_EXC_UD);
    check_exc("MOV to DR4 with CR4.DE", write_dr4_ex(0), X86_EXC_UD);
    check_exc("MOV from DR5 with CR4.DE", read_dr5_ex(&v), X86_EXC_UD);
    check_exc("MOV to DR5 with CR4.DE", write_dr5_ex(0), X86_EXC_UD);
    check_ok("MOV from DR6 with CR4.DE", read_dr6_ex(&v));
    check_ok("MOV to DR7 with CR4.DE", write_dr7_ex(0));
    write_cr4(cr4);
}

/* ---- 4. CPL 3 ---------------------------------------------------------------------------- */

#define SEL_USER_DS  (0x20 | 3)
#define SEL_USER_CS  (0x28 | 3)
#define SEL_TSS      0x30
#define USER_VECTOR  0x81

struct __attribute__((packed)) tss64 {
    uint32_t rsvd0;
    uint64_t rsp0, rsp1, rsp2, rsvd1, ist[7], rsvd2;
    uint16_t rsvd3, iopb;
};

static uint64_t user_gdt[8] __aligned(16);
static struct tss64 tss __aligned(16);
static uint8_t kstack[4096] __aligned(16);
uint8_t ustack[4096] __aligned(16);
unsigned long user_ksp, user_ex_read, user_ex_write;
void run_user(void (*fn)(void));
void user_ret_stub(void);
void user_mov_dr(void);

/*
 * run_user(fn): IRETQ to fn at CPL 3; fn comes back with int $0x81, whose
 * gate returns from run_user.  user_mov_dr: MOV from DR7 and to DR0, the
 * exinfo of each (extable.h) left in user_ex_read/user_ex_write.
 */
asm ( ".pushsection .text\n"
      "run_user:\n"
      "  push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
      "  mov %rsp, user_ksp(%rip)\n"
      "  push $" __stringify(SEL_USER_DS) "\n"
      "  lea ustack+4096(%rip), %rax\n"
      "  push %rax\n"
      "  pushf\n"
      "  push $" __stringify(SEL_USER_CS) "\n"
      "  push %rdi\n"
      "  iretq\n"
      "user_ret_stub:\n"
      "  mov user_ksp(%rip), %rsp\n"
      "  mov $" __stringify(GDT_SEL_DS) ", %eax\n"
      "  mov %eax, %ss\n"
      "  mov %eax, %ds\n"
      "  mov %eax, %es\n"
      "  pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
      "  ret\n"
      "user_mov_dr:\n"
      "  xor %edi, %edi\n"
      "1: mov %db7, %rax\n"
      "2: mov %rdi, user_ex_read(%rip)\n"
      "  xor %edi, %edi\n"
      "3: mov %rax, %db0\n"
      "4: mov %rdi, user_ex_write(%rip)\n"
      "  int $" __stringify(USER_VECTOR) "\n"
      _ASM_EXTABLE(1b, 2b)
      _ASM_EXTABLE(3b, 4b)
      ".popsection\n" );

/* A GDT with ring-3 segments and a TSS, user-accessible page tables. */
static void user_mode_init(void)
{
    uint64_t base = (uint64_t)&tss, limit = sizeof(tss) - 1;
    struct desc_ptr gdtr = { .limit = sizeof(user_gdt) - 1, .base = (uint64_t)user_gdt };
    struct desc_ptr idtr;
    uint64_t *l4, *l3, *l2;
    unsigned int i, j;
    uint8_t *gate;

    user_gdt[0] = 0;
    user_gdt[1] = 0x00af9b000000ffffULL;    /* GDT_SEL_CS64, as head.S */
    user_gdt[2] = 0x00cf9b000000ffffULL;    /* GDT_SEL_CS32 */
    user_gdt[3] = 0x00cf93000000ffffULL;    /* GDT_SEL_DS */
    user_gdt[4] = 0x00cff3000000ffffULL;    /* user data, DPL 3 */
    user_gdt[5] = 0x00affb000000ffffULL;    /* user 64-bit code, DPL 3 */
    user_gdt[6] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
                  (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
                  (((base >> 24) & 0xff) << 56);   /* available 64-bit TSS */
    user_gdt[7] = base >> 32;
    tss.rsp0 = (uint64_t)kstack + sizeof(kstack);
    tss.iopb = sizeof(tss);
    asm volatile ( "lgdt %0" :: "m" (gdtr) );
    asm volatile ( "ltr %w0" :: "r" (SEL_TSS) );

    /* The identity map, user-accessible (U at every level). */
    l4 = (uint64_t *)(read_cr3() & ~0xfffUL);
    l4[0] |= 4;
    l3 = (uint64_t *)(l4[0] & 0x000ffffffffff000UL);
    for ( i = 0; i < 4; i++ )
    {
        l3[i] |= 4;
        l2 = (uint64_t *)(l3[i] & 0x000ffffffffff000UL);
        for ( j = 0; j < 512; j++ )
            l2[j] |= 4;
    }
    asm volatile ( "mov %0, %%cr3" :: "r" (read_cr3()) : "memory" );

    /* int $0x81 from CPL 3: an interrupt gate with DPL 3. */
    set_intr_gate(USER_VECTOR, user_ret_stub);
    sidt(&idtr);
    gate = (uint8_t *)idtr.base + USER_VECTOR * 16;
    gate[5] |= 0x60;
}

static void test_cpl3(void)
{
    printk("MOV DR at CPL 3: #GP(0)\n");
    user_mode_init();
    user_ex_read = user_ex_write = 0;
    run_user(user_mov_dr);
    check_gp("MOV from DR7 at CPL 3", user_ex_read);
    check_gp("MOV to DR0 at CPL 3", user_ex_write);
}

/* ---- 5. general detect ------------------------------------------------------------------ */

static void test_general_detect(void)
{
    unsigned long v = 0;

    printk("DR7.GD: the next MOV DR is a #DB fault with DR6.BD; delivery clears GD\n");
    db_reset();
    write_dr6(DR6_DEFAULT);
    write_dr7(DR7_GD | DR7_DEFAULT);
    asm volatile ( "lea 1f(%%rip), %%rax; mov %%rax, %1\n\t"
                   "lea 2f(%%rip), %%rax; mov %%rax, %2\n\t"
                   "1: mov %%db0, %0\n\t"
                   "2:"
                   : "+r" (v), "=m" (db.stop), "=m" (db.resume) :: "rax", "memory" );
    /* db.stop held the faulting address; the handler consumed 'resume'. */
    check_val("#DB count", db.hits, 1);
    check_val("#DB at the MOV (a fault)", db.rip[0], db.stop);
    check_true("DR6.BD set", db.dr6[0] & DR6_BD);
    check_val("DR7 in the handler: GD cleared", db.dr7[0], DR7_DEFAULT);
    check_val("MOV not executed", v, 0);
    check_val("DR7 after", read_dr7(), DR7_DEFAULT);
    db_reset();
}

/* ---- 6. breakpoints --------------------------------------------------------------------- */

void bp_target(void);
asm ( ".pushsection .text\n"
      "bp_target:\n"
      "  nop\n"
      "  ret\n"
      ".popsection\n" );

static void test_insn_breakpoint(void)
{
    printk("Instruction breakpoint: #DB fault at the address, B0\n");
    db_reset();
    write_dr0((unsigned long)bp_target);
    write_dr7(DR7_L(0) | DR7_RW(0, RW_EXEC) | DR7_LEN(0, 0));
    bp_target();
    bp_target();        /* RF covered the first return only */
    write_dr7(0);
    write_dr0(0);
    check_val("#DB count", db.hits, 2);
    check_val("#DB RIP", db.rip[0], (unsigned long)bp_target);
    check_val("DR6 B0-B3", db.dr6[0] & 0xf, 1);
    check_true("DR6.BS clear", !(db.dr6[0] & DR6_BS));
    db_reset();
}

static uint8_t bp_data[64] __aligned(64);

/* One byte written at 'p'; the #DB count after it. */
static unsigned int poke(volatile uint8_t *p)
{
    unsigned int before = db.hits;

    *p = 0xa5;
    return db.hits - before;
}

static unsigned int peek(volatile uint8_t *p)
{
    unsigned int before = db.hits;

    (void)*p;
    return db.hits - before;
}

static void test_data_breakpoints(void)
{
    /* LEN encodings: 00 1 byte, 01 2 bytes, 11 4 bytes, 10 8 bytes. */
    static const struct { unsigned int len, enc; } lens[] = {
        { 1, 0 }, { 2, 1 }, { 4, 3 }, { 8, 2 },
    };
    unsigned int n, l, b, hits, bad = 0, checked = 0;

    printk("Data breakpoints: DR0-DR3 x 1/2/4/8 bytes, writes and reads\n");
    for ( n = 0; n < 4; n++ )
        for ( l = 0; l < ARRAY_SIZE(lens); l++ )
        {
            unsigned int len = lens[l].len;
            uint8_t *addr = &bp_data[16];

            db_reset();
            write_dr(n, (unsigned long)addr);
            write_dr7(DR7_G(n) | DR7_RW(n, RW_WRITE) | DR7_LEN(n, lens[l].enc));
            /* Every byte it covers hits; the bytes beside it do not. */
            for ( b = 0; b < len; b++ )
            {
                hits = poke(addr + b);
                checked++;
                if ( hits != 1 || !(db.dr6[db.hits - 1] & (1u << n)) ||
                     (db.dr6[db.hits - 1] & DR6_BS) )
                {
                    if ( bad++ < 8 )
                        xtf_failure("Fail: DR%u len %u: write at +%u: %u #DB, DR6 %#lx\n",
                                    n, len, b, hits, db.dr6[db.hits ? db.hits - 1 : 0]);
                }
            }
            hits = poke(addr - 1) + poke(addr + len);
            checked++;
            if ( hits && bad++ < 8 )
                xtf_failure("Fail: DR%u len %u: %u #DB beside the range\n", n, len, hits);
            /* A write breakpoint ignores reads; a read/write one does not. */
            hits = peek(addr);
            checked++;
            if ( hits && bad++ < 8 )
                xtf_failure("Fail: DR%u len %u: read hit a write breakpoint\n", n, len);
            write_dr7(DR7_G(n) | DR7_RW(n, RW_RW) | DR7_LEN(n, lens[l].enc));
            hits = peek(addr + len - 1);
            checked++;
            if ( hits != 1 && bad++ < 8 )
                xtf_failure("Fail: DR%u len %u: read gave %u #DB on a read/write breakpoint\n",
                            n, len, hits);
            write_dr7(0);
            write_dr(n, 0);
        }
    if ( !bad )
        printk("  ok   %u data breakpoint checks\n", checked);
    db_reset();
}

/* ---- 7. single-step ---------------------------------------------------------------------- */

unsigned long ss_labels[8];

/*
 * TF on, then a NOP, CPUID (exits), a NOP, OUT to an unclaimed port
 * (exits), XCHG, a hypercall with our own VMCALL (exits), a NOP: one #DB
 * with BS after each instruction, reported at the next one.
 */
static void test_single_step(void)
{
    unsigned int i;
    unsigned long a = 0, b, c = 0, d, di = XENVER_version, si = 0;

    printk("Single-step: one #DB (DR6.BS) after each instruction, emulated ones too\n");
    db_reset();
    asm volatile ( "lea 1f(%%rip), %%r8; mov %%r8, 0+%[l]\n\t"
                   "lea 2f(%%rip), %%r8; mov %%r8, 8+%[l]\n\t"
                   "lea 3f(%%rip), %%r8; mov %%r8, 16+%[l]\n\t"
                   "lea 4f(%%rip), %%r8; mov %%r8, 24+%[l]\n\t"
                   "lea 5f(%%rip), %%r8; mov %%r8, 32+%[l]\n\t"
                   "lea 6f(%%rip), %%r8; mov %%r8, 40+%[l]\n\t"
                   "lea 7f(%%rip), %%r8; mov %%r8, 48+%[l]\n\t"
                   "mov %%r8, %[stop]\n\t"
                   "mov %[nr], %%r9\n\t"
                   "pushf; orq $0x100, (%%rsp); popf\n\t"
                   "nop\n\t"
                   "1: cpuid\n\t"
                   "2: nop\n\t"
                   "3: outb %%al, $0x80\n\t"
                   "4: xchg %%r9, %%rax\n\t"
                   "5: vmcall\n\t"
                   "6: nop\n\t"
                   "7:"
                   : "+a" (a), "=b" (b), "+c" (c), "=d" (d), "+D" (di), "+S" (si),
                     [l] "=m" (ss_labels), [stop] "=m" (db.stop)
                   : [nr] "i" (__HYPERVISOR_xen_version)
                   : "r8", "r9", "r10", "r11", "memory" );
    (void)b; (void)d;
    check_val("#DB count", db.hits, 7);
    check_val("after NOP", db.rip[0], ss_labels[0]);
    check_val("after CPUID (exits)", db.rip[1], ss_labels[1]);
    check_val("after NOP", db.rip[2], ss_labels[2]);
    check_val("after OUT (exits)", db.rip[3], ss_labels[3]);
    check_val("after XCHG", db.rip[4], ss_labels[4]);
    check_val("after VMCALL (a hypercall)", db.rip[5], ss_labels[5]);
    check_val("after NOP", db.rip[6], ss_labels[6]);
    check_true("the hypercall was made under TF", (long)a > 0);
    for ( i = 0; i < db.hits && i < DB_LOG; i++ )
        if ( !(db.dr6[i] & DR6_BS) || (db.dr6[i] & 0xf) )
            xtf_failure("Fail: single-step #DB %u: DR6 %#lx\n", i, db.dr6[i]);
    db_reset();
}

static void test_icebp(void)
{
    unsigned long after;

    printk("ICEBP (INT1): #DB after the instruction\n");
    db_reset();
    asm volatile ( "lea 1f(%%rip), %0\n\t"
                   ".byte 0xf1\n\t"
                   "1:" : "=r" (after) :: "memory" );
    check_val("#DB count", db.hits, 1);
    check_val("#DB RIP after ICEBP", db.rip[0], after);
    check_val("DR6 B0-B3/BS/BD", db.dr6[0] & 0x600f, 0);
    db_reset();
}

/* ---- 8. IA32_DEBUGCTL ----------------------------------------------------------------------- */

static void test_debugctl(void)
{
    uint64_t v = 0;

    printk("IA32_DEBUGCTL: BTF kept, LBR dropped, reserved bits #GP\n");
    check_ok("WRMSR DEBUGCTL.BTF", wrmsr_ex(MSR_DEBUGCTL, DEBUGCTL_BTF));
    rdmsr_ex(MSR_DEBUGCTL, &v);
    check_val("DEBUGCTL", v, DEBUGCTL_BTF);
    check_ok("WRMSR DEBUGCTL.LBR", wrmsr_ex(MSR_DEBUGCTL, DEBUGCTL_LBR));
    rdmsr_ex(MSR_DEBUGCTL, &v);
    check_val("DEBUGCTL (LBR dropped)", v, 0);
    check_gp("WRMSR DEBUGCTL bit 2", wrmsr_ex(MSR_DEBUGCTL, 1UL << 2));
    check_gp("WRMSR DEBUGCTL bit 63", wrmsr_ex(MSR_DEBUGCTL, 1UL << 63));
    wrmsr(MSR_DEBUGCTL, 0);
    rdmsr_ex(MSR_DEBUGCTL, &v);
    check_val("DEBUGCTL", v, 0);
}

/* ---- 9. our values stay ours ------------------------------------------------------------------ */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/*
 * Distinct values per domain and round.  Breakpoint addresses are high
 * kernel-half addresses nothing runs or touches (the identity map stops
 * at 4 GiB), so enabled breakpoints never fire; odd rounds enable them
 * (the registers are then loaded before each entry), even rounds do not.
 */
static void round_values(unsigned int dom, unsigned long r, unsigned long v[8])
{
    unsigned int n;

    for ( n = 0; n < 4; n++ )
        v[n] = 0xffff900000000000UL | (mix((dom << 20) ^ (r << 2) ^ n) & 0xffffffff0UL);
    v[6] = dr6_expect((dom & 1 ? 0x1 : 0x2) | (r & 1 ? 0x4000 : 0));
    v[7] = 0;
    if ( r & 1 )
    {
        /* Data breakpoints (R/W 01 or 11; 10 needs CR4.DE), any length. */
        uint64_t m = mix(dom ^ (r << 8));

        v[7] = 0xff;
        for ( n = 0; n < 4; n++ )
            v[7] |= ((m >> n) & 1 ? DR7_RW(n, RW_WRITE) : DR7_RW(n, RW_RW)) |
                    DR7_LEN(n, (m >> (8 + 2 * n)) & 3);
    }
    v[7] = dr7_expect(v[7]);
}

static void test_rounds(void)
{
    unsigned long rounds = cmdline_ulong("rounds", 200), r, v[8];
    unsigned int dom = cpuid_domid(), n, bad = 0;
    static const unsigned int regs[] = { 0, 1, 2, 3, 6, 7 };

    printk("Our values across exits and %lu rounds of other domains running\n", rounds);
    for ( r = 0; r < rounds && bad < 8; r++ )
    {
        struct cpuid_leaf l;

        round_values(dom, r, v);
        for ( n = 0; n < ARRAY_SIZE(regs); n++ )
            write_dr(regs[n], v[regs[n]]);
        cpuid(0, &l);                   /* an exit */
        hypercall_yield();              /* the CPU to the other domain */
        hypercall_yield();
        for ( n = 0; n < ARRAY_SIZE(regs); n++ )
        {
            unsigned long got = read_dr(regs[n]);

            if ( got != v[regs[n]] && bad++ < 8 )
                xtf_failure("Fail: round %lu: DR%u is %#lx, we wrote %#lx\n",
                            r, regs[n], got, v[regs[n]]);
        }
        write_dr7(0);
    }
    if ( db.hits )
        xtf_failure("Fail: %u unexpected #DB, the first at %#lx DR6 %#lx\n",
                    db.hits, db.rip[0], db.dr6[0]);
    if ( !bad )
        printk("  ok   %lu rounds, every register ours\n", rounds);
    for ( n = 0; n < 4; n++ )
        write_dr(n, 0);
    write_dr6(DR6_DEFAULT);
}

void test_main(void)
{
    test_cpl3();                /* first: no MOV DR yet, so it exits */
    test_initial_state();
    set_intr_gate(X86_EXC_DB, db_stub);
    test_values();
    test_dr4_dr5();
    test_general_detect();
    test_insn_breakpoint();
    test_data_breakpoints();
    test_single_step();
    test_icebp();
    test_debugctl();
    test_rounds();
    printk("%u checks passed\n", checks_passed());
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest-physical addresses that are neither RAM nor an emulated device
 * (Xen's null handler): reads return all ones at the access's width,
 * writes are dropped, the first access is logged once; addresses beyond
 * the guest-physical width fault in the guest's own page walk (#PF with
 * RSVD).  The HPET page at 0xfed00000, where XTF's selftest and xsa-261
 * look first, is the main witness; then the I/O APIC's page, an address
 * beyond RAM, and the last page of the guest-physical width.
 *
 * Each access below is one emulated instruction; the test prints how many
 * it made, and the hypervisor's count when the domain is destroyed must
 * be the same (tests/unittests.cfg).
 *
 * Guest command line: refuse=1: end with REP MOVSB from the HPET page,
 * which the emulator does not take: the domain must be crashed with the
 * reason, and its neighbour must finish.
 */
#include "test.h"
#include "events.h"
#include "fault.h"
#include "mmio-null.h"

const char test_title[] = "Guest-physical addresses nothing claims: all ones, writes dropped";

#define HPET            MMIO_NULL_HPET
#define IOAPIC          0xfec00000UL
#define X86_EFLAGS_CF   (1UL << 0)
#define X86_EFLAGS_ZF   (1UL << 6)
#define X86_EFLAGS_SF   (1UL << 7)
#define X86_EFLAGS_TF   (1UL << 8)
#define X86_EFLAGS_OF   (1UL << 11)

unsigned int mmio_null_accesses;         /* emulated instructions so far */

#define PRESET 0x1111111111111111UL

/* ---- loads at every width ------------------------------------------------------ */

static void test_loads(unsigned long base, const char *where)
{
    volatile uint8_t *p = (volatile uint8_t *)base;
    unsigned long v;
    char what[80];

#define LOAD(insn, want) do {                                               \
        v = PRESET;                                                         \
        asm volatile ( insn " (%1), %0" : "+r" (v) : "r" (p) : "memory" );  \
        mmio_null_accesses++;                                                         \
        snprintf(what, sizeof(what), "%s: %s", where, insn);                \
        check_val(what, v, want);                                           \
    } while ( 0 )

    printk("Loads from %s: all ones at the width\n", where);
    /* The register merges as the CPU merges: 8/16 bits keep the rest. */
    asm volatile ( "movb (%1), %b0" : "=q" (v) : "r" (p), "0" (PRESET) : "memory" );
    mmio_null_accesses++;
    snprintf(what, sizeof(what), "%s: movb", where);
    check_val(what, v, 0x11111111111111ffUL);
    asm volatile ( "movw (%1), %w0" : "=r" (v) : "r" (p), "0" (PRESET) : "memory" );
    mmio_null_accesses++;
    snprintf(what, sizeof(what), "%s: movw", where);
    check_val(what, v, 0x111111111111ffffUL);
    asm volatile ( "movl (%1), %k0" : "=r" (v) : "r" (p), "0" (PRESET) : "memory" );
    mmio_null_accesses++;
    snprintf(what, sizeof(what), "%s: movl (zero-extends)", where);
    check_val(what, v, 0xffffffffUL);
    LOAD("movq", ~0UL);
    LOAD("movzbq", 0xffUL);
    LOAD("movzwq", 0xffffUL);
    LOAD("movsbq", ~0UL);
    LOAD("movswq", ~0UL);
    LOAD("movslq", ~0UL);
#undef LOAD
}

/* ---- stores are dropped -------------------------------------------------------------- */

static void test_stores(unsigned long base, const char *where)
{
    volatile uint8_t *p8 = (volatile uint8_t *)base;
    volatile uint16_t *p16 = (volatile uint16_t *)base;
    volatile uint32_t *p32 = (volatile uint32_t *)base;
    volatile uint64_t *p64 = (volatile uint64_t *)base;
    char what[80];

    printk("Stores to %s: dropped\n", where);
    *p8 = 0;
    *p16 = 0x1234;
    *p32 = 0;
    *p64 = 0;
    asm volatile ( "movl $0, (%0)" :: "r" (base) : "memory" );
    asm volatile ( "movq $0, 8(%0)" :: "r" (base) : "memory" );
    mmio_null_accesses += 6;
    snprintf(what, sizeof(what), "%s: reads all ones after the stores", where);
    check_val(what, *p64, ~0UL);
    mmio_null_accesses++;
    snprintf(what, sizeof(what), "%s+8: reads all ones after the stores", where);
    check_val(what, p64[1], ~0UL);
    mmio_null_accesses++;
}

/* ---- read-modify-write and the other forms ------------------------------------------- */

static unsigned long flags_of(unsigned long f)
{
    return f & (X86_EFLAGS_CF | X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF);
}

static void test_rmw(void)
{
    unsigned long f, v, a;
    volatile uint32_t *p32 = (volatile uint32_t *)HPET;

    printk("Read-modify-write on the HPET page: computed on all ones, nothing kept\n");
    asm volatile ( "addl $1, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("addl $1: CF ZF (0xffffffff + 1)", flags_of(f), X86_EFLAGS_CF | X86_EFLAGS_ZF);
    asm volatile ( "orl $0x10, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("orl: SF", flags_of(f), X86_EFLAGS_SF);
    asm volatile ( "andq $0, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("andq $0: ZF", flags_of(f), X86_EFLAGS_ZF);
    asm volatile ( "clc; lock incw (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("lock incw: ZF (CF kept clear)", flags_of(f), X86_EFLAGS_ZF);
    asm volatile ( "cmpl $-1, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("cmpl $-1: ZF", flags_of(f), X86_EFLAGS_ZF);
    asm volatile ( "testb $0x80, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("testb $0x80: SF", flags_of(f), X86_EFLAGS_SF);
    asm volatile ( "btl $31, (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_true("btl $31: CF", f & X86_EFLAGS_CF);
    asm volatile ( "negb (%1); pushf; pop %0" : "=r" (f) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("negb: CF (0 - 0xff)", flags_of(f), X86_EFLAGS_CF);
    v = 0x42;
    asm volatile ( "xchgl %k0, (%1)" : "+r" (v) : "r" (HPET) : "memory" );
    mmio_null_accesses++;
    check_val("xchgl: the register gets all ones", v, 0xffffffffUL);
    v = 5;
    asm volatile ( "lock xaddq %0, (%1)" : "+r" (v) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("xaddq: the register gets all ones", v, ~0UL);
    a = 0; v = 7;
    asm volatile ( "lock cmpxchgl %k2, (%3); pushf; pop %1"
                   : "+a" (a), "=r" (f) : "r" (v), "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("cmpxchgl: RAX gets all ones", a, 0xffffffffUL);
    check_true("cmpxchgl: ZF clear (not equal)", !(f & X86_EFLAGS_ZF));
    v = 0;
    asm volatile ( "addq (%1), %0" : "+r" (v) : "r" (HPET) : "memory", "cc" );
    mmio_null_accesses++;
    check_val("addq (mem), reg: reg + all ones", v, ~0UL);
    check_val("nothing was kept", *p32, 0xffffffffUL);
    mmio_null_accesses++;
}

/* ---- single-step over an emulated access ----------------------------------------------- */

static volatile unsigned long db_rip, db_dr6;
static volatile unsigned int db_hits;

struct db_frame {
    unsigned long rip, cs, rflags, rsp, ss;
};

void mmio_db_handler(struct db_frame *f);
void mmio_db_handler(struct db_frame *f)
{
    unsigned long dr6;

    asm volatile ( "mov %%db6, %0" : "=r" (dr6) );
    asm volatile ( "mov %0, %%db6" :: "r" (0xffff0ff0UL) );
    db_hits++;
    db_rip = f->rip;
    db_dr6 = dr6;
    f->rflags &= ~X86_EFLAGS_TF;
}

void mmio_db_stub(void);
asm ( ".pushsection .text\n"
      "mmio_db_stub:\n"
      "  push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"
      "  push %r8; push %r9; push %r10; push %r11\n"
      "  lea 72(%rsp), %rdi\n"
      "  cld\n"
      "  call mmio_db_handler\n"
      "  pop %r11; pop %r10; pop %r9; pop %r8\n"
      "  pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"
      "  iretq\n"
      ".popsection\n" );

static void test_single_step(void)
{
    unsigned long after, v;

    printk("Single-step over an emulated read: #DB after it, DR6.BS\n");
    set_intr_gate(X86_EXC_DB, mmio_db_stub);
    /* POPF setting TF: the trap comes after the instruction that follows it. */
    asm volatile ( "lea 1f(%%rip), %0\n\t"
                   "pushf; orq $0x100, (%%rsp); popf\n\t"
                   "movl (%2), %k1\n\t"
                   "1:"
                   : "=&r" (after), "=r" (v) : "r" (HPET) : "memory" );
    mmio_null_accesses++;
    check_val("#DB count", db_hits, 1);
    check_val("#DB after the MMIO read", db_rip, after);
    check_true("DR6.BS", db_dr6 & (1UL << 14));
    check_val("the read", v, 0xffffffffUL);
}

/* ---- beyond RAM, the last page of the width, beyond the width --------------------------- */

static unsigned int maxphyaddr(void)
{
    struct cpuid_leaf l;

    cpuid(0x80000000, &l);
    if ( l.a < 0x80000008 )
        return 36;
    cpuid(0x80000008, &l);
    return l.a & 0xff;
}

/* Map the 2 MiB at virtual 0xe0000000 (in the 4 GiB identity map) to 'pa'. */
#define WINDOW_VA 0xe0000000UL

static uint64_t *window_pde(void)
{
    uint64_t *l4 = (uint64_t *)(read_cr3() & ~0xfffUL);
    uint64_t *l3 = (uint64_t *)(l4[0] & 0x000ffffffffff000UL);
    uint64_t *l2 = (uint64_t *)(l3[3] & 0x000ffffffffff000UL);

    return &l2[(WINDOW_VA >> 21) & 511];
}

static void map_window(uint64_t pa)
{
    *window_pde() = pa | 0x83;              /* present, writable, 2 MiB */
    asm volatile ( "invlpg (%0)" :: "r" (WINDOW_VA) : "memory" );
}

static void test_elsewhere(void)
{
    unsigned int bits = maxphyaddr();
    uint64_t saved = *window_pde(), top = (1ULL << bits) - (2ULL << 20);
    volatile uint32_t *w = (volatile uint32_t *)(WINDOW_VA + (2 << 20) - 4096);
    unsigned long ex = 0, v = 0;

    test_loads(IOAPIC, "the I/O APIC page");
    test_loads(0x80000000UL, "2 GiB (beyond RAM)");

    printk("The last page of the %u-bit guest-physical width\n", bits);
    map_window(top);
    check_val("last page: movl", *w, 0xffffffffUL);
    mmio_null_accesses++;
    *w = 0;
    mmio_null_accesses++;
    check_val("last page after a store", *w, 0xffffffffUL);
    mmio_null_accesses++;

    printk("Beyond the width: #PF with RSVD in the guest's own page walk\n");
    map_window(1ULL << bits);
    asm volatile ( "1: movl (%2), %k1; 2:" _ASM_EXTABLE(1b, 2b)
                   : "+D" (ex), "+r" (v) : "r" (WINDOW_VA) : "memory" );
    check_val("beyond the width: vector", ex ? EXINFO_VECTOR(ex) : 0, X86_EXC_PF);
    check_val("beyond the width: error code P|RSVD", EXINFO_ERROR(ex) & 0x9, 0x9);
    *window_pde() = saved;
    asm volatile ( "invlpg (%0)" :: "r" (WINDOW_VA) : "memory" );
}

void test_main(void)
{
    test_loads(HPET, "the HPET page");
    test_stores(HPET, "the HPET page");
    test_rmw();
    test_single_step();
    test_page_end();
    test_elsewhere();
    printk("%u checks passed, %u emulated accesses\n", checks_passed(), mmio_null_accesses);

    if ( cmdline_ulong("refuse", 0) )
    {
        static uint8_t buf[16];

        printk("REP MOVSB from the HPET page: not emulated, the domain must be crashed\n");
        asm volatile ( "rep movsb" :: "S" (HPET), "D" (buf), "c" (sizeof(buf)) : "memory" );
        xtf_failure("Fail: still running after REP MOVSB from MMIO\n");
    }
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MSRs, control registers, port I/O and deliberate exceptions.  Every
 * instruction that may fault is in the exception table; where the
 * architecture says what must happen (a #GP for a reserved bit, a #UD for
 * a VMX instruction in a guest, all-ones from an unclaimed port), that is
 * checked, and every value written is put back before the next operation.
 *
 * Left out, with the reason:
 *   - CR3 other than its own value: CR3 is the guest's under EPT (no exit),
 *     a garbage CR3 only takes our own page tables away;
 *   - SS loads, and INT n for vectors that push an error code: they would
 *     break our own stack or exception frames, not test the hypervisor;
 *   - EFER.LME off in long mode is made, and must #GP as on hardware;
 *   - the known-bad classes (fuzz.h) unless enabled.
 */
#include "fuzz.h"
#include "fault.h"

#define MSR_IA32_TSC            0x10
#define MSR_APIC_BASE           0x1b
#define MSR_SYSENTER_CS         0x174
#define MSR_SYSENTER_ESP        0x175
#define MSR_SYSENTER_EIP        0x176
#define MSR_PAT                 0x277
#define MSR_HYPERCALL_PAGE      0x40000000
#define MSR_STAR                0xc0000081
#define MSR_LSTAR               0xc0000082
#define MSR_CSTAR               0xc0000083
#define MSR_SFMASK              0xc0000084
#define MSR_FS_BASE             0xc0000100
#define MSR_GS_BASE             0xc0000101
#define MSR_KERNEL_GS_BASE      0xc0000102

#define CR0_VALID   0xe005003fUL    /* PE MP EM TS ET NE WP AM NW CD PG */
#define CR0_PG      (1UL << 31)     /* x86.h's X86_CR0_PG is an int: sign-extends */
#define X86_CR0_NW  (1UL << 29)
#define X86_CR0_CD  (1UL << 30)
#define X86_CR4_LA57    (1UL << 12)
#define X86_CR4_VMXE    (1UL << 13)
#define X86_CR4_SMXE    (1UL << 14)
#define X86_CR4_OSXSAVE (1UL << 18)
/* CR4 bits that must #GP here: reserved, or features the guest cannot see. */
#define CR4_MUST_GP (~0xffffffffUL | X86_CR4_VMXE | X86_CR4_SMXE | \
                     X86_CR4_OSXSAVE | (1UL << 15) | 0xfe000000UL)

extern uint8_t hypercall_page[];

/* The instructions, each with its fixup: fault.h. */

/* ---- the state every operation leaves as it found it --------------------- */

static struct {
    unsigned long cr0, cr3, cr4, cr8;
    uint64_t efer, fs_base, gs_base, kgs_base, sysenter_cs, pat;
    uint16_t ds, es, fs, gs, ss;
    struct desc_ptr idt;
} saved;

static uint16_t read_seg(unsigned int i)
{
    uint16_t s = 0;

    switch ( i )
    {
    case 0: asm volatile ( "mov %%ds, %0" : "=r" (s) ); break;
    case 1: asm volatile ( "mov %%es, %0" : "=r" (s) ); break;
    case 2: asm volatile ( "mov %%fs, %0" : "=r" (s) ); break;
    case 3: asm volatile ( "mov %%gs, %0" : "=r" (s) ); break;
    default: asm volatile ( "mov %%ss, %0" : "=r" (s) ); break;
    }
    return s;
}

static void restore_segs(void)
{
    asm volatile ( "mov %0, %%ds; mov %0, %%es; mov %0, %%fs; mov %0, %%gs"
                   :: "r" ((unsigned long)GDT_SEL_DS) : "memory" );
    wrmsr(MSR_FS_BASE, saved.fs_base);
    wrmsr(MSR_GS_BASE, saved.gs_base);
}

void cpu_state_save(void)
{
    saved.cr0 = read_cr0();
    saved.cr3 = read_cr3();
    saved.cr4 = read_cr4();
    saved.cr8 = read_cr8();
    saved.efer = rdmsr(MSR_EFER);
    saved.fs_base = rdmsr(MSR_FS_BASE);
    saved.gs_base = rdmsr(MSR_GS_BASE);
    saved.kgs_base = rdmsr(MSR_KERNEL_GS_BASE);
    saved.sysenter_cs = rdmsr(MSR_SYSENTER_CS);
    rdmsr_ex(MSR_PAT, &saved.pat);
    saved.ds = read_seg(0);
    saved.es = read_seg(1);
    saved.fs = read_seg(2);
    saved.gs = read_seg(3);
    saved.ss = read_seg(4);
    sidt(&saved.idt);
}

void cpu_state_check(const char *after)
{
    struct desc_ptr idt;
    uint64_t pat = saved.pat;

    sidt(&idt);
    rdmsr_ex(MSR_PAT, &pat);
    if ( read_cr0() != saved.cr0 || read_cr3() != saved.cr3 ||
         read_cr4() != saved.cr4 || rdmsr(MSR_EFER) != saved.efer ||
         read_cr8() != saved.cr8 || pat != saved.pat ||
         rdmsr(MSR_FS_BASE) != saved.fs_base || rdmsr(MSR_GS_BASE) != saved.gs_base ||
         rdmsr(MSR_KERNEL_GS_BASE) != saved.kgs_base ||
         rdmsr(MSR_SYSENTER_CS) != saved.sysenter_cs ||
         read_seg(0) != saved.ds || read_seg(1) != saved.es || read_seg(2) != saved.fs ||
         read_seg(3) != saved.gs || read_seg(4) != saved.ss ||
         idt.base != saved.idt.base || idt.limit != saved.idt.limit )
    {
        fuzz_fail("after a %s operation: CR0 %#lx CR3 %#lx CR4 %#lx CR8 %#lx EFER %#lx, "
                  "saved %#lx %#lx %#lx %#lx %#lx (or a base MSR, PAT, segment, IDT)\n",
                  after, read_cr0(), read_cr3(), read_cr4(), read_cr8(),
                  (unsigned long)rdmsr(MSR_EFER), saved.cr0, saved.cr3, saved.cr4,
                  saved.cr8, (unsigned long)saved.efer);
        write_cr0_ex(saved.cr0);
        write_cr4_ex(saved.cr4);
        write_cr8_ex(saved.cr8);
        wrmsr_ex(MSR_EFER, saved.efer);
        wrmsr_ex(MSR_KERNEL_GS_BASE, saved.kgs_base);
        wrmsr_ex(MSR_SYSENTER_CS, saved.sysenter_cs);
        wrmsr_ex(MSR_PAT, saved.pat);
        restore_segs();
    }
}

/* A fault is fine if it is the one expected (vector, error code 0 for #GP). */
static void expect(const char *what, unsigned long ex, bool must_fault,
                   unsigned int vector, uint64_t a, uint64_t b)
{
    if ( ex )
        count_fault(ex);
    if ( must_fault && !ex )
        fuzz_fail("%s %#lx %#lx: no fault, expected vector %u\n", what, a, b, vector);
    else if ( ex && EXINFO_VECTOR(ex) != vector )
        fuzz_fail("%s %#lx %#lx: vector %u error %#x, expected %u\n", what, a, b,
                  EXINFO_VECTOR(ex), EXINFO_ERROR(ex), vector);
}

/* ---- MSRs ----------------------------------------------------------------- */

static const uint32_t interesting_msrs[] = {
    MSR_IA32_TSC, 0x17, MSR_APIC_BASE, 0x3a, 0x3b, 0x48, 0x49, 0x8b, 0xe7, 0xe8,
    0xfe, 0x10a, MSR_SYSENTER_CS, MSR_SYSENTER_ESP, MSR_SYSENTER_EIP, 0x179,
    0x17a, 0x1a0, 0x1d9, 0x200, 0x201, 0x20f, 0x250, 0x258, 0x259, 0x268, 0x26f,
    MSR_PAT, 0x2ff, 0x400, 0x480, 0x48b, 0x491, 0x6e0, 0x802, 0x808, 0x80b,
    0x830, MSR_HYPERCALL_PAGE, 0x40000001, 0x40000100, 0x4b564d00, MSR_EFER,
    MSR_STAR, MSR_LSTAR, MSR_CSTAR, MSR_SFMASK, MSR_FS_BASE, MSR_GS_BASE,
    MSR_KERNEL_GS_BASE, 0xc0000103, 0xc0010000, 0xc0010114, 0x1ff, 0x2000,
    0x80000000, 0xbfffffff, 0xffffffff,
};

static bool canonical(uint64_t v)
{
    return (uint64_t)((int64_t)(v << 16) >> 16) == v;
}

static bool pat_valid(uint64_t v)
{
    unsigned int i;

    for ( i = 0; i < 64; i += 8 )
        if ( ((v >> i) & 0xff) > 7 || ((v >> i) & 6) == 2 )
            return false;
    return true;
}

/* Addresses the hypervisor keeps or enters with: must be canonical. */
static bool is_address_msr(uint32_t msr)
{
    return msr == MSR_LSTAR || msr == MSR_CSTAR || msr == MSR_KERNEL_GS_BASE ||
           msr == MSR_FS_BASE || msr == MSR_GS_BASE || msr == MSR_SYSENTER_EIP ||
           msr == MSR_SYSENTER_ESP;
}

static uint32_t pick_msr(void)
{
    uint32_t m = interesting_msrs[fuzz_below(ARRAY_SIZE(interesting_msrs))];

    switch ( fuzz_below(10) )
    {
    case 0: case 1: return m + 1 + fuzz_below(16);
    case 2:         return 0xc0000000 + fuzz_below(0x200);
    case 3:         return 0x40000000 + fuzz_below(0x200);
    case 4:         return fuzz_rand();
    default:        return m;
    }
}

static uint64_t pick_msr_value(uint64_t old)
{
    static const uint64_t edge[] = {
        0, ~0UL, 0x8000000000000000UL, 0x0000800000000000UL,
        0x00007ffffffff000UL, 0xffff800000000000UL, 0xdead00000000beefUL,
        0xffffffff, 0x100000000UL,
    };

    switch ( fuzz_below(6) )
    {
    case 0: case 1: return edge[fuzz_below(ARRAY_SIZE(edge))];
    case 2:         return old ^ (1UL << fuzz_below(64));
    case 3:         return old;
    case 4:         return fuzz_rand() & 0x00007fffffffffffUL;
    default:        return fuzz_rand();
    }
}

void fuzz_msr(void)
{
    uint32_t msr = pick_msr();
    uint64_t old = 0, val, now = 0;
    unsigned long rex, wex;

    /* The APIC's MSRs have their own rules and must leave the APIC usable. */
    if ( fuzz_apic_msr_owned(msr) )
        return fuzz_apic_msr(msr);

    trace("msr read %#x\n", msr);
    rex = rdmsr_ex(msr, &old);
    expect("rdmsr", rex, false, X86_EXC_GP, msr, 0);
    if ( rex && EXINFO_ERROR(rex) )
        fuzz_fail("rdmsr %#x: #GP error code %#x, expected 0\n", msr, EXINFO_ERROR(rex));
    if ( fuzz_chance(40) )
        return;

    val = pick_msr_value(old);
    if ( msr == MSR_HYPERCALL_PAGE )
    {
        /* Any other RAM page would be overwritten with the stubs. */
        static const uint64_t hp[] = {
            UNMAPPED_VA, NOT_RAM_VA, 1, 0xfff, ~0UL, 0x8000000000000000UL,
        };

        val = fuzz_chance(30) ? (unsigned long)hypercall_page : hp[fuzz_below(ARRAY_SIZE(hp))];
        if ( fuzz_chance(20) )
            val = (unsigned long)hypercall_page | 1;
    }
    if ( !fuzz_enabled(FC_MSR_BAD) )
    {
        if ( is_address_msr(msr) && !canonical(val) )
            val = (int64_t)(val << 16) >> 16;
        if ( msr == MSR_PAT && !pat_valid(val) )
            val = 0x0007040600070406ULL;
    }

    trace("msr write %#x %#lx\n", msr, val);
    wex = wrmsr_ex(msr, val);
    if ( msr == MSR_EFER )
        expect("wrmsr EFER", wex, (val & ~(uint64_t)(EFER_SCE | EFER_LME | EFER_LMA | EFER_NXE)) ||
               ((val ^ old) & EFER_LME), X86_EXC_GP, msr, val);
    else if ( msr == MSR_HYPERCALL_PAGE )
        expect("wrmsr hypercall page", wex, val & (PAGE_SIZE - 1), X86_EXC_GP, msr, val);
    else if ( is_address_msr(msr) )
        expect("wrmsr", wex, !canonical(val), X86_EXC_GP, msr, val);
    else if ( msr == MSR_PAT )
        expect("wrmsr PAT", wex, !pat_valid(val), X86_EXC_GP, msr, val);
    else
        expect("wrmsr", wex, false, X86_EXC_GP, msr, val);

    if ( !wex && !rex && msr != MSR_HYPERCALL_PAGE )
    {
        /* Written values of the MSRs the guest owns must read back. */
        if ( is_address_msr(msr) || msr == MSR_STAR || msr == MSR_PAT )
        {
            rdmsr_ex(msr, &now);
            if ( now != val )
                fuzz_fail("wrmsr %#x %#lx reads back %#lx\n", msr, val, now);
        }
        wex = wrmsr_ex(msr, old);
        if ( wex )
            fuzz_fail("wrmsr %#x: cannot restore %#lx (vector %u)\n", msr, old,
                      EXINFO_VECTOR(wex));
    }
}

/* ---- control registers ------------------------------------------------------ */

static void fuzz_cr0(void)
{
    static const unsigned long flip[] = {
        X86_CR0_MP, 1UL << 2, 1UL << 3, X86_CR0_NE, X86_CR0_WP, 1UL << 18,
        X86_CR0_NW, X86_CR0_CD, X86_CR0_PE,
    };
    unsigned long old = read_cr0(), v = old, ex;
    unsigned int i, n = fuzz_below(4);
    bool must_gp;

    switch ( fuzz_below(6) )
    {
    case 0:                                     /* reserved low bits: ignored */
        v |= 1UL << (6 + fuzz_below(10));
        break;
    case 1:
        v = (uint32_t)fuzz_rand() | CR0_PG;
        break;
    case 2:
        if ( fuzz_enabled(FC_CR0_HIGH) )
            v |= fuzz_chance(20) ? ~0UL : 1UL << (32 + fuzz_below(32));
        break;
    case 3:
        if ( fuzz_enabled(FC_CR0_PG) )
            v = fuzz_chance(50) ? old & ~CR0_PG : 0;
        break;
    default:
        for ( i = 0; i <= n; i++ )
            v ^= flip[fuzz_below(ARRAY_SIZE(flip))];
        break;
    }

    /*
     * As the SDM says and Xen does: bits 63:32 #GP, reserved bits 31:0
     * are ignored (read back as 0), ET reads as 1; PG without PE, NW
     * without CD, and clearing PG in 64-bit code #GP.
     */
    must_gp = (v >> 32) || ((v & CR0_PG) && !(v & X86_CR0_PE)) ||
              ((v & X86_CR0_NW) && !(v & X86_CR0_CD)) || !(v & CR0_PG);
    trace("cr0 %#lx\n", v);
    ex = write_cr0_ex(v);
    if ( !ex && read_cr0() != ((v & CR0_VALID) | X86_CR0_ET) )
        fuzz_fail("CR0 %#lx reads back %#lx\n", v, read_cr0());
    write_cr0_ex(old);
    expect("mov to CR0", ex, must_gp, X86_EXC_GP, v, old);
}

static void fuzz_cr4(void)
{
    unsigned long old = read_cr4(), v = old, ex;
    bool must_gp;

    switch ( fuzz_below(5) )
    {
    case 0:  v ^= X86_CR4_PAE; break;
    case 1:  v ^= 1UL << fuzz_below(64); break;
    case 2:  v = fuzz_rand(); break;
    default: v ^= 1UL << fuzz_below(25); break;
    }
    /* LA57 may change only outside long mode. */
    must_gp = (v & CR4_MUST_GP) || !(v & X86_CR4_PAE) || ((v ^ old) & X86_CR4_LA57);
    trace("cr4 %#lx\n", v);
    ex = write_cr4_ex(v);
    write_cr4_ex(old);
    expect("mov to CR4", ex, must_gp, X86_EXC_GP, v, old);
}

static void fuzz_cr8(void)
{
    unsigned long v = fuzz_chance(70) ? fuzz_below(16) : fuzz_value(), ex;

    trace("cr8 %#lx\n", v);
    ex = write_cr8_ex(v);
    (void)read_cr8();
    write_cr8_ex(saved.cr8);
    expect("mov to CR8", ex, v > 15, X86_EXC_GP, v, 0);
}

void fuzz_cr(void)
{
    unsigned long old = read_cr0(), ex;

    switch ( fuzz_below(6) )
    {
    case 0: case 1:
        fuzz_cr0();
        break;
    case 2:
        fuzz_cr4();
        break;
    case 3:
        fuzz_cr8();
        break;
    case 4:
        trace("cr3 rewrite, clts\n");
        expect("mov to CR3 (same value)", write_cr3_ex(read_cr3()), false, 0, 0, 0);
        write_cr0_ex(old | (1UL << 3));
        asm volatile ( "clts" ::: "memory" );
        if ( read_cr0() & (1UL << 3) )
            fuzz_fail("CLTS left CR0.TS set\n");
        write_cr0_ex(old);
        break;
    default:
    {
        uint16_t msw = fuzz_rand();

        trace("lmsw %#x\n", msw);
        ex = 0;
        asm volatile ( "1: lmsw %w[m]; 2:" _ASM_EXTABLE(1b, 2b)
                       : "+D" (ex) : [m] "r" (msw) : "memory" );
        /* LMSW sets PE, MP, EM, TS from the operand and cannot clear PE. */
        if ( !ex && (read_cr0() & 0xf) != ((msw & 0xf) | X86_CR0_PE) )
            fuzz_fail("LMSW %#x: CR0 low bits %#lx\n", msw, read_cr0() & 0xf);
        write_cr0_ex(old);
        expect("lmsw", ex, false, 0, msw, 0);
        break;
    }
    }
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest-physical addresses that are not RAM (class unclaimed): loads,
 * stores and read-modify-write instructions of every width on addresses above
 * RAM inside the guest-physical width (the HPET and I/O APIC pages, the
 * rest of the first 4 GiB, and through a remapped 2 MiB window anything up
 * to the top of the width).  Nothing claims them, so every read must give
 * all ones at its width (registers merged as the CPU merges them), every
 * write must be dropped (the next read gives all ones again), no
 * instruction may fault, and the flags of a few deterministic cases must
 * be right.  The local APIC's page is left to the vLAPIC's own tests; no
 * access crosses a page (not emulated: the domain would be crashed).
 */
#include "fuzz.h"
#include "fault.h"

#define EFLAGS_CF       (1UL << 0)
#define EFLAGS_ZF       (1UL << 6)
#define APIC_PAGE       0xfee00000UL
#define WINDOW_VA       0xe0000000UL            /* a 2 MiB page of the identity map */
#define WINDOW_SIZE     (2UL << 20)
#define FOUR_GIB        0x100000000UL

extern unsigned long fuzz_ram_top;

static unsigned int maxphyaddr(void)
{
    static unsigned int bits;
    struct cpuid_leaf l;

    if ( bits )
        return bits;
    cpuid(0x80000000, &l);
    bits = 36;
    if ( l.a >= 0x80000008 )
    {
        cpuid(0x80000008, &l);
        bits = l.a & 0xff;
    }
    return bits;
}

static uint64_t *window_pde(void)
{
    uint64_t *l4 = (uint64_t *)(read_cr3() & ~0xfffUL);
    uint64_t *l3 = (uint64_t *)(l4[0] & 0x000ffffffffff000UL);
    uint64_t *l2 = (uint64_t *)(l3[WINDOW_VA >> 30] & 0x000ffffffffff000UL);

    return &l2[(WINDOW_VA >> 21) & 511];
}

static void set_window(uint64_t pde)
{
    *window_pde() = pde;
    asm volatile ( "invlpg (%0)" :: "r" (WINDOW_VA) : "memory" );
}

/*
 * A virtual address whose guest-physical address is not RAM, 'bytes'
 * aligned inside its page; *pa says which guest-physical address it is.
 */
static unsigned long pick(unsigned int bytes, uint64_t *pa, bool *window)
{
    unsigned long off = fuzz_below(PAGE_SIZE / bytes) * bytes, page;

    *window = false;
    switch ( fuzz_below(4) )
    {
    case 0:
        page = fuzz_chance(50) ? 0xfed00000UL : 0xfec00000UL;
        break;
    case 1:
    case 2:
        /* Above RAM in the identity map, but not the APIC or the window. */
        do
            page = fuzz_ram_top + (fuzz_below((FOUR_GIB - fuzz_ram_top) >> PAGE_SHIFT) << PAGE_SHIFT);
        while ( page == APIC_PAGE || (page >= WINDOW_VA && page < WINDOW_VA + WINDOW_SIZE) );
        break;
    default:
    {
        /* Anywhere from 4 GiB to the top of the width, a 2 MiB page at a time. */
        uint64_t top = 1ULL << maxphyaddr();
        uint64_t big = FOUR_GIB + (fuzz_below((top - FOUR_GIB) / WINDOW_SIZE) * WINDOW_SIZE);
        unsigned long in = fuzz_below(WINDOW_SIZE >> PAGE_SHIFT) << PAGE_SHIFT;

        if ( fuzz_chance(30) )
            big = top - WINDOW_SIZE, in = WINDOW_SIZE - PAGE_SIZE;   /* the last page */
        set_window(big | 0x83);         /* present, writable, 2 MiB */
        *window = true;
        *pa = big + in + off;
        return WINDOW_VA + in + off;
    }
    }
    *pa = page + off;
    return page + off;
}

static const uint64_t ones[9] = {
    [1] = 0xff, [2] = 0xffff, [4] = 0xffffffffUL, [8] = ~0UL,
};

/* The register after a load of all ones at 'bytes' into one holding 'old'. */
static uint64_t merged(uint64_t old, unsigned int bytes)
{
    return bytes >= 4 ? ones[bytes] : (old & ~ones[bytes]) | ones[bytes];
}

void fuzz_unclaimed(void)
{
    static const unsigned int widths[] = { 1, 2, 4, 8 };
    unsigned int bytes = widths[fuzz_below(4)], op = fuzz_below(10);
    uint64_t pa, r0 = fuzz_value(), r = r0, flags = 0, back = 0;
    uint64_t saved_pde = *window_pde();
    bool window;
    unsigned long va = pick(bytes, &pa, &window), ex = 0;
    const char *what = "?";

    trace("mmio op %u, %u bytes at gpa %#lx\n", op, bytes, (unsigned long)pa);

#define RUN(name, insn_b, insn_w, insn_l, insn_q, ...) do {                         \
        what = name;                                                                \
        switch ( bytes )                                                            \
        {                                                                           \
        case 1: asm volatile ( "1: " insn_b "; 2: pushf; pop %2\n" _ASM_EXTABLE(1b, 2b) \
                               : "+D" (ex), "+q" (r), "=r" (flags) : "r" (va)     \
                               : "memory", "cc" ); break;                           \
        case 2: asm volatile ( "1: " insn_w "; 2: pushf; pop %2\n" _ASM_EXTABLE(1b, 2b) \
                               : "+D" (ex), "+r" (r), "=r" (flags) : "r" (va)     \
                               : "memory", "cc" ); break;                           \
        case 4: asm volatile ( "1: " insn_l "; 2: pushf; pop %2\n" _ASM_EXTABLE(1b, 2b) \
                               : "+D" (ex), "+r" (r), "=r" (flags) : "r" (va)     \
                               : "memory", "cc" ); break;                           \
        default: asm volatile ( "1: " insn_q "; 2: pushf; pop %2\n" _ASM_EXTABLE(1b, 2b) \
                                : "+D" (ex), "+r" (r), "=r" (flags) : "r" (va)    \
                                : "memory", "cc" ); break;                          \
        }                                                                           \
    } while ( 0 )

    switch ( op )
    {
    case 0:     /* MOV load */
        RUN("mov load", "movb (%3), %b1", "movw (%3), %w1", "movl (%3), %k1", "movq (%3), %1");
        if ( !ex && r != merged(r0, bytes) )
            fuzz_fail("mov load of %u bytes at gpa %#lx: %#lx, expected %#lx\n",
                      bytes, (unsigned long)pa, (unsigned long)r,
                      (unsigned long)merged(r0, bytes));
        break;
    case 1:     /* MOVZX / MOVSX into 64 bits (MOVSXD for 4, MOV for 8) */
        if ( fuzz_chance(50) )
        {
            RUN("movzx", "movzbq (%3), %1", "movzwq (%3), %1", "movl (%3), %k1", "movq (%3), %1");
            if ( !ex && r != ones[bytes] )
                fuzz_fail("movzx of %u bytes at gpa %#lx: %#lx\n", bytes,
                          (unsigned long)pa, (unsigned long)r);
        }
        else
        {
            RUN("movsx", "movsbq (%3), %1", "movswq (%3), %1", "movslq (%3), %1", "movq (%3), %1");
            if ( !ex && r != ~0UL )
                fuzz_fail("movsx of %u bytes at gpa %#lx: %#lx\n", bytes,
                          (unsigned long)pa, (unsigned long)r);
        }
        break;
    case 2:     /* stores: register and immediate */
        if ( fuzz_chance(50) )
            RUN("mov store", "movb %b1, (%3)", "movw %w1, (%3)", "movl %k1, (%3)", "movq %1, (%3)");
        else
            RUN("mov store imm", "movb $0, (%3)", "movw $0x55aa, (%3)", "movl $0, (%3)",
                "movq $0x12345678, (%3)");
        break;
    case 3:     /* ADD of r: CF iff r != 0 at the width, ZF iff r == 1 */
        RUN("add", "addb %b1, (%3)", "addw %w1, (%3)", "addl %k1, (%3)", "addq %1, (%3)");
        if ( !ex && (!!(flags & EFLAGS_CF) != !!(r & ones[bytes]) ||
                     !!(flags & EFLAGS_ZF) != ((r & ones[bytes]) == 1)) )
            fuzz_fail("add of %#lx to %u bytes of all ones at gpa %#lx: flags %#lx\n",
                      (unsigned long)r, bytes, (unsigned long)pa, (unsigned long)flags);
        break;
    case 4:     /* CMP with -1: equal */
        RUN("cmp", "cmpb $-1, (%3)", "cmpw $-1, (%3)", "cmpl $-1, (%3)", "cmpq $-1, (%3)");
        if ( !ex && (flags & (EFLAGS_ZF | EFLAGS_CF)) != EFLAGS_ZF )
            fuzz_fail("cmp $-1 with %u bytes at gpa %#lx: flags %#lx\n", bytes,
                      (unsigned long)pa, (unsigned long)flags);
        break;
    case 5:     /* TEST: ZF iff r is 0 at the width */
        RUN("test", "testb %b1, (%3)", "testw %w1, (%3)", "testl %k1, (%3)", "testq %1, (%3)");
        if ( !ex && !!(flags & EFLAGS_ZF) != !(r & ones[bytes]) )
            fuzz_fail("test %#lx with %u bytes at gpa %#lx: flags %#lx\n",
                      (unsigned long)r, bytes, (unsigned long)pa, (unsigned long)flags);
        break;
    case 6:     /* XCHG: the register gets all ones */
        RUN("xchg", "xchgb %b1, (%3)", "xchgw %w1, (%3)", "xchgl %k1, (%3)", "xchgq %1, (%3)");
        if ( !ex && r != merged(r0, bytes) )
            fuzz_fail("xchg of %u bytes at gpa %#lx: %#lx\n", bytes, (unsigned long)pa,
                      (unsigned long)r);
        break;
    case 7:     /* other read-modify-writes: nothing to check but no fault */
        switch ( fuzz_below(5) )
        {
        case 0: RUN("or", "orb %b1, (%3)", "orw %w1, (%3)", "orl %k1, (%3)", "orq %1, (%3)"); break;
        case 1: RUN("and", "andb $0x0f, (%3)", "andw %w1, (%3)", "andl $0, (%3)", "andq %1, (%3)"); break;
        case 2: RUN("inc/neg", "incb (%3)", "negw (%3)", "lock decl (%3)", "notq (%3)"); break;
        case 3: RUN("bt*", "xorb %b1, (%3)", "btsw $3, (%3)", "btrl $31, (%3)", "lock btcq $63, (%3)"); break;
        default: RUN("sub/sbb", "subb %b1, (%3)", "sbbw %w1, (%3)", "adcl %k1, (%3)", "subq $-1, (%3)"); break;
        }
        break;
    case 8:     /* XADD: the register gets all ones */
        RUN("xadd", "xaddb %b1, (%3)", "xaddw %w1, (%3)", "lock xaddl %k1, (%3)", "xaddq %1, (%3)");
        if ( !ex && r != merged(r0, bytes) )
            fuzz_fail("xadd of %u bytes at gpa %#lx: %#lx\n", bytes, (unsigned long)pa,
                      (unsigned long)r);
        break;
    default:    /* a load from memory into a register: ALU with all ones */
        RUN("or mem", "orb (%3), %b1", "orw (%3), %w1", "orl (%3), %k1", "orq (%3), %1");
        if ( !ex && r != merged(r0, bytes) )
            fuzz_fail("or of %u bytes at gpa %#lx into %#lx: %#lx\n", bytes,
                      (unsigned long)pa, (unsigned long)r0, (unsigned long)r);
        break;
    }
#undef RUN

    if ( ex )
    {
        count_fault(ex);
        fuzz_fail("%s of %u bytes at gpa %#lx: vector %u error %#x\n", what, bytes,
                  (unsigned long)pa, EXINFO_VECTOR(ex), EXINFO_ERROR(ex));
    }
    else
    {
        /* Whatever was written is gone. */
        switch ( bytes )
        {
        case 1: back = *(volatile uint8_t *)va; break;
        case 2: back = *(volatile uint16_t *)va; break;
        case 4: back = *(volatile uint32_t *)va; break;
        default: back = *(volatile uint64_t *)va; break;
        }
        if ( back != ones[bytes] )
            fuzz_fail("after %s: %u bytes at gpa %#lx read %#lx\n", what, bytes,
                      (unsigned long)pa, (unsigned long)back);
    }
    if ( window )
        set_window(saved_pde);
}

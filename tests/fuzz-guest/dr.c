/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The debug registers (class dr): MOV to and from a random DR0-DR7 with a
 * random value and CR4.DE on or off.  The outcome must be the SDM's:
 * DR4/DR5 alias DR6/DR7 with CR4.DE clear and #UD with it set, bits 63:32
 * of DR6/DR7 #GP, DR0-DR3 keep every bit, DR6/DR7 their fixed bits, and a
 * DR7.GD makes the next MOV DR a #DB with DR6.BD and is cleared by its
 * delivery.  A model of what each register must hold is checked on every
 * read.  Breakpoints are enabled only on addresses nothing here touches,
 * and never as I/O breakpoints (the fuzzer's port I/O would hit them).
 */
#include "fuzz.h"
#include "fault.h"

#define X86_CR4_DE      (1UL << 3)
#define DR6_DEFAULT     0xffff0ff0UL
#define DR6_BD          (1UL << 13)
#define DR7_GD          (1UL << 13)
#define DR7_ENABLES     0xffUL

/* The kernel half, unmapped here: breakpoints there never fire. */
#define SAFE_BP(i)      (0xffffc90000000000UL + ((i) << 12))

static unsigned long model[8] = { 0, 0, 0, 0, 0, 0, DR6_DEFAULT, 0x400 };

#define DR_OPS(n)                                                       \
static unsigned long read_dr##n##_ex(unsigned long *v)                  \
{                                                                       \
    unsigned long ex = 0, val = *v;                                     \
    asm volatile ( "1: mov %%db" #n ", %1; 2:" _ASM_EXTABLE(1b, 2b)     \
                   : "+D" (ex), "+r" (val) );                           \
    *v = val;                                                           \
    return ex;                                                          \
}                                                                       \
static unsigned long write_dr##n##_ex(unsigned long v)                  \
{                                                                       \
    unsigned long ex = 0;                                               \
    asm volatile ( "1: mov %1, %%db" #n "; 2:" _ASM_EXTABLE(1b, 2b)     \
                   : "+D" (ex) : "r" (v) : "memory" );                  \
    return ex;                                                          \
}
DR_OPS(0) DR_OPS(1) DR_OPS(2) DR_OPS(3) DR_OPS(4) DR_OPS(5) DR_OPS(6) DR_OPS(7)
#undef DR_OPS

static unsigned long mov_from_dr(unsigned int n, unsigned long *v)
{
    switch ( n )
    {
    case 0: return read_dr0_ex(v);
    case 1: return read_dr1_ex(v);
    case 2: return read_dr2_ex(v);
    case 3: return read_dr3_ex(v);
    case 4: return read_dr4_ex(v);
    case 5: return read_dr5_ex(v);
    case 6: return read_dr6_ex(v);
    default: return read_dr7_ex(v);
    }
}

static unsigned long mov_to_dr(unsigned int n, unsigned long v)
{
    switch ( n )
    {
    case 0: return write_dr0_ex(v);
    case 1: return write_dr1_ex(v);
    case 2: return write_dr2_ex(v);
    case 3: return write_dr3_ex(v);
    case 4: return write_dr4_ex(v);
    case 5: return write_dr5_ex(v);
    case 6: return write_dr6_ex(v);
    default: return write_dr7_ex(v);
    }
}

/* What a register holds after a write of v (DR7 bit 11, RTM, not modelled). */
static unsigned long stored(unsigned int n, unsigned long v)
{
    if ( n == 6 )
        return DR6_DEFAULT | (v & 0xe00fUL);
    if ( n == 7 )
        return (v & ~0xd000UL) | 0x400;
    return v;
}

/* A DR7 value the fuzzer can live with: no I/O breakpoints, no GD. */
static unsigned long tame_dr7(unsigned long v)
{
    unsigned int i;

    v &= ~(DR7_GD | (1UL << 11));
    for ( i = 0; i < 4; i++ )
    {
        unsigned int shift = 16 + 4 * i;

        if ( ((v >> shift) & 3) == 2 )
            v |= 1UL << shift;                  /* I/O -> read/write */
        if ( !((v >> shift) & 3) )
            v &= ~(3UL << (shift + 2));         /* execute: LEN 00 */
    }
    return v;
}

static void check_read(unsigned int n, unsigned int reg, const char *why)
{
    unsigned long v = 0x5a5a5a5a5a5a5a5aUL, ex = mov_from_dr(n, &v);

    if ( ex )
    {
        count_fault(ex);
        fuzz_fail("mov from DR%u (%s): vector %u\n", n, why, EXINFO_VECTOR(ex));
    }
    else if ( (reg == 7 ? v & ~(1UL << 11) : v) != model[reg] )
        fuzz_fail("DR%u reads %#lx, expected %#lx (%s)\n", n, v, model[reg], why);
}

/* DR7.GD: the next MOV DR faults with #DB, DR6.BD; delivery clears GD. */
static void general_detect(void)
{
    unsigned long v = 0, ex;

    trace("dr7 GD\n");
    if ( (ex = write_dr7_ex(model[7] | DR7_GD)) )
    {
        count_fault(ex);
        fuzz_fail("mov to DR7 with GD: vector %u\n", EXINFO_VECTOR(ex));
        return;
    }
    ex = read_dr0_ex(&v);
    if ( ex )
        count_fault(ex);
    if ( !ex || EXINFO_VECTOR(ex) != X86_EXC_DB )
        fuzz_fail("mov from DR0 with DR7.GD: vector %d, expected #DB\n",
                  ex ? (int)EXINFO_VECTOR(ex) : -1);
    check_read(7, 7, "GD cleared by the #DB");
    v = 0;
    if ( !read_dr6_ex(&v) && !(v & DR6_BD) )
        fuzz_fail("DR6 %#lx after a general-detect #DB: BD clear\n", v);
    write_dr6_ex(DR6_DEFAULT);
    model[6] = DR6_DEFAULT;
}

void fuzz_dr(void)
{
    unsigned long cr4 = read_cr4(), v, ex, want_vec = 0;
    bool de = fuzz_chance(50), write = fuzz_chance(60);
    unsigned int n = fuzz_below(8), reg = n, i;

    write_cr4_ex(de ? cr4 | X86_CR4_DE : cr4 & ~X86_CR4_DE);
    if ( n == 4 || n == 5 )
    {
        if ( de )
            want_vec = X86_EXC_UD;
        reg = n + 2;
    }

    if ( fuzz_chance(3) )
    {
        general_detect();
        goto out;
    }

    if ( !write )
    {
        trace("mov from DR%u (CR4.DE %u)\n", n, de);
        if ( want_vec )
        {
            v = 0;
            ex = mov_from_dr(n, &v);
            if ( ex )
                count_fault(ex);
            if ( !ex || EXINFO_VECTOR(ex) != want_vec )
                fuzz_fail("mov from DR%u with CR4.DE: vector %d, expected #UD\n",
                          n, ex ? (int)EXINFO_VECTOR(ex) : -1);
        }
        else
            check_read(n, reg, "read");
        goto out;
    }

    v = fuzz_value();
    if ( reg == 7 )
    {
        v = tame_dr7(v);
        if ( (v & DR7_ENABLES) && !(v >> 32) )
        {
            /* Live breakpoints only where nothing runs or is touched. */
            for ( i = 0; i < 4; i++ )
            {
                model[i] = SAFE_BP(fuzz_below(512));
                mov_to_dr(i, model[i]);
            }
        }
    }
    else if ( reg < 4 && (model[7] & DR7_ENABLES) )
        v = SAFE_BP(fuzz_below(512));
    if ( reg >= 6 && !want_vec && fuzz_chance(20) )
        v |= 1UL << (32 + fuzz_below(32));      /* bits 63:32: #GP */
    if ( reg >= 6 && !want_vec && !(v >> 32) && fuzz_chance(10) )
        v = 0;
    trace("mov to DR%u <- %#lx (CR4.DE %u)\n", n, v, de);

    ex = mov_to_dr(n, v);
    if ( ex )
        count_fault(ex);
    if ( !want_vec && reg >= 6 && (v >> 32) )
        want_vec = X86_EXC_GP;
    if ( want_vec )
    {
        if ( !ex || EXINFO_VECTOR(ex) != want_vec )
            fuzz_fail("mov to DR%u <- %#lx (CR4.DE %u): vector %d, expected %lu\n",
                      n, v, de, ex ? (int)EXINFO_VECTOR(ex) : -1, want_vec);
        check_read(reg, reg, "unchanged by the faulting write");
        goto out;
    }
    if ( ex )
    {
        fuzz_fail("mov to DR%u <- %#lx (CR4.DE %u): vector %u\n", n, v, de,
                  EXINFO_VECTOR(ex));
        goto out;
    }
    model[reg] = stored(reg, v);
    check_read(reg, reg, "after the write");

 out:
    write_cr4_ex(cr4);
}

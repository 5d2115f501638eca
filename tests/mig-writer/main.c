/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The domU of the migration tests (see mig-test.h): fills its data pages
 * with a seeded pattern and rewrites them, one whole page per step, in a
 * seeded pseudo-random order, forever.  Every 64 steps it asks its domain
 * id (CPUID leaf 0x40000004); when the id changed it is the restored copy:
 * it checks every page against its own record of the writes, and the
 * debug registers it set at start, reports, and powers off.  The original never reports: the control domain destroys
 * it once the copy exists.
 *
 * Guest command line: seed=<n> pages=<n> (default 256, at most 1024; the
 * domain needs mem= above 2 MiB + pages * 4 KiB + 4 KiB), work=<n> (a
 * delay of n iterations after each step, default 0).
 */
#include "test.h"
#include "mig-test.h"
#include "public/arch-x86/cpuid.h"

const char test_title[] = "Migration writer (domU)";

static struct mw_ctrl *const ctrl = (struct mw_ctrl *)(MW_CTRL_GFN << PAGE_SHIFT);
static uint64_t gen[MW_MAX_PAGES];

static uint32_t my_domid(void)
{
    struct cpuid_leaf l;

    cpuid(XEN_CPUID_FIRST_LEAF + 4, &l);
    return l.c;
}

static void fill(uint64_t page, uint64_t value)
{
    volatile uint64_t *p = (uint64_t *)((MW_DATA_GFN + page) << PAGE_SHIFT);

    for ( unsigned int k = 0; k < PAGE_SIZE / 8; k++ )
        p[k] = value;
}

/*
 * Debug registers set at start must come back in the copy (the save
 * record's dr0-dr3, dr6, dr7): data breakpoints on kernel-half addresses
 * nothing touches, enabled, so the copy has them loaded from its first
 * entry on.
 */
#define DR_RW(n)                                                            \
static unsigned long read_dr##n(void)                                       \
{ unsigned long v; asm volatile ( "mov %%db" #n ", %0" : "=r" (v) ); return v; } \
static void write_dr##n(unsigned long v)                                    \
{ asm volatile ( "mov %0, %%db" #n :: "r" (v) ); }
DR_RW(0) DR_RW(1) DR_RW(2) DR_RW(3) DR_RW(6) DR_RW(7)
#undef DR_RW

static unsigned long dr_want(unsigned int n, uint64_t seed)
{
    if ( n < 4 )
        return 0xffffca0000000000UL | ((seed * 8 + n) << 12);
    if ( n == 6 )
        return 0xffff0ff0UL | 0x4002;            /* BS, B1 */
    return 0x400 | 0x55 | 0x77770000UL;         /* L0-L3, read/write, 2 bytes */
}

static void dr_set(uint64_t seed)
{
    write_dr0(dr_want(0, seed));
    write_dr1(dr_want(1, seed));
    write_dr2(dr_want(2, seed));
    write_dr3(dr_want(3, seed));
    write_dr6(dr_want(6, seed));
    write_dr7(dr_want(7, seed));
}

static unsigned int dr_check(uint64_t seed)
{
    const unsigned long got[6] = { read_dr0(), read_dr1(), read_dr2(), read_dr3(),
                                   read_dr6(), read_dr7() };
    static const unsigned int num[6] = { 0, 1, 2, 3, 6, 7 };
    unsigned int i, bad = 0;

    for ( i = 0; i < 6; i++ )
        if ( got[i] != dr_want(num[i], seed) && ++bad )
            printk("DR%u is %#lx, the original wrote %#lx\n", num[i], got[i],
                   dr_want(num[i], seed));
    return bad;
}

/* Pages whose words are not all what gen[] says. */
static unsigned int verify(uint64_t seed, uint32_t pages)
{
    unsigned int bad = 0;

    for ( uint64_t i = 0; i < pages; i++ )
    {
        const uint64_t *p = (uint64_t *)((MW_DATA_GFN + i) << PAGE_SHIFT);
        uint64_t want = mw_value(seed, i, gen[i]);
        unsigned int k;

        for ( k = 0; k < PAGE_SIZE / 8 && p[k] == want; k++ )
            ;
        if ( k == PAGE_SIZE / 8 )
            continue;
        if ( bad++ < 8 )
            printk("page %lu (pfn %#lx): word %u is %#lx, write %lu wants %#lx\n",
                   (unsigned long)i, (unsigned long)(MW_DATA_GFN + i), k,
                   (unsigned long)p[k], (unsigned long)gen[i],
                   (unsigned long)want);
    }
    return bad;
}

void test_main(void)
{
    uint64_t seed = cmdline_ulong("seed", 1), step = 0;
    unsigned long pages = cmdline_ulong("pages", 256);
    unsigned long work = cmdline_ulong("work", 0);
    uint32_t domid, now = 0;
    unsigned int bad;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( !pages || pages > MW_MAX_PAGES )
        return xtf_error("Error: pages=%lu is not 1-%u\n", pages, MW_MAX_PAGES);

    domid = my_domid();
    dr_set(seed);
    for ( uint64_t i = 0; i < pages; i++ )
        fill(i, mw_value(seed, i, 0));
    ctrl->pages = pages;
    ctrl->domid = domid;
    ctrl->seed = seed;
    ctrl->steps = 0;
    __atomic_store_n(&ctrl->magic, MW_MAGIC, __ATOMIC_RELEASE);
    printk("d%u writing %lu pages from %#x, seed %lu\n", domid, pages,
           MW_DATA_GFN << PAGE_SHIFT, (unsigned long)seed);

    for ( ;; )
    {
        uint64_t page = mw_step_page(seed, step, pages);

        fill(page, mw_value(seed, page, gen[page] + 1));
        gen[page]++;
        ctrl->steps = ++step;
        for ( unsigned long k = 0; k < work; k++ )
            asm volatile ( "" ::: "memory" );
        if ( !(step & 63) && (now = my_domid()) != domid )
            break;
    }

    printk("now d%u (was d%u), after %lu steps: checking %lu pages\n", now,
           domid, (unsigned long)step, pages);
    if ( dr_check(seed) )
        xtf_failure("Fail: the debug registers did not come across\n");
    else
        printk("debug registers DR0-DR3, DR6, DR7 as the original set them\n");
    bad = verify(seed, pages);
    if ( bad )
        return xtf_failure("Fail: %u of %lu pages differ from what this "
                           "domain wrote\n", bad, pages);
    xtf_success("Success: all %lu pages are what this domain wrote\n", pages);
}

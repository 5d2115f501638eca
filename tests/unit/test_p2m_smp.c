/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The p2m, its EPT tables and the log-dirty bitmap on four CPUs:
 * xen/arch/x86/mm/p2m.c, p2m-ept.c, p2m-pool.c, paging.c and hap/hap.c
 * compiled here as they are (included below), over the real frame table,
 * page allocator and heap (mm.c, page_alloc.c, xmalloc.c on 32 MiB of host
 * memory, as test_heap), run by four host threads that are four CPUs
 * (harness_run_cpus(), so the lock-order and IRQ-safety checks run per
 * CPU).  One domain of 4096 pages (2 MiB superpages, EPT A/D) in global
 * log-dirty mode by write protection (no PML):
 *
 *   CPUs 1 and 2 are its vCPUs writing: a write to a page whose EPT entry
 *   is write-protected takes the EPT-violation path (hap_handle_logdirty_fault:
 *   relax and mark under the p2m lock), then is retried; a write to a
 *   writable page just happens.  The "hardware" looks at the entry under
 *   the p2m lock, which stands for the translation every CPU caches and
 *   the INVEPT that takes it away again before a change is complete.
 *   Each completed write is recorded (pending[gfn]).
 *   CPU 0 is dom0: CLEAN after CLEAN (XEN_DOMCTL_SHADOW_OP_CLEAN through
 *   paging_domctl), each time first collecting the writes completed so far.
 *   CPU 3 maps and unmaps grant-typed entries at gfns above the RAM, so
 *   that EPT tables are allocated from and returned to the paging pool
 *   while CLEAN re-arms, faults split superpages and the trie grows.
 *
 * Exact: every write completed before a CLEAN began is reported by it or
 * by the CLEAN before it; a page never written (the last 512) is never
 * reported; once the writers stop, one CLEAN reports what is left and the
 * next reports nothing; the dirty counts the CLEANs return add up to the
 * pages they reported; every fault was one logged write. CPU 3's entries
 * are what it last set; the pool's pages in use are exactly the EPT tables
 * and trie pages; every change's INVEPT happened before it returned; and
 * with the domain gone the heap is back to its size.
 *
 * Seen to fail without the locks: built with -DTEST_NO_MM_LOCKS the p2m
 * and paging locks are compiled out ("make -C tests/unit
 * bin/test_p2m_smp_nolock" and run it).
 */
#define __XEN__ 1
#define printk test_printk              /* counted: printk_log is not SMP-safe */
#include <xen/lib.h>
void test_printk(const char *fmt, ...);

#include "../../xen/common/page_alloc.c"
#include "../../xen/common/xmalloc.c"
#include "../../xen/arch/x86/mm.c"
#include "../../xen/arch/x86/mm/p2m-pool.c"
#include "../../xen/arch/x86/mm/p2m.c"
#include "../../xen/arch/x86/mm/p2m-ept.c"
#include "../../xen/arch/x86/mm/paging.c"
#include "../../xen/arch/x86/mm/hap/hap.c"
#include <asm/hvm/hvm.h>

#include "harness.h"

static unsigned long printks;

void test_printk(const char *fmt, ...)
{
    (void)fmt;
    __atomic_fetch_add(&printks, 1, __ATOMIC_RELAXED);
}

#define BASE        0x40000000UL
#define SIZE        (32UL << 20)
#define NR_CPUS_T   4
#define RAM_PAGES   1024UL
#define UNTOUCHED   128UL               /* the last pages: never written */
#define WRITERS     2                   /* CPUs 1 and 2 */
#define ROUNDS      8                  /* each writer writes its pages this often */
#define GRANT_GFN   0x100000UL          /* CPU 3's entries: 4 GiB up, new tables */
#define GRANT_SLOTS 64

static struct domain dom, dom0;         /* the tracked domain; the CLEANs' caller */
static struct vcpu vcpus[NR_CPUS_T], dom0_vcpu;
static struct vcpu *vcpu_table[NR_CPUS_T];
struct domain *domain_list;
struct vmx_caps vmx_caps;

struct domain *get_domain_by_id(domid_t domid)
{
    return domid == dom.domain_id ? &dom : NULL;
}

uint64_t dirty_stats_superpages_split(const struct domain *d)
{
    return d->arch.paging.dirty.superpages_split;
}

unsigned int hvm_paddr_bits(void)
{
    return 40;
}

bool hypercall_preempt_check(void)
{
    return false;
}

bool raw_guest_array_writable(const void *p, unsigned long nr, size_t size)
{
    (void)p;
    (void)nr;
    (void)size;
    return true;
}

unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    memcpy(to, from, len);
    return 0;
}

static unsigned long crashes;

void domain_crash(struct domain *d, const char *fmt, ...)
{
    (void)d;
    (void)fmt;
    __atomic_fetch_add(&crashes, 1, __ATOMIC_RELAXED);
}

#ifdef TEST_NO_MM_LOCKS
#define spin_is_locked_by_me(l) ((void)(l), true)   /* not what fails it */
#endif

/* The INVEPTs, and the p2m lock held at each (a change is done only after it). */
static unsigned long invepts, invepts_unlocked, remote_flushes;

void host_test_invept(unsigned long type, uint64_t eptp)
{
    (void)type;
    (void)eptp;
    __atomic_fetch_add(&invepts, 1, __ATOMIC_RELAXED);
    if ( !spin_is_locked_by_me(&dom.arch.hvm.p2m.lock) )
        __atomic_fetch_add(&invepts_unlocked, 1, __ATOMIC_RELAXED);
}

/* The remote shootdown: every CPU that ran a vCPU gets it, before the change returns. */
void flush_mask(const cpumask_t *mask, unsigned int flags)
{
    (void)flags;
    if ( !cpumask_empty(mask) && spin_is_locked_by_me(&dom.arch.hvm.p2m.lock) )
        __atomic_fetch_add(&remote_flushes, 1, __ATOMIC_RELAXED);
}

static bool no_pml(void)
{
    return false;
}

static const struct hvm_function_table test_hvm_funcs = {
    .pml_supported = no_pml,
};
const struct hvm_function_table *hvm_funcs = &test_hvm_funcs;

/* ---- the writers' ground truth --------------------------------------------------- */

static uint8_t pending[RAM_PAGES];      /* written since the last collection */
static unsigned long writes_done, faults_taken;
static volatile bool writers_done;
static volatile unsigned int writers_left;

/* One guest write to gfn by vCPU v, as the hardware would do it. */
static void guest_write(struct vcpu *v, unsigned long gfn)
{
    struct p2m_domain *p2m = &dom.arch.hvm.p2m;

    for ( ; ; )
    {
        p2m_type_t t;
        unsigned long mfn;

        p2m_lock(p2m);
        mfn = p2m_get_entry(&dom, gfn, &t);
        if ( t == p2m_ram_rw )
        {
            unsigned int i;

            /*
             * The write goes through the translation this CPU looked up;
             * take a while, as a CPU holding a stale TLB entry would: only
             * the lock (the INVEPT before a re-arm completes) keeps a
             * CLEAN's re-arm from slipping in between.
             */
            for ( i = 0; i < 200; i++ )
                asm volatile ( "pause" ::: "memory" );
            ((volatile uint8_t *)mfn_to_virt(mfn))[gfn % 64]++;
            __atomic_store_n(&pending[gfn], 1, __ATOMIC_RELEASE);
            p2m_unlock(p2m);
            __atomic_fetch_add(&writes_done, 1, __ATOMIC_RELAXED);
            return;
        }
        p2m_unlock(p2m);
        /* Write-protected: the EPT violation, then the write again. */
        if ( !hap_handle_logdirty_fault(v, gfn) )
        {
            __atomic_fetch_add(&crashes, 1, __ATOMIC_RELAXED);
            return;
        }
        __atomic_fetch_add(&faults_taken, 1, __ATOMIC_RELAXED);
    }
}

/* ---- dom0's CLEANs ------------------------------------------------------------------ */

static uint8_t bitmap[RAM_PAGES / 8];
static uint8_t prev_report[RAM_PAGES], now_report[RAM_PAGES];
static unsigned long cleans, missed, spurious, reported_total, dirty_count_total;
static unsigned long fault_count_total, final_left, final_after;

static int clean(void)
{
    struct xen_domctl_shadow_op sc = {
        .op = XEN_DOMCTL_SHADOW_OP_CLEAN,
        .pages = RAM_PAGES,
    };
    unsigned long gfn, n = 0;
    int rc;

    set_xen_guest_handle(sc.dirty_bitmap, bitmap);
    memset(bitmap, 0, sizeof(bitmap));
    rc = paging_domctl(&dom, &sc);
    if ( rc )
        return rc;
    for ( gfn = 0; gfn < RAM_PAGES; gfn++ )
    {
        now_report[gfn] = (bitmap[gfn / 8] >> (gfn % 8)) & 1;
        n += now_report[gfn];
        if ( now_report[gfn] && gfn >= RAM_PAGES - UNTOUCHED )
            spurious++;
    }
    reported_total += n;
    dirty_count_total += sc.stats.dirty_count;
    fault_count_total += sc.stats.fault_count;
    __atomic_fetch_add(&cleans, 1, __ATOMIC_RELEASE);
    return (int)n;
}

/*
 * Writes completed before this CLEAN (collected just before it) must be in
 * its report or in the previous one (a write racing that CLEAN).
 */
static void clean_and_check(void)
{
    static uint8_t collected[RAM_PAGES];
    unsigned long gfn;

    for ( gfn = 0; gfn < RAM_PAGES; gfn++ )
        collected[gfn] = __atomic_exchange_n(&pending[gfn], 0, __ATOMIC_ACQ_REL);
    if ( clean() < 0 )
        spurious++;
    for ( gfn = 0; gfn < RAM_PAGES; gfn++ )
    {
        if ( collected[gfn] && !now_report[gfn] && !prev_report[gfn] )
            missed++;
        prev_report[gfn] = now_report[gfn];
    }
}

/* ---- CPU 3's p2m changes ---------------------------------------------------------- */

static unsigned long grant_maps, grant_ops, grant_wrong;
static unsigned long grant_mfn[GRANT_SLOTS];
static bool grant_mapped[GRANT_SLOTS];

static void grant_churn(void)
{
    unsigned long n = 0;

    while ( !writers_done )
    {
        unsigned int slot = (n * 7) % GRANT_SLOTS;
        unsigned int i;

        for ( i = 0; i < 2000; i++ )        /* room for the others between changes */
            cpu_relax();
        /* Spread over 1 GiB regions: the first map of each allocates tables. */
        unsigned long gfn = GRANT_GFN + ((unsigned long)slot << 18);

        if ( grant_mapped[slot] )
        {
            if ( p2m_remove_grant_mapping(&dom, gfn, grant_mfn[slot]) )
                grant_wrong++;
            grant_mapped[slot] = false;
        }
        else
        {
            grant_mfn[slot] = 0x40000 + n % 1000;   /* any frame: never touched */
            if ( p2m_add_grant_mapping(&dom, gfn, grant_mfn[slot], n & 1) )
                grant_wrong++;
            else
                grant_mapped[slot] = true;
            grant_maps++;
        }
        n++;
        __atomic_store_n(&grant_ops, n, __ATOMIC_RELEASE);
    }
}

static void cpu_fn(unsigned int cpu)
{
    set_current(cpu ? &vcpus[cpu] : &dom0_vcpu);
    if ( cpu == 0 )
    {
        /* CLEANs while anyone writes, then the two final ones. */
        while ( writers_left )
            clean_and_check();
        clean_and_check();
        final_left = clean();
        final_after = clean();
        writers_done = true;
        return;
    }
    if ( cpu == 3 )
    {
        grant_churn();
        return;
    }
    {
        unsigned long first = (cpu - 1) * ((RAM_PAGES - UNTOUCHED) / WRITERS);
        unsigned long last = first + (RAM_PAGES - UNTOUCHED) / WRITERS, gfn;
        unsigned int r;

        /*
         * Rounds over its pages, in a different order each round, and
         * between two rounds at least one whole CLEAN (it began after the
         * round ended), which re-arms every page: each round faults on
         * each page at least once.
         */
        for ( r = 0; r < ROUNDS; r++ )
        {
            unsigned long c;

            for ( gfn = 0; gfn < last - first; gfn++ )
                guest_write(&vcpus[cpu], first + (gfn * 5 + r * 97) % (last - first));
            /* ... and CPU 3's changes go on meanwhile. */
            c = __atomic_load_n(&cleans, __ATOMIC_ACQUIRE);
            while ( __atomic_load_n(&cleans, __ATOMIC_ACQUIRE) < c + 2 ||
                    __atomic_load_n(&grant_ops, __ATOMIC_ACQUIRE) < (r + 1) * 32UL )
                cpu_relax();
        }
        __atomic_fetch_sub(&writers_left, 1, __ATOMIC_ACQ_REL);
    }
}

static unsigned long heap_start;

static void test_clean_races_writes(void)
{
    struct paging_pool *pool = &dom.arch.hvm.p2m.pool;
    unsigned int i;
    unsigned long heap_before;
    p2m_type_t t;

    if ( !harness_map_fixed(BASE, SIZE) )
    {
        CHECK(!"host memory at 1 GiB");
        return;
    }
    init_boot_pages(BASE, BASE + SIZE);
    init_frame_table(max_boot_pfn());
    heap_start = avail_pages() + xmalloc_global_pages();

    vmx_caps.ept_vpid = VMX_EPT_SUPERPAGE_2MB | VMX_EPT_AD_BIT;
    dom0.domain_id = 0;
    dom0_vcpu.domain = &dom0;
    dom.domain_id = 1;
    dom.max_vcpus = NR_CPUS_T;
    dom.vcpu = vcpu_table;
    dom.max_pages = RAM_PAGES;
    page_list_init(&dom.page_list);
    xmem_pool_init(&dom.xmem, 64);
    for ( i = 0; i < NR_CPUS_T; i++ )
    {
        vcpus[i].domain = &dom;
        vcpus[i].vcpu_id = i;
        vcpu_table[i] = &vcpus[i];
    }
    CHECK_EQ(p2m_init(&dom), 0);
    hap_domain_init(&dom);
    CHECK_EQ(p2m_populate_ram(&dom, RAM_PAGES), 0);
    /* Two other CPUs ran its vCPUs: their cached translations go too. */
    cpumask_set_cpu(1, &dom.arch.hvm.p2m.dirty_cpumask);
    cpumask_set_cpu(2, &dom.arch.hvm.p2m.dirty_cpumask);
    CHECK_EQ(paging_log_dirty_enable(&dom, true), 0);
    CHECK(!dom.arch.paging.log_dirty.pml);
    p2m_get_entry(&dom, 0, &t);
    CHECK_EQ(t, p2m_ram_logdirty);

    invepts = remote_flushes = 0;     /* from here on: the changes on four CPUs */
    writers_left = WRITERS;
    harness_run_cpus(NR_CPUS_T, cpu_fn);

    harness_printf("  log-dirty: %lu writes (%lu faults), %lu CLEANs reporting %lu pages, "
                   "%lu grant maps, %lu INVEPTs (%lu remote)\n", writes_done, faults_taken,
                   cleans, reported_total, grant_maps, invepts, remote_flushes);
    CHECK_EQ(writes_done, WRITERS * ROUNDS * ((RAM_PAGES - UNTOUCHED) / WRITERS));
    CHECK_EQ(crashes, 0);
    CHECK_EQ(missed, 0);                /* no write lost */
    CHECK_EQ(spurious, 0);              /* nothing never written */
    CHECK_EQ(final_after, 0);
    CHECK(cleans > 3);
    /* Each report is one 0->1 transition of the bitmap, each fault one logged write. */
    CHECK_EQ(dirty_count_total, reported_total);
    CHECK_EQ(fault_count_total, faults_taken);
    CHECK_EQ(dom.arch.paging.dirty.wp_faults, faults_taken);
    /* Every page re-armed before every round: one fault per page and round at least. */
    CHECK(faults_taken >= ROUNDS * (RAM_PAGES - UNTOUCHED));
    CHECK(reported_total >= ROUNDS * (RAM_PAGES - UNTOUCHED));
    CHECK_EQ(grant_wrong, 0);
    CHECK(grant_ops >= ROUNDS * 32);
    CHECK_EQ(invepts_unlocked, 0);
    CHECK_EQ(remote_flushes, invepts);  /* each INVEPT here had its remote one */
    for ( i = 0; i < GRANT_SLOTS; i++ )
    {
        unsigned long gfn = GRANT_GFN + ((unsigned long)i << 18);
        unsigned long mfn = p2m_get_entry(&dom, gfn, &t);

        if ( grant_mapped[i] )
            CHECK(mfn == grant_mfn[i] && p2m_is_grant(t));
        else
            CHECK_EQ(mfn, INVALID_MFN);
    }
    /* The pool's pages in use: the EPT tables and the trie, no more. */
    CHECK_EQ(pool->used, dom.arch.hvm.p2m.nr_table_pages + dom.arch.paging.log_dirty.allocs);

    for ( i = 0; i < GRANT_SLOTS; i++ )
        if ( grant_mapped[i] )
            CHECK_EQ(p2m_remove_grant_mapping(&dom, GRANT_GFN + ((unsigned long)i << 18),
                                              grant_mfn[i]), 0);
    heap_before = avail_pages();
    paging_log_dirty_disable(&dom);
    paging_teardown(&dom);
    p2m_teardown(&dom);
    relinquish_domain_pages(&dom);
    CHECK(avail_pages() > heap_before);
    CHECK_EQ(pool->total, 0);
    CHECK_EQ(frames_referenced(), 0);
    CHECK_EQ(dom.xmem.pages, 0);
    CHECK_EQ(avail_pages() + xmalloc_global_pages(), heap_start);
}

void test_main(void)
{
    test_clean_races_writes();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory a domU can make the hypervisor hold, and ballooning.
 *
 * Guest command line: case=<name>
 *   leak     the regression test of issue 16's heap leak: shared_info moved
 *            back and forth between two of our RAM gfns with
 *            XENMEM_add_to_physmap, the hole each move leaves refilled with
 *            XENMEM_populate_physmap, iters=<n> (16384) times.  Before the
 *            fix every move kept the displaced frame outside tot_pages, so
 *            populate stayed within max_pages while the host heap drained:
 *            after ~12,700 moves on a 64 MiB machine populate failed (and
 *            dom0 could build no domain).  Now the displaced frame is freed
 *            (Xen's guest_remove_page), tot_pages stays put, and every
 *            populate succeeds.
 *   balloon  XENMEM_decrease_reservation / increase_reservation /
 *            current_reservation / maximum_reservation / maximum_gpfn as
 *            Xen: 4 KiB and 2 MiB extents, a superpage split by a 4 KiB
 *            hole, partial progress, a gfn ballooned out twice and thrice
 *            (XTF's xsa-277), gfn 0 (xsa-195's first step), shared_info,
 *            the APIC-access page, gfns beyond RAM and the address width,
 *            extent orders past a domU's maximum, bad arguments, populate
 *            back (fresh zeroed frames), max_pages, increase_reservation's
 *            unmapped frames, and a decrease of 2048 extents preempted and
 *            continued while our other vCPU runs (vcpus=2).
 *   stale    a page written, ballooned out, read again: the guest must not
 *            reach the freed frame.  Xen's answer for HVM is the EPT
 *            violation of an empty p2m entry handled as unclaimed MMIO
 *            (reads all ones, writes dropped); a hypervisor without that
 *            handler crashes the domain on the access instead.  Either is
 *            accepted (tests/unittests.cfg); seeing the old data is not.
 *   limits   every allocating path a domU drives, looped until it fails:
 *            populate past max_pages (-E2BIG), increase_reservation up to
 *            max_pages, populate at sparse gfns until the paging pool is
 *            used up (each costs EPT tables), shared_info moved where the
 *            pool has no table left (-ENOMEM), event channels until
 *            -ENOSPC, timers re-armed, vcpu_info registered twice.  With
 *            signal=1 it then tells the control domain (HVM_PARAM_STORE_EVTCHN
 *            = 4000, tests/dom0-memory) and waits to be destroyed.
 */
#include "test.h"
#include "events.h"
#include "fault.h"

const char test_title[] = "Memory a domU can make the hypervisor hold, and ballooning";

#define WC_2000         946684800u
#define MEMOP_EXTENT_SHIFT 6            /* cmd's start extent (Xen's xen/hypercall.h) */
#define APIC_GFN        0xfee00UL
#define DONE_MAGIC      4000

static unsigned long ram_top;           /* first gfn past our RAM (the start-info page) */

/* ---- hypercall helpers -------------------------------------------------------- */

static long reservation(unsigned int cmd, xen_pfn_t *list, unsigned long nr,
                        unsigned int order, domid_t dom)
{
    struct xen_memory_reservation r = {
        .nr_extents = nr, .extent_order = order, .domid = dom,
    };

    r.extent_start.p = list;
    return hypercall_memory_op(cmd, &r);
}

static long decrease(xen_pfn_t gfn, unsigned int order)
{
    return reservation(XENMEM_decrease_reservation, &gfn, 1, order, DOMID_SELF);
}

static long populate(xen_pfn_t gfn, unsigned int order)
{
    return reservation(XENMEM_populate_physmap, &gfn, 1, order, DOMID_SELF);
}

static long increase(unsigned long nr)
{
    return reservation(XENMEM_increase_reservation, NULL, nr, 0, DOMID_SELF);
}

static long query(unsigned int cmd, domid_t dom)
{
    struct xen_memory_domain md = { .domid = dom };

    return hypercall_memory_op(cmd, &md);
}

static long tot_pages(void)
{
    return query(XENMEM_current_reservation, DOMID_SELF);
}

static long map_shinfo(xen_pfn_t gfn)
{
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_shared_info, .idx = 0, .gpfn = gfn,
    };

    return hypercall_memory_op(XENMEM_add_to_physmap, &xatp);
}

static volatile uint64_t *gfn_ptr(xen_pfn_t gfn)
{
    return (volatile uint64_t *)(gfn << PAGE_SHIFT);
}

/* The top of our RAM from the start info's memory map. */
static bool find_ram_top(void)
{
    const struct hvm_memmap_table_entry *mm;
    unsigned int i;

    if ( !start_info || !start_info->memmap_paddr )
        return false;
    mm = (const void *)(uintptr_t)start_info->memmap_paddr;
    for ( i = 0; i < start_info->memmap_entries; i++ )
        if ( mm[i].type == XEN_HVM_MEMMAP_TYPE_RAM &&
             ((mm[i].addr + mm[i].size) >> PAGE_SHIFT) > ram_top )
            ram_top = (mm[i].addr + mm[i].size) >> PAGE_SHIFT;
    return ram_top;
}

/* ---- leak: shared_info moves and populate (issue 16) ------------------------ */

static void test_leak(void)
{
    unsigned long iters = cmdline_ulong("iters", 16384), i;
    xen_pfn_t a = ram_top - 3, b = ram_top - 2, at = a;
    long rc, tot = -1, tot0 = -1;
    /* A hypervisor before ballooning has no current_reservation: not the point here. */
    bool have_tot = tot_pages() != -XEN_ENOSYS;

    printk("shared_info moved %lu times between gfns %#lx and %#lx, each hole refilled:\n",
           iters, a, b);
    if ( (rc = map_shinfo(a)) )
        return xtf_failure("Fail: mapping shared_info at %#lx: %ld\n", a, rc);
    for ( i = 0; i < iters; i++ )
    {
        xen_pfn_t to = at == a ? b : a, hole = at;

        if ( (rc = map_shinfo(to)) )
            return xtf_failure("Fail: move %lu of shared_info to %#lx: %ld\n", i + 1, to, rc);
        at = to;
        if ( (rc = populate(hole, 0)) != 1 )
            return xtf_failure("Fail: populating the hole at %#lx after %lu moves returned %ld: "
                               "the frames displaced so far were never given back\n",
                               hole, i + 1, rc);
        if ( have_tot )
        {
            tot = tot_pages();
            if ( tot0 < 0 )
                tot0 = tot;
            else if ( tot != tot0 )
                return xtf_failure("Fail: tot_pages %ld after move %lu, %ld after the first\n",
                                   tot, i + 1, tot0);
        }
        if ( !((i + 1) % 4096) )
            printk("  %lu moves, tot_pages %ld\n", i + 1, have_tot ? tot : -1L);
    }
    check_true("every hole was refilled", true);
    if ( have_tot )
        check_true("tot_pages never moved (the displaced frames were freed)", tot == tot0);
    check_true("shared_info readable where it was last mapped",
               ((volatile struct shared_info *)gfn_ptr(at))->wc_sec >= WC_2000);
    xtf_success("Success: %lu moves, every hole refilled, nothing held beyond our RAM\n", iters);
}

/* ---- balloon: decrease / increase / queries ------------------------------------ */

#define R4K     0x400UL         /* 4-6 MiB: 4 KiB extents */
#define RSPLIT  0x600UL         /* 6-8 MiB: a superpage split by a hole */
#define R2M     0x800UL         /* 8-10 MiB: 2 MiB extents */
#define RBIG    0x1000UL        /* 16-24 MiB: the preempted decrease */
#define NBIG    2048UL

static volatile bool big_in_call, big_done;
static volatile unsigned long big_gaps;
static xen_pfn_t big_list[NBIG];

/* How often this vCPU got the CPU back while vCPU 0 was in the hypercall. */
static void watcher(unsigned int id __attribute__((unused)))
{
    uint64_t last = rdtsc();

    while ( !big_done )
    {
        uint64_t now = rdtsc();

        if ( now - last > 20000 && big_in_call )
            big_gaps++;
        last = now;
    }
}

static void fill(xen_pfn_t gfn, unsigned long pages, uint64_t v)
{
    unsigned long i;

    for ( i = 0; i < pages * (PAGE_SIZE / 8); i += 64 )
        gfn_ptr(gfn)[i] = v;
}

static bool all_zero(xen_pfn_t gfn, unsigned long pages)
{
    unsigned long i;

    for ( i = 0; i < pages * (PAGE_SIZE / 8); i++ )
        if ( gfn_ptr(gfn)[i] )
            return false;
    return true;
}

static void test_queries(long *tot, long *max)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };
    uint64_t store_pfn = 0;
    long special = 0;

    printk("queries:\n");
    *tot = tot_pages();
    *max = query(XENMEM_maximum_reservation, DOMID_SELF);
    printk("  tot_pages %ld, max_pages %ld, maximum_gpfn %ld, RAM up to gfn %#lx\n", *tot, *max,
           query(XENMEM_maximum_gpfn, DOMID_SELF), ram_top);
    /*
     * All our RAM but the start-info page is ours (and it too, in the p2m),
     * and, if a toolstack built us (HVM_PARAM_STORE_PFN set), Xen's eight
     * special pages below 0xff000 outside the memory map.
     */
    if ( !hvm_get_param(DOMID_SELF, HVM_PARAM_STORE_PFN, &store_pfn) && store_pfn )
        special = 8;
    check_true("current_reservation = our RAM", *tot == (long)ram_top + 1 + special ||
                                                *tot == (long)ram_top + special);
    check_val("maximum_reservation = tot_pages at boot", *max, *tot);
    check_true("maximum_gpfn covers our RAM",
               query(XENMEM_maximum_gpfn, DOMID_SELF) >= (long)ram_top - 1);
    check_val("current_reservation of d0 (not ours)", query(XENMEM_current_reservation, 0),
              -XEN_EPERM);
    check_val("current_reservation of d0x7000", query(XENMEM_current_reservation, 0x7000),
              -XEN_ESRCH);
    check_val("current_reservation with a start extent",
              hypercall_memory_op(XENMEM_current_reservation | (1u << MEMOP_EXTENT_SHIFT), &md),
              -XEN_EINVAL);
    check_val("maximum_reservation from a bad pointer",
              hypercall_memory_op(XENMEM_maximum_reservation, (void *)0x8000000000UL),
              -XEN_EFAULT);
}

static void test_decrease(long tot)
{
    xen_pfn_t list[3];
    long rc;

    printk("decrease_reservation:\n");
    fill(R4K, 4, 0x1111);
    check_val("a 4 KiB extent inside a 2 MiB mapping", decrease(R4K, 0), 1);
    check_val("  tot_pages one less", tot_pages(), tot - 1);
    /* XTF xsa-277: the same gfn again (once left a p2m lock held), and again. */
    check_val("the same gfn a second time: 0 extents", decrease(R4K, 0), 0);
    check_val("and a third time", decrease(R4K, 0), 0);
    check_val("  tot_pages unchanged", tot_pages(), tot - 1);

    /* Three extents, the second a hole: the first is done, then it stops. */
    list[0] = R4K + 1; list[1] = R4K; list[2] = R4K + 2;
    check_val("3 extents, the 2nd a hole: 1 done",
              reservation(XENMEM_decrease_reservation, list, 3, 0, DOMID_SELF), 1);
    check_val("  tot_pages two less", tot_pages(), tot - 2);
    check_true("  the third untouched", gfn_ptr(R4K + 2)[0] == 0x1111);

    /* XTF xsa-195's first step: gfn 0 goes (a superpage split, too). */
    check_val("gfn 0", decrease(0, 0), 1);
    check_val("  tot_pages three less", tot_pages(), tot - 3);

    fill(R2M, 512, 0x2222);
    check_val("a 2 MiB extent mapped by one 2 MiB leaf", decrease(R2M, 9), 1);
    check_val("  tot_pages 512 less", tot_pages(), tot - 3 - 512);
    check_val("  the same again: 0", decrease(R2M, 9), 0);

    /* A hole inside: the pages before it go, the extent does not count (as Xen). */
    check_val("one 4 KiB page of a superpage", decrease(RSPLIT + 5, 0), 1);
    check_val("then its 2 MiB extent: stops at the hole, 0 extents",
              decrease(RSPLIT, 9), 0);
    check_val("  the 5 pages before the hole went anyway", tot_pages(), tot - 3 - 512 - 6);
    check_val("the rest of the split extent, 4 KiB at a time",
              reservation(XENMEM_decrease_reservation,
                          (list[0] = RSPLIT + 6, list), 1, 0, DOMID_SELF), 1);

    check_val("order 10 (past a domU's 2 MiB)", decrease(R2M + 0x400, 10), 0);
    check_val("  nothing went", tot_pages(), tot - 3 - 512 - 7);
    check_val("the APIC-access page (MMIO): 0", decrease(APIC_GFN, 0), 0);
    check_val("a gfn beyond our RAM: 0", decrease(ram_top + 0x100, 0), 0);
    check_val("a gfn beyond the address width: 0", decrease(1UL << 52, 0), 0);
    check_val("gfn ~0: 0", decrease(~0UL, 0), 0);
    check_val("an unreadable extent list: 0",
              reservation(XENMEM_decrease_reservation, (void *)0x8000000000UL, 1, 0,
                          DOMID_SELF), 0);
    check_val("too many extents to encode a continuation: 0",
              reservation(XENMEM_decrease_reservation, list, 1UL << 58, 0, DOMID_SELF), 0);
    check_val("another domain's (d0): 0", reservation(XENMEM_decrease_reservation,
                                                       (list[0] = R4K + 3, list), 1, 0, 0), 0);
    rc = tot_pages();
    check_val("  nothing went", rc, tot - 3 - 512 - 7);
}

static void test_shared_info_gfn(void)
{
    xen_pfn_t s = R4K + 8;
    long tot;

    printk("shared_info and decrease_reservation:\n");
    tot = tot_pages();
    check_val("shared_info over a RAM gfn", map_shinfo(s), 0);
    check_val("  its RAM frame was freed", tot_pages(), tot - 1);
    check_true("  shared_info shows there", ((volatile struct shared_info *)gfn_ptr(s))->wc_sec >=
                                            WC_2000);
    /* Xen unhooks a special page; it is the hypervisor's, not counted. */
    check_val("decrease of the shared_info gfn", decrease(s, 0), 1);
    check_val("  tot_pages unchanged (shared_info never counts)", tot_pages(), tot - 1);
    check_val("  a hole now: again 0", decrease(s, 0), 0);
    check_val("shared_info mapped again, into the hole", map_shinfo(s), 0);
    check_true("  same page", ((volatile struct shared_info *)gfn_ptr(s))->wc_sec >= WC_2000);
    check_val("shared_info at the APIC-access page: -EPERM", map_shinfo(APIC_GFN), -XEN_EPERM);
    check_val("shared_info moved on (its old gfn a hole)", map_shinfo(R4K + 9), 0);
    check_val("  populate the old gfn back", populate(s, 0), 1);
}

static void test_populate(long tot, long max)
{
    long now;

    printk("populate back:\n");
    check_val("4 KiB into a ballooned-out gfn", populate(R4K, 0), 1);
    check_true("  a fresh, zeroed frame", all_zero(R4K, 1));
    check_val("over a gfn still populated: 0", populate(R4K + 2, 0), 0);
    check_val("2 MiB into the ballooned-out superpage", populate(R2M, 9), 1);
    check_true("  512 fresh, zeroed frames", all_zero(R2M, 512));
    check_val("2 MiB misaligned: 0", populate(R2M + 1, 9), 0);
    check_val("2 MiB over the split extent's remaining pages: 0", populate(RSPLIT, 9), 0);
    check_val("gfn 0 back", populate(0, 0), 1);
    check_val("order 10: 0", populate(RBIG, 10), 0);
    now = tot_pages();
    printk("  tot_pages %ld of %ld\n", now, max);
    check_true("tot_pages below max_pages", now < max);
    /* increase_reservation up to max_pages: frames we cannot map (Xen, HVM). */
    check_val("increase_reservation to max_pages", increase(max - now + 5), max - now);
    check_val("  tot_pages = max_pages", tot_pages(), max);
    check_val("  then populate fails (max_pages)", populate(R4K + 1, 0), 0);
    check_val("  and increase_reservation", increase(1), 0);
    (void)tot;
}

static void test_big(void)
{
    unsigned long i;
    long tot = tot_pages(), rc;
    int err;

    printk("decrease_reservation of %lu extents, preemptible:\n", NBIG);
    if ( RBIG + NBIG > ram_top )
        return xtf_error("Error: needs mem=32 or more\n");
    for ( i = 0; i < NBIG; i++ )
        big_list[i] = RBIG + i;
    if ( vcpu_count() < 2 )
        return xtf_error("Error: needs vcpus=2\n");
    if ( (err = vcpu_start(1, watcher)) )
        return xtf_error("Error: cannot start vCPU 1: %d\n", err);
    big_in_call = true;
    rc = reservation(XENMEM_decrease_reservation, big_list, NBIG, 0, DOMID_SELF);
    big_in_call = false;
    big_done = true;
    check_val("all extents done (continuations summed)", rc, NBIG);
    check_val("  tot_pages", tot_pages(), tot - NBIG);
    printk("  our other vCPU ran %lu times during the call\n", big_gaps);
    check_true("preempted and continued: the other vCPU ran during it", big_gaps >= 2);
    check_val("populate them back (2 MiB extents)",
              reservation(XENMEM_populate_physmap, (big_list[0] = RBIG, big_list[1] = RBIG + 512,
                                                    big_list[2] = RBIG + 1024,
                                                    big_list[3] = RBIG + 1536, big_list),
                          4, 9, DOMID_SELF), 4);
    check_val("  tot_pages back", tot_pages(), tot);
    /* A continuation's start extent handed in by the guest itself: the rest. */
    for ( i = 0; i < 4; i++ )
        big_list[i] = RBIG + 512 * i;
    rc = hypercall_memory_op(XENMEM_decrease_reservation | (2u << MEMOP_EXTENT_SHIFT),
                             &(struct xen_memory_reservation){
                                 .extent_start.p = big_list, .nr_extents = 4,
                                 .extent_order = 9, .domid = DOMID_SELF });
    check_val("decrease with start extent 2 of 4: returns 4", rc, 4);
    check_val("  only extents 2 and 3 went", tot_pages(), tot - 1024);
}

static void test_balloon(void)
{
    long tot, max;

    if ( ram_top < RBIG + NBIG )
        return xtf_error("Error: needs mem=32 or more\n");
    test_queries(&tot, &max);
    test_decrease(tot);
    test_shared_info_gfn();
    test_big();
    test_populate(tot, max);
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: ballooning as Xen (%u checks)\n", checks_passed());
}

/* ---- stale: the guest's view of a ballooned-out gfn ------------------------------ */

static void test_stale(void)
{
    xen_pfn_t g = R4K + 0x20;
    volatile uint64_t *p = gfn_ptr(g);
    uint64_t v;

    p[0] = 0x5ca1ab1e5ca1ab1eULL;
    p[511] = 0x5ca1ab1e5ca1ab1eULL;
    check_val("balloon out a page we just wrote", decrease(g, 0), 1);
    printk("reading gfn %#lx again (a crash on this access is Xen-compatible too)\n", g);
    v = p[0];
    if ( v == 0x5ca1ab1e5ca1ab1eULL )
        return xtf_failure("Fail: the freed frame is still reachable: read %#lx\n",
                           (unsigned long)v);
    check_val("the ballooned-out gfn reads as all ones", v, ~0ULL);
    p[511] = 0x1234;
    check_val("a write to it is dropped", p[511], ~0ULL);
}

/* ---- limits: each path until it fails ------------------------------------------- */

#define SPARSE_STRIDE   (1UL << 18)     /* 1 GiB: a new EPT PD and PT each */
#define SPARSE_MAX      4096UL

static void test_limits(void)
{
    long tot = tot_pages(), max = query(XENMEM_maximum_reservation, DOMID_SELF), rc;
    unsigned long i, n, width = query(XENMEM_maximum_gpfn, DOMID_SELF);
    struct vcpu_set_singleshot_timer st = { 0 };
    evtchn_port_t port;
    xen_pfn_t g;

    (void)width;
    printk("limits: tot_pages %ld, max_pages %ld\n", tot, max);

    /* max_pages: populate and increase_reservation stop there. */
    check_val("populate past max_pages: 0 (E2BIG)", populate(ram_top + 16, 0), 0);
    check_val("increase_reservation past max_pages: 0", increase(1), 0);
    for ( i = 0; i < 64; i++ )
        if ( decrease(R4K + i, 0) != 1 )
            break;
    check_val("64 pages ballooned out", i, 64);
    for ( n = 0; n < 100 && increase(1) == 1; n++ )
        ;
    check_val("increase_reservation one at a time until max_pages: 64 frames", n, 64);
    check_val("  tot_pages = max_pages", tot_pages(), max);
    check_val("  so its holes cannot be refilled", populate(R4K, 0), 0);

    /* The paging pool: populate at sparse gfns, balloon each out again. */
    for ( i = 0; i < 8; i++ )
        decrease(R4K + 64 + i, 0);
    for ( n = 0; n < SPARSE_MAX; n++ )
    {
        g = (n + 1) * SPARSE_STRIDE;
        if ( (rc = populate(g, 0)) != 1 )
            break;
        if ( (rc = decrease(g, 0)) != 1 )
        {
            xtf_failure("Fail: could not balloon out sparse gfn %#lx: %ld\n", g, rc);
            break;
        }
    }
    printk("  the paging pool was used up after %lu sparse populates\n", n);
    check_true("sparse populates stopped (the paging pool)", n > 0 && n < SPARSE_MAX);
    check_val("  tot_pages unchanged by them", tot_pages(), max - 8);
    check_val("shared_info where no table is left: -ENOMEM",
              map_shinfo((n + 2) * SPARSE_STRIDE), -XEN_ENOMEM);
    check_val("shared_info into a hole of a split region (tables there)", map_shinfo(R4K), 0);

    /* Event channels until the port space ends. */
    for ( n = 0; n < 200000; n++ )
        if ( (rc = evtchn_alloc_unbound(DOMID_SELF, 0, &port)) )
            break;
    printk("  %lu event channels allocated, then %ld\n", n, rc);
    check_val("event channels until -ENOSPC", rc, -XEN_ENOSPC);

    /* Timers and vcpu_info: no allocation at all, however often. */
    for ( i = 0; i < 2000; i++ )
    {
        st.timeout_abs_ns = (1ULL << 62) + i;       /* far ahead: never fires */
        if ( (rc = hypercall_vcpu_op(VCPUOP_set_singleshot_timer, 0, &st)) )
            break;
        if ( (rc = hypercall_vcpu_op(VCPUOP_stop_singleshot_timer, 0, NULL)) )
            break;
    }
    check_val("2000 singleshot timers set and stopped", rc, 0);
    check_val("vcpu_info registered", register_vcpu_info(0), 0);
    check_val("  and again: -EINVAL", register_vcpu_info(0), -XEN_EINVAL);

    if ( cmdline_ulong("signal", 0) )
    {
        printk("limits: done, waiting to be destroyed\n");
        if ( (rc = hvm_set_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN, DONE_MAGIC)) )
            xtf_failure("Fail: setting the done mark: %ld\n", rc);
        for ( ;; )
            hypercall_yield();
    }
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: every path stopped at its bound\n");
}

/* ---- driver: a balloon driver following max_pages ---------------------------------- */

#define RDRIVER         0x600UL         /* ballooned from 6 MiB up */
#define MAXMEM_SLACK    256             /* libxl's LIBXL_MAXMEM_CONSTANT, in pages */

static void test_driver(void)
{
    long last_max = query(XENMEM_maximum_reservation, DOMID_SELF);
    unsigned long n = 0, cap = ram_top - 16 - RDRIVER;
    unsigned int round = 0;

    printk("driver: max_pages %ld, ballooning between gfns %#lx and %#lx\n", last_max,
           RDRIVER, RDRIVER + cap);
    hvm_set_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN, DONE_MAGIC);   /* ready */
    for ( ;; )
    {
        long max = query(XENMEM_maximum_reservation, DOMID_SELF), tot, target;

        if ( max == last_max )
        {
            hypercall_yield();
            continue;
        }
        target = max - MAXMEM_SLACK;
        tot = tot_pages();
        while ( tot > target && n < cap && decrease(RDRIVER + n, 0) == 1 )
            n++, tot--;
        while ( tot < target && n && populate(RDRIVER + n - 1, 0) == 1 )
            n--, tot++;
        if ( tot != target || tot != tot_pages() )
        {
            xtf_failure("Fail: stuck at %ld pages (%ld counted), target %ld\n", tot,
                        tot_pages(), target);
            break;
        }
        last_max = max;
        printk("driver: at target %ld pages, %lu ballooned out (round %u)\n", tot, n, ++round);
        hvm_set_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN, DONE_MAGIC + round);
    }
}

void test_main(void)
{
    char which[16] = "";

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( !cmdline_get_str("case", which, sizeof(which)) )
        return xtf_error("Error: no case= on the command line\n");
    if ( !find_ram_top() )
        return xtf_error("Error: no memory map in the start info\n");

    if ( !strcmp(which, "leak") )
        test_leak();
    else if ( !strcmp(which, "balloon") )
        test_balloon();
    else if ( !strcmp(which, "stale") )
        test_stale();
    else if ( !strcmp(which, "limits") )
        test_limits();
    else if ( !strcmp(which, "driver") )
        test_driver();
    else
        xtf_error("Error: unknown case \"%s\"\n", which);
}

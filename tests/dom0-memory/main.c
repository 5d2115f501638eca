/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a domU can make the hypervisor hold, seen from the control domain.
 * The guest image (tests/memory, a boot module marked initrd) is built
 * twice with libxenguest, as libxl builds a domain:
 *
 *   1. case=limits, with a paging pool of POOL_PAGES pages, 255 event
 *      channels, in global log-dirty mode: the domU drives every
 *      allocating path until it fails (tests/memory/main.c) and says so
 *      (HVM_PARAM_STORE_EVTCHN = 4000).  What it then holds
 *      (XEN_DOMCTL_get_domain_memory) must be within every bound: frames
 *      within max_pages, the pool neither grown nor over-used, the heap
 *      within its limit, ports within max_evtchn_port; log-dirty reports
 *      the bits it could not keep (-ENOMEM) rather than losing them.
 *   2. the same domU, its pool used up before log-dirty is switched on:
 *      its next write to a 2 MiB leaf cannot be split, and it is crashed
 *      (it was a write fault for ever).
 *   3. case=driver, xl mem-set's path: max_mem lowered to a target + 1 MiB
 *      (what libxl_set_memory_target's "enforce" does), the domU balloons
 *      down to it (XENMEM_decrease_reservation), then up again when the
 *      target is raised (populate_physmap); its tot_pages checked each time.
 *   4. XENMEM_claim_pages, as Xen's: bad arguments refused, a claim
 *      holds the host's memory for its domain against another domain's
 *      populate (which stops exactly where the claim begins), the claiming
 *      domain's own populate uses it up page for page, 0 cancels it, and
 *      a domain destroyed with a claim gives it back.
 *
 * After each, the domU is destroyed and the host's free memory (physinfo
 * free_pages) must be exactly what it was before the domU was created.
 */
#include "test.h"
#include "events.h"
#include <xenctrl.h>
#include <xenguest.h>
#include <errno.h>
#include <string.h>
#include "xc-domain.h"

const char test_title[] = "What a domU can make the hypervisor hold, from dom0";

#define MEM_MB          16
#define POOL_PAGES      64
#define EVTCHNS         255
#define DONE_MAGIC      4000
#define MAX_WAITS       400000UL
#define MEMOP_EXTENT_SHIFT 6            /* cmd's start extent (Xen's xen/hypercall.h) */

static xc_interface *xch;
static const void *image;
static size_t image_size;

static int build(const char *cmdline, unsigned int max_evtchn_port, uint32_t *pdomid,
                 const char **step)
{
    struct xen_domctl_createdomain cfg = {
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap,
        .max_vcpus = 1,
        .max_evtchn_port = max_evtchn_port,
        .max_grant_frames = -1,
        .max_maptrack_frames = -1,
        .grant_opts = XEN_DOMCTL_GRANT_version(2),   /* as Xen's libxl */
    };
    struct xc_dom_image *dom = NULL;
    uint32_t domid = 0;
    int rc = -1;

#define STEP(call) do { *step = #call; if ( (call) ) goto out; } while ( 0 )
    *step = "xc_domain_create";
    if ( xc_domain_create(xch, &domid, &cfg) )
        return -1;
    *pdomid = domid;
    /* Its RAM and Xen's eight special pages (X86_HVM_NR_SPECIAL_PAGES): full. */
    STEP(xc_domain_setmaxmem(xch, domid, MEM_MB * 1024 + X86_HVM_NR_SPECIAL_PAGES * 4));
    STEP(xc_set_paging_mempool_size(xch, domid, (uint64_t)POOL_PAGES << XC_PAGE_SHIFT));
    *step = "xc_dom_allocate";
    if ( !(dom = xc_dom_allocate(xch, cmdline, NULL)) )
        goto out;
    STEP(xc_dom_kernel_mem(dom, image, image_size));
    STEP(xc_dom_boot_xen_init(dom, xch, domid));
    STEP(xc_dom_parse_image(dom));
    STEP(xc_dom_mem_init(dom, MEM_MB));
    dom->claim_enabled = true;          /* as xl's default claim_mode=1 */
    STEP(xc_dom_boot_mem_init(dom));
    STEP(xc_dom_build_image(dom));
    STEP(xc_dom_boot_image(dom));
#undef STEP
    rc = 0;
 out:
    xc_dom_release(dom);
    if ( rc )
        xc_domain_destroy(xch, domid);
    return rc;
}

static unsigned long free_pages(void)
{
    xc_physinfo_t pi;

    return xc_physinfo(xch, &pi) ? 0 : pi.free_pages;
}

/* Wait until the domU's done mark reads 'want'. */
static bool wait_mark(uint32_t domid, uint64_t want)
{
    unsigned long waits;
    uint64_t v = 0;

    for ( waits = 0; waits < MAX_WAITS; waits++ )
    {
        if ( hvm_get_param(domid, HVM_PARAM_STORE_EVTCHN, &v) )
            return false;                       /* it died */
        if ( v == want )
            return true;
        hypercall_yield();
    }
    return false;
}

static void destroy_wait(uint32_t domid)
{
    xc_domaininfo_t info;
    unsigned long waits;

    if ( xc_domain_destroy(xch, domid) && errno != ESRCH )
        xtf_failure("Fail: destroying d%u: errno %d\n", domid, errno);
    for ( waits = 0; waits < MAX_WAITS && xc_domain_getinfolist(xch, domid, 1, &info) == 1 &&
                     info.domain == domid; waits++ )
        hypercall_yield();
}

static void destroy_and_check(uint32_t domid, unsigned long before, const char *what)
{
    unsigned long after;

    destroy_wait(domid);
    after = free_pages();
    if ( after != before )
        xtf_failure("Fail: %s: %lu pages free after d%u went, %lu before it was built "
                    "(%ld held on)\n", what, after, domid, before, (long)(before - after));
    else
        printk("  ok   %s: the host heap is back to %lu free pages\n", what, after);
}

static void phase_limits(void)
{
    struct xen_domctl_domain_memory m;
    unsigned long before = free_pages(), during;
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);
    xc_shadow_op_stats_t st;
    const char *step;
    uint32_t domid;
    long long rc;

    printk("limits: %lu pages free before the domU\n", before);
    if ( build("case=limits signal=1", EVTCHNS, &domid, &step) )
        return xtf_failure("Fail: building the domU: %s: errno %d\n", step, errno);
    if ( xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        xtf_failure("Fail: log-dirty on d%u: errno %d\n", domid, errno);
    if ( xc_domain_unpause(xch, domid) )
        return xtf_failure("Fail: unpause d%u: errno %d\n", domid, errno);
    if ( !wait_mark(domid, DONE_MAGIC) )
        return xtf_failure("Fail: d%u never finished its limits\n", domid);
    during = free_pages();

    if ( xc_domain_get_memory(xch, domid, &m) )
        return xtf_failure("Fail: get_domain_memory: errno %d\n", errno);
    printk("d%u holds: %lu of %lu frames, %lu shared, pool %lu used of %lu (peak %lu, "
           "%lu refused), heap %lu of %lu pages (peak %lu, %lu refused), %u ports of %u\n",
           domid, (unsigned long)m.tot_pages, (unsigned long)m.max_pages,
           (unsigned long)m.xenheap_pages, (unsigned long)m.pool_used,
           (unsigned long)m.pool_pages, (unsigned long)m.pool_peak,
           (unsigned long)m.pool_failed, (unsigned long)m.heap_pages,
           (unsigned long)m.heap_limit, (unsigned long)m.heap_peak,
           (unsigned long)m.heap_failed, m.evtchn_ports, m.max_evtchn_port + 1);
    if ( m.tot_pages > m.max_pages )
        xtf_failure("Fail: %lu frames past max_pages %lu\n", (unsigned long)m.tot_pages,
                    (unsigned long)m.max_pages);
    if ( m.pool_pages != POOL_PAGES || m.pool_used > m.pool_pages || m.pool_peak > m.pool_pages )
        xtf_failure("Fail: the paging pool: %lu pages, %lu used, peak %lu\n",
                    (unsigned long)m.pool_pages, (unsigned long)m.pool_used,
                    (unsigned long)m.pool_peak);
    else if ( !m.pool_failed )
        xtf_failure("Fail: the domU never ran the paging pool out\n");
    else
        printk("  ok   the paging pool stayed at %u pages and ran out\n", POOL_PAGES);
    if ( m.heap_pages > m.heap_limit || m.heap_peak > m.heap_limit )
        xtf_failure("Fail: heap %lu (peak %lu) past its limit %lu\n",
                    (unsigned long)m.heap_pages, (unsigned long)m.heap_peak,
                    (unsigned long)m.heap_limit);
    else
        printk("  ok   the hypervisor heap held for it stayed within %lu pages\n",
               (unsigned long)m.heap_limit);
    if ( m.max_evtchn_port != EVTCHNS || m.evtchn_ports > EVTCHNS + 64 )
        xtf_failure("Fail: %u ports exist, max_evtchn_port %u\n", m.evtchn_ports,
                    m.max_evtchn_port);
    else
        printk("  ok   event channels stopped at max_evtchn_port %u\n", EVTCHNS);
    /* Every page it holds is one the host no longer has. */
    if ( before - during < m.tot_pages + m.xenheap_pages + m.pool_pages + m.heap_pages )
        xtf_failure("Fail: the host lost %lu pages, the domU holds %lu\n", before - during,
                    (unsigned long)(m.tot_pages + m.xenheap_pages + m.pool_pages +
                                    m.heap_pages));
    else
        printk("  ok   the host lost %lu pages, the domU holds %lu (its struct domain, "
               "small objects of ours, the rest)\n", before - during,
               (unsigned long)(m.tot_pages + m.xenheap_pages + m.pool_pages + m.heap_pages));

    /* Log-dirty: bits the pool could not keep are reported, never dropped. */
    bitmap = xc_hypercall_buffer_alloc_pages(xch, bitmap, 1);
    if ( !bitmap )
        return xtf_error("Error: no hypercall buffer\n");
    rc = xc_logdirty_control(xch, domid, XEN_DOMCTL_SHADOW_OP_CLEAN, HYPERCALL_BUFFER(bitmap),
                             8 * XC_PAGE_SIZE, 0, &st);
    if ( rc >= 0 )
        printk("  ok   log-dirty CLEAN: every bit kept (%lld pages)\n", rc);
    else if ( errno == ENOMEM )
        printk("  ok   log-dirty CLEAN: -ENOMEM, bits the pool could not hold are reported\n");
    else
        xtf_failure("Fail: log-dirty CLEAN: errno %d\n", errno);
    xc_hypercall_buffer_free_pages(xch, bitmap, 1);

    destroy_and_check(domid, before, "limits");
}

/*
 * A domU that used up its own pool, then tracked for log-dirty: its next
 * write to a 2 MiB leaf needs a split the pool cannot serve, and it dies
 * of it (once a fault loop for ever); nothing of it is left behind.
 */
/* physinfo's outstanding_pages (all claims), or ~0 if it cannot be read. */
static unsigned long claims(void)
{
    xc_physinfo_t pi;

    return xc_physinfo(xch, &pi) ? ~0UL : pi.outstanding_pages;
}

static unsigned long dom_claim(uint32_t domid)
{
    xc_domaininfo_t info;

    return xc_domain_getinfolist(xch, domid, 1, &info) == 1 && info.domain == domid
           ? info.outstanding_pages : ~0UL;
}

/* XENMEM_claim_pages with a reservation as given: the raw result. */
static long claim_raw(unsigned long start, uint32_t domid, unsigned long nr,
                      unsigned int order, unsigned int flags, xen_pfn_t *list)
{
    struct xen_memory_reservation r = {
        .nr_extents = nr, .extent_order = order, .mem_flags = flags, .domid = domid,
    };

    r.extent_start.p = list;
    return hypercall_memory_op(XENMEM_claim_pages | (start << MEMOP_EXTENT_SHIFT), &r);
}

static void expect_claim(const char *what, long got, long want)
{
    if ( got != want )
        xtf_failure("Fail: claim: %s: %ld, want %ld\n", what, got, want);
    else
        printk("  ok   claim: %s: %ld\n", what, got);
}

/* Populate n single pages of domid from gfn: the extents done. */
static long populate(uint32_t domid, xen_pfn_t gfn, unsigned long n)
{
    xen_pfn_t list[64];
    unsigned long i;

    for ( i = 0; i < n && i < 64; i++ )
        list[i] = gfn + i;
    return xc_domain_populate_physmap(xch, domid, i, 0, 0, list);
}

static void phase_claim(void)
{
    struct xen_domctl_createdomain cfg = {
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap, .max_vcpus = 1,
        .max_evtchn_port = 1, .max_grant_frames = -1, .max_maptrack_frames = -1,
        .grant_opts = XEN_DOMCTL_GRANT_version(1),
    };
    unsigned long before = free_pages(), free_now, claim;
    uint32_t a = 0, b = 0;
    xen_pfn_t one = 0;

    printk("claim: %lu pages free, %lu claimed\n", before, claims());
    if ( xc_domain_create(xch, &a, &cfg) || xc_domain_create(xch, &b, &cfg) )
        return xtf_failure("Fail: claim: creating two domains: errno %d\n", errno);
    /* a may hold the whole host; b 64 pages.  a gets 16 to begin with. */
    if ( xc_domain_setmaxmem(xch, a, (before + 64) * 4) || xc_domain_setmaxmem(xch, b, 64 * 4) ||
         populate(a, 0, 16) != 16 )
        return xtf_failure("Fail: claim: setting up d%u and d%u: errno %d\n", a, b, errno);

    expect_claim("an extent order", claim_raw(0, a, 100, 1, 0, NULL), -EINVAL);
    expect_claim("memory flags", claim_raw(0, a, 100, 0, 1, NULL), -EINVAL);
    expect_claim("an extent list", claim_raw(0, a, 100, 0, 0, &one), -EINVAL);
    expect_claim("a start extent", claim_raw(1, a, 100, 0, 0, NULL), -EINVAL);
    expect_claim("no such domain", claim_raw(0, 0x7fef, 100, 0, 0, NULL), -EINVAL);
    expect_claim("not above what it holds", claim_raw(0, a, 16, 0, 0, NULL), -EINVAL);
    expect_claim("above max_pages", claim_raw(0, b, 65, 0, 0, NULL), -EINVAL);
    free_now = free_pages();
    expect_claim("more than the host has free", claim_raw(0, a, 16 + free_now + 1, 0, 0, NULL),
                 -ENOMEM);
    expect_claim("nothing claimed after the refusals", claims(), 0);

    /* All but 8 of the free pages for a. */
    claim = free_now - 8;
    expect_claim("all but 8 free pages", claim_raw(0, a, 16 + claim, 0, 0, NULL), 0);
    expect_claim("physinfo's outstanding_pages", claims(), claim);
    expect_claim("getdomaininfo's outstanding_pages", dom_claim(a), claim);
    expect_claim("free pages still count the claim", free_pages(), free_now);
    expect_claim("a second claim", claim_raw(0, a, 16 + claim, 0, 0, NULL), -EINVAL);
    expect_claim("another domain populates past the claim", populate(b, 0, 16), 8);
    expect_claim("the claiming domain populates 32", populate(a, 16, 32), 32);
    expect_claim("its claim went down by 32", dom_claim(a), claim - 32);
    expect_claim("cancelled", claim_raw(0, a, 0, 0, 0, NULL), 0);
    expect_claim("nothing claimed after the cancel", claims(), 0);
    expect_claim("the other domain populates the rest", populate(b, 8, 8), 8);

    /* A claim its domain never uses goes with the domain. */
    expect_claim("claimed again", claim_raw(0, a, 48 + 100, 0, 0, NULL), 0);
    expect_claim("100 claimed", claims(), 100);
    destroy_wait(a);
    expect_claim("nothing claimed once it is gone", claims(), 0);
    destroy_and_check(b, before, "claim");
}

static void phase_pool_then_logdirty(void)
{
    unsigned long before = free_pages();
    const char *step;
    uint32_t domid;
    int reason;

    printk("pool used up, then log-dirty: %lu pages free before the domU\n", before);
    if ( build("case=limits signal=1", EVTCHNS, &domid, &step) )
        return xtf_failure("Fail: building the domU: %s: errno %d\n", step, errno);
    if ( xc_domain_unpause(xch, domid) )
        return xtf_failure("Fail: unpause d%u: errno %d\n", domid, errno);
    if ( !wait_mark(domid, DONE_MAGIC) )
        return xtf_failure("Fail: d%u never finished its limits\n", domid);
    if ( xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        return xtf_failure("Fail: log-dirty on d%u: errno %d\n", domid, errno);
    /* It crashes, and stays crashed (as in Xen) until destroyed. */
    reason = xc_wait_shutdown(xch, domid, MAX_WAITS);
    if ( reason != SHUTDOWN_crash )
        xtf_failure("Fail: d%u with log-dirty and no pool left: %d, not crashed\n", domid,
                    reason);
    else
        printk("  ok   d%u crashed on its write fault\n", domid);
    destroy_and_check(domid, before, "pool used up, then log-dirty");
}

/* xl mem-set <dom> <target>: max_pages = target + 1 MiB (libxl's enforce). */
static bool mem_set(uint32_t domid, unsigned long target_kb, unsigned int round)
{
    xc_domaininfo_t info;
    long tot;

    if ( xc_domain_setmaxmem(xch, domid, target_kb + 1024) )
    {
        xtf_failure("Fail: max_mem of d%u: errno %d\n", domid, errno);
        return false;
    }
    if ( !wait_mark(domid, DONE_MAGIC + round) )
    {
        xtf_failure("Fail: d%u did not reach its target of %lu KiB\n", domid, target_kb);
        return false;
    }
    tot = xc_domain_get_tot_pages(xch, domid);
    if ( xc_domain_getinfolist(xch, domid, 1, &info) != 1 || tot < 0 ||
         (unsigned long)tot != target_kb / 4 || info.tot_pages != (unsigned long)tot )
    {
        xtf_failure("Fail: d%u holds %ld pages (getdomaininfo %lu), target %lu\n", domid, tot,
                    (unsigned long)info.tot_pages, target_kb / 4);
        return false;
    }
    printk("  ok   target %lu KiB: d%u ballooned to %ld pages\n", target_kb, domid, tot);
    return true;
}

static void phase_driver(void)
{
    unsigned long before = free_pages();
    const char *step;
    uint32_t domid;

    printk("balloon driver: %lu pages free before the domU\n", before);
    if ( build("case=driver", EVTCHNS, &domid, &step) )
        return xtf_failure("Fail: building the domU: %s: errno %d\n", step, errno);
    if ( xc_domain_unpause(xch, domid) )
        return xtf_failure("Fail: unpause d%u: errno %d\n", domid, errno);
    if ( !wait_mark(domid, DONE_MAGIC) )
        return xtf_failure("Fail: d%u's balloon driver never started\n", domid);
    if ( mem_set(domid, 8 * 1024, 1) && mem_set(domid, 12 * 1024, 2) )
        mem_set(domid, 7 * 1024, 3);
    destroy_and_check(domid, before, "balloon driver");
}

void test_main(void)
{
    const struct hvm_modlist_entry *mod;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( !start_info || !start_info->nr_modules )
        return xtf_error("Error: no guest image (a boot module marked initrd)\n");
    mod = (const void *)(uintptr_t)start_info->modlist_paddr;
    image = (const void *)(uintptr_t)mod->paddr;
    image_size = mod->size;
    if ( !(xch = xc_interface_open(NULL, NULL, 0)) )
        return xtf_error("Error: cannot open the control interface\n");

    phase_limits();
    phase_pool_then_logdirty();
    phase_driver();
    phase_claim();
    xc_interface_close(xch);
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: every bound held, and the heap came back each time\n");
}

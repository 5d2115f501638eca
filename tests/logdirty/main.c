/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty paging, checked against what the guest wrote.
 *
 * Domain 0 (this kernel, the control domain) drives domain 1 (tests/dirtier)
 * through libxenctrl and libxendevicemodel, exactly as a toolstack would,
 * and checks every bitmap against the writer's own record (dirty-test.h):
 * no written page may ever be missing, and no page that was not written may
 * appear.  Rounds are taken with the domU paused (exact sets) and running
 * (CLEAN racing with the writes: bounds), small and larger than a PML
 * buffer; then PEEK, OFF/ENABLE, dirty-VRAM tracking, the error cases, and
 * the counters (PML-full exits versus write-protection faults).
 *
 * Guest command line: domu=<id> (default 1), vram=<pages> (default 256).
 */
#include "dirty-check.h"
#include <xendevicemodel.h>
#include <sys/mman.h>
#include <errno.h>
#include <string.h>

const char test_title[] = "Log-dirty paging: global and VRAM, checked against the writer";

static xendevicemodel_handle *dmod;

static void expect_errno(const char *what, int rc, int want)
{
    if ( rc == -want )
        printk("%s: %d as expected\n", what, rc);
    else
    {
        failures++;
        xtf_failure("Fail: %s returned %d, expected %d\n", what, rc, -want);
    }
}

static int raw_shadow_op(uint32_t dom, unsigned int op, void *bitmap_ptr,
                         unsigned long pages)
{
    struct xen_domctl d;

    memset(&d, 0, sizeof(d));
    d.cmd = XEN_DOMCTL_shadow_op;
    d.interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d.domain = dom;
    d.u.shadow_op.op = op;
    d.u.shadow_op.pages = pages;
    set_xen_guest_handle_raw(d.u.shadow_op.dirty_bitmap, (uint8_t *)bitmap_ptr);
    return xc_domctl(xch, &d) ? -errno : 0;
}

/* A dm_op with an op number Xen does not have. */
static int raw_dm_op(uint32_t dom, uint32_t op)
{
    struct xen_dm_op dmop;
    struct xen_dm_op_buf buf;

    memset(&dmop, 0, sizeof(dmop));
    dmop.op = op;
    set_xen_guest_handle_raw(buf.h, &dmop);
    buf.size = sizeof(dmop);
    return hypercall6(__HYPERVISOR_dm_op, dom, 1, (unsigned long)&buf, 0, 0);
}

static void test_peek_and_off(xc_hypercall_buffer_t *buf, unsigned long *bitmap)
{
    struct mark m0, m1, m2;
    int rc;

    /* PEEK does not clear or re-arm: the CLEAN after it sees both spans. */
    pause_and_measure(&m0);
    rc = logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    xc_domain_unpause(xch, domu);
    run_domu(400);
    pause_and_measure(&m1);
    rc = rc ?: logdirty_op(XEN_DOMCTL_SHADOW_OP_PEEK, buf, NULL);
    expected_since(&m0, &m1);
    check_bitmap("PEEK", bitmap, bm_must, bm_may);
    xc_domain_unpause(xch, domu);
    run_domu(400);
    pause_and_measure(&m2);
    rc = rc ?: logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    expected_since(&m0, &m2);
    check_bitmap("CLEAN after PEEK", bitmap, bm_must, bm_may);
    if ( rc )
        xtf_failure("Fail: PEEK/CLEAN: %d\n", rc);
    last = m2;

    /* A CLEAN with a bad bitmap fails and clears nothing. */
    xc_domain_unpause(xch, domu);
    run_domu(300);
    pause_and_measure(&m1);
    expect_errno("CLEAN into a bitmap outside our memory",
                 raw_shadow_op(domu, XEN_DOMCTL_SHADOW_OP_CLEAN,
                               (void *)0x7fff00000000UL, domu_pages), EFAULT);
    rc = logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    expected_since(&last, &m1);
    check_bitmap("CLEAN after a failed CLEAN", bitmap, bm_must, bm_may);
    last = m1;

    /* OFF, writes while untracked, ENABLE: only the new writes appear. */
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) )
        xtf_failure("Fail: OFF: %d\n", -errno);
    expect_errno("CLEAN while log-dirty is off",
                 logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL), EINVAL);
    xc_domain_unpause(xch, domu);
    run_domu(500);
    pause_and_measure(&m0);
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        xtf_failure("Fail: ENABLE again: %d\n", -errno);
    xc_domain_unpause(xch, domu);
    run_domu(400);
    pause_and_measure(&m1);
    rc = logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
    expected_since(&m0, &m1);
    check_bitmap("CLEAN after OFF and ENABLE", bitmap, bm_must, bm_may);
    last = m1;
    xc_domain_unpause(xch, domu);
}

/* Cut the expected sets down to the frames of [first, first + nr). */
static void vram_expected(unsigned long *must, unsigned long *may,
                          const struct mark *from, const struct mark *now,
                          unsigned long first, unsigned long nr)
{
    unsigned long pfn;

    expected_since(from, now);
    memset(must, 0, DIV_ROUND_UP(nr, 8));
    memset(may, 0, DIV_ROUND_UP(nr, 8));
    for ( pfn = first; pfn < first + nr; pfn++ )
    {
        if ( test_bit(bm_must, pfn) )
            set_bit(must, pfn - first);
        if ( test_bit(bm_may, pfn) )
            set_bit(may, pfn - first);
    }
}

static void check_vram(const char *what, const unsigned long *got,
                       const unsigned long *must, const unsigned long *may,
                       unsigned long nr)
{
    unsigned long i, bad = 0, set = 0;

    for ( i = 0; i < nr; i++ )
    {
        bool b = test_bit(got, i);

        set += b;
        if ( (test_bit(must, i) && !b) || (b && !test_bit(may, i)) )
            if ( bad++ < 4 )
                printk("  %s: frame %lu: got %d, expected %s\n", what, i, b,
                       test_bit(must, i) ? "1" : "0");
    }
    printk("%s: %lu of %lu frames dirty, %lu wrong\n", what, set, nr, bad);
    if ( bad )
    {
        failures++;
        xtf_failure("Fail: %s: %lu frames wrong\n", what, bad);
    }
}

static bool all_ones(const unsigned long *bits, unsigned long nr)
{
    unsigned long i;

    for ( i = 0; i < nr; i++ )
        if ( !test_bit(bits, i) )
            return false;
    return true;
}

static void test_vram(unsigned long nr)
{
    static unsigned long vbits[4096 / BITS_PER_LONG], must[4096 / BITS_PER_LONG],
                         may[4096 / BITS_PER_LONG];
    /* Room for the refused > 1 GiB call, whatever the library copies back. */
    static unsigned long big[((1u << 18) + 64) / BITS_PER_LONG];
    unsigned long first = DT_VRAM_GFN;
    struct mark m;
    int rc, r;

    if ( nr > 4096 )
        nr = 4096;

    /* Global log-dirty off: VRAM tracking on its own. */
    pause_and_measure(&last);
    xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);

    rc = xendevicemodel_track_dirty_vram(dmod, domu, first, nr, vbits);
    if ( rc || !all_ones(vbits, nr) )
        xtf_failure("Fail: first VRAM call: rc %d, %s\n", rc ? -errno : 0,
                    all_ones(vbits, nr) ? "all ones" : "not all ones");
    else
        printk("VRAM first call: all %lu frames dirty, as Xen\n", nr);

    for ( r = 0; r < 3; r++ )
    {
        xc_domain_unpause(xch, domu);
        run_domu(300);
        pause_and_measure(&m);
        rc = xendevicemodel_track_dirty_vram(dmod, domu, first, nr, vbits);
        if ( rc )
            xtf_failure("Fail: VRAM read: %d\n", -errno);
        vram_expected(must, may, &last, &m, first, nr);
        check_vram("VRAM read", vbits, must, may, nr);
        last = m;
    }

    /* A new range: all ones again, then exact for the new range. */
    first += 37;
    rc = xendevicemodel_track_dirty_vram(dmod, domu, first, nr, vbits);
    if ( rc || !all_ones(vbits, nr) )
        xtf_failure("Fail: VRAM range change: rc %d, not all ones\n", rc ? -errno : 0);
    else
        printk("VRAM range change: all %lu frames dirty, as Xen\n", nr);
    xc_domain_unpause(xch, domu);
    run_domu(300);
    pause_and_measure(&m);
    rc = xendevicemodel_track_dirty_vram(dmod, domu, first, nr, vbits);
    vram_expected(must, may, &last, &m, first, nr);
    check_vram("VRAM read, new range", vbits, must, may, nr);
    last = m;

    /* Bad ranges are refused and change nothing. */
    rc = xendevicemodel_track_dirty_vram(dmod, domu, domu_pages - 8, 64, vbits);
    expect_errno("VRAM range past the end of the guest", rc ? -errno : 0, EINVAL);
    rc = xendevicemodel_track_dirty_vram(dmod, domu, 0, (1u << 18) + 1, big);
    expect_errno("VRAM range over 1 GiB", rc ? -errno : 0, EINVAL);
    xc_domain_unpause(xch, domu);
    run_domu(200);
    pause_and_measure(&m);
    rc = xendevicemodel_track_dirty_vram(dmod, domu, first, nr, vbits);
    vram_expected(must, may, &last, &m, first, nr);
    check_vram("VRAM read after refused calls", vbits, must, may, nr);
    last = m;

    /* nr = 0 stops tracking: log-dirty is off again. */
    rc = xendevicemodel_track_dirty_vram(dmod, domu, 0, 0, NULL);
    if ( rc )
        xtf_failure("Fail: VRAM stop: %d\n", -errno);
    xc_domain_unpause(xch, domu);
}

static void test_bad_arguments(xc_hypercall_buffer_t *buf)
{
    expect_errno("shadow_op on the calling domain itself",
                 raw_shadow_op(0, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0), EINVAL);
    expect_errno("shadow_op on a domain that does not exist",
                 raw_shadow_op(77, XEN_DOMCTL_SHADOW_OP_PEEK, NULL, 0), ESRCH);
    expect_errno("unknown shadow_op", raw_shadow_op(domu, 99, NULL, 0), EINVAL);
    expect_errno("ENABLE_LOGDIRTY twice",
                 raw_shadow_op(domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0), EINVAL);
    expect_errno("unknown dm_op", raw_dm_op(domu, 99), EOPNOTSUPP);
    (void)buf;
}

static void report_counters(void)
{
    xen_domctl_dirty_stats_t st;
    xen_dirty_vcpu_stats_t vs[DT_MAX_VCPUS];
    unsigned int n = DT_MAX_VCPUS, v;

    if ( xc_dirty_stats(xch, domu, &st, vs, &n) )
    {
        xtf_error("Error: xc_dirty_stats: %d\n", -errno);
        return;
    }
    printk("counters: mechanism %s, %lu pages dirtied, %lu PML-full exits, "
           "%lu write-protection faults, %lu CLEANs, %lu PEEKs, %lu VRAM reads\n",
           st.mechanism == XEN_DIRTY_MECH_PML ? "PML" :
           st.mechanism == XEN_DIRTY_MECH_WP ? "write protection" : "none",
           (unsigned long)st.dirty_pages, (unsigned long)st.pml_full_exits,
           (unsigned long)st.fault_count, (unsigned long)st.clean_calls,
           (unsigned long)st.peek_calls, (unsigned long)st.vram_calls);
    printk("counters: %lu superpages split on first write, %lu CLEAN/PEEK continuations\n",
           (unsigned long)st.superpages_split, (unsigned long)st.clean_preempted);
    for ( v = 0; v < n && v < DT_MAX_VCPUS; v++ )
        printk("  d%uv%u: %lu PML-full exits, %lu PML entries, %lu WP faults, %lu pages dirtied\n",
               domu, v, (unsigned long)vs[v].pml_full_exits,
               (unsigned long)vs[v].pml_entries, (unsigned long)vs[v].wp_faults,
               (unsigned long)vs[v].pages_dirtied);
}

void test_main(void)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    dmod = xendevicemodel_open(NULL, 0);
    if ( !dmod )
        return xtf_error("Error: cannot open libxendevicemodel\n");
    if ( dc_attach(cmdline_ulong("domu", 1)) )
        return;

    bitmap = xc_hypercall_buffer_alloc(xch, bitmap, DIV_ROUND_UP(domu_pages, 8));
    if ( !bitmap )
        return xtf_error("Error: no hypercall buffer\n");

    /* Start tracking with the writer stopped at a known step. */
    pause_and_measure(&last);
    ctrl->go = DT_GO_RUN;
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        return xtf_failure("Fail: ENABLE_LOGDIRTY: %d\n", -errno);
    xc_domain_unpause(xch, domu);

    clean_rounds("paused", HYPERCALL_BUFFER(bitmap), bitmap, 3, 200, true);
    clean_rounds("paused, > 512 pages", HYPERCALL_BUFFER(bitmap), bitmap, 2, 3000, true);
    clean_rounds("racing", HYPERCALL_BUFFER(bitmap), bitmap, 4, 500, false);
    clean_rounds("racing, > 512 pages", HYPERCALL_BUFFER(bitmap), bitmap, 2, 3000, false);
    test_peek_and_off(HYPERCALL_BUFFER(bitmap), bitmap);
    test_bad_arguments(HYPERCALL_BUFFER(bitmap));
    report_counters();
    test_vram(cmdline_ulong("vram", 256));

    /* Stop the writer and let it report. */
    ctrl->go = DT_GO_STOP;
    while ( ctrl->stopped != nr_vcpus )
        hypercall_yield();
    xc_hypercall_buffer_free(xch, bitmap);
    xenforeignmemory_unmap(fmem, ctrl, 1);

    if ( !failures && xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: every bitmap matched the writer's record\n");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty and dirty-VRAM calls: xc_shadow_control, xc_logdirty_control,
 * xendevicemodel_track_dirty_vram, and this project's counters.
 */
#include <errno.h>
#include <string.h>

#include <xendevicemodel.h>

#include "harness.h"

static long shadow_mb(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;

    (void)c;
    d->u.shadow_op.mb = 64;
    return 0;
}

static long fail_einval(struct fake_call *c, void *live)
{
    (void)c;
    (void)live;
    return -EINVAL;
}

static void test_shadow_control(void)
{
    xc_interface *xch = open_xch(NULL);
    struct fake_call *c;
    unsigned int mb = 16;

    CHECK(xc_shadow_control(xch, 3, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY,
                            NULL, 0) == 0, "ENABLE_LOGDIRTY failed");
    c = CALL(0);
    CHECK_DOMCTL(c, XEN_DOMCTL_shadow_op, 3);
    CHECK(c->domctl.u.shadow_op.op == XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY &&
          c->domctl.u.shadow_op.mode == 0 && c->domctl.u.shadow_op.mb == 0 &&
          c->domctl.u.shadow_op.pages == 0 &&
          !c->domctl.u.shadow_op.dirty_bitmap.p,
          "shadow_op {op %u mode %u mb %u}", c->domctl.u.shadow_op.op,
          c->domctl.u.shadow_op.mode, c->domctl.u.shadow_op.mb);

    /* ENABLE with a mode, and mb passed both ways. */
    fake_answer(shadow_mb);
    CHECK(xc_shadow_control(xch, 3, XEN_DOMCTL_SHADOW_OP_ENABLE, &mb,
                            XEN_DOMCTL_SHADOW_ENABLE_LOG_DIRTY) == 0,
          "ENABLE failed");
    c = CALL(0);
    CHECK(c->domctl.u.shadow_op.op == XEN_DOMCTL_SHADOW_OP_ENABLE &&
          c->domctl.u.shadow_op.mode == XEN_DOMCTL_SHADOW_ENABLE_LOG_DIRTY &&
          c->domctl.u.shadow_op.mb == 16, "ENABLE: op %u mode %u mb %u",
          c->domctl.u.shadow_op.op, c->domctl.u.shadow_op.mode,
          c->domctl.u.shadow_op.mb);
    CHECK(mb == 64, "mb not returned: %u", mb);

    fake_answer(fail_einval);
    CHECK_ERRNO(xc_shadow_control(xch, 3, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0),
                EINVAL, "xc_shadow_control");
    close_xch(xch);
}

/* CLEAN: set bits 0 and 65 in the bitmap the hypervisor was given. */
static long clean_bits(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;
    uint8_t *bm = d->u.shadow_op.dirty_bitmap.p;

    (void)c;
    if ( bm )
    {
        if ( !fake_is_safe(bm, (d->u.shadow_op.pages + 7) / 8) )
            return -EFAULT;
        bm[0] |= 1;
        bm[8] |= 2;
    }
    d->u.shadow_op.pages = 100;
    d->u.shadow_op.stats.fault_count = 5;
    d->u.shadow_op.stats.dirty_count = 7;
    return 0;
}

static void test_logdirty_control(void)
{
    xc_interface *xch = open_xch(clean_bits);
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);
    xc_shadow_op_stats_t stats = { 0, 0 };
    struct fake_call *c;
    long long rc;

    bitmap = xc_hypercall_buffer_alloc_pages(xch, bitmap, 1);
    CHECK(bitmap, "bitmap allocation failed");
    if ( !bitmap )
        return close_xch(xch);

    rc = xc_logdirty_control(xch, 4, XEN_DOMCTL_SHADOW_OP_CLEAN,
                             HYPERCALL_BUFFER(bitmap), 128,
                             XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL, &stats);
    CHECK(rc == 100, "returned %lld, expected the pages (100)", rc);
    c = CALL(0);
    CHECK_DOMCTL(c, XEN_DOMCTL_shadow_op, 4);
    CHECK(c->domctl.u.shadow_op.op == XEN_DOMCTL_SHADOW_OP_CLEAN &&
          c->domctl.u.shadow_op.mode == XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL &&
          c->domctl.u.shadow_op.pages == 128,
          "CLEAN: op %u mode %u pages %lu", c->domctl.u.shadow_op.op,
          c->domctl.u.shadow_op.mode,
          (unsigned long)c->domctl.u.shadow_op.pages);
    CHECK((void *)c->domctl.u.shadow_op.dirty_bitmap.p == (void *)bitmap,
          "dirty_bitmap handle is not the caller's hypercall buffer");
    CHECK(bitmap[0] == 1 && bitmap[1] == 2, "bitmap %#lx %#lx", bitmap[0],
          bitmap[1]);
    CHECK(stats.fault_count == 5 && stats.dirty_count == 7,
          "stats %u/%u", stats.fault_count, stats.dirty_count);

    /* PEEK without a bitmap: counters only, the handle stays NULL. */
    fake_answer(clean_bits);
    rc = xc_logdirty_control(xch, 4, XEN_DOMCTL_SHADOW_OP_PEEK, NULL, 0, 0,
                             NULL);
    CHECK(rc == 100, "PEEK returned %lld", rc);
    CHECK(!CALL(0)->domctl.u.shadow_op.dirty_bitmap.p,
          "NULL bitmap did not give a NULL handle");

    fake_answer(fail_einval);
    rc = xc_logdirty_control(xch, 4, XEN_DOMCTL_SHADOW_OP_CLEAN,
                             HYPERCALL_BUFFER(bitmap), 128, 0, &stats);
    CHECK_ERRNO(rc, EINVAL, "xc_logdirty_control");

    xc_hypercall_buffer_free_pages(xch, bitmap, 1);
    close_xch(xch);
}

/* track_dirty_vram: report frames 1 and 9 of the range. */
static long vram_bits(struct fake_call *c, void *live)
{
    xen_dm_op_buf_t *bufs = live;
    uint8_t *bm;

    if ( c->nr_dm_bufs != 2 || !c->dm_bufs_safe )
        return -EFAULT;
    bm = bufs[1].h.p;
    bm[0] = 0x02;
    bm[1] = 0x02;
    return 0;
}

static long fail_esrch(struct fake_call *c, void *live)
{
    (void)c;
    (void)live;
    return -ESRCH;
}

static void test_track_dirty_vram(void)
{
    xendevicemodel_handle *dmod;
    unsigned long bitmap[2] = { 0, 0 };
    struct fake_call *c;

    fake_fail_clear();
    dmod = xendevicemodel_open(capture_logger(), 0);
    CHECK(dmod, "xendevicemodel_open failed: errno %d", errno);
    if ( !dmod )
        return;

    fake_answer(vram_bits);
    CHECK(xendevicemodel_track_dirty_vram(dmod, 6, 0xa0, 70, bitmap) == 0,
          "track_dirty_vram failed: errno %d", errno);
    c = CALL(0);
    CHECK(c->op == __HYPERVISOR_dm_op && c->arg[0] == 6 && c->arg[1] == 2,
          "dm_op(%lu, %lu), op %lu", (unsigned long)c->arg[0],
          (unsigned long)c->arg[1], (unsigned long)c->op);
    CHECK(c->arg_safe && c->dm_bufs_safe,
          "dm_op buffers not in hypercall memory");
    CHECK(c->dm_bufs[0].size == sizeof(struct xen_dm_op) &&
          c->dm_bufs[1].size == (70 + 7) / 8,
          "buffer sizes %lu, %lu", (unsigned long)c->dm_bufs[0].size,
          (unsigned long)c->dm_bufs[1].size);
    CHECK(c->dm_op.op == XEN_DMOP_track_dirty_vram && c->dm_op.pad == 0 &&
          c->dm_op.u.track_dirty_vram.first_pfn == 0xa0 &&
          c->dm_op.u.track_dirty_vram.nr == 70 &&
          c->dm_op.u.track_dirty_vram.pad == 0,
          "xen_dm_op {op %u first_pfn %#lx nr %u}", c->dm_op.op,
          (unsigned long)c->dm_op.u.track_dirty_vram.first_pfn,
          c->dm_op.u.track_dirty_vram.nr);
    CHECK(bitmap[0] == 0x0202 && bitmap[1] == 0, "bitmap %#lx %#lx",
          bitmap[0], bitmap[1]);

    /* nr == 0 stops tracking: an empty second buffer. */
    fake_answer(fake_answer_zero);
    CHECK(xendevicemodel_track_dirty_vram(dmod, 6, 0, 0, NULL) == 0,
          "stop failed");
    CHECK(CALL(0)->dm_bufs[1].size == 0, "stop: bitmap size %lu",
          (unsigned long)CALL(0)->dm_bufs[1].size);

    fake_answer(fail_esrch);
    bitmap[0] = 0;
    CHECK_ERRNO(xendevicemodel_track_dirty_vram(dmod, 99, 0xa0, 70, bitmap),
                ESRCH, "xendevicemodel_track_dirty_vram");
    CHECK(bitmap[0] == 0, "bitmap written on failure");

    CHECK(xendevicemodel_close(dmod) == 0, "xendevicemodel_close failed");
    CHECK(fake_live_buffer_pages() == 0, "%lu page(s) leaked", fake_live_buffer_pages());
}

/* ---- this project's counters ----------------------------------------------- */

static long dirty_stats(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;
    xen_domctl_dirty_stats_t *st = (void *)&d->u;
    xen_dirty_vcpu_stats_t *v = st->vcpus.p;
    unsigned int i;

    (void)c;
    if ( d->cmd != XEN_DOMCTL_get_dirty_stats )
        return -ENOSYS;
    if ( v && !fake_is_safe(v, st->nr_vcpus * sizeof(*v)) )
        return -EFAULT;
    for ( i = 0; v && i < st->nr_vcpus && i < 3; i++ )
        v[i].pml_full_exits = 10 + i;
    st->mode = XEN_DIRTY_MODE_LOGDIRTY;
    st->mechanism = XEN_DIRTY_MECH_PML;
    st->nr_vcpus = 3;
    st->dirty_pages = 1234;
    st->clean_calls = 5;
    return 0;
}

static void test_dirty_stats(void)
{
    xc_interface *xch = open_xch(dirty_stats);
    xen_domctl_dirty_stats_t st;
    xen_dirty_vcpu_stats_t vcpus[2];
    unsigned int nr = 2;
    struct fake_call *c;
    const xen_domctl_dirty_stats_t *sent;

    memset(vcpus, 0, sizeof(vcpus));
    CHECK(xc_dirty_stats(xch, 8, &st, vcpus, &nr) == 0, "failed: errno %d",
          errno);
    c = CALL(0);
    CHECK_DOMCTL(c, XEN_DOMCTL_get_dirty_stats, 8);
    sent = (const void *)&c->domctl.u;
    CHECK(sent->nr_vcpus == 2 && sent->vcpus.p && sent->vcpus.p != vcpus,
          "sent nr_vcpus %u, vcpus %p", sent->nr_vcpus,
          (void *)sent->vcpus.p);
    CHECK(nr == 3, "nr_vcpus back %u, expected the domain's 3", nr);
    CHECK(vcpus[0].pml_full_exits == 10 && vcpus[1].pml_full_exits == 11,
          "per-vCPU counters not copied back");
    CHECK(st.mode == XEN_DIRTY_MODE_LOGDIRTY &&
          st.mechanism == XEN_DIRTY_MECH_PML && st.dirty_pages == 1234 &&
          st.clean_calls == 5 && !st.vcpus.p, "domain counters wrong");

    /* No array: a NULL handle and room 0. */
    fake_answer(dirty_stats);
    nr = 0;
    CHECK(xc_dirty_stats(xch, 8, &st, NULL, &nr) == 0 && nr == 3,
          "without an array: nr %u", nr);
    sent = (const void *)&CALL(0)->domctl.u;
    CHECK(!sent->vcpus.p && sent->nr_vcpus == 0, "handle %p room %u",
          (void *)sent->vcpus.p, sent->nr_vcpus);
    close_xch(xch);
}

static long exit_counts(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;
    xen_domctl_exit_counts_t *ec = (void *)&d->u;
    uint64_t *counts = ec->counts.p;

    (void)c;
    if ( ec->vcpu != 1 )
        return -ENOENT;
    if ( counts )
        counts[40] = 77;                /* PAUSE_INSTRUCTION */
    ec->nr_reasons = 65;
    return 0;
}

static void test_exit_counts(void)
{
    xc_interface *xch = open_xch(exit_counts);
    uint64_t counts[80];
    unsigned int nr = 80;
    const xen_domctl_exit_counts_t *sent;

    memset(counts, 0, sizeof(counts));
    CHECK(xc_vcpu_exit_counts(xch, 2, 1, counts, &nr) == 0, "failed");
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_get_exit_counts, 2);
    sent = (const void *)&CALL(0)->domctl.u;
    CHECK(sent->vcpu == 1 && sent->nr_reasons == 80 && sent->counts.p,
          "sent vcpu %u room %u", sent->vcpu, sent->nr_reasons);
    CHECK(nr == 65 && counts[40] == 77, "nr %u counts[40] %lu", nr,
          (unsigned long)counts[40]);

    fake_answer(exit_counts);
    nr = 80;
    CHECK_ERRNO(xc_vcpu_exit_counts(xch, 2, 5, counts, &nr), ENOENT,
                "xc_vcpu_exit_counts");
    close_xch(xch);
}

const struct test_case logdirty_tests[] = {
    { "shadow_control", test_shadow_control },
    { "logdirty_control", test_logdirty_control },
    { "track_dirty_vram", test_track_dirty_vram },
    { "dirty_stats", test_dirty_stats },
    { "vcpu_exit_counts", test_exit_counts },
    { NULL, NULL },
};

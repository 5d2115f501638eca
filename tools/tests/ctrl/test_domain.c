/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libxenctrl's domain calls: the domctl/sysctl each builds, and how results
 * and errors come back.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"

static long fail_esrch(struct fake_call *c, void *live)
{
    (void)c;
    (void)live;
    return -ESRCH;
}

/* pause, unpause, destroy: just cmd and domain, all else zero. */
static void simple_domctl(int (*fn)(xc_interface *, uint32_t), uint32_t cmd,
                          const char *name)
{
    xc_interface *xch = open_xch(NULL);
    struct fake_call *c;

    CHECK(fn(xch, 7) == 0, "%s(7) failed", name);
    CHECK(fake_nr_calls == 1, "%s: %u hypercalls", name, fake_nr_calls);
    c = CALL(0);
    CHECK_DOMCTL(c, cmd, 7);
    CHECK(all_zero(&c->domctl.u, sizeof(c->domctl.u)),
          "%s: domctl.u not zero", name);

    fake_answer(fail_esrch);
    CHECK_ERRNO(fn(xch, 0x7fef), ESRCH, name);
    close_xch(xch);
}

static void test_pause(void)
{
    simple_domctl(xc_domain_pause, XEN_DOMCTL_pausedomain, "xc_domain_pause");
}

static void test_unpause(void)
{
    simple_domctl(xc_domain_unpause, XEN_DOMCTL_unpausedomain,
                  "xc_domain_unpause");
}

static void test_destroy(void)
{
    simple_domctl(xc_domain_destroy, XEN_DOMCTL_destroydomain,
                  "xc_domain_destroy");
}

/* setdomainhandle: the 16 bytes of the UUID, the rest of u zero. */
static void test_sethandle(void)
{
    xc_interface *xch = open_xch(NULL);
    xen_domain_handle_t h;
    struct fake_call *c;

    for ( unsigned int i = 0; i < sizeof(h); i++ )
        h[i] = (uint8_t)(0x11 * i + 1);
    CHECK(xc_domain_sethandle(xch, 9, h) == 0, "sethandle failed");
    CHECK(fake_nr_calls == 1, "%u hypercalls", fake_nr_calls);
    c = CALL(0);
    CHECK_DOMCTL(c, XEN_DOMCTL_setdomainhandle, 9);
    CHECK(!memcmp(c->domctl.u.setdomainhandle.handle, h, sizeof(h)), "handle differs");
    CHECK(all_zero((uint8_t *)&c->domctl.u + sizeof(h), sizeof(c->domctl.u) - sizeof(h)),
          "domctl.u past the handle not zero");
    fake_answer(fail_esrch);
    CHECK_ERRNO(xc_domain_sethandle(xch, 0x7fef, h), ESRCH, "xc_domain_sethandle");
    close_xch(xch);
}

static void test_shutdown(void)
{
    xc_interface *xch = open_xch(NULL);
    struct fake_call *c;

    CHECK(xc_domain_shutdown(xch, 5, SHUTDOWN_crash) == 0, "shutdown failed");
    c = CALL(0);
    CHECK(c->op == __HYPERVISOR_sched_op, "op %lu, expected sched_op",
          (unsigned long)c->op);
    CHECK(c->arg[0] == SCHEDOP_remote_shutdown, "cmd %lu, expected %d",
          (unsigned long)c->arg[0], SCHEDOP_remote_shutdown);
    CHECK(c->arg_safe, "argument not in a hypercall buffer");
    CHECK(c->remote_shutdown.domain_id == 5 &&
          c->remote_shutdown.reason == SHUTDOWN_crash,
          "argument {%u, %u}", c->remote_shutdown.domain_id,
          c->remote_shutdown.reason);

    fake_answer(fail_esrch);
    CHECK_ERRNO(xc_domain_shutdown(xch, 99, SHUTDOWN_poweroff), ESRCH,
                "xc_domain_shutdown");
    close_xch(xch);
}

/* ---- getinfolist (sysctl) ------------------------------------------------- */

static long getinfolist_two(struct fake_call *c, void *live)
{
    struct xen_sysctl *s = live;
    xc_domaininfo_t *buf = s->u.getdomaininfolist.buffer.p;

    if ( !fake_is_safe(buf, s->u.getdomaininfolist.max_domains *
                            sizeof(*buf)) )
        return -EFAULT;
    (void)c;
    buf[0].domain = 0;
    buf[0].flags = XEN_DOMINF_running;
    buf[1].domain = 3;
    buf[1].flags = XEN_DOMINF_paused;
    buf[1].tot_pages = 2048;
    s->u.getdomaininfolist.num_domains = 2;
    return 0;
}

static long fail_eperm(struct fake_call *c, void *live)
{
    (void)c;
    (void)live;
    return -EPERM;
}

static void test_getinfolist(void)
{
    xc_interface *xch = open_xch(getinfolist_two);
    xc_domaininfo_t info[4];
    struct fake_call *c;
    int n;

    memset(info, 0xaa, sizeof(info));
    n = xc_domain_getinfolist(xch, 0, 4, info);
    CHECK(n == 2, "returned %d, expected 2", n);
    c = CALL(0);
    CHECK_SYSCTL(c, XEN_SYSCTL_getdomaininfolist);
    CHECK(c->sysctl.u.getdomaininfolist.first_domain == 0 &&
          c->sysctl.u.getdomaininfolist.max_domains == 4,
          "first %u max %u", c->sysctl.u.getdomaininfolist.first_domain,
          c->sysctl.u.getdomaininfolist.max_domains);
    CHECK(c->sysctl.u.getdomaininfolist.buffer.p != info,
          "the caller's array went to the hypervisor unbounced");
    CHECK(info[0].domain == 0 && info[1].domain == 3 &&
          info[1].flags == XEN_DOMINF_paused && info[1].tot_pages == 2048,
          "records not copied back");

    fake_answer(fail_eperm);
    CHECK_ERRNO(xc_domain_getinfolist(xch, 1, 4, info), EPERM,
                "xc_domain_getinfolist");
    close_xch(xch);
}

/* ---- getinfo (one domctl per domain) ---------------------------------------- */

/* Domains 0, 3 and 9; getdomaininfo returns the first id >= the one asked. */
static long getinfo_table(struct fake_call *c, void *live)
{
    static const struct {
        domid_t id;
        uint32_t flags;
    } doms[] = {
        { 0, XEN_DOMINF_running | XEN_DOMINF_hvm_guest | XEN_DOMINF_hap },
        { 3, XEN_DOMINF_paused | XEN_DOMINF_hvm_guest },
        { 9, XEN_DOMINF_shutdown | (SHUTDOWN_crash << XEN_DOMINF_shutdownshift) },
    };
    struct xen_domctl *d = live;
    unsigned int i;

    (void)c;
    if ( d->cmd != XEN_DOMCTL_getdomaininfo )
        return -ENOSYS;
    for ( i = 0; i < 3; i++ )
        if ( doms[i].id >= d->domain )
        {
            memset(&d->u.getdomaininfo, 0, sizeof(d->u.getdomaininfo));
            d->domain = doms[i].id;
            d->u.getdomaininfo.domain = doms[i].id;
            d->u.getdomaininfo.flags = doms[i].flags;
            d->u.getdomaininfo.tot_pages = 100 + i;
            d->u.getdomaininfo.max_pages = 256;
            d->u.getdomaininfo.nr_online_vcpus = 1 + i;
            d->u.getdomaininfo.max_vcpu_id = i;
            d->u.getdomaininfo.cpu_time = 1000 * i;
            d->u.getdomaininfo.gpaddr_bits = 52;
            return 0;
        }

    return -ESRCH;
}

static void test_getinfo(void)
{
    xc_interface *xch = open_xch(getinfo_table);
    xc_dominfo_t info[8];
    int n;

    n = xc_domain_getinfo(xch, 0, 8, info);
    CHECK(n == 3, "returned %d, expected 3", n);
    CHECK(fake_nr_calls == 4, "%u domctls, expected 4 (the last fails)",
          fake_nr_calls);
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_getdomaininfo, 0);
    CHECK_DOMCTL(CALL(1), XEN_DOMCTL_getdomaininfo, 1);
    CHECK_DOMCTL(CALL(2), XEN_DOMCTL_getdomaininfo, 4);
    CHECK_DOMCTL(CALL(3), XEN_DOMCTL_getdomaininfo, 10);

    CHECK(info[0].domid == 0 && info[1].domid == 3 && info[2].domid == 9,
          "domids %u %u %u", info[0].domid, info[1].domid, info[2].domid);
    CHECK(info[0].running && info[0].hvm && info[0].hap && !info[0].paused,
          "d0 flags decoded wrongly");
    CHECK(info[1].paused && !info[1].running && info[1].hvm && !info[1].hap,
          "d3 flags decoded wrongly");
    /* A crash is reported as crashed, not shutdown. */
    CHECK(info[2].crashed && !info[2].shutdown &&
          info[2].shutdown_reason == SHUTDOWN_crash,
          "d9: crashed %u shutdown %u reason %u", info[2].crashed,
          info[2].shutdown, info[2].shutdown_reason);
    CHECK(info[1].nr_pages == 101 && info[1].max_memkb == 1024 &&
          info[1].nr_online_vcpus == 2 && info[1].max_vcpu_id == 1 &&
          info[1].cpu_time == 1000 && info[1].gpaddr_bits == 52,
          "d3 numbers decoded wrongly");

    /* Asking for one domain gives the next existing one. */
    fake_answer(getinfo_table);
    n = xc_domain_getinfo(xch, 4, 1, info);
    CHECK(n == 1 && info[0].domid == 9, "getinfo(4, 1): %d, d%u", n,
          info[0].domid);
    CHECK(fake_nr_calls == 1, "%u domctls for one domain", fake_nr_calls);

    fake_answer(getinfo_table);
    CHECK_ERRNO(xc_domain_getinfo(xch, 10, 1, info), ESRCH,
                "xc_domain_getinfo past the end");
    close_xch(xch);
}

/* A mismatched interface version is EACCES, logged as a hint. */
static long fail_eacces(struct fake_call *c, void *live)
{
    (void)c;
    (void)live;
    return -EACCES;
}

static void test_version_mismatch(void)
{
    xc_interface *xch = open_xch(fail_eacces);

    CHECK_ERRNO(xc_domain_pause(xch, 1), EACCES, "xc_domain_pause");
    close_xch(xch);
}

/* The domctl envelope: whatever the caller put in version is replaced. */
static void test_raw_domctl(void)
{
    xc_interface *xch = open_xch(NULL);
    struct xen_domctl d = {
        .cmd = XEN_DOMCTL_max_vcpus,
        .interface_version = 0x1234,
        .domain = 2,
        .u.max_vcpus.max = 4,
    };

    CHECK(xc_domctl(xch, &d) == 0, "xc_domctl failed");
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_max_vcpus, 2);
    CHECK(CALL(0)->domctl.u.max_vcpus.max == 4, "payload lost");
    close_xch(xch);
}

/* ---- reservations, the paging pool ---------------------------------------------- */

/* As the hypervisor: some extents done, and the list written back untouched. */
static long two_done(struct fake_call *c, void *live)
{
    (void)c; (void)live;
    return 2;
}

static void test_reservations(void)
{
    xc_interface *xch = open_xch(two_done);
    xen_pfn_t gfns[3] = { 0x400, 0x800, 0x1000 };
    struct fake_call *c;

    CHECK(xc_domain_decrease_reservation(xch, 5, 3, 9, gfns) == 2, "decrease: not 2 done");
    c = CALL(0);
    CHECK(c->op == __HYPERVISOR_memory_op && c->arg[0] == XENMEM_decrease_reservation,
          "op %lu cmd %lu", (unsigned long)c->op, (unsigned long)c->arg[0]);
    CHECK(c->arg_safe && c->extents_safe, "arguments not in hypercall buffers");
    CHECK(c->reservation.nr_extents == 3 && c->reservation.extent_order == 9 &&
          c->reservation.domid == 5 && c->reservation.mem_flags == 0,
          "reservation {%lu, %u, %u, %#x}", (unsigned long)c->reservation.nr_extents,
          c->reservation.extent_order, c->reservation.domid, c->reservation.mem_flags);
    CHECK(c->extents[0] == 0x400 && c->extents[1] == 0x800 && c->extents[2] == 0x1000,
          "extents %#lx %#lx %#lx", (unsigned long)c->extents[0],
          (unsigned long)c->extents[1], (unsigned long)c->extents[2]);
    CHECK_ERRNO(xc_domain_decrease_reservation_exact(xch, 5, 3, 0, gfns), EINVAL,
                "decrease_exact with 2 of 3");
    CHECK_ERRNO(xc_domain_decrease_reservation(xch, 5, 3, 0, NULL), EINVAL,
                "decrease of no list");
    CHECK(xc_domain_decrease_reservation_exact(xch, 5, 2, 0, gfns) == 0, "2 of 2 not 0");

    fake_answer(two_done);
    CHECK(xc_domain_increase_reservation(xch, DOMID_SELF, 4, 0, 0, NULL) == 2,
          "increase: not 2 done");
    c = CALL(0);
    CHECK(c->arg[0] == XENMEM_increase_reservation && c->reservation.nr_extents == 4 &&
          c->reservation.domid == DOMID_SELF && !c->reservation.extent_start.p,
          "increase: cmd %lu nr %lu", (unsigned long)c->arg[0],
          (unsigned long)c->reservation.nr_extents);
    CHECK_ERRNO(xc_domain_increase_reservation_exact(xch, 5, 4, 0, 0, NULL), ENOMEM,
                "increase_exact with 2 of 4");
    close_xch(xch);
    CHECK(fake_live_buffer_pages() == 0, "hypercall buffers leaked");
}

static long answer_123(struct fake_call *c, void *live)
{
    (void)c; (void)live;
    return 123;
}

static void test_reservation_queries(void)
{
    xc_interface *xch = open_xch(answer_123);
    xen_pfn_t gpfns = 0;
    struct fake_call *c;

    CHECK(xc_domain_get_tot_pages(xch, 3) == 123, "tot_pages");
    c = CALL(0);
    CHECK(c->arg[0] == XENMEM_current_reservation && c->arg_safe &&
          c->memory_domain.domid == 3, "current_reservation of d%u", c->memory_domain.domid);
    CHECK(xc_domain_maximum_gpfn(xch, 3, &gpfns) == 0 && gpfns == 123, "maximum_gpfn %lu",
          (unsigned long)gpfns);
    CHECK(CALL(1)->arg[0] == XENMEM_maximum_gpfn, "maximum_gpfn cmd");
    fake_answer(fail_esrch);
    CHECK_ERRNO(xc_domain_get_tot_pages(xch, 0x7fef), ESRCH, "tot_pages of no domain");
    close_xch(xch);
}

static long mempool_answer(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;

    (void)c;
    if ( d->cmd == XEN_DOMCTL_get_paging_mempool_size )
        d->u.paging_mempool.size = 0x200000;
    if ( d->cmd == XEN_DOMCTL_get_domain_memory )
    {
        struct xen_domctl_domain_memory *m = (void *)&d->u;

        m->tot_pages = 2048;
        m->pool_pages = 512;
        m->heap_limit = 70;
    }
    return 0;
}

static void test_paging_mempool(void)
{
    xc_interface *xch = open_xch(mempool_answer);
    struct xen_domctl_domain_memory m;
    uint64_t size = 0;

    CHECK(xc_set_paging_mempool_size(xch, 4, 0x300000) == 0, "set failed");
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_set_paging_mempool_size, 4);
    CHECK(CALL(0)->domctl.u.paging_mempool.size == 0x300000, "size %#lx",
          (unsigned long)CALL(0)->domctl.u.paging_mempool.size);
    CHECK(xc_get_paging_mempool_size(xch, 4, &size) == 0 && size == 0x200000,
          "get: %#lx", (unsigned long)size);
    CHECK_DOMCTL(CALL(1), XEN_DOMCTL_get_paging_mempool_size, 4);
    CHECK(xc_domain_get_memory(xch, 4, &m) == 0 && m.tot_pages == 2048 &&
          m.pool_pages == 512 && m.heap_limit == 70, "get_domain_memory");
    CHECK_DOMCTL(CALL(2), XEN_DOMCTL_get_domain_memory, 4);
    fake_answer(fail_esrch);
    CHECK_ERRNO(xc_set_paging_mempool_size(xch, 0x7fef, 0), ESRCH, "set of no domain");
    close_xch(xch);
}

/* getpageframeinfo3 marks the second gfn XTAB; gettscinfo answers mode 0. */
static bool pfinfo_array_safe;

static long pfinfo_tsc_answer(struct fake_call *c, void *live)
{
    struct xen_domctl *d = live;

    (void)c;
    if ( d->cmd == XEN_DOMCTL_getpageframeinfo3 )
    {
        xen_pfn_t *a = d->u.getpageframeinfo3.array.p;

        pfinfo_array_safe = fake_is_safe(a, 2 * sizeof(*a));
        if ( pfinfo_array_safe )
            a[1] |= XEN_DOMCTL_PFINFO_XTAB;
    }
    if ( d->cmd == XEN_DOMCTL_gettscinfo )
    {
        d->u.tsc_info.tsc_mode = 0;
        d->u.tsc_info.gtsc_khz = 50000;
        d->u.tsc_info.incarnation = 3;
        d->u.tsc_info.elapsed_nsec = 123456789;
    }
    return 0;
}

static void test_pfinfo_tscinfo(void)
{
    xc_interface *xch = open_xch(pfinfo_tsc_answer);
    xen_pfn_t pfns[2] = { 0x10, 0xfeffc };
    uint32_t mode = 9, khz = 0, inc = 0;
    uint64_t nsec = 0;

    CHECK(xc_get_pfn_type_batch(xch, 5, 2, pfns) == 0, "get_pfn_type_batch failed");
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_getpageframeinfo3, 5);
    CHECK(CALL(0)->domctl.u.getpageframeinfo3.num == 2 && pfinfo_array_safe,
          "num %lu, array in a hypercall buffer %d",
          (unsigned long)CALL(0)->domctl.u.getpageframeinfo3.num, pfinfo_array_safe);
    CHECK(pfns[0] == 0x10 && pfns[1] == (0xfeffc | XEN_DOMCTL_PFINFO_XTAB),
          "types back: %#lx %#lx", (unsigned long)pfns[0], (unsigned long)pfns[1]);
    CHECK(xc_domain_get_tsc_info(xch, 5, &mode, &nsec, &khz, &inc) == 0 &&
          mode == 0 && khz == 50000 && inc == 3 && nsec == 123456789,
          "get_tsc_info: mode %u khz %u inc %u nsec %lu", mode, khz, inc,
          (unsigned long)nsec);
    CHECK_DOMCTL(CALL(1), XEN_DOMCTL_gettscinfo, 5);
    CHECK(xc_domain_set_tsc_info(xch, 6, 2, 42, 50000, 7) == 0, "set_tsc_info failed");
    CHECK_DOMCTL(CALL(2), XEN_DOMCTL_settscinfo, 6);
    CHECK(CALL(2)->domctl.u.tsc_info.tsc_mode == 2 &&
          CALL(2)->domctl.u.tsc_info.elapsed_nsec == 42 &&
          CALL(2)->domctl.u.tsc_info.gtsc_khz == 50000 &&
          CALL(2)->domctl.u.tsc_info.incarnation == 7, "settscinfo's fields");
    fake_answer(fail_esrch);
    CHECK_ERRNO(xc_get_pfn_type_batch(xch, 0x7fef, 2, pfns), ESRCH, "pfn types of no domain");
    close_xch(xch);
    CHECK(fake_live_buffer_pages() == 0, "hypercall buffers leaked");
}

/* A host of 12 CPUs (2-byte maps); vCPU 1 of d6 runs on CPU 9. */
static bool affinity_maps_safe;

static long vcpu_answer(struct fake_call *c, void *live)
{
    if ( c->op == __HYPERVISOR_sysctl )
    {
        struct xen_sysctl *sc = live;

        if ( sc->cmd == XEN_SYSCTL_physinfo )
        {
            sc->u.physinfo.max_cpu_id = 11;
            sc->u.physinfo.nr_cpus = 12;
        }
        return 0;
    }
    if ( c->op == __HYPERVISOR_domctl )
    {
        struct xen_domctl *d = live;

        if ( d->cmd == XEN_DOMCTL_getvcpuinfo )
        {
            if ( d->u.getvcpuinfo.vcpu > 1 )
                return -ESRCH;
            d->u.getvcpuinfo.online = 1;
            d->u.getvcpuinfo.running = 1;
            d->u.getvcpuinfo.cpu_time = 123456789;
            d->u.getvcpuinfo.cpu = 9;
        }
        if ( d->cmd == XEN_DOMCTL_getvcpuaffinity )
        {
            struct xen_domctl_vcpuaffinity *va = &d->u.vcpuaffinity;
            uint8_t *hard = va->cpumap_hard.bitmap.p;
            uint8_t *soft = va->cpumap_soft.bitmap.p;

            affinity_maps_safe = fake_is_safe(hard, 2) && fake_is_safe(soft, 2);
            if ( affinity_maps_safe )
            {
                hard[0] = 0x00, hard[1] = 0x02;     /* CPU 9 */
                soft[0] = 0xff, soft[1] = 0x0f;     /* all 12 */
            }
        }
    }
    return 0;
}

static void test_vcpu_info_affinity(void)
{
    xc_interface *xch = open_xch(vcpu_answer);
    xc_vcpuinfo_t vi;
    uint8_t hard[2] = { 0xaa, 0xaa }, soft[2] = { 0 };
    struct fake_call *c;

    CHECK(xc_get_max_cpus(xch) == 12 && xc_get_cpumap_size(xch) == 2,
          "12 CPUs, 2-byte maps");
    fake_answer(vcpu_answer);
    CHECK(xc_vcpu_getinfo(xch, 6, 1, &vi) == 0 && vi.online && vi.running &&
          vi.cpu == 9 && vi.cpu_time == 123456789, "getvcpuinfo");
    CHECK_DOMCTL(CALL(0), XEN_DOMCTL_getvcpuinfo, 6);
    CHECK(CALL(0)->domctl.u.getvcpuinfo.vcpu == 1, "vcpu %u",
          CALL(0)->domctl.u.getvcpuinfo.vcpu);
    CHECK_ERRNO(xc_vcpu_getinfo(xch, 6, 2, &vi), ESRCH, "past the last vCPU");

    fake_answer(vcpu_answer);
    CHECK(xc_vcpu_getaffinity(xch, 6, 1, hard, soft,
                              XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT) == 0,
          "getvcpuaffinity");
    c = CALL(fake_nr_calls - 1);
    CHECK_DOMCTL(c, XEN_DOMCTL_getvcpuaffinity, 6);
    CHECK(c->domctl.u.vcpuaffinity.vcpu == 1 &&
          c->domctl.u.vcpuaffinity.flags ==
              (XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT) &&
          c->domctl.u.vcpuaffinity.cpumap_hard.nr_bits == 16 &&
          c->domctl.u.vcpuaffinity.cpumap_soft.nr_bits == 16,
          "vcpu, flags and 16-bit maps");
    CHECK(affinity_maps_safe, "the maps are hypercall buffers");
    CHECK(hard[0] == 0x00 && hard[1] == 0x02 && soft[0] == 0xff &&
          soft[1] == 0x0f, "maps copied back: %02x%02x %02x%02x", hard[0],
          hard[1], soft[0], soft[1]);
    CHECK_ERRNO(xc_vcpu_getaffinity(xch, 6, 1, NULL, soft,
                                    XEN_VCPUAFFINITY_HARD), EINVAL,
                "a hard map asked for but not given");
    close_xch(xch);
}

const struct test_case domain_tests[] = {
    { "vcpu_info_affinity", test_vcpu_info_affinity },
    { "domain_pause", test_pause },
    { "domain_unpause", test_unpause },
    { "domain_destroy", test_destroy },
    { "domain_sethandle", test_sethandle },
    { "domain_shutdown", test_shutdown },
    { "domain_getinfolist", test_getinfolist },
    { "domain_getinfo", test_getinfo },
    { "domctl_version_mismatch", test_version_mismatch },
    { "domctl_raw", test_raw_domctl },
    { "reservations", test_reservations },
    { "reservation_queries", test_reservation_queries },
    { "paging_mempool", test_paging_mempool },
    { "pfn_types_tsc_info", test_pfinfo_tscinfo },
    { NULL, NULL },
};

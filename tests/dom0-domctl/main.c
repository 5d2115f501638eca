/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libxenctrl in the control domain, through libxencall's direct backend:
 * the same library sources a Linux control domain uses, driving real
 * domains.
 *
 * Domain 0 (this kernel) expects domain 1 (and optionally domain 2) to be
 * tests/domctl-domu in "spin" mode: a domU that would run forever.  It
 *
 *   - reads the version, the host (xc_physinfo) and the domain list
 *     (xc_domain_getinfolist, xc_domain_getinfo);
 *   - pauses domain 1 (its CPU time must stand still, the paused flag
 *     shows) and unpauses it (CPU time moves again);
 *   - reads domain 1's vCPU 0 (xc_vcpu_getinfo: up, has run, on an online
 *     CPU) and its affinity (xc_vcpu_getaffinity: that CPU in the hard map);
 *   - reads the console ring, whole and incrementally;
 *   - reads this project's counters (xc_dirty_stats, xc_vcpu_exit_counts);
 *   - puts domain 1 in log-dirty mode, PEEKs, CLEANs and turns it off, and
 *     tracks a VRAM range (a smoke test: tests/logdirty is thorough);
 *   - checks error mapping (-1 and errno: ESRCH, EINVAL);
 *   - destroys domain 1 and, if present, shuts domain 2 down
 *     (xc_domain_shutdown): without that the run never ends;
 *   - closes the interface and checks no heap memory leaked.
 *
 * Guest command line: domu=<id> (default 1), domu2=<id> (default 2).
 */
#include "test.h"
#include "xc-check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xenctrl.h>
#include <xendevicemodel.h>

const char test_title[] = "libxenctrl in the control domain (direct backend)";

#define MAX_DOMS    16
#define RING_SIZE   16384

static xc_interface *xch;


/* Let the other domains run for a while (one physical CPU). */
static void yield_many(unsigned int n)
{
    while ( n-- )
        hypercall_yield();
}

/* The domain's record from the list, false if it is not listed. */
static bool find_domain(uint32_t domid, xc_domaininfo_t *out)
{
    static xc_domaininfo_t info[MAX_DOMS];
    int i, n = xc_domain_getinfolist(xch, 0, MAX_DOMS, info);

    if ( n < 0 )
    {
        xtf_failure("Fail: xc_domain_getinfolist: errno %d\n", errno);
        return false;
    }
    for ( i = 0; i < n; i++ )
        if ( info[i].domain == domid )
        {
            if ( out )
                *out = info[i];
            return true;
        }

    return false;
}

static void test_version(void)
{
    xen_extraversion_t extra = "";
    int v = xc_version(xch, XENVER_version, NULL);

    if ( v < 0 || xc_version(xch, XENVER_extraversion, extra) < 0 )
        return xtf_failure("Fail: xc_version: errno %d\n", errno);
    extra[sizeof(extra) - 1] = '\0';
    pass("xc_version: %d.%d%s\n", v >> 16, v & 0xffff, extra);
    expect_errno("xc_version(unknown command)", xc_version(xch, 0x7fff, NULL),
                 EINVAL);
}

static void test_physinfo(void)
{
    xc_physinfo_t pi;

    if ( xc_physinfo(xch, &pi) )
        return xtf_failure("Fail: xc_physinfo: errno %d\n", errno);

    printk("  host: %u CPU(s), %u kHz, %lu pages, %lu free, caps %#x\n",
           pi.nr_cpus, pi.cpu_khz, (unsigned long)pi.total_pages,
           (unsigned long)pi.free_pages, pi.capabilities);
    printk("  host: max_cpu_id %u, %u thread(s) per core, %u core(s) per socket, %u node(s)\n",
           pi.max_cpu_id, pi.threads_per_core, pi.cores_per_socket, pi.nr_nodes);
    if ( pi.nr_cpus < 1 || pi.max_cpu_id + 1 < pi.nr_cpus || !pi.threads_per_core ||
         !pi.cores_per_socket || pi.nr_nodes != 1 )
        xtf_failure("Fail: physinfo: nr_cpus %u max_cpu_id %u\n",
                    pi.nr_cpus, pi.max_cpu_id);
    else if ( !pi.total_pages || pi.free_pages > pi.total_pages )
        xtf_failure("Fail: physinfo: total %lu free %lu pages\n",
                    (unsigned long)pi.total_pages,
                    (unsigned long)pi.free_pages);
    else if ( !(pi.capabilities & XEN_SYSCTL_PHYSCAP_hvm) )
        xtf_failure("Fail: physinfo: no hvm capability (%#x)\n",
                    pi.capabilities);
    else
        pass("xc_physinfo\n");
}

static void test_domain_list(uint32_t domu)
{
    static xc_domaininfo_t info[MAX_DOMS];
    xc_dominfo_t di[2];
    int i, n;

    n = xc_domain_getinfolist(xch, 0, MAX_DOMS, info);
    if ( n < 2 )
        return xtf_failure("Fail: xc_domain_getinfolist: %d (errno %d), "
                           "expected at least 2 domains\n", n, errno);

    for ( i = 0; i < n; i++ )
        printk("  d%u: flags %#x, %lu pages (max %lu), %u vCPU(s), "
               "cpu %lu ns\n", info[i].domain, info[i].flags,
               (unsigned long)info[i].tot_pages,
               (unsigned long)info[i].max_pages, info[i].nr_online_vcpus,
               (unsigned long)info[i].cpu_time);

    if ( info[0].domain != 0 )
        return xtf_failure("Fail: first domain is d%u, expected d0\n",
                           info[0].domain);
    if ( !find_domain(domu, NULL) )
        return xtf_failure("Fail: d%u not in the domain list\n", domu);
    pass("xc_domain_getinfolist: %d domains\n", n);

    /* Starting after the last domain: nothing, but no error. */
    n = xc_domain_getinfolist(xch, info[n - 1].domain + 1, MAX_DOMS, info);
    if ( n != 0 )
        xtf_failure("Fail: getinfolist past the end: %d (errno %d)\n",
                    n, errno);

    /* xc_domain_getinfo decodes the flags, one domctl per domain. */
    n = xc_domain_getinfo(xch, domu, 1, di);
    if ( n != 1 || di[0].domid != domu )
        return xtf_failure("Fail: xc_domain_getinfo(d%u): %d, domid %u\n",
                           domu, n, n == 1 ? di[0].domid : 0);
    if ( !di[0].hvm || di[0].dying || di[0].shutdown || di[0].paused ||
         di[0].nr_online_vcpus < 1 || !di[0].max_memkb )
        return xtf_failure("Fail: d%u decoded: hvm %u dying %u shutdown %u "
                           "paused %u vcpus %u max_memkb %lu\n", domu,
                           di[0].hvm, di[0].dying, di[0].shutdown,
                           di[0].paused, di[0].nr_online_vcpus,
                           di[0].max_memkb);
    pass("xc_domain_getinfo(d%u): hvm, %u vCPU(s), %lu KiB max\n", domu,
         di[0].nr_online_vcpus, di[0].max_memkb);

    n = xc_domain_getinfo(xch, 0, 2, di);
    if ( n != 2 || di[0].domid != 0 || di[1].domid <= di[0].domid )
        xtf_failure("Fail: xc_domain_getinfo(0, 2): %d: d%u d%u\n", n,
                    di[0].domid, di[1].domid);

    expect_errno("xc_domain_getinfo(past the last domain)",
                 xc_domain_getinfo(xch, DOMID_FIRST_RESERVED - 1, 1, di),
                 ESRCH);
}

static void test_pause(uint32_t domu)
{
    xc_domaininfo_t before, after;

    if ( xc_domain_pause(xch, domu) )
        return xtf_failure("Fail: xc_domain_pause(d%u): errno %d\n",
                           domu, errno);
    if ( !find_domain(domu, &before) ||
         !(before.flags & XEN_DOMINF_paused) )
        return xtf_failure("Fail: d%u not shown paused (flags %#x)\n", domu,
                           before.flags);

    /* Paused, it gets no CPU time however long we yield. */
    yield_many(20);
    find_domain(domu, &after);
    if ( after.cpu_time != before.cpu_time )
        return xtf_failure("Fail: paused d%u ran: cpu_time %lu -> %lu\n",
                           domu, (unsigned long)before.cpu_time,
                           (unsigned long)after.cpu_time);
    pass("xc_domain_pause(d%u): paused, cpu_time stays %lu ns\n", domu,
         (unsigned long)after.cpu_time);

    if ( xc_domain_unpause(xch, domu) )
        return xtf_failure("Fail: xc_domain_unpause(d%u): errno %d\n",
                           domu, errno);
    yield_many(20);
    if ( !find_domain(domu, &after) || (after.flags & XEN_DOMINF_paused) ||
         after.cpu_time <= before.cpu_time )
        return xtf_failure("Fail: unpaused d%u: flags %#x, cpu_time %lu -> "
                           "%lu\n", domu, after.flags,
                           (unsigned long)before.cpu_time,
                           (unsigned long)after.cpu_time);
    pass("xc_domain_unpause(d%u): running, cpu_time now %lu ns\n", domu,
         (unsigned long)after.cpu_time);
}

/*
 * XEN_DOMCTL_getvcpuinfo and _getvcpuaffinity (xl vcpu-list): the domU's
 * vCPU 0 is up, has run, sits on an online CPU that its hard affinity
 * contains; past its last vCPU is ESRCH; no map asked for is EINVAL.
 */
static void test_vcpus(uint32_t domu)
{
    xc_domaininfo_t info;
    xc_vcpuinfo_t vi;
    xc_physinfo_t pi;
    uint8_t hard[32] = { 0 }, soft[32] = { 0 };
    int sz;

    if ( !find_domain(domu, &info) || xc_physinfo(xch, &pi) )
        return xtf_failure("Fail: d%u or physinfo not found\n", domu);
    if ( xc_vcpu_getinfo(xch, domu, 0, &vi) )
        return xtf_failure("Fail: xc_vcpu_getinfo(d%u, 0): errno %d\n",
                           domu, errno);
    if ( !vi.online || !vi.cpu_time || vi.cpu > pi.max_cpu_id )
        return xtf_failure("Fail: d%u vCPU 0: online %u, cpu_time %lu, "
                           "cpu %u of %u\n", domu, vi.online,
                           (unsigned long)vi.cpu_time, vi.cpu,
                           pi.max_cpu_id + 1);
    pass("xc_vcpu_getinfo(d%u, 0): online on CPU %u, %lu ns\n", domu,
         vi.cpu, (unsigned long)vi.cpu_time);
    expect_errno("xc_vcpu_getinfo(past the last vCPU)",
                 xc_vcpu_getinfo(xch, domu, info.max_vcpu_id + 1, &vi),
                 ESRCH);

    sz = xc_get_cpumap_size(xch);
    if ( sz <= 0 || sz > (int)sizeof(hard) )
        return xtf_failure("Fail: xc_get_cpumap_size: %d\n", sz);
    if ( xc_vcpu_getaffinity(xch, domu, 0, hard, soft,
                             XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT) )
        return xtf_failure("Fail: xc_vcpu_getaffinity(d%u, 0): errno %d\n",
                           domu, errno);
    if ( !(hard[vi.cpu / 8] & (1 << (vi.cpu % 8))) || !(soft[0] & 1) )
        return xtf_failure("Fail: d%u vCPU 0 on CPU %u: hard %#x soft %#x\n",
                           domu, vi.cpu, hard[0], soft[0]);
    pass("xc_vcpu_getaffinity(d%u, 0): hard %#x, soft %#x (%d bytes)\n",
         domu, hard[0], soft[0], sz);
    expect_errno("xc_vcpu_getaffinity(no map)",
                 xc_vcpu_getaffinity(xch, domu, 0, hard, soft, 0), EINVAL);
}

static void test_errors(void)
{
    expect_errno("xc_domain_pause(no such domain)",
                 xc_domain_pause(xch, DOMID_FIRST_RESERVED - 1), ESRCH);
    expect_errno("xc_domain_pause(self)", xc_domain_pause(xch, 0), EINVAL);
    expect_errno("xc_domain_destroy(no such domain)",
                 xc_domain_destroy(xch, DOMID_FIRST_RESERVED - 1), ESRCH);
}

static void test_console(void)
{
    static char ring[RING_SIZE + 1], part[RING_SIZE + 1];
    unsigned int nr = RING_SIZE, got = 0, chunk;
    uint32_t index = 0;
    int rounds = 0;

    if ( xc_readconsolering(xch, ring, &nr, 0, 0, NULL) )
        return xtf_failure("Fail: xc_readconsolering: errno %d\n", errno);
    ring[nr] = '\0';
    if ( !nr || !strstr(ring, "(XEN) ") || !strstr(ring, test_title) )
        return xtf_failure("Fail: console ring (%u bytes) lacks the banner "
                           "or this test's title\n", nr);
    pass("xc_readconsolering: %u bytes, with our title\n", nr);

    /* Incrementally, 100 bytes at a time from the start, the same text. */
    do {
        chunk = 100;
        if ( xc_readconsolering(xch, part + got, &chunk, 0, 1, &index) )
            return xtf_failure("Fail: incremental read: errno %d\n", errno);
        got += chunk;
    } while ( chunk && got + 100 <= RING_SIZE && ++rounds < 1000 );

    /* (Unless the ring wrapped meanwhile, the text starts the same.) */
    if ( got < min_t(unsigned int, nr, RING_SIZE - 100) || index < got ||
         (nr < RING_SIZE && memcmp(part, ring, nr)) )
        return xtf_failure("Fail: incremental reads: %u bytes to index %u, "
                           "whole read %u bytes\n", got, index, nr);
    pass("xc_readconsolering incremental: %u bytes in %d reads, index %u\n",
         got, rounds + 1, index);
}

static void test_counters(uint32_t domu)
{
    xen_domctl_dirty_stats_t st;
    xen_dirty_vcpu_stats_t vs[4];
    unsigned int nr = 4, reasons = 80, i;
    static uint64_t counts[80];
    uint64_t total = 0;

    if ( xc_dirty_stats(xch, domu, &st, vs, &nr) )
        return xtf_failure("Fail: xc_dirty_stats(d%u): errno %d\n", domu,
                           errno);
    if ( nr < 1 || st.mode != 0 || st.mechanism != XEN_DIRTY_MECH_NONE ||
         !vs[0].exits_total )
        return xtf_failure("Fail: dirty stats of d%u: %u vCPUs, mode %u, "
                           "mechanism %u, exits %lu\n", domu, nr, st.mode,
                           st.mechanism, (unsigned long)vs[0].exits_total);
    pass("xc_dirty_stats(d%u): not tracked, %u vCPU(s), %lu exits on v0\n",
         domu, nr, (unsigned long)vs[0].exits_total);

    if ( xc_vcpu_exit_counts(xch, domu, 0, counts, &reasons) )
        return xtf_failure("Fail: xc_vcpu_exit_counts(d%u): errno %d\n",
                           domu, errno);
    for ( i = 0; i < reasons && i < ARRAY_SIZE(counts); i++ )
        total += counts[i];
    if ( !reasons || !total )
        return xtf_failure("Fail: exit counts of d%u: %u reasons, %lu "
                           "exits\n", domu, reasons, (unsigned long)total);
    pass("xc_vcpu_exit_counts(d%u, 0): %u reasons, %lu exits\n", domu,
         reasons, (unsigned long)total);

    reasons = 80;
    expect_errno("xc_vcpu_exit_counts(no such vCPU)",
                 xc_vcpu_exit_counts(xch, domu, 4096, counts, &reasons),
                 ENOENT);
}

static unsigned int count_bits(const unsigned long *bm, unsigned long bits)
{
    unsigned int n = 0;
    unsigned long i;

    for ( i = 0; i < bits; i++ )
        n += (bm[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long)))) & 1;
    return n;
}

/*
 * A smoke test of the log-dirty calls on a real guest (tests/logdirty is
 * the thorough one): the spinning domU writes its stack, so some page is
 * always dirty.
 */
static void test_logdirty(uint32_t domu)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);
    xen_domctl_dirty_stats_t st;
    xc_shadow_op_stats_t stats;
    xc_domaininfo_t di;
    unsigned long vram[2];
    unsigned int nr = 0;
    long long pages;

    if ( !find_domain(domu, &di) )
        return xtf_failure("Fail: d%u not listed\n", domu);
    bitmap = xc_hypercall_buffer_alloc_pages(xch, bitmap, 1);
    if ( !bitmap )
        return xtf_failure("Fail: bitmap buffer: errno %d\n", errno);

    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY,
                           NULL, 0) )
    {
        xtf_failure("Fail: ENABLE_LOGDIRTY: errno %d\n", errno);
        goto out;
    }
    yield_many(5);

    pages = xc_logdirty_control(xch, domu, XEN_DOMCTL_SHADOW_OP_PEEK,
                                HYPERCALL_BUFFER(bitmap), di.max_pages, 0,
                                &stats);
    if ( pages < 0 || !count_bits(bitmap, di.max_pages) )
    {
        xtf_failure("Fail: PEEK: %lld (errno %d), %u pages dirty\n", pages,
                    errno, count_bits(bitmap, di.max_pages));
        goto off;
    }
    pass("log-dirty on d%u: PEEK %u dirty of %lld pages (dirty_count %u)\n",
         domu, count_bits(bitmap, di.max_pages), pages, stats.dirty_count);

    if ( xc_dirty_stats(xch, domu, &st, NULL, &nr) ||
         !(st.mode & XEN_DIRTY_MODE_LOGDIRTY) ||
         st.mechanism == XEN_DIRTY_MECH_NONE || st.peek_calls < 1 )
        xtf_failure("Fail: dirty stats while tracked: mode %u mechanism %u "
                    "peeks %lu\n", st.mode, st.mechanism,
                    (unsigned long)st.peek_calls);
    else
        pass("xc_dirty_stats: log-dirty by %s\n",
             st.mechanism == XEN_DIRTY_MECH_PML ? "PML" : "write protection");

    pages = xc_logdirty_control(xch, domu, XEN_DOMCTL_SHADOW_OP_CLEAN,
                                HYPERCALL_BUFFER(bitmap), di.max_pages, 0,
                                NULL);
    if ( pages < 0 )
        xtf_failure("Fail: CLEAN: errno %d\n", errno);

 off:
    if ( xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) )
        xtf_failure("Fail: OFF: errno %d\n", errno);
    expect_errno("CLEAN while not in log-dirty mode",
                 xc_logdirty_control(xch, domu, XEN_DOMCTL_SHADOW_OP_CLEAN,
                                     HYPERCALL_BUFFER(bitmap), di.max_pages,
                                     0, NULL), EINVAL);

    /* VRAM tracking: a new range reports every frame; nr == 0 stops. */
    vram[0] = vram[1] = 0;
    if ( xendevicemodel_track_dirty_vram(xc_interface_dmod_handle(xch), domu,
                                         0x100, 64, vram) ||
         vram[0] != ~0UL )
        xtf_failure("Fail: track_dirty_vram(new range): errno %d, %#lx\n",
                    errno, vram[0]);
    else if ( xendevicemodel_track_dirty_vram(xc_interface_dmod_handle(xch),
                                              domu, 0, 0, NULL) )
        xtf_failure("Fail: track_dirty_vram(stop): errno %d\n", errno);
    else
        pass("xendevicemodel_track_dirty_vram(d%u): all 64 dirty, stopped\n",
             domu);

 out:
    xc_hypercall_buffer_free_pages(xch, bitmap, 1);
}

/* Wait until the domain is gone from the list (dying does not last). */
static bool wait_gone(uint32_t domid)
{
    unsigned int i;

    for ( i = 0; i < 200; i++ )
    {
        if ( !find_domain(domid, NULL) )
            return true;
        yield_many(1);
    }

    return false;
}

static void test_destroy(uint32_t domu)
{
    if ( xc_domain_destroy(xch, domu) )
        return xtf_failure("Fail: xc_domain_destroy(d%u): errno %d\n", domu,
                           errno);
    if ( !wait_gone(domu) )
        return xtf_failure("Fail: d%u still listed after destroy\n", domu);
    pass("xc_domain_destroy(d%u): gone\n", domu);

    expect_errno("xc_domain_pause(destroyed domain)",
                 xc_domain_pause(xch, domu), ESRCH);
}

static void test_shutdown(uint32_t domu)
{
    xc_domaininfo_t di;

    if ( !find_domain(domu, NULL) )
    {
        printk("  (no d%u: xc_domain_shutdown not tried)\n", domu);
        return;
    }

    if ( xc_domain_shutdown(xch, domu, SHUTDOWN_poweroff) )
        return xtf_failure("Fail: xc_domain_shutdown(d%u): errno %d\n", domu,
                           errno);
    /* Shut down (reason poweroff) for a moment, then gone. */
    if ( find_domain(domu, &di) &&
         (!(di.flags & (XEN_DOMINF_shutdown | XEN_DOMINF_dying)) ||
          ((di.flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask)
          != SHUTDOWN_poweroff) )
        return xtf_failure("Fail: d%u after shutdown: flags %#x\n", domu,
                           di.flags);
    if ( !wait_gone(domu) )
        return xtf_failure("Fail: d%u still listed after shutdown\n", domu);
    pass("xc_domain_shutdown(d%u, poweroff): gone\n", domu);
}

void test_main(void)
{
    uint32_t domu = cmdline_ulong("domu", 1);
    uint32_t domu2 = cmdline_ulong("domu2", 2);
    size_t heap_before = malloc_in_use();

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    xch = xc_interface_open(NULL, NULL, 0);
    if ( !xch )
        return xtf_failure("Fail: xc_interface_open: errno %d\n", errno);
    pass("xc_interface_open\n");

    test_version();
    test_physinfo();
    test_domain_list(domu);
    test_pause(domu);
    test_vcpus(domu);
    test_errors();
    test_console();
    test_counters(domu);
    test_logdirty(domu);
    test_destroy(domu);
    test_shutdown(domu2);

    if ( xc_interface_close(xch) )
        xtf_failure("Fail: xc_interface_close: errno %d\n", errno);
    if ( malloc_in_use() != heap_before )
        xtf_failure("Fail: heap: %lu bytes in use before, %lu after\n",
                    (unsigned long)heap_before,
                    (unsigned long)malloc_in_use());
    else
        pass("xc_interface_close: heap back to %lu bytes\n",
             (unsigned long)heap_before);
}

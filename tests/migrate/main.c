/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control domain of the migration tests: saves a running writer
 * (domain 1, tests/mig-writer) with libxenguest's xc_domain_save into
 * memory, restores the stream into a new domain with xc_domain_restore,
 * destroys the source and lets the copy run; the copy checks its own
 * pattern and reports (its Test result is the proof that nothing was
 * lost).  The saved stream is printed between markers for the runner,
 * which checks it with sr-check (tools/tests/migrate).
 *
 * Guest command line:
 *   live=<0|1>         pre-copy while the writer runs (default 1)
 *   policy=<0|1>       0: downtime target (default), 1: Xen's 5 rounds/50 pages
 *   downtime=<ticks>   the downtime target (1 tick counted as 1 ns)
 *   rounds=<n>         at most n live rounds (default 30)
 *   converge=<0|1>     auto-converge (default 1)
 *   bandwidth=<n>      cap PAGE_DATA at n octets per Gtick (10^9 ticks, the
 *                      "second" of the 1-tick-1-ns clock; default 0: none)
 *   pause=<ticks>      auto-converge's longest pause at most (default 0:
 *                      the downtime target); a live save fails the case if
 *                      a throttle pause lasted longer
 *   bench=<0|1>        make bench (tools/bench): print nothing while saving
 *                      (the rounds afterwards) and one "BENCHMIG" line
 *   probe=<ticks>      first, sleep this long and report the writer's pace
 *                      alone (page writes per Mtick; default 0: no probe)
 *   expect_converge=<0|1>
 *                      with a cap: fail unless the save converged (and its
 *                      downtime met the target), or did not (and its
 *                      downtime exceeded the target); default: no check
 *   dump=<0|1>         print the stream (default 1)
 *   failures=<0|1>     first, a live save into a receiver that goes away
 *                      after 1 MiB, and a truncated stream restored (default 1)
 */
#include "test.h"
#include "mig-test.h"
#include <xenctrl.h>
#include <xenforeignmemory.h>
#include <xenguest.h>
#include <errno.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "xc-domain.h"

const char test_title[] = "Saving and restoring a running domain";

#define SRC                 1
#define STREAM_MAX          (28UL << 20) /* 30 rounds of ~160 pages */
#define MAX_WAITS           2000000UL

/* Restore reads whole PAGE_DATA records (up to 4 MiB): a larger heap. */
uint8_t libc_arena[10 << 20] __attribute__((aligned(4096)));
const size_t libc_arena_size = sizeof(libc_arena);

static uint8_t stream[STREAM_MAX] __attribute__((aligned(4096)));
static xc_interface *xch;

/* For bench=1: the rounds, printed after the save (a line costs ticks). */
#define MAX_KEPT            64
static struct xc_save_round_stats kept[MAX_KEPT];
static unsigned int nr_kept;

static void print_round(const struct xc_save_round_stats *st)
{
    printk("round %u%s: %lu pages sent, %lu dirtied, %lu ticks, %lu pages/Gtick "
           "dirtied, %lu octets/Gtick, predicted downtime %lu ticks, throttle %u%%, "
           "paused %lu ticks (longest %lu)\n",
           st->iteration, st->final ? " (final)" : "",
           (unsigned long)st->pages_sent, (unsigned long)st->pages_dirtied,
           (unsigned long)st->time_ns, (unsigned long)st->dirty_rate,
           (unsigned long)st->bandwidth,
           (unsigned long)st->predicted_downtime_ns, st->throttle,
           (unsigned long)st->paused_ns, (unsigned long)st->max_pause_ns);
}

static void round_stats(const struct xc_save_round_stats *st, void *data)
{
    if ( !data )
        print_round(st);
    else if ( nr_kept < MAX_KEPT )
        kept[nr_kept++] = *st;
}

/* The writer's page writes per Mtick, running alone for 'ticks'. */
static unsigned long writer_pace(const struct mw_ctrl *ctrl, uint64_t ticks)
{
    struct timespec ts = { .tv_sec = ticks / 1000000000ULL,
                           .tv_nsec = ticks % 1000000000ULL };
    uint64_t steps = ctrl->steps, t0 = rdtsc();

    nanosleep(&ts, NULL);
    return (ctrl->steps - steps) * 1000000ULL / (rdtsc() - t0);
}

/* The stream as 8-octet words, hex, runs as "value*count" (tests/run-tests.sh). */
static void dump_stream(const char *name, const uint8_t *buf, size_t len)
{
    char line[200];
    size_t i = 0, n = 0, pos = 0;
    uint64_t hash = 0xcbf29ce484222325ULL;

    for ( i = 0; i < len; i++ )
        hash = (hash ^ buf[i]) * 0x100000001b3ULL;
    printk("--- stream begin %s %lu ---\n", name, (unsigned long)len);
    for ( i = 0; i < len / 8; )
    {
        uint64_t w;
        size_t run = 1;

        memcpy(&w, buf + 8 * i, 8);
        while ( i + run < len / 8 && !memcmp(buf + 8 * i, buf + 8 * (i + run), 8) )
            run++;
        if ( run > 1 )
            pos += snprintf(line + pos, sizeof(line) - pos, " %lx*%lu",
                            (unsigned long)w, (unsigned long)run);
        else
            pos += snprintf(line + pos, sizeof(line) - pos, " %lx",
                            (unsigned long)w);
        i += run;
        if ( ++n == 6 || i == len / 8 )   /* lines < 255: one console line */
        {
            printk("S%s\n", line);
            pos = n = 0;
        }
    }
    printk("--- stream end %s %016lx ---\n", name, (unsigned long)hash);
}

/* The source is running and not in log-dirty mode. */
static bool source_running(void)
{
    xc_domaininfo_t info;
    DECLARE_HYPERCALL_BUFFER(unsigned long, bm);
    long long rc;

    if ( xc_domain_getinfolist(xch, SRC, 1, &info) != 1 ||
         (info.flags & XEN_DOMINF_paused) )
        return false;
    bm = xc_hypercall_buffer_alloc_pages(xch, bm, 1);
    rc = xc_logdirty_control(xch, SRC, XEN_DOMCTL_SHADOW_OP_PEEK,
                             HYPERCALL_BUFFER(bm), 64, 0, NULL);
    xc_hypercall_buffer_free_pages(xch, bm, 1);
    return rc < 0 && errno == EINVAL;
}

static uint32_t new_domain(const xc_dominfo_t *src)
{
    struct xen_domctl_createdomain cfg = {
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap,
        .max_vcpus = src->max_vcpu_id + 1,
        .max_evtchn_port = 1023,              /* libxl's default */
        .max_grant_frames = -1,
        .max_maptrack_frames = -1,
        .grant_opts = XEN_DOMCTL_GRANT_version(2),   /* as Xen's libxl */
    };
    uint32_t domid = 0;

    if ( xc_domain_create(xch, &domid, &cfg) ||
         xc_domain_setmaxmem(xch, domid, src->max_memkb) )
    {
        xtf_failure("Fail: cannot create the destination: errno %d\n", errno);
        if ( domid )
            xc_domain_destroy(xch, domid);
        return 0;
    }
    return domid;
}

/* A receiver that goes away, and a truncated stream: nothing lost. */
static void failures(const xc_dominfo_t *src, uint32_t flags)
{
    size_t heap;
    uint32_t dst;
    int fd, rc;

    fd = mem_fd(stream, STREAM_MAX, 0);
    mem_fd_fail_after(fd, 1 << 20);
    rc = xc_domain_save(xch, fd, SRC, flags, NULL, XC_STREAM_PLAIN, -1);
    close(fd);
    if ( rc == 0 || errno != EPIPE )
        xtf_failure("Fail: save into a closed receiver: rc %d errno %d\n", rc, errno);
    else if ( !source_running() )
        xtf_failure("Fail: the source does not run on after the failed save\n");
    else
        printk("receiver gone after 1 MiB: save failed (EPIPE), d%u runs on\n", SRC);

    /* A good stream, cut in the middle of its memory. */
    fd = mem_fd(stream, STREAM_MAX, 0);
    rc = xc_domain_save(xch, fd, SRC, flags, NULL, XC_STREAM_PLAIN, -1);
    close(fd);
    if ( rc )
        return xtf_failure("Fail: save: errno %d\n", errno);
    xc_domain_unpause(xch, SRC);            /* left suspended: carry on */
    dst = new_domain(src);
    if ( !dst )
        return;
    heap = malloc_in_use();
    fd = mem_fd(stream, STREAM_MAX, 3 << 20);
    rc = xc_domain_restore(xch, fd, dst, 0, NULL, 0, 0, NULL, 0,
                           XC_STREAM_PLAIN, NULL, -1);
    close(fd);
    xc_domain_destroy(xch, dst);
    if ( rc == 0 )
        xtf_failure("Fail: a stream cut at 3 MiB was restored\n");
    else
        printk("stream cut at 3 MiB: restore refused (errno %d), d%u destroyed\n",
               errno, dst);
    if ( malloc_in_use() != heap )
        xtf_failure("Fail: the failed restore leaked %ld bytes\n",
                    (long)(malloc_in_use() - heap));
}

void test_main(void)
{
    bool live = cmdline_ulong("live", 1);
    bool bench = cmdline_ulong("bench", 0);
    unsigned long pace = 0;
    struct xc_save_params p;
    struct xc_save_summary sum;
    struct xc_restore_summary rsum;
    xc_dominfo_t info;
    xenforeignmemory_handle *fmem;
    xen_pfn_t ctrl_pfn = MW_CTRL_GFN;
    struct mw_ctrl *ctrl;
    uint64_t steps_before, t0, t1;
    unsigned long waits;
    uint32_t dst;
    int fd, rc;

    xch = xc_interface_open(NULL, NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !fmem )
        return xtf_error("Error: cannot open the control interfaces\n");
    if ( xc_domain_getinfo(xch, SRC, 1, &info) != 1 || info.domid != SRC )
        return xtf_error("Error: no writer domain d%u\n", SRC);

    /* Wait for the writer's pattern. */
    ctrl = xenforeignmemory_map(fmem, SRC, PROT_READ, 1, &ctrl_pfn, NULL);
    if ( !ctrl )
        return xtf_error("Error: cannot map d%u's control page\n", SRC);
    for ( waits = 0; ctrl->magic != MW_MAGIC && waits < MAX_WAITS; waits++ )
        hypercall_yield();
    if ( ctrl->magic != MW_MAGIC )
        return xtf_error("Error: the writer did not start\n");
    printk("d%u: %lu KiB, %u vCPU(s), writing %u pages\n", SRC,
           info.max_memkb, info.max_vcpu_id + 1, ctrl->pages);

    if ( cmdline_ulong("failures", 1) )
        failures(&info, live ? XCFLAGS_LIVE : 0);

    xc_save_params_init(&p);
    p.policy = cmdline_ulong("policy", XC_PRECOPY_DOWNTIME);
    p.downtime_ns = cmdline_ulong("downtime", p.downtime_ns);
    p.max_rounds = cmdline_ulong("rounds", p.max_rounds);
    p.auto_converge = cmdline_ulong("converge", 1);
    p.max_bandwidth = cmdline_ulong("bandwidth", 0);
    p.max_pause_ns = cmdline_ulong("pause", 0);
    p.round_stats = round_stats;
    p.data = bench ? kept : NULL;
    if ( cmdline_ulong("probe", 0) )
    {
        pace = writer_pace(ctrl, cmdline_ulong("probe", 0));
        printk("writer alone: %lu page writes per Mtick (%lu octets per "
               "Gtick)\n", pace, pace * 4096 * 1000);
    }
    p.summary = &sum;

    fd = mem_fd(stream, STREAM_MAX, 0);
    steps_before = ctrl->steps;
    t0 = rdtsc();
    rc = xc_domain_save_params(xch, fd, SRC, live ? XCFLAGS_LIVE : 0, NULL,
                               XC_STREAM_PLAIN, -1, &p);
    t1 = rdtsc();
    close(fd);
    if ( rc )
        return xtf_failure("Fail: xc_domain_save: errno %d\n", errno);
    for ( unsigned int i = 0; i < nr_kept; i++ )
        print_round(&kept[i]);
    if ( bench )
        printk("BENCHMIG pol=%s ac=%d cap=%lu tgt=%lu pace=%lu rounds=%u "
               "sent=%lu fin=%lu oct=%lu tot=%lu dt=%lu pdt=%lu conv=%d "
               "thr=%u thrt=%lu maxp=%lu pb=%lu waits=%lu\n",
               p.policy == XC_PRECOPY_XEN ? "xen" : "dt", p.auto_converge,
               (unsigned long)p.max_bandwidth, (unsigned long)p.downtime_ns,
               pace, sum.rounds, (unsigned long)sum.pages_sent,
               (unsigned long)sum.final_pages, (unsigned long)sum.octets,
               (unsigned long)(t1 - t0), (unsigned long)sum.downtime_ns,
               (unsigned long)sum.predicted_downtime_ns, sum.converged,
               sum.max_throttle, (unsigned long)sum.throttle_ns,
               (unsigned long)sum.max_pause_ns,
               (unsigned long)(p.max_pause_ns ? p.max_pause_ns : p.downtime_ns),
               (unsigned long)sum.rate_waits);
    printk("saved d%u %s: %u live rounds, %lu pages sent (%lu while paused), "
           "%lu octets, %lu ticks, downtime %lu ticks, max throttle %u%%; "
           "the writer made %lu steps meanwhile; paused by throttle %lu "
           "ticks in %lu pauses (longest %lu)\n", SRC,
           live ? "live" : "paused", sum.rounds, (unsigned long)sum.pages_sent,
           (unsigned long)sum.final_pages, (unsigned long)sum.octets,
           (unsigned long)(t1 - t0), (unsigned long)sum.downtime_ns,
           sum.max_throttle, (unsigned long)(ctrl->steps - steps_before),
           (unsigned long)sum.throttle_ns, (unsigned long)sum.throttle_pauses,
           (unsigned long)sum.max_pause_ns);
    xenforeignmemory_unmap(fmem, ctrl, 1);
    if ( live )
        printk("%s: predicted downtime %lu ticks, target %lu, after %u "
               "rounds (%s)\n", sum.converged ? "converged" : "did not converge",
               (unsigned long)sum.predicted_downtime_ns,
               (unsigned long)p.downtime_ns, sum.rounds,
               p.policy == XC_PRECOPY_XEN ? "Xen's policy" : "downtime policy");
    if ( p.max_bandwidth )
        printk("bandwidth cap %lu octets/Gtick: %lu octets at %lu octets/Gtick "
               "overall, %lu waits, %lu ticks waited\n",
               (unsigned long)p.max_bandwidth, (unsigned long)sum.octets,
               (unsigned long)(sum.octets * 1000000000ULL / (t1 - t0)),
               (unsigned long)sum.rate_waits, (unsigned long)sum.rate_wait_ns);
    if ( cmdline_ulong("expect_converge", 2) == 1 &&
         (!sum.converged || sum.downtime_ns > p.downtime_ns) )
        xtf_failure("Fail: not converged (%d) or downtime %lu ticks "
                           "above the target %lu\n", sum.converged,
                           (unsigned long)sum.downtime_ns,
                           (unsigned long)p.downtime_ns);
    /* Auto-converge pauses the guest in slices: none beyond the target. */
    if ( live && sum.max_pause_ns >
                 (p.max_pause_ns ? p.max_pause_ns : p.downtime_ns) )
        xtf_failure("Fail: paused %lu ticks at a stretch by the throttle, "
                    "above the bound %lu\n", (unsigned long)sum.max_pause_ns,
                    (unsigned long)(p.max_pause_ns ? p.max_pause_ns
                                                   : p.downtime_ns));
    if ( cmdline_ulong("expect_converge", 2) == 0 &&
         (sum.converged || sum.rounds != p.max_rounds ||
          sum.predicted_downtime_ns <= p.downtime_ns ||
          sum.downtime_ns <= p.downtime_ns) )
        xtf_failure("Fail: converged (%d) after %u rounds, predicted "
                           "downtime %lu, downtime %lu ticks, target %lu\n",
                           sum.converged, sum.rounds,
                           (unsigned long)sum.predicted_downtime_ns,
                           (unsigned long)sum.downtime_ns,
                           (unsigned long)p.downtime_ns);

    if ( cmdline_ulong("dump", 1) )
        dump_stream(live ? "live" : "nonlive", stream, sum.octets);

    dst = new_domain(&info);
    if ( !dst )
        return;
    /*
     * Debug registers of our own, different from the writer's: the copy
     * must get its values from the stream's CPU record, not from whatever
     * the CPU last held (mig-writer checks them).
     */
    asm volatile ( "mov %0, %%db0; mov %0, %%db1; mov %0, %%db2; mov %0, %%db3; mov %1, %%db6"
                   :: "r" (0x1234000UL), "r" (0xffff0ff0UL | 0x8001) );
    fd = mem_fd(stream, STREAM_MAX, sum.octets);
    t0 = rdtsc();
    rc = xc_domain_restore_summary(xch, fd, dst, NULL, &rsum);
    t1 = rdtsc();
    close(fd);
    if ( rc )
    {
        xc_domain_destroy(xch, dst);
        return xtf_failure("Fail: xc_domain_restore: errno %d\n", errno);
    }
    printk("restored d%u: %lu records, %lu pages written, %lu populated, "
           "%lu ticks\n", dst, (unsigned long)rsum.records,
           (unsigned long)rsum.pages, (unsigned long)rsum.populated,
           (unsigned long)(t1 - t0));

    if ( xc_domain_destroy(xch, SRC) )
        xtf_failure("Fail: cannot destroy the source: errno %d\n", errno);
    if ( xc_domain_unpause(xch, dst) )
        return xtf_failure("Fail: cannot unpause d%u: errno %d\n", dst, errno);
    /* It checks its pages, powers off and stays until destroyed (as in Xen). */
    if ( (rc = xc_wait_shutdown(xch, dst, MAX_WAITS)) != SHUTDOWN_poweroff )
    {
        xc_domain_destroy(xch, dst);
        return xtf_failure("Fail: the copy d%u did not finish (%d)\n", dst, rc);
    }
    if ( !xc_destroy_wait(xch, dst, MAX_WAITS) )
        return xtf_failure("Fail: the copy d%u is still there after its destruction\n", dst);
    printk("the copy d%u ran and finished\n", dst);
    xenforeignmemory_close(fmem);
    xc_interface_close(xch);
    xtf_success("Success: d%u saved %s and restored as d%u\n", SRC,
                live ? "live" : "paused", dst);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of libxenguest's save/restore (xg_sr_*.c), compiled from the
 * real sources with the real libxenctrl and libxencall, over a fake
 * hypervisor (fake.h) whose domains can keep writing while they are saved.
 *
 *   test-migrate [-v] SR-CHECK [COMPAT-CHECK]
 *
 * Streams go through files and pipes as they would between hosts; every
 * stream the saver writes is validated by sr-check (written from the
 * spec).  A restored domain must equal its source page for page, and its
 * vCPUs register for register.  Time is the fake's clock, so the bandwidth
 * cap and convergence are checked by counting, never by wall-clock time.  On any failure the source must run on
 * (unpaused, log-dirty off).  Ends with "N passed, N failed".
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xen/grant_table.h>

#include "harness.h"

bool verbose, case_failed;
xc_interface *xch;
const char *checker;
static const char *compat;              /* compat-check, if built */

bool check_(bool ok, int line, const char *fmt, ...)
{
    va_list args;

    if ( ok )
        return true;
    case_failed = true;
    printf("    line %d: ", line);
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');
    return false;
}

/* ---- the log ---- */

static char logbuf[1 << 16];
static size_t loglen;

static void log_vmessage(struct xentoollog_logger *lg, xentoollog_level level,
                         int errnoval, const char *context, const char *fmt,
                         va_list al)
{
    int n;

    (void)lg; (void)errnoval; (void)context;
    if ( level < XTL_DETAIL )
        return;
    if ( verbose )
    {
        va_list copy;

        va_copy(copy, al);
        fputs("      log: ", stdout);
        vprintf(fmt, copy);
        putchar('\n');
        va_end(copy);
    }
    if ( loglen >= sizeof(logbuf) - 2 )
        return;
    n = vsnprintf(logbuf + loglen, sizeof(logbuf) - loglen - 1, fmt, al);
    if ( n > 0 )
        loglen += (size_t)n < sizeof(logbuf) - loglen - 1 ? (size_t)n
                                                          : sizeof(logbuf) - loglen - 2;
    logbuf[loglen++] = '\n';
    logbuf[loglen] = 0;
}

static void log_progress(struct xentoollog_logger *lg, const char *context,
                         const char *what, int percent, unsigned long done,
                         unsigned long total)
{
    (void)lg; (void)context; (void)what; (void)percent; (void)done; (void)total;
}

static void log_destroy(struct xentoollog_logger *lg)
{
    (void)lg;
}

static xentoollog_logger capture = { log_vmessage, log_progress, log_destroy };

void log_clear(void)
{
    loglen = 0;
    logbuf[0] = 0;
}

const char *log_text(void)
{
    return logbuf;
}

bool log_has(const char *needle)
{
    return strstr(logbuf, needle) != NULL;
}

/* ---- streams ---- */

static int read_all(int fd, struct stream *s)
{
    size_t cap = 0;

    s->data = NULL;
    s->len = 0;
    for ( ;; )
    {
        ssize_t n;

        if ( s->len == cap )
        {
            cap = cap ? cap * 2 : 1 << 20;
            s->data = realloc(s->data, cap);
            if ( !s->data )
                return -1;
        }
        n = read(fd, s->data + s->len, cap - s->len);
        if ( n < 0 && errno == EINTR )
            continue;
        if ( n < 0 )
            return -1;
        if ( n == 0 )
            return 0;
        s->len += (size_t)n;
    }
}

int save_to(struct stream *s, uint32_t dom, uint32_t flags,
            struct save_callbacks *cb, const struct xc_save_params *params)
{
    FILE *f = tmpfile();
    int rc, saved;

    s->data = NULL;
    s->len = 0;
    if ( !f )
        return -1;
    rc = xc_domain_save_params(xch, fileno(f), dom, flags, cb, XC_STREAM_PLAIN,
                               -1, params);
    saved = errno;
    lseek(fileno(f), 0, SEEK_SET);
    read_all(fileno(f), s);
    fclose(f);
    errno = saved;
    return rc;
}

int restore_from(const struct stream *s, unsigned long max_pages,
                 unsigned int vcpus, struct fake_dom **out,
                 struct xc_restore_summary *sum)
{
    struct fake_dom *d = fake_new_domain(max_pages, 0, vcpus);
    FILE *f = tmpfile();
    int rc, saved;

    *out = NULL;
    if ( !d || !f )
        return -2;
    if ( s->len )
        fwrite(s->data, 1, s->len, f);
    fflush(f);
    lseek(fileno(f), 0, SEEK_SET);
    rc = xc_domain_restore_summary(xch, fileno(f), d->id, NULL, sum);
    saved = errno;
    fclose(f);
    if ( rc )
        xc_domain_destroy(xch, d->id);
    else
        *out = d;
    errno = saved;
    return rc;
}

int run_checker(const struct stream *s)
{
    char path[] = "/tmp/sr-check-XXXXXX", cmd[512];
    int fd = mkstemp(path), rc;

    if ( fd < 0 )
        return -1;
    if ( s->len && write(fd, s->data, s->len) != (ssize_t)s->len )
        rc = -1;
    close(fd);
    snprintf(cmd, sizeof(cmd), "%s %s >%s", checker, path,
             verbose ? "/dev/stdout" : "/dev/null");
    rc = system(cmd);
    unlink(path);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

void stream_free(struct stream *s)
{
    free(s->data);
    s->data = NULL;
    s->len = 0;
}

/* ---- round trips ---- */

#define SRC_PAGES   1024                /* 4 MiB */

static struct fake_dom *running_source(unsigned long pages, unsigned int vcpus)
{
    struct fake_dom *d = fake_new_domain(pages, pages, vcpus);

    fake_fill(d, 42);
    d->pause_count = 0;                 /* running */
    return d;
}

static void check_same_vcpus(const struct fake_dom *a, const struct fake_dom *b)
{
    CHECK(b->context_set, "the HVM context was not loaded");
    CHECK(a->nr_cpus == b->nr_cpus, "%u vCPUs restored, %u saved",
          b->nr_cpus, a->nr_cpus);
    for ( unsigned int v = 0; v < a->nr_cpus && v < b->nr_cpus; v++ )
        CHECK(!memcmp(&a->cpu[v], &b->cpu[v], sizeof(a->cpu[v])),
              "vCPU %u's registers differ (rip %#llx vs %#llx)", v,
              (unsigned long long)a->cpu[v].rip,
              (unsigned long long)b->cpu[v].rip);
}

static void check_exact_copy(const struct fake_dom *src, const struct fake_dom *dst)
{
    unsigned long first = 0, n = fake_compare(src, dst, &first);

    CHECK(n == 0, "%lu pages differ, the first at pfn %#lx", n, first);
    CHECK(dst->tot_pages == src->tot_pages, "%lu pages populated, source %lu",
          dst->tot_pages, src->tot_pages);
    check_same_vcpus(src, dst);
}

static void test_nonlive_roundtrip(void)
{
    struct fake_dom *src = running_source(SRC_PAGES, 2), *dst;
    struct xc_save_summary sum;
    struct xc_restore_summary rsum;
    struct xc_save_params p;
    struct stream s;
    int rc;

    xc_save_params_init(&p);
    p.summary = &sum;
    rc = save_to(&s, src->id, 0, NULL, &p);
    CHECK(rc == 0, "save failed: %s", log_text());
    CHECK(src->pause_count == 1, "the source is not left suspended (%u)",
          src->pause_count);
    CHECK(!src->logdirty && src->cleans == 0, "log-dirty used when not live");
    CHECK(sum.final_pages == SRC_PAGES && sum.rounds == 0,
          "%llu pages sent in %u rounds", (unsigned long long)sum.final_pages,
          sum.rounds);
    CHECK(sum.octets == s.len, "summary says %llu octets, stream has %zu",
          (unsigned long long)sum.octets, s.len);
    /* headers, SDE, 2 batches, TSC, params, context, END */
    CHECK(s.len == 24 + 16 + 8 + 2 * (16 + 512 * (8 + 4096)) + 32 + 16 +
          (8 + 4 * 8 + 24 + 2 * sizeof(struct hvm_hw_cpu)) + 8,
          "stream of %zu octets", s.len);
    CHECK(run_checker(&s) == 0, "sr-check rejects the stream");

    rc = restore_from(&s, SRC_PAGES, 2, &dst, &rsum);
    CHECK(rc == 0, "restore failed: %s", log_text());
    if ( dst )
        check_exact_copy(src, dst);
    CHECK(rsum.pages == SRC_PAGES && rsum.populated == SRC_PAGES &&
          rsum.records == 7 && rsum.octets == s.len,
          "restore summary: %llu records, %llu pages, %llu populated",
          (unsigned long long)rsum.records, (unsigned long long)rsum.pages,
          (unsigned long long)rsum.populated);
    stream_free(&s);
}

/*
 * A guest laid out as libxl builds one: RAM from 0, its xenstore and
 * console rings among the special pages just below 0xff000, nothing in
 * between.  The saver must carry the rings' pages and HVM parameters and
 * nothing of the hole; the restore must set the parameters, the new
 * domain's own ring ports and the rings' grants.
 */
#define RING_STORE   0xfeffcUL
#define RING_CONSOLE 0xfefffUL

static void test_rings_and_holes(void)
{
    struct fake_dom *src = running_source(256, 1), *dst;
    struct xc_restore_summary rsum;
    unsigned long store = 0, console = 0;
    const grant_entry_v1_t *g;
    struct stream s;
    FILE *f;
    int rc;

    src->max_pages += 2;
    CHECK(fake_populate(src, RING_STORE) && fake_populate(src, RING_CONSOLE),
          "cannot populate the rings");
    fake_fill(src, 43);
    src->params[HVM_PARAM_STORE_PFN] = RING_STORE;
    src->params[HVM_PARAM_CONSOLE_PFN] = RING_CONSOLE;
    src->params[HVM_PARAM_STORE_EVTCHN] = 1;        /* the source's: not carried */
    src->params[HVM_PARAM_CALLBACK_IRQ] = 1;        /* the guest sets it again */
    fake.pfinfo_calls = 0;
    rc = save_to(&s, src->id, 0, NULL, NULL);
    CHECK(rc == 0, "save failed: %s", log_text());
    CHECK(fake.pfinfo_calls == (RING_CONSOLE + 1 + 511) / 512,
          "%u getpageframeinfo3 calls for %#lx pfns", fake.pfinfo_calls, RING_CONSOLE + 1);
    /* 258 pages in one record each of 512-pfn batches that held any: 256 + 2. */
    CHECK(s.len == 24 + 16 + 8 + (16 + 256 * (8 + 4096)) + (16 + 2 * (8 + 4096)) + 32 +
          (16 + 2 * 16) + (8 + 3 * 8 + 24 + sizeof(struct hvm_hw_cpu)) + 8,
          "stream of %zu octets", s.len);
    CHECK(run_checker(&s) == 0, "sr-check rejects the stream");

    dst = fake_new_domain(src->tot_pages, 0, 1);
    f = tmpfile();
    fwrite(s.data, 1, s.len, f);
    fflush(f);
    lseek(fileno(f), 0, SEEK_SET);
    rc = xc_domain_restore(xch, fileno(f), dst->id, 5, &store, 0, 6, &console, 0,
                           XC_STREAM_PLAIN, NULL, -1);
    fclose(f);
    CHECK(rc == 0, "restore failed: %s", log_text());
    check_exact_copy(src, dst);
    CHECK(dst->tsc_set && dst->tsc_mode == 0 && dst->tsc_incarnation == 1,
          "TSC info not set from the stream (set %d, mode %u, incarnation %u)",
          dst->tsc_set, dst->tsc_mode, dst->tsc_incarnation);
    CHECK(store == RING_STORE && console == RING_CONSOLE,
          "rings at %#lx and %#lx", store, console);
    CHECK(dst->params[HVM_PARAM_STORE_PFN] == RING_STORE &&
          dst->params[HVM_PARAM_CONSOLE_PFN] == RING_CONSOLE &&
          dst->params[HVM_PARAM_STORE_EVTCHN] == 5 &&
          dst->params[HVM_PARAM_CONSOLE_EVTCHN] == 6 &&
          !dst->param_set[HVM_PARAM_CALLBACK_IRQ],
          "params: store %#llx/%llu console %#llx/%llu callback set %d",
          (unsigned long long)dst->params[HVM_PARAM_STORE_PFN],
          (unsigned long long)dst->params[HVM_PARAM_STORE_EVTCHN],
          (unsigned long long)dst->params[HVM_PARAM_CONSOLE_PFN],
          (unsigned long long)dst->params[HVM_PARAM_CONSOLE_EVTCHN],
          dst->param_set[HVM_PARAM_CALLBACK_IRQ]);
    g = (const void *)dst->gnttab;
    CHECK(g[GNTTAB_RESERVED_XENSTORE].frame == RING_STORE &&
          g[GNTTAB_RESERVED_CONSOLE].frame == RING_CONSOLE &&
          (g[GNTTAB_RESERVED_XENSTORE].flags & GTF_permit_access),
          "grants: xenstore %#x (flags %#x), console %#x",
          g[GNTTAB_RESERVED_XENSTORE].frame, g[GNTTAB_RESERVED_XENSTORE].flags,
          g[GNTTAB_RESERVED_CONSOLE].frame);

    /* Without ring ports (xc_domain_restore_summary): parameters only. */
    rc = restore_from(&s, src->tot_pages, 1, &dst, &rsum);
    CHECK(rc == 0 && dst && dst->params[HVM_PARAM_STORE_PFN] == RING_STORE &&
          !dst->param_set[HVM_PARAM_STORE_EVTCHN],
          "restore without rings: rc %d: %s", rc, log_text());
    stream_free(&s);
}

struct rounds_seen {
    unsigned int calls, finals, last_iteration;
    uint64_t sent, max_throttle, writes, last_dirtied;
    uint64_t cap;                       /* the max_bandwidth of the save */
    bool order_ok, stats_ok;
    bool share_ok;                      /* capped: paused ~ throttle% */
    unsigned int throttled_rounds;
};

static void round_cb(const struct xc_save_round_stats *st, void *data)
{
    struct rounds_seen *r = data;

    if ( verbose )
        printf("      round %u%s: sent %llu dirtied %llu time %llu ns rate %llu "
               "p/s bw %llu B/s downtime %llu ns throttle %u%% paused %llu "
               "ns (longest %llu)\n",
               st->iteration, st->final ? " final" : "",
               (unsigned long long)st->pages_sent,
               (unsigned long long)st->pages_dirtied,
               (unsigned long long)st->time_ns,
               (unsigned long long)st->dirty_rate,
               (unsigned long long)st->bandwidth,
               (unsigned long long)st->predicted_downtime_ns, st->throttle,
               (unsigned long long)st->paused_ns,
               (unsigned long long)st->max_pause_ns);
    r->calls++;
    r->finals += st->final;
    if ( st->iteration != r->last_iteration + 1 )
        r->order_ok = false;
    r->last_iteration = st->iteration;
    r->sent += st->pages_sent;
    if ( !st->final )
        r->last_dirtied = st->pages_dirtied;
    if ( st->throttle > r->max_throttle )
        r->max_throttle = st->throttle;
    if ( !st->final && st->throttle && st->time_ns )
    {
        /* Over a capped link the pauses take throttle% of the round. */
        uint64_t share = st->paused_ns * 100 / st->time_ns;

        r->throttled_rounds++;
        if ( r->cap && (share + 10 < st->throttle || share > st->throttle + 10) )
            r->share_ok = false;
        if ( st->max_pause_ns > st->paused_ns || !st->max_pause_ns )
            r->share_ok = false;
    }
    else if ( st->paused_ns || st->max_pause_ns )
        r->share_ok = false;            /* paused, not throttled */
    if ( !st->final && st->time_ns )
    {
        /* Measured, but never above the cap; the downtime from that. */
        uint64_t bw = st->pages_sent * 4096 * 1000000000ULL / st->time_ns;

        if ( r->cap && (bw > r->cap || !st->pages_sent) )
            bw = r->cap;
        if ( st->bandwidth != bw || (bw && st->predicted_downtime_ns !=
             st->pages_dirtied * 4096 * 1000000000ULL / bw) )
            r->stats_ok = false;
    }
}

/* Live, with the guest writing throughout; returns the rounds. */
static unsigned int live_case(unsigned long rate, struct xc_save_params *p,
                              struct rounds_seen *seen)
{
    struct fake_dom *src = running_source(SRC_PAGES, 1), *dst;
    struct xc_save_summary sum;
    struct stream s;
    uint64_t writes_before;
    int rc;

    memset(seen, 0, sizeof(*seen));
    seen->order_ok = seen->stats_ok = true;
    seen->cap = p->max_bandwidth;
    fake_set_writer(src, 256, 512, rate);
    p->round_stats = round_cb;
    p->data = seen;
    p->summary = &sum;
    writes_before = src->w_writes;
    rc = save_to(&s, src->id, XCFLAGS_LIVE, NULL, p);
    CHECK(rc == 0, "live save failed: %s", log_text());
    CHECK(!rate || src->w_writes > writes_before,
          "the guest did not write meanwhile");
    seen->writes = src->w_writes - writes_before;
    CHECK(src->pause_count == 1 && !src->logdirty,
          "source: paused %u, log-dirty %d", src->pause_count, src->logdirty);
    CHECK(src->final_cleans == 1, "%u final CLEANs", src->final_cleans);
    CHECK(seen->calls == sum.rounds + 1 && seen->finals == 1 && seen->order_ok,
          "%u round callbacks (%u final) for %u rounds", seen->calls,
          seen->finals, sum.rounds);
    CHECK(seen->sent == sum.pages_sent, "rounds sent %llu pages, summary %llu",
          (unsigned long long)seen->sent, (unsigned long long)sum.pages_sent);
    CHECK(seen->stats_ok, "a round's bandwidth is not min(its octets / time, "
          "cap), or its predicted downtime not dirty pages / bandwidth");
    CHECK(run_checker(&s) == 0, "sr-check rejects the live stream");
    rc = restore_from(&s, SRC_PAGES, 1, &dst, NULL);
    CHECK(rc == 0, "restore failed: %s", log_text());
    if ( dst )
    {
        check_exact_copy(src, dst);
        xc_domain_destroy(xch, dst->id);
    }
    xc_domain_destroy(xch, src->id);
    stream_free(&s);
    return sum.rounds;
}

static void test_live_roundtrip(void)
{
    struct xc_save_params p;
    struct rounds_seen seen;
    unsigned int rounds;

    xc_save_params_init(&p);
    p.downtime_ns = 0;                  /* pre-copy until max_rounds... */
    p.max_rounds = 4;
    p.auto_converge = false;
    rounds = live_case(2, &p, &seen);
    CHECK(rounds == 4, "%u rounds, max_rounds 4", rounds);
    CHECK(seen.max_throttle == 0, "throttled without auto-converge");
}

static void test_live_default_policy(void)
{
    struct xc_save_params p;
    struct rounds_seen seen;
    unsigned int rounds;

    xc_save_params_init(&p);            /* 300 ms: the fake is fast */
    rounds = live_case(1, &p, &seen);
    CHECK(rounds >= 1 && rounds <= 2, "%u rounds with a 300 ms target", rounds);
}

static void test_live_xen_policy(void)
{
    struct xc_save_params p;
    struct rounds_seen seen;
    unsigned int rounds;

    xc_save_params_init(&p);
    p.policy = XC_PRECOPY_XEN;
    rounds = live_case(64, &p, &seen);
    CHECK(rounds == XC_SAVE_XEN_MAX_ITERS, "%u rounds under Xen's policy (busy "
          "guest)", rounds);
    rounds = live_case(0, &p, &seen);
    CHECK(rounds == 1, "%u rounds under Xen's policy (idle guest)", rounds);
}

static void test_live_auto_converge(void)
{
    struct xc_save_params p;
    struct rounds_seen seen;

    uint64_t free_writes, free_dirtied;
    unsigned int rounds;

    /* The same busy guest, the same rounds, with and without throttling. */
    xc_save_params_init(&p);
    p.downtime_ns = 0;
    p.max_rounds = 8;
    p.auto_converge = false;
    rounds = live_case(64, &p, &seen);
    free_writes = seen.writes;
    free_dirtied = seen.last_dirtied;
    CHECK(rounds == 8 && seen.max_throttle == 0, "%u rounds, throttle %llu%%",
          rounds, (unsigned long long)seen.max_throttle);

    p.auto_converge = true;
    rounds = live_case(64, &p, &seen);
    CHECK(rounds == 8, "%u rounds", rounds);
    CHECK(seen.last_dirtied * 4 <= free_dirtied, "%llu pages dirty after the "
          "last round, %llu unthrottled: no convergence",
          (unsigned long long)seen.last_dirtied,
          (unsigned long long)free_dirtied);
    CHECK(seen.max_throttle >= 60, "throttle reached only %llu%%",
          (unsigned long long)seen.max_throttle);
    CHECK(seen.writes < free_writes * 3 / 4, "throttled guest wrote %llu pages, "
          "unthrottled %llu", (unsigned long long)seen.writes,
          (unsigned long long)free_writes);
}

static void check_source_resumed(const struct fake_dom *src, int rc);

/* PAGE_DATA octets in a stream (records of type 1). */
static uint64_t page_data_octets(const struct stream *s, unsigned int *records)
{
    uint64_t total = 0;
    size_t off = 24 + 16;               /* image and domain headers */

    *records = 0;
    while ( off + 8 <= s->len )
    {
        uint32_t type, len;

        memcpy(&type, s->data + off, 4);
        memcpy(&len, s->data + off + 4, 4);
        if ( type == 1 )
        {
            total += 8 + ((len + 7) & ~7U);
            (*records)++;
        }
        off += 8 + ((len + 7) & ~7U);
    }
    return total;
}

#define MiB_S(n)    ((uint64_t)(n) << 20)

/* max_bandwidth: the saver sleeps so that PAGE_DATA never beats the cap. */
static void test_bandwidth_cap(void)
{
    static const uint32_t flags[] = { XCFLAGS_LIVE, 0 };
    struct xc_save_summary sum;
    struct xc_save_params p;
    struct stream s;
    unsigned int records;
    uint64_t t0, elapsed, octets, least;

    for ( unsigned int i = 0; i < 2; i++ )
    {
        struct fake_dom *src = running_source(SRC_PAGES, 1);

        xc_save_params_init(&p);
        p.max_bandwidth = MiB_S(8);
        p.summary = &sum;
        fake.sleeps = fake.slept_ns = 0;
        t0 = fake.now_ns;
        CHECK(save_to(&s, src->id, flags[i], NULL, &p) == 0, "save failed: %s",
              log_text());
        elapsed = fake.now_ns - t0;
        octets = page_data_octets(&s, &records);
        least = octets * 1000000000ULL / p.max_bandwidth;
        /* At the cap, and no slower than the cap plus the mapping. */
        CHECK(records == 2 && octets > SRC_PAGES * 4096ULL,
              "%u PAGE_DATA records, %llu octets", records,
              (unsigned long long)octets);
        CHECK(elapsed >= least && elapsed <= least + SRC_PAGES * FAKE_NS_PER_PAGE,
              "%s: %llu octets in %llu ns at %llu octets/s: %llu ns at the "
              "least", flags[i] ? "live" : "paused",
              (unsigned long long)octets, (unsigned long long)elapsed,
              (unsigned long long)p.max_bandwidth, (unsigned long long)least);
        CHECK(sum.rate_waits == records && fake.sleeps == records &&
              sum.rate_wait_ns == fake.slept_ns,
              "%llu waits of %llu ns (%llu sleeps of %llu ns) for %u records",
              (unsigned long long)sum.rate_waits,
              (unsigned long long)sum.rate_wait_ns,
              (unsigned long long)fake.sleeps,
              (unsigned long long)fake.slept_ns, records);
        CHECK(run_checker(&s) == 0, "sr-check rejects the stream");
        stream_free(&s);

        /* No cap: no sleeping, the mapping's pace (4 GB/s here). */
        xc_domain_unpause(xch, src->id);
        p.max_bandwidth = 0;
        fake.sleeps = 0;
        t0 = fake.now_ns;
        CHECK(save_to(&s, src->id, flags[i], NULL, &p) == 0, "save failed");
        CHECK(fake.sleeps == 0 && sum.rate_waits == 0 &&
              fake.now_ns - t0 == SRC_PAGES * FAKE_NS_PER_PAGE,
              "uncapped: %llu sleeps, %llu ns",
              (unsigned long long)fake.sleeps,
              (unsigned long long)(fake.now_ns - t0));
        stream_free(&s);
        xc_domain_destroy(xch, src->id);
    }
}

/*
 * A guest dirtying faster than the link: 256 pages rewritten at one page
 * every 20 us (195 MiB/s), a 16 MiB/s cap, a 10 ms downtime target.
 */
#define FAST_PERIOD_NS      20000
#define SLOW_LINK           MiB_S(16)
#define TARGET_NS           10000000ULL

static int fast_guest_save(bool converge, bool abort_unconverged,
                           struct xc_save_summary *sum,
                           struct rounds_seen *seen, struct fake_dom **srcp)
{
    struct fake_dom *src = running_source(SRC_PAGES, 1), *dst;
    struct xc_save_params p;
    struct stream s;
    int rc;

    memset(seen, 0, sizeof(*seen));
    seen->order_ok = seen->stats_ok = seen->share_ok = true;
    fake_set_timed_writer(src, 256, 256, FAST_PERIOD_NS);
    xc_save_params_init(&p);
    p.max_bandwidth = seen->cap = SLOW_LINK;
    p.downtime_ns = TARGET_NS;
    p.max_rounds = 8;
    p.auto_converge = converge;
    p.abort_unconverged = abort_unconverged;
    p.round_stats = round_cb;
    p.data = seen;
    p.summary = sum;
    log_clear();
    rc = save_to(&s, src->id, XCFLAGS_LIVE, NULL, &p);
    *srcp = src;
    if ( rc )
    {
        stream_free(&s);
        return rc;
    }
    CHECK(seen->stats_ok, "round statistics inconsistent (see round_cb)");
    CHECK(run_checker(&s) == 0, "sr-check rejects the stream");
    CHECK(restore_from(&s, SRC_PAGES, 1, &dst, NULL) == 0, "restore failed: %s",
          log_text());
    if ( dst )
    {
        check_exact_copy(src, dst);
        xc_domain_destroy(xch, dst->id);
    }
    stream_free(&s);
    return 0;
}

static void test_not_converging(void)
{
    struct xc_save_summary sum;
    struct rounds_seen seen;
    struct fake_dom *src;
    int rc;

    /* Without auto-converge: 8 rounds, reported, copied anyway. */
    rc = fast_guest_save(false, false, &sum, &seen, &src);
    CHECK(rc == 0, "save failed: %s", log_text());
    CHECK(!sum.converged && sum.rounds == 8, "converged %d after %u rounds",
          sum.converged, sum.rounds);
    /*
     * All 256 pages dirty again; a round is their record (1,050,640
     * octets) at 16 MiB/s, 62.62 ms, and sending them again takes as long.
     */
    CHECK(sum.predicted_downtime_ns == 62623027 && seen.last_dirtied == 256,
          "predicted downtime %llu ns, %llu pages dirty",
          (unsigned long long)sum.predicted_downtime_ns,
          (unsigned long long)seen.last_dirtied);
    CHECK(sum.downtime_ns > TARGET_NS, "downtime %llu ns within the target",
          (unsigned long long)sum.downtime_ns);
    CHECK(sum.throttle_ns == 0, "paused %llu ns for throttling",
          (unsigned long long)sum.throttle_ns);
    CHECK(log_has("did not converge: predicted downtime 62.623 ms > target "
                  "10.000 ms after 8 rounds") &&
          log_has("copying the rest paused"), "no message: %s", log_text());
    xc_domain_destroy(xch, src->id);

    /* ... or, asked to, give up with the guest running on. */
    rc = fast_guest_save(false, true, &sum, &seen, &src);
    check_source_resumed(src, rc);
    CHECK(errno == ETIMEDOUT && !sum.converged, "errno %d, converged %d",
          errno, sum.converged);
    CHECK(log_has("did not converge") && log_has("abandoned, the guest runs on"),
          "no message: %s", log_text());
    xc_domain_destroy(xch, src->id);

    /* With auto-converge: throttled until the rest fits the target. */
    rc = fast_guest_save(true, false, &sum, &seen, &src);
    CHECK(rc == 0, "save failed: %s", log_text());
    CHECK(sum.converged && sum.rounds <= 8 && sum.max_throttle == 99,
          "converged %d after %u rounds, throttle %u%%", sum.converged,
          sum.rounds, sum.max_throttle);
    CHECK(sum.predicted_downtime_ns <= TARGET_NS && sum.downtime_ns <= TARGET_NS,
          "predicted downtime %llu ns, downtime %llu ns: target %llu",
          (unsigned long long)sum.predicted_downtime_ns,
          (unsigned long long)sum.downtime_ns, TARGET_NS);
    /*
     * The guest's CPU time is throttled, not whole rounds: each throttled
     * round is paused for about its throttle% of the time, in slices a
     * quarter of the round long (at least 4 pauses a round), none longer than the target (a round of 256 pages takes
     * 62.6 ms: paused throughout it would be 6 times the target).
     */
    CHECK(seen.share_ok && seen.throttled_rounds >= 3,
          "pauses not in proportion to the throttle (%u rounds throttled)",
          seen.throttled_rounds);
    CHECK(sum.max_pause_ns > 0 && sum.max_pause_ns <= TARGET_NS,
          "longest pause %llu ns, target %llu",
          (unsigned long long)sum.max_pause_ns, TARGET_NS);
    CHECK(sum.throttle_pauses >= 4 * seen.throttled_rounds,
          "%llu pauses in %u throttled rounds",
          (unsigned long long)sum.throttle_pauses, seen.throttled_rounds);
    /* The fake hypervisor's own record of pause to unpause agrees. */
    CHECK(src->pause_spans == sum.throttle_pauses &&
          src->max_pause_ns == sum.max_pause_ns &&
          src->paused_ns == sum.throttle_ns && src->pause_count == 1,
          "hypervisor saw %llu pauses, longest %llu ns, %llu ns in all, "
          "paused %u at the end; the saver %llu, %llu ns, %llu ns",
          (unsigned long long)src->pause_spans,
          (unsigned long long)src->max_pause_ns,
          (unsigned long long)src->paused_ns, src->pause_count,
          (unsigned long long)sum.throttle_pauses,
          (unsigned long long)sum.max_pause_ns,
          (unsigned long long)sum.throttle_ns);
    CHECK(!log_has("did not converge"), "reported: %s", log_text());
    xc_domain_destroy(xch, src->id);

    /*
     * A failure in a throttled round (a map fails, paused or running)
     * leaves the source running: every throttle pause undone.
     */
    for ( unsigned int at = 4; at <= 40; at += 3 )
    {
        log_clear();
        fake_fail("map", at, EFAULT);
        rc = fast_guest_save(true, false, &sum, &seen, &src);
        fake_fail_clear();
        CHECK(rc == -1 && src->pause_count == 0 && !src->logdirty &&
              fake.live_maps == 0,
              "map %u failing: rc %d, paused %u, log-dirty %d, %u maps",
              at, rc, src->pause_count, src->logdirty, fake.live_maps);
        CHECK(src->pause_spans == sum.throttle_pauses,
              "map %u failing: %llu throttle pauses, %llu undone", at,
              (unsigned long long)sum.throttle_pauses,
              (unsigned long long)src->pause_spans);
        xc_domain_destroy(xch, src->id);
    }
}

static int policy_abort(struct precopy_stats st, void *data)
{
    (void)data;
    return st.iteration >= 2 ? XGS_POLICY_ABORT : XGS_POLICY_CONTINUE_PRECOPY;
}

/* A failed save leaves the source running, log-dirty off. */
static void check_source_resumed(const struct fake_dom *src, int rc)
{
    CHECK(rc == -1, "the save succeeded");
    CHECK(src->pause_count == 0, "the source is left paused (%u)",
          src->pause_count);
    CHECK(!src->logdirty, "log-dirty is left on");
    CHECK(fake.live_maps == 0, "%u mappings left", fake.live_maps);
}

static void test_save_failures(void)
{
    struct save_callbacks cb = { .precopy_policy = policy_abort };
    struct fake_dom *src = running_source(256, 1);
    struct stream s;
    int rc;

    fake_set_writer(src, 0, 64, 4);
    rc = save_to(&s, src->id, XCFLAGS_LIVE, &cb, NULL);
    check_source_resumed(src, rc);
    CHECK(log_has("abandoned"), "no message: %s", log_text());
    stream_free(&s);

    log_clear();
    fake_fail("clean", 2, ENOMEM);
    rc = save_to(&s, src->id, XCFLAGS_LIVE, NULL, NULL);
    check_source_resumed(src, rc);
    CHECK(log_has("CLEAN of d") && log_has("resumed"), "no message: %s",
          log_text());
    stream_free(&s);

    log_clear();
    fake_fail("getcontext", 2, EIO);  /* the size query works */
    rc = save_to(&s, src->id, 0, NULL, NULL);
    check_source_resumed(src, rc);
    CHECK(log_has("HVM context"), "no message: %s", log_text());
    stream_free(&s);

    log_clear();
    fake_fail("map", 1, EFAULT);
    rc = save_to(&s, src->id, XCFLAGS_LIVE, NULL, NULL);
    check_source_resumed(src, rc);
    CHECK(log_has("cannot map"), "no message: %s", log_text());
    stream_free(&s);

    log_clear();
    rc = xc_domain_save(xch, 1, 99, 0, NULL, XC_STREAM_PLAIN, -1);
    CHECK(rc == -1 && errno == ESRCH && log_has("no domain d99"),
          "saving a missing domain: rc %d errno %d", rc, errno);
    rc = xc_domain_save(xch, 1, src->id, 0, NULL, XC_STREAM_COLO, -1);
    CHECK(rc == -1 && errno == EOPNOTSUPP, "COLO accepted");
}

/* The receiver dies after 64 KiB: EPIPE, the source runs on. */
static void test_receiver_killed(void)
{
    struct fake_dom *src = running_source(SRC_PAGES, 1);
    int fds[2], rc, status;
    pid_t pid;

    fake_set_writer(src, 0, 128, 4);
    if ( pipe(fds) )
        return (void)CHECK(0, "pipe");
    pid = fork();
    if ( pid == 0 )
    {
        static char b[65536];
        size_t got = 0;

        close(fds[1]);
        while ( got < sizeof(b) )
        {
            ssize_t n = read(fds[0], b, sizeof(b) - got);

            if ( n <= 0 )
                break;
            got += (size_t)n;
        }
        _exit(0);
    }
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);
    rc = xc_domain_save(xch, fds[1], src->id, XCFLAGS_LIVE, NULL,
                        XC_STREAM_PLAIN, -1);
    CHECK(errno == EPIPE, "errno %d, not EPIPE", errno);
    close(fds[1]);
    waitpid(pid, &status, 0);
    check_source_resumed(src, rc);
    CHECK(log_has("cannot write to the stream"), "no message: %s", log_text());
}

static void test_restore_failures(void)
{
    struct fake_dom *src = running_source(64, 1), *dst;
    struct stream s;
    unsigned int doms;
    int rc;

    rc = save_to(&s, src->id, 0, NULL, NULL);
    CHECK(rc == 0, "save failed");

    log_clear();
    fake_fail("setcontext", 1, EINVAL);
    rc = restore_from(&s, 64, 1, &dst, NULL);
    CHECK(rc == -1 && log_has("refused the HVM context"),
          "rc %d: %s", rc, log_text());

    log_clear();
    fake_fail("populate", 1, ENOMEM);
    rc = restore_from(&s, 64, 1, &dst, NULL);
    CHECK(rc == -1 && log_has("cannot populate"), "rc %d: %s", rc, log_text());

    log_clear();
    rc = restore_from(&s, 0, 1, &dst, NULL);
    CHECK(rc == -1 && log_has("maximum memory"), "rc %d: %s", rc, log_text());

    log_clear();
    rc = restore_from(&s, 32, 1, &dst, NULL);       /* smaller than the source */
    CHECK(rc == -1 && log_has("cannot populate") && log_has("PAGE_DATA record"),
          "rc %d: %s", rc, log_text());

    for ( doms = 0, rc = 0; rc < FAKE_MAX_DOMS; rc++ )
        doms += fake.dom[rc].exists;
    CHECK(doms == 1, "%u domains left (half-built ones not destroyed)", doms);
    CHECK(fake.live_maps == 0, "%u mappings left", fake.live_maps);
    stream_free(&s);
}

/* Our xenguest.h's save/restore API against Debian's (compat-check). */
static void test_compat(void)
{
    char cmd[512];
    int rc;

    if ( !compat )
    {
        printf("    (Debian's xenguest.h is not installed: nothing compared)\n");
        return;
    }
    snprintf(cmd, sizeof(cmd), "%s%s", compat, verbose ? "" : " >/dev/null");
    rc = system(cmd);
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 0,
          "xenguest.h's save/restore names, layouts or numbers differ from "
          "Debian's (run %s)", compat);
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    { "xc_domain_save/restore API as Debian's xenguest.h", test_compat },
    { "non-live round trip: exact copy, stream valid", test_nonlive_roundtrip },
    { "live round trip, guest writing: exact copy", test_live_roundtrip },
    { "live, default downtime policy", test_live_default_policy },
    { "live, Xen's policy (5 rounds / 50 pages)", test_live_xen_policy },
    { "live, auto-converge throttles a busy guest", test_live_auto_converge },
    { "max_bandwidth caps PAGE_DATA (fake clock)", test_bandwidth_cap },
    { "guest faster than the link: converges only throttled",
      test_not_converging },
    { "save failures: the source runs on", test_save_failures },
    { "receiver killed mid-stream: EPIPE, source runs on", test_receiver_killed },
    { "restore failures: half-built domain destroyed", test_restore_failures },
    { "malformed streams: each refused with its message", test_malformed_streams },
    { "truncated at every record boundary and mid-record", test_truncations },
    { "version 2 stream (no STATIC_DATA_END)", test_version2 },
    { "rings and holes: HVM params, ring ports and grants; holes left out",
      test_rings_and_holes },
};

int main(int argc, char **argv)
{
    unsigned int i, passed = 0, failed = 0;

    for ( i = 1; i < (unsigned int)argc; i++ )
    {
        if ( !strcmp(argv[i], "-v") )
            verbose = true;
        else if ( !checker )
            checker = argv[i];
        else
            compat = argv[i];
    }
    if ( !checker )
    {
        printf("usage: test-migrate [-v] SR-CHECK\n0 passed, 1 failed\n");
        return 1;
    }
    xch = xc_interface_open(&capture, &capture, 0);
    if ( !xch )
    {
        printf("cannot open the interface\n0 passed, 1 failed\n");
        return 1;
    }

    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        fake_reset();
        log_clear();
        case_failed = false;
        cases[i].fn();
        if ( fake.live_maps )
            CHECK(0, "%u foreign mappings left", fake.live_maps);
        printf("%s %s\n", case_failed ? "FAIL" : "PASS", cases[i].name);
        if ( case_failed )
            failed++;
        else
            passed++;
    }

    fake_reset();
    xc_interface_close(xch);
    if ( fake_live_buffer_pages() )
    {
        printf("FAIL %lu hypercall buffer pages never freed\n",
               fake_live_buffer_pages());
        failed++;
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-logdirty-check: log-dirty bitmaps, read through libxenctrl and
 * libxendevicemodel from a control domain (the Linux dom0's system test,
 * tools/dom0/checks.sh), checked against the record a writer guest keeps.
 *
 * The writer is tests/dirtier (protocol in tests/common/include/dirty-test.h):
 * its control page (pfn 0x200) holds, per vCPU, its seed, the step it is
 * in ('intent') and the steps it completed ('done'); step i writes page
 * dt_step_pfn(seed, i, pages).  From two records taken with the writer
 * paused the checker knows exactly which data pages were written between
 * them.  Each round: let the writer run, pause it, read its record (through
 * a foreign mapping), take the bitmap (CLEAN, PEEK, or a dirty-VRAM read),
 * unpause, check:
 *
 *   - every data page written since the previous round is in the bitmap
 *     (one missing is a failure);
 *   - every page in the bitmap was written: a data page the writer wrote,
 *     or one of its bookkeeping pages, which it writes without recording:
 *     its control page (pfn 0x200) and its kernel image (pfns 0x100-0x1ff:
 *     stack and variables).  Any other page is a failure ("spurious").
 *
 * Global log-dirty: ENABLE, rounds of CLEAN (one of them a PEEK first,
 * which must show the same pages and leave them for the CLEAN), OFF.  Then
 * dirty-VRAM tracking of the first 'vram' data pages (global log-dirty
 * off): the first read reports every frame, the next ones exactly what
 * was written in the range.
 *
 *   xen-logdirty-check [-r ROUNDS] [-s STEPS] [-V PAGES] [-i miss|spurious] [-S] DOMID
 *   xen-logdirty-check -M DOMID
 *
 *   -r  global CLEAN rounds (default 4) and VRAM rounds (same)
 *   -s  writer steps (at least) between two rounds (default 200)
 *   -V  VRAM range length in pages (default 256; 0: no VRAM rounds)
 *   -i  break the checker on purpose, to see it fail: drop one written
 *       page from the first bitmap (miss) or add one never-written page
 *       (spurious); the run must then fail
 *   -S  stop the writer at the end (it then reports and powers off)
 *   -M  no checks: DOMID is tests/mig-writer (mig-test.h); print the steps
 *       it has made ("d<N>: mig-writer at step <steps>"), for telling
 *       that it makes progress
 *
 * Prints one line per bitmap and "logdirty-check: N bitmaps checked, N
 * failed"; exits 0 only if none failed.  Not in Xen (Xen tests log-dirty
 * through migration only).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xenctrl.h>
#include <xendevicemodel.h>
#include <xenforeignmemory.h>

#include "dirty-test.h"
#include "mig-test.h"

#define BPL             (8 * sizeof(unsigned long))
#define IMAGE_FIRST     0x100UL         /* the writer's kernel image */
#define IMAGE_END       DT_CTRL_GFN     /* ... up to its control page */
#define MAX_PAGES       (1UL << 18)     /* 1 GiB writers at most */

static xc_interface *xch;
static xenforeignmemory_handle *fmem;
static xendevicemodel_handle *dmod;
static uint32_t dom;
static struct dt_ctrl *ctrl;
static unsigned long dom_pages;         /* bitmap size, in pfns */
static unsigned int nr_vcpus;
static unsigned int checked, failed;
static const char *inject;              /* NULL, "miss" or "spurious" */

static unsigned long must[MAX_PAGES / BPL], may[MAX_PAGES / BPL];

/* Where the writer stood, paused: 'lo' steps wrote, 'hi' may have. */
struct mark {
    uint64_t lo[DT_MAX_VCPUS], hi[DT_MAX_VCPUS];
};

static bool test_bit(const unsigned long *bm, unsigned long i)
{
    return bm[i / BPL] & (1UL << (i % BPL));
}

static void set_bit(unsigned long *bm, unsigned long i)
{
    bm[i / BPL] |= 1UL << (i % BPL);
}

static void clear_bit(unsigned long *bm, unsigned long i)
{
    bm[i / BPL] &= ~(1UL << (i % BPL));
}

static void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fprintf(stderr, "xen-logdirty-check: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    exit(2);
}

static void sleep_ms(unsigned int ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    nanosleep(&ts, NULL);
}

/* Steps of vCPU v whose write has landed: a prefix of its sequence. */
static uint64_t completed(unsigned int v)
{
    const struct dt_vcpu *c = &ctrl->vcpu[v];
    uint64_t done = c->done, intent = c->intent;
    xen_pfn_t pfn;
    volatile uint64_t *page;

    if ( intent != done )
        return done;
    /* Paused inside step 'intent': did its write land?  Ask the page. */
    pfn = dt_step_pfn(c->seed, intent, ctrl->data_pages);
    page = xenforeignmemory_map(fmem, dom, PROT_READ, 1, &pfn, NULL);
    if ( !page )
        die("cannot map d%u pfn %#lx: %s\n", dom, (unsigned long)pfn,
            strerror(errno));
    if ( page[v] == intent + 1 )
        done++;
    xenforeignmemory_unmap(fmem, (void *)page, 1);
    return done;
}

static void pause_and_measure(struct mark *m)
{
    unsigned int v;

    if ( xc_domain_pause(xch, dom) )
        die("pause d%u: %s\n", dom, strerror(errno));
    for ( v = 0; v < nr_vcpus; v++ )
    {
        const struct dt_vcpu *c = &ctrl->vcpu[v];

        m->lo[v] = completed(v);
        /* The step it is inside without its write showing yet. */
        m->hi[v] = (c->intent == c->done && m->lo[v] == c->done)
                   ? m->lo[v] + 1 : m->lo[v];
    }
}

static void unpause(void)
{
    if ( xc_domain_unpause(xch, dom) )
        die("unpause d%u: %s\n", dom, strerror(errno));
}

static uint64_t total_done(void)
{
    uint64_t sum = 0;
    unsigned int v;

    for ( v = 0; v < nr_vcpus; v++ )
        sum += ctrl->vcpu[v].done;
    return sum;
}

/* Let the writer make at least 'steps' more steps (at most 60 s). */
static void run_writer(uint64_t steps)
{
    uint64_t target = total_done() + steps;
    unsigned int ms;

    for ( ms = 0; total_done() < target; ms += 2 )
    {
        if ( ms > 60000 )
            die("the writer made %llu of %llu steps in 60 s\n",
                (unsigned long long)(total_done() + steps - target),
                (unsigned long long)steps);
        sleep_ms(2);
    }
}

/* Pages of steps [from[v], to[v]) of every vCPU into bm (cleared first). */
static void pages_of_steps(unsigned long *bm, const uint64_t *from,
                           const uint64_t *to)
{
    unsigned int v;
    uint64_t i;

    memset(bm, 0, (dom_pages + 7) / 8);
    for ( v = 0; v < nr_vcpus; v++ )
        for ( i = from[v]; i < to[v]; i++ )
            set_bit(bm, dt_step_pfn(ctrl->vcpu[v].seed, i, ctrl->data_pages));
}

/* What a bitmap taken at 'now' after one taken at 'from' must/may hold. */
static void expected_since(const struct mark *from, const struct mark *now)
{
    pages_of_steps(must, from->lo, now->lo);
    pages_of_steps(may, from->lo, now->hi);
}

static bool bookkeeping(unsigned long pfn)
{
    return pfn == DT_CTRL_GFN || (pfn >= IMAGE_FIRST && pfn < IMAGE_END);
}

/* -i: break the bitmap on purpose (first checked bitmap only). */
static void break_bitmap(unsigned long *bm, unsigned long first,
                         unsigned long nr)
{
    unsigned long i;

    if ( !inject || checked )
        return;
    for ( i = 0; i < nr; i++ )
    {
        if ( !strcmp(inject, "miss") && test_bit(must, first + i) )
        {
            clear_bit(bm, i);
            printf("  (injected: pfn %#lx dropped from the bitmap)\n", first + i);
            return;
        }
        if ( !strcmp(inject, "spurious") && !test_bit(may, first + i) &&
             !bookkeeping(first + i) && first + i >= DT_DATA_GFN )
        {
            set_bit(bm, i);
            printf("  (injected: pfn %#lx added to the bitmap)\n", first + i);
            return;
        }
    }
}

/*
 * Check bitmap bm, whose bit i is pfn first + i, for nr pfns, against
 * must/may (indexed by pfn).  Pages outside the data region may only be
 * bookkeeping pages.
 */
static void check(const char *what, unsigned long *bm, unsigned long first,
                  unsigned long nr)
{
    unsigned long i, set = 0, data = 0, book = 0, missing = 0, spurious = 0;
    unsigned long data_end = DT_DATA_GFN + ctrl->data_pages, want = 0;
    char books[96] = "";

    break_bitmap(bm, first, nr);
    for ( i = 0; i < nr; i++ )
    {
        unsigned long pfn = first + i;
        bool b = test_bit(bm, i);
        bool in_data = pfn >= DT_DATA_GFN && pfn < data_end;

        set += b;
        want += in_data && test_bit(must, pfn);
        if ( in_data && test_bit(must, pfn) && !b )
        {
            if ( missing++ < 4 )
                printf("  %s: written pfn %#lx MISSING from the bitmap\n", what, pfn);
        }
        else if ( b && in_data && !test_bit(may, pfn) )
        {
            if ( spurious++ < 4 )
                printf("  %s: pfn %#lx in the bitmap but not written\n", what, pfn);
        }
        else if ( b && !in_data && !bookkeeping(pfn) )
        {
            if ( spurious++ < 4 )
                printf("  %s: pfn %#lx in the bitmap: not a page the writer uses\n",
                       what, pfn);
        }
        else if ( b && in_data )
            data++;
        else if ( b )
        {
            size_t l = strlen(books);

            if ( book++ < 6 )
                snprintf(books + l, sizeof(books) - l, " %#lx", pfn);
        }
    }
    checked++;
    printf("%s: %lu dirty: %lu written (of %lu recorded), %lu bookkeeping%s%s, "
           "%lu missing, %lu spurious\n", what, set, data, want, book,
           book ? ":" : "", books, missing, spurious);
    if ( missing || spurious )
    {
        failed++;
        printf("FAIL %s\n", what);
    }
}

static void logdirty(unsigned int op, xc_hypercall_buffer_t *buf,
                     const char *what)
{
    if ( xc_logdirty_control(xch, dom, op, buf, dom_pages, 0, NULL) < 0 )
        die("%s of d%u: %s\n", what, dom, strerror(errno));
}

static void global_rounds(unsigned int rounds, uint64_t steps)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bm);
    unsigned long *peek = calloc(1, (dom_pages + 7) / 8 + sizeof(long));
    struct mark last, now;
    unsigned int r;
    char what[64];

    bm = xc_hypercall_buffer_alloc(xch, bm, (dom_pages + 7) / 8 + sizeof(long));
    if ( !bm || !peek )
        die("no memory for a %lu-page bitmap\n", dom_pages);

    /* Start with the writer stopped at a known step. */
    pause_and_measure(&last);
    if ( xc_shadow_control(xch, dom, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0) )
        die("log-dirty on for d%u: %s\n", dom, strerror(errno));
    __atomic_store_n(&ctrl->go, DT_GO_RUN, __ATOMIC_RELEASE);
    unpause();

    for ( r = 1; r <= rounds; r++ )
    {
        run_writer(steps);
        pause_and_measure(&now);
        expected_since(&last, &now);
        if ( r == 2 )
        {
            /* PEEK: the same pages as the CLEAN after it, nothing cleared. */
            logdirty(XEN_DOMCTL_SHADOW_OP_PEEK, HYPERCALL_BUFFER(bm), "PEEK");
            memcpy(peek, bm, (dom_pages + 7) / 8);
            snprintf(what, sizeof(what), "log-dirty PEEK round %u", r);
            check(what, peek, 0, dom_pages);
        }
        logdirty(XEN_DOMCTL_SHADOW_OP_CLEAN, HYPERCALL_BUFFER(bm), "CLEAN");
        unpause();
        snprintf(what, sizeof(what), "log-dirty CLEAN round %u", r);
        check(what, bm, 0, dom_pages);
        last = now;
    }

    if ( xc_shadow_control(xch, dom, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0) )
        die("log-dirty off for d%u: %s\n", dom, strerror(errno));
    xc_hypercall_buffer_free(xch, bm);
    free(peek);
}

static bool all_ones(const unsigned long *bm, unsigned long nr)
{
    unsigned long i;

    for ( i = 0; i < nr; i++ )
        if ( !test_bit(bm, i) )
            return false;
    return true;
}

static void vram_rounds(unsigned int rounds, uint64_t steps, uint32_t nr)
{
    unsigned long *bm = calloc(1, (nr + BPL - 1) / BPL * sizeof(long));
    struct mark last, now;
    unsigned int r;
    char what[64];

    if ( !bm )
        die("no memory\n");
    pause_and_measure(&last);
    if ( xendevicemodel_track_dirty_vram(dmod, dom, DT_VRAM_GFN, nr, bm) )
        die("track_dirty_vram of d%u: %s\n", dom, strerror(errno));
    checked++;
    if ( all_ones(bm, nr) )
        printf("VRAM first read: all %u frames dirty, as Xen\n", nr);
    else
    {
        failed++;
        printf("FAIL VRAM first read: not every frame dirty\n");
    }
    unpause();

    for ( r = 1; r <= rounds; r++ )
    {
        run_writer(steps);
        pause_and_measure(&now);
        if ( xendevicemodel_track_dirty_vram(dmod, dom, DT_VRAM_GFN, nr, bm) )
            die("track_dirty_vram of d%u: %s\n", dom, strerror(errno));
        unpause();
        expected_since(&last, &now);
        snprintf(what, sizeof(what), "VRAM %#x+%u round %u", DT_VRAM_GFN, nr, r);
        check(what, bm, DT_VRAM_GFN, nr);
        last = now;
    }
    if ( xendevicemodel_track_dirty_vram(dmod, dom, 0, 0, NULL) )
        die("stopping VRAM tracking of d%u: %s\n", dom, strerror(errno));
    free(bm);
}

/* -M: where tests/mig-writer stands. */
static int mig_writer_steps(void)
{
    xen_pfn_t gfn = MW_CTRL_GFN;
    struct mw_ctrl *mw = xenforeignmemory_map(fmem, dom, PROT_READ, 1, &gfn, NULL);

    if ( !mw )
        die("cannot map d%u's control page (pfn %#lx): %s\n", dom,
            (unsigned long)gfn, strerror(errno));
    if ( __atomic_load_n(&mw->magic, __ATOMIC_ACQUIRE) != MW_MAGIC )
        die("d%u has not published a mig-writer record\n", dom);
    printf("d%u: mig-writer at step %llu\n", dom, (unsigned long long)mw->steps);
    xenforeignmemory_unmap(fmem, mw, 1);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned int rounds = 4, vram = 256, ms;
    uint64_t steps = 200;
    bool stop = false, mig = false;
    xen_pfn_t gfn = DT_CTRL_GFN;
    xc_domaininfo_t info;
    int opt;

    setvbuf(stdout, NULL, _IOLBF, 0);
    while ( (opt = getopt(argc, argv, "r:s:V:i:SMh")) != -1 )
    {
        switch ( opt )
        {
        case 'r': rounds = strtoul(optarg, NULL, 0); break;
        case 's': steps = strtoull(optarg, NULL, 0); break;
        case 'V': vram = strtoul(optarg, NULL, 0); break;
        case 'i': inject = optarg; break;
        case 'S': stop = true; break;
        case 'M': mig = true; break;
        default:
            fprintf(stderr, "usage: xen-logdirty-check [-r ROUNDS] [-s STEPS] "
                    "[-V PAGES] [-i miss|spurious] [-S] DOMID\n"
                    "       xen-logdirty-check -M DOMID\n");
            return 2;
        }
    }
    if ( optind != argc - 1 || !rounds ||
         (inject && strcmp(inject, "miss") && strcmp(inject, "spurious")) )
        die("usage: xen-logdirty-check [-r ROUNDS] [-s STEPS] [-V PAGES] "
            "[-i miss|spurious] [-S] DOMID\n");
    dom = strtoul(argv[optind], NULL, 0);

    xch = xc_interface_open(NULL, NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    dmod = xendevicemodel_open(NULL, 0);
    if ( !xch || !fmem || !dmod )
        die("cannot open the control interfaces: %s\n", strerror(errno));
    if ( xc_domain_getinfolist(xch, dom, 1, &info) != 1 || info.domain != dom )
        die("no domain %u\n", dom);
    if ( mig )
        return mig_writer_steps();
    dom_pages = info.max_pages;
    if ( dom_pages > MAX_PAGES || dom_pages <= DT_DATA_GFN )
        die("d%u has %lu pages: not a writer this checks\n", dom, dom_pages);

    ctrl = xenforeignmemory_map(fmem, dom, PROT_READ | PROT_WRITE, 1, &gfn, NULL);
    if ( !ctrl )
        die("cannot map d%u's control page (pfn %#lx): %s\n", dom,
            (unsigned long)gfn, strerror(errno));
    for ( ms = 0; __atomic_load_n(&ctrl->magic, __ATOMIC_ACQUIRE) != DT_MAGIC; ms += 10 )
    {
        if ( ms > 30000 )
            die("d%u never published its record (is it tests/dirtier?)\n", dom);
        sleep_ms(10);
    }
    nr_vcpus = ctrl->nr_vcpus;
    if ( !nr_vcpus || nr_vcpus > DT_MAX_VCPUS ||
         DT_DATA_GFN + ctrl->data_pages > dom_pages || vram > ctrl->data_pages )
        die("d%u's record is not consistent (%u vCPUs, %u data pages)\n", dom,
            nr_vcpus, ctrl->data_pages);
    printf("d%u: %u writer vCPU(s), %u data pages from %#x, %lu pages of RAM\n",
           dom, nr_vcpus, ctrl->data_pages, DT_DATA_GFN, dom_pages);

    global_rounds(rounds, steps);
    if ( vram )
        vram_rounds(rounds, steps, vram);

    printf("d%u: %llu steps written\n", dom, (unsigned long long)total_done());
    if ( stop )
        __atomic_store_n(&ctrl->go, DT_GO_STOP, __ATOMIC_RELEASE);
    xenforeignmemory_unmap(fmem, ctrl, 1);
    printf("logdirty-check: %u bitmaps checked, %u failed\n", checked, failed);
    return failed ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty bitmaps checked against the writer's record (dirty-check.h),
 * from tests/logdirty, shared with tests/fuzz-dom0.
 */
#include "dirty-check.h"
#include <sys/mman.h>
#include <errno.h>
#include <string.h>

xc_interface *xch;
xenforeignmemory_handle *fmem;
uint32_t domu;
struct dt_ctrl *ctrl;
unsigned long domu_pages;        /* bitmap size in pfns */
unsigned int nr_vcpus;

struct mark last;


/* Steps of vCPU v whose write has happened (a prefix of its sequence). */
uint64_t completed(unsigned int v)
{
    const struct dt_vcpu *c = &ctrl->vcpu[v];
    uint64_t done = c->done, intent = c->intent;

    if ( intent == done )
    {
        /* Interrupted inside a step: did its write land? Ask the page. */
        xen_pfn_t pfn = dt_step_pfn(c->seed, intent, ctrl->data_pages);
        volatile uint64_t *page = xenforeignmemory_map(fmem, domu, PROT_READ, 1,
                                                       &pfn, NULL);

        if ( !page )
        {
            xtf_error("Error: cannot map d%u pfn %#lx: %d\n", domu,
                      (unsigned long)pfn, -errno);
            return done;
        }
        if ( page[v] == intent + 1 )
            done++;
        xenforeignmemory_unmap(fmem, (void *)page, 1);
    }
    return done;
}

/* The step vCPU v is inside without its write showing yet: +1 for 'hi'. */
uint64_t upper(unsigned int v, uint64_t lo)
{
    const struct dt_vcpu *c = &ctrl->vcpu[v];

    return (c->intent == c->done && lo == c->done) ? lo + 1 : lo;
}

void measure(struct mark *m, bool paused)
{
    unsigned int v;

    for ( v = 0; v < nr_vcpus; v++ )
    {
        m->lo[v] = completed(v);
        m->hi[v] = upper(v, m->lo[v]);
    }
    m->paused = paused;
}

uint64_t total_done(void)
{
    uint64_t sum = 0;
    unsigned int v;

    for ( v = 0; v < nr_vcpus; v++ )
        sum += ctrl->vcpu[v].done;
    return sum;
}

/* Let the domU make at least 'steps' more steps (we share one CPU: yield). */
void run_domu(uint64_t steps)
{
    uint64_t target = total_done() + steps;

    while ( total_done() < target )
        hypercall_yield();
}

/* Mark the pages of steps [from[v], to[v]) of every vCPU in bm. */
void pages_of_steps(unsigned long *bm, const uint64_t *from, const uint64_t *to)
{
    unsigned int v;
    uint64_t i;

    memset(bm, 0, DIV_ROUND_UP(domu_pages, 8));
    for ( v = 0; v < nr_vcpus; v++ )
        for ( i = from[v]; i < to[v]; i++ )
            set_bit(bm, dt_step_pfn(ctrl->vcpu[v].seed, i, ctrl->data_pages));
}

unsigned long failures;

/*
 * Compare a bitmap over the data region: every page in 'must' is set,
 * every set page is in 'may'.  Pages outside the data region (the writer's
 * stack and control page) are written too and are not judged.
 */
void check_bitmap(const char *what, const unsigned long *bm,
                         const unsigned long *must, const unsigned long *may)
{
    unsigned long pfn, missing = 0, spurious = 0, set = 0;

    for ( pfn = DT_DATA_GFN; pfn < DT_DATA_GFN + ctrl->data_pages; pfn++ )
    {
        bool b = test_bit(bm, pfn);

        set += b;
        if ( test_bit(must, pfn) && !b )
        {
            if ( missing++ < 4 )
                printk("  %s: written pfn %#lx MISSING from the bitmap\n", what, pfn);
        }
        if ( b && !test_bit(may, pfn) )
        {
            if ( spurious++ < 4 )
                printk("  %s: pfn %#lx reported but never written\n", what, pfn);
        }
    }
    printk("%s: %lu dirty pages, %lu missing, %lu spurious\n", what, set, missing, spurious);
    if ( missing || spurious )
    {
        failures++;
        xtf_failure("Fail: %s: %lu missing, %lu spurious\n", what, missing, spurious);
    }
}

unsigned long *bm_must, *bm_may, *bm_prev, *bm_amb;

/* What a bitmap read at mark 'now' after one at mark 'from' must/may hold. */
void expected_since(const struct mark *from, const struct mark *now)
{
    pages_of_steps(bm_must, from->paused ? from->lo : from->hi, now->lo);
    pages_of_steps(bm_may, from->lo, now->hi);
}

int logdirty_op(unsigned int op, xc_hypercall_buffer_t *buf,
                       xc_shadow_op_stats_t *stats)
{
    long long rc = xc_logdirty_control(xch, domu, op, buf, domu_pages, 0, stats);

    return rc < 0 ? -errno : 0;
}

/*
 * Rounds of: let the writer run, CLEAN, check.  With 'paused' the domU is
 * paused around the CLEAN.  Without, the CLEAN races with the writer: the
 * record is read before and after it, steps before the first read must be
 * in this bitmap, steps after the second must not, and steps in between
 * must be in this bitmap or the next one.
 */
void clean_rounds(const char *name, xc_hypercall_buffer_t *buf,
                         unsigned long *bitmap, unsigned int rounds,
                         uint64_t steps, bool paused)
{
    unsigned int r;
    char what[64];

    for ( r = 0; r < rounds; r++ )
    {
        struct mark now, after;
        int rc;

        run_domu(steps);
        if ( paused )
            xc_domain_pause(xch, domu);
        measure(&now, paused);
        rc = logdirty_op(XEN_DOMCTL_SHADOW_OP_CLEAN, buf, NULL);
        if ( !paused )
        {
            measure(&after, false);
            memcpy(now.hi, after.hi, sizeof(now.hi));
        }
        if ( paused )
            xc_domain_unpause(xch, domu);

        snprintf(what, sizeof(what), "%s round %u", name, r);
        if ( rc )
        {
            xtf_failure("Fail: %s: CLEAN: %d\n", what, rc);
            return;
        }

        /* Steps racing the previous CLEAN: in its bitmap or this one. */
        if ( !last.paused )
        {
            unsigned long pfn, lost = 0;

            pages_of_steps(bm_amb, last.lo, last.hi);
            for ( pfn = DT_DATA_GFN; pfn < DT_DATA_GFN + ctrl->data_pages; pfn++ )
                if ( test_bit(bm_amb, pfn) && !test_bit(bm_prev, pfn) &&
                     !test_bit(bitmap, pfn) )
                    lost++;
            if ( lost )
            {
                failures++;
                xtf_failure("Fail: %s: %lu pages written during the previous CLEAN were lost\n",
                            what, lost);
            }
        }

        expected_since(&last, &now);
        check_bitmap(what, bitmap, bm_must, bm_may);
        memcpy(bm_prev, bitmap, DIV_ROUND_UP(domu_pages, 8));
        last = now;
    }
}

/* Pause the domU and note where the writer stands. */
void pause_and_measure(struct mark *m)
{
    xc_domain_pause(xch, domu);
    measure(m, true);
}

int dc_attach(uint32_t dom)
{
    static unsigned long must[DC_MAX_PAGES / BITS_PER_LONG], may[DC_MAX_PAGES / BITS_PER_LONG],
                         prev[DC_MAX_PAGES / BITS_PER_LONG], amb[DC_MAX_PAGES / BITS_PER_LONG];
    xen_pfn_t ctrl_gfn = DT_CTRL_GFN;
    xc_domaininfo_t info;

    domu = dom;
    xch = xc_interface_open(NULL, NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !fmem )
    {
        xtf_error("Error: cannot open the control interfaces\n");
        return -1;
    }

    if ( xc_domain_getinfolist(xch, domu, 1, &info) != 1 || info.domain != domu )
    {
        xtf_error("Error: no domain %u\n", domu);
        return -1;
    }
    domu_pages = info.max_pages;
    if ( domu_pages > DC_MAX_PAGES )
    {
        xtf_error("Error: d%u too large for this test (%lu pages)\n", domu, domu_pages);
        return -1;
    }
    bm_must = must; bm_may = may; bm_prev = prev; bm_amb = amb;

    ctrl = xenforeignmemory_map(fmem, domu, PROT_READ | PROT_WRITE, 1, &ctrl_gfn, NULL);
    if ( !ctrl )
    {
        xtf_error("Error: cannot map the writer's control page: %d\n", -errno);
        return -1;
    }
    while ( __atomic_load_n(&ctrl->magic, __ATOMIC_ACQUIRE) != DT_MAGIC )
        hypercall_yield();
    nr_vcpus = ctrl->nr_vcpus;
    printk("d%u: %u writer vCPU(s), %u data pages, %lu pages of RAM\n",
           domu, nr_vcpus, ctrl->data_pages, domu_pages);
    return 0;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save: when the live phase stops, and auto-converge.
 *
 * After each round the saver knows how long the round took, how many
 * octets it sent and how many pages the guest dirtied meanwhile (the
 * CLEAN that ended it).  From those:
 *
 *   bandwidth   = octets sent / round time
 *   dirty rate  = pages dirtied / round time
 *   downtime    = pages dirtied * page size / bandwidth   (predicted: the
 *                 time to send them with the guest suspended)
 *
 * XC_PRECOPY_DOWNTIME stops when the predicted downtime is within the
 * target or after max_rounds; XC_PRECOPY_XEN is Xen's rule (5 rounds, or
 * fewer than 50 dirty pages).  Auto-converge throttles a guest that
 * dirties pages faster than the link sends them: when a round leaves more
 * than half the pages it sent dirty again, the throttle rises by 20
 * points (99% at most, QEMU's cpu-throttle-max) and in the next round the
 * guest is paused for that share of its time, as QEMU's cpu-throttle
 * slows vCPUs: time is cut into slices of max_pause_ns (by default the
 * downtime target), the guest is paused for the first throttle% of each
 * and runs for the rest, and the pages go meanwhile in PAGE_DATA records
 * sized (at the last round's bandwidth, at most the cap) to end within
 * their phase.  So no pause outlasts throttle% of the slice (or one
 * page's transfer, if longer), and on one physical CPU a paused guest
 * simply does not run: its dirtying slows in proportion.  A round shorter
 * than a slice's pause phase is sent paused throughout.
 *
 * A policy that stops at its round limit with its target not met has not
 * converged: that is reported (summary.converged, a warning with the
 * figures), and with abort_unconverged the save gives up and the guest
 * runs on.
 *
 * max_bandwidth caps the rate of PAGE_DATA: after each record, sleep
 * until the octets written since the window opened would have taken that
 * long at the cap.  A window that fell behind before a record began (the
 * saver was slower than the cap: CLEAN, a small round) restarts at that
 * record, so idle time is not saved up for a burst above the cap.
 */
#include <inttypes.h>
#include <stdio.h>

#include "xg_sr_common.h"

#define THROTTLE_STEP       20
#define THROTTLE_MAX        99      /* QEMU's cpu-throttle-max */

int save_precopy_decide(struct xc_sr_context *ctx,
                        struct xc_save_round_stats *st)
{
    const struct xc_save_params *p = &ctx->save.params;
    uint64_t t = st->time_ns ? st->time_ns : 1;
    uint64_t sent_octets = st->pages_sent * XC_PAGE_SIZE;
    bool stop, met;

    st->bandwidth = sent_octets * 1000000000ULL / t;
    if ( p->max_bandwidth && (st->bandwidth > p->max_bandwidth ||
                              !st->pages_sent) )
        st->bandwidth = p->max_bandwidth;   /* the link cannot do better */
    st->dirty_rate = st->pages_dirtied * 1000000000ULL / t;
    if ( st->bandwidth )
        st->predicted_downtime_ns =
            st->pages_dirtied * XC_PAGE_SIZE * 1000000000ULL / st->bandwidth;
    else
        st->predicted_downtime_ns = st->pages_dirtied ? UINT64_MAX : 0;
    if ( st->pages_sent )
        ctx->save.bandwidth = st->bandwidth;    /* sizes throttled records */

    if ( p->policy == XC_PRECOPY_XEN )
    {
        met = st->pages_dirtied < XC_SAVE_XEN_DIRTY_THRESHOLD;
        stop = met || st->iteration >= XC_SAVE_XEN_MAX_ITERS;
    }
    else
    {
        met = st->predicted_downtime_ns <= p->downtime_ns;
        stop = met || st->iteration >= (p->max_rounds ? p->max_rounds : 1);
    }
    ctx->save.summary.converged = met;
    ctx->save.summary.predicted_downtime_ns = st->predicted_downtime_ns;

    /* Throttle the next round if this one did not converge. */
    if ( !stop && p->auto_converge && p->policy == XC_PRECOPY_DOWNTIME &&
         st->pages_sent && st->pages_dirtied * 2 > st->pages_sent )
    {
        ctx->save.throttle += THROTTLE_STEP;
        if ( ctx->save.throttle > THROTTLE_MAX )
            ctx->save.throttle = THROTTLE_MAX;
        if ( ctx->save.throttle > ctx->save.summary.max_throttle )
            ctx->save.summary.max_throttle = ctx->save.throttle;
    }

    return stop ? XGS_POLICY_STOP_AND_COPY : XGS_POLICY_CONTINUE_PRECOPY;
}

int save_not_converged(struct xc_sr_context *ctx,
                       const struct xc_save_round_stats *st)
{
    const struct xc_save_params *p = &ctx->save.params;
    xc_interface *xch = ctx->xch;
    uint64_t pd = st->predicted_downtime_ns;
    uint64_t target = p->policy == XC_PRECOPY_XEN ? 0 : p->downtime_ns;
    char what[96];

    if ( p->policy == XC_PRECOPY_XEN )
        snprintf(what, sizeof(what), "%" PRIu64 " pages still dirty "
                 "(Xen's policy stops below %u)", st->pages_dirtied,
                 XC_SAVE_XEN_DIRTY_THRESHOLD);
    else
        snprintf(what, sizeof(what), "predicted downtime %" PRIu64 ".%03"
                 PRIu64 " ms > target %" PRIu64 ".%03" PRIu64 " ms",
                 pd / 1000000, pd / 1000 % 1000, target / 1000000,
                 target / 1000 % 1000);
    xc_report(xch, xch->error_handler, p->abort_unconverged ? XTL_ERROR
              : XTL_WARN, 0, "save: d%u did not converge: %s after %u "
              "rounds (%" PRIu64 " pages dirtied per s, %" PRIu64
              " octets per s)%s", ctx->domid, what, st->iteration,
              st->dirty_rate, st->bandwidth,
              p->abort_unconverged ? "; abandoned, the guest runs on"
                                   : "; copying the rest paused");
    if ( !p->abort_unconverged )
        return 0;
    errno = ETIMEDOUT;
    return -1;
}

/* ns to send octets at cap octets/s (no 128-bit division here). */
static uint64_t octets_to_ns(uint64_t octets, uint64_t cap)
{
    return octets / cap * 1000000000ULL + octets % cap * 1000000000ULL / cap;
}

void save_rate_limit(struct xc_sr_context *ctx, uint64_t octets, uint64_t t0)
{
    uint64_t cap = ctx->save.params.max_bandwidth, now, due;

    if ( !cap )
        return;
    /* The window fell behind before this record began: restart it. */
    if ( !ctx->save.rate_start_ns ||
         ctx->save.rate_start_ns +
         octets_to_ns(ctx->save.rate_octets, cap) < t0 )
    {
        ctx->save.rate_start_ns = t0 ? t0 : 1;
        ctx->save.rate_octets = 0;
    }
    ctx->save.rate_octets += octets;
    due = ctx->save.rate_start_ns + octets_to_ns(ctx->save.rate_octets, cap);
    now = xg_sr_now_ns();
    if ( due <= now )
        return;
    ctx->save.summary.rate_waits++;
    ctx->save.summary.rate_wait_ns += due - now;
    xg_sr_sleep_ns(due - now);
}

/* Octets one page takes in a PAGE_DATA record: its data and pfn word. */
#define PAGE_RECORD_OCTETS  (XC_PAGE_SIZE + 8)

/* ns a page takes on the link: the last round's rate (at most the cap). */
static uint64_t page_ns(const struct xc_sr_context *ctx)
{
    uint64_t bw = ctx->save.bandwidth;

    if ( !bw )
        bw = ctx->save.params.max_bandwidth;
    return bw ? octets_to_ns(PAGE_RECORD_OCTETS, bw) : 0;
}

/* The pages that fit in ns at that rate: at least one, a batch at most. */
static unsigned int pages_in(const struct xc_sr_context *ctx, uint64_t ns)
{
    uint64_t pn = page_ns(ctx), n;

    if ( !pn )
        return SAVE_BATCH_SIZE;
    n = ns / pn;
    return n < 1 ? 1 : n > SAVE_BATCH_SIZE ? SAVE_BATCH_SIZE : (unsigned int)n;
}

static int throttle_pause(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;

    if ( ctx->save.throttled )
        return 0;
    if ( xc_domain_pause(xch, ctx->domid) )
    {
        PERROR("save: cannot pause d%u for throttling", ctx->domid);
        return -1;
    }
    ctx->save.throttled = true;
    ctx->save.throttle_t0 = ctx->save.acct_t0 = xg_sr_now_ns();
    ctx->save.summary.throttle_pauses++;
    return 0;
}

static int throttle_unpause(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    uint64_t d, now;

    if ( !ctx->save.throttled )
        return 0;
    ctx->save.throttled = false;
    now = xg_sr_now_ns();
    d = now - ctx->save.throttle_t0;
    ctx->save.summary.throttle_ns += d;
    ctx->save.round_paused_ns += now - ctx->save.acct_t0;
    if ( d > ctx->save.round_max_pause_ns )
        ctx->save.round_max_pause_ns = d;
    if ( d > ctx->save.summary.max_pause_ns )
        ctx->save.summary.max_pause_ns = d;
    if ( xc_domain_unpause(xch, ctx->domid) )
    {
        PERROR("save: cannot unpause d%u after throttling", ctx->domid);
        return -1;
    }
    return 0;
}

/*
 * The slice is max_pause_ns long (0: the downtime target; the default
 * target, 300 ms, if that is 0 too): the longer, the finer the share a
 * scheduler's time slice leaves the guest when it runs.  Its first
 * throttle% is the pause phase, the rest the run phase.  The record after
 * this step is sized to end within its phase (by the page time), so a
 * pause ends no later than the pause phase -- unless not even one page
 * fits in it (then the pause is one record of one page).  A phase lasts
 * at least one record.
 */
static int throttle_phase(struct xc_sr_context *ctx, bool fresh,
                          uint64_t room)
{
    uint64_t slice = ctx->save.slice_ns, pause;
    uint64_t now = xg_sr_now_ns(), el;

    pause = slice / 100 * ctx->save.throttle +
            slice % 100 * ctx->save.throttle / 100;

    el = now - ctx->save.slice_t0;
    if ( !fresh && el >= slice )
    {
        ctx->save.slice_t0 = now;       /* the run phase is over */
        el = 0;
        fresh = true;
    }
    if ( el < pause && (room <= pause - el || fresh) )
    {
        ctx->save.batch_limit = pages_in(ctx, pause - el);
        return throttle_pause(ctx);
    }
    ctx->save.batch_limit = pages_in(ctx, slice > el ? slice - el : 0);
    return throttle_unpause(ctx);
}

int save_throttle_begin(struct xc_sr_context *ctx)
{
    uint64_t slice = ctx->save.params.max_pause_ns, now = xg_sr_now_ns();
    bool fresh = !ctx->save.slicing;

    ctx->save.round_paused_ns = ctx->save.round_max_pause_ns = 0;
    ctx->save.acct_t0 = now;
    ctx->save.batch_limit = SAVE_BATCH_SIZE;
    if ( ctx->save.round_end_t &&
         now - ctx->save.round_end_t > ctx->save.boundary_ns )
        ctx->save.boundary_ns = now - ctx->save.round_end_t;
    if ( !ctx->save.throttle )
        return throttle_unpause(ctx);
    if ( !slice )
        slice = ctx->save.params.downtime_ns;
    ctx->save.slice_ns = slice ? slice : XC_SAVE_DEFAULT_DOWNTIME_NS;
    if ( fresh )
        ctx->save.slice_t0 = now;
    ctx->save.slicing = true;
    return throttle_phase(ctx, fresh, page_ns(ctx));
}

int save_throttle_step(struct xc_sr_context *ctx)
{
    if ( !ctx->save.throttle )
        return 0;
    return throttle_phase(ctx, false, page_ns(ctx));
}

int save_throttle_end(struct xc_sr_context *ctx)
{
    int rc = 0;

    ctx->save.batch_limit = SAVE_BATCH_SIZE;
    /*
     * Stay paused over the round boundary (CLEAN, the policy) only if the
     * pause phase has room for the longest boundary seen: the first
     * boundary is always run unpaused, and so measured.
     */
    if ( ctx->save.throttled )
        rc = ctx->save.boundary_ns
             ? throttle_phase(ctx, false, ctx->save.boundary_ns)
             : throttle_unpause(ctx);
    ctx->save.round_end_t = xg_sr_now_ns();
    if ( ctx->save.throttled )
    {
        /* This round's share of a pause that runs on into the next. */
        uint64_t d = ctx->save.round_end_t - ctx->save.throttle_t0;

        ctx->save.round_paused_ns += ctx->save.round_end_t - ctx->save.acct_t0;
        ctx->save.acct_t0 = ctx->save.round_end_t;
        if ( d > ctx->save.round_max_pause_ns )
            ctx->save.round_max_pause_ns = d;
    }
    return rc;
}

int save_throttle_release(struct xc_sr_context *ctx)
{
    ctx->save.slicing = false;
    return throttle_unpause(ctx);
}

void save_report_round(struct xc_sr_context *ctx,
                       const struct xc_save_round_stats *st)
{
    const struct xc_save_params *p = &ctx->save.params;

    SR_DPRINTF(ctx, "save: d%u round %u%s: %" PRIu64 " pages sent, %" PRIu64
               " dirtied, %" PRIu64 " ns, %" PRIu64 " pages/s dirtied, %"
               PRIu64 " octets/s, predicted downtime %" PRIu64 " ns, "
               "throttle %u%%", ctx->domid, st->iteration,
               st->final ? " (final)" : "", st->pages_sent, st->pages_dirtied,
               st->time_ns, st->dirty_rate, st->bandwidth,
               st->predicted_downtime_ns, st->throttle);
    if ( p->round_stats )
        p->round_stats(st, p->data);
}

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
 * points (95% at most) and that share of the next round's batches is
 * sent with the guest paused.  On one physical CPU a paused guest simply
 * does not run, so throttling slows its dirtying in proportion.
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
#define THROTTLE_MAX        95

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

int save_throttle_before_batch(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;

    if ( !ctx->save.throttle )
        return 0;
    ctx->save.throttle_credit += ctx->save.throttle;
    if ( ctx->save.throttle_credit < 100 )
        return 0;
    ctx->save.throttle_credit -= 100;
    if ( xc_domain_pause(xch, ctx->domid) )
    {
        PERROR("save: cannot pause d%u for throttling", ctx->domid);
        return -1;
    }
    ctx->save.throttled = true;
    ctx->save.throttle_t0 = xg_sr_now_ns();
    return 0;
}

int save_throttle_after_batch(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;

    if ( !ctx->save.throttled )
        return 0;
    ctx->save.throttled = false;
    ctx->save.summary.throttle_ns += xg_sr_now_ns() - ctx->save.throttle_t0;
    if ( xc_domain_unpause(xch, ctx->domid) )
    {
        PERROR("save: cannot unpause d%u after throttling", ctx->domid);
        return -1;
    }
    return 0;
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

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: writing a domain's image, the libxl migration stream of Xen's
 * docs/specs/libxl-migration-stream.pandoc (revision 2):
 *
 *   header         "LibxlFmt" (big-endian u64), version 2, options 0
 *   LIBXC_CONTEXT  empty: libxenguest's stream follows (xc_domain_save)
 *   END
 *
 * A PVH guest here has no device model, so there are no EMULATOR_*
 * records; there are no checkpoints.
 */
#include <unistd.h>
#include <xenguest.h>

#include "libxl_internal.h"
#include "libxl_stream.h"

static int write_all(libxl_ctx *ctx, int fd, const void *p, size_t len,
                     const char *what)
{
    const uint8_t *b = p;

    while (len) {
        ssize_t n = write(fd, b, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            LOGE(ERROR, "cannot write the %s to the stream", what);
            return ERROR_FAIL;
        }
        b += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_rec(libxl_ctx *ctx, int fd, uint32_t type, const char *what)
{
    struct libxl__sr_rec_hdr rec = { .type = type, .length = 0 };

    return write_all(ctx, fd, &rec, sizeof(rec), what);
}

static void round_cb(const struct xc_save_round_stats *st, void *data)
{
    const libxl_suspend_params *p = data;
    libxl_suspend_round r = {
        .iteration = st->iteration,
        .final = st->final,
        .pages_sent = st->pages_sent,
        .pages_dirtied = st->pages_dirtied,
        .time_ns = st->time_ns,
        .dirty_rate = st->dirty_rate,
        .bandwidth = st->bandwidth,
        .predicted_downtime_ns = st->predicted_downtime_ns,
        .throttle = st->throttle,
        .paused_ns = st->paused_ns,
        .max_pause_ns = st->max_pause_ns,
    };

    p->round(&r, p->data);
}

int libxl__stream_write(libxl_ctx *ctx, uint32_t domid, int fd, int flags,
                        const libxl_suspend_params *params)
{
    struct libxl__sr_hdr hdr = {
        .ident = __builtin_bswap64(LIBXL_SR_IDENT),
        .version = __builtin_bswap32(LIBXL_SR_VERSION),
        .options = 0,                   /* little-endian, not legacy */
    };
    struct xc_save_params xp;
    libxl__domain_suspend_state dsps;
    struct save_callbacks cb = {
        .suspend = libxl__domain_suspend_callback,
        .data = &dsps,
    };
    uint32_t xflags = 0;
    int rc;

    xc_save_params_init(&xp);
    if (params) {
        if (params->xen_policy)
            xp.policy = XC_PRECOPY_XEN;
        if (params->downtime_ms)
            xp.downtime_ns = params->downtime_ms * 1000000ULL;
        if (params->max_rounds)
            xp.max_rounds = params->max_rounds;
        xp.auto_converge = !params->no_auto_converge;
        xp.max_bandwidth = params->max_bandwidth;
        if (params->round) {
            xp.round_stats = round_cb;
            xp.data = (void *)params;
        }
    }
    if (flags & LIBXL_SUSPEND_LIVE)
        xflags |= XCFLAGS_LIVE;
    if (flags & LIBXL_SUSPEND_DEBUG)
        xflags |= XCFLAGS_DEBUG;

    rc = libxl__domain_suspend_init(ctx, &dsps, domid);
    if (rc)
        return rc;
    rc = write_all(ctx, fd, &hdr, sizeof(hdr), "libxl header");
    if (!rc)
        rc = write_rec(ctx, fd, LIBXL_SR_REC_LIBXC_CONTEXT, "LIBXC_CONTEXT record");
    if (rc)
        goto out;
    /* Without PV drivers: no callback, xc_domain_save pauses it. */
    if (xc_domain_save_params(ctx->xch, fd, domid, xflags,
                              dsps.pvcontrol ? &cb : NULL,
                              XC_STREAM_PLAIN, -1, &xp)) {
        rc = dsps.rc ? dsps.rc : ERROR_FAIL;
        LOGED(ERROR, domid, "saving the domain failed (it runs on)");
        goto out;
    }
    rc = write_rec(ctx, fd, LIBXL_SR_REC_END, "END record");
 out:
    /* Nothing lost: a guest that suspended runs on, resumed in place. */
    if (rc && dsps.suspended && !libxl__domain_resume(ctx, domid, 1))
        LOGD(INFO, domid, "resumed in place after the failed save");
    libxl__domain_suspend_dispose(&dsps);
    return rc;
}

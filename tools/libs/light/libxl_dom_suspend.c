/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Suspending a domain for a save or a migration, and resuming it in place
 * (Xen's tools/libs/light/libxl_dom_suspend.c, synchronous here).
 *
 * A guest with PV drivers takes part in its own suspend: libxl writes
 * "suspend" to its xenstore node control/shutdown; the guest acknowledges
 * by clearing the node (Linux: drivers/xen/manage.c, shutdown_handler),
 * quiesces its devices and calls SCHEDOP_shutdown(SHUTDOWN_suspend); the
 * hypervisor then reports it shut down with reason suspend.  As in Xen:
 *
 *   - the guest has 60 s to acknowledge (Xen's libxl__domain_pvcontrol);
 *     if it does not, the request is withdrawn in a transaction (unless
 *     the guest acknowledged at the last moment), "guest didn't
 *     acknowledge suspend, cancelling request", and the save fails with
 *     the guest running on, untouched;
 *   - then another 60 s to suspend (domain_suspend_common_wait_guest);
 *     "guest did not suspend, timed out", "guest we were suspending has
 *     shut down with unexpected reason code N", "... has been destroyed";
 *   - the request goes through the guest's suspend event channel instead
 *     when it advertises one (device/suspend/event-channel): not here, as
 *     this toolstack has no libxenevtchn; such a guest is asked through
 *     control/shutdown, which Linux also answers (and Linux advertises no
 *     event channel).
 *
 * Which guests: Xen asks every PVH guest through control/shutdown.  Here
 * a guest without PV drivers (HVM_PARAM_CALLBACK_IRQ 0: this project's
 * test kernels) is paused instead, as before (xc_domain_save pauses it);
 * under Xen such a guest could not be saved at all (it never answers).
 *
 * Resuming in place after a failed or cancelled save, or a checkpoint:
 * libxl__domain_resume, xc_domain_resume(fast = suspend_cancel) then
 * xs_resume_domain, as Xen's libxl__domain_resume_deprecated.  This
 * project adds one step: if the cooperative resume fails for a domain
 * that is still suspended, it is resumed non-cooperatively (the guest sees
 * a new domain and reconnects) rather than left stopped.
 */
#include <time.h>

#include <xenguest.h>
#include <xen/hvm/params.h>
#include <xen/sched.h>

#include "libxl_internal.h"

/* Xen's time limits (libxl_domain.c, libxl_dom_suspend.c): 60 s each. */
#define SUSPEND_ACK_TIMEOUT_MS   (60 * 1000)
#define SUSPEND_WAIT_TIMEOUT_MS  (60 * 1000)
#define SUSPEND_POLL_MS          20

static void sleep_ms(unsigned int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    nanosleep(&ts, NULL);
}

int libxl__domain_suspend_init(libxl_ctx *ctx, libxl__domain_suspend_state *dsps,
                               uint32_t domid)
{
    uint64_t pvdrv = 0;
    char *dompath, *path, *port;

    memset(dsps, 0, sizeof(*dsps));
    dsps->ctx = ctx;
    dsps->domid = domid;
    dsps->guest_evtchn_port = -1;

    /* As Xen's: an unreadable parameter counts as 0 (no PV drivers). */
    if (xc_hvm_param_get(ctx->xch, domid, HVM_PARAM_CALLBACK_IRQ, &pvdrv)) {
        LOGED(WARN, domid, "cannot read HVM_PARAM_CALLBACK_IRQ: pausing it");
        pvdrv = 0;
    }
    if (!pvdrv) {
        LOGD(DEBUG, domid, "no PV drivers (HVM_PARAM_CALLBACK_IRQ 0): "
             "pausing it rather than asking it to suspend");
        return 0;
    }
    dompath = libxl__xs_get_dompath(ctx, domid);
    if (!dompath)
        return ERROR_FAIL;
    dsps->pvcontrol = true;
    path = GCSPRINTF("%s/device/suspend/event-channel", dompath);
    port = path ? libxl__xs_read(ctx, XBT_NULL, path) : NULL;
    if (port && *port) {
        dsps->guest_evtchn_port = atoi(port);
        LOGD(WARN, domid, "the guest offers suspend event channel %s; this "
             "toolstack has no event channel library: asking through "
             "control/shutdown", port);
    }
    free(port);
    free(path);
    dsps->control_path = GCSPRINTF("%s/control/shutdown", dompath);
    free(dompath);
    return dsps->control_path ? 0 : ERROR_NOMEM;
}

void libxl__domain_suspend_dispose(libxl__domain_suspend_state *dsps)
{
    free(dsps->control_path);
    dsps->control_path = NULL;
}

/* Any value but "suspend", a missing node included, is an answer (Xen's). */
static bool pvcontrol_acked(const char *state)
{
    return !state || strcmp(state, "suspend");
}

/*
 * The guest never answered: withdraw the request, unless it answers at the
 * last moment (the node is re-read and cleared in one transaction).
 * 0: it answered after all; else ERROR_GUEST_TIMEDOUT or ERROR_FAIL.
 */
static int pvcontrol_cancel(libxl__domain_suspend_state *dsps)
{
    libxl_ctx *ctx = dsps->ctx;
    const uint32_t domid = dsps->domid;

    for (;;) {
        xs_transaction_t t = xs_transaction_start(ctx->xsh);
        char *state;

        if (t == XBT_NULL) {
            LOGED(ERROR, domid, "xenstore transaction");
            return ERROR_FAIL;
        }
        state = xs_read(ctx->xsh, t, dsps->control_path, NULL);
        if (pvcontrol_acked(state)) {
            free(state);
            xs_transaction_end(ctx->xsh, t, true);
            return 0;                   /* last-minute ack */
        }
        free(state);
        if (!xs_write(ctx->xsh, t, dsps->control_path, "", 0)) {
            LOGED(ERROR, domid, "withdrawing the suspend request");
            xs_transaction_end(ctx->xsh, t, true);
            return ERROR_FAIL;
        }
        if (xs_transaction_end(ctx->xsh, t, false)) {
            LOGD(ERROR, domid, "guest didn't acknowledge suspend, cancelling request");
            return ERROR_GUEST_TIMEDOUT;
        }
        if (errno != EAGAIN) {
            LOGED(ERROR, domid, "withdrawing the suspend request");
            return ERROR_FAIL;
        }
    }
}

/* Wait for the guest to shut down for suspend. */
static int wait_guest(libxl__domain_suspend_state *dsps)
{
    libxl_ctx *ctx = dsps->ctx;
    const uint32_t domid = dsps->domid;
    uint64_t start = libxl__now_ms();

    LOGD(DEBUG, domid, "wait for the guest to suspend");
    for (;;) {
        xc_domaininfo_t info;
        int ret = xc_domain_getinfolist(ctx->xch, domid, 1, &info);
        unsigned int reason;

        if (ret < 0) {
            LOGED(ERROR, domid, "unable to check for status of guest");
            return ERROR_FAIL;
        }
        if (!(ret == 1 && info.domain == domid)) {
            LOGD(ERROR, domid, "guest we were suspending has been destroyed");
            return ERROR_FAIL;
        }
        if (info.flags & XEN_DOMINF_shutdown) {
            reason = (info.flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
            if (reason != SHUTDOWN_suspend) {
                LOGD(ERROR, domid, "guest we were suspending has shut down"
                     " with unexpected reason code %u", reason);
                return ERROR_FAIL;
            }
            LOGD(DEBUG, domid, "guest has suspended");
            dsps->suspended = true;
            return 0;
        }
        if (libxl__now_ms() - start >= SUSPEND_WAIT_TIMEOUT_MS) {
            LOGD(ERROR, domid, "guest did not suspend, timed out");
            return ERROR_GUEST_TIMEDOUT;
        }
        sleep_ms(SUSPEND_POLL_MS);
    }
}

int libxl__domain_suspend(libxl__domain_suspend_state *dsps)
{
    libxl_ctx *ctx = dsps->ctx;
    const uint32_t domid = dsps->domid;
    uint64_t start;
    int rc;

    if (!dsps->pvcontrol) {
        if (xc_domain_pause(ctx->xch, domid)) {
            LOGED(ERROR, domid, "cannot pause the domain");
            return ERROR_FAIL;
        }
        return 0;
    }

    LOGD(DEBUG, domid, "issuing PVH suspend request via XenBus control node");
    if (!xs_write(ctx->xsh, XBT_NULL, dsps->control_path, "suspend", 7)) {
        LOGED(ERROR, domid, "writing %s", dsps->control_path);
        return ERROR_FAIL;
    }
    start = libxl__now_ms();
    for (;;) {
        char *state = xs_read(ctx->xsh, XBT_NULL, dsps->control_path, NULL);
        bool acked = pvcontrol_acked(state);

        free(state);
        if (acked)
            break;
        if (libxl__now_ms() - start >= SUSPEND_ACK_TIMEOUT_MS) {
            rc = pvcontrol_cancel(dsps);
            if (rc)
                return rc;
            break;
        }
        sleep_ms(SUSPEND_POLL_MS);
    }
    LOGD(DEBUG, domid, "guest acknowledged suspend request");
    dsps->guest_responded = true;
    return wait_guest(dsps);
}

/* xc_domain_save's suspend callback: 1 once the guest has suspended. */
int libxl__domain_suspend_callback(void *data)
{
    libxl__domain_suspend_state *dsps = data;

    dsps->rc = libxl__domain_suspend(dsps);
    return dsps->rc ? 0 : 1;
}

int libxl__domain_resume(libxl_ctx *ctx, uint32_t domid, int suspend_cancel)
{
    xc_domaininfo_t info;

    if (xc_domain_resume(ctx->xch, domid, suspend_cancel)) {
        LOGED(ERROR, domid, "xc_domain_resume failed");
        if (!suspend_cancel || xc_domain_getinfolist(ctx->xch, domid, 1, &info) != 1 ||
            info.domain != domid || !(info.flags & XEN_DOMINF_shutdown) ||
            ((info.flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask)
            != SHUTDOWN_suspend)
            return ERROR_FAIL;
        /* This project's step: not left stopped; it will reconnect everything. */
        LOGD(WARN, domid, "resuming it non-cooperatively instead (it sees a new domain)");
        if (xc_domain_resume(ctx->xch, domid, 0)) {
            LOGED(ERROR, domid, "xc_domain_resume failed");
            return ERROR_FAIL;
        }
    }
    if (!xs_resume_domain(ctx->xsh, domid)) {
        LOGED(ERROR, domid, "xs_resume_domain failed");
        return ERROR_FAIL;
    }
    return 0;
}

int libxl_domain_resume(libxl_ctx *ctx, uint32_t domid, int suspend_cancel,
                        const libxl_asyncop_how *ao_how)
{
    xc_domaininfo_t info;
    int rc = libxl__ao_synchronous_only(ctx, ao_how, __func__);

    if (rc)
        return rc;
    rc = libxl__domain_getinfo(ctx, domid, &info);
    if (rc)
        return rc;
    return libxl__domain_resume(ctx, domid, suspend_cancel);
}

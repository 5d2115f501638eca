/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl's events (libxl_event.h): DOMAIN_SHUTDOWN and DOMAIN_DEATH, as
 * Xen's libxl makes them, and the two ways an application runs libxl's
 * part of its event loop.
 *
 * Where they come from, as in Xen: a xenstore watch on @releaseDomain,
 * which xenstored fires whenever a domain shuts down or goes away (and
 * once when the watch is set).  Each firing reads every watched domain's
 * state from the hypervisor: one that is gone or dying gives DEATH, one
 * shut down (for the first time) SHUTDOWN with its reason.  The watch is
 * set while at least one domain-death generator is enabled.
 *
 * How they reach the application: an event whose type is in the
 * registered hooks' event_occurs_mask goes to event_occurs, any other
 * onto the ctx's queue for libxl_event_check/_wait.  libxl's descriptor
 * (xenstore's, xs_fileno) is either added by libxl_osevent_beforepoll to
 * the application's poll() and looked at by _afterpoll, or registered
 * through the application's osevent hooks (fd_register when the watch is
 * set, fd_deregister when it goes), which then calls
 * libxl_osevent_occurred_fd.  Watch events are taken with
 * xs_check_watch(), which never blocks.
 *
 * One thread at a time per ctx, as everything else in this libxl (Xen's
 * takes the ctx lock; there is none here yet).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "libxl_internal.h"

#define DEATH_WATCH_TOKEN "libxl-evgen-domain-death"

struct libxl__evgen_domain_death {
    uint32_t domid;
    libxl_ev_user user;
    bool shutdown_reported;
    bool death_reported;
    struct libxl__evgen_domain_death *next;
};

struct libxl__event_state {
    libxl_event *queue_head, **queue_tail;  /* through each event's link */
    const libxl_event_hooks *hooks;
    void *hooks_user;
    const libxl_osevent_hooks *oshooks;
    void *oshooks_user;
    struct libxl__evgen_domain_death *deaths;
    bool watching;                          /* the @releaseDomain watch is set */
    bool recheck;                           /* a generator was added to a set watch */
    bool timeout_registered;                /* ... and the application will call back */
    void *timeout_for_app;
    bool fd_registered;                     /* with the osevent hooks */
    void *fd_for_app;
};

static struct libxl__event_state *ev_state(libxl_ctx *ctx)
{
    if (!ctx->ev) {
        ctx->ev = calloc(1, sizeof(*ctx->ev));
        if (!ctx->ev)
            return NULL;
        ctx->ev->queue_tail = &ctx->ev->queue_head;
    }
    return ctx->ev;
}

/* libxl could not deliver events of this type: the disaster hook, or exit. */
static void disaster(libxl_ctx *ctx, libxl_event_type type, const char *msg,
                     int errnoval)
{
    struct libxl__event_state *es = ctx->ev;

    libxl__log(ctx, XTL_CRITICAL, errnoval, __func__,
               "DISASTER in event loop: %s", msg);
    if (es && es->hooks && es->hooks->disaster) {
        es->hooks->disaster(es->hooks_user, type, msg, errnoval);
        return;
    }
    fprintf(stderr, "libxl: fatal error, exiting program: %s\n", msg);
    exit(-1);
}

/* ---- the queue and delivery --------------------------------------------------- */

static void deliver(libxl_ctx *ctx, libxl_event *e)
{
    struct libxl__event_state *es = ctx->ev;

    if (es->hooks && es->hooks->event_occurs &&
        (es->hooks->event_occurs_mask & (1ULL << e->type))) {
        es->hooks->event_occurs(es->hooks_user, e);
        return;
    }
    e->link.tqe_next = NULL;
    e->link.tqe_prev = es->queue_tail;
    *es->queue_tail = e;
    es->queue_tail = &e->link.tqe_next;
}

static void unqueue(struct libxl__event_state *es, libxl_event *e)
{
    if (e->link.tqe_next)
        e->link.tqe_next->link.tqe_prev = e->link.tqe_prev;
    else
        es->queue_tail = e->link.tqe_prev;
    *e->link.tqe_prev = e->link.tqe_next;
}

static libxl_event *new_event(libxl_ctx *ctx, libxl_event_type type,
                              uint32_t domid, libxl_ev_user user)
{
    libxl_event *e = malloc(sizeof(*e));

    if (!e) {
        disaster(ctx, type, "cannot allocate an event", errno);
        return NULL;
    }
    libxl_event_init(e);
    libxl_event_init_type(e, type);
    e->domid = domid;
    e->for_user = user;
    return e;
}

void libxl_event_free(libxl_ctx *ctx, libxl_event *event)
{
    (void)ctx;
    if (!event)
        return;
    libxl_event_dispose(event);
    free(event);
}

void libxl_event_register_callbacks(libxl_ctx *ctx,
                                    const libxl_event_hooks *hooks, void *user)
{
    struct libxl__event_state *es = ev_state(ctx);

    if (!es) {
        disaster(ctx, 0, "cannot allocate the event state", ENOMEM);
        return;
    }
    es->hooks = hooks;
    es->hooks_user = user;
}

/* ---- asynchronous operations ------------------------------------------------ */

/*
 * An operation given a non-NULL ao_how, which has done its work by now
 * (every operation here does it before returning): as Xen's libxl does for
 * an operation that completes within its initiating call, ao_how's callback
 * runs before the call returns 0, or (no callback) an OPERATION_COMPLETE
 * event with the result and ao_how's for_event goes to the application.
 * NULL ao_how: the result as it is.
 */
int libxl__ao_complete(libxl_ctx *ctx, const libxl_asyncop_how *ao_how,
                       uint32_t domid, int rc)
{
    libxl_event *e;

    if (!ao_how)
        return rc;
    if (ao_how->callback) {
        ao_how->callback(ctx, rc, ao_how->u.for_callback);
        return 0;
    }
    if (!ev_state(ctx))
        return ERROR_NOMEM;
    e = new_event(ctx, LIBXL_EVENT_TYPE_OPERATION_COMPLETE, domid, ao_how->u.for_event);
    if (!e)
        return ERROR_NOMEM;
    e->u.operation_complete.rc = rc;
    deliver(ctx, e);
    return 0;
}

/* ---- domain death ------------------------------------------------------------- */

/* Every watched domain, against what the hypervisor says now. */
static void domain_death_check(libxl_ctx *ctx)
{
    struct libxl__event_state *es = ctx->ev;
    struct libxl__evgen_domain_death *evg;

    for (evg = es->deaths; evg; evg = evg->next) {
        xc_domaininfo_t info;
        libxl_event *e;
        int rc;

        if (evg->death_reported)
            continue;
        rc = libxl__domain_getinfo(ctx, evg->domid, &info);
        LOGD(DEBUG, evg->domid, " death check: rc %d, flags %#x", rc, rc ? 0 : info.flags);
        if (rc && rc != ERROR_DOMAIN_NOTFOUND)
            continue;                   /* logged; looked at again next time */
        if (rc == ERROR_DOMAIN_NOTFOUND || (info.flags & XEN_DOMINF_dying)) {
            evg->death_reported = true;
            e = new_event(ctx, LIBXL_EVENT_TYPE_DOMAIN_DEATH, evg->domid, evg->user);
            if (e)
                deliver(ctx, e);
            continue;
        }
        if ((info.flags & XEN_DOMINF_shutdown) && !evg->shutdown_reported) {
            evg->shutdown_reported = true;
            e = new_event(ctx, LIBXL_EVENT_TYPE_DOMAIN_SHUTDOWN, evg->domid, evg->user);
            if (!e)
                continue;
            e->u.domain_shutdown.shutdown_reason =
                (info.flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
            deliver(ctx, e);
        }
    }
}

/* What came on xenstore's descriptor: drain the watch events, then look. */
static void xenstore_ready(libxl_ctx *ctx)
{
    bool death = false;
    char **w;

    while ((w = xs_check_watch(ctx->xsh)) != NULL) {
        LOG(DEBUG, "watch event %s (token %s)", w[XS_WATCH_PATH], w[XS_WATCH_TOKEN]);
        if (!strcmp(w[XS_WATCH_TOKEN], DEATH_WATCH_TOKEN))
            death = true;
        free(w);
    }
    if (errno != EAGAIN) {
        disaster(ctx, LIBXL_EVENT_TYPE_DOMAIN_DEATH, "reading xenstore watch events",
                 errno);
        return;
    }
    if (death)
        domain_death_check(ctx);
}

/*
 * Look at every watched domain from the application's loop, soon: through
 * an ASAP timeout if it runs the loop with osevent hooks (as Xen's libxl
 * defers work), else at the next beforepoll/afterpoll or check.
 */
static void schedule_recheck(libxl_ctx *ctx)
{
    struct libxl__event_state *es = ctx->ev;
    struct timeval asap = { 0, 0 };

    if (es->oshooks && es->oshooks->timeout_register) {
        if (es->timeout_registered)
            return;
        if (!es->oshooks->timeout_register(es->oshooks_user, &es->timeout_for_app,
                                           asap, es)) {
            es->timeout_registered = true;
            return;
        }
        LOG(ERROR, "the application refused a timeout: looking at the next event");
    }
    es->recheck = true;
}

static int watch_on(libxl_ctx *ctx)
{
    struct libxl__event_state *es = ctx->ev;
    int fd = xs_fileno(ctx->xsh);

    if (es->watching)
        return 0;
    if (fd < 0 || !xs_watch(ctx->xsh, "@releaseDomain", DEATH_WATCH_TOKEN)) {
        LOGE(ERROR, "setting the @releaseDomain watch");
        return ERROR_FAIL;
    }
    if (es->oshooks && es->oshooks->fd_register) {
        if (es->oshooks->fd_register(es->oshooks_user, fd, &es->fd_for_app,
                                     POLLIN, es)) {
            LOG(ERROR, "the application refused xenstore's descriptor");
            xs_unwatch(ctx->xsh, "@releaseDomain", DEATH_WATCH_TOKEN);
            return ERROR_FAIL;
        }
        es->fd_registered = true;
    }
    es->watching = true;
    return 0;
}

static void watch_off(libxl_ctx *ctx)
{
    struct libxl__event_state *es = ctx->ev;

    if (!es->watching)
        return;
    if (es->fd_registered && es->oshooks->fd_deregister)
        es->oshooks->fd_deregister(es->oshooks_user, xs_fileno(ctx->xsh),
                                   es->fd_for_app);
    es->fd_registered = false;
    xs_unwatch(ctx->xsh, "@releaseDomain", DEATH_WATCH_TOKEN);
    es->watching = false;
}

int libxl_evenable_domain_death(libxl_ctx *ctx, uint32_t domid,
                                libxl_ev_user user, libxl_evgen_domain_death **evgen_out)
{
    struct libxl__event_state *es = ev_state(ctx);
    struct libxl__evgen_domain_death *evg;
    bool first;
    int rc;

    *evgen_out = NULL;
    if (!es)
        return ERROR_NOMEM;
    evg = calloc(1, sizeof(*evg));
    if (!evg)
        return ERROR_NOMEM;
    evg->domid = domid;
    evg->user = user;
    first = !es->watching;
    rc = watch_on(ctx);
    if (rc) {
        free(evg);
        return rc;
    }
    evg->next = es->deaths;
    es->deaths = evg;
    *evgen_out = evg;
    /*
     * A new watch fires once at once: the domain's state now is reported
     * then.  A watch already set does not: look again from the loop (not
     * from here, before the caller has its generator).
     */
    if (!first)
        schedule_recheck(ctx);
    return 0;
}

void libxl_evdisable_domain_death(libxl_ctx *ctx, libxl_evgen_domain_death *evg)
{
    struct libxl__event_state *es = ctx->ev;
    struct libxl__evgen_domain_death **pp;

    if (!es || !evg)
        return;
    for (pp = &es->deaths; *pp; pp = &(*pp)->next)
        if (*pp == evg) {
            *pp = evg->next;
            break;
        }
    free(evg);
    if (!es->deaths)
        watch_off(ctx);
}

int libxl_evenable_disk_eject(libxl_ctx *ctx, uint32_t domid, const char *vdev,
                              libxl_ev_user user, libxl_evgen_disk_eject **evgen_out)
{
    (void)user;
    *evgen_out = NULL;
    LOGD(ERROR, domid, "disk eject events for %s: no disks in this libxl", vdev);
    return ERROR_NI;
}

void libxl_evdisable_disk_eject(libxl_ctx *ctx, libxl_evgen_disk_eject *evg)
{
    (void)ctx;
    (void)evg;
}

/* ---- the application's event loop --------------------------------------------- */

int libxl_osevent_beforepoll(libxl_ctx *ctx, int *nfds_io, struct pollfd *fds,
                             int *timeout_upd, struct timeval now)
{
    struct libxl__event_state *es = ctx->ev;
    int need = es && es->watching ? 1 : 0;

    (void)now;
    if (es && (es->queue_head || es->recheck) && timeout_upd)
        *timeout_upd = 0;               /* events are waiting, or work is */
    if (*nfds_io < need) {
        *nfds_io = need;
        return ERROR_BUFFERFULL;
    }
    if (need) {
        fds[0].fd = xs_fileno(ctx->xsh);
        fds[0].events = POLLIN;
        fds[0].revents = 0;
    }
    *nfds_io = need;
    return 0;
}

void libxl_osevent_afterpoll(libxl_ctx *ctx, int nfds, const struct pollfd *fds,
                             struct timeval now)
{
    struct libxl__event_state *es = ctx->ev;
    int fd;

    (void)now;
    if (!es || !es->watching)
        return;
    if (es->recheck) {
        es->recheck = false;
        domain_death_check(ctx);
    }
    fd = xs_fileno(ctx->xsh);
    for (int i = 0; i < nfds; i++)
        if (fds[i].fd == fd && (fds[i].revents & (POLLIN | POLLERR | POLLHUP))) {
            xenstore_ready(ctx);
            return;
        }
}

void libxl_osevent_register_hooks(libxl_ctx *ctx, const libxl_osevent_hooks *hooks,
                                  void *user)
{
    struct libxl__event_state *es = ev_state(ctx);

    if (!es) {
        disaster(ctx, 0, "cannot allocate the event state", ENOMEM);
        return;
    }
    es->oshooks = hooks;
    es->oshooks_user = user;
}

void libxl_osevent_occurred_fd(libxl_ctx *ctx, void *for_libxl, int fd,
                               short events, short revents)
{
    (void)events;
    if (!ctx->ev || for_libxl != ctx->ev || !ctx->ev->watching ||
        fd != xs_fileno(ctx->xsh))
        return;
    if (revents & (POLLIN | POLLERR | POLLHUP))
        xenstore_ready(ctx);
}

/* The ASAP timeout of schedule_recheck(): one-shot, as Xen's. */
void libxl_osevent_occurred_timeout(libxl_ctx *ctx, void *for_libxl)
{
    struct libxl__event_state *es = ctx->ev;

    if (!es || for_libxl != es || !es->timeout_registered)
        return;
    es->timeout_registered = false;
    if (es->watching)
        domain_death_check(ctx);
}

/* ---- check and wait ----------------------------------------------------------- */

static libxl_event *take(struct libxl__event_state *es, uint64_t typemask,
                         libxl_event_predicate *pred, void *pred_user)
{
    for (libxl_event *e = es->queue_head; e; e = e->link.tqe_next)
        if ((typemask & (1ULL << e->type)) && (!pred || pred(e, pred_user))) {
            unqueue(es, e);
            return e;
        }
    return NULL;
}

int libxl_event_check(libxl_ctx *ctx, libxl_event **event_r, uint64_t typemask,
                      libxl_event_predicate *pred, void *pred_user)
{
    struct libxl__event_state *es = ctx->ev;
    struct pollfd fds[1];
    int nfds = 1, timeout = 0;
    struct timeval now = { 0, 0 };

    *event_r = NULL;
    if (!es)
        return ERROR_NOT_READY;
    /* What has happened: the descriptor is looked at without waiting. */
    if (!libxl_osevent_beforepoll(ctx, &nfds, fds, &timeout, now) && nfds &&
        poll(fds, nfds, 0) > 0)
        libxl_osevent_afterpoll(ctx, nfds, fds, now);
    *event_r = take(es, typemask, pred, pred_user);
    return *event_r ? 0 : ERROR_NOT_READY;
}

int libxl_event_wait(libxl_ctx *ctx, libxl_event **event_r, uint64_t typemask,
                     libxl_event_predicate *pred, void *pred_user)
{
    struct libxl__event_state *es = ev_state(ctx);
    struct timeval now = { 0, 0 };

    *event_r = NULL;
    if (!es)
        return ERROR_NOMEM;
    for (;;) {
        struct pollfd fds[1];
        int nfds = 1, timeout = -1, rc;

        *event_r = take(es, typemask, pred, pred_user);
        if (*event_r)
            return 0;
        rc = libxl_osevent_beforepoll(ctx, &nfds, fds, &timeout, now);
        if (rc)
            return rc;
        if (!nfds) {
            /* Nothing enabled could ever make one: do not sleep forever. */
            LOG(ERROR, "waiting for an event with no event generator enabled");
            return ERROR_INVAL;
        }
        if (poll(fds, nfds, timeout) < 0) {
            if (errno == EINTR)
                continue;
            LOGE(ERROR, "poll");
            return ERROR_FAIL;
        }
        libxl_osevent_afterpoll(ctx, nfds, fds, now);
    }
}

/* libxl_ctx_free: the generators, the watch and the queued events go. */
void libxl__event_state_free(libxl_ctx *ctx)
{
    struct libxl__event_state *es = ctx->ev;

    if (!es)
        return;
    while (es->deaths) {
        struct libxl__evgen_domain_death *evg = es->deaths;

        es->deaths = evg->next;
        free(evg);
    }
    watch_off(ctx);
    while (es->queue_head) {
        libxl_event *e = es->queue_head;

        unqueue(es, e);
        libxl_event_free(ctx, e);
    }
    free(es);
    ctx->ev = NULL;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libxl events client, written against Xen 4.17's libxl_event.h (the
 * suite compiles it against ours and Debian's, -Wall -Werror):
 *
 *   events MODE DOMID...
 *
 * enables DOMAIN_SHUTDOWN/DOMAIN_DEATH for each DOMID (for_user = 100 +
 * its index), prints "ready", then one line per event until every domain
 * is dead:
 *
 *   wait   libxl_event_wait, events queued;
 *   poll   its own poll() around libxl_osevent_beforepoll/_afterpoll, and
 *          libxl_event_check;
 *   hooks  its own loop through libxl_osevent_register_hooks (the
 *          descriptors and timeouts libxl registers) and events given to
 *          event_occurs (libxl_event_register_callbacks).
 *
 * Exit status 0 once all died, 1 on an error (printed).
 *
 *   events ao DOMID   pauses DOMID with a callback ao_how, unpauses it
 *                     with an event ao_how, and pauses domain 4095 (not
 *                     there) with a callback: what each returned and
 *                     what completed, in order.
 */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxl_event.h>

#define MAX_DOMS 8

static int ndoms, ndead;
static uint32_t domids[MAX_DOMS];

static void show(const libxl_event *e)
{
    switch (e->type) {
    case LIBXL_EVENT_TYPE_DOMAIN_SHUTDOWN:
        printf("DOMAIN_SHUTDOWN %u reason %u user %"PRIu64"\n", e->domid,
               e->u.domain_shutdown.shutdown_reason, e->for_user);
        break;
    case LIBXL_EVENT_TYPE_DOMAIN_DEATH:
        printf("DOMAIN_DEATH %u user %"PRIu64"\n", e->domid, e->for_user);
        ndead++;
        break;
    default:
        printf("event type %d for %u\n", e->type, e->domid);
        break;
    }
    fflush(stdout);
}

/* ---- hooks mode: the application's own registry ---------------------------- */

static libxl_ctx *ctx;
static struct { int fd; short events; void *for_libxl; bool used; } fds[4];
static struct { void *for_libxl; bool used; } timeouts[4];
static int fd_registrations, timeout_registrations;

static int fd_register(void *user, int fd, void **reg, short events, void *for_libxl)
{
    (void)user;
    for (int i = 0; i < 4; i++)
        if (!fds[i].used) {
            fds[i].fd = fd;
            fds[i].events = events;
            fds[i].for_libxl = for_libxl;
            fds[i].used = true;
            *reg = &fds[i];
            fd_registrations++;
            return 0;
        }
    return ERROR_NOMEM;
}

static int fd_modify(void *user, int fd, void **reg, short events)
{
    (void)user;
    (void)fd;
    ((typeof(&fds[0]))*reg)->events = events;
    return 0;
}

static void fd_deregister(void *user, int fd, void *reg)
{
    (void)user;
    (void)fd;
    ((typeof(&fds[0]))reg)->used = false;
}

static int timeout_register(void *user, void **reg, struct timeval abs, void *for_libxl)
{
    (void)user;
    (void)abs;                          /* every timeout is run at the next turn */
    for (int i = 0; i < 4; i++)
        if (!timeouts[i].used) {
            timeouts[i].for_libxl = for_libxl;
            timeouts[i].used = true;
            *reg = &timeouts[i];
            timeout_registrations++;
            return 0;
        }
    return ERROR_NOMEM;
}

static int timeout_modify(void *user, void **reg, struct timeval abs)
{
    (void)user;
    (void)reg;
    (void)abs;
    return 0;
}

static void timeout_deregister(void *user, void *reg)
{
    (void)user;
    ((typeof(&timeouts[0]))reg)->used = false;
}

static const libxl_osevent_hooks oshooks = {
    .fd_register = fd_register, .fd_modify = fd_modify,
    .fd_deregister = fd_deregister, .timeout_register = timeout_register,
    .timeout_modify = timeout_modify, .timeout_deregister = timeout_deregister,
};

static void event_occurs(void *user,
#ifndef LIBXL_HAVE_NONCONST_EVENT_OCCURS_EVENT_ARG
                         const
#endif
                         libxl_event *e)
{
    (void)user;
    show(e);
    libxl_event_free(ctx, (libxl_event *)e);
}

static const libxl_event_hooks evhooks = {
    .event_occurs_mask = LIBXL_EVENTMASK_ALL,
    .event_occurs = event_occurs,
};

static int hooks_loop(void)
{
    while (ndead < ndoms) {
        struct pollfd p[4];
        void *for_libxl[4];
        int n = 0, timeout = -1;

        for (int i = 0; i < 4; i++)
            if (timeouts[i].used) {
                timeouts[i].used = false;   /* one-shot */
                libxl_osevent_occurred_timeout(ctx, timeouts[i].for_libxl);
            }
        if (ndead == ndoms)
            break;
        for (int i = 0; i < 4; i++)
            if (fds[i].used) {
                p[n].fd = fds[i].fd;
                p[n].events = fds[i].events;
                for_libxl[n++] = fds[i].for_libxl;
            }
        for (int i = 0; i < 4; i++)
            if (timeouts[i].used)
                timeout = 0;
        if (!n && timeout < 0) {
            printf("nothing registered to wait on\n");
            return 1;
        }
        if (poll(p, n, timeout) < 0)
            return 1;
        for (int i = 0; i < n; i++)
            if (p[i].revents)
                libxl_osevent_occurred_fd(ctx, for_libxl[i], p[i].fd, p[i].events,
                                          p[i].revents);
    }
    printf("registered %d descriptor(s), %d timeout(s); %s\n", fd_registrations,
           timeout_registrations, fds[0].used || fds[1].used ? "still" : "none left");
    return 0;
}

/* ---- poll mode ------------------------------------------------------------- */

static int poll_loop(void)
{
    struct timeval now = { 0, 0 };

    while (ndead < ndoms) {
        struct pollfd p[4];
        int n = 0, timeout = -1, rc;
        libxl_event *e;

        /* No room: ERROR_BUFFERFULL, and how many it needs. */
        rc = libxl_osevent_beforepoll(ctx, &n, p, &timeout, now);
        if (rc != ERROR_BUFFERFULL || n != 1) {
            printf("beforepoll with no room: %d, %d wanted\n", rc, n);
            return 1;
        }
        n = 4;
        rc = libxl_osevent_beforepoll(ctx, &n, p, &timeout, now);
        if (rc || poll(p, n, timeout) < 0) {
            printf("beforepoll: %d\n", rc);
            return 1;
        }
        libxl_osevent_afterpoll(ctx, n, p, now);
        while (!libxl_event_check(ctx, &e, LIBXL_EVENTMASK_ALL, NULL, NULL)) {
            show(e);
            libxl_event_free(ctx, e);
        }
    }
    return 0;
}

/* ---- ao mode ----------------------------------------------------------------- */

static bool in_call;

static void op_done(libxl_ctx *c, int rc, void *for_callback)
{
    (void)c;
    printf("callback: rc %d, for_callback %s, %s\n", rc, (const char *)for_callback,
           in_call ? "inside the call" : "after the call");
}

static int ao(uint32_t domid)
{
    libxl_asyncop_how cb = { .callback = op_done, .u.for_callback = "pause" };
    libxl_asyncop_how ev = { .callback = NULL, .u.for_event = 77 };
    libxl_asyncop_how bad = { .callback = op_done, .u.for_callback = "pause 4095" };
    libxl_event *e;
    int rc;

    in_call = true;
    rc = libxl_domain_pause(ctx, domid, &cb);
    in_call = false;
    printf("libxl_domain_pause: %d\n", rc);
    rc = libxl_domain_unpause(ctx, domid, &ev);
    printf("libxl_domain_unpause: %d\n", rc);
    while (!libxl_event_check(ctx, &e, LIBXL_EVENTMASK_ALL, NULL, NULL)) {
        if (e->type == LIBXL_EVENT_TYPE_OPERATION_COMPLETE)
            printf("OPERATION_COMPLETE %u rc %d user %"PRIu64"\n", e->domid,
                   e->u.operation_complete.rc, e->for_user);
        else
            show(e);
        libxl_event_free(ctx, e);
    }
    in_call = true;
    rc = libxl_domain_pause(ctx, 4095, &bad);
    in_call = false;
    printf("libxl_domain_pause(4095): %d\n", rc);
    return 0;
}

int main(int argc, char **argv)
{
    xentoollog_logger_stdiostream *lg;
    libxl_evgen_domain_death *evg[MAX_DOMS];
    const char *mode = argc > 1 ? argv[1] : "";
    libxl_event *e;
    int rc, ret = 1;

    if (argc < 3 || argc - 2 > MAX_DOMS) {
        fprintf(stderr, "usage: events wait|poll|hooks DOMID...\n");
        return 2;
    }
    lg = xtl_createlogger_stdiostream(stderr, XTL_ERROR, 0);
    if (!lg || libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, (xentoollog_logger *)lg))
        return 1;
    if (!strcmp(mode, "ao")) {
        ret = ao(strtoul(argv[2], NULL, 0));
        goto out;
    }
    if (!strcmp(mode, "hooks")) {
        libxl_osevent_register_hooks(ctx, &oshooks, NULL);
        libxl_event_register_callbacks(ctx, &evhooks, NULL);
    }
    if (libxl_event_check(ctx, &e, LIBXL_EVENTMASK_ALL, NULL, NULL) != ERROR_NOT_READY) {
        printf("an event before any was enabled\n");
        goto out;
    }
    for (int i = 2; i < argc; i++) {
        domids[ndoms] = strtoul(argv[i], NULL, 0);
        rc = libxl_evenable_domain_death(ctx, domids[ndoms], 100 + ndoms, &evg[ndoms]);
        if (rc) {
            printf("libxl_evenable_domain_death(%u): %d\n", domids[ndoms], rc);
            goto out;
        }
        ndoms++;
    }
    printf("ready\n");
    fflush(stdout);

    if (!strcmp(mode, "wait")) {
        while (ndead < ndoms) {
            rc = libxl_event_wait(ctx, &e, LIBXL_EVENTMASK_ALL, NULL, NULL);
            if (rc) {
                printf("libxl_event_wait: %d\n", rc);
                goto out;
            }
            show(e);
            libxl_event_free(ctx, e);
        }
    } else if (!strcmp(mode, "poll")) {
        if (poll_loop())
            goto out;
    } else if (!strcmp(mode, "hooks")) {
        if (hooks_loop())
            goto out;
    } else {
        fprintf(stderr, "events: unknown mode %s\n", mode);
        goto out;
    }
    for (int i = 0; i < ndoms; i++)
        libxl_evdisable_domain_death(ctx, evg[i]);
    if (!strcmp(mode, "hooks"))
        printf("after evdisable: %s\n", fds[0].used || fds[1].used ?
               "a descriptor still registered" : "no descriptor registered");
    ret = 0;
 out:
    libxl_ctx_free(ctx);
    xtl_logger_destroy((xentoollog_logger *)lg);
    return ret;
}

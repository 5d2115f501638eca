/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl's events, as Xen 4.17's libxl_event.h declares them (the same
 * names, types and semantics; this text is this project's).  Included by
 * libxl.h, as Xen's is.
 *
 * What is implemented (tools/libs/light/libxl_event.c):
 *  - DOMAIN_SHUTDOWN and DOMAIN_DEATH events (libxl_evenable_domain_death),
 *    from xenstore's @releaseDomain watch, as Xen's libxl;
 *  - getting them: queued for libxl_event_check/libxl_event_wait, or given
 *    to the application's event_occurs (libxl_event_register_callbacks);
 *  - the application's event loop: either libxl_osevent_beforepoll/
 *    _afterpoll around its poll(), or its own loop through
 *    libxl_osevent_register_hooks (fd_register/_modify/_deregister) and
 *    libxl_osevent_occurred_fd.
 * Not yet: DISK_EJECT (there are no disks: libxl_evenable_disk_eject is
 * ERROR_NI), timeouts (libxl registers none), asynchronous operations
 * (a non-NULL ao_how is still ERROR_NI) and child-process handling.
 */
#ifndef LIBXL_EVENT_H
#define LIBXL_EVENT_H

#include <libxl.h>
#include <poll.h>
#include <sys/time.h>

/* ---- getting events ---------------------------------------------------------- */

#define LIBXL_EVENTMASK_ALL (~(unsigned long)0)

/* Non-zero if the application wants this event. */
typedef int libxl_event_predicate(const libxl_event *, void *user);

/*
 * An event that has happened, matching typemask (bit 1 << type) and
 * predicate (NULL: any), taken off the queue; ERROR_NOT_READY if none.
 * The caller frees it with libxl_event_free.
 */
int libxl_event_check(libxl_ctx *ctx, libxl_event **event_r,
                      uint64_t typemask,
                      libxl_event_predicate *predicate, void *predicate_user)
                      LIBXL_EXTERNAL_CALLERS_ONLY;

/* The same, waiting (through libxl_osevent_beforepoll/_afterpoll) until one comes. */
int libxl_event_wait(libxl_ctx *ctx, libxl_event **event_r,
                     uint64_t typemask,
                     libxl_event_predicate *predicate, void *predicate_user)
                     LIBXL_EXTERNAL_CALLERS_ONLY;

void libxl_event_free(libxl_ctx *ctx, libxl_event *event);

typedef struct libxl_event_hooks {
    uint64_t event_occurs_mask;
    void (*event_occurs)(void *user,
#ifndef LIBXL_HAVE_NONCONST_EVENT_OCCURS_EVENT_ARG
                         const
#endif
                         libxl_event *event);
    void (*disaster)(void *user, libxl_event_type type,
                     const char *msg, int errnoval);
} libxl_event_hooks;

/*
 * Events whose type is in hooks->event_occurs_mask go to event_occurs
 * (the application then owns and frees them) instead of the queue.
 * disaster is told of an event source that broke (NULL: libxl logs and
 * exits).  The latest call counts.
 */
void libxl_event_register_callbacks(libxl_ctx *ctx,
                                    const libxl_event_hooks *hooks, void *user);

/* ---- what events to generate ------------------------------------------------- */

typedef struct libxl__evgen_domain_death libxl_evgen_domain_death;

/*
 * DOMAIN_SHUTDOWN (once, with the reason) and DOMAIN_DEATH (once) for
 * domid, carrying user as for_user.  A domain that is already gone (or
 * never was) gives DEATH at once; one destroyed before it shut down gives
 * only DEATH.
 */
int libxl_evenable_domain_death(libxl_ctx *ctx, uint32_t domid,
                                libxl_ev_user, libxl_evgen_domain_death **evgen_out);
void libxl_evdisable_domain_death(libxl_ctx *ctx, libxl_evgen_domain_death *);

typedef struct libxl__evgen_disk_eject libxl_evgen_disk_eject;
int libxl_evenable_disk_eject(libxl_ctx *ctx, uint32_t domid, const char *vdev,
                              libxl_ev_user, libxl_evgen_disk_eject **evgen_out);
void libxl_evdisable_disk_eject(libxl_ctx *ctx, libxl_evgen_disk_eject *);

/* ---- the application's event loop -------------------------------------------- */

struct pollfd;

/*
 * Add libxl's file descriptors to fds[0 .. *nfds_io): on return *nfds_io
 * is how many it uses; ERROR_BUFFERFULL (and that number) if they do not
 * fit.  *timeout_upd (ms, -1 for none) is lowered if libxl needs to run
 * sooner.  now is the time of day.
 */
int libxl_osevent_beforepoll(libxl_ctx *ctx, int *nfds_io,
                             struct pollfd *fds, int *timeout_upd,
                             struct timeval now)
                             LIBXL_EXTERNAL_CALLERS_ONLY;

/* After poll(): libxl handles what came on its descriptors. */
void libxl_osevent_afterpoll(libxl_ctx *ctx, int nfds, const struct pollfd *fds,
                             struct timeval now)
                             LIBXL_EXTERNAL_CALLERS_ONLY;

/* For an application with its own event loop (libvirt's, say). */
typedef struct libxl_osevent_hooks {
    int (*fd_register)(void *user, int fd, void **for_app_registration_out,
                       short events, void *for_libxl);
    int (*fd_modify)(void *user, int fd, void **for_app_registration_update,
                     short events);
    void (*fd_deregister)(void *user, int fd, void *for_app_registration);
    int (*timeout_register)(void *user, void **for_app_registration_out,
                            struct timeval abs, void *for_libxl);
    int (*timeout_modify)(void *user, void **for_app_registration_update,
                          struct timeval abs)
        /* only ever called with abs={0,0}, meaning ASAP */;
    void (*timeout_deregister)(void *user, void *for_app_registration)
        /* will never be called */;
} libxl_osevent_hooks;

/* Before any event is enabled; hooks must stay valid while the ctx lives. */
void libxl_osevent_register_hooks(libxl_ctx *ctx,
                                  const libxl_osevent_hooks *hooks,
                                  void *user);

/* The application's loop saw revents on an fd libxl registered. */
void libxl_osevent_occurred_fd(libxl_ctx *ctx, void *for_libxl,
                               int fd, short events, short revents)
                               LIBXL_EXTERNAL_CALLERS_ONLY;

/* A timeout libxl registered fell due (libxl registers none yet). */
void libxl_osevent_occurred_timeout(libxl_ctx *ctx, void *for_libxl)
                                    LIBXL_EXTERNAL_CALLERS_ONLY;

#endif /* LIBXL_EVENT_H */

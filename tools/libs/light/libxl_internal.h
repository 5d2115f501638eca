/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl's private declarations: the context, logging, and the helpers the
 * generated type code (_libxl_types.c) uses.
 */
#ifndef LIBXL_INTERNAL_H
#define LIBXL_INTERNAL_H

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <xenctrl.h>
#include <xendevicemodel.h>
#include <xenstore.h>               /* Debian's (libxen-dev), Xen's library */

#include "libxl.h"
#include "libxl_json.h"
#include "libxl_utils.h"

/*
 * Xen's slack between a domain's memory and its max_pages, in KiB: room
 * for the special pages (xenstore and console rings) the builder adds.
 */
#define LIBXL_MAXMEM_CONSTANT   1024


struct libxl__ctx {
    xentoollog_logger *lg;
    xentoollog_logger *own_lg;          /* made by us when lg was NULL */
    xc_interface *xch;
    struct xs_handle *xsh;              /* xenstored, as Xen's libxl needs it */
    xendevicemodel_handle *dmod;        /* opened on first use */
    libxl_version_info version_info;
    bool version_valid;
    struct libxl__event_state *ev;      /* libxl_event.c, made on first use */
};

/* libxl_event.c: what libxl_ctx_free must release of the events. */
void libxl__event_state_free(libxl_ctx *ctx);
/*
 * Return from an operation that took ao_how and has done its work (rc):
 * rc itself for NULL ao_how; else 0, ao_how's callback having been called
 * or an OPERATION_COMPLETE event (with rc) made, as Xen's libxl does for
 * an operation that completes within its initiating call.
 */
int libxl__ao_complete(libxl_ctx *ctx, const libxl_asyncop_how *ao_how,
                       uint32_t domid, int rc);

/* ---- logging ------------------------------------------------------------- */

void libxl__log(libxl_ctx *ctx, xentoollog_level level, int errnoval,
                const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define LOG(l, f, ...) \
    libxl__log(ctx, XTL_##l, -1, __func__, f, ##__VA_ARGS__)
/* ... with strerror(errno) appended */
#define LOGE(l, f, ...) \
    libxl__log(ctx, XTL_##l, errno, __func__, f, ##__VA_ARGS__)
/* ... about one domain */
#define LOGD(l, d, f, ...) \
    libxl__log(ctx, XTL_##l, -1, __func__, "Domain %u:" f, (d), ##__VA_ARGS__)
#define LOGED(l, d, f, ...) \
    libxl__log(ctx, XTL_##l, errno, __func__, "Domain %u:" f, (d), ##__VA_ARGS__)

/* An ERROR_* for the errno a libxenctrl call left. */
int libxl__xc_error(int errnoval);

/* Milliseconds of CLOCK_MONOTONIC, for libxl's time limits (0 if it fails). */
uint64_t libxl__now_ms(void);

/* ERROR_NI (logged) unless ao_how is NULL. */
int libxl__ao_synchronous_only(libxl_ctx *ctx, const libxl_asyncop_how *ao_how,
                               const char *func);

/* ---- domains ------------------------------------------------------------- */

/* Fill *info from what the hypervisor reports (Xen's xcinfo2xlinfo). */
void libxl__xcinfo2xlinfo(libxl_ctx *ctx, const xc_domaininfo_t *xcinfo,
                          libxl_dominfo *info);

/* The hypervisor's record of one domain; ERROR_DOMAIN_NOTFOUND if none. */
int libxl__domain_getinfo(libxl_ctx *ctx, uint32_t domid,
                          xc_domaininfo_t *info);

/*
 * Suspending for a save, resuming in place (libxl_dom_suspend.c, Xen's
 * names): a guest with PV drivers is asked through control/shutdown and
 * must suspend itself (Xen's 60 s limits); one without is paused.
 */
typedef struct libxl__domain_suspend_state {
    libxl_ctx *ctx;
    uint32_t domid;
    bool pvcontrol;                     /* asked through control/shutdown */
    char *control_path;                 /* .../control/shutdown */
    int guest_evtchn_port;              /* device/suspend/event-channel, or -1 */
    bool guest_responded;               /* it acknowledged */
    bool suspended;                     /* it shut down for suspend */
    int rc;                             /* of the callback's suspend */
} libxl__domain_suspend_state;
int libxl__domain_suspend_init(libxl_ctx *ctx, libxl__domain_suspend_state *dsps,
                               uint32_t domid);
void libxl__domain_suspend_dispose(libxl__domain_suspend_state *dsps);
/* 0 once it is suspended (or paused), else an ERROR_* (it runs on). */
int libxl__domain_suspend(libxl__domain_suspend_state *dsps);
/* xc_domain_save's suspend callback (data: the state): 1 on success. */
int libxl__domain_suspend_callback(void *data);
/* xc_domain_resume(fast = suspend_cancel), then xs_resume_domain. */
int libxl__domain_resume(libxl_ctx *ctx, uint32_t domid, int suspend_cancel);

/*
 * A domain's name, in xenstore as Xen's (/local/domain/<domid>/name and
 * /vm/<uuid>/name), inside transaction t (XBT_NULL: one of its own).
 * old_name, if not NULL, must be the current name; a non-empty name must
 * be unique.
 */
int libxl__domain_rename(libxl_ctx *ctx, uint32_t domid, const char *old_name,
                         const char *new_name, xs_transaction_t t);
/* At creation: the target and static maximum xl mem-set / mem-max start from. */
int libxl__memory_record(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                         uint64_t target_memkb, uint64_t max_memkb);

/*
 * A new domain's xenstore tree and its introduction (libxl_dom.c, Xen's
 * libxl__domain_make, libxl__build_post, libxl__device_console_add).
 */
typedef struct {
    uint32_t store_port, console_port;      /* the guest's, unbound */
    uint32_t store_domid, console_domid;    /* their backends (0) */
    unsigned long store_mfn, console_mfn;   /* the rings' gfns */
} libxl__domain_build_state;

int libxl__domain_make_xs(libxl_ctx *ctx, uint32_t domid,
                          const libxl_domain_create_info *info);
int libxl__build_post(libxl_ctx *ctx, uint32_t domid,
                      const libxl_domain_build_info *info,
                      const libxl__domain_build_state *state);
int libxl__device_console_add(libxl_ctx *ctx, uint32_t domid,
                              const libxl__domain_build_state *state);

/* ---- xenstore (libxl_xshelp.c) -------------------------------------------- */

/* Every string these return is malloc'ed: the caller frees it. */
char *libxl__sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define GCSPRINTF(f, ...) libxl__sprintf(f, ##__VA_ARGS__)
char *libxl__xs_get_dompath(libxl_ctx *ctx, uint32_t domid);
char *libxl__xs_libxl_path(uint32_t domid);
int libxl__start_time_write(libxl_ctx *ctx, xs_transaction_t t, const char *vm_path);
/* NULL (errno set) if the node is not there. */
char *libxl__xs_read(libxl_ctx *ctx, xs_transaction_t t, const char *path);
/* *result_out NULL if the node is not there; an error (logged) otherwise. */
int libxl__xs_read_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                           char **result_out);
int libxl__xs_write_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                            const char *string);
int libxl__xs_printf(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A missing node is not an error. */
int libxl__xs_rm_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path);
/* An empty node with these permissions (Xen's libxl__xs_mknod). */
int libxl__xs_mknod(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                    struct xs_permissions *perms, unsigned int num_perms);
/* kvs: key, value, key, value, ..., NULL; each key below dir. */
int libxl__xs_writev(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                     char *const kvs[]);
int libxl__xs_writev_perms(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                           char *const kvs[], struct xs_permissions *perms,
                           unsigned int num_perms);
/* commit: 0, +1 to retry (EAGAIN), or an error. */
int libxl__xs_transaction_start(libxl_ctx *ctx, xs_transaction_t *t);
int libxl__xs_transaction_commit(libxl_ctx *ctx, xs_transaction_t *t);
void libxl__xs_transaction_abort(libxl_ctx *ctx, xs_transaction_t *t);

/* ---- JSON ---------------------------------------------------------------- */

typedef yajl_gen_status (*libxl__gen_json_callback)(yajl_gen hand, void *);

char *libxl__object_to_json(libxl_ctx *ctx, const char *type,
                            libxl__gen_json_callback gen, void *p);
yajl_gen_status libxl__yajl_gen_asciiz(yajl_gen hand, const char *str);
yajl_gen_status libxl__yajl_gen_enum(yajl_gen hand, const char *str);
yajl_gen_status libxl__string_gen_json(yajl_gen hand, const char *p);

int libxl__enum_from_string(const libxl_enum_string_table *t,
                            const char *s, int *e);

/* "Is default" tests of the builtin types, for the generated JSON code. */
static inline int libxl__defbool_is_default(const libxl_defbool *db)
{
    return !db->val;
}
int libxl__string_list_is_empty(const libxl_string_list *psl);
int libxl__key_value_list_is_empty(const libxl_key_value_list *pkvl);
int libxl__hwcap_is_default(const libxl_hwcap *hwcap);
int libxl__mac_is_default(const libxl_mac *mac);
int libxl__cpuid_policy_is_empty(const libxl_cpuid_policy_list *pl);

/* calloc(n, sz) for the generated _copy functions: NULL when n is 0;
 * exits as libxl_string_list_copy does when memory runs out. */
void *libxl__copy_calloc(int n, size_t sz);
#define LIBXL_INVALID_GFN (~(uint64_t)0)

#endif /* LIBXL_INTERNAL_H */

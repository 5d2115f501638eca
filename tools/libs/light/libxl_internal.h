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

#include "libxl.h"
#include "libxl_json.h"
#include "libxl_utils.h"

#ifndef XEN_RUN_DIR
#define XEN_RUN_DIR "/var/run/xen"
#endif

struct libxl__ctx {
    xentoollog_logger *lg;
    xentoollog_logger *own_lg;          /* made by us when lg was NULL */
    xc_interface *xch;
    xendevicemodel_handle *dmod;        /* opened on first use */
    libxl_version_info version_info;
    bool version_valid;
};

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
 * Domain names, kept (without xenstore) as one file per domain in
 * XEN_RUN_DIR (or $LIBXL_RUN_DIR): "userdata-d.<domid>.<uuid>.domain-name"
 * holding the name, after Xen's userdata naming.  A file whose UUID is not
 * the domain's is stale and ignored.
 */
int libxl__domain_name_record(libxl_ctx *ctx, uint32_t domid,
                              const libxl_uuid *uuid, const char *name);
/*
 * The same files for other keys (what Xen keeps in xenstore): "memory-target"
 * and "memory-static-max" (KiB, libxl_mem.c).  load returns a malloc'ed
 * string or NULL.
 */
int libxl__userdata_store(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                          const char *key, const char *data);
char *libxl__userdata_load(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                           const char *key);
void libxl__userdata_remove(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                            const char *key);
/* At creation: the target and static maximum xl mem-set / mem-max start from. */
int libxl__memory_record(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                         uint64_t target_memkb, uint64_t max_memkb);
char *libxl__domain_name_lookup(libxl_ctx *ctx, uint32_t domid,
                                const libxl_uuid *uuid);
const char *libxl__run_dir_path(void);

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

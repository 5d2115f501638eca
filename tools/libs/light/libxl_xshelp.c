/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl's xenstore helpers (Xen's libxl_xshelp.c): paths of a domain's
 * nodes, reads and writes with their failures logged, node creation with
 * permissions, key/value lists written in one go.  Every string returned
 * is malloc'ed (Xen's libxl allocates from a gc; this one has none): the
 * caller frees it.
 */
#define _GNU_SOURCE                 /* vasprintf */
#include <stdarg.h>
#include <stdio.h>

#include "libxl_internal.h"

char *libxl__sprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    int n;

    va_start(ap, fmt);
    n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fprintf(stderr, "libxl: out of memory\n");
        exit(255);                  /* as Xen's libxl on allocation failure */
    }
    return s;
}

char *libxl__xs_get_dompath(libxl_ctx *ctx, uint32_t domid)
{
    char *s = xs_get_domain_path(ctx->xsh, domid);

    if (!s)
        LOGED(ERROR, domid, "failed to get dompath");
    return s;
}

char *libxl__xs_libxl_path(uint32_t domid)
{
    return libxl__sprintf("/libxl/%u", domid);
}

char *libxl__xs_read(libxl_ctx *ctx, xs_transaction_t t, const char *path)
{
    return xs_read(ctx->xsh, t, path, NULL);
}

int libxl__xs_read_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                           char **result_out)
{
    char *r = xs_read(ctx->xsh, t, path, NULL);

    if (!r && errno != ENOENT) {
        LOGE(ERROR, "xenstore read failed: `%s'", path);
        return ERROR_FAIL;
    }
    *result_out = r;
    return 0;
}

int libxl__xs_write_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                            const char *string)
{
    if (!xs_write(ctx->xsh, t, path, string, strlen(string))) {
        LOGE(ERROR, "xenstore write failed: `%s' = `%s'", path, string);
        return ERROR_FAIL;
    }
    return 0;
}

int libxl__xs_printf(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                     const char *fmt, ...)
{
    va_list ap;
    char *s;
    int rc;

    va_start(ap, fmt);
    rc = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return ERROR_NOMEM;
    rc = libxl__xs_write_checked(ctx, t, path, s);
    free(s);
    return rc;
}

int libxl__xs_rm_checked(libxl_ctx *ctx, xs_transaction_t t, const char *path)
{
    if (!xs_rm(ctx->xsh, t, path) && errno != ENOENT) {
        LOGE(ERROR, "failed to remove path %s", path);
        return ERROR_FAIL;
    }
    return 0;
}

int libxl__xs_mknod(libxl_ctx *ctx, xs_transaction_t t, const char *path,
                    struct xs_permissions *perms, unsigned int num_perms)
{
    if (!xs_write(ctx->xsh, t, path, "", 0) ||
        !xs_set_permissions(ctx->xsh, t, path, perms, num_perms)) {
        LOGE(ERROR, "xenstore mknod failed: `%s'", path);
        return ERROR_FAIL;
    }
    return 0;
}

int libxl__xs_writev_perms(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                           char *const kvs[], struct xs_permissions *perms,
                           unsigned int num_perms)
{
    if (!kvs)
        return 0;
    for (unsigned int i = 0; kvs[i]; i += 2) {
        char *path = libxl__sprintf("%s/%s", dir, kvs[i]);
        bool ok = path && kvs[i + 1] &&
                  xs_write(ctx->xsh, t, path, kvs[i + 1], strlen(kvs[i + 1])) &&
                  (!perms || xs_set_permissions(ctx->xsh, t, path, perms, num_perms));

        if (!ok)
            LOGE(ERROR, "xenstore write failed: `%s' = `%s'", path,
                 kvs[i + 1] ? kvs[i + 1] : "(null)");
        free(path);
        if (!ok)
            return ERROR_FAIL;
    }
    return 0;
}

int libxl__xs_writev(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                     char *const kvs[])
{
    return libxl__xs_writev_perms(ctx, t, dir, kvs, NULL, 0);
}

int libxl__xs_transaction_start(libxl_ctx *ctx, xs_transaction_t *t)
{
    *t = xs_transaction_start(ctx->xsh);
    if (!*t) {
        LOGE(ERROR, "could not create xenstore transaction");
        return ERROR_FAIL;
    }
    return 0;
}

int libxl__xs_transaction_commit(libxl_ctx *ctx, xs_transaction_t *t)
{
    bool ok = xs_transaction_end(ctx->xsh, *t, 0);

    *t = XBT_NULL;
    if (ok)
        return 0;
    if (errno == EAGAIN)
        return +1;                  /* try again */
    LOGE(ERROR, "could not commit xenstore transaction");
    return ERROR_FAIL;
}

void libxl__xs_transaction_abort(libxl_ctx *ctx, xs_transaction_t *t)
{
    if (!*t)
        return;
    if (!xs_transaction_end(ctx->xsh, *t, 1))
        LOGE(ERROR, "could not abort xenstore transaction");
    *t = XBT_NULL;
}

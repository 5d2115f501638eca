/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * A domain's memory (Xen's libxl_mem.c): its paging pool size, its static
 * maximum (xl mem-max) and its target (xl mem-set).
 *
 * As Xen's, the target and the static maximum are in xenstore
 * (/local/domain/<domid>/memory/target and static-max), where the guest's
 * balloon driver reads the target; the target also reaches the hypervisor
 * the way Xen's "enforce" does, as max_pages
 * (target + LIBXL_MAXMEM_CONSTANT), which the guest reads with
 * XENMEM_maximum_reservation.  A guest holding more than that gets no new
 * frame until it has ballooned down (XENMEM_decrease_reservation).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "libxl_internal.h"

/* Xen's floor for the control domain's target (128 MiB). */
#define LIBXL_MIN_DOM0_MEM      (128 * 1024)

unsigned long libxl_get_required_shadow_memory(unsigned long maxmem_kb,
                                               unsigned int smp_cpus)
{
    /* 256 pages (1 MiB) per vCPU, 2 pages per MiB of RAM, in KiB (Xen's). */
    return 4 * (256 * smp_cpus + 2 * (maxmem_kb / 1024));
}

static int domain_uuid(libxl_ctx *ctx, uint32_t domid, xc_domaininfo_t *xcinfo,
                       libxl_uuid *uuid)
{
    int rc = libxl__domain_getinfo(ctx, domid, xcinfo);

    if (rc == ERROR_DOMAIN_NOTFOUND)
        LOGD(ERROR, domid, "Non-existant domain");
    if (rc)
        return rc;
    memcpy(uuid->uuid, xcinfo->handle, sizeof(uuid->uuid));
    return 0;
}

/*
 * The domain's memory/<key> in xenstore, in KiB, or 'dflt' when there is
 * none (a domain the hypervisor built at boot, which no toolstack wrote).
 */
static uint64_t recorded_kb(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                            const char *key, uint64_t dflt)
{
    char *path = GCSPRINTF("/local/domain/%u/memory/%s", domid, key);
    char *s = libxl__xs_read(ctx, XBT_NULL, path), *end;
    uint64_t v;

    (void)uuid;
    free(path);
    if (!s)
        return dflt;
    v = strtoull(s, &end, 10);
    if (end == s || *end)
        v = dflt;
    free(s);
    return v;
}

static int record_kb(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                     const char *key, uint64_t kb)
{
    char *path = GCSPRINTF("/local/domain/%u/memory/%s", domid, key);
    int rc = libxl__xs_printf(ctx, XBT_NULL, path, "%" PRIu64, kb);

    (void)uuid;
    free(path);
    return rc;
}

int libxl__memory_record(libxl_ctx *ctx, uint32_t domid, const libxl_uuid *uuid,
                         uint64_t target_memkb, uint64_t max_memkb)
{
    int rc = record_kb(ctx, domid, uuid, "target", target_memkb);

    return rc ? rc : record_kb(ctx, domid, uuid, "static-max", max_memkb);
}

int libxl_get_memory_target(libxl_ctx *ctx, uint32_t domid, uint64_t *out_target)
{
    xc_domaininfo_t xcinfo;
    libxl_uuid uuid;
    int rc = domain_uuid(ctx, domid, &xcinfo, &uuid);

    if (rc)
        return rc;
    *out_target = recorded_kb(ctx, domid, &uuid, "target",
                              xcinfo.tot_pages * (XC_PAGE_SIZE / 1024));
    return 0;
}

int libxl_domain_setmaxmem(libxl_ctx *ctx, uint32_t domid, uint64_t max_memkb)
{
    xc_domaininfo_t xcinfo;
    libxl_uuid uuid;
    uint64_t target;
    int rc = domain_uuid(ctx, domid, &xcinfo, &uuid);

    if (rc)
        return rc;
    target = recorded_kb(ctx, domid, &uuid, "target",
                         xcinfo.tot_pages * (XC_PAGE_SIZE / 1024));
    if (max_memkb < target) {
        LOGD(ERROR, domid, "memory_static_max must be greater than or or equal to "
             "memory_dynamic_max");
        return ERROR_INVAL;
    }
    if (xc_domain_setmaxmem(ctx->xch, domid, max_memkb + LIBXL_MAXMEM_CONSTANT) < 0) {
        LOGED(ERROR, domid, "Couldn't set max memory");
        return ERROR_FAIL;
    }
    return record_kb(ctx, domid, &uuid, "static-max", max_memkb);
}

int libxl_set_memory_target(libxl_ctx *ctx, uint32_t domid, int64_t target_memkb,
                            int relative, int enforce)
{
    xc_domaininfo_t xcinfo;
    uint64_t current, static_max, new_target;
    libxl_uuid uuid;
    int rc = domain_uuid(ctx, domid, &xcinfo, &uuid);

    if (rc)
        return rc;
    current = recorded_kb(ctx, domid, &uuid, "target",
                          xcinfo.tot_pages * (XC_PAGE_SIZE / 1024));
    static_max = recorded_kb(ctx, domid, &uuid, "static-max",
                             xcinfo.max_pages * (XC_PAGE_SIZE / 1024));

    if (!relative && target_memkb < 0) {
        LOGD(ERROR, domid, "Requested target %" PRId64 " is negative", target_memkb);
        return ERROR_INVAL;
    }
    if (relative)
        new_target = target_memkb < 0 && (uint64_t)-target_memkb > current
                     ? 0 : current + target_memkb;
    else
        new_target = target_memkb;
    if (new_target > static_max) {
        LOGD(ERROR, domid, "memory_dynamic_max must be less than or equal to "
             "memory_static_max");
        return ERROR_INVAL;
    }
    if (!domid && new_target < LIBXL_MIN_DOM0_MEM) {
        LOGD(ERROR, domid, "New target %" PRIu64 " for dom0 is below the minimum threshold",
             new_target);
        return ERROR_INVAL;
    }
    if (enforce &&
        xc_domain_setmaxmem(ctx->xch, domid, new_target + LIBXL_MAXMEM_CONSTANT) < 0) {
        LOGED(ERROR, domid, "xc_domain_setmaxmem memkb=%" PRIu64 " failed",
              new_target + LIBXL_MAXMEM_CONSTANT);
        return ERROR_FAIL;
    }
    return record_kb(ctx, domid, &uuid, "target", new_target);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small libxl client, written against Xen 4.17's libxl API.  The test
 * suite compiles it unchanged against this project's libxl.h and against
 * Debian's (/usr/include/libxl.h) with -Wall -Werror, and runs the first
 * build against the fake libxenctrl.
 *
 * It lists the domains, shows one, pauses and unpauses it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <libxl.h>
#include <libxl_utils.h>

int main(int argc, char **argv)
{
    xentoollog_logger_stdiostream *lg;
    libxl_ctx *ctx = NULL;
    libxl_dominfo *list, info;
    uint32_t domid = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 0;
    int nb = 0, rc, ret = 1;

    lg = xtl_createlogger_stdiostream(stderr, XTL_ERROR, 0);
    if (!lg)
        return 1;
    rc = libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, (xentoollog_logger *)lg);
    if (rc) {
        fprintf(stderr, "libxl_ctx_alloc: %d\n", rc);
        goto out;
    }

    list = libxl_list_domain(ctx, &nb);
    if (!list)
        goto out;
    for (int i = 0; i < nb; i++)
        printf("domain %u: %"PRIu64" KiB, %u vCPUs%s\n", list[i].domid,
               list[i].current_memkb, list[i].vcpu_online,
               list[i].paused ? ", paused" : "");
    libxl_dominfo_list_free(list, nb);

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    if (rc == ERROR_DOMAIN_NOTFOUND) {
        fprintf(stderr, "no domain %u\n", domid);
    } else if (!rc) {
        printf("domain %u: max %"PRIu64" KiB, cpu %"PRIu64" ns\n", domid,
               info.max_memkb, info.cpu_time);
        if (!libxl_domain_pause(ctx, domid, NULL) &&
            !libxl_domain_unpause(ctx, domid, NULL))
            ret = 0;
    }
    libxl_dominfo_dispose(&info);

 out:
    libxl_ctx_free(ctx);
    xtl_logger_destroy((xentoollog_logger *)lg);
    return ret;
}

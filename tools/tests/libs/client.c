/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A client of libxenlight and libxenctrl written against Xen 4.17's API.
 * tools/tests/libs builds it twice: against Debian's libxen-dev (headers
 * and libraries), then run on this project's libxenlight.so.4.17 and
 * libxenctrl.so.4.17; and against an installed tree of ours through
 * pkg-config.  Both run over the fake hypervisor (tools/tests/fake).
 *
 *   client DOMID
 *
 * It prints the host's CPUs and memory and the hypervisor's version
 * (libxenctrl), lists the domains, shows one and pauses and unpauses it
 * (libxl).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <xenctrl.h>
#include <libxl.h>
#include <libxl_utils.h>

static int host(void)
{
    xc_interface *xch = xc_interface_open(NULL, NULL, 0);
    xc_physinfo_t info;
    int v, rc = 1;

    if ( !xch )
        return 1;
    v = xc_version(xch, XENVER_version, NULL);
    if ( v >= 0 && !xc_physinfo(xch, &info) )
    {
        printf("xen %d.%d: %u CPUs at %u kHz, %" PRIu64 " of %" PRIu64 " pages free\n",
               v >> 16, v & 0xffff, info.nr_cpus, info.cpu_khz,
               (uint64_t)info.free_pages, (uint64_t)info.total_pages);
        rc = 0;
    }
    xc_interface_close(xch);
    return rc;
}

int main(int argc, char **argv)
{
    xentoollog_logger_stdiostream *lg;
    libxl_ctx *ctx = NULL;
    libxl_dominfo *list, info;
    uint32_t domid = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 0;
    int nb = 0, ret = 1;

    if ( host() )
        return 1;
    lg = xtl_createlogger_stdiostream(stderr, XTL_ERROR, 0);
    if ( !lg )
        return 1;
    if ( libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, (xentoollog_logger *)lg) )
        goto out;
    list = libxl_list_domain(ctx, &nb);
    if ( !list )
        goto out;
    for ( int i = 0; i < nb; i++ )
        printf("domain %u: %" PRIu64 " KiB, %u vCPUs%s\n", list[i].domid,
               list[i].current_memkb, list[i].vcpu_online,
               list[i].paused ? ", paused" : "");
    libxl_dominfo_list_free(list, nb);

    libxl_dominfo_init(&info);
    if ( !libxl_domain_info(ctx, &info, domid) )
    {
        printf("domain %u: max %" PRIu64 " KiB, cpu %" PRIu64 " ns\n", domid,
               info.max_memkb, info.cpu_time);
        if ( !libxl_domain_pause(ctx, domid, NULL) &&
             !libxl_domain_unpause(ctx, domid, NULL) )
            ret = 0;
    }
    libxl_dominfo_dispose(&info);

 out:
    libxl_ctx_free(ctx);
    xtl_logger_destroy((xentoollog_logger *)lg);
    return ret;
}

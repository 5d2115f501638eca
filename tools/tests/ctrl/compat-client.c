/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libxenctrl / libxendevicemodel client using every call this project
 * implements, as a Xen 4.17 program would.  The test suite compiles it
 * unchanged against our headers and against Debian's libxen-dev: the
 * names, types and signatures must agree.
 */
#include <stdio.h>

#include <xenctrl.h>
#include <xendevicemodel.h>

int client(xc_interface *xch, xendevicemodel_handle *dmod, uint32_t domid);

int client(xc_interface *xch, xendevicemodel_handle *dmod, uint32_t domid)
{
    DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);
    xc_domaininfo_t list[4];
    xc_dominfo_t info;
    xc_physinfo_t phys;
    xc_shadow_op_stats_t stats;
    xen_extraversion_t extra;
    unsigned int mb = 0, nr = 64;
    char ring[64];
    uint32_t index = 0;
    unsigned long vram[2];
    long long pages;
    int rc = 0;

    bitmap = xc_hypercall_buffer_alloc_pages(xch, bitmap, 1);
    if ( !bitmap )
        return -1;

    rc |= xc_shadow_control(xch, domid, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY,
                            &mb, 0);
    pages = xc_logdirty_control(xch, domid, XEN_DOMCTL_SHADOW_OP_CLEAN,
                                HYPERCALL_BUFFER(bitmap), 64,
                                XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL, &stats);
    xc_hypercall_buffer_free_pages(xch, bitmap, 1);

    rc |= xc_domain_getinfolist(xch, 0, 4, list);
    rc |= xc_domain_getinfo(xch, domid, 1, &info);
    rc |= xc_physinfo(xch, &phys);
    rc |= xc_readconsolering(xch, ring, &nr, 0, 1, &index);
    rc |= xc_version(xch, XENVER_extraversion, extra);
    rc |= xc_domain_pause(xch, domid);
    rc |= xc_domain_unpause(xch, domid);
    rc |= xc_domain_shutdown(xch, domid, SHUTDOWN_poweroff);
    rc |= xc_domain_destroy(xch, domid);
    rc |= xendevicemodel_track_dirty_vram(dmod, domid, 0xa0, 64, vram);
    xen_mb();

    printf("%d %lld %u %u %d\n", rc, pages, info.paused, phys.nr_cpus,
           list[0].domain);
    return rc;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: a domain's vCPUs, as the hypervisor reports them
 * (XEN_DOMCTL_getvcpuinfo and XEN_DOMCTL_getvcpuaffinity): `xl vcpu-list`.
 */
#include <stdlib.h>

#include "libxl_internal.h"

#include <libxl_utils.h>

libxl_vcpuinfo *libxl_list_vcpu(libxl_ctx *ctx, uint32_t domid,
                                int *nr_vcpus_out, int *nr_cpus_out)
{
    libxl_vcpuinfo *ret;
    libxl_dominfo info;
    xc_vcpuinfo_t vcpuinfo;
    uint32_t nr;
    int rc;

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    nr = info.vcpu_max_id + 1;
    libxl_dominfo_dispose(&info);
    if (rc) {
        LOGD(ERROR, domid, "Getting domain info");
        return NULL;
    }
    *nr_cpus_out = libxl_get_max_cpus(ctx);
    if (*nr_cpus_out < 0)
        return NULL;

    ret = calloc(nr, sizeof(*ret));
    if (!ret)
        return NULL;
    for (uint32_t v = 0; v < nr; v++) {
        libxl_vcpuinfo *p = &ret[v];

        libxl_vcpuinfo_init(p);
        if (libxl_cpu_bitmap_alloc(ctx, &p->cpumap, 0) ||
            libxl_cpu_bitmap_alloc(ctx, &p->cpumap_soft, 0))
            goto err;
        if (xc_vcpu_getinfo(ctx->xch, domid, v, &vcpuinfo) == -1) {
            LOGED(ERROR, domid, "Getting vcpu info");
            goto err;
        }
        if (xc_vcpu_getaffinity(ctx->xch, domid, v, p->cpumap.map,
                                p->cpumap_soft.map,
                                XEN_VCPUAFFINITY_SOFT |
                                XEN_VCPUAFFINITY_HARD) == -1) {
            LOGED(ERROR, domid, "Getting vcpu affinity");
            goto err;
        }
        p->vcpuid = v;
        p->cpu = vcpuinfo.cpu;
        p->online = !!vcpuinfo.online;
        p->blocked = !!vcpuinfo.blocked;
        p->running = !!vcpuinfo.running;
        p->vcpu_time = vcpuinfo.cpu_time;
    }
    *nr_vcpus_out = nr;
    return ret;

 err:
    libxl_vcpuinfo_list_free(ret, nr);
    return NULL;
}

void libxl_vcpuinfo_list_free(libxl_vcpuinfo *list, int nr_vcpus)
{
    for (int i = 0; list && i < nr_vcpus; i++)
        libxl_vcpuinfo_dispose(&list[i]);
    free(list);
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: NUMA, as Xen answers on a host of one node.
 *
 * This hypervisor has no NUMA: XEN_SYSCTL_physinfo reports one node and
 * every domain's memory and vCPUs are on it.  So a domain's node affinity
 * is every node there is, which is what Xen reports for a domain on a
 * single-node host (`xl list -n` prints "all").
 */
#include "libxl_internal.h"

#include <libxl_utils.h>

int libxl_get_max_nodes(libxl_ctx *ctx)
{
    libxl_physinfo info;
    int rc;

    libxl_physinfo_init(&info);
    rc = libxl_get_physinfo(ctx, &info);
    if (!rc)
        rc = info.nr_nodes ? (int)info.nr_nodes : 1;
    libxl_physinfo_dispose(&info);
    return rc;
}

int libxl_node_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *nodemap,
                            int max_nodes)
{
    if (max_nodes < 0)
        return ERROR_INVAL;
    if (max_nodes == 0) {
        max_nodes = libxl_get_max_nodes(ctx);
        if (max_nodes < 0)
            return max_nodes;
    }
    return libxl_bitmap_alloc(ctx, nodemap, max_nodes);
}

int libxl_domain_get_nodeaffinity(libxl_ctx *ctx, uint32_t domid,
                                  libxl_bitmap *nodemap)
{
    int nodes, rc;

    rc = libxl_domain_info(ctx, NULL, domid);
    if (rc)
        return rc;
    nodes = libxl_get_max_nodes(ctx);
    if (nodes < 0)
        return nodes;
    libxl_bitmap_dispose(nodemap);
    rc = libxl_node_bitmap_alloc(ctx, nodemap, nodes);
    if (rc)
        return rc;
    for (int n = 0; n < nodes; n++)
        libxl_bitmap_set(nodemap, n);
    return 0;
}

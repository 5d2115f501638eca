/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: CPU pools, as Xen answers with the one pool every host starts
 * with.  This hypervisor has no cpupools: every domain and every CPU is
 * in pool 0, "Pool-0" (Xen's name for it when xenstore names none).
 */
#include <stdlib.h>
#include <string.h>

#include "libxl_internal.h"

#include <libxl_utils.h>

char *libxl_cpupoolid_to_name(libxl_ctx *ctx, uint32_t poolid)
{
    (void)ctx;
    return poolid == 0 ? strdup("Pool-0") : NULL;
}

int libxl_name_to_cpupoolid(libxl_ctx *ctx, const char *name,
                            uint32_t *poolid)
{
    (void)ctx;
    if (!name || strcmp(name, "Pool-0"))
        return ERROR_INVAL;
    if (poolid)
        *poolid = 0;
    return 0;
}

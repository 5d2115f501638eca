/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: the devices of a domain.
 *
 * This toolstack does not create devices yet (libxl_domain_create_new
 * refuses a configuration with any), so no domain has one: the lists are
 * empty, as Xen's are for a domain without devices (NULL, *num = 0).
 */
#include "libxl_internal.h"

libxl_device_disk *libxl_device_disk_list(libxl_ctx *ctx, uint32_t domid,
                                          int *num)
{
    (void)ctx;
    (void)domid;
    *num = 0;
    return NULL;
}

void libxl_device_disk_list_free(libxl_device_disk *list, int num)
{
    for (int i = 0; list && i < num; i++)
        libxl_device_disk_dispose(&list[i]);
    free(list);
}

libxl_device_nic *libxl_device_nic_list(libxl_ctx *ctx, uint32_t domid,
                                        int *num)
{
    (void)ctx;
    (void)domid;
    *num = 0;
    return NULL;
}

void libxl_device_nic_list_free(libxl_device_nic *list, int num)
{
    for (int i = 0; list && i < num; i++)
        libxl_device_nic_dispose(&list[i]);
    free(list);
}

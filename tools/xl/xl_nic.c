/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl network-list, in Xen's format.  There are no network devices yet
 * (libxl_device_nic_list is empty): Xen's header alone.
 */
#include <stdlib.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

int main_networklist(int argc, char **argv)
{
    int opt;
    libxl_device_nic *nics;
    int nb;

    SWITCH_FOREACH_OPT(opt, "", NULL, "network-list", 1) {
        /* No options */
    }

    /*      Idx  BE   MAC   Hdl  Sta  evch txr/rxr  BE-path */
    printf("%-3s %-2s %-17s %-6s %-5s %-6s %5s/%-5s %-30s\n",
           "Idx", "BE", "Mac Addr.", "handle", "state", "evt-ch",
           "tx-", "rx-ring-ref", "BE-path");
    for (argv += optind, argc -= optind; argc > 0; --argc, ++argv) {
        uint32_t domid = find_domain(*argv);

        /* Always empty here; each vif's line (Xen's
         * libxl_device_nic_getinfo) comes with network devices. */
        nics = libxl_device_nic_list(ctx, domid, &nb);
        libxl_device_nic_list_free(nics, nb);
    }
    return EXIT_SUCCESS;
}

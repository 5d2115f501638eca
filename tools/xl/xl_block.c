/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl block-list, in Xen's format.  There are no block devices yet
 * (libxl_device_disk_list is empty): Xen's header alone.
 */
#include <stdlib.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

int main_blocklist(int argc, char **argv)
{
    int opt;
    int nb;
    libxl_device_disk *disks;

    SWITCH_FOREACH_OPT(opt, "", NULL, "block-list", 1) {
        /* No options */
    }

    printf("%-5s %-3s %-6s %-5s %-6s %-8s %-30s\n",
           "Vdev", "BE", "handle", "state", "evt-ch", "ring-ref", "BE-path");
    for (argv += optind, argc -= optind; argc > 0; --argc, ++argv) {
        uint32_t domid = find_domain(*argv);

        /* Always empty here; each vbd's line (Xen's
         * libxl_device_disk_getinfo) comes with block devices. */
        disks = libxl_device_disk_list(ctx, domid, &nb);
        libxl_device_disk_list_free(disks, nb);
    }
    return EXIT_SUCCESS;
}

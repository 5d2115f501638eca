/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Links against the Linux build of libxenctrl (static archives) and opens
 * the interface.  Outside a Xen control domain that fails: the library
 * logs why and this prints one clear line and exits with status 2.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <xenctrl.h>

int main(void)
{
    xc_interface *xch = xc_interface_open(NULL, NULL, 0);
    xc_physinfo_t info;

    if ( !xch )
    {
        fprintf(stderr, "link-check: xc_interface_open failed: %s "
                "(not a Xen control domain?)\n", strerror(errno));
        return 2;
    }

    if ( xc_physinfo(xch, &info) == 0 )
        printf("link-check: %u CPU(s), %lu pages\n", info.nr_cpus,
               (unsigned long)info.total_pages);
    else
        printf("link-check: xc_physinfo: %s\n", strerror(errno));

    xc_interface_close(xch);
    return 0;
}

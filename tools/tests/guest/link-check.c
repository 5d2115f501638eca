/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Linked against the Linux builds of libxenguest and libxenforeignmemory
 * (tools/libs/guest, tools/libs/foreignmemory): they link, and without
 * /dev/xen/privcmd a foreign memory handle fails cleanly.  Prints one
 * line; exit status 0 when that is what happened.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xenforeignmemory.h>
#include <xenguest.h>

int main(void)
{
    xentoollog_logger *lg = (xentoollog_logger *)
        xtl_createlogger_stdiostream(stderr, XTL_CRITICAL, 0);
    xenforeignmemory_handle *fmem;
    xc_interface *xch;
    struct xc_dom_image *dom;

    if ( !access("/dev/xen/privcmd", F_OK) )
    {
        printf("link-check: /dev/xen/privcmd exists (a Xen control domain): skipped\n");
        return 0;
    }

    fmem = xenforeignmemory_open(lg, 0);
    if ( fmem )
    {
        printf("link-check: xenforeignmemory_open succeeded without privcmd\n");
        return 1;
    }
    if ( errno != ENOENT && errno != EACCES && errno != ENXIO && errno != ENODEV )
    {
        printf("link-check: unexpected errno %d (%s)\n", errno, strerror(errno));
        return 1;
    }

    /* The builder itself needs no hypervisor until boot_xen_init. */
    xch = xc_interface_open(lg, lg, XC_OPENFLAG_DUMMY);
    dom = xch ? xc_dom_allocate(xch, "x", NULL) : NULL;
    if ( !dom || xc_dom_boot_xen_init(dom, xch, 1) != -1 )
    {
        printf("link-check: the builder did not fail cleanly without privcmd\n");
        return 1;
    }
    xc_dom_release(dom);
    xc_interface_close(xch);
    xtl_logger_destroy(lg);
    printf("link-check: no privcmd: open fails cleanly (%s)\n", strerror(ENOENT));
    return 0;
}

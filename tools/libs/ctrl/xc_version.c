/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: xen_version (XENVER_*).
 */
#include "xc_private.h"

/* How much of *arg each command reads (IN) or writes (OUT). */
static int version_arg(int cmd, const void *arg, size_t *size, int *dir)
{
    *dir = XC_HYPERCALL_BUFFER_BOUNCE_OUT;

    switch ( cmd )
    {
    case XENVER_version:
    case XENVER_pagesize:
        *size = 0;
        return 0;
    case XENVER_extraversion:
        *size = sizeof(xen_extraversion_t);
        return 0;
    case XENVER_compile_info:
        *size = sizeof(xen_compile_info_t);
        return 0;
    case XENVER_capabilities:
        *size = sizeof(xen_capabilities_info_t);
        return 0;
    case XENVER_changeset:
        *size = sizeof(xen_changeset_info_t);
        return 0;
    case XENVER_platform_parameters:
        *size = sizeof(xen_platform_parameters_t);
        return 0;
    case XENVER_get_features:
        *size = sizeof(xen_feature_info_t);     /* submap_idx goes in */
        *dir = XC_HYPERCALL_BUFFER_BOUNCE_BOTH;
        return 0;
    case XENVER_guest_handle:
        *size = sizeof(xen_domain_handle_t);
        return 0;
    case XENVER_commandline:
        *size = sizeof(xen_commandline_t);
        return 0;
    case XENVER_build_id:
        /* len says how much room follows. */
        *size = sizeof(xen_build_id_t) + ((const xen_build_id_t *)arg)->len;
        *dir = XC_HYPERCALL_BUFFER_BOUNCE_BOTH;
        return 0;
    }

    return -1;
}

int xc_version(xc_interface *xch, int cmd, void *arg)
{
    DECLARE_HYPERCALL_BOUNCE(arg, 0, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    size_t size;
    int dir, rc;

    if ( xc_hypercall_check(xch) )
        return -1;

    if ( version_arg(cmd, arg, &size, &dir) )
    {
        ERROR("xc_version: unknown command %d", cmd);
        errno = EINVAL;
        return -1;
    }
    if ( size && !arg )
    {
        errno = EINVAL;
        return -1;
    }

    HYPERCALL_BOUNCE_SET_SIZE(arg, size);
    HYPERCALL_BOUNCE_SET_DIR(arg, dir);
    if ( xc_hypercall_bounce_pre(xch, arg) )
    {
        PERROR("Could not bounce buffer for version hypercall");
        return -1;
    }

    rc = xencall2(xch->xcall, __HYPERVISOR_xen_version, cmd,
                  HYPERCALL_BUFFER_AS_ARG(arg));

    xc_hypercall_bounce_post(xch, arg);

    return rc;
}

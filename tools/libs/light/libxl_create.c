/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: creating, saving and restoring domains.
 *
 * NOT IMPLEMENTED YET.  Building a domain needs the hypervisor's
 * XEN_DOMCTL_createdomain and a PVH domain builder (libxenguest), and
 * save/restore needs the migration stream; until they exist these check
 * what they can and return ERROR_NI, with *domid = INVALID_DOMID.
 */
#include "libxl_internal.h"

/*
 * The checks libxl itself makes of a configuration, before doing
 * anything (Xen's libxl__domain_config_setdefault, reduced).
 */
static int domain_config_check(libxl_ctx *ctx, libxl_domain_config *d_config)
{
    libxl_domain_create_info *c_info = &d_config->c_info;
    libxl_domain_build_info *b_info = &d_config->b_info;

    if (c_info->type != LIBXL_DOMAIN_TYPE_PVH) {
        LOG(ERROR, "domain type %s is not supported (only pvh)",
            libxl_domain_type_to_string(c_info->type) ?: "(invalid)");
        return ERROR_INVAL;
    }
    if (b_info->type != c_info->type) {
        LOG(ERROR, "b_info type (%s) differs from c_info type (%s)",
            libxl_domain_type_to_string(b_info->type) ?: "(invalid)",
            libxl_domain_type_to_string(c_info->type));
        return ERROR_INVAL;
    }
    if (!b_info->kernel) {
        LOG(ERROR, "no kernel given for a PVH domain");
        return ERROR_INVAL;
    }
    if (b_info->max_vcpus < 0 ||
        (b_info->max_vcpus == 0 && b_info->avail_vcpus.size)) {
        LOG(ERROR, "invalid number of vCPUs %d", b_info->max_vcpus);
        return ERROR_INVAL;
    }
    if (b_info->max_memkb != LIBXL_MEMKB_DEFAULT &&
        b_info->target_memkb != LIBXL_MEMKB_DEFAULT &&
        b_info->target_memkb > b_info->max_memkb) {
        LOG(ERROR, "target memory %"PRIu64" KiB exceeds maximum %"PRIu64" KiB",
            b_info->target_memkb, b_info->max_memkb);
        return ERROR_INVAL;
    }
    return 0;
}

int libxl_domain_create_new(libxl_ctx *ctx, libxl_domain_config *d_config,
                            uint32_t *domid,
                            const libxl_asyncop_how *ao_how,
                            const libxl_asyncprogress_how *aop_console_how)
{
    int rc;

    (void)aop_console_how;
    *domid = INVALID_DOMID;
    rc = libxl__ao_synchronous_only(ctx, ao_how, __func__);
    if (rc)
        return rc;
    rc = domain_config_check(ctx, d_config);
    if (rc)
        return rc;
    LOG(DETAIL, "creating domains is not implemented yet "
        "(no domain builder for this hypervisor)");
    return ERROR_NI;
}

int libxl_domain_create_restore(libxl_ctx *ctx, libxl_domain_config *d_config,
                                uint32_t *domid, int restore_fd,
                                int send_back_fd,
                                const libxl_domain_restore_params *params,
                                const libxl_asyncop_how *ao_how,
                                const libxl_asyncprogress_how *aop_console_how)
{
    (void)d_config; (void)restore_fd; (void)send_back_fd; (void)params;
    (void)ao_how; (void)aop_console_how;
    *domid = INVALID_DOMID;
    LOG(DETAIL, "restoring domains is not implemented yet");
    return ERROR_NI;
}

int libxl_domain_suspend(libxl_ctx *ctx, uint32_t domid, int fd, int flags,
                         const libxl_asyncop_how *ao_how)
{
    (void)fd; (void)flags; (void)ao_how;
    LOGD(DETAIL, domid, "saving domains is not implemented yet");
    return ERROR_NI;
}

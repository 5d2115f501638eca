/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: creating, saving and restoring domains.
 *
 * libxl_domain_create_new builds a PVH domain from its kernel= (and
 * ramdisk=) as Xen's libxl does: XEN_DOMCTL_createdomain (HVM with HAP,
 * created paused), max_mem, then libxenguest's xc_dom_* builder (RAM,
 * kernel, start info, vCPU 0's registers).  The domain is left paused: the
 * caller unpauses it (xl create does, unless -p).  A failure after the
 * domain exists destroys it.
 *
 * libxl_domain_suspend writes the libxl migration stream
 * (libxl_stream_write.c) and libxl_domain_create_restore makes an empty
 * domain and reads one into it (libxl_stream_read.c).
 */
#include <xenguest.h>

#include <sys/time.h>

#include "libxl_internal.h"
#include "libxl_stream.h"
#include "libxl_x86_acpi.h"

/* libxl_dom.c writes it: /vm/<uuid>/start_time, as Xen's. */
uint32_t libxl_vm_get_start_time(libxl_ctx *ctx, uint32_t domid)
{
    libxl_dominfo info;
    char *s = NULL, *end;
    unsigned long t = 0;
    int rc;

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    if (!rc) {
        char *path = GCSPRINTF("/vm/" LIBXL_UUID_FMT "/start_time",
                               LIBXL_UUID_BYTES(info.uuid));

        s = path ? libxl__xs_read(ctx, XBT_NULL, path) : NULL;
        free(path);
    }
    libxl_dominfo_dispose(&info);
    if (s) {
        errno = 0;
        t = strtoul(s, &end, 10);
        if (errno || end == s || (*end && *end != '.') || t > UINT32_MAX - 1)
            s = (free(s), NULL);
    }
    if (!s) {
        LOGD(ERROR, domid, "Can't get start time of domain");
        return -1;
    }
    free(s);
    return t;
}

/*
 * Devices are not implemented yet: a configuration asking for any is
 * refused (ERROR_NI, before anything is done) rather than run without
 * them.  The name of the first kind asked for, or NULL.
 */
static const char *config_devices(const libxl_domain_config *d)
{
    const struct { const char *what; int n; } kinds[] = {
        { "disks", d->num_disks }, { "nics", d->num_nics },
        { "pcidevs", d->num_pcidevs }, { "rdms", d->num_rdms },
        { "dtdevs", d->num_dtdevs }, { "vfbs", d->num_vfbs },
        { "vkbs", d->num_vkbs }, { "vtpms", d->num_vtpms },
        { "p9s", d->num_p9s }, { "pvcallsifs", d->num_pvcallsifs },
        { "vdispls", d->num_vdispls }, { "vsnds", d->num_vsnds },
        { "channels", d->num_channels }, { "usbctrls", d->num_usbctrls },
        { "usbdevs", d->num_usbdevs },
    };

    for (unsigned int i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (kinds[i].n)
            return kinds[i].what;
    return NULL;
}

static int domain_config_devices_check(libxl_ctx *ctx,
                                       const libxl_domain_config *d_config)
{
    const char *what = config_devices(d_config);

    if (what) {
        LOG(ERROR, "devices (%s) are not supported by this toolstack yet",
            what);
        return ERROR_NI;
    }
    return 0;
}

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
    if (domain_config_devices_check(ctx, d_config))
        return ERROR_NI;
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

/* Xen's default memory for a guest that sets none (32 MiB). */
#define DEFAULT_MEMKB (32 * 1024)

/* Xen's libxl__domain_build_info_setdefault, for what is used here. */
static int build_info_setdefault(libxl_ctx *ctx, libxl_domain_build_info *b_info)
{
    if (b_info->max_memkb == LIBXL_MEMKB_DEFAULT)
        b_info->max_memkb = b_info->target_memkb != LIBXL_MEMKB_DEFAULT
                            ? b_info->target_memkb : DEFAULT_MEMKB;
    if (b_info->target_memkb == LIBXL_MEMKB_DEFAULT)
        b_info->target_memkb = b_info->max_memkb;
    if (!b_info->max_vcpus)
        b_info->max_vcpus = 1;
    /* Xen's default for PVH: ACPI tables (libxl__arch_domain_build_info_setdefault). */
    libxl_defbool_setdefault(&b_info->acpi, true);
    libxl_defbool_setdefault(&b_info->claim_mode, false);
    /* Xen's defaults: 1023 event channels, the paging pool for the size. */
    if (!b_info->event_channels)
        b_info->event_channels = 1023;
    if (b_info->shadow_memkb == LIBXL_MEMKB_DEFAULT)
        b_info->shadow_memkb = libxl_get_required_shadow_memory(b_info->max_memkb,
                                                                b_info->max_vcpus);
    if (b_info->target_memkb % 1024) {
        LOG(ERROR, "memory %"PRIu64" KiB is not a whole number of MiB",
            b_info->target_memkb);
        return ERROR_INVAL;
    }
    return 0;
}

/* XEN_DOMCTL_createdomain: an empty, paused PVH container. */
static int domain_make(libxl_ctx *ctx, const libxl_domain_config *d_config,
                       uint32_t *domid)
{
    const libxl_domain_create_info *c_info = &d_config->c_info;
    const libxl_domain_build_info *b_info = &d_config->b_info;
    struct xen_domctl_createdomain create = {
        .ssidref = c_info->ssidref,
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap,
        .max_vcpus = (uint32_t)b_info->max_vcpus,
        .max_evtchn_port = b_info->event_channels,
        .max_grant_frames = b_info->max_grant_frames,
        .max_maptrack_frames = b_info->max_maptrack_frames,
    };
    xc_physinfo_t info;
    uint32_t id = 0;

    /*
     * max_grant_version, or the highest grant-table version the host
     * offers (Xen's libxl, for one left at its default): createdomain
     * refuses 0.
     */
    if (xc_physinfo(ctx->xch, &info) < 0) {
        LOGE(ERROR, "getting physinfo");
        return libxl__xc_error(errno);
    }
    if (b_info->max_grant_version != (int)LIBXL_MAX_GRANT_DEFAULT)
        create.grant_opts = XEN_DOMCTL_GRANT_version(b_info->max_grant_version);
    else
        create.grant_opts = XEN_DOMCTL_GRANT_version(
            (info.capabilities & XEN_SYSCTL_PHYSCAP_gnttab_v2) ? 2 :
            (info.capabilities & XEN_SYSCTL_PHYSCAP_gnttab_v1) ? 1 : 0);

    memcpy(create.handle, c_info->uuid.uuid, sizeof(create.handle));
    if (c_info->domid > 0 && c_info->domid < DOMID_FIRST_RESERVED)
        id = c_info->domid;
    if (xc_domain_create(ctx->xch, &id, &create) < 0) {
        LOGE(ERROR, "domain creation fail");
        return libxl__xc_error(errno);
    }
    *domid = id;
    return 0;
}

/*
 * What the domain may hold, before anything is put in it: max_pages
 * (max_mem, its memory and LIBXL_MAXMEM_CONSTANT) and its paging pool (Xen's libxl__domain_set_paging_mempool_size).
 */
static int domain_set_memory(libxl_ctx *ctx, uint32_t domid,
                             const libxl_domain_build_info *b_info)
{
    /* Xen's libxl__build_pre: the special pages fit in the slack. */
    if (xc_domain_setmaxmem(ctx->xch, domid,
                            b_info->max_memkb + LIBXL_MAXMEM_CONSTANT) < 0) {
        LOGED(ERROR, domid, "Couldn't set max memory");
        return libxl__xc_error(errno);
    }
    if (xc_set_paging_mempool_size(ctx->xch, domid, (uint64_t)b_info->shadow_memkb << 10) < 0) {
        LOGED(ERROR, domid, "Failed to set paging mempool size to %"PRIu64"kB",
              b_info->shadow_memkb);
        return libxl__xc_error(errno);
    }
    return 0;
}

/*
 * The ports of the xenstore and console rings, unbound in the new domain
 * for their backends (Xen's libxl__build_pre).
 */
static int alloc_ring_ports(libxl_ctx *ctx, uint32_t domid,
                            libxl__domain_build_state *state)
{
    int port;

    state->store_domid = state->console_domid = 0;
    port = xc_evtchn_alloc_unbound(ctx->xch, domid, state->store_domid);
    if (port < 0) {
        LOGED(ERROR, domid, "allocating the xenstore event channel");
        return libxl__xc_error(errno);
    }
    state->store_port = (uint32_t)port;
    port = xc_evtchn_alloc_unbound(ctx->xch, domid, state->console_domid);
    if (port < 0) {
        LOGED(ERROR, domid, "allocating the console event channel");
        return libxl__xc_error(errno);
    }
    state->console_port = (uint32_t)port;
    return 0;
}

/* libxenguest's builder over the empty domain (Xen's libxl__build_dom). */
static int build_pvh(libxl_ctx *ctx, uint32_t domid,
                     const libxl_domain_build_info *b_info,
                     libxl__domain_build_state *state)
{
    struct xc_dom_image *dom;
    void *acpi = NULL;
    int rc = ERROR_FAIL;

    dom = xc_dom_allocate(ctx->xch, b_info->cmdline, NULL);
    if (!dom) {
        LOGED(ERROR, domid, "xc_dom_allocate failed");
        return ERROR_NOMEM;
    }
    dom->max_vcpus = (unsigned int)b_info->max_vcpus;
    dom->claim_enabled = libxl_defbool_val(b_info->claim_mode);
    dom->xenstore_evtchn = state->store_port;
    dom->console_evtchn = state->console_port;
    dom->xenstore_domid = state->store_domid;
    dom->console_domid = state->console_domid;

    if (xc_dom_kernel_file(dom, b_info->kernel)) {
        LOGED(ERROR, domid, "xc_dom_kernel_file failed");
        goto out;
    }
    if (b_info->ramdisk && xc_dom_module_file(dom, b_info->ramdisk, NULL)) {
        LOGED(ERROR, domid, "xc_dom_module_file failed");
        goto out;
    }
    if (xc_dom_boot_xen_init(dom, ctx->xch, domid)) {
        LOGED(ERROR, domid, "xc_dom_boot_xen_init failed");
        goto out;
    }
    if (xc_dom_parse_image(dom)) {
        LOGED(ERROR, domid, "xc_dom_parse_image failed");
        goto out;
    }
    if (xc_dom_mem_init(dom, (unsigned int)(b_info->target_memkb / 1024))) {
        LOGED(ERROR, domid, "xc_dom_mem_init failed");
        goto out;
    }
    if (xc_dom_boot_mem_init(dom)) {
        LOGED(ERROR, domid, "xc_dom_boot_mem_init failed");
        goto out;
    }
    rc = libxl__dom_load_acpi(ctx, domid, b_info, dom, &acpi);
    if (rc)
        goto out;
    rc = ERROR_FAIL;
    if (xc_dom_build_image(dom)) {
        LOGED(ERROR, domid, "xc_dom_build_image failed");
        goto out;
    }
    if (xc_dom_boot_image(dom)) {
        LOGED(ERROR, domid, "xc_dom_boot_image failed");
        goto out;
    }
    if (xc_dom_gnttab_init(dom)) {
        LOGED(ERROR, domid, "xc_dom_gnttab_init failed");
        goto out;
    }
    state->store_mfn = dom->xenstore_pfn;
    state->console_mfn = dom->console_pfn;
    rc = 0;

 out:
    xc_dom_release(dom);
    free(acpi);
    return rc;
}

static int domain_create_new(libxl_ctx *ctx, libxl_domain_config *d_config,
                             uint32_t *domid)
{
    libxl_domain_create_info *c_info = &d_config->c_info;
    libxl_domain_build_info *b_info = &d_config->b_info;
    libxl__domain_build_state state = { 0 };
    libxl_dominfo info;
    uint32_t id = INVALID_DOMID, other;
    int rc;

    *domid = INVALID_DOMID;
    rc = domain_config_check(ctx, d_config);
    if (rc)
        return rc;
    rc = build_info_setdefault(ctx, b_info);
    if (rc)
        return rc;
    if (c_info->name && !libxl_name_to_domid(ctx, c_info->name, &other)) {
        LOG(ERROR, "domain with name \"%s\" already exists (domain %u)",
            c_info->name, other);
        return ERROR_INVAL;
    }

    rc = domain_make(ctx, d_config, &id);
    if (rc)
        return rc;

    /* Its xenstore tree, under the UUID the hypervisor keeps for it. */
    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, id);
    if (!rc) {
        libxl_uuid_copy(ctx, &c_info->uuid, &info.uuid);
        rc = libxl__domain_make_xs(ctx, id, c_info);
    }
    libxl_dominfo_dispose(&info);
    if (rc)
        goto fail;

    rc = domain_set_memory(ctx, id, b_info);
    if (!rc)
        rc = alloc_ring_ports(ctx, id, &state);
    if (!rc)
        rc = build_pvh(ctx, id, b_info, &state);
    if (!rc)
        rc = libxl__build_post(ctx, id, b_info, &state);
    if (!rc)
        rc = libxl__device_console_add(ctx, id, &state);
    if (rc)
        goto fail;

    LOGD(DETAIL, id, "created (paused): %"PRIu64" KiB, %d vCPU(s), kernel %s",
         b_info->target_memkb, b_info->max_vcpus, b_info->kernel);
    *domid = id;
    return 0;

 fail:
    LOGD(ERROR, id, "creation failed: destroying the half-built domain");
    if (libxl_domain_destroy(ctx, id, NULL))
        LOGD(ERROR, id, "destroying the half-built domain failed");
    return rc;
}

/*
 * With a non-NULL ao_how the domain is built before the call returns, as
 * the synchronous form; *domid is set before the completion is reported.
 * aop_console_how: the console is there at once (not reported).
 */
int libxl_domain_create_new(libxl_ctx *ctx, libxl_domain_config *d_config,
                            uint32_t *domid,
                            const libxl_asyncop_how *ao_how,
                            const libxl_asyncprogress_how *aop_console_how)
{
    int rc = domain_create_new(ctx, d_config, domid);

    (void)aop_console_how;
    return libxl__ao_complete(ctx, ao_how, *domid, rc);
}

int libxl_domain_create_restore(libxl_ctx *ctx, libxl_domain_config *d_config,
                                uint32_t *domid, int restore_fd,
                                int send_back_fd,
                                const libxl_domain_restore_params *params,
                                const libxl_asyncop_how *ao_how,
                                const libxl_asyncprogress_how *aop_console_how)
{
    libxl_domain_create_info *c_info = &d_config->c_info;
    libxl_domain_build_info *b_info = &d_config->b_info;
    libxl__domain_build_state state = { 0 };
    struct xc_restore_rings rings = { 0 };
    libxl_dominfo info;
    uint32_t id = INVALID_DOMID, other;
    int rc;

    (void)send_back_fd; (void)params; (void)aop_console_how;
    *domid = INVALID_DOMID;
    rc = libxl__ao_synchronous_only(ctx, ao_how, __func__);
    if (rc)
        return rc;
    if (c_info->type != LIBXL_DOMAIN_TYPE_PVH || b_info->type != c_info->type) {
        LOG(ERROR, "restoring a domain of type %s is not supported (only pvh)",
            libxl_domain_type_to_string(c_info->type) ?: "(invalid)");
        return ERROR_INVAL;
    }
    rc = domain_config_devices_check(ctx, d_config);
    if (rc)
        return rc;
    rc = build_info_setdefault(ctx, b_info);
    if (rc)
        return rc;
    if (c_info->name && !libxl_name_to_domid(ctx, c_info->name, &other)) {
        LOG(ERROR, "domain with name \"%s\" already exists (domain %u)",
            c_info->name, other);
        return ERROR_INVAL;
    }

    rc = domain_make(ctx, d_config, &id);
    if (rc)
        return rc;

    /*
     * As Xen's libxl on restore: the xenstore tree and new ring ports
     * first, as for a new domain; the stream fills the memory (the rings'
     * pages among it), HVM parameters and registers, and puts the ports in
     * HVM_PARAM_STORE_EVTCHN/CONSOLE_EVTCHN; then the store and console
     * entries and the introduction to xenstored, with the rings' gfns the
     * stream carried, and the console for xenconsoled.
     */
    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, id);
    if (!rc) {
        libxl_uuid_copy(ctx, &c_info->uuid, &info.uuid);
        rc = libxl__domain_make_xs(ctx, id, c_info);
    }
    libxl_dominfo_dispose(&info);
    if (!rc)
        rc = domain_set_memory(ctx, id, b_info);
    if (!rc)
        rc = alloc_ring_ports(ctx, id, &state);
    if (rc)
        goto fail;
    rings.store_evtchn = state.store_port;
    rings.store_domid = state.store_domid;
    rings.console_evtchn = state.console_port;
    rings.console_domid = state.console_domid;
    rc = libxl__stream_read(ctx, id, restore_fd, &rings);
    if (rc)
        goto fail;
    state.store_mfn = rings.store_gfn;
    state.console_mfn = rings.console_gfn;
    if (!state.store_mfn || !state.console_mfn) {
        LOGD(ERROR, id, "the stream carried no %s ring (HVM_PARAMS without "
             "HVM_PARAM_%s): the guest could not reconnect",
             state.store_mfn ? "console" : "xenstore",
             state.store_mfn ? "CONSOLE_PFN" : "STORE_PFN");
        rc = ERROR_INVAL;
        goto fail;
    }
    rc = libxl__build_post(ctx, id, b_info, &state);
    if (!rc)
        rc = libxl__device_console_add(ctx, id, &state);
    if (rc)
        goto fail;
    LOGD(DEBUG, id, "rings: xenstore gfn %#lx port %u, console gfn %#lx port %u",
         state.store_mfn, state.store_port, state.console_mfn, state.console_port);

    LOGD(DETAIL, id, "restored (paused)");
    *domid = id;
    return 0;

 fail:
    LOGD(ERROR, id, "restore failed: destroying the half-built domain");
    if (libxl_domain_destroy(ctx, id, NULL))
        LOGD(ERROR, id, "destroying the half-built domain failed");
    return rc;
}

int libxl_domain_suspend_params(libxl_ctx *ctx, uint32_t domid, int fd,
                                int flags, const libxl_suspend_params *params,
                                const libxl_asyncop_how *ao_how)
{
    xc_domaininfo_t info;
    int rc;

    rc = libxl__ao_synchronous_only(ctx, ao_how, __func__);
    if (rc)
        return rc;
    rc = libxl__domain_getinfo(ctx, domid, &info);
    if (rc)
        return rc;
    return libxl__stream_write(ctx, domid, fd, flags, params);
}

int libxl_domain_suspend(libxl_ctx *ctx, uint32_t domid, int fd, int flags,
                         const libxl_asyncop_how *ao_how)
{
    return libxl_domain_suspend_params(ctx, domid, fd, flags, NULL, ao_how);
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: the context, logging, and what it reports about the host
 * (version, physinfo).
 */
#include "libxl_internal.h"

/* ---- logging ------------------------------------------------------------- */

void libxl__log(libxl_ctx *ctx, xentoollog_level level, int errnoval,
                const char *func, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    if (!ctx || !ctx->lg)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    xtl_log(ctx->lg, level, errnoval, "libxl", "%s: %s", func, msg);
}

int libxl__xc_error(int errnoval)
{
    switch (errnoval) {
    case ESRCH:
        return ERROR_DOMAIN_NOTFOUND;
    case ENOMEM:
        return ERROR_NOMEM;
    case EINVAL:
        return ERROR_INVAL;
    case ENOSYS:
    case EOPNOTSUPP:
        return ERROR_NI;
    default:
        return ERROR_FAIL;
    }
}

int libxl__ao_synchronous_only(libxl_ctx *ctx, const libxl_asyncop_how *ao_how,
                               const char *func)
{
    if (!ao_how)
        return 0;
    libxl__log(ctx, XTL_ERROR, -1, func,
               "asynchronous operation (ao_how != NULL) is not supported");
    return ERROR_NI;
}

/* Milliseconds of CLOCK_MONOTONIC, for libxl's time limits (0 if it fails). */
uint64_t libxl__now_ms(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts))
        return 0;
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- context ------------------------------------------------------------- */

int libxl_ctx_alloc(libxl_ctx **pctx, int version, unsigned flags,
                    xentoollog_logger *lg)
{
    libxl_ctx *ctx;

    *pctx = NULL;
    if (version != LIBXL_VERSION)
        return ERROR_VERSION;
    if (flags)
        return ERROR_INVAL;

    ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return ERROR_NOMEM;
    if (!lg) {
        ctx->own_lg = (xentoollog_logger *)
            xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        lg = ctx->own_lg;
    }
    ctx->lg = lg;
    libxl_version_info_init(&ctx->version_info);

    ctx->xch = xc_interface_open(lg, lg, 0);
    if (!ctx->xch) {
        LOGE(ERROR, "cannot open libxc handle");
        libxl_ctx_free(ctx);
        return ERROR_FAIL;
    }
    /* As Xen's libxl: xenstored's socket, else the kernel's xenbus device. */
    ctx->xsh = xs_daemon_open();
    if (!ctx->xsh)
        ctx->xsh = xs_open(0);
    if (!ctx->xsh) {
        LOGE(ERROR, "cannot connect to xenstore");
        libxl_ctx_free(ctx);
        return ERROR_FAIL;
    }
    *pctx = ctx;
    return 0;
}

int libxl_ctx_free(libxl_ctx *ctx)
{
    if (!ctx)
        return 0;
    libxl__event_state_free(ctx);
    if (ctx->dmod)
        xendevicemodel_close(ctx->dmod);
    if (ctx->xsh)
        xs_close(ctx->xsh);
    if (ctx->xch)
        xc_interface_close(ctx->xch);
    libxl_version_info_dispose(&ctx->version_info);
    xtl_logger_destroy(ctx->own_lg);
    free(ctx);
    return 0;
}

/* ---- version ------------------------------------------------------------- */

static char *dup_bounded(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *r = malloc(n + 1);

    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

static char *build_id_string(libxl_ctx *ctx)
{
    union {
        xen_build_id_t id;
        char raw[sizeof(xen_build_id_t) + 64];
    } u;
    char *s;
    int len;

    memset(&u, 0, sizeof(u));
    u.id.len = sizeof(u) - sizeof(xen_build_id_t);
    len = xc_version(ctx->xch, XENVER_build_id, &u.id);
    if (len <= 0 || len > (int)u.id.len)
        return strdup("");
    s = malloc(2 * len + 1);
    if (!s)
        return NULL;
    for (int i = 0; i < len; i++)
        sprintf(s + 2 * i, "%02hhx", u.id.buf[i]);
    return s;
}

const libxl_version_info *libxl_get_version_info(libxl_ctx *ctx)
{
    libxl_version_info *info = &ctx->version_info;
    union {
        xen_extraversion_t xen_extra;
        xen_compile_info_t xen_cc;
        xen_changeset_info_t xen_chgset;
        xen_capabilities_info_t xen_caps;
        xen_platform_parameters_t p_parms;
        xen_commandline_t xen_commandline;
    } u;
    int xen_version;

    if (ctx->version_valid)
        return info;

    xen_version = xc_version(ctx->xch, XENVER_version, NULL);
    if (xen_version < 0) {
        LOGE(ERROR, "getting the hypervisor's version");
        return NULL;
    }
    libxl_version_info_dispose(info);
    libxl_version_info_init(info);
    info->xen_version_major = xen_version >> 16;
    info->xen_version_minor = xen_version & 0xffff;

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_extraversion, &u.xen_extra);
    info->xen_version_extra = dup_bounded(u.xen_extra, sizeof(u.xen_extra));

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_compile_info, &u.xen_cc);
    info->compiler = dup_bounded(u.xen_cc.compiler, sizeof(u.xen_cc.compiler));
    info->compile_by = dup_bounded(u.xen_cc.compile_by,
                                   sizeof(u.xen_cc.compile_by));
    info->compile_domain = dup_bounded(u.xen_cc.compile_domain,
                                       sizeof(u.xen_cc.compile_domain));
    info->compile_date = dup_bounded(u.xen_cc.compile_date,
                                     sizeof(u.xen_cc.compile_date));

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_capabilities, &u.xen_caps);
    info->capabilities = dup_bounded(u.xen_caps, sizeof(u.xen_caps));

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_changeset, &u.xen_chgset);
    info->changeset = dup_bounded(u.xen_chgset, sizeof(u.xen_chgset));

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_platform_parameters, &u.p_parms);
    info->virt_start = u.p_parms.virt_start;

    info->pagesize = xc_version(ctx->xch, XENVER_pagesize, NULL);
    if (info->pagesize <= 0)
        info->pagesize = XC_PAGE_SIZE;

    memset(&u, 0, sizeof(u));
    xc_version(ctx->xch, XENVER_commandline, &u.xen_commandline);
    info->commandline = dup_bounded(u.xen_commandline,
                                    sizeof(u.xen_commandline));

    info->build_id = build_id_string(ctx);

    ctx->version_valid = true;
    return info;
}

/* ---- the host ------------------------------------------------------------ */

/* The hypervisor's scheduler (Xen's: an error is negative, ERROR_FAIL). */
libxl_scheduler libxl_get_scheduler(libxl_ctx *ctx)
{
    int sched;

    if (xc_sched_id(ctx->xch, &sched) != 0) {
        LOGE(ERROR, "getting current scheduler id");
        return (libxl_scheduler)ERROR_FAIL;
    }
    return (libxl_scheduler)sched;
}

int libxl_get_physinfo(libxl_ctx *ctx, libxl_physinfo *physinfo)
{
    xc_physinfo_t xcphysinfo;

    memset(&xcphysinfo, 0, sizeof(xcphysinfo));
    if (xc_physinfo(ctx->xch, &xcphysinfo) != 0) {
        LOGE(ERROR, "getting physinfo");
        return ERROR_FAIL;
    }

    physinfo->threads_per_core = xcphysinfo.threads_per_core;
    physinfo->cores_per_socket = xcphysinfo.cores_per_socket;
    physinfo->max_cpu_id = xcphysinfo.max_cpu_id;
    physinfo->nr_cpus = xcphysinfo.nr_cpus;
    physinfo->cpu_khz = xcphysinfo.cpu_khz;
    physinfo->total_pages = xcphysinfo.total_pages;
    physinfo->free_pages = xcphysinfo.free_pages;
    physinfo->scrub_pages = xcphysinfo.scrub_pages;
    physinfo->outstanding_pages = xcphysinfo.outstanding_pages;
    physinfo->max_possible_mfn = xcphysinfo.max_mfn;
    /* No page sharing in this hypervisor. */
    physinfo->sharing_freed_pages = 0;
    physinfo->sharing_used_frames = 0;
    physinfo->nr_nodes = xcphysinfo.nr_nodes;
    memcpy(physinfo->hw_cap, xcphysinfo.hw_cap, sizeof(physinfo->hw_cap));

    physinfo->cap_hvm = !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_hvm);
    physinfo->cap_pv = !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_pv);
    physinfo->cap_hvm_directio =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_directio);
    physinfo->cap_hap = !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_hap);
    physinfo->cap_shadow =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_shadow);
    physinfo->cap_iommu_hap_pt_share =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_iommu_hap_pt_share);
    physinfo->cap_vmtrace =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_vmtrace);
    physinfo->cap_vpmu = !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_vpmu);
    physinfo->cap_gnttab_v1 =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_gnttab_v1);
    physinfo->cap_gnttab_v2 =
        !!(xcphysinfo.capabilities & XEN_SYSCTL_PHYSCAP_gnttab_v2);
    return 0;
}

int libxl_get_max_cpus(libxl_ctx *ctx)
{
    libxl_physinfo info;
    int rc;

    libxl_physinfo_init(&info);
    rc = libxl_get_physinfo(ctx, &info);
    if (!rc)
        rc = (int)info.max_cpu_id + 1;
    libxl_physinfo_dispose(&info);
    return rc;
}

int libxl_get_online_cpus(libxl_ctx *ctx)
{
    libxl_physinfo info;
    int rc;

    libxl_physinfo_init(&info);
    rc = libxl_get_physinfo(ctx, &info);
    if (!rc)
        rc = (int)info.nr_cpus;
    libxl_physinfo_dispose(&info);
    return rc;
}

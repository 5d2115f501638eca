/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: domains - listing, information, pause/unpause/shutdown/destroy,
 * and their names (in xenstore, as Xen's).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libxl_internal.h"

#define PAGE_TO_MEMKB(pages) ((uint64_t)(pages) * (XC_PAGE_SIZE / 1024))

void libxl__xcinfo2xlinfo(libxl_ctx *ctx, const xc_domaininfo_t *xcinfo,
                          libxl_dominfo *xlinfo)
{
    (void)ctx;
    memcpy(&xlinfo->uuid, xcinfo->handle, sizeof(xen_domain_handle_t));
    xlinfo->domid = xcinfo->domain;
    xlinfo->ssidref = xcinfo->ssidref;
    xlinfo->ssid_label = NULL;          /* no XSM here */

    xlinfo->dying    = !!(xcinfo->flags & XEN_DOMINF_dying);
    xlinfo->shutdown = !!(xcinfo->flags & XEN_DOMINF_shutdown);
    xlinfo->paused   = !!(xcinfo->flags & XEN_DOMINF_paused);
    xlinfo->blocked  = !!(xcinfo->flags & XEN_DOMINF_blocked);
    xlinfo->running  = !!(xcinfo->flags & XEN_DOMINF_running);
    xlinfo->never_stop = !!(xcinfo->flags & XEN_DOMINF_xs_domain);

    if (xlinfo->shutdown)
        xlinfo->shutdown_reason = (xcinfo->flags >> XEN_DOMINF_shutdownshift)
                                  & XEN_DOMINF_shutdownmask;
    else
        xlinfo->shutdown_reason = LIBXL_SHUTDOWN_REASON_UNKNOWN;

    xlinfo->outstanding_memkb = PAGE_TO_MEMKB(xcinfo->outstanding_pages);
    xlinfo->current_memkb = PAGE_TO_MEMKB(xcinfo->tot_pages);
    xlinfo->shared_memkb = PAGE_TO_MEMKB(xcinfo->shr_pages);
    xlinfo->paged_memkb = PAGE_TO_MEMKB(xcinfo->paged_pages);
    xlinfo->max_memkb = PAGE_TO_MEMKB(xcinfo->max_pages);
    xlinfo->cpu_time = xcinfo->cpu_time;
    xlinfo->vcpu_max_id = xcinfo->max_vcpu_id;
    xlinfo->vcpu_online = xcinfo->nr_online_vcpus;
    xlinfo->cpupool = xcinfo->cpupool;
    xlinfo->gpaddr_bits = xcinfo->gpaddr_bits;

    if (!(xcinfo->flags & XEN_DOMINF_hvm_guest))
        xlinfo->domain_type = LIBXL_DOMAIN_TYPE_PV;
    else if (xcinfo->arch_config.emulation_flags & XEN_X86_EMU_LAPIC)
        xlinfo->domain_type = LIBXL_DOMAIN_TYPE_HVM;
    else
        xlinfo->domain_type = LIBXL_DOMAIN_TYPE_PVH;
}

int libxl__domain_getinfo(libxl_ctx *ctx, uint32_t domid,
                          xc_domaininfo_t *info)
{
    int ret;

    if (domid >= DOMID_FIRST_RESERVED)
        return ERROR_DOMAIN_NOTFOUND;
    ret = xc_domain_getinfolist(ctx->xch, domid, 1, info);
    if (ret < 0) {
        if (errno == ESRCH)
            return ERROR_DOMAIN_NOTFOUND;
        LOGED(ERROR, domid, "getting domain info list");
        return ERROR_FAIL;
    }
    if (ret == 0 || info->domain != domid)
        return ERROR_DOMAIN_NOTFOUND;
    return 0;
}

libxl_dominfo *libxl_list_domain(libxl_ctx *ctx, int *nb_domain_out)
{
    enum { CHUNK = 256 };
    xc_domaininfo_t info[CHUNK];
    libxl_dominfo *list = NULL;
    uint32_t first = 0;
    int n = 0;

    for (;;) {
        int got = xc_domain_getinfolist(ctx->xch, first, CHUNK, info);

        if (got < 0) {
            if (errno == ESRCH)
                break;              /* no domain at or above 'first' */
            LOGE(ERROR, "getting domain info list");
            libxl_dominfo_list_free(list, n);
            return NULL;
        }
        if (got == 0)
            break;
        libxl_dominfo *more = realloc(list, (n + got) * sizeof(*list));

        if (!more) {
            libxl_dominfo_list_free(list, n);
            return NULL;
        }
        list = more;
        for (int i = 0; i < got; i++) {
            libxl_dominfo_init(&list[n + i]);
            libxl__xcinfo2xlinfo(ctx, &info[i], &list[n + i]);
        }
        n += got;
        if (got < CHUNK)
            break;
        first = info[got - 1].domain + 1;
        if (first >= DOMID_FIRST_RESERVED)
            break;
    }

    *nb_domain_out = n;
    if (!list)
        list = calloc(1, sizeof(*list));    /* no domains: still not NULL */
    return list;
}

void libxl_dominfo_list_free(libxl_dominfo *list, int nb_domain)
{
    if (!list)
        return;
    for (int i = 0; i < nb_domain; i++)
        libxl_dominfo_dispose(&list[i]);
    free(list);
}

int libxl_domain_info(libxl_ctx *ctx, libxl_dominfo *info_r, uint32_t domid)
{
    xc_domaininfo_t xcinfo;
    int rc;

    rc = libxl__domain_getinfo(ctx, domid, &xcinfo);
    if (rc)
        return rc;
    if (info_r)
        libxl__xcinfo2xlinfo(ctx, &xcinfo, info_r);
    return 0;
}

/* ---- state changes -------------------------------------------------------- */

/* A libxenctrl call on one domain, its failure logged and mapped. */
static int domain_op(libxl_ctx *ctx, uint32_t domid, const char *what,
                     int (*op)(xc_interface *, uint32_t))
{
    int rc = libxl_domain_info(ctx, NULL, domid);

    if (rc == ERROR_DOMAIN_NOTFOUND) {
        LOGD(ERROR, domid, "Non-existant domain");
        return rc;
    }
    if (rc)
        return rc;
    if (op(ctx->xch, domid) < 0) {
        rc = libxl__xc_error(errno);
        LOGED(ERROR, domid, "%s", what);
        return rc;
    }
    return 0;
}

int libxl_domain_pause(libxl_ctx *ctx, uint32_t domid,
                       const libxl_asyncop_how *ao_how)
{
    return libxl__ao_complete(ctx, ao_how, domid,
                              domain_op(ctx, domid, "Pausing domain", xc_domain_pause));
}

int libxl_domain_unpause(libxl_ctx *ctx, uint32_t domid,
                         const libxl_asyncop_how *ao_how)
{
    return libxl__ao_complete(ctx, ao_how, domid,
                              domain_op(ctx, domid, "Unpausing domain",
                                        xc_domain_unpause));
}

/*
 * Xen's libxl__domain_type: a domain the hypervisor runs in an HVM
 * container is what libxl recorded in /libxl/<domid>/type (pvh or hvm);
 * without a record (a domain built at boot, which no toolstack wrote), HVM,
 * with Xen's warning.
 */
static libxl_domain_type domain_type(libxl_ctx *ctx, uint32_t domid)
{
    xc_domaininfo_t info;
    libxl_domain_type t;
    char *path, *s;

    if (libxl__domain_getinfo(ctx, domid, &info))
        return LIBXL_DOMAIN_TYPE_INVALID;
    if (!(info.flags & XEN_DOMINF_hvm_guest))
        return LIBXL_DOMAIN_TYPE_PV;
    path = GCSPRINTF("/libxl/%u/type", domid);
    s = libxl__xs_read(ctx, XBT_NULL, path);
    free(path);
    if (!s || libxl_domain_type_from_string(s, &t) ||
        t == LIBXL_DOMAIN_TYPE_INVALID) {
        LOG(WARN, "unable to get domain type for domid=%u, assuming HVM", domid);
        t = LIBXL_DOMAIN_TYPE_HVM;
    }
    free(s);
    return t;
}

/*
 * Xen's libxl__domain_pvcontrol_available: 1 if the guest answers
 * control/shutdown, 0 if not, or an ERROR_*.  PV and PVH guests always
 * have the PV control interface; an HVM guest has it once its PV drivers
 * set up their callback (a nonzero HVM_PARAM_CALLBACK_IRQ).
 */
static int pvcontrol_available(libxl_ctx *ctx, uint32_t domid)
{
    libxl_domain_type type = domain_type(ctx, domid);
    uint64_t via = 0;

    if (type == LIBXL_DOMAIN_TYPE_INVALID)
        return ERROR_FAIL;
    if (type != LIBXL_DOMAIN_TYPE_HVM)
        return 1;
    if (xc_hvm_param_get(ctx->xch, domid, HVM_PARAM_CALLBACK_IRQ, &via) < 0) {
        LOGED(ERROR, domid, "Getting HVM callback IRQ");
        return ERROR_FAIL;
    }
    return !!via;
}

/*
 * Xen's libxl__domain_pvcontrol, synchronously: write the command
 * ("poweroff", "reboot") to the guest's control/shutdown, then wait, with a
 * watch on the node, until the guest has acknowledged it by clearing or
 * removing it; at most 60 s, as Xen's xswait, then ERROR_TIMEDOUT.  The
 * node is re-read at least each second (a watch event can be missed
 * across a xenstored restart).  What the guest does next (shut down,
 * reboot) is its own business: the caller waits for that if it wants.
 */
#define PVCONTROL_TIMEOUT_MS (60 * 1000)

static int domain_pvcontrol(libxl_ctx *ctx, uint32_t domid, const char *cmd)
{
    char *dom_path, *path, *state = NULL, token[32];
    uint64_t start;
    bool watching;
    int rc;

    rc = pvcontrol_available(ctx, domid);
    if (rc < 0)
        return rc;
    if (!rc)
        return ERROR_NOPARAVIRT;
    dom_path = libxl__xs_get_dompath(ctx, domid);
    if (!dom_path)
        return ERROR_FAIL;
    path = GCSPRINTF("%s/control/shutdown", dom_path);
    free(dom_path);
    rc = libxl__xs_printf(ctx, XBT_NULL, path, "%s", cmd);
    if (rc)
        goto out;

    snprintf(token, sizeof(token), "pvcontrol-%u", domid);
    watching = xs_watch(ctx->xsh, path, token);
    start = libxl__now_ms();
    for (;;) {
        uint64_t waited = libxl__now_ms() - start;
        struct pollfd pfd = { .fd = xs_fileno(ctx->xsh), .events = POLLIN };

        free(state);
        state = libxl__xs_read(ctx, XBT_NULL, path);
        if (!state || !*state) {
            rc = 0;
            break;
        }
        if (waited >= PVCONTROL_TIMEOUT_MS) {
            LOGD(ERROR, domid, "guest acknowledgement of %s request: timed out "
                 "(control/shutdown still `%s' after %d s)", cmd, state,
                 PVCONTROL_TIMEOUT_MS / 1000);
            LOG(ERROR, "guest didn't acknowledge control request: %d",
                ERROR_TIMEDOUT);
            rc = ERROR_TIMEDOUT;
            break;
        }
        waited = PVCONTROL_TIMEOUT_MS - waited;
        if (watching && pfd.fd >= 0 &&
            poll(&pfd, 1, waited < 1000 ? (int)waited : 1000) > 0) {
            unsigned int n;
            char **ev = xs_read_watch(ctx->xsh, &n);

            free(ev);
        } else if (!watching || pfd.fd < 0) {
            usleep(100 * 1000);
        }
    }
    if (watching)
        xs_unwatch(ctx->xsh, path, token);
 out:
    free(state);
    free(path);
    return rc;
}

/* With a non-NULL ao_how too, the acknowledgement is waited for within the call. */
int libxl_domain_shutdown(libxl_ctx *ctx, uint32_t domid,
                          const libxl_asyncop_how *ao_how)
{
    return libxl__ao_complete(ctx, ao_how, domid,
                              domain_pvcontrol(ctx, domid, "poweroff"));
}

int libxl_domain_reboot(libxl_ctx *ctx, uint32_t domid,
                        const libxl_asyncop_how *ao_how)
{
    return libxl__ao_complete(ctx, ao_how, domid,
                              domain_pvcontrol(ctx, domid, "reboot"));
}

/*
 * Not Xen's: the hypervisor's SCHEDOP_remote_shutdown on behalf of the
 * guest, for `xl shutdown -F` / `xl reboot -F` where the guest has no PV
 * control interface.  Xen's xl sends an ACPI power (reset) button event
 * there instead; this hypervisor emulates no ACPI PM block, so this
 * fallback shuts the domain down as the guest itself would.
 */
int libxl_domain_remote_shutdown(libxl_ctx *ctx, uint32_t domid, int reason)
{
    int rc = libxl_domain_info(ctx, NULL, domid);

    if (rc)
        return rc;
    if (xc_domain_shutdown(ctx->xch, domid, reason) < 0) {
        rc = libxl__xc_error(errno);
        LOGED(ERROR, domid, "shutting down (reason %d)", reason);
        return rc;
    }
    return 0;
}

/*
 * Xen's libxl__destroy_domid, synchronously: the domain's xenstore nodes
 * go (/vm/<uuid>, /local/domain/<domid>, /libxl/<domid>, its console's
 * backend), then the domain.  xenstored releases its connection when it sees the domain
 * die (VIRQ_DOM_EXC) and fires @releaseDomain.
 */
static int domain_destroy(libxl_ctx *ctx, uint32_t domid);

int libxl_domain_destroy(libxl_ctx *ctx, uint32_t domid,
                         const libxl_asyncop_how *ao_how)
{
    return libxl__ao_complete(ctx, ao_how, domid, domain_destroy(ctx, domid));
}

static int domain_destroy(libxl_ctx *ctx, uint32_t domid)
{
    xc_domaininfo_t xcinfo;
    char *dom_path, *vm_path, *libxl_path, *p;
    int rc;

    rc = libxl__domain_getinfo(ctx, domid, &xcinfo);
    if (rc == ERROR_DOMAIN_NOTFOUND)
        LOGD(ERROR, domid, "Non-existant domain");
    if (rc)
        return rc;

    if (xc_domain_pause(ctx->xch, domid) < 0)
        LOGED(ERROR, domid, "xc_domain_pause failed");
    dom_path = libxl__xs_get_dompath(ctx, domid);
    if (dom_path) {
        p = GCSPRINTF("%s/vm", dom_path);
        vm_path = libxl__xs_read(ctx, XBT_NULL, p);
        free(p);
        if (vm_path && !xs_rm(ctx->xsh, XBT_NULL, vm_path))
            LOGED(ERROR, domid, "xs_rm failed for %s", vm_path);
        free(vm_path);
        if (!xs_rm(ctx->xsh, XBT_NULL, dom_path) && errno != ENOENT)
            LOGED(ERROR, domid, "xs_rm failed for %s", dom_path);
        free(dom_path);
    }
    libxl_path = libxl__xs_libxl_path(domid);
    xs_rm(ctx->xsh, XBT_NULL, libxl_path);
    free(libxl_path);
    /* Its devices' backends: the console's, xenconsoled's (dom0). */
    p = GCSPRINTF("/local/domain/0/backend/console/%u", domid);
    if (!xs_rm(ctx->xsh, XBT_NULL, p) && errno != ENOENT)
        LOGED(ERROR, domid, "xs_rm failed for %s", p);
    free(p);

    if (xc_domain_destroy(ctx->xch, domid) < 0) {
        rc = libxl__xc_error(errno);
        LOGED(ERROR, domid, "xc_domain_destroy failed");
        return rc;
    }
    return 0;
}

/* ---- names ------------------------------------------------------------------ */

/* In xenstore, as Xen's: /local/domain/<domid>/name and /vm/<uuid>/name. */
int libxl__domain_rename(libxl_ctx *ctx, uint32_t domid, const char *old_name,
                         const char *new_name, xs_transaction_t trans)
{
    xs_transaction_t our_trans = XBT_NULL;
    char *dom_path = NULL, *name_path = NULL, *got = NULL, *vm_name_path = NULL;
    libxl_dominfo info;
    uint32_t other;
    int rc;

    libxl_dominfo_init(&info);
    if (!new_name) {
        LOGD(ERROR, domid, "New domain name not specified");
        return ERROR_INVAL;
    }
    rc = libxl_domain_info(ctx, &info, domid);
    if (rc)
        goto out;
    dom_path = libxl__xs_get_dompath(ctx, domid);
    if (!dom_path) {
        rc = ERROR_FAIL;
        goto out;
    }
    name_path = GCSPRINTF("%s/name", dom_path);
    vm_name_path = GCSPRINTF("/vm/" LIBXL_UUID_FMT "/name", LIBXL_UUID_BYTES(info.uuid));

 retry_transaction:
    if (!trans) {
        rc = libxl__xs_transaction_start(ctx, &our_trans);
        if (rc)
            goto out;
        trans = our_trans;
    }
    if (new_name[0]) {
        /* Non-empty names are unique. */
        rc = libxl_name_to_domid(ctx, new_name, &other);
        if (!rc && other != domid) {
            LOGD(ERROR, domid, "Domain with name \"%s\" already exists.", new_name);
            rc = ERROR_INVAL;
            goto out;
        }
        if (rc && rc != ERROR_INVAL) {
            LOGD(ERROR, domid, "Unexpected error checking for existing domain");
            goto out;
        }
    }
    if (old_name) {
        got = xs_read(ctx->xsh, trans, name_path, NULL);
        if (!got || strcmp(got, old_name)) {
            LOGD(ERROR, domid, "Allegedly named `%s' is actually named `%s' - racing ?",
                 old_name, got ? got : "");
            rc = ERROR_FAIL;
            goto out;
        }
    }
    rc = libxl__xs_write_checked(ctx, trans, name_path, new_name);
    if (!rc)
        rc = libxl__xs_write_checked(ctx, trans, vm_name_path, new_name);
    if (rc)
        goto out;
    if (our_trans) {
        rc = libxl__xs_transaction_commit(ctx, &our_trans);
        trans = XBT_NULL;
        if (rc > 0)
            goto retry_transaction;
    }

 out:
    if (our_trans)
        libxl__xs_transaction_abort(ctx, &our_trans);
    free(got);
    free(vm_name_path);
    free(name_path);
    free(dom_path);
    libxl_dominfo_dispose(&info);
    return rc;
}

int libxl_domain_rename(libxl_ctx *ctx, uint32_t domid,
                        const char *old_name, const char *new_name)
{
    if (!new_name || !*new_name)
        return ERROR_INVAL;
    return libxl__domain_rename(ctx, domid, old_name, new_name, XBT_NULL);
}

/* xenstore's /local/domain/<domid>/name, as Xen's: NULL if it has none. */
char *libxl_domid_to_name(libxl_ctx *ctx, uint32_t domid)
{
    char *path = GCSPRINTF("/local/domain/%u/name", domid);
    char *name = libxl__xs_read(ctx, XBT_NULL, path);

    free(path);
    return name;
}

int libxl_name_to_domid(libxl_ctx *ctx, const char *name, uint32_t *domid)
{
    libxl_dominfo *list;
    int nb = 0, rc = ERROR_INVAL;

    list = libxl_list_domain(ctx, &nb);
    if (!list)
        return ERROR_NOMEM;
    for (int i = 0; i < nb; i++) {
        char *n = libxl_domid_to_name(ctx, list[i].domid);

        if (n && !strcmp(n, name)) {
            *domid = list[i].domid;
            rc = 0;
        }
        free(n);
        if (!rc)
            break;
    }
    libxl_dominfo_list_free(list, nb);
    return rc;
}

int libxl_domain_qualifier_to_domid(libxl_ctx *ctx, const char *name,
                                    uint32_t *domid)
{
    char *end;
    unsigned long v;

    if (!*name)
        return ERROR_INVAL;
    for (const char *p = name; *p; p++)
        if (*p < '0' || *p > '9')
            return libxl_name_to_domid(ctx, name, domid);
    errno = 0;
    v = strtoul(name, &end, 10);
    if (errno || *end || v >= DOMID_FIRST_RESERVED)
        return ERROR_INVAL;
    *domid = (uint32_t)v;
    return 0;
}

/* ---- configuration ------------------------------------------------------------ */

int libxl_retrieve_domain_configuration(libxl_ctx *ctx, uint32_t domid,
                                        libxl_domain_config *d_config,
                                        const libxl_asyncop_how *ao_how)
{
    libxl_domain_create_info *c_info = &d_config->c_info;
    libxl_domain_build_info *b_info = &d_config->b_info;
    libxl_dominfo info;
    int rc;

    rc = libxl__ao_synchronous_only(ctx, ao_how, __func__);
    if (rc)
        return rc;
    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    if (rc) {
        if (rc == ERROR_DOMAIN_NOTFOUND)
            LOGD(ERROR, domid, "Non-existant domain");
        goto out;
    }

    /* No stored configuration yet: rebuild it from the hypervisor's view. */
    libxl_domain_config_dispose(d_config);
    libxl_domain_config_init(d_config);
    c_info->type = info.domain_type;
    c_info->ssidref = info.ssidref;
    libxl_uuid_copy(ctx, &c_info->uuid, &info.uuid);
    c_info->name = libxl_domid_to_name(ctx, domid);

    libxl_domain_build_info_init_type(b_info, info.domain_type);
    b_info->max_vcpus = (int)info.vcpu_max_id + 1;
    rc = libxl_bitmap_alloc(ctx, &b_info->avail_vcpus, b_info->max_vcpus);
    if (rc)
        goto out;
    for (uint32_t i = 0; i < info.vcpu_online && (int)i < b_info->max_vcpus; i++)
        libxl_bitmap_set(&b_info->avail_vcpus, (int)i);
    b_info->max_memkb = info.max_memkb;
    b_info->target_memkb = info.current_memkb;

 out:
    libxl_dominfo_dispose(&info);
    return rc;
}

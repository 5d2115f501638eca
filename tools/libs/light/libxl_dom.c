/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: a new domain's xenstore tree, as Xen's libxl writes it
 * (libxl__domain_make's nodes, libxl__build_post's entries and the
 * introduction to xenstored), and its primary console
 * (libxl__device_console_add for console 0, served by xenconsoled).
 *
 *   /local/domain/<domid>          dom0 owns it, the guest may read
 *       vm, name, domid, cpu/, memory/{static-max,target,videoram},
 *       device/, control/ (shutdown, feature-*, sysrq: the guest's),
 *       data/, drivers/, feature/, attr/, error/ (the guest's),
 *       store/{port,ring-ref}, console/{backend,backend-id,limit,type,
 *       output,tty,port,ring-ref}
 *   /vm/<uuid>                     uuid, name, start_time
 *   /libxl/<domid>                 type, device/ (dom0 only)
 *   /local/domain/0/backend/console/<domid>/0
 *       frontend, frontend-id, online, state, protocol
 *
 * The domain reaches xenstored through xs_introduce_domain(domid, the
 * store ring's gfn, its port), which makes xenstored map the ring (grant
 * GNTTAB_RESERVED_XENSTORE) and bind the port; xenconsoled finds the
 * console on @introduceDomain and writes console/tty, the pty `xl console`
 * attaches to.
 */
#include <inttypes.h>
#include <sys/time.h>

#include "libxl_internal.h"

/* Xen's values for the primary console. */
#define LIBXL_XENCONSOLE_LIMIT      1048576
#define LIBXL_XENCONSOLE_PROTOCOL   "vt100"
#define XenbusStateInitialising     1

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int mknod_at(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                    const char *leaf, struct xs_permissions *perms,
                    unsigned int nr)
{
    char *path = GCSPRINTF("%s/%s", dir, leaf);
    int rc = libxl__xs_mknod(ctx, t, path, perms, nr);

    free(path);
    return rc;
}

static int write_at(libxl_ctx *ctx, xs_transaction_t t, const char *dir,
                    const char *leaf, const char *value)
{
    char *path = GCSPRINTF("%s/%s", dir, leaf);
    int rc = libxl__xs_write_checked(ctx, t, path, value);

    free(path);
    return rc;
}

/* Xen's libxl__domain_make, its xenstore half (after createdomain). */
static int domain_make_xs(libxl_ctx *ctx, uint32_t domid,
                          const libxl_domain_create_info *info,
                          xs_transaction_t t)
{
    static const char *const ro_dirs[] = { "cpu", "memory", "device", "control" };
    static const char *const rw_nodes[] = {
        "control/shutdown", "control/feature-poweroff", "control/feature-reboot",
        "control/feature-suspend", "control/feature-s3", "control/feature-s4",
        "control/sysrq", "data", "drivers", "feature", "attr", "error",
    };
    struct xs_permissions noperm[] = { { .id = 0, .perms = XS_PERM_NONE } };
    struct xs_permissions roperm[] = {
        { .id = 0, .perms = XS_PERM_NONE },
        { .id = domid, .perms = XS_PERM_READ },
    };
    struct xs_permissions rwperm[] = { { .id = domid, .perms = XS_PERM_NONE } };
    char *dom_path = GCSPRINTF("/local/domain/%u", domid);
    char *vm_path = GCSPRINTF("/vm/" LIBXL_UUID_FMT, LIBXL_UUID_BYTES(info->uuid));
    char *uuid = GCSPRINTF(LIBXL_UUID_FMT, LIBXL_UUID_BYTES(info->uuid));
    char *libxl_path = libxl__xs_libxl_path(domid);
    const char *type = libxl_domain_type_to_string(info->type);
    unsigned int i;
    int rc;

    xs_rm(ctx->xsh, t, dom_path);
    rc = libxl__xs_mknod(ctx, t, dom_path, roperm, ARRAY_SIZE(roperm));
    if (rc)
        goto out;
    xs_rm(ctx->xsh, t, vm_path);
    rc = libxl__xs_mknod(ctx, t, vm_path, roperm, ARRAY_SIZE(roperm));
    if (rc)
        goto out;
    xs_rm(ctx->xsh, t, libxl_path);
    rc = libxl__xs_mknod(ctx, t, libxl_path, noperm, ARRAY_SIZE(noperm)) ?:
         mknod_at(ctx, t, libxl_path, "device", noperm, ARRAY_SIZE(noperm)) ?:
         write_at(ctx, t, libxl_path, "type", type ? type : "pvh") ?:
         write_at(ctx, t, dom_path, "vm", vm_path);
    if (rc)
        goto out;
    rc = libxl__domain_rename(ctx, domid, NULL, info->name ? info->name : "", t);
    if (rc)
        goto out;

    for (i = 0; i < ARRAY_SIZE(ro_dirs); i++)
        if ((rc = mknod_at(ctx, t, dom_path, ro_dirs[i], roperm, ARRAY_SIZE(roperm))))
            goto out;
    for (i = 0; i < ARRAY_SIZE(rw_nodes); i++)
        if ((rc = mknod_at(ctx, t, dom_path, rw_nodes[i], rwperm, ARRAY_SIZE(rwperm))))
            goto out;

    rc = write_at(ctx, t, vm_path, "uuid", uuid) ?:
         write_at(ctx, t, vm_path, "name", info->name ? info->name : "") ?:
         write_at(ctx, t, dom_path, "control/platform-feature-multiprocessor-suspend", "1") ?:
         write_at(ctx, t, dom_path, "control/platform-feature-xs_reset_watches", "1");
    if (rc)
        goto out;
    if (info->xsdata)
        rc = libxl__xs_writev(ctx, t, dom_path, info->xsdata);
    if (!rc && info->platformdata) {
        char *platform = GCSPRINTF("%s/platform", dom_path);

        rc = libxl__xs_writev(ctx, t, platform, info->platformdata);
        free(platform);
    }

 out:
    free(libxl_path);
    free(uuid);
    free(vm_path);
    free(dom_path);
    return rc;
}

int libxl__domain_make_xs(libxl_ctx *ctx, uint32_t domid,
                          const libxl_domain_create_info *info)
{
    xs_transaction_t t = XBT_NULL;
    int rc;

    for (;;) {
        rc = libxl__xs_transaction_start(ctx, &t);
        if (rc)
            return rc;
        rc = domain_make_xs(ctx, domid, info, t);
        if (rc)
            break;
        rc = libxl__xs_transaction_commit(ctx, &t);
        if (rc <= 0)
            return rc;
    }
    libxl__xs_transaction_abort(ctx, &t);
    return rc;
}

/* Xen's libxl__build_post: the entries the guest reads, then introduce. */
/*
 * When the domain was made, as Xen keeps it: "%lu.%02d" seconds and
 * centiseconds since the epoch in /vm/<uuid>/start_time (libxl_vm_get_start_time,
 * `xl uptime`).  A domain restored or migrated in starts again, as in Xen.
 */
int libxl__start_time_write(libxl_ctx *ctx, xs_transaction_t t, const char *vm_path)
{
    struct timeval now;
    char *path, *val;
    int rc;

    gettimeofday(&now, NULL);
    path = GCSPRINTF("%s/start_time", vm_path);
    val = GCSPRINTF("%lu.%02d", (unsigned long)now.tv_sec, (int)now.tv_usec / 10000);
    rc = path && val ? libxl__xs_write_checked(ctx, t, path, val) : ERROR_NOMEM;
    free(val);
    free(path);
    return rc;
}

static int build_post_xs(libxl_ctx *ctx, uint32_t domid,
                         const libxl_domain_build_info *info,
                         const libxl__domain_build_state *state,
                         const char *dom_path, const char *vm_path,
                         xs_transaction_t t)
{
    char buf[64];
    int rc = 0, i;

#define PUT(dir, key, ...) \
    (snprintf(buf, sizeof(buf), __VA_ARGS__), write_at(ctx, t, dir, key, buf))
    rc = PUT(dom_path, "memory/static-max", "%" PRIu64, info->max_memkb) ?:
         PUT(dom_path, "memory/target", "%" PRIu64, info->target_memkb) ?:
         PUT(dom_path, "memory/videoram", "%" PRIu64,
             info->video_memkb == LIBXL_MEMKB_DEFAULT ? 0 : info->video_memkb) ?:
         PUT(dom_path, "domid", "%u", domid) ?:
         PUT(dom_path, "store/port", "%" PRIu32, state->store_port) ?:
         PUT(dom_path, "store/ring-ref", "%lu", state->store_mfn);
    for (i = 0; !rc && i < info->max_vcpus; i++) {
        char key[32];
        bool online = !info->avail_vcpus.size ||
                      libxl_bitmap_test(&info->avail_vcpus, i);

        snprintf(key, sizeof(key), "cpu/%d/availability", i);
        rc = write_at(ctx, t, dom_path, key, online ? "online" : "offline");
    }
    if (!rc && vm_path)
        rc = libxl__start_time_write(ctx, t, vm_path);
#undef PUT
    return rc;
}

int libxl__build_post(libxl_ctx *ctx, uint32_t domid,
                      const libxl_domain_build_info *info,
                      const libxl__domain_build_state *state)
{
    char *dom_path = GCSPRINTF("/local/domain/%u", domid);
    char *p = GCSPRINTF("%s/vm", dom_path);
    char *vm_path = libxl__xs_read(ctx, XBT_NULL, p);
    xs_transaction_t t = XBT_NULL;
    int rc;

    free(p);
    for (;;) {
        rc = libxl__xs_transaction_start(ctx, &t);
        if (rc)
            goto out;
        rc = build_post_xs(ctx, domid, info, state, dom_path, vm_path, t);
        if (rc) {
            libxl__xs_transaction_abort(ctx, &t);
            goto out;
        }
        rc = libxl__xs_transaction_commit(ctx, &t);
        if (rc <= 0)
            break;
    }
    if (rc)
        goto out;
    if (!xs_introduce_domain(ctx->xsh, domid, state->store_mfn, state->store_port)) {
        LOGED(ERROR, domid, "xs_introduce_domain failed (ring %#lx, port %u)",
              state->store_mfn, state->store_port);
        rc = ERROR_FAIL;
    }

 out:
    free(vm_path);
    free(dom_path);
    return rc;
}

/*
 * Console 0 (Xen's libxl__device_console_add with a build state): the
 * frontend is /local/domain/<domid>/console, read-only to the guest but
 * for what it owns; the backend xenconsoled's, under dom0's backend/.
 */
int libxl__device_console_add(libxl_ctx *ctx, uint32_t domid,
                              const libxl__domain_build_state *state)
{
    uint32_t backend = state->console_domid;
    struct xs_permissions front_perms[] = {
        { .id = domid, .perms = XS_PERM_NONE },
        { .id = backend, .perms = XS_PERM_READ },
    };
    struct xs_permissions ro_front_perms[] = {
        { .id = backend, .perms = XS_PERM_NONE },
        { .id = domid, .perms = XS_PERM_READ },
    };
    char *front = GCSPRINTF("/local/domain/%u/console", domid);
    char *back = GCSPRINTF("/local/domain/%u/backend/console/%u/0", backend, domid);
    char s_domid[16], s_backend[16], s_limit[16], s_port[16], s_ring[32];
    char *const back_kvs[] = {
        "frontend", front, "frontend-id", s_domid, "online", "1",
        "state", "1", "protocol", LIBXL_XENCONSOLE_PROTOCOL, NULL,
    };
    char *const front_kvs[] = {
        "backend", back, "backend-id", s_backend, "limit", s_limit,
        "type", "xenconsoled", "output", "pty", "tty", "", NULL,
    };
    char *const ro_front_kvs[] = { "port", s_port, "ring-ref", s_ring, NULL };
    xs_transaction_t t = XBT_NULL;
    int rc;

    snprintf(s_domid, sizeof(s_domid), "%u", domid);
    snprintf(s_backend, sizeof(s_backend), "%u", backend);
    snprintf(s_limit, sizeof(s_limit), "%d", LIBXL_XENCONSOLE_LIMIT);
    snprintf(s_port, sizeof(s_port), "%" PRIu32, state->console_port);
    snprintf(s_ring, sizeof(s_ring), "%lu", state->console_mfn);
    for (;;) {
        rc = libxl__xs_transaction_start(ctx, &t);
        if (rc)
            break;
        xs_rm(ctx->xsh, t, back);
        rc = libxl__xs_mknod(ctx, t, front, front_perms, ARRAY_SIZE(front_perms)) ?:
             libxl__xs_writev(ctx, t, front, front_kvs) ?:
             libxl__xs_writev_perms(ctx, t, front, ro_front_kvs, ro_front_perms,
                                    ARRAY_SIZE(ro_front_perms)) ?:
             libxl__xs_mknod(ctx, t, back, ro_front_perms, ARRAY_SIZE(ro_front_perms)) ?:
             libxl__xs_writev(ctx, t, back, back_kvs);
        if (rc) {
            libxl__xs_transaction_abort(ctx, &t);
            break;
        }
        rc = libxl__xs_transaction_commit(ctx, &t);
        if (rc <= 0)
            break;
    }
    free(back);
    free(front);
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A client of libxenlight and libxenctrl written against Xen 4.17's API.
 * tools/tests/libs builds it twice: against Debian's libxen-dev (headers
 * and libraries), then run on this project's libxenlight.so.4.17 and
 * libxenctrl.so.4.17; and against an installed tree of ours through
 * pkg-config.  Both run over the fake hypervisor (tools/tests/fake).
 *
 *   client DOMID
 *
 * It prints the host's CPUs and memory and the hypervisor's version
 * (libxenctrl), lists the domains, shows one and pauses and unpauses it
 * (libxl).  Then it has the library initialise, fill, copy and print a
 * libxl_domain_config laid out as the client's headers say (config()),
 * and reads back the configuration libxl reconstructs for the domain:
 * with a layout other than Xen's, the defaults read here, the JSON and
 * the copy would be wrong.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenctrl.h>
#include <libxl.h>
#include <libxl_utils.h>

static int host(void)
{
    xc_interface *xch = xc_interface_open(NULL, NULL, 0);
    xc_physinfo_t info;
    int v, rc = 1;

    if ( !xch )
        return 1;
    v = xc_version(xch, XENVER_version, NULL);
    if ( v >= 0 && !xc_physinfo(xch, &info) )
    {
        printf("xen %d.%d: %u CPUs at %u kHz, %" PRIu64 " of %" PRIu64 " pages free\n",
               v >> 16, v & 0xffff, info.nr_cpus, info.cpu_khz,
               (uint64_t)info.free_pages, (uint64_t)info.total_pages);
        rc = 0;
    }
    xc_interface_close(xch);
    return rc;
}

/* Xen's defaults, read at the offsets of the client's headers. */
static int defaults_ok(const libxl_domain_config *dc)
{
    const libxl_domain_build_info *b = &dc->b_info;

    return dc->c_info.type == LIBXL_DOMAIN_TYPE_INVALID &&
           b->type == LIBXL_DOMAIN_TYPE_INVALID &&
           b->max_memkb == LIBXL_MEMKB_DEFAULT &&
           b->iommu_memkb == LIBXL_MEMKB_DEFAULT &&
           b->stubdomain_memkb == LIBXL_MEMKB_DEFAULT &&
           b->max_grant_frames == LIBXL_MAX_GRANT_DEFAULT &&
           b->max_grant_version == (int)LIBXL_MAX_GRANT_DEFAULT &&
           b->sched_params.weight == LIBXL_DOMAIN_SCHED_PARAM_WEIGHT_DEFAULT &&
           b->sched_params.latency == LIBXL_DOMAIN_SCHED_PARAM_LATENCY_DEFAULT &&
           b->timer_mode == LIBXL_TIMER_MODE_DEFAULT &&
           b->tee == LIBXL_TEE_TYPE_NONE &&
           b->altp2m == LIBXL_ALTP2M_MODE_DISABLED &&
           b->vmtrace_buf_kb == 0 && libxl_defbool_is_default(b->vpmu) &&
           dc->num_disks == 0 && !dc->disks && dc->num_usbdevs == 0 &&
           dc->on_poweroff == LIBXL_ACTION_ON_SHUTDOWN_DESTROY &&
           dc->on_soft_reset == LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
}

static int config(libxl_ctx *ctx, uint32_t domid)
{
    libxl_domain_config dc, copy, got;
    char *json = NULL;
    int rc = 1;

    libxl_domain_config_init(&dc);
    libxl_domain_config_init(&copy);
    libxl_domain_config_init(&got);
    if ( !defaults_ok(&dc) )
    {
        printf("libxl_domain_config_init: not Xen's defaults\n");
        goto out;
    }
    dc.c_info.type = LIBXL_DOMAIN_TYPE_PVH;
    dc.c_info.name = strdup("client");
    libxl_domain_build_info_init_type(&dc.b_info, LIBXL_DOMAIN_TYPE_PVH);
    dc.b_info.max_vcpus = 2;
    dc.b_info.max_memkb = dc.b_info.target_memkb = 65536;
    dc.b_info.kernel = strdup("/boot/guest");
    dc.b_info.cmdline = strdup("console=hvc0");
    dc.b_info.u.pvh.pvshim_path = strdup("/shim");
    libxl_defbool_set(&dc.b_info.arch_x86.msr_relaxed, true);
    dc.b_info.vmtrace_buf_kb = 64;
    libxl_defbool_set(&dc.b_info.vpmu, false);
    dc.on_crash = LIBXL_ACTION_ON_SHUTDOWN_PRESERVE;

    libxl_domain_config_copy(ctx, &copy, &dc);
    json = libxl_domain_config_to_json(ctx, &copy);
    if ( !json )
        goto out;
    printf("%s", json);
    /* Read back through our parser, at Debian's layout. */
    {
        libxl_domain_config back;
        char *again;

        libxl_domain_config_init(&back);
        if ( libxl_domain_config_from_json(ctx, &back, json) ||
             !(again = libxl_domain_config_to_json(ctx, &back)) )
        {
            printf("libxl_domain_config_from_json failed\n");
            libxl_domain_config_dispose(&back);
            goto out;
        }
        printf("from_json: %s\n", strcmp(again, json) ? "differs" : "same");
        free(again);
        libxl_domain_config_dispose(&back);
    }
    if ( copy.b_info.kernel == dc.b_info.kernel ||
         strcmp(copy.b_info.u.pvh.pvshim_path, "/shim") ||
         copy.b_info.vmtrace_buf_kb != 64 )
    {
        printf("libxl_domain_config_copy: not a deep copy\n");
        goto out;
    }

    /* Devices are not implemented: refused before anything is done. */
    copy.num_disks = 1;
    copy.disks = calloc(1, sizeof(*copy.disks));
    libxl_device_disk_init(&copy.disks[0]);
    copy.disks[0].vdev = strdup("xvda");
    {
        uint32_t newid = 0;
        int e = libxl_domain_create_new(ctx, &copy, &newid, NULL, NULL);

        printf("create with a disk: %s, domid %s\n",
               libxl_error_to_string(e) ?: "?",
               newid == (uint32_t)INVALID_DOMID ? "invalid" : "set");
    }

    /* libxl_vcpuinfo, and its maps, at Debian's offsets. */
    {
        libxl_vcpuinfo *vi;
        int nb = 0, nr_cpus = 0;

        vi = libxl_list_vcpu(ctx, domid, &nb, &nr_cpus);
        if ( !vi )
            goto out;
        for ( int i = 0; i < nb; i++ )
            printf("vcpu %u: %s, cpu %u, %" PRIu64 " ns, hard %s, soft %s\n",
                   vi[i].vcpuid, vi[i].online ? "online" : "down", vi[i].cpu,
                   vi[i].vcpu_time,
                   libxl_bitmap_test(&vi[i].cpumap, 0) ? "0" : "-",
                   libxl_bitmap_test(&vi[i].cpumap_soft, 0) ? "0" : "-");
        libxl_vcpuinfo_list_free(vi, nb);
    }

    if ( libxl_retrieve_domain_configuration(ctx, domid, &got, NULL) )
        goto out;
    printf("domain %u: %s, %d vCPUs, %" PRIu64 " KiB, on_crash %s\n", domid,
           libxl_domain_type_to_string(got.b_info.type), got.b_info.max_vcpus,
           got.b_info.max_memkb,
           libxl_action_on_shutdown_to_string(got.on_crash));
    rc = 0;

 out:
    free(json);
    libxl_domain_config_dispose(&dc);
    libxl_domain_config_dispose(&copy);
    libxl_domain_config_dispose(&got);
    return rc;
}

int main(int argc, char **argv)
{
    xentoollog_logger_stdiostream *lg;
    libxl_ctx *ctx = NULL;
    libxl_dominfo *list, info;
    uint32_t domid = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 0;
    int nb = 0, ret = 1;

    if ( host() )
        return 1;
    lg = xtl_createlogger_stdiostream(stderr, XTL_ERROR, 0);
    if ( !lg )
        return 1;
    if ( libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, (xentoollog_logger *)lg) )
        goto out;
    list = libxl_list_domain(ctx, &nb);
    if ( !list )
        goto out;
    for ( int i = 0; i < nb; i++ )
        printf("domain %u: %" PRIu64 " KiB, %u vCPUs%s\n", list[i].domid,
               list[i].current_memkb, list[i].vcpu_online,
               list[i].paused ? ", paused" : "");
    libxl_dominfo_list_free(list, nb);

    libxl_dominfo_init(&info);
    if ( !libxl_domain_info(ctx, &info, domid) )
    {
        printf("domain %u: max %" PRIu64 " KiB, cpu %" PRIu64 " ns\n", domid,
               info.max_memkb, info.cpu_time);
        if ( !libxl_domain_pause(ctx, domid, NULL) &&
             !libxl_domain_unpause(ctx, domid, NULL) )
            ret = config(ctx, domid);
    }
    libxl_dominfo_dispose(&info);

 out:
    libxl_ctx_free(ctx);
    xtl_logger_destroy((xentoollog_logger *)lg);
    return ret;
}

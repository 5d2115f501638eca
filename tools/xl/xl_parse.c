/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl.cfg(5): the settings this toolstack understands, turned into a
 * libxl_domain_config.  Keys, units and value spellings are Xen's.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <libxlutil.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_utils.h"

/* Xen xl.cfg keys this toolstack accepts but does not implement yet. */
static const char *const unsupported_keys[] = {
    "disk", "vif", "vfb", "vkb", "vtpm", "p9", "pvcalls", "vdispl", "vsnd",
    "channel", "pci", "dtdev", "usb", "usbctrl", "usbdev", "usbdevice",
    "serial", "sdl", "vnc", "vnclisten", "vncdisplay", "vncpasswd", "spice",
    "boot", "device_model_version", "device_model_override",
    "device_model_stubdomain_override", "bootloader", "bootloader_args",
    "cpus", "cpus_soft", "pool", "seclabel", "init_seclabel", "cpuid",
    "viridian", "nestedhvm", "altp2m", "vga", "videoram", "soundhw",
    "firmware", "bios", "pae", "hpet", "nx", "timer_mode", "tsc_mode",
    "on_watchdog_action", "vnuma", "iomem", "ioports", "irqs", "rdm",
    "e820_host", "gfx_passthru", "ms_vm_genid", "claim_mode", "xend_compat",
};

struct unused_ctx {
    int count;
};

static void warn_unused(void *opaque, const char *source, int lineno,
                        const char *name)
{
    struct unused_ctx *u = opaque;

    for (size_t i = 0; i < sizeof(unsupported_keys) / sizeof(*unsupported_keys);
         i++) {
        if (!strcmp(name, unsupported_keys[i])) {
            fprintf(stderr, "%s:%d: warning: `%s' is not supported by this "
                    "toolstack yet, ignored\n", source, lineno, name);
            u->count++;
            return;
        }
    }
    fprintf(stderr, "%s:%d: warning: unknown setting `%s', ignored\n",
            source, lineno, name);
    u->count++;
}

/* Xen's xl.cfg spellings of libxl_action_on_shutdown. */
static const char *const action_on_shutdown_names[] = {
    [LIBXL_ACTION_ON_SHUTDOWN_DESTROY] = "destroy",
    [LIBXL_ACTION_ON_SHUTDOWN_RESTART] = "restart",
    [LIBXL_ACTION_ON_SHUTDOWN_RESTART_RENAME] = "rename-restart",
    [LIBXL_ACTION_ON_SHUTDOWN_PRESERVE] = "preserve",
    [LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_DESTROY] = "coredump-destroy",
    [LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_RESTART] = "coredump-restart",
    [LIBXL_ACTION_ON_SHUTDOWN_SOFT_RESET] = "soft-reset",
};

static int parse_action_on_shutdown(const char *key, const char *buf,
                                    libxl_action_on_shutdown *a)
{
    for (size_t i = 0; i < sizeof(action_on_shutdown_names) /
                           sizeof(action_on_shutdown_names[0]); i++) {
        if (action_on_shutdown_names[i] &&
            !strcmp(buf, action_on_shutdown_names[i])) {
            *a = (libxl_action_on_shutdown)i;
            return 0;
        }
    }
    fprintf(stderr, "Unknown %s \"%s\" specified\n", key, buf);
    return -1;
}

/* A defbool setting (0 or 1) into *b, if present. */
static int get_defbool(XLU_Config *config, const char *key, libxl_defbool *b)
{
    int e = xlu_cfg_get_defbool(config, key, b, 0);

    return e && e != ESRCH ? -1 : 0;
}

/* A long setting in [min, max], if present; *set_r says whether it was. */
static int get_bounded(XLU_Config *config, const char *key, long min,
                       long max, long *val, bool *set_r)
{
    int e = xlu_cfg_get_bounded_long(config, key, min, max, val, 0);

    *set_r = !e;
    return e && e != ESRCH ? -1 : 0;
}

static int parse_settings(XLU_Config *config, libxl_domain_config *d_config)
{
    libxl_domain_create_info *c_info = &d_config->c_info;
    libxl_domain_build_info *b_info = &d_config->b_info;
    const char *buf;
    long l, vcpus = 0, maxvcpus = 0, memory = 0, maxmem = 0;
    bool set, vcpus_set, maxvcpus_set, memory_set, maxmem_set;
    libxl_domain_type type = LIBXL_DOMAIN_TYPE_PVH;
    int e;

    /* type, or the older builder= */
    if (!xlu_cfg_get_string(config, "type", &buf, 0)) {
        if (libxl_domain_type_from_string(buf, &type) ||
            type == LIBXL_DOMAIN_TYPE_INVALID) {
            fprintf(stderr, "Invalid domain type %s.\n", buf);
            return -1;
        }
        xlu_cfg_get_string(config, "builder", &buf, 1);    /* superseded */
    } else if (!xlu_cfg_get_string(config, "builder", &buf, 0)) {
        if (!strcmp(buf, "hvm")) {
            type = LIBXL_DOMAIN_TYPE_HVM;
        } else if (!strcmp(buf, "generic")) {
            type = LIBXL_DOMAIN_TYPE_PV;
        } else {
            fprintf(stderr, "Invalid builder %s.\n", buf);
            return -1;
        }
    }
    c_info->type = type;
    libxl_domain_build_info_init_type(b_info, type);

    if (xlu_cfg_replace_string(config, "name", &c_info->name, 0) ||
        !c_info->name[0]) {
        fprintf(stderr, "Domain name must be specified.\n");
        return -1;
    }

    if (!xlu_cfg_get_string(config, "uuid", &buf, 0)) {
        if (libxl_uuid_from_string(&c_info->uuid, buf)) {
            fprintf(stderr, "Failed to parse UUID: %s\n", buf);
            return -1;
        }
    } else {
        libxl_uuid_generate(&c_info->uuid);
    }

    if (get_defbool(config, "hap", &c_info->hap) ||
        get_defbool(config, "oos", &c_info->oos))
        return -1;

    /* vCPUs */
    if (get_bounded(config, "vcpus", 1, 4096, &vcpus, &vcpus_set) ||
        get_bounded(config, "maxvcpus", 1, 4096, &maxvcpus, &maxvcpus_set))
        return -1;
    if (!vcpus_set)
        vcpus = maxvcpus_set ? maxvcpus : 1;
    if (!maxvcpus_set)
        maxvcpus = vcpus;
    if (maxvcpus < vcpus) {
        fprintf(stderr, "maxvcpus (%ld) must not be less than vcpus (%ld).\n",
                maxvcpus, vcpus);
        return -1;
    }
    b_info->max_vcpus = (int)maxvcpus;
    if (libxl_bitmap_alloc(ctx, &b_info->avail_vcpus, (int)maxvcpus)) {
        fprintf(stderr, "Unable to allocate the vCPU map.\n");
        return -1;
    }
    for (long i = 0; i < vcpus; i++)
        libxl_bitmap_set(&b_info->avail_vcpus, (int)i);

    /* Memory, in MiB */
    if (get_bounded(config, "memory", 1, LONG_MAX / 1024, &memory,
                    &memory_set) ||
        get_bounded(config, "maxmem", 1, LONG_MAX / 1024, &maxmem,
                    &maxmem_set))
        return -1;
    if (memory_set)
        b_info->target_memkb = b_info->max_memkb = (uint64_t)memory * 1024;
    if (maxmem_set) {
        if (memory_set && maxmem < memory) {
            fprintf(stderr, "maxmem (%ld MB) must not be less than memory "
                    "(%ld MB).\n", maxmem, memory);
            return -1;
        }
        b_info->max_memkb = (uint64_t)maxmem * 1024;
    }
    if (get_bounded(config, "shadow_memory", 0, LONG_MAX / 1024, &l, &set))
        return -1;
    if (set)
        b_info->shadow_memkb = (uint64_t)l * 1024;

    /* Kernel */
    if (xlu_cfg_replace_string(config, "kernel", &b_info->kernel, 0) == EINVAL ||
        xlu_cfg_replace_string(config, "ramdisk", &b_info->ramdisk, 0) == EINVAL)
        return -1;
    e = xlu_cfg_replace_string(config, "cmdline", &b_info->cmdline, 0);
    if (e == EINVAL)
        return -1;
    {
        const char *root = NULL, *extra = NULL;

        xlu_cfg_get_string(config, "root", &root, 0);
        xlu_cfg_get_string(config, "extra", &extra, 0);
        if (e == ESRCH && (root || extra)) {
            xasprintf(&b_info->cmdline, "%s%s%s%s", root ? "root=" : "",
                      root ? root : "", root && extra ? " " : "",
                      extra ? extra : "");
        } else if (root || extra) {
            fprintf(stderr, "Warning: ignoring root= and extra= in favour "
                    "of cmdline=\n");
        }
    }

    /* Other build settings */
    if (get_defbool(config, "acpi", &b_info->acpi) ||
        get_defbool(config, "apic", &b_info->apic) ||
        get_defbool(config, "localtime", &b_info->localtime) ||
        get_defbool(config, "disable_migrate", &b_info->disable_migrate))
        return -1;
    /* Unset: xl.conf's defaults (max_grant_frames etc., xl_conf.c). */
    if (get_bounded(config, "max_grant_frames", 0, INT_MAX, &l, &set))
        return -1;
    b_info->max_grant_frames = (uint32_t)(set ? l : max_grant_frames);
    if (get_bounded(config, "max_maptrack_frames", 0, INT_MAX, &l, &set))
        return -1;
    b_info->max_maptrack_frames = (uint32_t)(set ? l : max_maptrack_frames);
    if (get_bounded(config, "max_grant_version", 0, 2, &l, &set))
        return -1;
    b_info->max_grant_version = (int)(set ? l : max_grant_version);
    libxl_defbool_set(&b_info->claim_mode, claim_mode);     /* xl.conf's */
    if (get_bounded(config, "event_channels", 0, INT_MAX, &l, &set))
        return -1;
    if (set)
        b_info->event_channels = (uint32_t)l;
    if (type == LIBXL_DOMAIN_TYPE_PVH) {
        if (get_defbool(config, "pvshim", &b_info->u.pvh.pvshim) ||
            xlu_cfg_replace_string(config, "pvshim_path",
                                   &b_info->u.pvh.pvshim_path, 0) == EINVAL ||
            xlu_cfg_replace_string(config, "pvshim_cmdline",
                                   &b_info->u.pvh.pvshim_cmdline, 0) == EINVAL ||
            xlu_cfg_replace_string(config, "pvshim_extra",
                                   &b_info->u.pvh.pvshim_extra, 0) == EINVAL)
            return -1;
    }

    /* Actions on shutdown; Xen's xl defaults */
    static const struct {
        const char *key;
        size_t offset;
        libxl_action_on_shutdown def;
    } actions[] = {
        { "on_poweroff", offsetof(libxl_domain_config, on_poweroff),
          LIBXL_ACTION_ON_SHUTDOWN_DESTROY },
        { "on_reboot", offsetof(libxl_domain_config, on_reboot),
          LIBXL_ACTION_ON_SHUTDOWN_RESTART },
        { "on_watchdog", offsetof(libxl_domain_config, on_watchdog),
          LIBXL_ACTION_ON_SHUTDOWN_DESTROY },
        { "on_crash", offsetof(libxl_domain_config, on_crash),
          LIBXL_ACTION_ON_SHUTDOWN_DESTROY },
        { "on_soft_reset", offsetof(libxl_domain_config, on_soft_reset),
          LIBXL_ACTION_ON_SHUTDOWN_SOFT_RESET },
    };
    for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
        libxl_action_on_shutdown *a = (libxl_action_on_shutdown *)
            ((char *)d_config + actions[i].offset);

        *a = actions[i].def;
        e = xlu_cfg_get_string(config, actions[i].key, &buf, 0);
        if (e == EINVAL)
            return -1;
        if (!e && parse_action_on_shutdown(actions[i].key, buf, a))
            return -1;
    }
    return 0;
}

int parse_config_data(const char *config_source, const char *config_data,
                      int config_len, const char *extra_config,
                      libxl_domain_config *d_config)
{
    struct unused_ctx unused = { 0 };
    XLU_Config *config;
    int e, rc = -1;

    config = xlu_cfg_init(stderr, config_source);
    if (!config) {
        fprintf(stderr, "Failed to allocate for configuration\n");
        return -1;
    }
    e = xlu_cfg_readdata(config, config_data, config_len);
    if (!e && extra_config && *extra_config)
        e = xlu_cfg_readdata_named(config, "command line", extra_config,
                                   (int)strlen(extra_config));
    if (e) {
        if (e != EINVAL)        /* syntax errors have been reported */
            fprintf(stderr, "Failed to parse config: %s\n", strerror(e));
        goto out;
    }

    if (parse_settings(config, d_config))
        goto out;
    xlu_cfg_unused(config, warn_unused, &unused);
    rc = 0;

 out:
    xlu_cfg_destroy(config);
    return rc;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl's global configuration, /etc/xen/xl.conf (xl.conf(5)), read before
 * every command as Xen's xl does, in xl.cfg syntax (libxlutil).
 *
 * Honoured: output_format, max_grant_frames, max_maptrack_frames,
 * max_grant_version.  Xen's other keys are accepted with a warning that
 * this xl does not act on them yet; an unknown key is warned about.
 * Neither stops the command.  A missing file is no error (Xen's xl
 * complains on every command; there is nothing to say here).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxlutil.h>

#include "xl.h"

#ifndef XEN_CONFIG_DIR
#define XEN_CONFIG_DIR "/etc/xen"
#endif
#define XL_GLOBAL_CONFIG XEN_CONFIG_DIR "/xl.conf"

long max_grant_frames = -1;
long max_maptrack_frames = -1;
long max_grant_version = LIBXL_MAX_GRANT_DEFAULT;
int claim_mode = 1;

/* Xen's xl.conf keys this xl does not act on yet (no devices, no
 * ballooning of domain 0, no locking, no cpumasks, one domid policy). */
static const char *const unsupported_keys[] = {
    "autoballoon", "run_hotplug_scripts", "lockfile", "vif.default.script",
    "vifscript", "vif.default.bridge", "defaultbridge",
    "vif.default.gatewaydev", "vif.default.backend", "blkdev_start",
    "remus.default.netbufscript", "colo.default.proxyscript",
    "vm.cpumask", "vm.hvm_cpumask", "vm.pv_cpumask", "domid_policy",
};

static void warn_unused(void *opaque, const char *source, int lineno,
                        const char *name)
{
    (void)opaque;
    for (size_t i = 0; i < sizeof(unsupported_keys) / sizeof(*unsupported_keys);
         i++) {
        if (!strcmp(name, unsupported_keys[i])) {
            fprintf(stderr, "%s:%d: warning: `%s' is not supported by this "
                    "xl yet, ignored\n", source, lineno, name);
            return;
        }
    }
    fprintf(stderr, "%s:%d: warning: unknown setting `%s', ignored\n",
            source, lineno, name);
}

static void get_grant_limit(XLU_Config *config, const char *key, long max,
                            long *val)
{
    long l;

    if (!xlu_cfg_get_bounded_long(config, key, 0, max, &l, 0))
        *val = l;
}

void parse_global_config(void)
{
    const char *buf;
    XLU_Config *config;
    FILE *f;
    int e;

    f = fopen(XL_GLOBAL_CONFIG, "r");
    if (!f) {
        if (errno != ENOENT)
            fprintf(stderr, "Failed to read config file: %s: %s\n",
                    XL_GLOBAL_CONFIG, strerror(errno));
        return;
    }
    fclose(f);

    config = xlu_cfg_init(stderr, XL_GLOBAL_CONFIG);
    if (!config) {
        fprintf(stderr, "Failed to allocate for configuration\n");
        exit(1);
    }
    e = xlu_cfg_readfile(config, XL_GLOBAL_CONFIG);
    if (e) {
        fprintf(stderr, "Failed to parse config file: %s\n", strerror(e));
        exit(1);
    }

    if (!xlu_cfg_get_string(config, "output_format", &buf, 0)) {
        if (!strcmp(buf, "json"))
            default_output_format = OUTPUT_FORMAT_JSON;
        else if (!strcmp(buf, "sxp"))
            fprintf(stderr, "%s: output_format \"sxp\" is not supported by "
                    "this xl, using json\n", XL_GLOBAL_CONFIG);
        else
            fprintf(stderr, "invalid default output format \"%s\"\n", buf);
    }
    get_grant_limit(config, "max_grant_frames", INT_MAX, &max_grant_frames);
    get_grant_limit(config, "max_maptrack_frames", INT_MAX,
                    &max_maptrack_frames);
    get_grant_limit(config, "max_grant_version", 2, &max_grant_version);
    {
        long l;

        if (!xlu_cfg_get_bounded_long(config, "claim_mode", 0, 1, &l, 0))
            claim_mode = (int)l;
    }

    xlu_cfg_unused(config, warn_unused, NULL);
    xlu_cfg_destroy(config);
}

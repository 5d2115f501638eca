/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl save and xl restore, with Xen's save-file format:
 *
 *   32 octets  "Xen saved domain, xl format\n \0 \r"
 *   u32        byte order 0x01020304 (the saver's)
 *   u32        mandatory flags: STREAMv2 (2), JSON (1) if the config is JSON
 *   u32        optional flags (none)
 *   u32        optional data length, then the optional data:
 *              u32 config length, the config (NUL-terminated)
 *   the libxl stream (libxl_domain_suspend)
 *
 * libxl here keeps no JSON configuration of its domains, so the config is
 * written in xl.cfg syntax (no JSON flag), which Xen's xl restore reads
 * too; or the file given on the command line is stored.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_saverestore.h"
#include "xl_utils.h"

const char savefileheader_magic[32] = "Xen saved domain, xl format\n \0 \r";

int xl_write_exactly(int fd, const void *p, size_t len)
{
    const uint8_t *b = p;

    while (len) {
        ssize_t n = write(fd, b, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        b += n;
        len -= (size_t)n;
    }
    return 0;
}

int xl_read_exactly(int fd, void *p, size_t len)
{
    uint8_t *b = p;

    while (len) {
        ssize_t n = read(fd, b, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        b += n;
        len -= (size_t)n;
    }
    return 0;
}

char *save_domain_config(uint32_t domid, const char *override_config_file,
                         int *config_len)
{
    libxl_domain_config d_config;
    char *cfg = NULL;
    int rc;

    if (override_config_file) {
        void *data = NULL;
        int len = 0;

        rc = libxl_read_file_contents(ctx, override_config_file, &data, &len);
        if (rc) {
            fprintf(stderr, "unable to read overridden config file\n");
            return NULL;
        }
        cfg = xrealloc(data, (size_t)len + 1);
        cfg[len] = 0;
        *config_len = (int)strlen(cfg) + 1;
        return cfg;
    }

    libxl_domain_config_init(&d_config);
    rc = libxl_retrieve_domain_configuration(ctx, domid, &d_config, NULL);
    if (rc) {
        fprintf(stderr, "unable to retrieve domain configuration\n");
        libxl_domain_config_dispose(&d_config);
        return NULL;
    }
    xasprintf(&cfg, "name = \"%s\"\ntype = \"%s\"\nmemory = %" PRIu64
              "\nmaxmem = %" PRIu64 "\nvcpus = %d\n",
              d_config.c_info.name ? d_config.c_info.name : "",
              libxl_domain_type_to_string(d_config.c_info.type),
              d_config.b_info.target_memkb / 1024,
              d_config.b_info.max_memkb / 1024, d_config.b_info.max_vcpus);
    libxl_domain_config_dispose(&d_config);
    *config_len = (int)strlen(cfg) + 1;
    return cfg;
}

int save_domain_core_writeconfig(int fd, const char *source,
                                 const char *config_data, int config_len)
{
    struct save_file_header hdr;
    uint32_t len = (uint32_t)config_len;

    memset(&hdr, 0, sizeof(hdr));
    memcpy(hdr.magic, savefileheader_magic, sizeof(hdr.magic));
    hdr.byteorder = SAVEFILE_BYTEORDER_VALUE;
    hdr.mandatory_flags = XL_MANDATORY_FLAG_STREAMv2;
    hdr.optional_data_len = sizeof(len) + len;
    if (xl_write_exactly(fd, &hdr, sizeof(hdr)) ||
        xl_write_exactly(fd, &len, sizeof(len)) ||
        xl_write_exactly(fd, config_data, len)) {
        fprintf(stderr, "xl: cannot write the header to %s: %s\n", source,
                strerror(errno));
        return -1;
    }
    fprintf(stderr, "Saving to %s new xl format (info"
            " 0x%" PRIx32 "/0x%" PRIx32 "/%" PRIu32 ")\n",
            source, hdr.mandatory_flags, hdr.optional_flags,
            hdr.optional_data_len);
    return 0;
}

bool domain_suspended(uint32_t domid)
{
    libxl_dominfo info;
    bool suspended;

    libxl_dominfo_init(&info);
    suspended = !libxl_domain_info(ctx, &info, domid) && info.shutdown &&
                info.shutdown_reason == LIBXL_SHUTDOWN_REASON_SUSPEND;
    libxl_dominfo_dispose(&info);
    return suspended;
}

int resume_saved_domain(uint32_t domid)
{
    if (domain_suspended(domid)) {
        if (libxl_domain_resume(ctx, domid, 1, NULL)) {
            fprintf(stderr, "Failed to resume domain %u in place\n", domid);
            return -1;
        }
        return 0;
    }
    return libxl_domain_unpause(ctx, domid, NULL) ? -1 : 0;
}

int main_save(int argc, char **argv)
{
    const char *filename, *config_filename = NULL;
    bool checkpoint = false, leavepaused = false;
    char *config;
    int config_len, fd, opt, rc;
    uint32_t domid;

    SWITCH_FOREACH_OPT(opt, "cpD", NULL, "save", 2) {
    case 'c':
        checkpoint = true;
        break;
    case 'p':
        leavepaused = true;
        break;
    case 'D':
        /* The domain id is not kept across a restore here. */
        break;
    }
    if (argc - optind > 3) {
        help("save");
        return EXIT_FAILURE;
    }
    domid = find_domain(argv[optind]);
    filename = argv[optind + 1];
    if (argc - optind >= 3)
        config_filename = argv[optind + 2];

    config = save_domain_config(domid, config_filename, &config_len);
    if (!config)
        return EXIT_FAILURE;
    fd = open(filename, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "Failed to open temp file %s for writing\n", filename);
        free(config);
        return EXIT_FAILURE;
    }
    rc = save_domain_core_writeconfig(fd, filename, config, config_len);
    free(config);
    if (!rc)
        rc = libxl_domain_suspend(ctx, domid, fd, 0, NULL);
    close(fd);
    if (rc) {
        fprintf(stderr, "Failed to save domain, resuming domain\n");
        unlink(filename);
        return EXIT_FAILURE;
    }
    /*
     * As Xen's xl: -c, the domain runs on (resumed in place, its suspend
     * call returning 1); -p, it is paused and resumed; else destroyed.  A
     * guest without PV drivers was paused, not suspended.
     */
    if (checkpoint)
        rc = resume_saved_domain(domid);
    else if (leavepaused && domain_suspended(domid))
        rc = libxl_domain_pause(ctx, domid, NULL) ?:
             libxl_domain_resume(ctx, domid, 1, NULL);
    else if (!leavepaused)
        rc = libxl_domain_destroy(ctx, domid, NULL);
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

int restore_domain(int fd, const char *source, const char *config_file,
                   const char *rename_suffix, bool paused, uint32_t *domid_r,
                   libxl_domain_config *d_config)
{
    struct save_file_header hdr;
    libxl_domain_restore_params params;
    void *config_data = NULL;
    uint8_t *optdata = NULL;
    int config_len = 0, rc, ret = -1;
    uint32_t domid;

    if (xl_read_exactly(fd, &hdr, sizeof(hdr))) {
        fprintf(stderr, "%s: cannot read the header: %s\n", source,
                strerror(errno));
        return -1;
    }
    if (memcmp(hdr.magic, savefileheader_magic, sizeof(hdr.magic))) {
        fprintf(stderr, "File has wrong magic number -"
                " corrupt or for a different tool?\n");
        return -1;
    }
    if (hdr.byteorder != SAVEFILE_BYTEORDER_VALUE) {
        fprintf(stderr, "File has wrong byte order\n");
        return -1;
    }
    fprintf(stderr, "Loading new save file %s"
            " (new xl fmt info 0x%" PRIx32 "/0x%" PRIx32 "/%" PRIu32 ")\n",
            source, hdr.mandatory_flags, hdr.optional_flags,
            hdr.optional_data_len);
    if (hdr.mandatory_flags & ~XL_MANDATORY_FLAG_ALL) {
        fprintf(stderr, "Savefile has mandatory flag(s) 0x%" PRIx32 " "
                "which are not supported; need newer xl\n",
                hdr.mandatory_flags & ~XL_MANDATORY_FLAG_ALL);
        return -1;
    }
    if (!(hdr.mandatory_flags & XL_MANDATORY_FLAG_STREAMv2)) {
        fprintf(stderr, "Savefile is not a migration v2 stream: legacy "
                "images are not supported\n");
        return -1;
    }
    if (hdr.optional_data_len > (1U << 20)) {
        fprintf(stderr, "Savefile has %" PRIu32 " octets of optional data: "
                "corrupt\n", hdr.optional_data_len);
        return -1;
    }
    if (hdr.optional_data_len) {
        optdata = xmalloc(hdr.optional_data_len);
        if (xl_read_exactly(fd, optdata, hdr.optional_data_len)) {
            fprintf(stderr, "%s: truncated in the optional data\n", source);
            goto out;
        }
    }

    if (config_file) {
        rc = libxl_read_file_contents(ctx, config_file, &config_data,
                                      &config_len);
        if (rc) {
            fprintf(stderr, "Failed to read config file: %s: %s\n",
                    config_file, strerror(errno));
            goto out;
        }
    } else {
        uint32_t len;

        if (hdr.optional_data_len < sizeof(len)) {
            fprintf(stderr, "Savefile contains no xl domain config and none "
                    "was given\n");
            goto out;
        }
        memcpy(&len, optdata, sizeof(len));
        if (len > hdr.optional_data_len - sizeof(len)) {
            fprintf(stderr, "Savefile's config (%" PRIu32 " octets) does not "
                    "fit in its optional data: corrupt\n", len);
            goto out;
        }
        if (hdr.mandatory_flags & XL_MANDATORY_FLAG_JSON) {
            fprintf(stderr, "Savefile contains xl domain config in JSON "
                    "format, which this xl cannot read: give a config file\n");
            goto out;
        }
        fprintf(stderr, " Savefile contains xl domain config in xl format\n");
        config_data = xmalloc(len + 1);
        memcpy(config_data, optdata + sizeof(len), len);
        ((char *)config_data)[len] = 0;
        config_len = (int)strlen(config_data);
        config_file = source;
    }

    libxl_domain_restore_params_init(&params);
    if (parse_config_data(config_file, config_data, config_len, NULL,
                          d_config))
        goto out_config;
    if (rename_suffix && d_config->c_info.name) {
        char *n;

        xasprintf(&n, "%s%s", d_config->c_info.name, rename_suffix);
        free(d_config->c_info.name);
        d_config->c_info.name = n;
    }
    rc = libxl_domain_create_restore(ctx, d_config, &domid, fd, -1, &params,
                                     NULL, NULL);
    if (rc) {
        fprintf(stderr, "xl: restoring domain '%s' failed (%s)\n",
                d_config->c_info.name ? d_config->c_info.name : "",
                libxl_error_name(rc));
        goto out_config;
    }
    if (!paused && libxl_domain_unpause(ctx, domid, NULL)) {
        fprintf(stderr, "xl: domain %u restored but could not be unpaused\n",
                domid);
        goto out_config;
    }
    *domid_r = domid;
    ret = 0;

 out_config:
    libxl_domain_restore_params_dispose(&params);
 out:
    free(optdata);
    free(config_data);
    return ret;
}

int main_restore(int argc, char **argv)
{
    const char *checkpoint_file, *config_file = NULL;
    bool paused = false;
    enum monitor_mode mode = MONITOR_DAEMON;
    libxl_domain_config d_config;
    uint32_t domid;
    int fd, opt, rc;

    SWITCH_FOREACH_OPT(opt, "FhcpdeVA", NULL, "restore", 1) {
    case 'p':
        paused = true;
        break;
    case 'd':
        if (minmsglevel > XTL_DEBUG)
            xtl_stdiostream_set_minlevel(logger, XTL_DEBUG);
        break;
    case 'F':
    case 'e':
        monitor_option(opt, &mode);
        break;
    case 'c': case 'V': case 'A':
        /* no console or VNC viewer here */
        break;
    }
    if (argc - optind == 1)
        checkpoint_file = argv[optind];
    else if (argc - optind == 2) {
        config_file = argv[optind];
        checkpoint_file = argv[optind + 1];
    } else {
        help("restore");
        return EXIT_FAILURE;
    }
    fd = open(checkpoint_file, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "Can't open restore file: %s\n", strerror(errno));
        return EXIT_FAILURE;
    }
    libxl_domain_config_init(&d_config);
    rc = restore_domain(fd, checkpoint_file, config_file, NULL, paused, &domid,
                        &d_config);
    close(fd);
    if (!rc)
        rc = start_monitor(domid, &d_config, mode);
    libxl_domain_config_dispose(&d_config);
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

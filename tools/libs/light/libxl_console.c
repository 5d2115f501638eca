/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: reading the hypervisor's console ring (xl dmesg), and attaching
 * to a domain's console (xl console) through Xen's xenconsole.
 */
#include <unistd.h>

#include "libxl_internal.h"

#define CONSOLE_CHUNK 16384

struct libxl__xen_console_reader {
    char *text;             /* the ring's contents, NUL-terminated */
    size_t len;
    size_t pos;             /* the next line starts here */
    char *line;             /* the line returned last */
    int clear;
    bool read;              /* text has been fetched */
};

libxl_xen_console_reader *libxl_xen_console_read_start(libxl_ctx *ctx,
                                                       int clear)
{
    libxl_xen_console_reader *cr = calloc(1, sizeof(*cr));

    if (!cr) {
        LOG(ERROR, "out of memory");
        return NULL;
    }
    cr->clear = clear;
    return cr;
}

/* Fetch the whole ring, incrementally, then clear it if asked to. */
static int fetch(libxl_ctx *ctx, libxl_xen_console_reader *cr)
{
    uint32_t index = 0;

    for (;;) {
        unsigned int count = CONSOLE_CHUNK;
        char *more = realloc(cr->text, cr->len + CONSOLE_CHUNK + 1);

        if (!more)
            return ERROR_NOMEM;
        cr->text = more;
        if (xc_readconsolering(ctx->xch, cr->text + cr->len, &count, 0, 1,
                               &index) < 0) {
            LOGE(ERROR, "reading console ring buffer");
            return ERROR_FAIL;
        }
        cr->len += count;
        cr->text[cr->len] = 0;
        if (count == 0)
            break;
    }
    if (cr->clear) {
        unsigned int count = 0;

        if (xc_readconsolering(ctx->xch, cr->text + cr->len, &count, 1, 1,
                               &index) < 0) {
            LOGE(ERROR, "clearing console ring buffer");
            return ERROR_FAIL;
        }
    }
    cr->read = true;
    return 0;
}

int libxl_xen_console_read_line(libxl_ctx *ctx,
                                libxl_xen_console_reader *cr,
                                char **line_r)
{
    size_t end;
    int rc;

    *line_r = NULL;
    if (!cr->read) {
        rc = fetch(ctx, cr);
        if (rc)
            return rc;
    }
    if (cr->pos >= cr->len)
        return 0;

    end = cr->pos;
    while (end < cr->len && cr->text[end] != '\n')
        end++;
    if (end < cr->len)
        end++;                          /* keep the newline */

    free(cr->line);
    cr->line = malloc(end - cr->pos + 1);
    if (!cr->line)
        return ERROR_NOMEM;
    memcpy(cr->line, cr->text + cr->pos, end - cr->pos);
    cr->line[end - cr->pos] = 0;
    cr->pos = end;
    *line_r = cr->line;
    return 1;
}

void libxl_xen_console_read_finish(libxl_ctx *ctx,
                                   libxl_xen_console_reader *cr)
{
    (void)ctx;
    if (!cr)
        return;
    free(cr->text);
    free(cr->line);
    free(cr);
}

int libxl_send_debug_keys(libxl_ctx *ctx, char *keys)
{
    if (xc_send_debug_keys(ctx->xch, keys)) {
        LOGE(ERROR, "sending debug keys");
        return ERROR_FAIL;
    }
    return 0;
}

/* ---- a domain's console: Xen's xenconsole (libxl_console_exec) ----------------- */

/*
 * Where Xen's private helpers live: Debian's xen-utils-4.17 puts xenconsole
 * in /usr/lib/xen-4.17/bin (Xen's LIBEXEC_BIN); $LIBXL_PRIVATE_BINDIR
 * overrides it (the host tests).
 */
#ifndef XEN_LIBEXEC_BIN
#define XEN_LIBEXEC_BIN "/usr/lib/xen-4.17/bin"
#endif

static const char *private_bindir_path(void)
{
    const char *dir = getenv("LIBXL_PRIVATE_BINDIR");

    return dir && *dir ? dir : XEN_LIBEXEC_BIN;
}

int libxl_console_exec(libxl_ctx *ctx, uint32_t domid, int cons_num,
                       libxl_console_type type, int notify_fd)
{
    char *p, domid_s[16], num_s[16], fd_s[16];
    libxl_dominfo info;
    int rc;

    libxl_dominfo_init(&info);
    rc = libxl_domain_info(ctx, &info, domid);
    libxl_dominfo_dispose(&info);
    if (rc) {
        LOGD(ERROR, domid, "no such domain");
        return rc;
    }
    /* A PVH domain has its PV console 0 (xenconsoled's), no emulated serial. */
    if (type != LIBXL_CONSOLE_TYPE_PV || cons_num != 0) {
        LOGD(ERROR, domid, "has no %s console %d (only pv 0)",
             libxl_console_type_to_string(type) ?: "unknown", cons_num);
        return ERROR_INVAL;
    }
    snprintf(domid_s, sizeof(domid_s), "%u", domid);
    snprintf(num_s, sizeof(num_s), "%d", cons_num);
    snprintf(fd_s, sizeof(fd_s), "%d", notify_fd);
    p = GCSPRINTF("%s/xenconsole", private_bindir_path());
    if (notify_fd != -1)
        execl(p, p, domid_s, "--num", num_s, "--type", "pv",
              "--start-notify-fd", fd_s, (char *)NULL);
    else
        execl(p, p, domid_s, "--num", num_s, "--type", "pv", (char *)NULL);
    LOGED(ERROR, domid, "cannot run %s", p);
    free(p);
    return ERROR_FAIL;
}

int libxl_primary_console_exec(libxl_ctx *ctx, uint32_t domid_vm, int notify_fd)
{
    return libxl_console_exec(ctx, domid_vm, 0, LIBXL_CONSOLE_TYPE_PV, notify_fd);
}

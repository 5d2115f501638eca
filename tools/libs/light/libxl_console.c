/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: reading the hypervisor's console ring (xl dmesg).
 */
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

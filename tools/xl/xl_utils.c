/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl's helpers.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

static void out_of_memory(size_t sz)
{
    fprintf(stderr, "xl: Unable to allocate %zu bytes.\n", sz);
    exit(-ERROR_FAIL);
}

void *xmalloc(size_t sz)
{
    void *r = malloc(sz ? sz : 1);

    if (!r)
        out_of_memory(sz);
    return r;
}

void *xcalloc(size_t n, size_t sz)
{
    void *r = calloc(n ? n : 1, sz ? sz : 1);

    if (!r)
        out_of_memory(n * sz);
    return r;
}

void *xrealloc(void *ptr, size_t sz)
{
    void *r;

    if (!sz) {
        free(ptr);
        return NULL;
    }
    r = realloc(ptr, sz);
    if (!r)
        out_of_memory(sz);
    return r;
}

char *xstrdup(const char *x)
{
    char *r = strdup(x);

    if (!r)
        out_of_memory(strlen(x) + 1);
    return r;
}

void xasprintf(char **strp, const char *fmt, ...)
{
    va_list ap;
    int r;

    va_start(ap, fmt);
    r = vasprintf(strp, fmt, ap);
    va_end(ap);
    if (r < 0)
        out_of_memory(0);
}

void flush_stream(FILE *fh)
{
    const char *fh_name = fh == stdout ? "stdout" : "stderr";

    if (ferror(fh) || fflush(fh)) {
        perror(fh_name);
        exit(EXIT_FAILURE);
    }
}

const char *libxl_error_name(int rc)
{
    const char *s = libxl_error_to_string((libxl_error)rc);

    return s ? s : "unknown error";
}

uint32_t find_domain(const char *p)
{
    uint32_t domid;

    if (libxl_domain_qualifier_to_domid(ctx, p, &domid) ||
        libxl_domain_info(ctx, NULL, domid)) {
        fprintf(stderr, "Error: Domain '%s' does not exist.\n", p);
        exit(EXIT_FAILURE);
    }
    return domid;
}

char *domain_name_or_null(uint32_t domid)
{
    char *name = libxl_domid_to_name(ctx, domid);

    return name ? name : xstrdup("(null)");
}

/*
 * Callers should use SWITCH_FOREACH_OPT in preference to calling this
 * directly.
 */
int def_getopt(int argc, char * const argv[], const char *optstring,
               const struct option *longopts, const char *helpstr,
               int reqargs)
{
    static const struct option def_options[] = { COMMON_LONG_OPTS };
    int opt;

    if (!longopts)
        longopts = def_options;

    opterr = 0;
    opt = getopt_long(argc, argv, optstring, longopts, NULL);
    if (opt == '?') {
        if (optopt == 'h') {
            help(helpstr);
            exit(0);
        }
        if (optopt)
            fprintf(stderr, "option `%c' not supported.\n", optopt);
        else
            fprintf(stderr, "option `%s' not supported.\n",
                    argv[optind - 1]);
        exit(2);
    }
    if (opt == ':') {
        fprintf(stderr, "option `%c' needs an argument.\n", optopt);
        exit(2);
    }
    if (opt == 'h') {
        help(helpstr);
        exit(0);
    }
    if (opt != -1)
        return opt;

    if (argc - optind <= reqargs - 1) {
        fprintf(stderr, "'xl %s' requires at least %d argument%s.\n\n",
                helpstr, reqargs, reqargs > 1 ? "s" : "");
        help(helpstr);
        exit(2);
    }
    return -1;
}

void print_bitmap(const uint8_t *map, int maplen, FILE *stream)
{
    int i = 0, first = 1, set = 0;

    for (int b = 0; b < maplen; b++)
        set += !!(map[b / 8] & (1 << (b % 8)));
    if (!set) {
        fputs("none", stream);
        return;
    }
    if (set == maplen) {
        fputs("all", stream);
        return;
    }
    while (i < maplen) {
        int start;

        if (!(map[i / 8] & (1 << (i % 8)))) {
            i++;
            continue;
        }
        start = i;
        while (i + 1 < maplen && (map[(i + 1) / 8] & (1 << ((i + 1) % 8))))
            i++;
        fprintf(stream, "%s%d", first ? "" : ",", start);
        if (i > start)
            fprintf(stream, "-%d", i);
        first = 0;
        i++;
    }
}

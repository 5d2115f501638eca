/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl's helpers: option parsing for main_* functions, domain lookup,
 * allocation that cannot fail.
 */
#ifndef XL_UTILS_H
#define XL_UTILS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Wraps def_getopt into a loop+switch over a command's options; use it
 * from main_XXX() like a switch statement on opt:
 *
 *   SWITCH_FOREACH_OPT(opt, "OPTS", longopts, "commandname",
 *                      num_required_opts) {
 *   case 'x': ...
 *   }
 *
 * "h" and --help are added: they print the command's help and exit 0.
 * An unknown option exits 2 with a message; so does having fewer than
 * num_required_opts arguments left, after the help is printed.
 */
#define SWITCH_FOREACH_OPT(opt, opts, longopts,                         \
                           commandname, num_required_opts)              \
    while (((opt) = def_getopt(argc, argv, "h" opts, (longopts),        \
                               (commandname), (num_required_opts))) != -1) \
        switch (opt)

/* Must be last in list */
#define COMMON_LONG_OPTS {"help", 0, 0, 'h'}, \
                         {0, 0, 0, 0}

int def_getopt(int argc, char * const argv[], const char *optstring,
               const struct option *longopts, const char *helpstr,
               int reqargs);

/*
 * The domain named p (an id or a name); exits with "Error: Domain 'p'
 * does not exist." (status 1) if there is none.
 */
uint32_t find_domain(const char *p);
/* The domain's name, or "(null)" as Xen's xl prints for a nameless one
 * (malloc'd). */
char *domain_name_or_null(uint32_t domid);

void *xmalloc(size_t sz);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *ptr, size_t sz);
char *xstrdup(const char *x);
void xasprintf(char **strp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void flush_stream(FILE *fh);

/*
 * A bitmap of maplen bits as Xen's xl prints CPU and node maps: "all"
 * when every bit is set, "none" when none is, else ranges ("0-3,7").
 */
void print_bitmap(const uint8_t *map, int maplen, FILE *stream);

/* "ERROR_NI" for a libxl error code. */
const char *libxl_error_name(int rc);

#endif /* XL_UTILS_H */

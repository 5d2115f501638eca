/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop: the dirty-page tracking and exit rates of every domain
 * (`xl top` runs it).  Xen's options where Xen's xentop has them:
 *
 *   xentop [-h] [-V] [-d SECONDS] [-b] [-i ITERATIONS] [-v] [--json]
 *          [-D DOMID]
 *
 * Every refresh is one XEN_SYSCTL_get_dirty_stats_all for all domains
 * (counters only: it never cleans or peeks a dirty bitmap), and for the
 * domain in detail one XEN_DOMCTL_get_dirty_blocks and one
 * XEN_DOMCTL_get_exit_counts per vCPU; names come from libxl, looked up
 * once per domain.  -D (--detail) is this project's, not Xen's.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xentop.h"

static libxl_ctx *ctx;

#define NAME_CACHE 64
static struct { uint32_t domid; char name[64]; bool used; } names[NAME_CACHE];

static const char *domain_name(uint32_t domid, char *buf, size_t len)
{
    unsigned int slot = domid % NAME_CACHE;
    char *n;

    if (names[slot].used && names[slot].domid == domid) {
        snprintf(buf, len, "%s", names[slot].name);
        return buf;
    }
    n = ctx ? libxl_domid_to_name(ctx, domid) : NULL;
    if (!n && domid == 0)
        n = strdup("Domain-0");
    if (!n)
        return NULL;
    snprintf(buf, len, "%s", n);
    snprintf(names[slot].name, sizeof(names[slot].name), "%s", n);
    names[slot].domid = domid;
    names[slot].used = true;
    free(n);
    return buf;
}

double top_parse_delay(const char *s)
{
    char *end;
    double d;

    if (!s || !*s)
        return -1;
    errno = 0;
    d = strtod(s, &end);
    if (errno || *end || !isfinite(d) || d < 0.1 || d > 3600)
        return -1;
    return d;
}

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
"Usage: %s [OPTION]\n"
"Displays the dirty-page tracking and exit rates of every domain\n"
"\n"
"-h, --help           display this help and exit\n"
"-V, --version        output version information and exit\n"
"-d, --delay=SECONDS  seconds between updates (default 3, 0.1 to 3600)\n"
"-b, --batch          output in batch mode, no user input accepted\n"
"-i, --iterations     number of iterations before exiting\n"
"-v, --vcpus          output vcpu data (batch mode)\n"
"    --json           batch mode, one JSON object per iteration\n"
"-D, --detail=DOMID   that domain's vCPUs, exits by reason and heat map:\n"
"                     after each table (batch), or the screen starts there\n"
"\n"
"Keys: q quit, d delay, s sort (Left/Right the column), Up/Down select,\n"
"Enter the domain's detail (Esc or Enter: back; t: tracking on/off), h help.\n", prog);
}

static void sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

static const xen_dirty_sysctl_domain_t *find_dom(const struct top_sample *s, uint32_t domid)
{
    for (unsigned int i = 0; i < s->nr_doms; i++)
        if (s->doms[i].domid == domid)
            return &s->doms[i];
    return NULL;
}

/* The detail domain's sample; 0, or -1 with a message. */
static int detail_sample(xc_interface *xch, const struct top_opts *o,
                         const struct top_sample *s, struct top_detail *d)
{
    const xen_dirty_sysctl_domain_t *r = find_dom(s, o->detail);

    if (!r) {
        fprintf(stderr, "xentop: no domain %u\n", o->detail);
        return -1;
    }
    if (top_detail_sample(xch, o->detail, r->nr_vcpus, d)) {
        fprintf(stderr, "xentop: cannot read d%u's heat map or exits: %s\n", o->detail,
                strerror(errno));
        return -1;
    }
    return 0;
}

static void print_detail(const struct top_rows *rows, const struct top_detail_rates *dr)
{
    for (unsigned int i = 0; i < rows->n; i++)
        if (rows->row[i].domid == dr->domid)
            top_print_detail_text(stdout, &rows->row[i], dr);
}

static int batch(xc_interface *xch, const struct top_opts *o)
{
    struct top_sample prev, cur;
    struct top_detail dprev = { 0 }, dcur;
    struct top_detail_rates dr;
    struct top_rows rows;
    bool detail = o->detail != ~0u;

    if (top_sample(xch, &prev)) {
        fprintf(stderr, "xentop: cannot read the domains' counters: %s\n", strerror(errno));
        return 1;
    }
    if (detail && detail_sample(xch, o, &prev, &dprev)) {
        top_sample_free(&prev);
        return 1;
    }
    for (unsigned int i = 1; !o->iterations || i <= o->iterations; i++) {
        sleep_s(o->delay);
        if (top_sample(xch, &cur)) {
            fprintf(stderr, "xentop: cannot read the domains' counters: %s\n",
                    strerror(errno));
            top_sample_free(&prev);
            return 1;
        }
        if (detail && detail_sample(xch, o, &cur, &dcur)) {
            top_sample_free(&cur);
            top_sample_free(&prev);
            top_detail_free(&dprev);
            return 1;
        }
        top_make_rows(&prev, &cur, domain_name, &rows);
        top_sort(&rows, COL_NAME);
        memset(&dr, 0, sizeof(dr));
        if (detail)
            top_detail_rates(&dprev, &dcur, &dr);
        if (o->json)
            top_print_json(stdout, &rows, i, detail ? &dr : NULL);
        else {
            top_print_text(stdout, &rows, o->vcpus);
            if (detail)
                print_detail(&rows, &dr);
        }
        fflush(stdout);
        top_rows_free(&rows);
        top_sample_free(&prev);
        prev = cur;
        if (detail) {
            top_detail_rates_free(&dr);
            top_detail_free(&dprev);
            dprev = dcur;
        }
    }
    top_sample_free(&prev);
    top_detail_free(&dprev);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option lopts[] = {
        { "help", 0, NULL, 'h' }, { "version", 0, NULL, 'V' },
        { "delay", 1, NULL, 'd' }, { "batch", 0, NULL, 'b' },
        { "iterations", 1, NULL, 'i' }, { "vcpus", 0, NULL, 'v' },
        { "json", 0, NULL, 'j' }, { "detail", 1, NULL, 'D' },
        { NULL, 0, NULL, 0 },
    };
    struct top_opts o = { .delay = 3, .detail = ~0u };
    xentoollog_logger *lg;
    xc_interface *xch;
    char *end;
    int ch, rc;

    while ((ch = getopt_long(argc, argv, "hVd:bi:vD:", lopts, NULL)) != -1) {
        switch (ch) {
        case 'h':
            usage(stdout, argv[0]);
            return 0;
        case 'V':
            printf("xentop (xen-pml)\n");
            return 0;
        case 'd':
            o.delay = top_parse_delay(optarg);
            if (o.delay < 0) {
                fprintf(stderr, "xentop: bad delay '%s' (0.1 to 3600 seconds)\n", optarg);
                return 2;
            }
            break;
        case 'b':
            o.batch = true;
            break;
        case 'i': {
            unsigned long n;

            errno = 0;
            n = strtoul(optarg, &end, 10);
            if (errno || *end || !*optarg || optarg[0] == '-' || !n || n > 1000000) {
                fprintf(stderr, "xentop: bad iteration count '%s'\n", optarg);
                return 2;
            }
            o.iterations = n;
            break;
        }
        case 'v':
            o.vcpus = true;
            break;
        case 'j':
            o.json = o.batch = true;
            break;
        case 'D': {
            unsigned long id;

            errno = 0;
            id = strtoul(optarg, &end, 10);
            if (errno || *end || !*optarg || optarg[0] == '-' || id >= DOMID_FIRST_RESERVED) {
                fprintf(stderr, "xentop: bad domain id '%s'\n", optarg);
                return 2;
            }
            o.detail = id;
            break;
        }
        default:
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "xentop: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }

    lg = (xentoollog_logger *)xtl_createlogger_stdiostream(stderr, XTL_ERROR, 0);
    xch = xc_interface_open(lg, lg, 0);
    if (!xch) {
        fprintf(stderr, "xentop: cannot open libxenctrl\n");
        return 1;
    }
    if (libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, lg))
        ctx = NULL;                         /* names as (dN) */

    if (o.batch)
        rc = batch(xch, &o);
    else {
        rc = top_screen(xch, domain_name, &o) ? 1 : 0;
        if (rc)
            fprintf(stderr, "xentop: cannot read the domains' counters: %s\n",
                    strerror(errno));
    }

    if (ctx)
        libxl_ctx_free(ctx);
    xc_interface_close(xch);
    xtl_logger_destroy(lg);
    return rc;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * This project's commands (NOT in Xen's xl): dirty-page tracking.
 *
 *   xl log-dirty <dom> on|off|peek|clean [--stats] [--json]
 *   xl vram-track <dom> <first-pfn> <nr> | <dom> off  [--stats] [--json]
 *   xl dirty-rate <dom> [-t seconds] [--json]
 *
 * Each checks the domain's tracking state first, so that a request that
 * cannot work (peek on a domain not in log-dirty mode, ...) fails with
 * one message and changes nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxl_json.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

#define DIRTY_OPTS "sj"
static const struct option dirty_opts[] = {
    {"stats", 0, 0, 's'},
    {"json", 0, 0, 'j'},
    COMMON_LONG_OPTS
};

/* ---- output ------------------------------------------------------------------- */

static bool test_bit(const uint8_t *bm, uint64_t p)
{
    return (bm[p / 8] >> (p % 8)) & 1;
}

static uint64_t count_bits(const uint8_t *bm, uint64_t nbits)
{
    uint64_t n = 0;

    for (uint64_t p = 0; p < nbits; p++)
        n += test_bit(bm, p);
    return n;
}

/* Calls fn(first, last) for each run of set bits, pfns offset by base. */
static void for_each_range(const uint8_t *bm, uint64_t nbits, uint64_t base,
                           void (*fn)(void *, uint64_t, uint64_t), void *arg)
{
    uint64_t p = 0;

    while (p < nbits) {
        if (!test_bit(bm, p)) {
            p++;
            continue;
        }
        uint64_t start = p;

        while (p < nbits && test_bit(bm, p))
            p++;
        fn(arg, base + start, base + p - 1);
    }
}

static void print_range(void *arg, uint64_t first, uint64_t last)
{
    (void)arg;
    if (first == last)
        printf("%#"PRIx64"\n", first);
    else
        printf("%#"PRIx64"-%#"PRIx64"\n", first, last);
}

static void json_range(void *arg, uint64_t first, uint64_t last)
{
    yajl_gen hand = arg;

    yajl_gen_array_open(hand);
    libxl__uint64_gen_json(hand, first);
    libxl__uint64_gen_json(hand, last);
    yajl_gen_array_close(hand);
}

static void json_key(yajl_gen hand, const char *key)
{
    yajl_gen_string(hand, (const unsigned char *)key, strlen(key));
}

static void json_str(yajl_gen hand, const char *key, const char *val)
{
    json_key(hand, key);
    yajl_gen_string(hand, (const unsigned char *)val, strlen(val));
}

static void json_u64(yajl_gen hand, const char *key, uint64_t val)
{
    json_key(hand, key);
    libxl__uint64_gen_json(hand, val);
}

/* A number with 'decimals' digits after the point, as a JSON number. */
static void json_fixed(yajl_gen hand, const char *key, double val,
                       int decimals)
{
    char buf[64];
    int len = snprintf(buf, sizeof(buf), "%.*f", decimals, val);

    json_key(hand, key);
    yajl_gen_number(hand, buf, len);
}

static yajl_gen json_begin(void)
{
    yajl_gen hand = libxl_yajl_gen_alloc(NULL);

    if (!hand) {
        fprintf(stderr, "unable to allocate JSON generator\n");
        exit(EXIT_FAILURE);
    }
    yajl_gen_map_open(hand);
    return hand;
}

static int json_end(yajl_gen hand)
{
    const unsigned char *buf;
    libxl_yajl_length len;
    yajl_gen_status s;

    yajl_gen_map_close(hand);
    s = yajl_gen_get_buf(hand, &buf, &len);
    if (s == yajl_gen_status_ok)
        fputs((const char *)buf, stdout);
    else
        fprintf(stderr, "unable to format the result as JSON (YAJL:%d)\n", s);
    yajl_gen_free(hand);
    return s == yajl_gen_status_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The bitmap's pages: a count, ranges, or JSON. */
static int print_bitmap_result(uint32_t domid, const char *op,
                               const uint8_t *bm, uint64_t nbits,
                               uint64_t base, bool stats, bool json)
{
    uint64_t count = count_bits(bm, nbits);
    yajl_gen hand;

    if (!json) {
        if (stats)
            printf("%"PRIu64"\n", count);
        else
            for_each_range(bm, nbits, base, print_range, NULL);
        return EXIT_SUCCESS;
    }
    hand = json_begin();
    json_u64(hand, "domid", domid);
    json_str(hand, "op", op);
    json_u64(hand, "first_pfn", base);
    json_u64(hand, "nr_pfns", nbits);
    json_u64(hand, "dirty_pages", count);
    if (!stats) {
        json_key(hand, "ranges");
        yajl_gen_array_open(hand);
        for_each_range(bm, nbits, base, json_range, hand);
        yajl_gen_array_close(hand);
    }
    return json_end(hand);
}

/* ---- helpers ------------------------------------------------------------------ */

static void get_stats(uint32_t domid, const char *dom, libxl_dirty_stats *st)
{
    int rc = libxl_domain_get_dirty_stats(ctx, domid, st);

    if (rc) {
        fprintf(stderr, "xl: cannot read the dirty-tracking state of domain "
                "%s (%s)\n", dom, libxl_error_name(rc));
        exit(EXIT_FAILURE);
    }
}

static int print_mode(uint32_t domid, const char *key, bool on, bool json)
{
    yajl_gen hand;

    if (!json)
        return EXIT_SUCCESS;
    hand = json_begin();
    json_u64(hand, "domid", domid);
    json_key(hand, key);
    yajl_gen_bool(hand, on);
    return json_end(hand);
}

/* ---- xl log-dirty --------------------------------------------------------------- */

int main_logdirty(int argc, char **argv)
{
    bool stats = false, json = false;
    libxl_dirty_stats st;
    const char *dom, *op;
    uint8_t *bm = NULL;
    uint64_t nbits = 0;
    uint32_t domid;
    int opt, rc, ret = EXIT_FAILURE;

    SWITCH_FOREACH_OPT(opt, DIRTY_OPTS, dirty_opts, "log-dirty", 2) {
    case 's':
        stats = true;
        break;
    case 'j':
        json = true;
        break;
    }
    if (argc - optind != 2) {
        help("log-dirty");
        return 2;
    }
    dom = argv[optind];
    op = argv[optind + 1];
    if (strcmp(op, "on") && strcmp(op, "off") && strcmp(op, "peek") &&
        strcmp(op, "clean")) {
        fprintf(stderr, "xl: unknown log-dirty operation '%s' (on, off, peek "
                "or clean)\n", op);
        return 2;
    }

    domid = find_domain(dom);
    libxl_dirty_stats_init(&st);
    get_stats(domid, dom, &st);

    if (!strcmp(op, "on")) {
        if (st.logdirty) {
            fprintf(stderr, "xl: domain %s is already in log-dirty mode\n",
                    dom);
            goto out;
        }
        if (st.vram) {
            fprintf(stderr, "xl: domain %s is tracking dirty VRAM; stop that "
                    "first with 'xl vram-track %s off'\n", dom, dom);
            goto out;
        }
        rc = libxl_domain_set_logdirty(ctx, domid, true);
        if (rc) {
            fprintf(stderr, "xl: cannot put domain %s into log-dirty mode "
                    "(%s)\n", dom, libxl_error_name(rc));
            goto out;
        }
        ret = print_mode(domid, "logdirty", true, json);
        goto out;
    }

    if (!st.logdirty) {
        fprintf(stderr, "xl: domain %s is not in log-dirty mode (turn it on "
                "with 'xl log-dirty %s on')\n", dom, dom);
        goto out;
    }

    if (!strcmp(op, "off")) {
        rc = libxl_domain_set_logdirty(ctx, domid, false);
        if (rc) {
            fprintf(stderr, "xl: cannot take domain %s out of log-dirty mode "
                    "(%s)\n", dom, libxl_error_name(rc));
            goto out;
        }
        ret = print_mode(domid, "logdirty", false, json);
        goto out;
    }

    rc = libxl_domain_dirty_bitmap(ctx, domid, !strcmp(op, "clean"), &bm,
                                   &nbits);
    if (rc == ERROR_NOT_READY) {
        fprintf(stderr, "xl: domain %s is not in log-dirty mode\n", dom);
        goto out;
    }
    if (rc) {
        fprintf(stderr, "xl: reading the dirty pages of domain %s failed "
                "(%s)\n", dom, libxl_error_name(rc));
        goto out;
    }
    ret = print_bitmap_result(domid, op, bm, nbits, 0, stats, json);

 out:
    free(bm);
    libxl_dirty_stats_dispose(&st);
    return ret;
}

/* ---- xl vram-track --------------------------------------------------------------- */

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;

    if (!*s || *s == '-')
        return false;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return !errno && !*end;
}

int main_vramtrack(int argc, char **argv)
{
    bool stats = false, json = false;
    libxl_dirty_stats st;
    uint64_t first, nr;
    uint8_t *bm = NULL;
    const char *dom;
    uint32_t domid;
    int opt, rc, ret = EXIT_FAILURE;

    SWITCH_FOREACH_OPT(opt, DIRTY_OPTS, dirty_opts, "vram-track", 2) {
    case 's':
        stats = true;
        break;
    case 'j':
        json = true;
        break;
    }
    dom = argv[optind];

    if (argc - optind == 2 && !strcmp(argv[optind + 1], "off")) {
        domid = find_domain(dom);
        libxl_dirty_stats_init(&st);
        get_stats(domid, dom, &st);
        if (!st.vram) {
            fprintf(stderr, "xl: domain %s is not tracking dirty VRAM\n", dom);
            goto out;
        }
        rc = libxl_domain_track_vram(ctx, domid, 0, 0, NULL);
        if (rc) {
            fprintf(stderr, "xl: cannot stop dirty-VRAM tracking of domain %s "
                    "(%s)\n", dom, libxl_error_name(rc));
            goto out;
        }
        ret = print_mode(domid, "vram", false, json);
        goto out;
    }

    if (argc - optind != 3) {
        help("vram-track");
        return 2;
    }
    if (!parse_u64(argv[optind + 1], &first)) {
        fprintf(stderr, "xl: invalid first pfn '%s'\n", argv[optind + 1]);
        return 2;
    }
    if (!parse_u64(argv[optind + 2], &nr) || nr == 0 || nr > (1U << 18)) {
        fprintf(stderr, "xl: invalid number of pages '%s' (1 to %u, i.e. up "
                "to 1 GiB)\n", argv[optind + 2], 1U << 18);
        return 2;
    }

    domid = find_domain(dom);
    libxl_dirty_stats_init(&st);
    get_stats(domid, dom, &st);
    if (st.logdirty) {
        fprintf(stderr, "xl: domain %s is in global log-dirty mode; VRAM "
                "tracking needs it off ('xl log-dirty %s off')\n", dom, dom);
        goto out;
    }
    rc = libxl_domain_track_vram(ctx, domid, first, (uint32_t)nr, &bm);
    if (rc) {
        fprintf(stderr, "xl: tracking dirty VRAM of domain %s failed (%s)\n",
                dom, libxl_error_name(rc));
        goto out;
    }
    ret = print_bitmap_result(domid, "vram", bm, nr, first, stats, json);

 out:
    free(bm);
    libxl_dirty_stats_dispose(&st);
    return ret;
}

/* ---- xl dirty-rate ---------------------------------------------------------------- */

/* 4 KiB pages per second in MiB per second */
#define PAGES_TO_MIB(p) ((p) / 256.0)

int main_dirtyrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"time", 1, 0, 't'},
        {"json", 0, 0, 'j'},
        COMMON_LONG_OPTS
    };
    libxl_dirty_stats st, delta;
    uint64_t pages = 0, elapsed_ns = 0;
    double seconds = 1.0, rate, secs;
    const char *dom, *mech;
    bool json = false;
    char *name, *end;
    uint32_t domid;
    int opt, rc, ret = EXIT_FAILURE;

    SWITCH_FOREACH_OPT(opt, "t:j", opts, "dirty-rate", 1) {
    case 't':
        errno = 0;
        seconds = strtod(optarg, &end);
        if (errno || *end || !(seconds > 0) || seconds > 3600) {
            fprintf(stderr, "xl: invalid duration '%s' (seconds, more than 0 "
                    "and at most 3600)\n", optarg);
            return 2;
        }
        break;
    case 'j':
        json = true;
        break;
    }
    if (argc - optind != 1) {
        help("dirty-rate");
        return 2;
    }
    dom = argv[optind];
    domid = find_domain(dom);

    libxl_dirty_stats_init(&st);
    libxl_dirty_stats_init(&delta);
    get_stats(domid, dom, &st);
    if (st.vram) {
        fprintf(stderr, "xl: domain %s is tracking dirty VRAM; stop that first "
                "with 'xl vram-track %s off'\n", dom, dom);
        goto out;
    }

    rc = libxl_domain_measure_dirty_rate(ctx, domid,
                                         (uint32_t)lround(seconds * 1000),
                                         &pages, &elapsed_ns, &delta);
    if (rc) {
        fprintf(stderr, "xl: measuring the dirty rate of domain %s failed "
                "(%s)\n", dom, libxl_error_name(rc));
        goto out;
    }
    secs = elapsed_ns ? elapsed_ns / 1e9 : seconds;
    rate = pages / secs;
    mech = libxl_dirty_mechanism_to_string(delta.mechanism);

    if (json) {
        yajl_gen hand = json_begin();

        json_u64(hand, "domid", domid);
        json_str(hand, "mode", "dirty-bitmap");
        json_str(hand, "mechanism", mech ? mech : "none");
        json_fixed(hand, "period", secs, 3);
        json_u64(hand, "dirty_pages", pages);
        json_fixed(hand, "pages_per_sec", rate, 1);
        json_fixed(hand, "mib_per_sec", PAGES_TO_MIB(rate), 3);
        json_key(hand, "vcpus");
        yajl_gen_array_open(hand);
        for (int i = 0; i < delta.num_vcpus; i++) {
            double r = delta.vcpus[i].pages_dirtied / secs;

            yajl_gen_map_open(hand);
            json_u64(hand, "vcpuid", delta.vcpus[i].vcpuid);
            json_u64(hand, "pages_dirtied", delta.vcpus[i].pages_dirtied);
            json_fixed(hand, "pages_per_sec", r, 1);
            json_fixed(hand, "mib_per_sec", PAGES_TO_MIB(r), 3);
            yajl_gen_map_close(hand);
        }
        yajl_gen_array_close(hand);
        json_key(hand, "counters");
        libxl_dirty_stats_gen_json(hand, &delta);
        ret = json_end(hand);
        goto out;
    }

    name = domain_name_or_null(domid);
    printf("Domain: %u (%s)\n", domid, name);
    free(name);
    printf("Mode: dirty-bitmap (%s)\n", mech ? mech : "none");
    printf("Period: %.3f (sec)\n", secs);
    printf("Dirty pages: %"PRIu64"\n", pages);
    printf("Dirty rate: %.0f (pages/s), %.1f (MiB/s)\n", rate,
           PAGES_TO_MIB(rate));
    if (delta.mechanism != LIBXL_DIRTY_MECHANISM_NONE) {
        for (int i = 0; i < delta.num_vcpus; i++) {
            double r = delta.vcpus[i].pages_dirtied / secs;

            printf("vcpu[%u], Dirty rate: %.0f (pages/s), %.1f (MiB/s)\n",
                   delta.vcpus[i].vcpuid, r, PAGES_TO_MIB(r));
        }
    }
    ret = EXIT_SUCCESS;

 out:
    libxl_dirty_stats_dispose(&st);
    libxl_dirty_stats_dispose(&delta);
    return ret;
}

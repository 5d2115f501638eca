/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl mem-max and mem-set (Xen's xl_mem.c): a domain's static maximum and
 * its target, through libxl (libxl_mem.c).  Sizes as Xen's xl takes them:
 * a number with an optional unit, b k m g t; none means MiB.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

/* Xen's parse_mem_size_kb(): KiB, or -1 if it is not a size. */
static int64_t parse_mem_size_kb(const char *mem)
{
    char *endptr;
    int64_t kbytes;

    if (!isdigit((unsigned char)*mem))
        return -1;
    kbytes = strtoll(mem, &endptr, 10);
    if (strlen(endptr) > 1 || kbytes < 0 || kbytes > (INT64_MAX >> 30))
        return -1;

    switch (tolower((unsigned char)*endptr)) {
    case 't':
        kbytes <<= 10;
        /* fallthrough */
    case 'g':
        kbytes <<= 10;
        /* fallthrough */
    case '\0':
    case 'm':
        kbytes <<= 10;
        /* fallthrough */
    case 'k':
        break;
    case 'b':
        kbytes >>= 10;
        break;
    default:
        return -1;
    }
    return kbytes;
}

int main_memmax(int argc, char **argv)
{
    uint32_t domid;
    int64_t memorykb;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", NULL, "mem-max", 2) {
        /* No options */
    }

    domid = find_domain(argv[optind]);
    memorykb = parse_mem_size_kb(argv[optind + 1]);
    if (memorykb == -1) {
        fprintf(stderr, "invalid memory size: %s\n", argv[optind + 1]);
        return EXIT_FAILURE;
    }
    if (libxl_domain_setmaxmem(ctx, domid, memorykb)) {
        fprintf(stderr, "cannot set domid %u static max memory to : %s\n", domid,
                argv[optind + 1]);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

int main_memset(int argc, char **argv)
{
    uint32_t domid;
    int64_t memorykb;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", NULL, "mem-set", 2) {
        /* No options */
    }

    domid = find_domain(argv[optind]);
    memorykb = parse_mem_size_kb(argv[optind + 1]);
    if (memorykb == -1) {
        fprintf(stderr, "invalid memory size: %s\n", argv[optind + 1]);
        return EXIT_FAILURE;
    }
    if (libxl_set_memory_target(ctx, domid, memorykb, 0, /* enforce */ 1)) {
        fprintf(stderr, "cannot set domid %u dynamic max memory to : %s\n", domid,
                argv[optind + 1]);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol between the migration test kernels: a domU that fills
 * pages with a seeded pattern and keeps rewriting them ("mig-writer"), and
 * the control domain that saves it and restores it as a new domain
 * ("migrate").
 *
 * Page i of the data region holds, in every one of its 512 words, the
 * value mw_value(seed, i, gen[i]), where gen[i] counts the writes to page
 * i; gen[] lives in the writer's own memory and travels with it.  The
 * copy, noticing its domain id changed, checks every page against gen[]:
 * a page the migration missed or sent stale shows as a mismatch.  (A
 * write interrupted by the final pause is finished by the copy, which
 * resumes at the same instruction.)
 */
#ifndef GUEST_MIG_TEST_H
#define GUEST_MIG_TEST_H

#include <stdint.h>

#include "dirty-test.h"         /* dt_mix */

#define MW_CTRL_GFN         0x1ff       /* the control page, below the data */
#define MW_DATA_GFN         0x200       /* 2 MiB: the data pages */
#define MW_MAX_PAGES        1024
#define MW_MAGIC            0x5245544952574d47ULL   /* "GMWRITER" */

struct mw_ctrl {
    volatile uint64_t magic;            /* set once the pattern is in place */
    uint32_t pages;                     /* data pages */
    uint32_t domid;                     /* the writer's domain at start */
    volatile uint64_t steps;            /* pages written since */
    uint64_t seed;
};

static inline uint64_t mw_value(uint64_t seed, uint64_t page, uint64_t gen)
{
    return dt_mix(seed * 0x100000001b3ULL ^ (page << 32) ^ gen);
}

static inline uint64_t mw_step_page(uint64_t seed, uint64_t step, uint32_t pages)
{
    return dt_mix(seed ^ (step * 0x9e3779b97f4a7c15ULL)) % pages;
}

#endif /* GUEST_MIG_TEST_H */

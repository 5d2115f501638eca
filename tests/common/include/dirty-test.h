/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol between the log-dirty test kernels: a domU that writes
 * pages from a seeded pseudo-random sequence ("dirtier") and a control
 * domain that tracks it and checks every bitmap ("logdirty").
 *
 * The domU keeps a control page at a fixed guest frame.  For each vCPU it
 * publishes the step it is executing ('intent') and the number of steps
 * completed ('done').  Step i of vCPU v writes the stamp i + 1 into slot v
 * of page dt_step_pfn(seed_v, i, pages): the control domain can therefore
 * recompute exactly which pages were written between two pauses, and tell
 * from the stamp whether an interrupted step's write already happened.
 */
#ifndef GUEST_DIRTY_TEST_H
#define GUEST_DIRTY_TEST_H

#include <stdint.h>

#define DT_CTRL_GFN         0x200       /* 2 MiB */
#define DT_DATA_GFN         0x400       /* 4 MiB: start of the written region */
#define DT_VRAM_GFN         DT_DATA_GFN /* the "framebuffer" (VRAM tests) */
#define DT_MAX_VCPUS        4
#define DT_MAGIC            0x5445535459524944ULL   /* "DIRTYTEST" */

#define DT_GO_WAIT          0           /* domU: wait before writing */
#define DT_GO_RUN           1
#define DT_GO_STOP          2

struct dt_vcpu {
    volatile uint64_t intent;           /* step being executed */
    volatile uint64_t done;             /* steps completed */
    uint64_t seed;
    uint64_t pad;
};

struct dt_ctrl {
    volatile uint64_t magic;            /* set last by the domU */
    uint32_t nr_vcpus;
    uint32_t data_pages;                /* steps pick pages in [DT_DATA_GFN, +data_pages) */
    volatile uint32_t go;               /* control domain -> domU */
    volatile uint32_t stopped;          /* domU -> control domain: vCPUs that stopped */
    struct dt_vcpu vcpu[DT_MAX_VCPUS];
};

/* splitmix64: a pure function of (seed, i), so any step can be recomputed. */
static inline uint64_t dt_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline unsigned long dt_step_pfn(uint64_t seed, uint64_t i, uint32_t pages)
{
    return DT_DATA_GFN + dt_mix(seed ^ (i * 0x100000001b3ULL)) % pages;
}

#endif /* GUEST_DIRTY_TEST_H */

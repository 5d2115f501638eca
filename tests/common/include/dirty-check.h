/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control-domain side of the log-dirty checks (tests/common/dirty-check.c),
 * shared by tests/logdirty and tests/fuzz-dom0: attach to a writer domU
 * (tests/dirtier, protocol in dirty-test.h), follow where it stands, take
 * CLEAN rounds and check every bitmap against the writer's own record.
 *
 * Linked into toolstack test kernels only (it uses libxenctrl and
 * libxenforeignmemory); the state is one writer per kernel, in globals.
 */
#ifndef GUEST_DIRTY_CHECK_H
#define GUEST_DIRTY_CHECK_H

#include "test.h"
#include "dirty-test.h"
#include <xenctrl.h>
#include <xenforeignmemory.h>

#define BITS_PER_LONG (8 * sizeof(unsigned long))
#define DC_MAX_PAGES  (1UL << 19)     /* largest writer: 2 GiB */

/*
 * Where the writer stood at a CLEAN (or at a baseline): per vCPU, 'lo'
 * steps had certainly written before it and at most 'hi' steps had.
 * Paused, the difference is at most the step the vCPU was inside, whose
 * write is then certain to be logged after the CLEAN (under write
 * protection the interrupted write may already have faulted and been logged,
 * and then faults again when retried on the re-armed page).  Racing, steps
 * in [lo, hi) ran while the CLEAN was made and belong to it or the next.
 */
struct mark {
    uint64_t lo[DT_MAX_VCPUS], hi[DT_MAX_VCPUS];
    bool paused;
};

static inline bool test_bit(const unsigned long *bm, unsigned long pfn)
{
    return bm[pfn / BITS_PER_LONG] & (1UL << (pfn % BITS_PER_LONG));
}

static inline void set_bit(unsigned long *bm, unsigned long pfn)
{
    bm[pfn / BITS_PER_LONG] |= 1UL << (pfn % BITS_PER_LONG);
}

extern xc_interface *xch;
extern xenforeignmemory_handle *fmem;
extern uint32_t domu;                   /* the writer */
extern struct dt_ctrl *ctrl;            /* its control page, mapped */
extern unsigned long domu_pages;        /* bitmap size in pfns */
extern unsigned int nr_vcpus;
extern struct mark last;                /* where the last CLEAN left it */
extern unsigned long failures;          /* bitmaps that did not match */
extern unsigned long *bm_must, *bm_may, *bm_prev, *bm_amb;

/*
 * Open xch and fmem, find domain 'dom', map its control page and wait for
 * the writer to publish it.  0, or an error already reported.
 */
int dc_attach(uint32_t dom);

uint64_t completed(unsigned int v);
uint64_t upper(unsigned int v, uint64_t lo);
void measure(struct mark *m, bool paused);
uint64_t total_done(void);
void run_domu(uint64_t steps);
void pages_of_steps(unsigned long *bm, const uint64_t *from, const uint64_t *to);
void check_bitmap(const char *what, const unsigned long *bm,
                  const unsigned long *must, const unsigned long *may);
void expected_since(const struct mark *from, const struct mark *now);
int logdirty_op(unsigned int op, xc_hypercall_buffer_t *buf,
                xc_shadow_op_stats_t *stats);
void clean_rounds(const char *name, xc_hypercall_buffer_t *buf,
                  unsigned long *bitmap, unsigned int rounds,
                  uint64_t steps, bool paused);
void pause_and_measure(struct mark *m);

#endif /* GUEST_DIRTY_CHECK_H */

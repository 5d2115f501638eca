/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol between the benchmark kernels: a specjbb-like domU workload
 * (tests/jbb) and the control-domain driver that times it (tests/bench).
 *
 * The domU keeps a control page at a fixed guest frame, which the driver
 * maps with a foreign mapping.  The driver writes a run's parameters and
 * bumps 'cmd_seq' with cmd = BENCH_CMD_INIT; the domU (re)builds its
 * working set from the seed, acknowledges by copying cmd_seq to 'ack_seq'
 * and waits, yielding its vCPU, until cmd becomes BENCH_CMD_RUN.  It then
 * runs transactions and publishes their number in 'tx' (and what they
 * read and wrote) until the next command.  BENCH_CMD_STOP ends the domU.
 *
 * Guest-physical layout of the domU (its RAM must reach the end of the
 * working set; the domain option mem= must say so):
 *
 *   0x100000  the kernel image
 *   0x200000  the control page (BENCH_CTRL_GFN)
 *   0x400000  the framebuffer: fb_pages lines of 4 KiB (1024 pixels of 32
 *             bits), BENCH_FB_PAGES (1 MiB) unless the driver says more, at
 *             most BENCH_FB_MAX_PAGES (4 MiB; 768 is a 1024x768x32 mode)
 *   0x800000  the working set, ws_mib MiB (BENCH_WS_GFN)
 */
#ifndef GUEST_BENCH_H
#define GUEST_BENCH_H

#include <stdint.h>

#define BENCH_CTRL_GFN      0x200UL
#define BENCH_FB_GFN        0x400UL
#define BENCH_FB_PAGES      256UL           /* 1 MiB: 256 lines of 4 KiB */
#define BENCH_FB_MAX_PAGES  1024UL          /* up to the working set */
#define BENCH_FB_LINE_BYTES 4096UL          /* 1024 pixels of 32 bits */
#define BENCH_WS_GFN        0x800UL
#define BENCH_MAX_WS_MIB    1024UL

#define BENCH_MAGIC         0x484342454e42424aULL   /* "JBBENCH" */

#define BENCH_CMD_WAIT      0               /* nothing yet */
#define BENCH_CMD_INIT      1               /* build the working set, then wait */
#define BENCH_CMD_RUN       2               /* run transactions */
#define BENCH_CMD_STOP      3               /* report and power off */

struct bench_ctrl {
    volatile uint64_t magic;                /* domU: set once it listens */

    /* driver -> domU: the parameters of the next INIT */
    uint64_t seed;
    uint32_t ws_mib;                        /* working set, MiB */
    uint32_t fb_every;                      /* draw every n transactions (0: never) */
    uint32_t fb_lines;                      /* lines drawn each time */
    uint32_t fb_pages;                      /* framebuffer lines (0: BENCH_FB_PAGES) */
    uint32_t fb_scroll;                     /* 1: a text console: scroll up by
                                               fb_lines, then draw them at the
                                               bottom; 0: draw fb_lines lines
                                               moving down the screen */
    uint32_t pad0;

    volatile uint32_t cmd;                  /* BENCH_CMD_* */
    volatile uint32_t cmd_seq;              /* bumped with every command */
    volatile uint32_t ack_seq;              /* domU: cmd_seq it has acted on */
    volatile int32_t error;                 /* domU: 0, or why INIT failed (-errno) */

    /* domU -> driver: counters since the last INIT */
    volatile uint64_t tx;                   /* transactions completed */
    volatile uint64_t reads;                /* records read */
    volatile uint64_t writes;               /* records written (incl. allocated) */
    volatile uint64_t fb_draws;             /* framebuffer updates */
    volatile uint64_t tx_by_type[5];        /* new-order, payment, order-status,
                                               delivery, stock-level */
    volatile uint64_t checksum;             /* of the results, so nothing is elided */
    uint64_t ram_bytes;                     /* domU: end of its RAM */
};

#endif /* GUEST_BENCH_H */

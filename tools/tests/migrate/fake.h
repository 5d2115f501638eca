/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake hypervisor for the host tests of save/restore: a libxencall
 * backend (fake_call.c) and a libxenforeignmemory backend (fake_fmem.c)
 * over a few HVM domains whose memory is host pages.  It answers what the
 * migration code asks: getdomaininfo, pause/unpause, destroy, max_mem,
 * get/sethvmcontext, shadow_op (log-dirty ENABLE, OFF, CLEAN with
 * LOGDIRTY_FINAL, PEEK), xen_version, populate_physmap; foreign maps are
 * copies (written back at unmap when mapped writable).
 *
 * A domain can have a "writer": while the domain is not paused, every
 * foreign mapping (the saver's work) lets it write pages of its range in
 * proportion (the next pages in a cycle, each filled with a value that
 * changes at every write), which log-dirty records; and after every
 * CLEAN, as the guest runs on while the saver reads the bitmap.  So writes race with the saver as a running guest's
 * would, and the saved copy must equal the source exactly once the source
 * is suspended.
 *
 * Time is fake too (fake_clock.c): the clock advances only when the saver
 * maps pages (FAKE_NS_PER_PAGE each) or sleeps, so bandwidth, dirty
 * rates and the bandwidth cap are exact counts, not wall-clock timings.
 */
#ifndef TOOLS_TESTS_MIGRATE_FAKE_H
#define TOOLS_TESTS_MIGRATE_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xenctrl.h>
#include <xen/hvm/save.h>

#define FAKE_MAX_DOMS       4
#define FAKE_MAX_PFNS       4096            /* 16 MiB */
#define FAKE_XEN_MAJOR      4
#define FAKE_XEN_MINOR      17

struct fake_dom {
    bool exists;
    uint32_t id;
    unsigned int pause_count;
    /* Spans from pause to unpause (count 0 -> 1 -> 0), by the fake clock. */
    uint64_t paused_at, pause_spans, paused_ns, max_pause_ns;
    unsigned long max_pages, tot_pages;
    unsigned int max_vcpus;
    uint8_t *page[FAKE_MAX_PFNS];

    bool logdirty;
    uint8_t dirty[FAKE_MAX_PFNS / 8];
    unsigned int cleans, final_cleans;

    /* vCPU state: the CPU records gethvmcontext returns. */
    struct hvm_hw_cpu cpu[2];
    unsigned int nr_cpus;               /* initialised vCPUs */
    bool context_set;

    /* The writer. */
    unsigned long w_first, w_nr, w_next, w_rate;
    uint64_t w_gen, w_writes;
    uint64_t w_period_ns, w_time_ns;    /* timed: a page every period */
};

struct fake {
    struct fake_dom dom[FAKE_MAX_DOMS];
    uint32_t next_id;
    unsigned int hypercalls, pauses, unpauses;
    unsigned int populate_calls, maps, unmaps, live_maps;

    /* Failures on demand: the Nth call (1-based) of a kind fails. */
    unsigned int fail_clean_at, fail_getcontext, fail_setcontext;
    unsigned int fail_populate, fail_map_at;
    int fail_errno;

    /* The clock (fake_clock.c): clock_gettime and nanosleep use it. */
    uint64_t now_ns;
    uint64_t sleeps, slept_ns;
};

/* A foreign mapping takes this long per page: the unthrottled link. */
#define FAKE_NS_PER_PAGE    1000

extern struct fake fake;

/* Forget everything. */
void fake_reset(void);
/* A new domain: paused once, max_pages, the first 'populate' pages there. */
struct fake_dom *fake_new_domain(unsigned long max_pages,
                                 unsigned long populate, unsigned int vcpus);
struct fake_dom *fake_find(uint32_t id);
/* Fill every page with a pattern of 'seed'. */
void fake_fill(struct fake_dom *d, uint64_t seed);
/* Let the writer write 'rate' pages of [first, first + nr) per 64 mapped. */
void fake_set_writer(struct fake_dom *d, unsigned long first,
                     unsigned long nr, unsigned long rate);
/* Pfns at which a and b differ (or differ in being populated); 0: equal. */
unsigned long fake_compare(const struct fake_dom *a, const struct fake_dom *b,
                           unsigned long *first_diff);
unsigned long fake_live_buffer_pages(void);
/*
 * The running writers write: at every foreign map, w_rate pages per 64
 * pages mapped (at least one), as if in the time the mapping takes, and
 * after every CLEAN as if for 64 pages.
 */
void fake_run_writers(size_t work);
/*
 * A timed writer instead: one page of [first, first + nr) every period_ns
 * of the clock while the domain runs (not paused), whatever the saver does.
 */
void fake_set_timed_writer(struct fake_dom *d, unsigned long first,
                           unsigned long nr, uint64_t period_ns);
/* The clock advances; timed writers of running domains write meanwhile. */
void fake_clock_pass(uint64_t ns);

#endif /* TOOLS_TESTS_MIGRATE_FAKE_H */

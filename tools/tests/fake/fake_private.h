/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the fake hypervisor (see fake.h): what its files share.
 */
#ifndef TOOLS_TESTS_FAKE_PRIVATE_H
#define TOOLS_TESTS_FAKE_PRIVATE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

/* The hypercalls, each as this hypervisor answers it: result or -Exxx. */
long fake_domctl(struct xen_domctl *dc);
long fake_sysctl(struct xen_sysctl *sc);
long fake_memory_op(unsigned long cmd, void *arg);
long fake_xen_version(unsigned long cmd, void *arg);
long fake_sched_op(unsigned long cmd, void *arg);
long fake_dm_op(domid_t domid, unsigned int nr_bufs, xen_dm_op_buf_t *bufs);
long fake_hvm_op(unsigned long cmd, void *arg);
long fake_event_channel_op(unsigned long cmd, void *arg);

/* -err if a failure of op was asked for (fake_fail), else 0. */
int fake_injected(const char *op);

/* One line to $FAKE_XEN_LOG, if set. */
void fake_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The state file (fake_state.c): the machine is (re)read from
 * $FAKE_XEN_STATE before a call if another process changed it, and written
 * back after a change.  Without the variable and without fake_reset, the
 * machine is a built-in one of three domains.
 */
void fake_state_load(void);
void fake_state_save(void);
void fake_state_forget(uint32_t id);     /* a domain destroyed */
bool fake_state_loaded(void);
void fake_state_reset(void);             /* fake_reset: no file, no default */
/* The console ring's lines, and reading them (XEN_SYSCTL_readconsole). */
long fake_console_read(char *buf, uint32_t *count, uint32_t *index,
                       bool incremental, bool clear);

/* Domain lookup that marks the domain changed (for the state file). */
struct fake_dom *fake_touch(uint32_t id);
/* A domain: freshly made, no memory, paused once. */
struct fake_dom *fake_dom_alloc(uint32_t id);
void fake_dom_free(struct fake_dom *d);
struct fake_mem *fake_mem_of(struct fake_dom *d);
void fake_mem_attach(struct fake_dom *d);
/* The guest writes its write set again (log-dirty on, after a CLEAN). */
void fake_guest_writes(struct fake_dom *d);
/* Digest of pages [0, tot) (for the state file), if their contents are known. */
void fake_update_memhash(struct fake_dom *d);

static inline void fake_bit_set(uint8_t *bm, uint64_t p)
{
    bm[p / 8] |= 1 << (p % 8);
}
static inline void fake_bit_clear(uint8_t *bm, uint64_t p)
{
    bm[p / 8] &= ~(1 << (p % 8));
}
static inline bool fake_bit_test(const uint8_t *bm, uint64_t p)
{
    return (bm[p / 8] >> (p % 8)) & 1;
}

#endif /* TOOLS_TESTS_FAKE_PRIVATE_H */

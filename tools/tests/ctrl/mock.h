/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A libxencall backend for host unit tests: instead of making hypercalls
 * it records each one -- number, arguments, and a copy of the structure
 * the library passed (domctl, sysctl, dm_op and its buffers, sched_op
 * argument) -- and lets the test's handler answer it.  Buffers are
 * tracked so a test can check that every pointer the hypervisor would see
 * is hypercall-safe memory, and that nothing leaks.
 */
#ifndef TOOLS_TESTS_CTRL_MOCK_H
#define TOOLS_TESTS_CTRL_MOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xenctrl.h>

#define MOCK_MAX_CALLS   64
#define MOCK_MAX_DM_BUFS 4

struct mock_call {
    uint64_t op;
    uint64_t arg[5];

    /* Copies of what arg pointed to when the call was made. */
    bool arg_safe;                      /* arg was inside a buffer */
    struct xen_domctl domctl;           /* __HYPERVISOR_domctl */
    struct xen_sysctl sysctl;           /* __HYPERVISOR_sysctl */
    struct sched_remote_shutdown remote_shutdown;   /* sched_op */
    unsigned int nr_dm_bufs;            /* __HYPERVISOR_dm_op */
    xen_dm_op_buf_t dm_bufs[MOCK_MAX_DM_BUFS];
    bool dm_bufs_safe;                  /* every buffer inside a buffer */
    struct xen_dm_op dm_op;
#define MOCK_MAX_EXTENTS 8
    /* __HYPERVISOR_memory_op: a reservation and its first extents, or a domid. */
    struct xen_memory_reservation reservation;
    xen_pfn_t extents[MOCK_MAX_EXTENTS];
    bool extents_safe;                  /* the list inside a buffer */
    struct xen_memory_domain memory_domain;
};

/*
 * The test's answer to a call: return the hypercall result (a negative
 * value is an error, -Exxx).  'live' is the memory arg[0] (domctl,
 * sysctl), arg[1] (sched_op, xen_version) or the dm_op buffer array
 * points to, which the handler may change as the hypervisor would.
 */
typedef long (*mock_handler_t)(struct mock_call *call, void *live);

extern struct mock_call mock_calls[MOCK_MAX_CALLS];
extern unsigned int mock_nr_calls;

/* Forget recorded calls; answer the next ones with h (NULL: return 0). */
void mock_reset(mock_handler_t h);

/* Make the next xencall_open fail with this errno (0: succeed). */
extern int mock_open_errno;

/* [p, p + size) lies inside one live hypercall buffer allocation. */
bool mock_is_safe(const void *p, size_t size);

/* Pages of hypercall buffer memory currently allocated. */
unsigned long mock_live_pages(void);

#endif /* TOOLS_TESTS_CTRL_MOCK_H */

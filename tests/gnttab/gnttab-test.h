/* SPDX-License-Identifier: GPL-2.0-only */
/* The grant-table test kernel's parts (tests/gnttab): one per role. */
#ifndef GNTTAB_TEST_H
#define GNTTAB_TEST_H

#include "test.h"
#include "check.h"
#include "events.h"
#include "gnttab.h"
#include "public/domctl.h"
#include "public/sysctl.h"

/* Fixed layout of the cases (tests/unittests.cfg): who is who. */
#define DOM_CTRL        0       /* role=dom0: the control domain */
#define DOM_GRANTER     1       /* role=granter / granter-ro */
#define DOM_MAPPER      2       /* role=mapper / ro-writer */
#define DOM_CREATED     100     /* the domain dom0 builds (never runs) */

/* A wait that gives the CPU away: at most n rounds; cond is evaluated once a round. */
#define WAIT_UNTIL(cond, n) ({                                            \
    unsigned long w_;                                                     \
    bool ok_ = false;                                                     \
    for ( w_ = 0; w_ < (n) && !(ok_ = (cond)); w_++ )                     \
        hypercall_yield();                                                \
    ok_;                                                                  \
})

/* A page's worth of a seeded pattern, and its check. */
static inline void fill_pattern(void *p, uint8_t seed)
{
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        ((volatile uint8_t *)p)[i] = seed + i * 13;
}

static inline bool has_pattern(const void *p, uint8_t seed)
{
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        if ( ((const volatile uint8_t *)p)[i] != (uint8_t)(seed + i * 13) )
            return false;
    return true;
}

/* The mailbox page of two roles (granted by the granter). */
struct mailbox {
    volatile uint32_t step;
    volatile uint32_t hello;
};

void ops_main(void);
void limits_main(void);
void dom0_main(void);
void granter_main(void);
void mapper_main(void);
void granter_ro_main(void);
void ro_writer_main(void);

#endif /* GNTTAB_TEST_H */

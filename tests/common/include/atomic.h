/* SPDX-License-Identifier: GPL-2.0-only */
/* Atomics and a spinlock for the guest test kernels (x86 TSO). */
#ifndef GUEST_ATOMIC_H
#define GUEST_ATOMIC_H

#include <stdbool.h>

#include "x86.h"

typedef struct {
    volatile int counter;
} atomic_t;

#define ATOMIC_INIT(v) { (v) }

static inline int atomic_read(const atomic_t *a)
{
    return __atomic_load_n(&a->counter, __ATOMIC_ACQUIRE);
}

static inline void atomic_set(atomic_t *a, int v)
{
    __atomic_store_n(&a->counter, v, __ATOMIC_RELEASE);
}

static inline int atomic_add_return(atomic_t *a, int v)
{
    return __atomic_add_fetch(&a->counter, v, __ATOMIC_SEQ_CST);
}

static inline void atomic_inc(atomic_t *a)
{
    atomic_add_return(a, 1);
}

static inline void atomic_dec(atomic_t *a)
{
    atomic_add_return(a, -1);
}

/* Returns the old value; stores 'new' only if it was 'old'. */
static inline int atomic_cmpxchg(atomic_t *a, int old, int new)
{
    __atomic_compare_exchange_n(&a->counter, &old, new, false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return old;
}

static inline int atomic_xchg(atomic_t *a, int v)
{
    return __atomic_exchange_n(&a->counter, v, __ATOMIC_SEQ_CST);
}

/* A test-and-test-and-set lock; waiters spin with PAUSE. */
typedef struct {
    volatile int locked;
} spinlock_t;

#define SPIN_LOCK_UNLOCKED { 0 }

static inline bool spin_trylock(spinlock_t *l)
{
    return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_lock(spinlock_t *l)
{
    while ( !spin_trylock(l) )
        while ( __atomic_load_n(&l->locked, __ATOMIC_RELAXED) )
            cpu_relax();
}

static inline void spin_unlock(spinlock_t *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif /* GUEST_ATOMIC_H */

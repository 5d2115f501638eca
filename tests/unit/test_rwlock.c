/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/rwlock.c with the spinlocks' debug checks: readers share,
 * a writer excludes readers and writers, the trylocks; the lock order and
 * IRQ safety for read and write holds (a violation is a BUG, caught); and
 * two CPUs (host threads, harness_run_cpus()) reading and writing one
 * lock: no reader ever sees a writer's update half done, and no update is
 * lost.
 */
#include <xen/lib.h>
#include <xen/rwlock.h>
#include <xen/spinlock.h>

#include "harness.h"

static DEFINE_RWLOCK_LEVEL(grant, LOCK_LEVEL_EVENT);
static DEFINE_SPINLOCK_LEVEL(heap, LOCK_LEVEL_HEAP);
static DEFINE_SPINLOCK_LEVEL(call, LOCK_LEVEL_CALL);

static void test_basic(void)
{
    rwlock_t l = RW_LOCK_UNLOCKED;

    CHECK(!rw_is_locked(&l));
    read_lock(&l);
    CHECK(rw_is_locked(&l));
    CHECK(!rw_is_write_locked(&l));
    CHECK_EQ(spin_held_count(), 1);
    CHECK(!write_trylock(&l));          /* a reader is in */
    CHECK(read_trylock(&l));            /* readers share */
    CHECK_EQ(l.cnts, 2 * RW_READER);
    read_unlock(&l);
    read_unlock(&l);
    CHECK(!rw_is_locked(&l));
    CHECK_EQ(spin_held_count(), 0);

    write_lock(&l);
    CHECK(rw_is_write_locked(&l));
    CHECK(rw_is_write_locked_by_me(&l));
    CHECK(!read_trylock(&l));
    CHECK(!write_trylock(&l));
    CHECK_EQ(l.cnts, RW_WRITER);
    write_unlock(&l);
    CHECK(!rw_is_locked(&l));
    CHECK(!rw_is_write_locked_by_me(&l));

    CHECK(write_trylock(&l));
    write_unlock(&l);
    CHECK_EQ(l.cnts, 0);
    CHECK_EQ(spin_held_count(), 0);
}

static void test_checks(void)
{
    rwlock_t irq = RW_LOCK_UNLOCKED;
    unsigned long flags;

    /* In order: call (10), grant (50), heap (90); read or write alike. */
    CHECK(!BUGS(spin_lock(&call); read_lock(&grant); spin_lock(&heap)));
    spin_unlock(&heap);
    read_unlock(&grant);
    CHECK(!BUGS(write_lock(&grant); spin_lock(&heap)));
    spin_unlock(&heap);
    write_unlock(&grant);
    spin_unlock(&call);
    CHECK_EQ(spin_held_count(), 0);

    /* Out of order: waiting for grant (50) under heap (90). */
    spin_lock(&heap);
    CHECK(BUGS(read_lock(&grant)));
    CHECK(BUGS(write_lock(&grant)));
    CHECK(!BUGS(CHECK(read_trylock(&grant))));   /* a trylock never waits */
    read_unlock(&grant);
    spin_unlock(&heap);
    CHECK_EQ(spin_held_count(), 0);

    /* A read lock taken again by its holder (a writer between: deadlock). */
    read_lock(&grant);
    CHECK(BUGS(read_lock(&grant)));
    read_unlock(&grant);
    CHECK(!rw_is_locked(&grant));

    /* IRQ safety: taken with interrupts on, then off. */
    host_test_irqs_enabled = true;
    read_lock(&irq);
    read_unlock(&irq);
    local_irq_save(flags);
    CHECK(BUGS(write_lock(&irq)));
    local_irq_restore(flags);
    CHECK(!rw_is_locked(&irq));         /* the BUG came before it was taken */
    CHECK_EQ(spin_held_count(), 0);
}

/* ---- two CPUs ------------------------------------------------------------------ */

#define ROUNDS 200000
static DEFINE_RWLOCK(shared);
static unsigned long a, b, torn, writes, reads, readers_in, readers_max;

static void rw_cpu(unsigned int cpu)
{
    unsigned long i, in, w = 0, r = 0, bad = 0;

    for ( i = 0; i < ROUNDS; i++ )
    {
        if ( (i + cpu) % 4 == 0 )
        {
            write_lock(&shared);
            ACCESS_ONCE(a) = a + 1;
            asm volatile ( "pause" ::: "memory" );
            ACCESS_ONCE(b) = b + 1;
            write_unlock(&shared);
            w++;
            continue;
        }
        read_lock(&shared);
        in = __atomic_add_fetch(&readers_in, 1, __ATOMIC_RELAXED);
        if ( in > ACCESS_ONCE(readers_max) )
            ACCESS_ONCE(readers_max) = in;
        if ( ACCESS_ONCE(a) != ACCESS_ONCE(b) )
            bad++;
        __atomic_sub_fetch(&readers_in, 1, __ATOMIC_RELAXED);
        read_unlock(&shared);
        r++;
    }
    __atomic_fetch_add(&writes, w, __ATOMIC_RELAXED);
    __atomic_fetch_add(&reads, r, __ATOMIC_RELAXED);
    __atomic_fetch_add(&torn, bad, __ATOMIC_RELAXED);
}

static void test_two_cpus(void)
{
    harness_run_cpus(2, rw_cpu);
    harness_printf("  two CPUs: %lu writes, %lu reads, %lu torn, at most %lu readers in\n",
                   writes, reads, torn, readers_max);
    CHECK_EQ(torn, 0);
    CHECK_EQ(writes, 2 * ROUNDS / 4);
    CHECK_EQ(a, writes);
    CHECK_EQ(b, writes);
    CHECK_EQ(reads, 2 * ROUNDS - writes);
    CHECK_EQ(shared.cnts, 0);
}

void test_main(void)
{
    host_test_cpu_enter(0);
    harness_bug_hook = harness_catch_bug;
    spin_debug_enable();
    test_basic();
    test_checks();
    test_two_cpus();
    harness_bug_hook = NULL;
}

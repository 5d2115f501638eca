/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Read-write locks, Xen's interface (xen/rwlock.h): read_lock()/
 * read_unlock()/read_trylock(), write_lock()/write_unlock()/
 * write_trylock(), rw_is_locked(), rw_is_write_locked(), DEFINE_RWLOCK,
 * rwlock_init().  Any number of readers, or one writer.
 *
 * As Xen's queued rwlock (common/rwlock.c): a reader adds itself to the
 * count and goes ahead unless a writer holds the lock or waits for it;
 * writers queue on an inner ticket lock, announce themselves (which turns
 * new readers away, into the same queue) and wait for the readers inside
 * to leave.  So a steady stream of readers cannot starve a writer.
 *
 * The debug checks are the spinlocks' (xen/spinlock.h), on the inner
 * lock's record: a level and a name (DEFINE_RWLOCK_LEVEL,
 * rwlock_init_level), IRQ safety, the lock order for readers and writers
 * alike, and every read or write hold on the CPU's held-locks list.  A
 * CPU that takes a read lock it already holds is a BUG, as any lock taken
 * again by its holder: with a writer waiting in between it would deadlock.
 * No _irq/_irqsave forms yet: nothing takes an rwlock in an interrupt
 * handler.
 */
#ifndef __XEN_RWLOCK_H__
#define __XEN_RWLOCK_H__

#include <xen/spinlock.h>
#include <xen/types.h>

typedef struct rwlock {
    uint32_t cnts;              /* readers * RW_READER | RW_WAITING | RW_WRITER */
    spinlock_t lock;            /* the writers' queue; its debug record is the lock's */
} rwlock_t;

#define RW_WRITER   0x1u        /* a writer holds it */
#define RW_WAITING  0x2u        /* a writer waits for the readers inside to leave */
#define RW_READER   0x100u      /* one reader */

#define RW_LOCK_UNLOCKED_LEVEL(n, l) { .lock = SPIN_LOCK_UNLOCKED_LEVEL(n, l) }
#define RW_LOCK_UNLOCKED        RW_LOCK_UNLOCKED_LEVEL(NULL, LOCK_LEVEL_NONE)
#define DEFINE_RWLOCK(l)        rwlock_t l = RW_LOCK_UNLOCKED_LEVEL(#l, LOCK_LEVEL_NONE)
#define DEFINE_RWLOCK_LEVEL(l, lvl) \
    rwlock_t l = RW_LOCK_UNLOCKED_LEVEL(#l, lvl)

static inline void rwlock_init_level(rwlock_t *l, const char *name, enum lock_level level)
{
    *l = (rwlock_t)RW_LOCK_UNLOCKED_LEVEL(name, level);
}
#define rwlock_init(l)          rwlock_init_level(l, #l, LOCK_LEVEL_NONE)

void read_lock(rwlock_t *l);
bool read_trylock(rwlock_t *l);
void read_unlock(rwlock_t *l);
void write_lock(rwlock_t *l);
bool write_trylock(rwlock_t *l);
void write_unlock(rwlock_t *l);

static inline bool rw_is_locked(const rwlock_t *l)
{
    return ACCESS_ONCE(l->cnts) != 0;
}

static inline bool rw_is_write_locked(const rwlock_t *l)
{
    return ACCESS_ONCE(l->cnts) & RW_WRITER;
}

/* Debug builds: is it write-locked by this CPU?  (Others: by anyone.) */
bool rw_is_write_locked_by_me(const rwlock_t *l);
#define ASSERT_RWLOCK_WRITE(l)  ASSERT(rw_is_write_locked_by_me(l))

#endif /* __XEN_RWLOCK_H__ */

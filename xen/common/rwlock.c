/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Read-write locks (xen/rwlock.h), in the shape of Xen's queued rwlock.
 *
 * cnts holds the readers inside (RW_READER each) and the writer's bits.
 * A reader adds itself and is in unless a writer holds or waits; then it
 * takes itself out and queues on the inner lock, behind the writer, where
 * it adds itself again and waits only for the holder to leave (a waiting
 * writer has got in by then, or is not there: the queue is in order).  A
 * writer queues on the inner lock, sets RW_WAITING (new readers stay out),
 * waits for the count of readers to reach zero, and turns RW_WAITING into
 * RW_WRITER; it leaves the queue once it holds the lock.
 */
#include <xen/lib.h>
#include <xen/rwlock.h>
#include <asm/processor.h>

#define RW_WMASK    (RW_WRITER | RW_WAITING)

static uint32_t cnts_add(rwlock_t *l, uint32_t v)
{
    return __atomic_add_fetch(&l->cnts, v, __ATOMIC_ACQUIRE);
}

static uint32_t cnts_sub(rwlock_t *l, uint32_t v)
{
    return __atomic_sub_fetch(&l->cnts, v, __ATOMIC_RELEASE);
}

static bool cnts_cmpxchg(rwlock_t *l, uint32_t old, uint32_t new)
{
    return __atomic_compare_exchange_n(&l->cnts, &old, new, false,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void read_lock(rwlock_t *l)
{
    _lock_debug_wait(&l->lock, false);
    if ( unlikely(cnts_add(l, RW_READER) & RW_WMASK) )
    {
        /* A writer holds it or waits: queue behind it. */
        cnts_sub(l, RW_READER);
        _spin_lock_unchecked(&l->lock);
        cnts_add(l, RW_READER);
        while ( ACCESS_ONCE(l->cnts) & RW_WRITER )
            cpu_relax();
        _spin_unlock_unchecked(&l->lock);
    }
    _lock_debug_got(&l->lock, true);
}

bool read_trylock(rwlock_t *l)
{
    uint32_t cnts = ACCESS_ONCE(l->cnts);

    _lock_debug_wait(&l->lock, true);
    if ( (cnts & RW_WMASK) || !cnts_cmpxchg(l, cnts, cnts + RW_READER) )
        return false;
    _lock_debug_got(&l->lock, true);
    return true;
}

void read_unlock(rwlock_t *l)
{
    _lock_debug_rel(&l->lock, true);
    cnts_sub(l, RW_READER);
}

void write_lock(rwlock_t *l)
{
    _lock_debug_wait(&l->lock, false);
    _spin_lock_unchecked(&l->lock);
    if ( !cnts_cmpxchg(l, 0, RW_WRITER) )
    {
        __atomic_fetch_or(&l->cnts, RW_WAITING, __ATOMIC_RELAXED);
        /* Readers coming in now see RW_WAITING and queue behind us. */
        while ( !cnts_cmpxchg(l, RW_WAITING, RW_WRITER) )
            cpu_relax();
    }
    _spin_unlock_unchecked(&l->lock);
    _lock_debug_got(&l->lock, false);
}

bool write_trylock(rwlock_t *l)
{
    _lock_debug_wait(&l->lock, true);
    if ( ACCESS_ONCE(l->cnts) || !cnts_cmpxchg(l, 0, RW_WRITER) )
        return false;
    _lock_debug_got(&l->lock, false);
    return true;
}

void write_unlock(rwlock_t *l)
{
    _lock_debug_rel(&l->lock, false);
    cnts_sub(l, RW_WRITER);
}

bool rw_is_write_locked_by_me(const rwlock_t *l)
{
#ifdef CONFIG_DEBUG_LOCKS
    return rw_is_write_locked(l) && spin_is_locked_by_me(&l->lock);
#else
    return rw_is_write_locked(l);
#endif
}

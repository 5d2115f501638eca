/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ticket spinlocks and, in debug builds, their checks (xen/spinlock.h).
 *
 * Each CPU keeps the locks it holds on a small per-CPU list, in the order
 * taken.  Before waiting for a lock the list says whether that could break
 * the lock order (a lock of a level at or below the highest held, see
 * xen/spinlock.h); the first acquisition says whether the lock is
 * interrupt-safe, and every later one must agree (Xen's check_lock()).  A
 * violation prints both locks and is a BUG.
 *
 * The list is changed with interrupts off: a lock taken with interrupts
 * on could otherwise be interrupted between the count's update and the
 * slot's, and a handler taking its lock would check the list with a
 * stale entry in it (a lock released long ago, the handler's own from an
 * earlier interrupt: "taken again by its holder"), or overwrite the slot
 * the interrupted update was about to fill.
 */
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/spinlock.h>
#include <asm/processor.h>

#ifdef CONFIG_DEBUG_LOCKS
#define LOCK_HELD_MAX 16

struct held_locks {
    unsigned int nr;
    const spinlock_t *lock[LOCK_HELD_MAX];
};
static DEFINE_PER_CPU(struct held_locks, held_locks);
/*
 * Off until the boot CPU enables interrupts (__start_xen calls
 * spin_debug_enable() then, as Xen does): before that every lock is taken
 * with interrupts off, which says nothing about how it is used later.
 */
static bool spin_debug_off = true;

void spin_debug_disable(void)
{
    spin_debug_off = true;
}

void spin_debug_enable(void)
{
    spin_debug_off = false;
}

static unsigned int lock_level(const spinlock_t *lock)
{
    return lock->debug.level ? lock->debug.level : LOCK_LEVEL_LEAF;
}

static const char *lock_name(const spinlock_t *lock)
{
    return lock->debug.name ? lock->debug.name : "(unnamed)";
}

static noreturn void lock_bug(const char *what, const spinlock_t *lock,
                              const spinlock_t *other)
{
    spin_debug_disable();
    printk(XENLOG_ERR "CPU%u: %s: %s (level %u, %p)", smp_processor_id(), what,
           lock_name(lock), lock_level(lock), lock);
    if ( other )
        printk(" while holding %s (level %u, %p)", lock_name(other),
               lock_level(other), other);
    printk("\n");
    BUG();
}

/* Interrupt safety (Xen's check_lock). */
static void check_irq(spinlock_t *lock, bool try)
{
    uint8_t state = local_irq_is_enabled() ? LOCK_IRQ_enabled : LOCK_IRQ_disabled;

    /*
     * A trylock with interrupts disabled cannot deadlock against an
     * interrupt handler: it gives up instead of waiting.
     */
    if ( try && state == LOCK_IRQ_disabled )
        return;
    if ( lock->debug.irq_state == LOCK_IRQ_unseen )
        lock->debug.irq_state = state;
    else if ( lock->debug.irq_state != state )
        lock_bug(state == LOCK_IRQ_enabled
                 ? "IRQ-safe lock taken with interrupts enabled"
                 : "lock taken with interrupts enabled, now with them disabled",
                 lock, NULL);
}

/* The lock order: called before waiting for lock. */
static void check_order(const spinlock_t *lock, bool nested)
{
    const struct held_locks *h = &this_cpu(held_locks);
    unsigned int i, level = lock_level(lock);

    for ( i = 0; i < h->nr; i++ )
    {
        const spinlock_t *held = h->lock[i];

        if ( held == lock )
            lock_bug("lock taken again by its holder", lock, NULL);
        if ( lock_level(held) > level ||
             (lock_level(held) == level && (!nested || level == LOCK_LEVEL_LEAF)) )
            lock_bug("lock order violated", lock, held);
    }
}

static void check_lock(spinlock_t *lock, bool try, bool nested)
{
    if ( spin_debug_off )
        return;
    check_irq(lock, try);
    if ( !try )
        check_order(lock, nested);
}

/* Held now; shared (a read lock) has no one owner. */
static void got_lock_shared(spinlock_t *lock, bool shared)
{
    struct held_locks *h = &this_cpu(held_locks);
    unsigned long flags;

    if ( !shared )
        lock->debug.owner = smp_processor_id() + 1;
    if ( spin_debug_off )
        return;
    if ( h->nr == LOCK_HELD_MAX )
        lock_bug("too many locks held", lock, NULL);
    local_irq_save(flags);
    h->lock[h->nr++] = lock;
    local_irq_restore(flags);
}

static void got_lock(spinlock_t *lock)
{
    got_lock_shared(lock, false);
}

static void rel_lock_shared(spinlock_t *lock, bool shared)
{
    struct held_locks *h = &this_cpu(held_locks);
    unsigned long flags;
    unsigned int i;

    if ( !spin_debug_off && !shared && lock->debug.owner != smp_processor_id() + 1 )
        lock_bug("lock released by a CPU that does not hold it", lock, NULL);
    if ( !shared )
        lock->debug.owner = 0;
    local_irq_save(flags);
    for ( i = h->nr; i-- > 0; )
        if ( h->lock[i] == lock )
        {
            for ( ; i + 1 < h->nr; i++ )
                h->lock[i] = h->lock[i + 1];
            h->nr--;
            break;
        }
    local_irq_restore(flags);
}

static void rel_lock(spinlock_t *lock)
{
    rel_lock_shared(lock, false);
}

bool spin_is_locked_by_me(const spinlock_t *lock)
{
    return lock->debug.owner == smp_processor_id() + 1;
}

unsigned int spin_held_count(void)
{
    return this_cpu(held_locks).nr;
}
#else
void spin_debug_disable(void)
{
}

void spin_debug_enable(void)
{
}

static inline void check_lock(spinlock_t *lock, bool try, bool nested) {}
static inline void got_lock_shared(spinlock_t *lock, bool shared) {}
static inline void got_lock(spinlock_t *lock) {}
static inline void rel_lock_shared(spinlock_t *lock, bool shared) {}
static inline void rel_lock(spinlock_t *lock) {}

bool spin_is_locked_by_me(const spinlock_t *lock)
{
    return _spin_is_locked(lock);
}

unsigned int spin_held_count(void)
{
    return 0;
}
#endif

/* The ticket lock itself, no checks. */
static void take_ticket(spinlock_t *lock)
{
    uint16_t ticket = 1;

    asm volatile ( "lock xaddw %0, %1" : "+r" (ticket), "+m" (lock->tickets.tail)
                   :: "memory" );
    while ( ACCESS_ONCE(lock->tickets.head) != ticket )
        cpu_relax();
    barrier();
}

static void release_ticket(spinlock_t *lock)
{
    barrier();
    /* Only the holder writes head: a plain increment, after the critical section. */
    ACCESS_ONCE(lock->tickets.head) = lock->tickets.head + 1;
}

static void take(spinlock_t *lock, bool nested)
{
    check_lock(lock, false, nested);
    take_ticket(lock);
    got_lock(lock);
}

/*
 * For common/rwlock.c: an rwlock's inner spinlock carries its level, name
 * and held-lock record; these check and record the rwlock's acquisition,
 * and take the inner lock without counting it a second time.
 */
void _lock_debug_wait(spinlock_t *lock, bool try)
{
    check_lock(lock, try, false);
}

void _lock_debug_got(spinlock_t *lock, bool shared)
{
    got_lock_shared(lock, shared);
}

void _lock_debug_rel(spinlock_t *lock, bool shared)
{
    rel_lock_shared(lock, shared);
}

void _spin_lock_unchecked(spinlock_t *lock)
{
    take_ticket(lock);
}

void _spin_unlock_unchecked(spinlock_t *lock)
{
    release_ticket(lock);
}

void _spin_lock(spinlock_t *lock)
{
    take(lock, false);
}

void _spin_lock_nested(spinlock_t *lock)
{
    take(lock, true);
}

void _spin_lock_irq(spinlock_t *lock)
{
    ASSERT(local_irq_is_enabled());
    local_irq_disable();
    take(lock, false);
}

unsigned long _spin_lock_irqsave(spinlock_t *lock)
{
    unsigned long flags;

    local_irq_save(flags);
    take(lock, false);
    return flags;
}

void _spin_unlock(spinlock_t *lock)
{
    rel_lock(lock);
    release_ticket(lock);
}

void _spin_unlock_irq(spinlock_t *lock)
{
    _spin_unlock(lock);
    local_irq_enable();
}

void _spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
    _spin_unlock(lock);
    local_irq_restore(flags);
}

bool _spin_trylock(spinlock_t *lock)
{
    spinlock_tickets_t old, new;

    check_lock(lock, true, false);
    old.head_tail = ACCESS_ONCE(lock->tickets.head_tail);
    if ( old.head != old.tail )
        return false;
    new = old;
    new.tail++;
    if ( !__sync_bool_compare_and_swap(&lock->tickets.head_tail, old.head_tail,
                                       new.head_tail) )
        return false;
    got_lock(lock);
    return true;
}

bool _spin_is_locked(const spinlock_t *lock)
{
    spinlock_tickets_t t;

    t.head_tail = ACCESS_ONCE(lock->tickets.head_tail);
    return t.head != t.tail;
}

/* Recursive locks (Xen 4.17): the holder may take it again. */
void _spin_lock_recursive(spinlock_t *lock)
{
    unsigned int me = smp_processor_id() + 1;

    if ( ACCESS_ONCE(lock->recurse_cpu) != me )
    {
        _spin_lock(lock);
        lock->recurse_cpu = me;
    }
    BUG_ON(lock->recurse_cnt == SPINLOCK_MAX_RECURSE);
    lock->recurse_cnt++;
}

void _spin_unlock_recursive(spinlock_t *lock)
{
    BUG_ON(lock->recurse_cpu != smp_processor_id() + 1 || !lock->recurse_cnt);
    if ( --lock->recurse_cnt == 0 )
    {
        lock->recurse_cpu = 0;
        _spin_unlock(lock);
    }
}

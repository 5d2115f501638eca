/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Spinlocks, as Xen's (xen/spinlock.h): spin_lock()/spin_unlock()/
 * spin_trylock(), the _irq and _irqsave forms, recursive locks
 * (spin_lock_recursive(), Xen 4.17's name), DEFINE_SPINLOCK, spin_is_locked.
 *
 * A ticket lock: a CPU takes the next ticket (tail) and waits until the
 * head reaches it, so CPUs get the lock in the order they asked for it.
 *
 * Debug builds (CONFIG_DEBUG) check two things on every acquisition
 * (common/spinlock.c, docs/design.md "Locks and their order"):
 *  - IRQ safety, as Xen's check_lock(): a lock taken once with interrupts
 *    disabled and once with them enabled can deadlock against an interrupt
 *    handler on the same CPU; the second kind of use is a BUG.
 *  - The lock order: every lock has a level; a CPU holding a lock of level
 *    L may only wait for locks of a level above L.  Two locks of one level
 *    (two CPUs' timer locks) are taken together only with
 *    spin_lock_nested(), whose caller keeps a fixed order within the level.
 *    A trylock never waits and is not checked against the order.  A lock
 *    without a level (DEFINE_SPINLOCK, spin_lock_init) is a leaf: nothing
 *    may be waited for while it is held.
 * A zeroed spinlock_t is a valid unlocked leaf lock (per-CPU data starts
 * zeroed), which is what SPIN_LOCK_UNLOCKED is.
 */
#ifndef __XEN_SPINLOCK_H__
#define __XEN_SPINLOCK_H__

#include <xen/lib.h>
#include <xen/types.h>
#include <asm/system.h>

#if defined(CONFIG_DEBUG) && !defined(CONFIG_DEBUG_LOCKS)
#define CONFIG_DEBUG_LOCKS
#endif

/*
 * The lock order, lowest first (the table in docs/design.md says what
 * each protects and what may be taken under it).  Gaps leave room for the
 * locks of the next steps (domain, vCPU, p2m, event channels, log-dirty).
 */
enum lock_level {
    LOCK_LEVEL_NONE     = 0,    /* no level: a leaf */
    LOCK_LEVEL_CALL     = 10,   /* smp.c: call_lock (call-function IPIs) */
    LOCK_LEVEL_SERIAL_RX = 20,  /* console.c: the serial input ring (held over a guest copy) */
    LOCK_LEVEL_DOMCTL   = 30,   /* domctl.c: one domctl at a time */
    LOCK_LEVEL_GNTTAB   = 40,   /* grant_table.c: gt->lock (rwlock: read to use, write to change) */
    LOCK_LEVEL_GNTTAB_ACTIVE = 42, /* grant_table.c: each active entry's lock (act->lock) */
    LOCK_LEVEL_MAPTRACK = 44,   /* grant_map.c: lgt->maptrack_lock (handles, growth) */
    LOCK_LEVEL_EVENT    = 50,   /* event_channel.c: d->event_lock (ports, bindings) */
    LOCK_LEVEL_EVTCHN   = 55,   /* event_channel.c: each channel's lock (send, notify) */
    LOCK_LEVEL_EVTCHN_FIFO = 58, /* event_fifo.c: a domain's FIFO queues */
    LOCK_LEVEL_P2M      = 60,   /* p2m.c: p2m->lock, Xen's p2m lock (recursive) */
    LOCK_LEVEL_PAGING   = 64,   /* paging.c: d->arch.paging.lock, Xen's paging lock (recursive) */
    LOCK_LEVEL_SELFTEST = 70,   /* smp_selftest.c: held across a flush */
    LOCK_LEVEL_FLUSH    = 75,   /* smp.c: flush_lock (TLB/EPT shootdown), under the p2m's */
    LOCK_LEVEL_TIMER    = 80,   /* timer.c: each CPU's timer list */
    LOCK_LEVEL_XMALLOC  = 85,   /* xmalloc.c: the pools */
    LOCK_LEVEL_HEAP     = 90,   /* page_alloc.c: the page allocator */
    LOCK_LEVEL_CONSOLE  = 100,  /* console.c: the ring and the UART (recursive) */
    LOCK_LEVEL_UART_RX  = 110,  /* ns16550.c: the receive registers and rx_stage */
    LOCK_LEVEL_LEAF     = 255,  /* what LOCK_LEVEL_NONE counts as */
};

typedef union {
    uint32_t head_tail;
    struct {
        uint16_t head;          /* the ticket being served */
        uint16_t tail;          /* the next ticket to hand out */
    };
} spinlock_tickets_t;

struct lock_debug {
    uint8_t level;              /* enum lock_level */
    uint8_t irq_state;          /* LOCK_IRQ_*: how it has been taken */
    uint16_t owner;             /* holder's CPU + 1, 0 if free */
    const char *name;
};
#define LOCK_IRQ_unseen   0
#define LOCK_IRQ_enabled  1     /* taken with interrupts enabled */
#define LOCK_IRQ_disabled 2     /* taken with interrupts disabled */

#define SPINLOCK_MAX_RECURSE 0xffff

typedef struct spinlock {
    spinlock_tickets_t tickets;
    uint16_t recurse_cpu;       /* recursive holder's CPU + 1, 0 if none */
    uint16_t recurse_cnt;
    struct lock_debug debug;
} spinlock_t;

#define SPIN_LOCK_UNLOCKED_LEVEL(n, l) \
    { .debug = { .level = (l), .name = (n) } }
#define SPIN_LOCK_UNLOCKED      SPIN_LOCK_UNLOCKED_LEVEL(NULL, LOCK_LEVEL_NONE)
#define DEFINE_SPINLOCK(l)      spinlock_t l = SPIN_LOCK_UNLOCKED_LEVEL(#l, LOCK_LEVEL_NONE)
#define DEFINE_SPINLOCK_LEVEL(l, lvl) \
    spinlock_t l = SPIN_LOCK_UNLOCKED_LEVEL(#l, lvl)

static inline void spin_lock_init_level(spinlock_t *l, const char *name,
                                        enum lock_level level)
{
    *l = (spinlock_t)SPIN_LOCK_UNLOCKED_LEVEL(name, level);
}
#define spin_lock_init(l)       spin_lock_init_level(l, #l, LOCK_LEVEL_NONE)

void _spin_lock(spinlock_t *lock);
void _spin_lock_nested(spinlock_t *lock);
void _spin_lock_irq(spinlock_t *lock);
unsigned long _spin_lock_irqsave(spinlock_t *lock);
void _spin_unlock(spinlock_t *lock);
void _spin_unlock_irq(spinlock_t *lock);
void _spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
bool _spin_trylock(spinlock_t *lock);
bool _spin_is_locked(const spinlock_t *lock);
void _spin_lock_recursive(spinlock_t *lock);
void _spin_unlock_recursive(spinlock_t *lock);

#define spin_lock(l)                 _spin_lock(l)
#define spin_lock_nested(l)          _spin_lock_nested(l)
#define spin_lock_irq(l)             _spin_lock_irq(l)
#define spin_lock_irqsave(l, f)      ((f) = _spin_lock_irqsave(l))
#define spin_unlock(l)               _spin_unlock(l)
#define spin_unlock_irq(l)           _spin_unlock_irq(l)
#define spin_unlock_irqrestore(l, f) _spin_unlock_irqrestore(l, f)
#define spin_trylock(l)              _spin_trylock(l)
#define spin_trylock_irqsave(l, f)                                  \
    ({ local_irq_save(f);                                           \
       _spin_trylock(l) ? true : ({ local_irq_restore(f); false; }); })
#define spin_is_locked(l)            _spin_is_locked(l)
#define spin_lock_recursive(l)       _spin_lock_recursive(l)
#define spin_unlock_recursive(l)     _spin_unlock_recursive(l)

/* Debug builds: is the lock held by this CPU?  (Others: is it held.) */
bool spin_is_locked_by_me(const spinlock_t *lock);
#define ASSERT_SPINLOCK(l)      ASSERT(spin_is_locked_by_me(l))

/* For common/rwlock.c (xen/rwlock.h): the checks apart from the lock. */
void _lock_debug_wait(spinlock_t *lock, bool try);
void _lock_debug_got(spinlock_t *lock, bool shared);
void _lock_debug_rel(spinlock_t *lock, bool shared);
void _spin_lock_unchecked(spinlock_t *lock);
void _spin_unlock_unchecked(spinlock_t *lock);

/* How many locks this CPU holds (debug builds; 0 otherwise). */
unsigned int spin_held_count(void);
/* Stop checking (a BUG or panic is being reported), and start again. */
void spin_debug_disable(void);
void spin_debug_enable(void);

#endif /* __XEN_SPINLOCK_H__ */

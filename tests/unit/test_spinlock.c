/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/spinlock.c, built with CONFIG_DEBUG: the ticket lock, trylock,
 * the recursive and _irqsave forms, and the debug checks (the lock-order
 * checker and Xen's IRQ-safety check): each violation is a BUG, each
 * allowed pattern is not.
 */
#include <xen/lib.h>
#include <xen/spinlock.h>

#include "harness.h"

extern char printk_log[];
void printk_reset(void);

static DEFINE_SPINLOCK_LEVEL(low, LOCK_LEVEL_CALL);
static DEFINE_SPINLOCK_LEVEL(mid, LOCK_LEVEL_TIMER);
static DEFINE_SPINLOCK_LEVEL(high, LOCK_LEVEL_HEAP);
static DEFINE_SPINLOCK_LEVEL(mid2, LOCK_LEVEL_TIMER);
static DEFINE_SPINLOCK(leaf);
static DEFINE_SPINLOCK(leaf2);

static void test_ticket(void)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED;
    unsigned long flags;

    CHECK(!spin_is_locked(&l));
    spin_lock(&l);
    CHECK(spin_is_locked(&l));
    CHECK(spin_is_locked_by_me(&l));
    CHECK_EQ(l.tickets.tail, 1);
    CHECK_EQ(l.tickets.head, 0);
    CHECK(!spin_trylock(&l));
    CHECK_EQ(l.tickets.tail, 1);        /* a failed trylock takes no ticket */
    CHECK_EQ(spin_held_count(), 1);
    spin_unlock(&l);
    CHECK(!spin_is_locked(&l));
    CHECK_EQ(l.tickets.head, 1);
    CHECK_EQ(spin_held_count(), 0);

    CHECK(spin_trylock(&l));
    CHECK(spin_is_locked(&l));
    spin_unlock(&l);
    CHECK_EQ(l.tickets.head, 2);
    CHECK_EQ(l.tickets.tail, 2);

    /* The tickets wrap at 16 bits and the lock still works. */
    l.tickets.head = l.tickets.tail = 0xffff;
    spin_lock(&l);
    CHECK_EQ(l.tickets.tail, 0);
    spin_unlock(&l);
    CHECK(!spin_is_locked(&l));

    /* irqsave: off inside, back as it was after. */
    host_test_irqs_enabled = true;
    spinlock_t m = SPIN_LOCK_UNLOCKED;
    spin_lock_irqsave(&m, flags);
    CHECK(!host_test_irqs_enabled);
    spin_unlock_irqrestore(&m, flags);
    CHECK(host_test_irqs_enabled);
    spin_lock_irq(&m);
    CHECK(!host_test_irqs_enabled);
    spin_unlock_irq(&m);
    CHECK(host_test_irqs_enabled);
}

static void test_recursive(void)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED;

    spin_lock_recursive(&l);
    spin_lock_recursive(&l);
    CHECK_EQ(l.recurse_cnt, 2);
    CHECK_EQ(spin_held_count(), 1);     /* one acquisition, counted twice */
    spin_unlock_recursive(&l);
    CHECK(spin_is_locked(&l));
    spin_unlock_recursive(&l);
    CHECK(!spin_is_locked(&l));
    CHECK_EQ(l.recurse_cpu, 0);
    CHECK(BUGS(spin_unlock_recursive(&l)));
}

static void test_order(void)
{
    /* Upwards is the order. */
    CHECK(!BUGS(spin_lock(&low); spin_lock(&mid); spin_lock(&high); spin_lock(&leaf)));
    spin_unlock(&leaf);
    spin_unlock(&high);
    spin_unlock(&mid);
    spin_unlock(&low);
    CHECK_EQ(spin_held_count(), 0);

    /* Downwards is a BUG, reported with both locks. */
    printk_reset();
    spin_lock(&high);
    CHECK(BUGS(spin_lock(&mid)));
    CHECK_CONTAINS(printk_log, "lock order violated: mid (level 80");
    CHECK_CONTAINS(printk_log, "while holding high (level 90");
    CHECK(!spin_is_locked(&mid));       /* the BUG came before the wait */
    spin_unlock(&high);

    /* Releasing out of order is fine; the order counts what is still held. */
    spin_lock(&low);
    spin_lock(&mid);
    spin_unlock(&low);
    CHECK(!BUGS(spin_lock(&high)));
    spin_unlock(&high);
    CHECK(BUGS(spin_lock(&low)));       /* mid is still held */
    spin_unlock(&mid);

    /* Nothing under a leaf, not even another leaf, nested or not. */
    spin_lock(&leaf);
    CHECK(BUGS(spin_lock(&leaf2)));
    CHECK(BUGS(spin_lock_nested(&leaf2)));
    CHECK(BUGS(spin_lock(&high)));
    spin_unlock(&leaf);

    /* Two locks of one level: only spin_lock_nested(). */
    spin_lock(&mid);
    CHECK(BUGS(spin_lock(&mid2)));
    CHECK(!BUGS(spin_lock_nested(&mid2)));
    spin_unlock(&mid2);
    spin_unlock(&mid);

    /* A trylock never waits: any order. */
    spin_lock(&high);
    CHECK(!BUGS(CHECK(spin_trylock(&low))));
    spin_unlock(&low);
    spin_unlock(&high);

    /* Taking a lock one holds is a deadlock. */
    spin_lock(&mid);
    printk_reset();
    CHECK(BUGS(spin_lock(&mid)));
    CHECK_CONTAINS(printk_log, "lock taken again by its holder");
    spin_unlock(&mid);

    /* Releasing a lock one does not hold. */
    CHECK(BUGS(spin_unlock(&mid)));
    CHECK_EQ(spin_held_count(), 0);
}

static void test_irq_safety(void)
{
    spinlock_t a = SPIN_LOCK_UNLOCKED, b = SPIN_LOCK_UNLOCKED, c = SPIN_LOCK_UNLOCKED;
    unsigned long flags;

    /* Taken with interrupts on, then off: a BUG (an interrupt could deadlock). */
    host_test_irqs_enabled = true;
    spin_lock(&a);
    spin_unlock(&a);
    printk_reset();
    CHECK(BUGS(spin_lock_irqsave(&a, flags)));
    CHECK_CONTAINS(printk_log, "lock taken with interrupts enabled, now with them disabled");
    host_test_irqs_enabled = true;

    /* Off, then on. */
    spin_lock_irqsave(&b, flags);
    spin_unlock_irqrestore(&b, flags);
    printk_reset();
    CHECK(BUGS(spin_lock(&b)));
    CHECK_CONTAINS(printk_log, "IRQ-safe lock taken with interrupts enabled");

    /* Consistent use is fine; a trylock with interrupts off never deadlocks. */
    CHECK(!BUGS(spin_lock(&c); spin_unlock(&c); spin_lock(&c); spin_unlock(&c)));
    local_irq_disable();
    CHECK(!BUGS(CHECK(spin_trylock(&c))));
    spin_unlock(&c);
    local_irq_enable();
    CHECK_EQ(spin_held_count(), 0);
}

/*
 * An interrupt in the middle of the held-lock record's update, at every
 * instruction: the code below runs single-stepped, and after each of its
 * instructions a fake interrupt comes, taken only while the thread's
 * "interrupts" are on (otherwise dropped, as a CPU would hold it); its
 * handler takes an interrupt-safe lock, as the UART's does.  The code
 * takes that lock with interrupts off (it leaves its pointer in slot 0 of
 * the record), then another lock with interrupts on.  With the record
 * updated while interruptible the handler found slot 0 counted but not
 * yet rewritten, naming its own lock: "taken again by its holder" (seen
 * under Bochs: the UART's rx_lock, debug build).  Both locks are used
 * consistently, so no BUG is right.
 */
static DEFINE_SPINLOCK_LEVEL(irq_safe, LOCK_LEVEL_UART_RX);
static DEFINE_SPINLOCK_LEVEL(irq_unsafe, LOCK_LEVEL_CALL);
static unsigned int irqs_taken, irqs_masked, irq_bugs;

static void fake_irq(void)
{
    if ( !host_test_irqs_enabled )
    {
        irqs_masked++;
        return;
    }
    irqs_taken++;
    host_test_irqs_enabled = false;     /* an interrupt gate */
    printk_reset();
    if ( BUGS(spin_lock(&irq_safe); spin_unlock(&irq_safe)) && !irq_bugs++ )
        harness_printf("BUG in the interrupt: %s", printk_log);
    host_test_irqs_enabled = true;
}

static void lock_rounds(void)
{
    unsigned long flags;
    unsigned int i;

    for ( i = 0; i < 3; i++ )
    {
        spin_lock_irqsave(&irq_safe, flags);
        spin_unlock_irqrestore(&irq_safe, flags);
        spin_lock(&irq_unsafe);
        spin_unlock(&irq_unsafe);
    }
}

static void test_interrupted_record(void)
{
    unsigned long steps;

    host_test_irqs_enabled = true;
    steps = harness_irq_each_instruction(lock_rounds, fake_irq);
    harness_printf("interrupted record: %lu instructions, %u interrupts taken, %u held off\n",
                   steps, irqs_taken, irqs_masked);
    CHECK(steps >= 100);                /* or the test saw nothing */
    CHECK(irqs_masked >= 10);           /* and some came with interrupts off */
    CHECK_EQ(irq_bugs, 0);
    CHECK_EQ(spin_held_count(), 0);
}

void test_main(void)
{
    harness_bug_hook = harness_catch_bug;
    spin_debug_enable();            /* as __start_xen does once interrupts are on */
    test_ticket();
    test_recursive();
    test_order();
    test_irq_safety();
    test_interrupted_record();
    harness_bug_hook = NULL;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO event channel ABI from a guest test kernel (see events.h),
 * consumed the way Linux's drivers/xen/events/events_fifo.c does: READY
 * taken with an exchange, the lowest ready priority first, one event at a
 * time from the local copy of HEAD (the control block's HEAD read only
 * when the local one ran out), LINKED and LINK cleared with a
 * compare-and-exchange, the port handled if pending and unmasked.
 */
#include "test.h"
#include "events.h"

struct evtchn_fifo_control_block *fifo_control_block[GUEST_MAX_VCPUS];
event_word_t *fifo_event_array[FIFO_MAX_PAGES];
unsigned int fifo_array_pages;
evtchn_port_t fifo_log[GUEST_MAX_VCPUS][FIFO_LOG_SIZE];
volatile unsigned int fifo_log_len[GUEST_MAX_VCPUS];

/*
 * At most this many events per call: a hostile test's other vCPU may keep
 * relinking words while this one consumes (never the hypervisor's doing).
 */
#define FIFO_CONSUME_MAX 8192

/* Linux's per-CPU copy of each queue's HEAD. */
static uint32_t local_head[GUEST_MAX_VCPUS][EVTCHN_FIFO_MAX_QUEUES];

long evtchn_init_control(uint64_t gfn, uint32_t offset, uint32_t vcpu, uint8_t *link_bits)
{
    struct evtchn_init_control op = { .control_gfn = gfn, .offset = offset, .vcpu = vcpu };
    long rc = hypercall_event_channel_op(EVTCHNOP_init_control, &op);

    if ( !rc && link_bits )
        *link_bits = op.link_bits;
    return rc;
}

long evtchn_expand_array(uint64_t gfn)
{
    struct evtchn_expand_array op = { .array_gfn = gfn };

    return hypercall_event_channel_op(EVTCHNOP_expand_array, &op);
}

long evtchn_set_priority(evtchn_port_t port, uint32_t priority)
{
    struct evtchn_set_priority op = { .port = port, .priority = priority };

    return hypercall_event_channel_op(EVTCHNOP_set_priority, &op);
}

long evtchn_reset(domid_t dom)
{
    struct evtchn_reset op = { .dom = dom };

    return hypercall_event_channel_op(EVTCHNOP_reset, &op);
}

long fifo_setup_vcpu(unsigned int id, struct evtchn_fifo_control_block *cb)
{
    unsigned long va = (unsigned long)cb;
    unsigned int q;
    long rc;

    rc = evtchn_init_control(va >> PAGE_SHIFT, va & (PAGE_SIZE - 1), id, NULL);
    if ( !rc && id < GUEST_MAX_VCPUS )
    {
        for ( q = 0; q < EVTCHN_FIFO_MAX_QUEUES; q++ )
            local_head[id][q] = 0;
        fifo_control_block[id] = cb;
    }
    return rc;
}

long fifo_add_page(void *va)
{
    long rc;

    if ( fifo_array_pages >= FIFO_MAX_PAGES )
        return -XEN_ENOSPC;
    rc = evtchn_expand_array((unsigned long)va >> PAGE_SHIFT);
    if ( !rc )
        fifo_event_array[fifo_array_pages++] = va;
    return rc;
}

void fifo_forget(void)
{
    unsigned int i;

    for ( i = 0; i < GUEST_MAX_VCPUS; i++ )
        fifo_control_block[i] = NULL;
    for ( i = 0; i < FIFO_MAX_PAGES; i++ )
        fifo_event_array[i] = NULL;
    fifo_array_pages = 0;
}

event_word_t *fifo_word(evtchn_port_t port)
{
    if ( port >= fifo_array_pages * FIFO_WORDS_PER_PAGE )
        return NULL;
    return &fifo_event_array[port / FIFO_WORDS_PER_PAGE][port % FIFO_WORDS_PER_PAGE];
}

void fifo_mask(evtchn_port_t port)
{
    event_word_t *w = fifo_word(port);

    if ( w )
        __atomic_or_fetch(w, FIFO_BIT(MASKED), __ATOMIC_SEQ_CST);
}

void fifo_unmask(evtchn_port_t port)
{
    event_word_t *w = fifo_word(port), old, new;

    if ( !w )
        return;
    /* Linux 6.1's clear_masked_cond(): only the hypervisor may relink a pending port. */
    old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
    do {
        if ( !(old & FIFO_BIT(MASKED)) )
            return;
        if ( old & FIFO_BIT(PENDING) )
        {
            evtchn_unmask(port);
            return;
        }
        new = old & ~FIFO_BIT(MASKED);
    } while ( !__atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST) );
}

/* Clear LINKED and LINK, returning LINK (Linux's clear_linked()). */
static uint32_t clear_linked(event_word_t *w)
{
    event_word_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE), new;

    do
        new = old & ~(FIFO_BIT(LINKED) | EVTCHN_FIFO_LINK_MASK);
    while ( !__atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_SEQ_CST,
                                         __ATOMIC_SEQ_CST) );
    return old & EVTCHN_FIFO_LINK_MASK;
}

static void consume_one(unsigned int cpu, unsigned int q, uint32_t *ready)
{
    struct evtchn_fifo_control_block *cb = fifo_control_block[cpu];
    uint32_t head = local_head[cpu][q];
    evtchn_port_t port;
    event_word_t *w;

    if ( !head )
        head = __atomic_load_n(&cb->head[q], __ATOMIC_ACQUIRE);
    port = head;
    w = fifo_word(port);
    if ( !port || !w )
    {
        /* Nothing (or nonsense) at HEAD: this queue is done. */
        *ready &= ~(1u << q);
        local_head[cpu][q] = 0;
        return;
    }
    head = clear_linked(w);
    if ( !head )
        *ready &= ~(1u << q);
    if ( (*w & FIFO_BIT(PENDING)) && !(*w & FIFO_BIT(MASKED)) )
    {
        __atomic_and_fetch(w, ~FIFO_BIT(PENDING), __ATOMIC_SEQ_CST);
        if ( fifo_log_len[cpu] < FIFO_LOG_SIZE )
            fifo_log[cpu][fifo_log_len[cpu]] = port;
        fifo_log_len[cpu]++;
        if ( port < MAX_TEST_PORTS )
            port_events[port]++;
    }
    local_head[cpu][q] = head;
}

unsigned int fifo_consume(unsigned int cpu)
{
    struct evtchn_fifo_control_block *cb = fifo_control_block[cpu];
    unsigned int before = fifo_log_len[cpu], guard = 0;
    uint32_t ready;

    if ( !cb )
        return 0;
    ready = __atomic_exchange_n(&cb->ready, 0, __ATOMIC_SEQ_CST);
    /* A hostile test scribbles on its own queues: never loop forever on them. */
    while ( ready && ++guard < FIFO_CONSUME_MAX )
    {
        consume_one(cpu, __builtin_ctz(ready) % EVTCHN_FIFO_MAX_QUEUES, &ready);
        ready |= __atomic_exchange_n(&cb->ready, 0, __ATOMIC_SEQ_CST);
    }
    return fifo_log_len[cpu] - before;
}

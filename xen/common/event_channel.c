/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels (Xen's common/event_channel.c), and the 2-level port
 * ABI (Xen's event_2l.c).
 *
 * Ports are allocated in buckets of EVTCHNS_PER_BUCKET.  Port 0 is
 * reserved.  How a port is made pending, masked and delivered is the
 * domain's port ABI, called through d->evtchn_port_ops (Xen's seam): the
 * 2-level ABI below, every domain's at creation, or the FIFO ABI
 * (event_fifo.c) once the guest asks for it with EVTCHNOP_init_control;
 * EVTCHNOP_reset goes back to 2-level.  A domain has at most
 * d->max_evtchn_port + 1 ports, and no more than its ABI allows (4096
 * for 2-level, 2^17 for FIFO).
 *
 * 2-level: sending on a port sets its bit in shared_info.evtchn_pending;
 * unless the port is masked (evtchn_mask) that sets the word's bit in the
 * notified vCPU's evtchn_pending_sel and then evtchn_upcall_pending, and
 * the vCPU is interrupted with its upcall vector (hvm/irq.c) or woken if
 * it blocked.  A vCPU in SCHEDOP_poll on the port is woken even if the
 * port is masked.
 *
 * Every argument is checked where it enters: ports against the domain's
 * allocated range (-EINVAL), vCPU ids (-ENOENT), VIRQ numbers (-EINVAL),
 * domain ids (-ESRCH), other domains only for the control domain (-EPERM).
 *
 * Locking, as Xen's (docs/design.md "Locks and their order"):
 *  - d->event_lock (level 50) is held to allocate, bind, close and reset
 *    ports, to rebind a port to a vCPU, to switch the ABI and for the FIFO
 *    ABI's set-up.  An interdomain binding or close holds both domains'
 *    event_lock, the lower domain (by address, as Xen) first.
 *  - chn->lock (level 55) is held by anything that changes a channel's
 *    binding (under event_lock) and by the send and notification paths
 *    (EVTCHNOP_send, VIRQs, unmask), which take it alone: a port closed on
 *    one CPU while another sends on it is either still bound for the whole
 *    send or already closed.  An interdomain send holds only the sending
 *    channel's lock: its peer cannot be closed or rebound without it (both
 *    channels' locks, the lower address first, for bind and close).
 *  - A port is valid once its bucket is in place: valid_evtchns grows only
 *    after the bucket (smp_wmb), and readers check it first (smp_rmb).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/event_fifo.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <asm/bitops.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>

#define BITS_PER_EVTCHN_WORD (sizeof(xen_ulong_t) * 8)

bool evtchn_port_valid(const struct domain *d, unsigned int port)
{
    bool valid = port < ACCESS_ONCE(d->valid_evtchns);

    smp_rmb();                  /* the bucket before the count (get_free_port) */
    return valid;
}

struct evtchn *evtchn_from_port(const struct domain *d, unsigned int port)
{
    return &d->evtchn[port / EVTCHNS_PER_BUCKET][port % EVTCHNS_PER_BUCKET];
}

/* Ports the domain's ABI can name (Xen's max_evtchns()). */
static unsigned int max_evtchns(const struct domain *d)
{
    return d->evtchn_fifo ? EVTCHN_FIFO_NR_CHANNELS : EVTCHN_2L_MAX;
}

/* ---- the port ABI seam (Xen's evtchn_port_* wrappers) ------------------ */

/* Bound to something: the port ABI's operations apply (Xen's evtchn_usable). */
static bool evtchn_usable(const struct evtchn *chn)
{
    return chn->state > ECS_RESERVED;
}

static void evtchn_port_init(struct domain *d, struct evtchn *chn)
{
    if ( d->evtchn_port_ops->init )
        d->evtchn_port_ops->init(d, chn);
}

static void evtchn_port_set_pending(struct domain *d, unsigned int vcpu_id,
                                    struct evtchn *chn)
{
    struct vcpu *v = domain_vcpu(d, vcpu_id);

    if ( v && evtchn_usable(chn) )
        d->evtchn_port_ops->set_pending(v, chn);
}

static void evtchn_port_clear_pending(struct domain *d, struct evtchn *chn)
{
    if ( evtchn_usable(chn) )
        d->evtchn_port_ops->clear_pending(d, chn);
}

static void evtchn_port_unmask(struct domain *d, struct evtchn *chn)
{
    if ( evtchn_usable(chn) )
        d->evtchn_port_ops->unmask(d, chn);
}

/* A free port that may not be handed out again yet (FIFO: still LINKED). */
static bool evtchn_is_busy(const struct domain *d, const struct evtchn *chn)
{
    return d->evtchn_port_ops->is_busy && d->evtchn_port_ops->is_busy(d, chn);
}

static bool virq_is_global(unsigned int virq)
{
    switch ( virq )
    {
    case VIRQ_TIMER:
    case VIRQ_DEBUG:
    case VIRQ_XENOPROF:
    case VIRQ_XENPMU:
        return false;
    default:
        return true;
    }
}

/* The hypervisor wrote to the guest's shared_info: log-dirty must know. */
static void shared_info_written(struct domain *d)
{
    if ( paging_mode_log_dirty(d) && d->shared_info_gfn != INVALID_GFN )
        p2m_note_hypervisor_write(d, d->shared_info_gfn);
}

static void vcpu_info_written(struct vcpu *v)
{
    if ( v->vcpu_info_gfn != INVALID_GFN )
    {
        if ( paging_mode_log_dirty(v->domain) )
            p2m_note_hypervisor_write(v->domain, v->vcpu_info_gfn);
    }
    else
        shared_info_written(v->domain);
}

/* Buckets the domain may ever need under its current ABI. */
/*
 * Two channels' locks, the lower address first (Xen's double_evtchn_lock);
 * one if they are the same channel.
 */
static void double_evtchn_lock(struct evtchn *lchn, struct evtchn *rchn)
{
    if ( lchn > rchn )
        swap(lchn, rchn);
    spin_lock(&lchn->lock);
    if ( lchn != rchn )
        spin_lock_nested(&rchn->lock);
}

static void double_evtchn_unlock(struct evtchn *lchn, struct evtchn *rchn)
{
    if ( lchn != rchn )
        spin_unlock(&lchn->lock);
    spin_unlock(&rchn->lock);
}

/* Two domains' event_lock, the lower address first (Xen's evtchn_bind_interdomain). */
static void double_event_lock(struct domain *ld, struct domain *rd)
{
    if ( ld > rd )
        swap(ld, rd);
    spin_lock(&ld->event_lock);
    if ( ld != rd )
        spin_lock_nested(&rd->event_lock);
}

static void double_event_unlock(struct domain *ld, struct domain *rd)
{
    if ( ld != rd )
        spin_unlock(&ld->event_lock);
    spin_unlock(&rd->event_lock);
}

static unsigned int evtchn_buckets_needed(const struct domain *d)
{
    return DIV_ROUND_UP(min(max_evtchns(d), d->max_evtchn_port + 1), EVTCHNS_PER_BUCKET);
}

/*
 * Room for more bucket pointers: a domain starts with room for the
 * 2-level ABI's ports (or fewer, with a lower limit); a control domain
 * that switched to FIFO gets room for all of its ports the first time it
 * needs a bucket beyond (at most NR_EVTCHN_BUCKETS pointers, 16 KiB).
 */
static int evtchn_grow_buckets(struct domain *d)
{
    unsigned int nr = evtchn_buckets_needed(d);
    struct evtchn **table;

    if ( nr <= d->nr_evtchn_buckets )
        return -ENOSPC;
    table = domain_xzalloc_array(d, struct evtchn *, nr);
    if ( !table )
        return -ENOMEM;
    if ( d->evtchn )
        memcpy(table, d->evtchn, d->nr_evtchn_buckets * sizeof(*table));
    /*
     * A sender on another CPU may still be indexing the old table (it
     * holds no event_lock): keep it until the domain's end.  It is
     * replaced once at most (2-level's room, then all of FIFO's).
     */
    ASSERT(!d->evtchn_retired);
    xfree(d->evtchn_retired);
    d->evtchn_retired = d->evtchn;
    smp_wmb();                  /* the copied table before it is used */
    d->evtchn = table;
    d->nr_evtchn_buckets = nr;
    return 0;
}

/*
 * A free port of d, allocating a bucket if every one in use is taken
 * (Xen's get_free_port).  A freed port the ABI still uses (is_busy) is
 * skipped, as in Xen.  d->lowest_free_evtchn remembers where the search may
 * start: no port below it is free (beyond Xen, which scans from 0).
 */
static int get_free_port(struct domain *d)
{
    unsigned int limit = min(max_evtchns(d), d->max_evtchn_port + 1);
    unsigned int port, busy = 0, i;
    struct evtchn *bucket, *chn;
    int rc;

    ASSERT_SPINLOCK(&d->event_lock);
    for ( port = d->lowest_free_evtchn; port < d->valid_evtchns && port < limit; port++ )
    {
        chn = evtchn_from_port(d, port);
        if ( chn->state != ECS_FREE )
            continue;
        if ( !evtchn_is_busy(d, chn) )
            goto found;
        if ( !busy )
            busy = port;
    }
    if ( port >= limit )
    {
        d->lowest_free_evtchn = busy ?: port;
        return -ENOSPC;
    }
    if ( d->valid_evtchns / EVTCHNS_PER_BUCKET >= d->nr_evtchn_buckets &&
         (rc = evtchn_grow_buckets(d)) )
        return rc;
    /* Counted against the domain (xen/xmalloc.h). */
    bucket = domain_xzalloc_array(d, struct evtchn, EVTCHNS_PER_BUCKET);
    if ( !bucket )
        return -ENOMEM;
    for ( i = 0; i < EVTCHNS_PER_BUCKET; i++ )
    {
        spin_lock_init_level(&bucket[i].lock, "evtchn", LOCK_LEVEL_EVTCHN);
        bucket[i].port = d->valid_evtchns + i;
    }
    d->evtchn[d->valid_evtchns / EVTCHNS_PER_BUCKET] = bucket;
    port = d->valid_evtchns;
    smp_wmb();                  /* the bucket before the count (evtchn_port_valid) */
    ACCESS_ONCE(d->valid_evtchns) = port + EVTCHNS_PER_BUCKET;
 found:
    d->lowest_free_evtchn = busy ?: port + 1;
    d->active_evtchns++;            /* every caller binds the port it gets */
    return port;
}

/* The port is free again: the search for a free one may start there. */
static void evtchn_free(struct domain *d, struct evtchn *chn)
{
    ASSERT_SPINLOCK(&d->event_lock);
    ASSERT_SPINLOCK(&chn->lock);
    evtchn_port_clear_pending(d, chn);
    /* Port and last queue stay: FIFO must know where it was linked (Xen's too). */
    chn->state = ECS_FREE;
    chn->notify_vcpu_id = 0;
    chn->pending = false;
    d->active_evtchns--;
    memset(&chn->u, 0, sizeof(chn->u));
    if ( chn->port < d->lowest_free_evtchn )
        d->lowest_free_evtchn = chn->port;
}

int evtchn_init(struct domain *d)
{
    int rc = 0;

    /*
     * d->max_evtchn_port is createdomain's (domain_create): libxl's 1023
     * by default, and for the boot domains all the ABI allows for the
     * control domain, EVTCHN_DEFAULT_MAX_PORT for the others.
     */
    spin_lock_init_level(&d->event_lock, "event_lock", LOCK_LEVEL_EVENT);
    evtchn_2l_init(d);
    spin_lock(&d->event_lock);
    if ( evtchn_grow_buckets(d) || get_free_port(d) < 0 )  /* the first bucket */
        rc = -ENOMEM;
    else
    {
        evtchn_from_port(d, 0)->state = ECS_RESERVED;
        d->active_evtchns = 0;
    }
    spin_unlock(&d->event_lock);
    return rc;
}

/* ---- delivery (2-level) ------------------------------------------------- */

bool vcpu_events_pending(const struct vcpu *v)
{
    return *(volatile uint8_t *)&v->vcpu_info->evtchn_upcall_pending;
}

void vcpu_mark_events_pending(struct vcpu *v)
{
    uint8_t old = 1;

    asm volatile ( "xchgb %0, %1" : "+q" (old),
                   "+m" (v->vcpu_info->evtchn_upcall_pending) :: "memory" );
    vcpu_info_written(v);
    if ( old )
        return;
    hvm_assert_evtchn_irq(v);
}

bool evtchn_port_is_pending(struct domain *d, unsigned int port)
{
    const struct evtchn *chn;

    if ( !evtchn_port_valid(d, port) )
        return false;
    chn = evtchn_from_port(d, port);
    return evtchn_usable(chn) && d->evtchn_port_ops->is_pending(d, chn);
}

/* Wake vCPUs of d in SCHEDOP_poll on this port (or on several ports). */
void evtchn_check_pollers(struct domain *d, unsigned int port)
{
    struct vcpu *v;

    for_each_vcpu ( d, v )
        if ( v->is_polling && (v->poll_evtchn <= 0 || v->poll_evtchn == (int)port) )
            vcpu_wake(v);
}

/* ---- the 2-level ABI (Xen's event_2l.c) --------------------------------- */

static void evtchn_2l_set_pending(struct vcpu *v, struct evtchn *chn)
{
    struct domain *d = v->domain;
    struct shared_info *s = d->shared_info;
    unsigned int port = chn->port;

    /* Ports past 4096 exist only while FIFO is on (all closed by reset). */
    if ( unlikely(port >= EVTCHN_2L_MAX) )
    {
        ASSERT_UNREACHABLE();
        return;
    }
    if ( test_and_set_bit(port, s->evtchn_pending) )
        return;
    shared_info_written(d);
    if ( !test_bit(port, s->evtchn_mask) &&
         !test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                           &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
    evtchn_check_pollers(d, port);
}

static void evtchn_2l_clear_pending(struct domain *d, struct evtchn *chn)
{
    if ( unlikely(chn->port >= EVTCHN_2L_MAX) )
    {
        ASSERT_UNREACHABLE();
        return;
    }
    clear_bit(chn->port, d->shared_info->evtchn_pending);
    shared_info_written(d);
}

static void evtchn_2l_unmask(struct domain *d, struct evtchn *chn)
{
    struct shared_info *s = d->shared_info;
    struct vcpu *v = domain_vcpu(d, chn->notify_vcpu_id);
    unsigned int port = chn->port;

    if ( unlikely(port >= EVTCHN_2L_MAX) )
    {
        ASSERT_UNREACHABLE();
        return;
    }
    if ( test_and_clear_bit(port, s->evtchn_mask) &&
         test_bit(port, s->evtchn_pending) && v &&
         !test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                           &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
    shared_info_written(d);
}

static bool evtchn_2l_is_pending(const struct domain *d, const struct evtchn *chn)
{
    return chn->port < EVTCHN_2L_MAX &&
           test_bit(chn->port, d->shared_info->evtchn_pending);
}

static bool evtchn_2l_is_masked(const struct domain *d, const struct evtchn *chn)
{
    return chn->port >= EVTCHN_2L_MAX ||
           test_bit(chn->port, d->shared_info->evtchn_mask);
}

static void evtchn_2l_print_state(const struct domain *d, const struct evtchn *chn)
{
    printk("%c%c", evtchn_2l_is_pending(d, chn) ? 'P' : '-',
           evtchn_2l_is_masked(d, chn) ? 'M' : '-');
}

static const struct evtchn_port_ops evtchn_port_ops_2l = {
    .set_pending   = evtchn_2l_set_pending,
    .clear_pending = evtchn_2l_clear_pending,
    .unmask        = evtchn_2l_unmask,
    .is_pending    = evtchn_2l_is_pending,
    .is_masked     = evtchn_2l_is_masked,
    .print_state   = evtchn_2l_print_state,
};

void evtchn_2l_init(struct domain *d)
{
    d->evtchn_port_ops = &evtchn_port_ops_2l;
}

/* ---- VIRQs ----------------------------------------------------------------- */

/*
 * Raise the port a VIRQ was seen bound to, if it still is (it may have been
 * closed, and even rebound, on another CPU since virq_to_evtchn was read:
 * Xen's virq_lock, here a check under the channel's lock).
 */
static void send_virq_port(struct domain *d, unsigned int port, unsigned int virq)
{
    struct evtchn *chn;

    if ( !evtchn_port_valid(d, port) )
        return;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    if ( chn->state == ECS_VIRQ && chn->u.virq == virq )
        evtchn_port_set_pending(d, chn->notify_vcpu_id, chn);
    spin_unlock(&chn->lock);
}

void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq)
{
    unsigned int port;

    if ( virq >= NR_VIRQS || !(port = ACCESS_ONCE(v->virq_to_evtchn[virq])) )
        return;
    send_virq_port(v->domain, port, virq);
}

void send_guest_global_virq(struct domain *d, unsigned int virq)
{
    struct vcpu *v = domain_vcpu(d, 0);
    unsigned int port;

    if ( !v || virq >= NR_VIRQS || !(port = ACCESS_ONCE(v->virq_to_evtchn[virq])) )
        return;
    send_virq_port(d, port, virq);
}

void send_global_virq(unsigned int virq)
{
    struct domain *d = running_control_domain();

    if ( d )
        send_guest_global_virq(d, virq);
}

/* ---- the operations -------------------------------------------------------- */

static long evtchn_alloc_unbound(struct evtchn_alloc_unbound *alloc)
{
    struct domain *d = get_domain_by_any_id(alloc->dom);
    domid_t remote = alloc->remote_dom;
    struct evtchn *chn;
    int port;

    if ( !d )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    if ( remote == DOMID_SELF )
        remote = current->domain->domain_id;
    else if ( remote >= DOMID_FIRST_RESERVED )
        return -EINVAL;             /* no such domain can ever bind it */

    spin_lock(&d->event_lock);
    if ( (port = get_free_port(d)) < 0 )
        goto out;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_UNBOUND;
    chn->notify_vcpu_id = 0;
    chn->u.unbound.remote_domid = remote;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    alloc->port = port;
    port = 0;
 out:
    spin_unlock(&d->event_lock);
    return port;
}

static long evtchn_bind_interdomain(struct evtchn_bind_interdomain *bind)
{
    struct domain *ld = current->domain, *rd;
    unsigned int rport = bind->remote_port;
    struct evtchn *lchn, *rchn;
    int lport;

    if ( !(rd = get_domain_by_any_id(bind->remote_dom)) )
        return -ESRCH;

    double_event_lock(ld, rd);
    lport = -EINVAL;
    if ( !evtchn_port_valid(rd, rport) )
        goto out;
    rchn = evtchn_from_port(rd, rport);
    if ( rchn->state != ECS_UNBOUND || rchn->u.unbound.remote_domid != ld->domain_id )
        goto out;
    if ( (lport = get_free_port(ld)) < 0 )
        goto out;
    lchn = evtchn_from_port(ld, lport);

    double_evtchn_lock(lchn, rchn);
    lchn->state = ECS_INTERDOMAIN;
    lchn->notify_vcpu_id = 0;
    lchn->u.interdomain.remote_dom = rd->domain_id;
    lchn->u.interdomain.remote_port = rport;
    evtchn_port_init(ld, lchn);
    rchn->state = ECS_INTERDOMAIN;
    rchn->u.interdomain.remote_dom = ld->domain_id;
    rchn->u.interdomain.remote_port = lport;
    /* Sends to the unbound port were dropped: as Xen, notify once now. */
    evtchn_port_set_pending(ld, lchn->notify_vcpu_id, lchn);
    double_evtchn_unlock(lchn, rchn);

    bind->local_port = lport;
    lport = 0;
 out:
    double_event_unlock(ld, rd);
    return lport;
}

static long evtchn_bind_virq(struct evtchn_bind_virq *bind)
{
    struct domain *d = current->domain;
    unsigned int virq = bind->virq;
    struct evtchn *chn;
    struct vcpu *v;
    int port;

    if ( virq >= NR_VIRQS )
        return -EINVAL;
    if ( virq_is_global(virq) && bind->vcpu != 0 )
        return -EINVAL;
    if ( !(v = domain_vcpu(d, bind->vcpu)) )
        return -ENOENT;

    spin_lock(&d->event_lock);
    port = -EEXIST;
    if ( v->virq_to_evtchn[virq] )
        goto out;
    if ( (port = get_free_port(d)) < 0 )
        goto out;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_VIRQ;
    chn->notify_vcpu_id = v->vcpu_id;
    chn->u.virq = virq;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    /* Bound before it is published: send_virq_port() checks the binding. */
    ACCESS_ONCE(v->virq_to_evtchn[virq]) = port;
    bind->port = port;
    port = 0;
 out:
    spin_unlock(&d->event_lock);
    if ( !port && virq == VIRQ_CONSOLE )
        ns16550_start_poll();           /* serial input now has a taker */
    return port;
}

static long evtchn_bind_ipi(struct evtchn_bind_ipi *bind)
{
    struct domain *d = current->domain;
    struct evtchn *chn;
    int port;

    if ( !domain_vcpu(d, bind->vcpu) )
        return -ENOENT;

    spin_lock(&d->event_lock);
    if ( (port = get_free_port(d)) < 0 )
        goto out;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_IPI;
    chn->notify_vcpu_id = bind->vcpu;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    bind->port = port;
    port = 0;
 out:
    spin_unlock(&d->event_lock);
    return port;
}

/*
 * Close d1's port (Xen's evtchn_close).  An interdomain port's peer is
 * changed too, under its domain's event_lock: both domains' locks are
 * held in address order.  If the peer's domain is not the one whose lock
 * is held (the first look, or the port was closed and rebound meanwhile),
 * the locks are dropped and taken again with it, and the port looked at
 * anew, as Xen's "goto again".
 */
static long evtchn_close(struct domain *d1, unsigned int port1)
{
    struct domain *d2 = NULL, *peer;
    struct evtchn *chn1, *chn2;
    struct vcpu *v;
    long rc = 0;

 again:
    if ( d2 )
        double_event_lock(d1, d2);
    else
        spin_lock(&d1->event_lock);
    if ( !evtchn_port_valid(d1, port1) )
    {
        rc = -EINVAL;
        goto out;
    }
    chn1 = evtchn_from_port(d1, port1);

    switch ( chn1->state )
    {
    case ECS_FREE:
    case ECS_RESERVED:
        rc = -EINVAL;
        goto out;

    case ECS_UNBOUND:
    case ECS_IPI:
        break;

    case ECS_VIRQ:
        for_each_vcpu ( d1, v )
            if ( v->virq_to_evtchn[chn1->u.virq] == port1 )
                ACCESS_ONCE(v->virq_to_evtchn[chn1->u.virq]) = 0;
        break;

    case ECS_INTERDOMAIN:
        peer = get_domain_by_id(chn1->u.interdomain.remote_dom);
        if ( !d2 && peer && d1 <= peer )
        {
            /* Already in order: take the peer's after ours. */
            if ( peer != d1 )
                spin_lock_nested(&peer->event_lock);
            d2 = peer;
        }
        else if ( peer != d2 )
        {
            if ( d2 )
                double_event_unlock(d1, d2);
            else
                spin_unlock(&d1->event_lock);
            d2 = peer;
            goto again;
        }
        if ( !d2 )
            break;                  /* the peer's domain has gone */

        chn2 = NULL;
        if ( evtchn_port_valid(d2, chn1->u.interdomain.remote_port) )
            chn2 = evtchn_from_port(d2, chn1->u.interdomain.remote_port);
        if ( !chn2 || chn2->state != ECS_INTERDOMAIN ||
             chn2->u.interdomain.remote_dom != d1->domain_id ||
             chn2->u.interdomain.remote_port != port1 )
            break;

        /* The other end stays, unbound, waiting for us again. */
        double_evtchn_lock(chn1, chn2);
        evtchn_free(d1, chn1);
        chn2->state = ECS_UNBOUND;
        chn2->u.unbound.remote_domid = d1->domain_id;
        double_evtchn_unlock(chn1, chn2);
        goto out;
    }

    spin_lock(&chn1->lock);
    evtchn_free(d1, chn1);
    spin_unlock(&chn1->lock);

 out:
    if ( d2 )
        double_event_unlock(d1, d2);
    else
        spin_unlock(&d1->event_lock);
    return rc;
}

/*
 * Under the sending channel's lock: it stays bound as seen, and so does an
 * interdomain peer (closing or rebinding it takes both channels' locks).
 */
static long evtchn_send(struct domain *ld, unsigned int lport)
{
    struct evtchn *lchn, *rchn;
    struct domain *rd;
    unsigned int rport;
    long rc = 0;

    if ( !evtchn_port_valid(ld, lport) )
        return -EINVAL;
    lchn = evtchn_from_port(ld, lport);

    spin_lock(&lchn->lock);
    switch ( lchn->state )
    {
    case ECS_INTERDOMAIN:
        rd = get_domain_by_id(lchn->u.interdomain.remote_dom);
        rport = lchn->u.interdomain.remote_port;
        if ( rd && evtchn_port_valid(rd, rport) )
        {
            rchn = evtchn_from_port(rd, rport);
            evtchn_port_set_pending(rd, rchn->notify_vcpu_id, rchn);
        }
        break;
    case ECS_IPI:
        evtchn_port_set_pending(ld, lchn->notify_vcpu_id, lchn);
        break;
    case ECS_UNBOUND:
        break;                      /* nobody listens yet: dropped */
    default:
        rc = -EINVAL;
        break;
    }
    spin_unlock(&lchn->lock);
    return rc;
}

static long evtchn_status(struct evtchn_status *status)
{
    struct domain *d = get_domain_by_any_id(status->dom);
    unsigned int port = status->port;
    const struct evtchn *chn;

    if ( !d )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    spin_lock(&d->event_lock);
    if ( !evtchn_port_valid(d, port) )
    {
        spin_unlock(&d->event_lock);
        return -EINVAL;
    }
    chn = evtchn_from_port(d, port);

    memset(&status->u, 0, sizeof(status->u));
    switch ( chn->state )
    {
    case ECS_UNBOUND:
        status->status = EVTCHNSTAT_unbound;
        status->u.unbound.dom = chn->u.unbound.remote_domid;
        break;
    case ECS_INTERDOMAIN:
        status->status = EVTCHNSTAT_interdomain;
        status->u.interdomain.dom = chn->u.interdomain.remote_dom;
        status->u.interdomain.port = chn->u.interdomain.remote_port;
        break;
    case ECS_VIRQ:
        status->status = EVTCHNSTAT_virq;
        status->u.virq = chn->u.virq;
        break;
    case ECS_IPI:
        status->status = EVTCHNSTAT_ipi;
        break;
    default:
        status->status = EVTCHNSTAT_closed;
        break;
    }
    status->vcpu = chn->notify_vcpu_id;
    spin_unlock(&d->event_lock);
    return 0;
}

static long evtchn_bind_vcpu(unsigned int port, unsigned int vcpu_id)
{
    struct domain *d = current->domain;
    struct evtchn *chn;
    long rc = -EINVAL;

    if ( !domain_vcpu(d, vcpu_id) )
        return -ENOENT;

    spin_lock(&d->event_lock);
    if ( !evtchn_port_valid(d, port) )
        goto out;
    chn = evtchn_from_port(d, port);

    switch ( chn->state )
    {
    case ECS_VIRQ:
        if ( !virq_is_global(chn->u.virq) )
            break;
        /* fall through */
    case ECS_UNBOUND:
    case ECS_INTERDOMAIN:
        spin_lock(&chn->lock);
        chn->notify_vcpu_id = vcpu_id;
        spin_unlock(&chn->lock);
        rc = 0;
        break;
    default:
        break;
    }
 out:
    spin_unlock(&d->event_lock);
    return rc;
}

static long evtchn_unmask(unsigned int port)
{
    struct domain *d = current->domain;
    struct evtchn *chn;

    if ( !evtchn_port_valid(d, port) )
        return -EINVAL;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    evtchn_port_unmask(d, chn);
    spin_unlock(&chn->lock);
    return 0;
}

/*
 * Close every port and go back to the 2-level ABI (Xen's evtchn_reset).
 * Preemptible, as Xen: every 64 ports it may stop and be continued with
 * EVTCHNOP_reset_cont, d->next_evtchn remembering where.  A reset asked for
 * while one is under way is -EBUSY, and EVTCHNOP_reset_cont without one is
 * too.  Ports bound meanwhile (by another vCPU) below where it has got to
 * make it -EAGAIN, and the ABI stays as it is (Xen's).  Returns 0,
 * -ERESTART (continue), or -errno.
 */
static long evtchn_reset(struct domain *d, bool resuming)
{
    unsigned int port;
    long rc = 0;

    spin_lock(&d->event_lock);
    port = resuming ? d->next_evtchn : !d->next_evtchn;
    if ( !port )
    {
        spin_unlock(&d->event_lock);
        return -EBUSY;
    }
    d->next_evtchn = port;
    /* Each port is closed under the lock evtchn_close takes (Xen's). */
    spin_unlock(&d->event_lock);

    for ( ; evtchn_port_valid(d, port) && ACCESS_ONCE(d->active_evtchns); port++ )
    {
        if ( evtchn_from_port(d, port)->state != ECS_FREE )
            evtchn_close(d, port);
        if ( !(port & 0x3f) && hypercall_preempt_check() )
        {
            spin_lock(&d->event_lock);
            d->next_evtchn = port + 1;
            spin_unlock(&d->event_lock);
            return -ERESTART;
        }
    }

    spin_lock(&d->event_lock);
    d->next_evtchn = 0;
    if ( d->active_evtchns )
        rc = -EAGAIN;
    else if ( d->evtchn_fifo )
    {
        evtchn_fifo_destroy(d);
        evtchn_2l_init(d);
    }
    spin_unlock(&d->event_lock);
    return rc;
}

static long evtchn_reset_op(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct evtchn_reset r;
    struct domain *d;
    long rc;

    if ( copy_from_guest(&r, arg, 1) )
        return -EFAULT;
    if ( !(d = get_domain_by_any_id(r.dom)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    rc = evtchn_reset(d, cmd == EVTCHNOP_reset_cont);
    if ( rc == -ERESTART )
        rc = hypercall_create_continuation(__HYPERVISOR_event_channel_op, "ih",
                                           EVTCHNOP_reset_cont, arg);
    return rc;
}

/* Xen's evtchn_set_priority: bad port -EINVAL, 2-level -ENOSYS, unbound -EACCES. */
static long evtchn_set_priority(const struct evtchn_set_priority *sp)
{
    struct domain *d = current->domain;
    struct evtchn *chn;
    long rc;

    spin_lock(&d->event_lock);
    rc = -EINVAL;
    if ( !evtchn_port_valid(d, sp->port) )
        goto out;
    chn = evtchn_from_port(d, sp->port);
    rc = -ENOSYS;
    if ( !d->evtchn_port_ops->set_priority )
        goto out;
    rc = -EACCES;
    if ( !evtchn_usable(chn) )
        goto out;
    spin_lock(&chn->lock);
    rc = d->evtchn_port_ops->set_priority(d, chn, sp->priority);
    spin_unlock(&chn->lock);
 out:
    spin_unlock(&d->event_lock);
    return rc;
}

/* The FIFO ABI's set-up, under the caller's event_lock (Xen's). */
static long evtchn_init_control(struct evtchn_init_control *ic)
{
    struct domain *d = current->domain;
    long rc;

    spin_lock(&d->event_lock);
    rc = evtchn_fifo_init_control(ic);
    spin_unlock(&d->event_lock);
    return rc;
}

static long evtchn_expand_array(const struct evtchn_expand_array *ea)
{
    struct domain *d = current->domain;
    long rc;

    spin_lock(&d->event_lock);
    rc = evtchn_fifo_expand_array(ea);
    spin_unlock(&d->event_lock);
    return rc;
}

void evtchn_destroy(struct domain *d)
{
    unsigned int i;

    if ( !d->evtchn )
        return;
    if ( d->shared_info )
        for ( i = 1; i < d->valid_evtchns; i++ )
            if ( evtchn_from_port(d, i)->state != ECS_FREE )
                evtchn_close(d, i);
    spin_lock(&d->event_lock);
    evtchn_fifo_destroy(d);
    evtchn_2l_init(d);
    for ( i = 0; i < d->nr_evtchn_buckets; i++ )
        xfree(d->evtchn[i]);
    xfree(d->evtchn);
    xfree(d->evtchn_retired);
    d->evtchn = NULL;
    d->evtchn_retired = NULL;
    d->nr_evtchn_buckets = 0;
    d->valid_evtchns = 0;
    spin_unlock(&d->event_lock);
}

/* The 'q' debug key: a domain's ports in use, with the ABI's view of each (Xen's 'e'). */
void evtchn_dump(const struct domain *d)
{
    static const char *const states[] = {
        [ECS_UNBOUND] = "unbound", [ECS_INTERDOMAIN] = "interdomain",
        [ECS_VIRQ] = "virq", [ECS_IPI] = "ipi",
    };
    unsigned int port, shown = 0;
    const struct evtchn *chn;

    printk("  d%u event channels: %s ABI, %u bound, %u allocated, limit %u\n", d->domain_id,
           d->evtchn_fifo ? "FIFO" : "2-level", d->active_evtchns, d->valid_evtchns,
           min(max_evtchns(d), d->max_evtchn_port + 1));
    for ( port = 1; port < d->valid_evtchns && shown < d->active_evtchns; port++ )
    {
        chn = evtchn_from_port(d, port);
        if ( !evtchn_usable(chn) )
            continue;
        if ( ++shown > 32 )
        {
            printk("    ... %u more\n", d->active_evtchns - 32);
            break;
        }
        printk("    %6u %-11s v%u prio %2u ", port, states[chn->state], chn->notify_vcpu_id,
               chn->priority);
        d->evtchn_port_ops->print_state(d, chn);
        printk("\n");
    }
}

static const char *const evtchnop_names[] = {
    [EVTCHNOP_bind_pirq]     = "EVTCHNOP_bind_pirq",
};

/* Copy the op's argument in, run it, copy it back out if it succeeded. */
#define EVTCHN_OP(type, var, call) ({                               \
        type var;                                                   \
        long rc_;                                                   \
                                                                    \
        if ( copy_from_guest(&var, arg, 1) )                        \
            return -EFAULT;                                         \
        rc_ = (call);                                               \
        if ( !rc_ && copy_to_guest(arg, &var, 1) )                  \
            rc_ = -EFAULT;                                          \
        rc_;                                                        \
    })

/* The same for an argument that is only read (Xen copies nothing back). */
#define EVTCHN_OP_IN(type, var, call) ({                            \
        type var;                                                   \
                                                                    \
        if ( copy_from_guest(&var, arg, 1) )                        \
            return -EFAULT;                                         \
        (call);                                                     \
    })

long do_event_channel_op(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct domain *d = current->domain;

    switch ( cmd )
    {
    case EVTCHNOP_alloc_unbound:
        return EVTCHN_OP(struct evtchn_alloc_unbound, a, evtchn_alloc_unbound(&a));
    case EVTCHNOP_bind_interdomain:
        return EVTCHN_OP(struct evtchn_bind_interdomain, b, evtchn_bind_interdomain(&b));
    case EVTCHNOP_bind_virq:
        return EVTCHN_OP(struct evtchn_bind_virq, b, evtchn_bind_virq(&b));
    case EVTCHNOP_bind_ipi:
        return EVTCHN_OP(struct evtchn_bind_ipi, b, evtchn_bind_ipi(&b));
    case EVTCHNOP_close:
        return EVTCHN_OP(struct evtchn_close, c, evtchn_close(d, c.port));
    case EVTCHNOP_send:
        return EVTCHN_OP(struct evtchn_send, s, evtchn_send(d, s.port));
    case EVTCHNOP_status:
        return EVTCHN_OP(struct evtchn_status, s, evtchn_status(&s));
    case EVTCHNOP_bind_vcpu:
        return EVTCHN_OP(struct evtchn_bind_vcpu, b, evtchn_bind_vcpu(b.port, b.vcpu));
    case EVTCHNOP_unmask:
        return EVTCHN_OP(struct evtchn_unmask, u, evtchn_unmask(u.port));
    case EVTCHNOP_reset:
    case EVTCHNOP_reset_cont:
        return evtchn_reset_op(cmd, arg);
    case EVTCHNOP_init_control:
        return EVTCHN_OP(struct evtchn_init_control, c, evtchn_init_control(&c));
    case EVTCHNOP_expand_array:
        return EVTCHN_OP_IN(struct evtchn_expand_array, e, evtchn_expand_array(&e));
    case EVTCHNOP_set_priority:
        return EVTCHN_OP_IN(struct evtchn_set_priority, p, evtchn_set_priority(&p));
    default:
        return subop_enosys(__HYPERVISOR_event_channel_op, cmd,
                            cmd >= 0 && (unsigned int)cmd < ARRAY_SIZE(evtchnop_names)
                                       ? evtchnop_names[cmd] : NULL);
    }
}

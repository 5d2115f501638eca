/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels, 2-level ABI (Xen's common/event_channel.c and
 * event_2l.c).
 *
 * A domain has up to 4096 ports (64 words of 64 bits).  Port 0 is
 * reserved.  Sending on a port sets its bit in shared_info.evtchn_pending;
 * unless the port is masked (evtchn_mask) that sets the word's bit in the
 * notified vCPU's evtchn_pending_sel and then evtchn_upcall_pending, and
 * the vCPU is interrupted with its upcall vector (hvm/irq.c) or woken if
 * it blocked.  A vCPU in SCHEDOP_poll on the port is woken even if the
 * port is masked.  The FIFO ABI is not implemented: EVTCHNOP_init_control
 * fails with -ENOSYS and guests fall back to 2-level.
 *
 * Every argument is checked where it enters: ports against the domain's
 * allocated range (-EINVAL), vCPU ids (-ENOENT), VIRQ numbers (-EINVAL),
 * domain ids (-ESRCH), other domains only for the control domain (-EPERM).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/event.h>
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
    return port < d->valid_evtchns;
}

static struct evtchn *evtchn_from_port(const struct domain *d, unsigned int port)
{
    return &d->evtchn[port / EVTCHNS_PER_BUCKET][port % EVTCHNS_PER_BUCKET];
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

/* A free port of d, allocating a bucket if every one in use is taken. */
static int get_free_port(struct domain *d)
{
    unsigned int port;
    struct evtchn *bucket;

    for ( port = 1; port < d->valid_evtchns && port <= d->max_evtchn_port; port++ )
        if ( evtchn_from_port(d, port)->state == ECS_FREE )
            return port;
    /* Xen's bound: createdomain's max_evtchn_port (boot domUs: 1023). */
    if ( d->valid_evtchns >= MAX_EVTCHNS || d->valid_evtchns > d->max_evtchn_port )
        return -ENOSPC;
    /* Counted against the domain (xen/xmalloc.h). */
    bucket = domain_xzalloc_array(d, struct evtchn, EVTCHNS_PER_BUCKET);
    if ( !bucket )
        return -ENOMEM;
    d->evtchn[d->valid_evtchns / EVTCHNS_PER_BUCKET] = bucket;
    port = d->valid_evtchns;
    d->valid_evtchns += EVTCHNS_PER_BUCKET;
    return port;
}

int evtchn_init(struct domain *d)
{
    d->evtchn = domain_xzalloc_array(d, struct evtchn *, NR_EVTCHN_BUCKETS);
    if ( !d->evtchn )
        return -ENOMEM;
    if ( get_free_port(d) < 0 )     /* the first bucket */
        return -ENOMEM;
    evtchn_from_port(d, 0)->state = ECS_RESERVED;
    return 0;
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
    return evtchn_port_valid(d, port) &&
           test_bit(port, d->shared_info->evtchn_pending);
}

/* Wake vCPUs of d in SCHEDOP_poll on this port (or on several ports). */
static void evtchn_check_pollers(struct domain *d, unsigned int port)
{
    struct vcpu *v;

    for_each_vcpu ( d, v )
        if ( v->is_polling && (v->poll_evtchn <= 0 || v->poll_evtchn == (int)port) )
            vcpu_wake(v);
}

static void evtchn_2l_set_pending(struct domain *d, unsigned int vcpu_id,
                                  unsigned int port)
{
    struct shared_info *s = d->shared_info;
    struct vcpu *v = domain_vcpu(d, vcpu_id);

    if ( !v || test_and_set_bit(port, s->evtchn_pending) )
        return;
    shared_info_written(d);
    if ( !test_bit(port, s->evtchn_mask) &&
         !test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                           &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
    evtchn_check_pollers(d, port);
}

static void evtchn_2l_unmask(struct domain *d, unsigned int port)
{
    struct shared_info *s = d->shared_info;
    struct vcpu *v = domain_vcpu(d, evtchn_from_port(d, port)->notify_vcpu_id);

    if ( test_and_clear_bit(port, s->evtchn_mask) &&
         test_bit(port, s->evtchn_pending) && v &&
         !test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                           &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
    shared_info_written(d);
}

void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq)
{
    unsigned int port;

    if ( virq >= NR_VIRQS || !(port = v->virq_to_evtchn[virq]) )
        return;
    evtchn_2l_set_pending(v->domain, evtchn_from_port(v->domain, port)->notify_vcpu_id,
                          port);
}

void send_guest_global_virq(struct domain *d, unsigned int virq)
{
    struct vcpu *v = domain_vcpu(d, 0);
    unsigned int port;

    if ( !v || virq >= NR_VIRQS || !(port = v->virq_to_evtchn[virq]) )
        return;
    evtchn_2l_set_pending(d, evtchn_from_port(d, port)->notify_vcpu_id, port);
}

void send_global_virq(unsigned int virq)
{
    struct domain *d;

    for_each_domain ( d )
        if ( is_control_domain(d) && d->state == DOMSTATE_running )
        {
            send_guest_global_virq(d, virq);
            return;
        }
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
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    chn->state = ECS_UNBOUND;
    chn->notify_vcpu_id = 0;
    chn->u.unbound.remote_domid = remote;
    alloc->port = port;
    return 0;
}

static long evtchn_bind_interdomain(struct evtchn_bind_interdomain *bind)
{
    struct domain *ld = current->domain, *rd;
    unsigned int rport = bind->remote_port;
    struct evtchn *lchn, *rchn;
    int lport;

    if ( !(rd = get_domain_by_any_id(bind->remote_dom)) )
        return -ESRCH;
    if ( !evtchn_port_valid(rd, rport) )
        return -EINVAL;
    rchn = evtchn_from_port(rd, rport);
    if ( rchn->state != ECS_UNBOUND || rchn->u.unbound.remote_domid != ld->domain_id )
        return -EINVAL;
    if ( (lport = get_free_port(ld)) < 0 )
        return lport;
    lchn = evtchn_from_port(ld, lport);

    lchn->state = ECS_INTERDOMAIN;
    lchn->notify_vcpu_id = 0;
    lchn->u.interdomain.remote_dom = rd->domain_id;
    lchn->u.interdomain.remote_port = rport;
    rchn->state = ECS_INTERDOMAIN;
    rchn->u.interdomain.remote_dom = ld->domain_id;
    rchn->u.interdomain.remote_port = lport;

    /* Sends to the unbound port were dropped: as Xen, notify once now. */
    evtchn_2l_set_pending(ld, lchn->notify_vcpu_id, lport);
    bind->local_port = lport;
    return 0;
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
    if ( v->virq_to_evtchn[virq] )
        return -EEXIST;
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    chn->state = ECS_VIRQ;
    chn->notify_vcpu_id = v->vcpu_id;
    chn->u.virq = virq;
    v->virq_to_evtchn[virq] = port;
    bind->port = port;
    if ( virq == VIRQ_CONSOLE )
        ns16550_start_poll();           /* serial input now has a taker */
    return 0;
}

static long evtchn_bind_ipi(struct evtchn_bind_ipi *bind)
{
    struct domain *d = current->domain;
    struct evtchn *chn;
    int port;

    if ( !domain_vcpu(d, bind->vcpu) )
        return -ENOENT;
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    chn->state = ECS_IPI;
    chn->notify_vcpu_id = bind->vcpu;
    bind->port = port;
    return 0;
}

static long evtchn_close(struct domain *d, unsigned int port)
{
    struct evtchn *chn, *rchn;
    struct domain *rd;
    struct vcpu *v;

    if ( !evtchn_port_valid(d, port) )
        return -EINVAL;
    chn = evtchn_from_port(d, port);

    switch ( chn->state )
    {
    case ECS_FREE:
    case ECS_RESERVED:
        return -EINVAL;

    case ECS_UNBOUND:
    case ECS_IPI:
        break;

    case ECS_VIRQ:
        for_each_vcpu ( d, v )
            if ( v->virq_to_evtchn[chn->u.virq] == port )
                v->virq_to_evtchn[chn->u.virq] = 0;
        break;

    case ECS_INTERDOMAIN:
        /* The other end stays, unbound, waiting for us again. */
        rd = get_domain_by_id(chn->u.interdomain.remote_dom);
        if ( rd && evtchn_port_valid(rd, chn->u.interdomain.remote_port) )
        {
            rchn = evtchn_from_port(rd, chn->u.interdomain.remote_port);
            if ( rchn->state == ECS_INTERDOMAIN &&
                 rchn->u.interdomain.remote_dom == d->domain_id &&
                 rchn->u.interdomain.remote_port == port )
            {
                rchn->state = ECS_UNBOUND;
                rchn->u.unbound.remote_domid = d->domain_id;
            }
        }
        break;
    }

    clear_bit(port, d->shared_info->evtchn_pending);
    shared_info_written(d);
    memset(chn, 0, sizeof(*chn));
    chn->state = ECS_FREE;
    return 0;
}

static long evtchn_send(struct domain *ld, unsigned int lport)
{
    struct evtchn *lchn;
    struct domain *rd;
    unsigned int rport;

    if ( !evtchn_port_valid(ld, lport) )
        return -EINVAL;
    lchn = evtchn_from_port(ld, lport);

    switch ( lchn->state )
    {
    case ECS_INTERDOMAIN:
        rd = get_domain_by_id(lchn->u.interdomain.remote_dom);
        rport = lchn->u.interdomain.remote_port;
        if ( rd && evtchn_port_valid(rd, rport) )
            evtchn_2l_set_pending(rd, evtchn_from_port(rd, rport)->notify_vcpu_id,
                                  rport);
        return 0;
    case ECS_IPI:
        evtchn_2l_set_pending(ld, lchn->notify_vcpu_id, lport);
        return 0;
    case ECS_UNBOUND:
        return 0;                   /* nobody listens yet: dropped */
    default:
        return -EINVAL;
    }
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
    if ( !evtchn_port_valid(d, port) )
        return -EINVAL;
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
    return 0;
}

static long evtchn_bind_vcpu(unsigned int port, unsigned int vcpu_id)
{
    struct domain *d = current->domain;
    struct evtchn *chn;

    if ( !domain_vcpu(d, vcpu_id) )
        return -ENOENT;
    if ( !evtchn_port_valid(d, port) )
        return -EINVAL;
    chn = evtchn_from_port(d, port);

    switch ( chn->state )
    {
    case ECS_VIRQ:
        if ( !virq_is_global(chn->u.virq) )
            return -EINVAL;
        /* fall through */
    case ECS_UNBOUND:
    case ECS_INTERDOMAIN:
        chn->notify_vcpu_id = vcpu_id;
        return 0;
    default:
        return -EINVAL;
    }
}

static long evtchn_unmask(unsigned int port)
{
    struct domain *d = current->domain;

    if ( !evtchn_port_valid(d, port) )
        return -EINVAL;
    evtchn_2l_unmask(d, port);
    return 0;
}

static long evtchn_reset(domid_t dom)
{
    struct domain *d = get_domain_by_any_id(dom);
    unsigned int port;

    if ( !d )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    for ( port = 1; port < d->valid_evtchns; port++ )
        if ( evtchn_from_port(d, port)->state != ECS_FREE )
            evtchn_close(d, port);
    return 0;
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
    for ( i = 0; i < NR_EVTCHN_BUCKETS; i++ )
        xfree(d->evtchn[i]);
    xfree(d->evtchn);
    d->evtchn = NULL;
    d->valid_evtchns = 0;
}

static const char *const evtchnop_names[] = {
    [EVTCHNOP_bind_pirq]     = "EVTCHNOP_bind_pirq",
    [EVTCHNOP_init_control]  = "EVTCHNOP_init_control",
    [EVTCHNOP_expand_array]  = "EVTCHNOP_expand_array",
    [EVTCHNOP_set_priority]  = "EVTCHNOP_set_priority",
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
        return EVTCHN_OP(struct evtchn_reset, r, evtchn_reset(r.dom));
    default:
        return subop_enosys(__HYPERVISOR_event_channel_op, cmd,
                            cmd >= 0 && (unsigned int)cmd < ARRAY_SIZE(evtchnop_names)
                                       ? evtchnop_names[cmd] : NULL);
    }
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's hvm_op (HVM parameters) and event_channel_op
 * (ports the toolstack makes for a domain it builds), see fake.h.  The
 * caller is the control domain, domain 0: it may set and get any
 * parameter of any domain, and allocate ports in any domain.
 */
#include <inttypes.h>

#include <xen/event_channel.h>
#include <xen/hvm/hvm_op.h>

#include "fake_private.h"

/* HVMOP_set_param / get_param: Xen's errors for the index and the domain. */
static long hvm_param(unsigned long cmd, struct xen_hvm_param *a)
{
    struct fake_dom *d;
    int rc;

    if ( a->index >= HVM_NR_PARAMS )
        return -EINVAL;
    d = cmd == HVMOP_set_param ? fake_touch(a->domid) : fake_find(a->domid);
    if ( !d )
        return -ESRCH;
    if ( cmd == HVMOP_get_param )
    {
        a->value = d->params[a->index];
        return 0;
    }
    fake_log("set_param %u %u %#" PRIx64, a->domid, a->index, a->value);
    if ( (rc = fake_injected("set_param")) )
        return rc;
    if ( (a->index == HVM_PARAM_STORE_EVTCHN ||
          a->index == HVM_PARAM_CONSOLE_EVTCHN) && a->value >= FAKE_MAX_PORTS )
        return -EINVAL;
    d->params[a->index] = a->value;
    d->param_set[a->index] = true;
    return 0;
}

long fake_hvm_op(unsigned long cmd, void *arg)
{
    switch ( cmd )
    {
    case HVMOP_set_param:
    case HVMOP_get_param:
        return hvm_param(cmd, arg);
    default:
        return -ENOSYS;
    }
}

static struct fake_dom *evtchn_dom(domid_t id)
{
    return fake_touch(id == DOMID_SELF ? 0 : id);
}

/* EVTCHNOP_alloc_unbound: the lowest free port of 'dom' (port 0 is never used). */
static long alloc_unbound(struct evtchn_alloc_unbound *a)
{
    struct fake_dom *d = evtchn_dom(a->dom);
    unsigned int p;
    int rc;

    fake_log("alloc_unbound %u remote=%u", a->dom, a->remote_dom);
    if ( (rc = fake_injected("alloc_unbound")) )
        return rc;
    if ( !d || !evtchn_dom(a->remote_dom) )
        return -ESRCH;
    for ( p = 1; p < FAKE_MAX_PORTS && d->port_open[p]; p++ )
        ;
    if ( p == FAKE_MAX_PORTS )
        return -ENOSPC;
    d->port_open[p] = true;
    d->port_remote[p] = a->remote_dom == DOMID_SELF ? 0 : a->remote_dom;
    a->port = p;
    return 0;
}

static long status(struct evtchn_status *s)
{
    struct fake_dom *d = evtchn_dom(s->dom);

    if ( !d )
        return -ESRCH;
    if ( s->port >= FAKE_MAX_PORTS )
        return -EINVAL;
    s->vcpu = 0;
    if ( !d->port_open[s->port] )
    {
        s->status = EVTCHNSTAT_closed;
        return 0;
    }
    s->status = EVTCHNSTAT_unbound;
    s->u.unbound.dom = d->port_remote[s->port];
    return 0;
}

long fake_event_channel_op(unsigned long cmd, void *arg)
{
    switch ( cmd )
    {
    case EVTCHNOP_alloc_unbound:
        return alloc_unbound(arg);
    case EVTCHNOP_status:
        return status(arg);
    default:
        return -ENOSYS;
    }
}

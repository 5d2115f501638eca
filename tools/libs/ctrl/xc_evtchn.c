/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenctrl: event channels the toolstack makes for a domain it builds
 * (the xenstore and console ports), their status, and HVM parameters
 * (HVMOP_set_param / get_param).  Xen 4.17's xc_evtchn.c and the
 * xc_hvm_param_* of its xc_domain.c.
 */
#include "xc_private.h"

/* One event_channel_op with its argument bounced both ways. */
static int do_evtchn_op(xc_interface *xch, int cmd, void *arg, size_t size)
{
    DECLARE_HYPERCALL_BOUNCE(arg, size, XC_HYPERCALL_BUFFER_BOUNCE_BOTH);
    int rc;

    if ( xc_hypercall_bounce_pre(xch, arg) )
    {
        PERROR("do_evtchn_op: bouncing arg failed");
        return -1;
    }
    rc = xencall2(xch->xcall, __HYPERVISOR_event_channel_op, cmd,
                  HYPERCALL_BUFFER_AS_ARG(arg));
    if ( rc < 0 )
        ERROR("do_evtchn_op: HYPERVISOR_event_channel_op %d failed: %s", cmd,
              strerror(errno));
    xc_hypercall_bounce_post(xch, arg);
    return rc;
}

xc_evtchn_port_or_error_t xc_evtchn_alloc_unbound(xc_interface *xch, uint32_t dom,
                                                  uint32_t remote_dom)
{
    struct evtchn_alloc_unbound arg = {
        .dom = dom,
        .remote_dom = remote_dom,
    };
    int rc = do_evtchn_op(xch, EVTCHNOP_alloc_unbound, &arg, sizeof(arg));

    return rc == 0 ? (int)arg.port : rc;
}

int xc_evtchn_status(xc_interface *xch, xc_evtchn_status_t *status)
{
    return do_evtchn_op(xch, EVTCHNOP_status, status, sizeof(*status));
}

static int hvm_param(xc_interface *xch, unsigned int op, uint32_t dom,
                     uint32_t param, uint64_t *value)
{
    DECLARE_HYPERCALL_BUFFER(xen_hvm_param_t, arg);
    int rc;

    arg = xc_hypercall_buffer_alloc(xch, arg, sizeof(*arg));
    if ( !arg )
    {
        PERROR("Could not allocate memory for an HVM parameter");
        return -1;
    }
    arg->domid = dom;
    arg->index = param;
    arg->value = *value;
    rc = xencall2(xch->xcall, __HYPERVISOR_hvm_op, op,
                  HYPERCALL_BUFFER_AS_ARG(arg));
    if ( !rc )
        *value = arg->value;
    xc_hypercall_buffer_free(xch, arg);
    return rc;
}

int xc_hvm_param_set(xc_interface *handle, uint32_t dom, uint32_t param,
                     uint64_t value)
{
    return hvm_param(handle, HVMOP_set_param, dom, param, &value);
}

int xc_hvm_param_get(xc_interface *handle, uint32_t dom, uint32_t param,
                     uint64_t *value)
{
    *value = 0;
    return hvm_param(handle, HVMOP_get_param, dom, param, value);
}

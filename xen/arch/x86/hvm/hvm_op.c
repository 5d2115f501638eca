/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hvm_op (hypercall 34): HVM parameters, the event channel upcall vector
 * and the time.  (Xen has these in hvm.c; a file of their own here.)
 *
 * Parameters follow Xen's permission rules: the control domain may get
 * and set any parameter of any domain; a domain may set only
 * CALLBACK_IRQ, VM86_TSS(_SIZED), ACPI_IOPORTS_LOCATION,
 * VM_GENERATION_ID_ADDR, STORE_EVTCHN, CONSOLE_EVTCHN, X87_FIP_WIDTH of
 * its own and read those plus STORE_PFN, CONSOLE_PFN, ALTP2M; anything
 * else is -EPERM, another domain's parameters -EPERM, an index past
 * HVM_NR_PARAMS -EINVAL, an unknown domain -ESRCH.
 */
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <public/hvm/hvm_op.h>
#include <public/hvm/params.h>
#include <asm/hvm/hvm.h>

/* Vectors below 16 are exceptions, not interrupts. */
#define MIN_UPCALL_VECTOR 0x10

static bool guest_may_set(unsigned int index)
{
    switch ( index )
    {
    case HVM_PARAM_CALLBACK_IRQ:
    case HVM_PARAM_VM86_TSS:
    case HVM_PARAM_VM86_TSS_SIZED:
    case HVM_PARAM_ACPI_IOPORTS_LOCATION:
    case HVM_PARAM_VM_GENERATION_ID_ADDR:
    case HVM_PARAM_STORE_EVTCHN:
    case HVM_PARAM_CONSOLE_EVTCHN:
    case HVM_PARAM_X87_FIP_WIDTH:
        return true;
    default:
        return false;
    }
}

static bool guest_may_get(unsigned int index)
{
    switch ( index )
    {
    case HVM_PARAM_STORE_PFN:
    case HVM_PARAM_CONSOLE_PFN:
    case HVM_PARAM_ALTP2M:
        return true;
    default:
        return guest_may_set(index);
    }
}

/*
 * The callback.  The vector type is delivered (bypassing the local APIC).
 * The GSI type is accepted and recorded, as Xen does, but there is no
 * IO-APIC here to raise a GSI on: such a domain gets its events only
 * through per-vCPU upcall vectors.  Linux sets GSI 1 right after
 * HVMOP_set_evtchn_upcall_vector ("trick toolstack to think we are
 * enlightened") and, if that fails, gives up the per-vCPU vector and
 * takes the domain-wide vector type instead, without ever EOIing the
 * vector it had registered: refusing GSI 1 left 0xf3 in service in the
 * vLAPIC for good and dom0 without events or timers.  PCI INTx callbacks
 * (no PCI here) are refused.
 */
static int hvm_set_callback_via(struct domain *d, uint64_t via)
{
    unsigned int type = via >> 56;
    struct vcpu *v;

    if ( !via )
    {
        d->arch.hvm.callback_via_vector = 0;
        return 0;
    }
    switch ( type )
    {
    case HVM_PARAM_CALLBACK_TYPE_GSI:
        if ( via & ~(HVM_PARAM_CALLBACK_IRQ_TYPE_MASK | 0xff) )
            return -EINVAL;
        d->arch.hvm.callback_via_vector = 0;
        if ( !d->arch.hvm.callback_gsi_logged )
        {
            d->arch.hvm.callback_gsi_logged = true;
            printk(XENLOG_G_INFO "d%u: HVM_PARAM_CALLBACK_IRQ GSI %u recorded; no IO-APIC: "
                   "events reach vCPUs through their upcall vectors only (logged once)\n",
                   d->domain_id, (unsigned int)(via & 0xff));
        }
        return 0;
    case HVM_PARAM_CALLBACK_TYPE_VECTOR:
        break;
    default:
        return -EOPNOTSUPP;
    }
    if ( (via & 0xff) < MIN_UPCALL_VECTOR || (via & ~(HVM_PARAM_CALLBACK_IRQ_TYPE_MASK | 0xff)) )
        return -EINVAL;
    d->arch.hvm.callback_via_vector = via & 0xff;
    for_each_vcpu ( d, v )
        if ( vcpu_events_pending(v) )
            vcpu_kick(v);
    return 0;
}

static int hvm_set_param(struct domain *d, unsigned int index, uint64_t value)
{
    uint64_t *p = &d->arch.hvm.params[index];
    int rc;

    if ( d == current->domain && !guest_may_set(index) )
        return -EPERM;

    switch ( index )
    {
    case HVM_PARAM_CALLBACK_IRQ:
        if ( (rc = hvm_set_callback_via(d, value)) )
            return rc;
        break;
    case HVM_PARAM_STORE_EVTCHN:
    case HVM_PARAM_CONSOLE_EVTCHN:
        if ( value >= MAX_EVTCHNS )
            return -EINVAL;
        break;
    case HVM_PARAM_TIMER_MODE:
        if ( value > HVMPTM_one_missed_tick_pending )
            return -EINVAL;
        break;
    case HVM_PARAM_X87_FIP_WIDTH:
        if ( value != 0 && value != 4 && value != 8 )
            return -EINVAL;
        break;
    /* Set once: a second, different value is refused. */
    case HVM_PARAM_VIRIDIAN:
    case HVM_PARAM_IOREQ_SERVER_PFN:
    case HVM_PARAM_NR_IOREQ_SERVER_PAGES:
    case HVM_PARAM_ALTP2M:
    case HVM_PARAM_MCA_CAP:
        if ( *p && *p != value )
            return -EEXIST;
        break;
    }
    *p = value;
    return 0;
}

static long hvmop_param(unsigned long op, XEN_GUEST_HANDLE_PARAM(xen_hvm_param_t) arg)
{
    struct xen_hvm_param a;
    struct domain *d;
    long rc;

    if ( copy_from_guest(&a, arg, 1) )
        return -EFAULT;
    if ( a.index >= HVM_NR_PARAMS )
        return -EINVAL;
    if ( !(d = get_domain_by_any_id(a.domid)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;

    if ( op == HVMOP_set_param )
        return hvm_set_param(d, a.index, a.value);

    if ( d == current->domain && !guest_may_get(a.index) )
        return -EPERM;
    a.value = d->arch.hvm.params[a.index];
    rc = copy_to_guest(arg, &a, 1) ? -EFAULT : 0;
    return rc;
}

static long hvmop_set_evtchn_upcall_vector(
    XEN_GUEST_HANDLE_PARAM(xen_hvm_evtchn_upcall_vector_t) arg)
{
    struct xen_hvm_evtchn_upcall_vector op;
    struct vcpu *v;

    if ( copy_from_guest(&op, arg, 1) )
        return -EFAULT;
    if ( op.vector < MIN_UPCALL_VECTOR )
        return -EINVAL;
    if ( !(v = domain_vcpu(current->domain, op.vcpu)) )
        return -ENOENT;
    v->arch.hvm.evtchn_upcall_vector = op.vector;
    /* Anything already pending is delivered on the new vector. */
    if ( vcpu_events_pending(v) )
        hvm_assert_evtchn_irq(v);
    return 0;
}

/*
 * HVMOP_pagetable_dying: a guest telling the hypervisor that a page table
 * is going away, which only shadow paging can use.  As in Xen's hvm.c:
 * another domain's is -EOPNOTSUPP, and without shadow paging (every
 * domain here runs on HAP/EPT) the answer is -EINVAL, which is what Linux
 * probes for at boot (xen_hvm_init_mmu_ops: "HVMOP_pagetable_dying not
 * supported") and then never asks again.
 */
static long hvmop_pagetable_dying(
    XEN_GUEST_HANDLE_PARAM(xen_hvm_pagetable_dying_t) arg)
{
    struct xen_hvm_pagetable_dying a;
    struct domain *d;

    if ( copy_from_guest(&a, arg, 1) )
        return -EFAULT;
    if ( !(d = get_domain_by_any_id(a.domid)) )
        return -ESRCH;
    if ( d != current->domain )
        return -EOPNOTSUPP;
    return -EINVAL;                     /* HAP: nothing to unshadow */
}

static const char *const hvmop_names[] = {
    [HVMOP_flush_tlbs]               = "HVMOP_flush_tlbs",
    [HVMOP_pagetable_dying]          = "HVMOP_pagetable_dying",
    [HVMOP_xentrace]                 = "HVMOP_xentrace",
    [HVMOP_set_mem_access]           = "HVMOP_set_mem_access",
    [HVMOP_get_mem_access]           = "HVMOP_get_mem_access",
    [HVMOP_get_mem_type]             = "HVMOP_get_mem_type",
    [HVMOP_guest_request_vm_event]   = "HVMOP_guest_request_vm_event",
    [HVMOP_altp2m]                   = "HVMOP_altp2m",
};

long do_hvm_op(unsigned long op, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    switch ( op )
    {
    case HVMOP_set_param:
    case HVMOP_get_param:
        return hvmop_param(op, guest_handle_cast(arg, xen_hvm_param_t));

    case HVMOP_set_evtchn_upcall_vector:
        return hvmop_set_evtchn_upcall_vector(
            guest_handle_cast(arg, xen_hvm_evtchn_upcall_vector_t));

    case HVMOP_pagetable_dying:
        return hvmop_pagetable_dying(
            guest_handle_cast(arg, xen_hvm_pagetable_dying_t));

    case HVMOP_get_time:
    {
        struct xen_hvm_get_time gt = { .now = NOW() };

        return copy_to_guest(arg, &gt, 1) ? -EFAULT : 0;
    }

    default:
        return subop_enosys(__HYPERVISOR_hvm_op, op,
                            op < ARRAY_SIZE(hvmop_names) ? hvmop_names[op] : NULL);
    }
}

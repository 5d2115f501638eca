/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's event machinery from a guest test kernel (see events.h).
 *
 * The upcall handler is Linux's 2-level scan: clear evtchn_upcall_pending,
 * take evtchn_pending_sel, and for each word the pending-and-unmasked
 * ports, clearing each port's pending bit before counting it; or, on a
 * vCPU with a FIFO control block, Linux's FIFO consumer (events_fifo.c).
 */
#include "test.h"
#include "events.h"
#include "public/arch-x86/cpuid.h"

struct shared_info *shared_info;
struct vcpu_info *vcpu_info[GUEST_MAX_VCPUS];
volatile unsigned long upcall_count[GUEST_MAX_VCPUS];
volatile unsigned long port_events[MAX_TEST_PORTS];

/* The guest frame XENMEM_add_to_physmap replaces with shared_info. */
static uint8_t shared_info_frame[PAGE_SIZE] __aligned(PAGE_SIZE);
/* vcpu_info areas of our own, one page, each 64 bytes at an odd offset. */
static uint8_t vcpu_info_frame[PAGE_SIZE] __aligned(PAGE_SIZE);
#define VCPU_INFO_OFFSET(id) (64 + (id) * 128)

domid_t cpuid_domid(void)
{
    struct cpuid_leaf l;

    cpuid(xen_cpuid_base + 4, &l);
    return (l.a & XEN_HVM_CPUID_DOMID_PRESENT) ? (domid_t)l.c : DOMID_INVALID;
}

long hypercall_memory_op(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_memory_op, cmd, (unsigned long)arg, 0, 0, 0);
}

long hypercall_event_channel_op(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_event_channel_op, cmd, (unsigned long)arg,
                      0, 0, 0);
}

long hypercall_hvm_op(unsigned int op, void *arg)
{
    return hypercall6(__HYPERVISOR_hvm_op, op, (unsigned long)arg, 0, 0, 0);
}

long map_shared_info(void)
{
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF,
        .space = XENMAPSPACE_shared_info,
        .idx = 0,
        .gpfn = (unsigned long)shared_info_frame >> PAGE_SHIFT,
    };
    long rc = hypercall_memory_op(XENMEM_add_to_physmap, &xatp);
    unsigned int i;

    if ( rc )
        return rc;
    shared_info = (struct shared_info *)shared_info_frame;
    for ( i = 0; i < GUEST_MAX_VCPUS; i++ )
        if ( !vcpu_info[i] )
            vcpu_info[i] = &shared_info->vcpu_info[i];
    return 0;
}

long register_vcpu_info(unsigned int id)
{
    struct vcpu_register_vcpu_info info = {
        .mfn = (unsigned long)vcpu_info_frame >> PAGE_SHIFT,
        .offset = VCPU_INFO_OFFSET(id),
    };
    long rc = hypercall_vcpu_op(VCPUOP_register_vcpu_info, id, &info);

    if ( !rc )
        vcpu_info[id] = (struct vcpu_info *)(vcpu_info_frame + info.offset);
    return rc;
}

/* The xAPIC page (identity-mapped); the per-vCPU vector is a local APIC interrupt. */
#define LAPIC_SVR   ((volatile uint32_t *)0xfee000f0UL)
#define LAPIC_EOI   ((volatile uint32_t *)0xfee000b0UL)
static bool upcall_via_lapic[GUEST_MAX_VCPUS];

long setup_upcall_vector(unsigned int id)
{
    struct xen_hvm_evtchn_upcall_vector op = { .vcpu = id, .vector = UPCALL_VECTOR };
    long rc;

    set_intr_gate(UPCALL_VECTOR, evtchn_upcall_entry);
    /* As Linux: the local APIC software-enabled (the vector is delivered through it). */
    if ( id == smp_processor_id() )
        *LAPIC_SVR |= 0x100;
    rc = hypercall_hvm_op(HVMOP_set_evtchn_upcall_vector, &op);
    if ( !rc && id < GUEST_MAX_VCPUS )
        upcall_via_lapic[id] = true;
    return rc;
}

void set_upcall_eoi(unsigned int id, bool eoi)
{
    if ( id < GUEST_MAX_VCPUS )
        upcall_via_lapic[id] = eoi;
}

void do_evtchn_upcall(void);
void do_evtchn_upcall(void)
{
    unsigned int cpu = smp_processor_id();
    struct vcpu_info *vi = vcpu_info[cpu];

    upcall_count[cpu]++;
    /* The per-vCPU vector is acknowledged at the local APIC, as Linux does. */
    if ( upcall_via_lapic[cpu] )
        *LAPIC_EOI = 0;
    if ( vi && fifo_control_block[cpu] )
    {
        /* Linux's __xen_evtchn_do_upcall with the FIFO ABI. */
        do {
            __atomic_store_n(&vi->evtchn_upcall_pending, 0, __ATOMIC_SEQ_CST);
            fifo_consume(cpu);
        } while ( __atomic_load_n(&vi->evtchn_upcall_pending, __ATOMIC_ACQUIRE) );
        return;
    }
    if ( !vi || !shared_info )
        return;
    while ( __atomic_load_n(&vi->evtchn_upcall_pending, __ATOMIC_ACQUIRE) )
    {
        xen_ulong_t sel;

        vi->evtchn_upcall_pending = 0;
        sel = __atomic_exchange_n(&vi->evtchn_pending_sel, 0, __ATOMIC_SEQ_CST);
        while ( sel )
        {
            unsigned int w = __builtin_ctzl(sel);
            xen_ulong_t bits;

            sel &= sel - 1;
            bits = shared_info->evtchn_pending[w] & ~shared_info->evtchn_mask[w];
            while ( bits )
            {
                unsigned int b = __builtin_ctzl(bits), port = w * 64 + b;

                bits &= bits - 1;
                __atomic_and_fetch(&shared_info->evtchn_pending[w], ~(1UL << b),
                                   __ATOMIC_SEQ_CST);
                if ( port < MAX_TEST_PORTS )
                    port_events[port]++;
            }
        }
    }
}

uint64_t xen_system_time(void)
{
    const volatile struct vcpu_time_info *t = &vcpu_info[smp_processor_id()]->time;
    uint32_t version;
    uint64_t delta, ns;

    do {
        version = t->version;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        delta = rdtsc() - t->tsc_timestamp;
        if ( t->tsc_shift < 0 )
            delta >>= -t->tsc_shift;
        else
            delta <<= t->tsc_shift;
        ns = t->system_time +
             (uint64_t)(((unsigned __int128)delta * t->tsc_to_system_mul) >> 32);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    } while ( (version & 1) || version != t->version );
    return ns;
}

long evtchn_alloc_unbound(domid_t dom, domid_t remote, evtchn_port_t *port)
{
    struct evtchn_alloc_unbound op = { .dom = dom, .remote_dom = remote };
    long rc = hypercall_event_channel_op(EVTCHNOP_alloc_unbound, &op);

    if ( !rc && port )
        *port = op.port;
    return rc;
}

long evtchn_bind_interdomain(domid_t remote, evtchn_port_t rport,
                             evtchn_port_t *port)
{
    struct evtchn_bind_interdomain op = { .remote_dom = remote, .remote_port = rport };
    long rc = hypercall_event_channel_op(EVTCHNOP_bind_interdomain, &op);

    if ( !rc && port )
        *port = op.local_port;
    return rc;
}

long evtchn_bind_virq(uint32_t virq, uint32_t vcpu, evtchn_port_t *port)
{
    struct evtchn_bind_virq op = { .virq = virq, .vcpu = vcpu };
    long rc = hypercall_event_channel_op(EVTCHNOP_bind_virq, &op);

    if ( !rc && port )
        *port = op.port;
    return rc;
}

long evtchn_bind_ipi(uint32_t vcpu, evtchn_port_t *port)
{
    struct evtchn_bind_ipi op = { .vcpu = vcpu };
    long rc = hypercall_event_channel_op(EVTCHNOP_bind_ipi, &op);

    if ( !rc && port )
        *port = op.port;
    return rc;
}

long evtchn_send(evtchn_port_t port)
{
    struct evtchn_send op = { .port = port };

    return hypercall_event_channel_op(EVTCHNOP_send, &op);
}

long evtchn_close(evtchn_port_t port)
{
    struct evtchn_close op = { .port = port };

    return hypercall_event_channel_op(EVTCHNOP_close, &op);
}

long evtchn_unmask(evtchn_port_t port)
{
    struct evtchn_unmask op = { .port = port };

    return hypercall_event_channel_op(EVTCHNOP_unmask, &op);
}

long evtchn_bind_vcpu(evtchn_port_t port, uint32_t vcpu)
{
    struct evtchn_bind_vcpu op = { .port = port, .vcpu = vcpu };

    return hypercall_event_channel_op(EVTCHNOP_bind_vcpu, &op);
}

long evtchn_status(domid_t dom, evtchn_port_t port, struct evtchn_status *st)
{
    st->dom = dom;
    st->port = port;
    return hypercall_event_channel_op(EVTCHNOP_status, st);
}

void evtchn_ack_upcall(void)
{
    struct vcpu_info *vi = vcpu_info[smp_processor_id()];

    __atomic_store_n(&vi->evtchn_upcall_pending, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&vi->evtchn_pending_sel, 0, __ATOMIC_SEQ_CST);
}

void evtchn_mask(evtchn_port_t port)
{
    __atomic_or_fetch(&shared_info->evtchn_mask[port / 64], 1UL << (port % 64),
                      __ATOMIC_SEQ_CST);
}

bool evtchn_pending(evtchn_port_t port)
{
    return (__atomic_load_n(&shared_info->evtchn_pending[port / 64], __ATOMIC_ACQUIRE)
            >> (port % 64)) & 1;
}

void evtchn_clear(evtchn_port_t port)
{
    __atomic_and_fetch(&shared_info->evtchn_pending[port / 64], ~(1UL << (port % 64)),
                       __ATOMIC_SEQ_CST);
}

long hvm_get_param(domid_t dom, uint32_t index, uint64_t *value)
{
    struct xen_hvm_param p = { .domid = dom, .index = index };
    long rc = hypercall_hvm_op(HVMOP_get_param, &p);

    if ( !rc && value )
        *value = p.value;
    return rc;
}

long hvm_set_param(domid_t dom, uint32_t index, uint64_t value)
{
    struct xen_hvm_param p = { .domid = dom, .index = index, .value = value };

    return hypercall_hvm_op(HVMOP_set_param, &p);
}

long set_singleshot_timer(uint64_t abs_ns, uint32_t flags)
{
    struct vcpu_set_singleshot_timer t = { .timeout_abs_ns = abs_ns, .flags = flags };

    return hypercall_vcpu_op(VCPUOP_set_singleshot_timer, smp_processor_id(), &t);
}

long stop_singleshot_timer(void)
{
    return hypercall_vcpu_op(VCPUOP_stop_singleshot_timer, smp_processor_id(), NULL);
}

long sched_block(void)
{
    return hypercall_sched_op(SCHEDOP_block, NULL);
}

long sched_poll(evtchn_port_t *ports, unsigned int nr, uint64_t timeout)
{
    struct sched_poll p = { .nr_ports = nr, .timeout = timeout };

    p.ports.p = ports;
    return hypercall_sched_op(SCHEDOP_poll, &p);
}

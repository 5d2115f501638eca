/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channel operations of the 2-level ABI and their error paths:
 *
 *   expand_array before init_control: -EOPNOTSUPP; set_priority: -ENOSYS
 *     (2-level has no priorities); an unknown sub-op: -ENOSYS, logged once
 *   bind_virq: VIRQ number, global VIRQ on vCPU 1, unknown vCPU, twice
 *   bind_ipi, alloc_unbound (bad domain, reserved remote domain),
 *   bind_interdomain (loopback through our own domain: the new local port
 *     is notified at once, as in Xen; bad remote port / domain / state),
 *   send on each kind of port, close (the peer becomes unbound), status of
 *   every kind, bind_vcpu, unmask, invalid ports everywhere
 *   the port space: exactly 4095 usable ports, then -ENOSPC
 *   reset: every port closed, VIRQs bindable again
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Event channel operations";

#define BAD_PORT   5000                 /* past the 4096 of the 2-level ABI */
#define NO_DOMAIN  0x7000

/* The FIFO ABI's operations while the domain is 2-level (tests/evtchn-fifo has the rest). */
static void test_fifo_ops_2l(void)
{
    struct evtchn_expand_array ea = { .array_gfn = 0x100 };
    evtchn_port_t p;

    printk("FIFO operations under the 2-level ABI:\n");
    check_rc("EVTCHNOP_expand_array before init_control",
             hypercall_event_channel_op(EVTCHNOP_expand_array, &ea), -XEN_EOPNOTSUPP);
    check_rc("bind_ipi for set_priority", evtchn_bind_ipi(0, &p), 0);
    check_rc("EVTCHNOP_set_priority (2-level has none)", evtchn_set_priority(p, 3), -XEN_ENOSYS);
    check_rc("EVTCHNOP_set_priority, bad port", evtchn_set_priority(BAD_PORT, 3), -XEN_EINVAL);
    check_rc("close it", evtchn_close(p), 0);
    check_rc("unknown sub-op 99", hypercall_event_channel_op(99, &ea), -XEN_ENOSYS);
}

static void expect_status(const char *what, evtchn_port_t port, uint32_t status,
                          uint32_t vcpu, uint32_t u0, uint32_t u1)
{
    struct evtchn_status st;
    long rc = evtchn_status(DOMID_SELF, port, &st);
    bool ok = !rc && st.status == status && st.vcpu == vcpu;

    if ( ok && status == EVTCHNSTAT_unbound )
        ok = st.u.unbound.dom == u0;
    if ( ok && status == EVTCHNSTAT_interdomain )
        ok = st.u.interdomain.dom == u0 && st.u.interdomain.port == u1;
    if ( ok && status == EVTCHNSTAT_virq )
        ok = st.u.virq == u0;
    if ( ok )
        printk("  ok   status of %s: %u\n", what, st.status);
    else
        xtf_failure("Fail: status of %s: rc %ld status %u vcpu %u (expected %u vcpu %u)\n",
                    what, rc, st.status, st.vcpu, status, vcpu);
}

void test_main(void)
{
    evtchn_port_t virq_port, ipi_port, a, b, p;
    struct evtchn_status st;
    unsigned int n, i;
    domid_t self;
    long rc;

    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    self = cpuid_domid();
    test_fifo_ops_2l();

    printk("bind_virq:\n");
    check_rc("VIRQ NR_VIRQS", evtchn_bind_virq(NR_VIRQS, 0, NULL), -XEN_EINVAL);
    check_rc("global VIRQ_DOM_EXC on vCPU 1", evtchn_bind_virq(VIRQ_DOM_EXC, 1, NULL),
             -XEN_EINVAL);
    check_rc("VIRQ_TIMER on vCPU 99", evtchn_bind_virq(VIRQ_TIMER, 99, NULL), -XEN_ENOENT);
    check_rc("VIRQ_TIMER on vCPU 0", evtchn_bind_virq(VIRQ_TIMER, 0, &virq_port), 0);
    check_rc("VIRQ_TIMER on vCPU 0 again", evtchn_bind_virq(VIRQ_TIMER, 0, NULL), -XEN_EEXIST);
    check_true("port 0 is never handed out", virq_port != 0);
    expect_status("the VIRQ port", virq_port, EVTCHNSTAT_virq, 0, VIRQ_TIMER, 0);

    printk("bind_ipi:\n");
    check_rc("IPI to vCPU 99", evtchn_bind_ipi(99, NULL), -XEN_ENOENT);
    check_rc("IPI to vCPU 0", evtchn_bind_ipi(0, &ipi_port), 0);
    expect_status("the IPI port", ipi_port, EVTCHNSTAT_ipi, 0, 0, 0);
    check_rc("send IPI", evtchn_send(ipi_port), 0);
    check_true("IPI port pending", evtchn_pending(ipi_port));
    evtchn_clear(ipi_port);

    printk("alloc_unbound / bind_interdomain (loopback):\n");
    check_rc("alloc_unbound in domain 0x7000", evtchn_alloc_unbound(NO_DOMAIN, DOMID_SELF, NULL),
             -XEN_ESRCH);
    check_rc("alloc_unbound for DOMID_IO", evtchn_alloc_unbound(DOMID_SELF, DOMID_IO, NULL),
             -XEN_EINVAL);
    check_rc("alloc_unbound for ourselves", evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &a), 0);
    expect_status("the unbound port", a, EVTCHNSTAT_unbound, 0, self, 0);
    check_rc("send on an unbound port (dropped)", evtchn_send(a), 0);
    check_true("nothing pending after it", !evtchn_pending(a));
    check_rc("bind_interdomain, domain 0x7000", evtchn_bind_interdomain(NO_DOMAIN, a, NULL),
             -XEN_ESRCH);
    check_rc("bind_interdomain, bad port", evtchn_bind_interdomain(DOMID_SELF, BAD_PORT, NULL),
             -XEN_EINVAL);
    check_rc("bind_interdomain to an IPI port",
             evtchn_bind_interdomain(DOMID_SELF, ipi_port, NULL), -XEN_EINVAL);
    check_rc("bind_interdomain to the unbound port", evtchn_bind_interdomain(DOMID_SELF, a, &b), 0);
    check_true("the new local port is notified at once", evtchn_pending(b));
    evtchn_clear(b);
    expect_status("end a", a, EVTCHNSTAT_interdomain, 0, self, b);
    expect_status("end b", b, EVTCHNSTAT_interdomain, 0, self, a);
    check_rc("bind_interdomain to a bound port", evtchn_bind_interdomain(DOMID_SELF, a, NULL),
             -XEN_EINVAL);
    check_rc("send a -> b", evtchn_send(a), 0);
    check_true("b pending, a not", evtchn_pending(b) && !evtchn_pending(a));
    check_rc("send b -> a", evtchn_send(b), 0);
    check_true("a pending", evtchn_pending(a));
    evtchn_clear(a);
    evtchn_clear(b);

    printk("bind_vcpu / unmask:\n");
    check_rc("bind_vcpu, vCPU 99", evtchn_bind_vcpu(a, 99), -XEN_ENOENT);
    check_rc("bind_vcpu, bad port", evtchn_bind_vcpu(BAD_PORT, 0), -XEN_EINVAL);
    check_rc("bind_vcpu of an IPI port", evtchn_bind_vcpu(ipi_port, 0), -XEN_EINVAL);
    check_rc("bind_vcpu of a per-vCPU VIRQ", evtchn_bind_vcpu(virq_port, 0), -XEN_EINVAL);
    check_rc("bind_vcpu of an interdomain port", evtchn_bind_vcpu(a, 0), 0);
    check_rc("unmask, bad port", evtchn_unmask(BAD_PORT), -XEN_EINVAL);
    evtchn_mask(b);
    evtchn_ack_upcall();
    check_rc("send to masked b", evtchn_send(a), 0);
    check_true("masked b is pending, no upcall asked",
               evtchn_pending(b) && !vcpu_info[0]->evtchn_pending_sel &&
               !vcpu_info[0]->evtchn_upcall_pending);
    check_rc("unmask b", evtchn_unmask(b), 0);
    check_true("unmasking a pending port raises the upcall",
               vcpu_info[0]->evtchn_upcall_pending &&
               (vcpu_info[0]->evtchn_pending_sel & (1UL << (b / 64))));
    evtchn_clear(b);
    evtchn_ack_upcall();

    printk("send / close / status errors:\n");
    check_rc("send on port 0", evtchn_send(0), -XEN_EINVAL);
    check_rc("send on a bad port", evtchn_send(BAD_PORT), -XEN_EINVAL);
    check_rc("send on a VIRQ port", evtchn_send(virq_port), -XEN_EINVAL);
    check_rc("close port 0", evtchn_close(0), -XEN_EINVAL);
    check_rc("close a bad port", evtchn_close(BAD_PORT), -XEN_EINVAL);
    check_rc("status of a bad port", evtchn_status(DOMID_SELF, BAD_PORT, &st), -XEN_EINVAL);
    check_rc("status in domain 0x7000", evtchn_status(NO_DOMAIN, a, &st), -XEN_ESRCH);
    check_rc("close b", evtchn_close(b), 0);
    expect_status("a after b closed: unbound, for us", a, EVTCHNSTAT_unbound, 0, self, 0);
    expect_status("b after close", b, EVTCHNSTAT_closed, 0, 0, 0);
    check_rc("close b again", evtchn_close(b), -XEN_EINVAL);
    check_rc("send on closed b", evtchn_send(b), -XEN_EINVAL);
    check_rc("bind again to a", evtchn_bind_interdomain(DOMID_SELF, a, &b), 0);
    check_rc("close the VIRQ port", evtchn_close(virq_port), 0);
    check_rc("VIRQ_TIMER can be bound again", evtchn_bind_virq(VIRQ_TIMER, 0, &virq_port), 0);

    printk("The port space:\n");
    for ( n = 0; n < 5000; n++ )
    {
        rc = evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &p);
        if ( rc )
            break;
    }
    /* 4096 ports, port 0 reserved, 4 in use (virq, ipi, a, b). */
    check_rc("allocation after the last port", rc, -XEN_ENOSPC);
    check_true("exactly 4091 more ports were free", n == 4096 - 1 - 4);
    printk("  %u ports allocated before -ENOSPC\n", n);
    for ( i = 1; i < 4096; i++ )
        if ( i != virq_port && i != ipi_port && i != a && i != b && evtchn_close(i) )
            xtf_failure("Fail: closing port %u\n", i);
    check_rc("a port is free again", evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &p), 0);

    printk("reset:\n");
    {
        struct evtchn_reset r = { .dom = NO_DOMAIN };

        check_rc("reset domain 0x7000", hypercall_event_channel_op(EVTCHNOP_reset, &r),
                 -XEN_ESRCH);
        r.dom = DOMID_SELF;
        check_rc("reset ourselves", hypercall_event_channel_op(EVTCHNOP_reset, &r), 0);
    }
    expect_status("the VIRQ port after reset", virq_port, EVTCHNSTAT_closed, 0, 0, 0);
    expect_status("end a after reset", a, EVTCHNSTAT_closed, 0, 0, 0);
    check_rc("VIRQ_TIMER can be bound after reset", evtchn_bind_virq(VIRQ_TIMER, 0, NULL), 0);
}

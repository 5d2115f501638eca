/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO event channel ABI (EVTCHNOP_init_control, expand_array,
 * set_priority) as Xen implements it and Linux uses it.  Run as the
 * control domain (all 2^17 ports) with 2 vCPUs, beside a witness.
 *
 *   init_control's errors before any success (no such vCPU, offset past
 *     the page or misaligned, frames that are not our RAM, an unreadable
 *     argument), each followed by what XSA-188 was about: expand_array
 *     still -EOPNOTSUPP, the domain still 2-level
 *   the switch: ports bound under 2-level carried over, one pending
 *     raised once its event word exists; link_bits 17; a vCPU initialised
 *     twice -EINVAL; vCPU 1's block at the last aligned offset, set up
 *     while it is down
 *   delivery order: IPI, interdomain (loopback) and VIRQ_TIMER ports at
 *     priorities 0, 3, 7 and 10, sent out of order, come out highest
 *     priority first, FIFO within one (HEAD, LINK and READY checked);
 *     the upcall through the vector on vCPU 1
 *   masking: a masked port stays pending and unlinked with no upcall;
 *     unmasking (Linux's way: EVTCHNOP_unmask when pending) links it;
 *     SCHEDOP_poll sees a masked pending port
 *   moves: a port LINKED when its priority or vCPU changes stays on its
 *     old queue until consumed; consumed, its next event goes to the new
 *     queue and the old queue's tail is forgotten (HEAD written anew)
 *   set_priority's errors; a port closed while LINKED is not handed out
 *     again until the guest unlinks it
 *   expand_array to the last of 128 pages, then -ENOSPC; all 131071 ports
 *     allocated, then -ENOSPC; a port above 4096 delivered
 *   EVTCHNOP_reset (preempted and continued over 131072 ports: vCPU 1
 *     runs meanwhile, and a port it binds then makes the reset -EAGAIN,
 *     leaving FIFO on, as Xen): back to
 *     2-level (set_priority -ENOSYS, expand_array -EOPNOTSUPP, the 4096
 *     port space), then FIFO again, as Linux does on resume
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "FIFO event channels";

#define BAD_PORT  200000                /* past the 2^17 of the FIFO ABI */

static uint8_t cb_page[2][PAGE_SIZE] __aligned(PAGE_SIZE);
static uint8_t array_page[FIFO_MAX_PAGES][PAGE_SIZE] __aligned(PAGE_SIZE);
/* vCPU 1's block: the last 8-byte aligned offset it fits at. */
#define CB1_OFFSET (PAGE_SIZE - sizeof(struct evtchn_fifo_control_block))

static struct evtchn_fifo_control_block *cb0, *cb1;
static volatile bool ap_ready, ap_spin, in_reset;
static volatile unsigned long ap_turns_in_reset, ap_spins;
static volatile evtchn_port_t ap_bound;     /* bound by vCPU 1 during the reset */

/*
 * vCPU 1: takes its upcalls in HLT; while ap_spin is set it spins instead,
 * counting the turns it got (gaps in the TSC: another vCPU ran) while
 * vCPU 0 was inside EVTCHNOP_reset.  One physical CPU: it gets a turn
 * inside a hypercall of vCPU 0 only if that hypercall was preempted.  At
 * its fifth turn it binds a port, below where the reset has got to.
 */
static void ap_main(unsigned int id)
{
    uint64_t last = 0, now;

    cli();
    if ( setup_upcall_vector(id) )
        xtf_failure("Fail: vCPU 1's upcall vector\n");
    ap_ready = true;
    for ( ;; )
    {
        if ( !ap_spin )
        {
            safe_halt();            /* the upcall (FIFO consumer) ends it */
            cli();
            continue;
        }
        now = rdtsc();
        ap_spins++;
        if ( now - last > 50000 && in_reset )
        {
            evtchn_port_t p;

            ap_turns_in_reset++;
            /* Once, a port the reset has already passed: it must fail with -EAGAIN. */
            if ( ap_turns_in_reset == 5 && !evtchn_bind_ipi(1, &p) )
                ap_bound = p;
        }
        last = now;
    }
}

static unsigned long gfn_of(const void *p)
{
    return (unsigned long)p >> PAGE_SHIFT;
}

/* vCPU 0 takes its events by hand (interrupts stay off on it). */
static void upcall_ack(void)
{
    __atomic_store_n(&vcpu_info[0]->evtchn_upcall_pending, 0, __ATOMIC_SEQ_CST);
}

static bool log_is(const char *what, unsigned int cpu, unsigned int from,
                   const evtchn_port_t *want, unsigned int n)
{
    unsigned int i, len = fifo_log_len[cpu] - from;
    bool ok = len == n;

    for ( i = 0; ok && i < n; i++ )
        ok = fifo_log[cpu][from + i] == want[i];
    if ( !ok )
    {
        printk("  %s: vCPU %u handled %u:", what, cpu, len);
        for ( i = 0; i < len && i < 16; i++ )
            printk(" %u", fifo_log[cpu][from + i]);
        printk("; expected %u:", n);
        for ( i = 0; i < n; i++ )
            printk(" %u", want[i]);
        printk("\n");
    }
    return ok;
}

static uint32_t link_of(evtchn_port_t p)
{
    return *fifo_word(p) & EVTCHN_FIFO_LINK_MASK;
}

static evtchn_port_t ipi(unsigned int vcpu, unsigned int prio)
{
    evtchn_port_t p = 0;

    if ( evtchn_bind_ipi(vcpu, &p) )
        xtf_failure("Fail: bind_ipi(%u)\n", vcpu);
    if ( prio != EVTCHN_FIFO_PRIORITY_DEFAULT && evtchn_set_priority(p, prio) )
        xtf_failure("Fail: set_priority(%u, %u)\n", p, prio);
    return p;
}

/* ---- init_control before it succeeds (XSA-188's error path) ----------------- */

static void expect_still_2l(const char *after)
{
    struct evtchn_expand_array ea = { .array_gfn = gfn_of(array_page[0]) };
    long rc = hypercall_event_channel_op(EVTCHNOP_expand_array, &ea);

    if ( rc != -XEN_EOPNOTSUPP )
        xtf_failure("Fail: expand_array after %s returned %ld, not -EOPNOTSUPP\n", after, rc);
}

static void test_init_errors(evtchn_port_t any_port)
{
    static const struct {
        const char *what;
        uint64_t gfn;
    } bad_gfns[] = {
        { "gfn -2 (XTF's XSA-188 case)",          (uint64_t)-2 },
        { "gfn -1",                               (uint64_t)-1 },
        { "gfn 2^40 (beyond the address width)",  1ULL << 40 },
        { "gfn 0x10000 (past our 8 MiB of RAM)",  0x10000 },
        { "gfn 0xc0000 (a hole at 3 GiB)",        0xc0000 },
        { "gfn 0xfee00 (the local APIC page)",    0xfee00 },
    };
    unsigned long g = gfn_of(cb_page[0]);
    unsigned int i;

    printk("init_control errors (nothing may change):\n");
    check_rc("vCPU 2 (we have 2)", evtchn_init_control(g, 0, 2, NULL), -XEN_ENOENT);
    expect_still_2l("vCPU 2");
    check_rc("vCPU 0xffffffff", evtchn_init_control(g, 0, ~0u, NULL), -XEN_ENOENT);
    check_rc("offset 4032 (block crosses the page)", evtchn_init_control(g, 4032, 0, NULL),
             -XEN_EINVAL);
    check_rc("offset 4025 (crosses, unaligned)", evtchn_init_control(g, 4025, 0, NULL),
             -XEN_EINVAL);
    check_rc("offset 0xfffffff8", evtchn_init_control(g, 0xfffffff8u, 0, NULL), -XEN_EINVAL);
    check_rc("offset 4 (not 8-aligned)", evtchn_init_control(g, 4, 0, NULL), -XEN_EINVAL);
    expect_still_2l("a bad offset");
    for ( i = 0; i < ARRAY_SIZE(bad_gfns); i++ )
    {
        check_rc(bad_gfns[i].what, evtchn_init_control(bad_gfns[i].gfn, 0, 0, NULL),
                 -XEN_EINVAL);
        expect_still_2l(bad_gfns[i].what);
    }
    check_rc("argument unreadable",
             hypercall_event_channel_op(EVTCHNOP_init_control, (void *)0xc0000000UL),
             -XEN_EFAULT);
    check_rc("expand_array before init_control",
             evtchn_expand_array(gfn_of(array_page[0])), -XEN_EOPNOTSUPP);
    check_rc("set_priority: still 2-level", evtchn_set_priority(any_port, 1), -XEN_ENOSYS);
}

/* ---- the switch ------------------------------------------------------------- */

static evtchn_port_t pre_ipi, pre_quiet, pre_a, pre_b;

static void test_switch(void)
{
    uint8_t link_bits = 0;
    evtchn_port_t want[1];
    unsigned int n0;

    printk("The switch to FIFO:\n");
    /* Ports of the 2-level ABI: one pending, one quiet, a loopback pair. */
    check_rc("bind_ipi (will be pending)", evtchn_bind_ipi(0, &pre_ipi), 0);
    check_rc("bind_ipi (quiet)", evtchn_bind_ipi(0, &pre_quiet), 0);
    check_rc("alloc_unbound", evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &pre_a), 0);
    check_rc("bind_interdomain", evtchn_bind_interdomain(DOMID_SELF, pre_a, &pre_b), 0);
    evtchn_clear(pre_b);
    check_rc("send on the IPI (2-level)", evtchn_send(pre_ipi), 0);
    check_true("pending in the 2-level bitmap", evtchn_pending(pre_ipi));

    test_init_errors(pre_quiet);

    cb0 = (void *)cb_page[0];
    check_rc("init_control vCPU 0", evtchn_init_control(gfn_of(cb0), 0, 0, &link_bits), 0);
    fifo_control_block[0] = cb0;        /* what fifo_setup_vcpu() records */
    check_true("link_bits is 17", link_bits == EVTCHN_FIFO_LINK_BITS);
    check_rc("init_control vCPU 0 again", evtchn_init_control(gfn_of(cb_page[1]), 0, 0, NULL),
             -XEN_EINVAL);
    check_true("the pending state left the 2-level bitmap", !evtchn_pending(pre_ipi));
    check_rc("set_priority works now", evtchn_set_priority(pre_quiet, 9), 0);
    check_rc("expand_array, gfn -2", evtchn_expand_array((uint64_t)-2), -XEN_EINVAL);
    check_rc("expand_array, the local APIC page", evtchn_expand_array(0xfee00), -XEN_EINVAL);
    check_true("no upcall yet (no event word)", !cb0->ready);

    upcall_ack();
    check_rc("expand_array page 0 (all unmasked)", fifo_add_page(array_page[0]), 0);
    check_true("the carried-over port is PENDING and LINKED",
               fifo_test(pre_ipi, EVTCHN_FIFO_PENDING) && fifo_test(pre_ipi, EVTCHN_FIFO_LINKED));
    check_true("HEAD[7] names it, READY bit 7, upcall pending",
               cb0->head[7] == pre_ipi && cb0->ready == (1u << 7) &&
               vcpu_info[0]->evtchn_upcall_pending);
    check_true("the quiet ports are neither",
               !fifo_test(pre_quiet, EVTCHN_FIFO_PENDING) &&
               !fifo_test(pre_a, EVTCHN_FIFO_LINKED) && !fifo_test(pre_b, EVTCHN_FIFO_LINKED));
    n0 = fifo_log_len[0];
    fifo_consume(0);
    want[0] = pre_ipi;
    check_true("consumed: that port, once", log_is("carried over", 0, n0, want, 1));
    check_true("its word is clear again", *fifo_word(pre_ipi) == 0);

    cb1 = (void *)(cb_page[1] + CB1_OFFSET);
    check_rc("init_control vCPU 1 (down) at offset 4024", fifo_setup_vcpu(1, cb1), 0);
    check_rc("init_control vCPU 1 again", evtchn_init_control(gfn_of(cb0), 8, 1, NULL),
             -XEN_EINVAL);
}

/* ---- delivery order ------------------------------------------------------------- */

static void test_order(void)
{
    evtchn_port_t e, b, c1, c2, a, d, p5[5], want[8];
    unsigned int i, n0;
    static const unsigned int send_order[5] = { 3, 1, 4, 0, 2 };

    printk("Delivery order:\n");
    e = ipi(0, 0);
    b = ipi(0, 3);
    check_rc("alloc_unbound (loopback)", evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &c1), 0);
    check_rc("bind_interdomain", evtchn_bind_interdomain(DOMID_SELF, c1, &c2), 0);
    fifo_consume(0);                /* the bind's own notification of c2 */
    check_rc("set_priority(interdomain, 3)", evtchn_set_priority(c2, 3), 0);
    a = ipi(0, EVTCHN_FIFO_PRIORITY_DEFAULT);
    check_rc("bind VIRQ_TIMER", evtchn_bind_virq(VIRQ_TIMER, 0, &d), 0);
    check_rc("set_priority(VIRQ, 10)", evtchn_set_priority(d, 10), 0);

    upcall_ack();
    n0 = fifo_log_len[0];
    /* Out of order: VIRQ (10), IPI (3), IPI (7), interdomain (3), IPI (0). */
    check_rc("singleshot timer now (VIRQ_TIMER, prio 10)",
             set_singleshot_timer(xen_system_time(), 0), 0);
    check_true("  the VIRQ is linked", fifo_test(d, EVTCHN_FIFO_LINKED));
    check_rc("send IPI prio 3", evtchn_send(b), 0);
    check_rc("send IPI prio 7", evtchn_send(a), 0);
    check_rc("send interdomain prio 3", evtchn_send(c1), 0);
    check_rc("send IPI prio 0", evtchn_send(e), 0);
    check_true("READY = priorities 0, 3, 7, 10",
               cb0->ready == ((1u << 0) | (1u << 3) | (1u << 7) | (1u << 10)));
    check_true("HEAD[0,3,7,10] = the first of each",
               cb0->head[0] == e && cb0->head[3] == b && cb0->head[7] == a && cb0->head[10] == d);
    check_true("priority 3: the IPI LINKs to the interdomain port, which ends the queue",
               link_of(b) == c2 && link_of(c2) == 0 && fifo_test(c2, EVTCHN_FIFO_LINKED));
    check_true("one upcall asked for", vcpu_info[0]->evtchn_upcall_pending);
    fifo_consume(0);
    want[0] = e; want[1] = b; want[2] = c2; want[3] = a; want[4] = d;
    check_true("handled 0, 3, 3, 7, 10: by priority, FIFO within",
               log_is("order", 0, n0, want, 5));

    for ( i = 0; i < 5; i++ )
        p5[i] = ipi(0, 5);
    n0 = fifo_log_len[0];
    for ( i = 0; i < 5; i++ )
    {
        evtchn_send(p5[send_order[i]]);
        want[i] = p5[send_order[i]];
    }
    evtchn_send(p5[send_order[0]]);     /* already linked: no second entry */
    fifo_consume(0);
    check_true("five ports of one priority: in the order sent, each once",
               log_is("fifo", 0, n0, want, 5));
    check_true("nothing left: READY 0, every word clear",
               !cb0->ready && !*fifo_word(e) && !*fifo_word(d) && !*fifo_word(p5[4]));
}

/* ---- the upcall on vCPU 1 ---------------------------------------------------------- */

static void test_vcpu1(void)
{
    evtchn_port_t p, want[10];
    unsigned int i, n1 = fifo_log_len[1], spins;
    long rc;

    printk("Upcalls on vCPU 1:\n");
    rc = vcpu_start(1, ap_main);
    check_rc("start vCPU 1", rc, 0);
    for ( spins = 0; !ap_ready && spins < 1000; spins++ )
        hypercall_sched_op(SCHEDOP_yield, NULL);
    p = ipi(1, 4);
    for ( i = 0; i < 10; i++ )
    {
        unsigned long before = upcall_count[1];

        evtchn_send(p);
        want[i] = p;
        for ( spins = 0; upcall_count[1] == before && spins < 1000; spins++ )
            hypercall_sched_op(SCHEDOP_yield, NULL);
    }
    check_true("vCPU 1's handler took all 10 from its own queue",
               log_is("vCPU 1", 1, n1, want, 10));
    check_true("through the upcall vector, once each", upcall_count[1] >= 10);
    check_true("vCPU 0's block untouched", !cb0->ready && !cb0->head[4]);
}

/* ---- masking ------------------------------------------------------------------------ */

static void test_mask(void)
{
    evtchn_port_t m, want[1];
    unsigned int n0;

    printk("Masking:\n");
    m = ipi(0, 6);
    fifo_mask(m);
    upcall_ack();
    check_rc("send to the masked port", evtchn_send(m), 0);
    check_true("PENDING, not LINKED, no READY, no upcall",
               fifo_test(m, EVTCHN_FIFO_PENDING) && !fifo_test(m, EVTCHN_FIFO_LINKED) &&
               !cb0->ready && !vcpu_info[0]->evtchn_upcall_pending);
    check_rc("SCHEDOP_poll sees it pending (returns at once)", sched_poll(&m, 1, 0), 0);
    n0 = fifo_log_len[0];
    fifo_unmask(m);                 /* pending: through EVTCHNOP_unmask */
    check_true("unmasked: LINKED at HEAD[6], READY, upcall",
               fifo_test(m, EVTCHN_FIFO_LINKED) && cb0->head[6] == m &&
               cb0->ready == (1u << 6) && vcpu_info[0]->evtchn_upcall_pending);
    fifo_consume(0);
    want[0] = m;
    check_true("handled once", log_is("unmask", 0, n0, want, 1));
    fifo_mask(m);
    fifo_unmask(m);                 /* not pending: the guest alone */
    check_true("unmasking an idle port queues nothing", !cb0->ready && !*fifo_word(m));
    check_rc("EVTCHNOP_unmask, bad port", evtchn_unmask(BAD_PORT), -XEN_EINVAL);
    check_rc("EVTCHNOP_unmask of an idle port", evtchn_unmask(m), 0);
    check_true("  still nothing queued", !cb0->ready && !*fifo_word(m));
}

/* ---- ports that move while LINKED ------------------------------------------------- */

static void test_moves(void)
{
    evtchn_port_t p, q, r, i1, i2, j, want[2];
    unsigned int n0, n1, spins;

    printk("Moving ports:\n");
    /* Consumed, then moved: the old queue's tail must be forgotten. */
    p = ipi(0, 8);
    q = ipi(0, 8);
    evtchn_send(p);
    fifo_consume(0);
    check_rc("set_priority(p, 2) after p was consumed", evtchn_set_priority(p, 2), 0);
    upcall_ack();
    n0 = fifo_log_len[0];
    evtchn_send(p);
    check_true("p goes to queue 2", cb0->head[2] == p && fifo_test(p, EVTCHN_FIFO_LINKED));
    evtchn_send(q);
    check_true("q (prio 8) heads queue 8 anew: HEAD[8] = q, READY 2 and 8, p's LINK 0",
               cb0->head[8] == q && cb0->ready == ((1u << 2) | (1u << 8)) && link_of(p) == 0);
    fifo_consume(0);
    want[0] = p; want[1] = q;
    check_true("handled p (2) then q (8)", log_is("moved", 0, n0, want, 2));

    /* Moved while LINKED: it stays on the old queue until consumed. */
    p = ipi(0, 8);
    r = ipi(0, 2);
    n0 = fifo_log_len[0];
    evtchn_send(p);
    check_rc("set_priority(p, 1) while p is LINKED on queue 8", evtchn_set_priority(p, 1), 0);
    evtchn_send(p);
    check_true("p stays on queue 8", cb0->head[8] == p && !cb0->head[1] &&
               !(cb0->ready & (1u << 1)));
    evtchn_send(r);
    fifo_consume(0);
    want[0] = r; want[1] = p;
    check_true("handled r (2), then p from its old queue (8)", log_is("linked", 0, n0, want, 2));

    /* Rebound to vCPU 1 while LINKED on vCPU 0. */
    check_rc("alloc_unbound", evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &i1), 0);
    check_rc("bind_interdomain", evtchn_bind_interdomain(DOMID_SELF, i1, &i2), 0);
    j = ipi(0, 7);
    check_true("the new port is linked (Xen notifies it at bind)", cb0->head[7] == i2);
    check_rc("bind_vcpu(i2, 1) while LINKED on vCPU 0", evtchn_bind_vcpu(i2, 1), 0);
    n0 = fifo_log_len[0];
    n1 = fifo_log_len[1];
    evtchn_send(i1);
    fifo_consume(0);
    want[0] = i2;
    check_true("handled on vCPU 0, where it was linked", log_is("rebound", 0, n0, want, 1));
    evtchn_send(i1);
    for ( spins = 0; fifo_log_len[1] == n1 && spins < 1000; spins++ )
        hypercall_sched_op(SCHEDOP_yield, NULL);
    check_true("the next event went to vCPU 1", log_is("rebound", 1, n1, want, 1));
    evtchn_send(j);
    check_true("vCPU 0's queue 7 forgot its tail: HEAD[7] = the next port",
               cb0->head[7] == j && link_of(i2) == 0);
    fifo_consume(0);
}

/* ---- set_priority, close while LINKED ------------------------------------------- */

static void test_priority_errors(void)
{
    evtchn_port_t p, k, n;

    printk("set_priority:\n");
    check_rc("argument unreadable",
             hypercall_event_channel_op(EVTCHNOP_set_priority, (void *)0xc0000000UL), -XEN_EFAULT);
    check_rc("expand_array, argument unreadable",
             hypercall_event_channel_op(EVTCHNOP_expand_array, (void *)0xc0000000UL), -XEN_EFAULT);
    {
        struct evtchn_reset r = { .dom = DOMID_SELF };

        /* Xen's internal EVTCHNOP_reset_cont (14) without a reset under way. */
        check_rc("EVTCHNOP_reset_cont with no reset under way",
                 hypercall_event_channel_op(14, &r), -XEN_EBUSY);
    }
    p = ipi(0, EVTCHN_FIFO_PRIORITY_DEFAULT);
    check_rc("priority 16", evtchn_set_priority(p, 16), -XEN_EINVAL);
    check_rc("priority 0xffffffff", evtchn_set_priority(p, ~0u), -XEN_EINVAL);
    check_rc("bad port", evtchn_set_priority(BAD_PORT, 1), -XEN_EINVAL);
    check_rc("port 0 (reserved)", evtchn_set_priority(0, 1), -XEN_EACCES);
    check_rc("priority 15", evtchn_set_priority(p, 15), 0);
    check_rc("priority 0", evtchn_set_priority(p, 0), 0);
    check_rc("close it", evtchn_close(p), 0);
    check_rc("a closed port", evtchn_set_priority(p, 1), -XEN_EACCES);

    printk("Closing a LINKED port:\n");
    /* p is now the lowest free port. */
    k = ipi(0, 7);
    check_true("the lowest free port is handed out", k == p);
    evtchn_send(k);
    check_rc("close it while it is LINKED", evtchn_close(k), 0);
    check_true("PENDING cleared, still LINKED",
               !fifo_test(k, EVTCHN_FIFO_PENDING) && fifo_test(k, EVTCHN_FIFO_LINKED));
    n = ipi(0, 7);
    check_true("not handed out again while LINKED", n != k);
    check_true("nothing handled: it is not pending", fifo_consume(0) == 0);
    check_true("the guest unlinked it", !fifo_test(k, EVTCHN_FIFO_LINKED));
    check_true("now it is handed out again", ipi(0, 7) == k);
}

/* ---- the 131072-port space ------------------------------------------------------- */

static void test_limits(void)
{
    evtchn_port_t p, last = 0, high, want[1];
    unsigned int i, n, n0;
    long rc = 0;

    printk("The port space:\n");
    for ( i = fifo_array_pages; i < FIFO_MAX_PAGES; i++ )
    {
        unsigned int w;

        /* As Linux: every word masked before the page is added. */
        for ( w = 0; w < FIFO_WORDS_PER_PAGE; w++ )
            ((event_word_t *)array_page[i])[w] = FIFO_BIT(MASKED);
        if ( (rc = fifo_add_page(array_page[i])) )
            break;
    }
    check_rc("expand_array up to page 128", rc, 0);
    check_true("128 pages", fifo_array_pages == FIFO_MAX_PAGES);
    check_rc("the 129th", evtchn_expand_array(gfn_of(array_page[0])), -XEN_ENOSPC);

    for ( n = 0; n < EVTCHN_FIFO_NR_CHANNELS; n++ )
    {
        if ( (rc = evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &p)) )
            break;
        last = p;
    }
    check_rc("allocation after the last port", rc, -XEN_ENOSPC);
    check_true("the last port handed out is 131071", last == EVTCHN_FIFO_NR_CHANNELS - 1);
    printk("  %u ports allocated before -ENOSPC\n", n);

    check_rc("close port 100000", evtchn_close(100000), 0);
    high = ipi(0, 1);
    check_true("an IPI gets port 100000", high == 100000);
    fifo_unmask(high);
    n0 = fifo_log_len[0];
    evtchn_send(high);
    fifo_consume(0);
    want[0] = high;
    check_true("delivered through page 97's word", log_is("high", 0, n0, want, 1));
}

/* ---- reset ------------------------------------------------------------------------- */

static void test_reset(void)
{
    evtchn_port_t p, q, want[1];
    struct evtchn_status st;
    unsigned int n, n0;
    long rc = 0;

    printk("EVTCHNOP_reset back to 2-level:\n");
    check_rc("close port 120000 (every port is in use)", evtchn_close(120000), 0);
    p = ipi(1, 0);
    fifo_unmask(p);                 /* its page came masked, as Linux's do */
    ap_spin = true;
    evtchn_send(p);                 /* vCPU 1 leaves HLT and spins */
    hypercall_sched_op(SCHEDOP_yield, NULL);
    in_reset = true;
    rc = evtchn_reset(DOMID_SELF);
    in_reset = false;
    ap_spin = false;
    printk("  vCPU 1 had %lu turns while vCPU 0 was in the reset\n", ap_turns_in_reset);
    check_true("it was preempted and continued: vCPU 1 ran meanwhile, 10+ times",
               ap_turns_in_reset >= 10);
    check_true("vCPU 1 bound a port during it, below the reset's progress",
               ap_bound && ap_bound < 4096);
    check_rc("so the reset (131072 ports) ends -EAGAIN, as Xen's", rc, -XEN_EAGAIN);
    check_rc("  still FIFO: expand_array -ENOSPC, not -EOPNOTSUPP",
             evtchn_expand_array(gfn_of(array_page[0])), -XEN_ENOSPC);
    check_rc("reset again", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
    check_rc("status of port 100000", evtchn_status(DOMID_SELF, 100000, &st), 0);
    check_true("  closed", st.status == EVTCHNSTAT_closed);
    check_rc("expand_array", evtchn_expand_array(gfn_of(array_page[0])), -XEN_EOPNOTSUPP);
    p = ipi(0, EVTCHN_FIFO_PRIORITY_DEFAULT);
    check_rc("set_priority", evtchn_set_priority(p, 1), -XEN_ENOSYS);
    evtchn_clear(p);
    check_rc("send", evtchn_send(p), 0);
    check_true("pending in the 2-level bitmap again", evtchn_pending(p));
    evtchn_clear(p);
    for ( n = 0; n < 5000; n++ )
        if ( (rc = evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &q)) )
            break;
    check_rc("2-level port space: -ENOSPC", rc, -XEN_ENOSPC);
    check_true("after exactly 4094 more ports (4096, port 0, the IPI)", n == 4094);
    check_rc("reset again", evtchn_reset(DOMID_SELF), 0);

    printk("FIFO again (as Linux on resume):\n");
    memset(cb0, 0xff, sizeof(*cb0));   /* stale content: Linux clears it first */
    memset(cb0, 0, sizeof(*cb0));
    memset(array_page[0], 0, PAGE_SIZE);
    check_rc("init_control vCPU 0 at the same block", fifo_setup_vcpu(0, cb0), 0);
    check_rc("expand_array with the same page", fifo_add_page(array_page[0]), 0);
    p = ipi(0, 3);
    upcall_ack();
    n0 = fifo_log_len[0];
    evtchn_send(p);
    fifo_consume(0);
    want[0] = p;
    check_true("delivered", log_is("again", 0, n0, want, 1));
    check_rc("reset at the end", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
}

void test_main(void)
{
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( vcpu_count() != 2 )
        return xtf_error("Error: run this with vcpus=2\n");
    cli();
    test_switch();
    test_order();
    test_vcpu1();
    test_mask();
    test_moves();
    test_priority_errors();
    test_limits();
    test_reset();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/event_channel.c, compiled here as it is (included below), run
 * by two CPUs at once (two host threads, harness_run_cpus(), each with its
 * own smp_processor_id(), current and per-CPU area, so the debug build's
 * lock checks run per CPU as in the hypervisor) against the same domains'
 * event channels.  The domains are faked around it: dom0 (the control
 * domain) and dom1, two vCPUs each, the real 2-level ABI under a port ABI
 * that checks, in the middle of each operation, that the channel is still
 * what it was when the operation began, and waits there a little so that
 * the other CPU gets in if nothing stops it.  Checked:
 *
 *   send against close: one CPU sends on an IPI port while the other closes
 *   it and binds it again; every notification finds the channel bound as
 *   the send saw it (chn->lock);
 *   allocation: both CPUs bind and close ports of one domain; no port is
 *   handed out twice, and the count of bound ports is right at the end
 *   (d->event_lock);
 *   both ends of interdomain channels closed at once from the two domains,
 *   each CPU the other's mirror (so the two domains' locks are wanted in
 *   opposite orders): every port ends free and both counts at 0 (both
 *   domains' event_lock, in address order, and both channels' locks); no
 *   deadlock, and no lock-order or IRQ-safety BUG (they would end the run).
 *
 * Seen to fail without the locks: built with -DTEST_NO_EVTCHN_LOCKS the
 * locks in event_channel.c are compiled out ("make -C tests/unit
 * bin/test_evtchn_smp_nolock" and run it); the checks above then fail.
 */
#define __XEN__ 1                       /* the hypervisor's view of the ABI (EVTCHNOP_reset_cont) */
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/string.h>

#include "harness.h"

#ifdef TEST_NO_EVTCHN_LOCKS
#undef spin_lock
#undef spin_lock_nested
#undef spin_unlock
#undef ASSERT_SPINLOCK
#define spin_lock(l)        ((void)(l))
#define spin_lock_nested(l) ((void)(l))
#define spin_unlock(l)      ((void)(l))
#define ASSERT_SPINLOCK(l)  ((void)(l))
#endif

#include "../../xen/common/event_channel.c"

/* ---- the faked host ------------------------------------------------------- */

#define NR_DOMS  2
#define NR_VCPUS 2

static struct domain doms[NR_DOMS];
static struct vcpu vcpus[NR_DOMS][NR_VCPUS];
static struct vcpu *vcpu_tables[NR_DOMS][NR_VCPUS];
static struct shared_info shinfo[NR_DOMS];
struct domain *domain_list;

struct domain *get_domain_by_id(domid_t domid)
{
    return domid < NR_DOMS ? &doms[domid] : NULL;
}

struct domain *get_domain_by_any_id(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

struct vcpu *domain_vcpu(const struct domain *d, unsigned int id)
{
    return id < d->max_vcpus ? d->vcpu[id] : NULL;
}

void vcpu_wake(struct vcpu *v)
{
    (void)v;
}

static unsigned long upcalls;

void hvm_assert_evtchn_irq(struct vcpu *v)
{
    (void)v;
    __atomic_fetch_add(&upcalls, 1, __ATOMIC_RELAXED);
}

void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn)
{
    (void)d;
    (void)gfn;
}

void ns16550_start_poll(void)
{
}

#include "stub_hypercall.h"

int evtchn_fifo_init_control(struct evtchn_init_control *ic)
{
    (void)ic;
    return -ENOSYS;
}

int evtchn_fifo_expand_array(const struct evtchn_expand_array *ea)
{
    (void)ea;
    return -ENOSYS;
}

void evtchn_fifo_destroy(struct domain *d)
{
    (void)d;
}

/* do_event_channel_op's copies: the operations are called directly here. */
unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    (void)to;
    (void)from;
    return len;
}

unsigned long raw_copy_from_guest(void *to, const void *from, size_t len)
{
    (void)to;
    (void)from;
    return len;
}

/* The domains' heap: calloc, counted; xfree only counts. */
static unsigned long live_allocs;

void *_xzalloc_pool(struct xmem_pool *pool, size_t size, size_t align)
{
    (void)pool;
    (void)align;
    __atomic_fetch_add(&live_allocs, 1, __ATOMIC_RELAXED);
    return harness_zalloc(size);
}

void xfree(void *p)
{
    if ( p )
        __atomic_fetch_sub(&live_allocs, 1, __ATOMIC_RELAXED);
}

/* ---- the checking port ABI ------------------------------------------------- */

/* Violations seen in the middle of an operation, by kind. */
static unsigned long send_torn, busy_calls;

/* Long enough for the other CPU to get in, if nothing keeps it out. */
static void dawdle(void)
{
    unsigned int i;

    for ( i = 0; i < 200; i++ )
        asm volatile ( "pause" ::: "memory" );
}

/*
 * A notification: the channel must stay as the sender saw it (bound, to
 * the same vCPU) until it is done, as it does under the channel's lock.
 */
static void check_set_pending(struct vcpu *v, struct evtchn *chn)
{
    uint8_t state = ACCESS_ONCE(chn->state);
    uint16_t vcpu = ACCESS_ONCE(chn->notify_vcpu_id);

    dawdle();
    if ( ACCESS_ONCE(chn->state) != state || ACCESS_ONCE(chn->notify_vcpu_id) != vcpu ||
         !evtchn_usable(chn) )
        __atomic_fetch_add(&send_torn, 1, __ATOMIC_RELAXED);
    evtchn_port_ops_2l.set_pending(v, chn);
}

/* Freeing a port clears it first: widen the window of a close. */
static void check_clear_pending(struct domain *d, struct evtchn *chn)
{
    dawdle();
    evtchn_2l_clear_pending(d, chn);
}

/* get_free_port asks this of each free port it finds: widen the window. */
static bool check_is_busy(const struct domain *d, const struct evtchn *chn)
{
    (void)d;
    (void)chn;
    __atomic_fetch_add(&busy_calls, 1, __ATOMIC_RELAXED);
    dawdle();
    return false;
}

static const struct evtchn_port_ops check_ops = {
    .set_pending   = check_set_pending,
    .clear_pending = check_clear_pending,
    .unmask        = evtchn_2l_unmask,
    .is_pending    = evtchn_2l_is_pending,
    .is_masked     = evtchn_2l_is_masked,
    .is_busy       = check_is_busy,
    .print_state   = evtchn_2l_print_state,
};

static void setup_domains(void)
{
    unsigned int i, j;

    memset(doms, 0, sizeof(doms));
    memset(vcpus, 0, sizeof(vcpus));
    memset(shinfo, 0, sizeof(shinfo));
    domain_list = NULL;
    for ( i = NR_DOMS; i-- > 0; )
    {
        struct domain *d = &doms[i];

        d->domain_id = i;
        d->is_privileged = i == 0;
        d->max_vcpus = NR_VCPUS;
        d->vcpu = vcpu_tables[i];
        d->shared_info = &shinfo[i];
        d->shared_info_gfn = INVALID_GFN;
        d->max_evtchn_port = EVTCHN_DEFAULT_MAX_PORT;
        for ( j = 0; j < NR_VCPUS; j++ )
        {
            struct vcpu *v = &vcpus[i][j];

            v->domain = d;
            v->vcpu_id = j;
            v->vcpu_info = &shinfo[i].vcpu_info[j];
            v->vcpu_info_gfn = INVALID_GFN;
            v->next_in_list = j + 1 < NR_VCPUS ? &vcpus[i][j + 1] : NULL;
            vcpu_tables[i][j] = v;
        }
        CHECK_EQ(evtchn_init(d), 0);
        d->evtchn_port_ops = &check_ops;
        d->next_in_list = domain_list;
        domain_list = d;
    }
}

/* Run as domain d's vCPU (the hypercalls use current->domain). */
static void become(unsigned int domid, unsigned int cpu)
{
    set_current(&vcpus[domid][cpu % NR_VCPUS]);
}

/* ---- send against close ---------------------------------------------------- */

#define SEND_ROUNDS 20000
static unsigned int ipi_port;
static unsigned long sends_ok, rebinds, rebind_moved;
static volatile bool closer_done;

static void send_close_cpu(unsigned int cpu)
{
    struct evtchn_bind_ipi bind = { .vcpu = 1 };
    unsigned int i;

    become(1, cpu);
    if ( cpu == 0 )
    {
        /* The sender: until the closer is done. */
        while ( !closer_done )
            if ( !evtchn_send(&doms[1], ipi_port) )
                sends_ok++;
        return;
    }
    for ( i = 0; i < SEND_ROUNDS; i++ )
    {
        evtchn_close(&doms[1], ipi_port);
        if ( evtchn_bind_ipi(&bind) )
            continue;
        rebinds++;
        if ( bind.port != ipi_port )
            rebind_moved++;
    }
    closer_done = true;
}

static void test_send_close(void)
{
    struct evtchn_bind_ipi bind = { .vcpu = 1 };

    setup_domains();
    become(1, 0);
    CHECK_EQ(evtchn_bind_ipi(&bind), 0);
    ipi_port = bind.port;
    send_torn = sends_ok = rebinds = rebind_moved = 0;
    closer_done = false;

    harness_run_cpus(2, send_close_cpu);

    harness_printf("  send/close: %lu sends, %lu rebinds, %lu torn\n",
                   sends_ok, rebinds, send_torn);
    CHECK_EQ(send_torn, 0);
    CHECK_EQ(rebinds, SEND_ROUNDS);
    CHECK_EQ(rebind_moved, 0);          /* the lowest free port, each time */
    CHECK(sends_ok > 0);
    CHECK_EQ(doms[1].active_evtchns, 1);
}

/* ---- allocation from two CPUs ----------------------------------------------- */

#define ALLOC_ROUNDS 1500
static uint8_t port_owner[EVTCHN_2L_MAX];    /* CPU + 1 holding it, 0 free */
static unsigned long dup_ports, alloc_fail, bound_count;

static void alloc_cpu(unsigned int cpu)
{
    struct evtchn_alloc_unbound alloc = { .dom = DOMID_SELF, .remote_dom = 0 };
    unsigned int i, port;
    uint8_t none;

    become(1, cpu);
    for ( i = 0; i < ALLOC_ROUNDS; i++ )
    {
        if ( evtchn_alloc_unbound(&alloc) )
        {
            __atomic_fetch_add(&alloc_fail, 1, __ATOMIC_RELAXED);
            continue;
        }
        port = alloc.port;
        none = 0;
        if ( !__atomic_compare_exchange_n(&port_owner[port], &none, cpu + 1, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
        {
            /* The other CPU holds it too: it was handed out twice. */
            __atomic_fetch_add(&dup_ports, 1, __ATOMIC_RELAXED);
            continue;
        }
        /* Keep every third one, so the table fills and buckets are added. */
        if ( i % 3 == 0 )
        {
            __atomic_fetch_add(&bound_count, 1, __ATOMIC_RELAXED);
            continue;
        }
        __atomic_store_n(&port_owner[port], 0, __ATOMIC_SEQ_CST);
        evtchn_close(&doms[1], port);
    }
}

static void test_alloc(void)
{
    unsigned int port, bound = 0;

    setup_domains();
    memset(port_owner, 0, sizeof(port_owner));
    dup_ports = alloc_fail = bound_count = busy_calls = 0;

    harness_run_cpus(2, alloc_cpu);

    for ( port = 1; port < doms[1].valid_evtchns; port++ )
        bound += evtchn_from_port(&doms[1], port)->state == ECS_UNBOUND;
    harness_printf("  alloc: %lu kept, %u bound, %u valid, %lu duplicates, %lu busy checks\n",
                   bound_count, bound, doms[1].valid_evtchns, dup_ports, busy_calls);
    CHECK_EQ(dup_ports, 0);
    CHECK_EQ(alloc_fail, 0);
    CHECK_EQ(bound, bound_count);
    CHECK_EQ(doms[1].active_evtchns, bound_count);
    CHECK(doms[1].valid_evtchns > EVTCHNS_PER_BUCKET);  /* buckets were added */
}

/* ---- both ends of interdomain channels closed at once ------------------------- */

#define NR_PAIRS 1000
static unsigned int pair_port[NR_DOMS][NR_PAIRS];

static void close_pairs_cpu(unsigned int cpu)
{
    unsigned int i;

    /* CPU 0 is dom0 closing its ends, CPU 1 dom1 closing its own. */
    become(cpu, cpu);
    for ( i = 0; i < NR_PAIRS; i++ )
        evtchn_close(&doms[cpu], pair_port[cpu][i]);
}

static void test_close_pairs(void)
{
    struct evtchn_alloc_unbound alloc = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct evtchn_bind_interdomain bind = { .remote_dom = 1 };
    unsigned int i, d, port, left[NR_DOMS] = { 0 };

    setup_domains();
    for ( i = 0; i < NR_PAIRS; i++ )
    {
        become(1, 0);
        CHECK_EQ(evtchn_alloc_unbound(&alloc), 0);
        pair_port[1][i] = alloc.port;
        become(0, 0);
        bind.remote_port = alloc.port;
        CHECK_EQ(evtchn_bind_interdomain(&bind), 0);
        pair_port[0][i] = bind.local_port;
    }
    CHECK_EQ(doms[0].active_evtchns, NR_PAIRS);
    CHECK_EQ(doms[1].active_evtchns, NR_PAIRS);

    harness_run_cpus(2, close_pairs_cpu);

    for ( d = 0; d < NR_DOMS; d++ )
        for ( port = 1; port < doms[d].valid_evtchns; port++ )
            left[d] += evtchn_from_port(&doms[d], port)->state != ECS_FREE;
    harness_printf("  close pairs: %u and %u ports left bound, counts %u and %u\n",
                   left[0], left[1], doms[0].active_evtchns, doms[1].active_evtchns);
    CHECK_EQ(left[0], 0);
    CHECK_EQ(left[1], 0);
    CHECK_EQ(doms[0].active_evtchns, 0);
    CHECK_EQ(doms[1].active_evtchns, 0);
    CHECK_EQ(spin_held_count(), 0);
}

void test_main(void)
{
    host_test_cpu_enter(0);
    test_send_close();
    test_alloc();
    test_close_pairs();
}

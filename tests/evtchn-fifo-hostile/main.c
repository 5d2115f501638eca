/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hostile FIFO guest: while events are sent to it, it scribbles on its
 * own event words and control blocks.  Run as a domU with 2 vCPUs beside
 * a witness.
 *
 *   vCPU 1 writes random values, all the time, into every event word
 *     (PENDING, MASKED, LINKED, BUSY, LINKs to random ports, to
 *     themselves, past the array) and into both control blocks (HEADs,
 *     READY), with interrupts off (its own upcalls never run);
 *   vCPU 0, with a periodic VIRQ_TIMER on both vCPUs, makes a seeded
 *     sequence of sends, set_priority, unmask, bind_vcpu, close and
 *     re-bind, SCHEDOP_poll, expand_array and init_control (good and bad
 *     arguments) and consumes its queues (a bounded consumer: the links
 *     it follows are the scribbler's);
 *
 * and then the host must be unaffected: every hypercall returned 0 or one
 * of Xen's errnos, nothing outside the registered frames changed (canary
 * pages around each), EVTCHNOP_reset succeeds, and a clean FIFO set-up
 * afterwards delivers exactly (the hypervisor kept no corrupt state: its
 * queue tails are its own and it never follows a guest's LINK).  Last,
 * the frames are held, not looked up again: shared_info is mapped over
 * the control block's gfn, and the hypervisor's writes go on into the
 * frame it holds, never into shared_info now at that gfn.
 *
 * Guest command line: seed=<n> (default 1), iters=<n> (default 3000),
 * trace=1 (print each operation before it is made).
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "Hostile FIFO guest: scribbling on its own queues";

#define NR_ARRAY    4                   /* event-array pages (4096 words) */
#define NR_PORTS    48                  /* ports bound for the run */
#define CANARY      0x5aa5c33cdeadbeefULL

/*
 * Pages: even ones are canaries, odd ones are registered with FIFO
 * (1 and 3: vCPU 0's and 1's control blocks, 5.. the event array).
 */
#define NR_PAGES    (2 * (2 + NR_ARRAY) + 1)
static uint8_t pages[NR_PAGES][PAGE_SIZE] __aligned(PAGE_SIZE);
#define CB_PAGE(v)  pages[1 + 2 * (v)]
#define ARR_PAGE(i) pages[5 + 2 * (i)]
/* Spare page for the physmap move at the end (a control block there). */
static uint8_t move_page[PAGE_SIZE] __aligned(PAGE_SIZE);

static struct evtchn_fifo_control_block *cb[2];
static evtchn_port_t ports[NR_PORTS];
static volatile bool scribble, ap_ready, ap_stopped;
static volatile unsigned long scribbles;
static unsigned long hcalls, errors, bad_results;

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t x = (rng_state += 0x9e3779b97f4a7c15ULL);

    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

static unsigned long gfn_of(const void *p)
{
    return (unsigned long)p >> PAGE_SHIFT;
}

/* ---- vCPU 1: the scribbler ----------------------------------------------------- */

static uint64_t ap_rng = 0x1234;

static uint32_t ap_rnd(void)
{
    ap_rng ^= ap_rng << 13;
    ap_rng ^= ap_rng >> 7;
    ap_rng ^= ap_rng << 17;
    return (uint32_t)ap_rng;
}

static uint32_t scribble_value(void)
{
    static const uint32_t link[] = {
        0, 1, 2, 1023, 1024, 4095, 4096, EVTCHN_FIFO_LINK_MASK,
    };
    uint32_t r = ap_rnd(), v = r & 0xf0000000u;

    switch ( (r >> 4) & 3 )
    {
    case 0: return v | link[(r >> 8) & 7];
    case 1: return v | (ap_rnd() % NR_PORTS + 1);
    case 2: return v | (ap_rnd() & EVTCHN_FIFO_LINK_MASK);
    default: return ap_rnd();
    }
}

static void ap_main(unsigned int id __attribute__((unused)))
{
    cli();
    ap_ready = true;
    for ( ;; )
    {
        event_word_t *w;
        uint32_t r;

        if ( !scribble )
        {
            ap_stopped = true;
            asm volatile ( "pause" );
            continue;
        }
        ap_stopped = false;
        r = ap_rnd();
        switch ( r & 7 )
        {
        case 0: case 1: case 2: case 3:     /* an event word */
            w = (event_word_t *)ARR_PAGE((r >> 3) % NR_ARRAY) +
                (ap_rnd() % FIFO_WORDS_PER_PAGE);
            if ( r & 0x100 )
                __atomic_store_n(w, scribble_value(), __ATOMIC_SEQ_CST);
            else
                __atomic_xor_fetch(w, 1u << (28 + (ap_rnd() & 3)), __ATOMIC_SEQ_CST);
            break;
        case 4: case 5:                     /* a HEAD */
            cb[(r >> 3) & 1]->head[(r >> 4) & 15] = scribble_value() & EVTCHN_FIFO_LINK_MASK;
            break;
        case 6:                             /* READY */
            cb[(r >> 3) & 1]->ready = ap_rnd();
            break;
        default:                            /* the reserved word, and past the block */
            ((uint32_t *)cb[(r >> 3) & 1])[1] = ap_rnd();
            break;
        }
        scribbles++;
    }
}

/* ---- vCPU 0: events, while vCPU 1 scribbles ------------------------------------- */

static void result(const char *op, long rc)
{
    static const long allowed[] = {
        -XEN_EINVAL, -XEN_ENOENT, -XEN_EACCES, -XEN_ENOSPC, -XEN_EOPNOTSUPP,
        -XEN_EFAULT, -XEN_ENOSYS,
    };
    unsigned int i;

    hcalls++;
    if ( rc >= 0 )
        return;
    errors++;
    for ( i = 0; i < ARRAY_SIZE(allowed); i++ )
        if ( rc == allowed[i] )
            return;
    bad_results++;
    xtf_failure("Fail: %s returned %ld\n", op, rc);
}

static evtchn_port_t some_port(void)
{
    switch ( below(8) )
    {
    case 0:  return below(1100);            /* anything, most of them unbound */
    case 1:  return (evtchn_port_t)rnd();
    default: return ports[below(NR_PORTS)];
    }
}

static bool trace;

static void one_op(void)
{
    evtchn_port_t p = some_port(), q;
    unsigned int op = below(12);
    uint64_t now;

    if ( trace )
        printk("op %u port %u\n", op, p);
    switch ( op )
    {
    case 0: case 1: case 2:
        result("send", evtchn_send(p));
        break;
    case 3:
        result("set_priority", evtchn_set_priority(p, below(18)));
        break;
    case 4:
        result("unmask", evtchn_unmask(p));
        break;
    case 5:
        result("bind_vcpu", evtchn_bind_vcpu(p, below(3)));
        break;
    case 6:
    {
        unsigned int i = below(NR_PORTS);

        result("close", evtchn_close(ports[i]));
        q = 0;
        result("bind_ipi", evtchn_bind_ipi(below(2), &q));
        if ( q )
            ports[i] = q;
        break;
    }
    case 7:
        now = xen_system_time();
        result("poll", sched_poll(&p, 1, now + 200000));
        break;
    case 8:
        result("expand_array", evtchn_expand_array(below(2) ? rnd() : gfn_of(ARR_PAGE(0))));
        break;
    case 9:
        result("init_control", evtchn_init_control(below(2) ? rnd() : gfn_of(CB_PAGE(0)),
                                                    below(2) ? (uint32_t)rnd() : 8 * below(512),
                                                    below(3), NULL));
        break;
    case 10:
        fifo_consume(0);
        break;
    default:
        hypercall_sched_op(SCHEDOP_yield, NULL);
        break;
    }
}

static void fill_canaries(void)
{
    unsigned int i, j;

    for ( i = 0; i < NR_PAGES; i += 2 )
        for ( j = 0; j < PAGE_SIZE / 8; j++ )
            ((uint64_t *)pages[i])[j] = CANARY ^ (i * 4096 + j);
}

static unsigned int canaries_changed(void)
{
    unsigned int i, j, bad = 0;

    for ( i = 0; i < NR_PAGES; i += 2 )
        for ( j = 0; j < PAGE_SIZE / 8; j++ )
            bad += ((uint64_t *)pages[i])[j] != (CANARY ^ (i * 4096 + j));
    return bad;
}

static void setup_fifo(void)
{
    unsigned int i;

    memset(CB_PAGE(0), 0, PAGE_SIZE);
    memset(CB_PAGE(1), 0, PAGE_SIZE);
    cb[0] = (void *)CB_PAGE(0);
    cb[1] = (void *)(CB_PAGE(1) + 2048);
    if ( fifo_setup_vcpu(0, cb[0]) || fifo_setup_vcpu(1, cb[1]) )
        xtf_failure("Fail: init_control\n");
    for ( i = 0; i < NR_ARRAY; i++ )
    {
        memset(ARR_PAGE(i), 0, PAGE_SIZE);
        if ( fifo_add_page(ARR_PAGE(i)) )
            xtf_failure("Fail: expand_array %u\n", i);
    }
}

static void test_scribble(unsigned long iters)
{
    struct vcpu_set_periodic_timer pt = { .period_ns = 1000000 };
    evtchn_port_t a, b;
    unsigned long i, spins;

    printk("Scribbling while events arrive (%lu operations):\n", iters);
    fill_canaries();
    setup_fifo();
    for ( i = 0; i < NR_PORTS - 4; i++ )
        if ( evtchn_bind_ipi(below(2), &ports[i]) )
            xtf_failure("Fail: bind_ipi\n");
    if ( evtchn_alloc_unbound(DOMID_SELF, DOMID_SELF, &a) ||
         evtchn_bind_interdomain(DOMID_SELF, a, &b) ||
         evtchn_bind_virq(VIRQ_TIMER, 0, &ports[NR_PORTS - 2]) ||
         evtchn_bind_virq(VIRQ_TIMER, 1, &ports[NR_PORTS - 1]) )
        xtf_failure("Fail: binding\n");
    ports[NR_PORTS - 4] = a;
    ports[NR_PORTS - 3] = b;
    check_rc("periodic timer on vCPU 0 (1 ms)",
             hypercall_vcpu_op(VCPUOP_set_periodic_timer, 0, &pt), 0);
    check_rc("periodic timer on vCPU 1 (1 ms)",
             hypercall_vcpu_op(VCPUOP_set_periodic_timer, 1, &pt), 0);

    scribble = true;
    for ( i = 0; i < iters; i++ )
    {
        one_op();
        if ( (i + 1) % 500 == 0 )
            printk("  %lu operations, %lu scribbles\n", i + 1, scribbles);
    }
    scribble = false;
    for ( spins = 0; !ap_stopped && spins < 1000; spins++ )
        hypercall_sched_op(SCHEDOP_yield, NULL);
    check_true("vCPU 1 stopped scribbling", ap_stopped);

    hypercall_vcpu_op(VCPUOP_stop_periodic_timer, 0, NULL);
    hypercall_vcpu_op(VCPUOP_stop_periodic_timer, 1, NULL);
    printk("  %lu hypercalls, %lu errors, %lu scribbles by vCPU 1, %u events consumed\n",
           hcalls, errors, scribbles, fifo_log_len[0]);
    check_true("every hypercall returned 0 or one of Xen's errnos", !bad_results);
    check_true("vCPU 1 scribbled while vCPU 0 worked", scribbles > 1000);
    check_true("nothing outside the registered frames changed", !canaries_changed());
    check_rc("EVTCHNOP_reset", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
}

/* After all that, FIFO from scratch must be exact. */
static void test_clean_afterwards(void)
{
    evtchn_port_t p[3], want[3];
    unsigned int n0;
    bool ok;

    printk("A clean start afterwards:\n");
    setup_fifo();
    if ( evtchn_bind_ipi(0, &p[0]) || evtchn_bind_ipi(0, &p[1]) || evtchn_bind_ipi(0, &p[2]) ||
         evtchn_set_priority(p[0], 9) || evtchn_set_priority(p[1], 1) )
        xtf_failure("Fail: binding\n");
    fifo_log_len[0] = 0;                /* the run filled the log past its end */
    n0 = 0;
    evtchn_send(p[0]);
    evtchn_send(p[2]);
    evtchn_send(p[1]);
    check_true("READY exactly 1, 7, 9", cb[0]->ready == ((1u << 1) | (1u << 7) | (1u << 9)));
    fifo_consume(0);
    want[0] = p[1]; want[1] = p[2]; want[2] = p[0];
    ok = fifo_log_len[0] - n0 == 3;
    for ( unsigned int i = 0; ok && i < 3; i++ )
        ok = fifo_log[0][n0 + i] == want[i];
    if ( !ok )
        printk("  handled %u: %u %u %u (%u %u %u expected)\n", fifo_log_len[0] - n0,
               fifo_log[0][n0], fifo_log[0][n0 + 1], fifo_log[0][n0 + 2],
               want[0], want[1], want[2]);
    check_true("delivered in priority order, each once", ok);
    check_true("vCPU 1's block untouched", !cb[1]->ready);
}

/* The frames are held: moving shared_info over the block's gfn changes nothing. */
static void test_frame_held(void)
{
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_shared_info, .idx = 0,
        .gpfn = gfn_of(move_page),
    };
    volatile uint64_t *pending = (volatile uint64_t *)(move_page + 2048);
    evtchn_port_t p;
    unsigned int i;
    bool clean = true;

    printk("Control block frames are held, not looked up again:\n");
    check_rc("reset", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
    /* vCPU 0's block at offset 2048 of move_page: shared_info's evtchn_pending there. */
    memset(move_page, 0, PAGE_SIZE);
    check_rc("init_control vCPU 0 in move_page at 2048",
             fifo_setup_vcpu(0, (void *)(move_page + 2048)), 0);
    memset(ARR_PAGE(0), 0, PAGE_SIZE);
    check_rc("expand_array", fifo_add_page(ARR_PAGE(0)), 0);
    check_rc("bind_ipi", evtchn_bind_ipi(0, &p), 0);
    check_rc("shared_info moved over move_page's gfn",
             hypercall_memory_op(XENMEM_add_to_physmap, &xatp), 0);
    shared_info = (void *)move_page;    /* its old gfn is a hole now */
    for ( i = 0; i < 2; i++ )
        vcpu_info[i] = &shared_info->vcpu_info[i];
    for ( i = 0; i < 8; i++ )
        clean &= !pending[i];
    check_true("shared_info's evtchn_pending is clear", clean);
    check_rc("send (the hypervisor writes HEAD and READY)", evtchn_send(p), 0);
    for ( i = 0; i < 8; i++ )
        clean &= !pending[i];
    check_true("...into the frame it holds, not into shared_info", clean);
    check_true("the event word was written", fifo_test(p, EVTCHN_FIFO_LINKED));
    check_rc("reset", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
}

void test_main(void)
{
    unsigned long spins;

    rng_state = cmdline_ulong("seed", 1);
    trace = cmdline_ulong("trace", 0);
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    if ( vcpu_count() != 2 )
        return xtf_error("Error: run this with vcpus=2\n");
    cli();
    if ( vcpu_start(1, ap_main) )
        return xtf_failure("Fail: cannot start vCPU 1\n");
    for ( spins = 0; !ap_ready && spins < 1000; spins++ )
        hypercall_sched_op(SCHEDOP_yield, NULL);
    test_scribble(cmdline_ulong("iters", 3000));
    test_clean_afterwards();
    test_frame_held();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FIFO event channel control-block operations (class fifo): init_control
 * with random gfns, offsets and vCPUs, expand_array with random gfns (and
 * now and then up to the 128th page and -ENOSPC), set_priority,
 * EVTCHNOP_reset, and IPIs sent so that events flow through whatever
 * queues exist.
 *
 * The hypervisor writes into the frames these calls register, so, as for
 * the other calls that make it write where the guest says (hcall.c), a
 * gfn that is our RAM is always one of the scratch pages: fuzz_fill_scratch
 * then scribbles over the control block and the event words, which is
 * part of the test.  Any other gfn is not RAM of ours (beyond RAM, beyond
 * the address width, the local APIC page, -1, -2).  So the result of
 * init_control and expand_array is known exactly, from a model of the
 * domain's FIFO state (Xen's errnos: -ENOENT no such vCPU; -EINVAL
 * offset, alignment, a frame that is not our RAM, a vCPU initialised
 * twice; -EOPNOTSUPP expand before init; -ENOSPC past 128 pages), and
 * must be that.  A random EVTCHNOP_reset from class hcall that succeeds
 * tells the model (fifo_note_reset).  The run ends with a reset that
 * must take the domain back to 2-level.
 */
#include "fuzz.h"
#include "events.h"

#define CB_SIZE ((unsigned long)sizeof(struct evtchn_fifo_control_block))

static bool fifo_on;                    /* vCPU 0 has a control block */
static unsigned int fifo_pages;         /* event-array pages added */
static evtchn_port_t ipis[8];
static unsigned int nr_ipis;
static unsigned long n_init, n_init_ok, n_expand, n_expand_ok, n_prio, n_reset, n_sent;

void fifo_note_reset(void)
{
    fifo_on = false;
    fifo_pages = 0;
    nr_ipis = 0;
}

/* A gfn, and whether it is RAM of ours (then a scratch page). */
static uint64_t pick_gfn(bool *ram)
{
    static const uint64_t bad[] = {
        ~0ULL, ~0ULL - 1, 1ULL << 40, 1ULL << 36, 0xfffffffffULL, 0x100000, 0xc0000, 0xfee00,
    };
    unsigned long s0 = (unsigned long)scratch >> PAGE_SHIFT;
    /* RAM is [0, the start-info page], which sits right above the scratch area. */
    unsigned long top = ((unsigned long)scratch + scratch_size) >> PAGE_SHIFT;
    uint64_t g;

    switch ( fuzz_below(4) )
    {
    case 0: case 1:
        *ram = true;
        return s0 + fuzz_below(scratch_size >> PAGE_SHIFT);
    case 2:
        *ram = false;
        return bad[fuzz_below(ARRAY_SIZE(bad))];
    default:
        g = fuzz_value();
        if ( g <= top )
        {
            *ram = true;
            return s0 + g % (scratch_size >> PAGE_SHIFT);
        }
        *ram = false;
        return g;
    }
}

static uint32_t pick_offset(void)
{
    static const uint32_t edge[] = {
        0, 8, 16, 4024, 4016, 4, 4028, 4032, 4088, 4096, 0x80000000u, ~0u, ~0u - 7,
    };

    if ( fuzz_chance(50) )
        return edge[fuzz_below(ARRAY_SIZE(edge))];
    return fuzz_chance(50) ? 8 * fuzz_below(PAGE_SIZE / 8) : (uint32_t)fuzz_value();
}

static uint32_t pick_vcpu(void)
{
    static const uint32_t v[] = { 0, 0, 0, 1, 2, 7, 8, 0xffff, ~0u };

    return v[fuzz_below(ARRAY_SIZE(v))];
}

static void expect(const char *what, long rc, long want, uint64_t a, uint64_t b, uint64_t c)
{
    count_hcall(rc);
    if ( rc != want )
        fuzz_fail("fifo: %s (%#lx, %#lx, %#lx) returned %ld, expected %ld\n", what,
                  (unsigned long)a, (unsigned long)b, (unsigned long)c, rc, want);
}

static void fifo_init_control(void)
{
    bool ram;
    uint64_t gfn = pick_gfn(&ram);
    uint32_t off = pick_offset(), vcpu = pick_vcpu();
    struct evtchn_init_control ic = { .control_gfn = gfn, .offset = off, .vcpu = vcpu };
    long want, rc;

    if ( vcpu != 0 )
        want = -XEN_ENOENT;         /* we have one vCPU */
    else if ( off > PAGE_SIZE - CB_SIZE || (off & 7) )
        want = -XEN_EINVAL;
    else if ( fifo_on )
        want = -XEN_EINVAL;         /* vCPU 0 already has one */
    else if ( !ram )
        want = -XEN_EINVAL;
    else
        want = 0;
    n_init++;
    trace("fifo: init_control(%#lx, %#x, %u)\n", (unsigned long)gfn, off, vcpu);
    if ( fuzz_chance(5) )
    {
        rc = hypercall_event_channel_op(EVTCHNOP_init_control,
                                        (void *)(fuzz_chance(50) ? UNMAPPED_VA : NOT_RAM_VA));
        expect("init_control, unreadable argument", rc, -XEN_EFAULT, gfn, off, vcpu);
        return;
    }
    rc = hypercall_event_channel_op(EVTCHNOP_init_control, &ic);
    expect("init_control", rc, want, gfn, off, vcpu);
    if ( !rc )
    {
        n_init_ok++;
        fifo_on = true;
        if ( ic.link_bits != EVTCHN_FIFO_LINK_BITS )
            fuzz_fail("fifo: init_control gave link_bits %u\n", ic.link_bits);
    }
}

static void fifo_expand_array(void)
{
    bool ram;
    uint64_t gfn = pick_gfn(&ram);
    struct evtchn_expand_array ea = { .array_gfn = gfn };
    long want, rc;

    if ( !fifo_on )
        want = -XEN_EOPNOTSUPP;
    else if ( fifo_pages >= EVTCHN_FIFO_NR_CHANNELS / (PAGE_SIZE / sizeof(event_word_t)) )
        want = -XEN_ENOSPC;
    else if ( !ram )
        want = -XEN_EINVAL;
    else
        want = 0;
    n_expand++;
    trace("fifo: expand_array(%#lx)\n", (unsigned long)gfn);
    rc = hypercall_event_channel_op(EVTCHNOP_expand_array, &ea);
    expect("expand_array", rc, want, gfn, 0, 0);
    if ( !rc )
    {
        n_expand_ok++;
        fifo_pages++;
    }
}

static void fifo_set_priority(void)
{
    evtchn_port_t port = nr_ipis && fuzz_chance(70) ? ipis[fuzz_below(nr_ipis)]
                                                    : (evtchn_port_t)fuzz_value();
    uint32_t prio = fuzz_chance(70) ? fuzz_below(16) : (uint32_t)fuzz_value();
    struct evtchn_set_priority sp = { .port = port, .priority = prio };
    long rc;

    n_prio++;
    trace("fifo: set_priority(%u, %u)\n", port, prio);
    rc = hypercall_event_channel_op(EVTCHNOP_set_priority, &sp);
    count_hcall(rc);
    /* Our ports may have been closed by class hcall meanwhile: Xen's set of answers. */
    if ( rc != 0 && rc != -XEN_EINVAL && rc != -XEN_ENOSYS && rc != -XEN_EACCES )
        fuzz_fail("fifo: set_priority(%u, %u) returned %ld\n", port, prio, rc);
    if ( rc == -XEN_ENOSYS && fifo_on )
        fuzz_fail("fifo: set_priority -ENOSYS with FIFO on\n");
    if ( rc == 0 && (!fifo_on || prio > EVTCHN_FIFO_PRIORITY_MIN) )
        fuzz_fail("fifo: set_priority(%u, %u) succeeded (FIFO %s)\n", port, prio,
                  fifo_on ? "on" : "off");
}

static void fifo_send(void)
{
    struct evtchn_bind_ipi bi = { .vcpu = 0 };
    struct evtchn_send s;
    long rc;

    if ( nr_ipis < ARRAY_SIZE(ipis) && fuzz_chance(30) )
    {
        rc = hypercall_event_channel_op(EVTCHNOP_bind_ipi, &bi);
        count_hcall(rc);
        if ( !rc )
            ipis[nr_ipis++] = bi.port;
        return;
    }
    if ( !nr_ipis )
        return;
    s.port = ipis[fuzz_below(nr_ipis)];
    n_sent++;
    trace("fifo: send(%u)\n", s.port);
    rc = hypercall_event_channel_op(EVTCHNOP_send, &s);
    count_hcall(rc);
    if ( rc != 0 && rc != -XEN_EINVAL )     /* -EINVAL: closed by class hcall */
        fuzz_fail("fifo: send(%u) returned %ld\n", s.port, rc);
}

static void fifo_reset(void)
{
    struct evtchn_reset r = { .dom = fuzz_chance(50) ? DOMID_SELF : cpuid_domid() };
    long rc;

    n_reset++;
    trace("fifo: reset(%#x)\n", r.dom);
    rc = hypercall_event_channel_op(EVTCHNOP_reset, &r);
    expect("reset", rc, 0, r.dom, 0, 0);
    fifo_note_reset();
}

/* expand_array with scratch pages until the 128th (then -ENOSPC, exactly). */
static void fifo_fill(void)
{
    unsigned long s0 = (unsigned long)scratch >> PAGE_SHIFT;
    unsigned int i;

    trace("fifo: fill\n");
    for ( i = 0; i <= EVTCHN_FIFO_NR_CHANNELS / (PAGE_SIZE / sizeof(event_word_t)); i++ )
    {
        struct evtchn_expand_array ea = { .array_gfn = s0 + i % (scratch_size >> PAGE_SHIFT) };
        long want = !fifo_on ? -XEN_EOPNOTSUPP :
                    fifo_pages >= EVTCHN_FIFO_NR_CHANNELS / (PAGE_SIZE / sizeof(event_word_t))
                    ? -XEN_ENOSPC : 0;
        long rc = hypercall_event_channel_op(EVTCHNOP_expand_array, &ea);

        n_expand++;
        expect("expand_array (fill)", rc, want, ea.array_gfn, fifo_pages, 0);
        if ( rc )
            break;
        n_expand_ok++;
        fifo_pages++;
    }
}

void fuzz_fifo(void)
{
    switch ( fuzz_below(64) )
    {
    case 0 ... 19:
        fifo_init_control();
        break;
    case 20 ... 35:
        fifo_expand_array();
        break;
    case 36 ... 43:
        fifo_set_priority();
        break;
    case 44:
        fifo_reset();
        break;
    case 45:
        fifo_fill();
        break;
    default:
        fifo_send();
        break;
    }
}

void fifo_final_check(void)
{
    struct evtchn_reset r = { .dom = DOMID_SELF };
    struct evtchn_expand_array ea = { .array_gfn = (unsigned long)scratch >> PAGE_SHIFT };

    printk("summary: fifo: init_control %lu (%lu took), expand_array %lu (%lu took), "
           "set_priority %lu, reset %lu, sent %lu\n", n_init, n_init_ok, n_expand, n_expand_ok,
           n_prio, n_reset, n_sent);
    if ( fuzz_enabled(FC_FIFO) && !n_init_ok )
        printk("summary: fifo: init_control never took (a short run)\n");
    expect("the final reset", hypercall_event_channel_op(EVTCHNOP_reset, &r), 0, 0, 0, 0);
    fifo_note_reset();
    expect("expand_array after the final reset",
           hypercall_event_channel_op(EVTCHNOP_expand_array, &ea), -XEN_EOPNOTSUPP, 0, 0, 0);
}

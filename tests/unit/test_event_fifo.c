/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/event_fifo.c, compiled here as it is (included below) with a
 * faked domain around it: two vCPUs, a p2m of a few frames with reference
 * counts, an allocator that counts what is live, and a guest that may
 * change an event word between the hypervisor's read and its
 * compare-and-exchange (guest_cmpxchg, the one seam).  Checked:
 *
 *   init_control's validation before anything is allocated or referenced
 *   (XSA-188's class), the frame references taken and dropped, the switch
 *   carrying a 2-level pending port over, expand_array's limit of 128
 *   pages; the queue protocol (HEAD when the queue is empty, the tail's
 *   LINK otherwise, READY and the upcall only on an empty queue, masked
 *   ports unlinked, the old queue's tail forgotten when a port moves,
 *   pollers woken on the 0 -> 1 edge only, an event without a control
 *   block dropped and logged once); the tail's LINK under a guest that
 *   keeps changing the word: given up on after exactly 5 exchanges, BUSY
 *   left clear; log-dirty told of every frame written; and teardown
 *   freeing everything.
 */
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/mm.h>
#include <asm/p2m.h>

#include "harness.h"

/* ---- the guest writing between read and exchange --------------------------- */

static unsigned int cmpxchg_calls;
/* What the "guest" does to the word just before each exchange: none, or xor. */
static uint32_t guest_flip;
static unsigned int guest_flips_left;

static uint32_t test_cmpxchg(uint32_t *p, uint32_t old, uint32_t new)
{
    cmpxchg_calls++;
    if ( guest_flips_left )
    {
        guest_flips_left--;
        *p ^= guest_flip;
    }
    return __sync_val_compare_and_swap(p, old, new);
}
#define guest_cmpxchg test_cmpxchg

#include "../../xen/common/event_fifo.c"

/* ---- the faked domain ------------------------------------------------------------ */

static struct domain dom;
static struct vcpu vcpus[2];
static struct vcpu *vcpu_table[2] = { &vcpus[0], &vcpus[1] };
static struct shared_info shinfo;

#define NR_PORTS 4096
static struct evtchn chans[NR_PORTS];
static unsigned int upcalls[2], poll_checks;

struct evtchn *evtchn_from_port(const struct domain *d, unsigned int port)
{
    (void)d;
    return &chans[port % NR_PORTS];
}

void evtchn_check_pollers(struct domain *d, unsigned int port)
{
    (void)d;
    (void)port;
    poll_checks++;
}

void vcpu_mark_events_pending(struct vcpu *v)
{
    upcalls[v->vcpu_id]++;
}

struct vcpu *domain_vcpu(const struct domain *d, unsigned int id)
{
    return id < d->max_vcpus ? d->vcpu[id] : NULL;
}

/* Frames: gfn 0x100 + i is frames[i], owned by dom, one reference each. */
#define NR_FRAMES 8
#define GFN0      0x100
static uint8_t frames[NR_FRAMES][PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static unsigned int refs[NR_FRAMES];
static unsigned long dirty_gfns[64];
static unsigned int nr_dirty;

static int frame_index(mfn_t mfn)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES; i++ )
        if ( virt_to_mfn(frames[i]) == mfn )
            return i;
    return -1;
}

unsigned long p2m_max_gfn(void)
{
    return (1UL << 36) - 1;
}

unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t)
{
    (void)d;
    if ( gfn == 0xfee00 )           /* the APIC access page: not RAM */
    {
        *t = p2m_mmio_direct;
        return 0x12345;
    }
    if ( gfn == GFN0 + NR_FRAMES )  /* RAM, but somebody else's frame */
    {
        *t = p2m_ram_rw;
        return 0x54321;
    }
    if ( gfn < GFN0 || gfn >= GFN0 + NR_FRAMES )
        return INVALID_MFN;
    *t = p2m_ram_rw;
    return virt_to_mfn(frames[gfn - GFN0]);
}

bool get_page(mfn_t mfn, const struct domain *d)
{
    int i = frame_index(mfn);

    if ( i < 0 || d != &dom )
        return false;
    refs[i]++;
    return true;
}

void put_page(mfn_t mfn)
{
    int i = frame_index(mfn);

    CHECK(i >= 0 && refs[i] > 1);   /* never the owner's own reference */
    if ( i >= 0 )
        refs[i]--;
}

void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn)
{
    (void)d;
    if ( nr_dirty < ARRAY_SIZE(dirty_gfns) )
        dirty_gfns[nr_dirty++] = gfn;
}

static bool dirtied(unsigned long gfn)
{
    unsigned int i;

    for ( i = 0; i < nr_dirty; i++ )
        if ( dirty_gfns[i] == gfn )
            return true;
    return false;
}

/* The heap: one block at a time is all FIFO needs; count what is live. */
static uint8_t heap[8192] __attribute__((aligned(16)));
static unsigned int live_allocs, total_allocs;

void *_xzalloc(size_t size, size_t align)
{
    (void)align;
    CHECK(size <= sizeof(heap) && !live_allocs);
    if ( size > sizeof(heap) || live_allocs )
        return NULL;
    live_allocs++;
    total_allocs++;
    memset(heap, 0, size);
    return heap;
}

void xfree(void *p)
{
    if ( !p )
        return;
    CHECK(p == heap && live_allocs == 1);
    live_allocs--;
}

static unsigned int total_refs(void)
{
    unsigned int i, n = 0;

    for ( i = 0; i < NR_FRAMES; i++ )
        n += refs[i] - 1;
    return n;
}

static void reset_domain(void)
{
    unsigned int i;

    memset(&dom, 0, sizeof(dom));
    memset(vcpus, 0, sizeof(vcpus));
    memset(chans, 0, sizeof(chans));
    memset(&shinfo, 0, sizeof(shinfo));
    memset(frames, 0, sizeof(frames));
    for ( i = 0; i < NR_FRAMES; i++ )
        refs[i] = 1;
    for ( i = 0; i < NR_PORTS; i++ )
        chans[i].port = i;
    for ( i = 0; i < 2; i++ )
    {
        vcpus[i].vcpu_id = i;
        vcpus[i].domain = &dom;
    }
    dom.max_vcpus = 2;
    dom.vcpu = vcpu_table;
    dom.shared_info = &shinfo;
    dom.shared_info_gfn = INVALID_GFN;
    dom.valid_evtchns = 128;
    chans[0].state = ECS_RESERVED;
    current = &vcpus[0];
    upcalls[0] = upcalls[1] = poll_checks = 0;
    nr_dirty = 0;
    printk_reset();
}

static int init_control(uint64_t gfn, uint32_t offset, uint32_t vcpu)
{
    struct evtchn_init_control ic = { .control_gfn = gfn, .offset = offset, .vcpu = vcpu };
    int rc = evtchn_fifo_init_control(&ic);

    CHECK_EQ(ic.link_bits, EVTCHN_FIFO_LINK_BITS);
    return rc;
}

static int expand(uint64_t gfn)
{
    struct evtchn_expand_array ea = { .array_gfn = gfn };

    return evtchn_fifo_expand_array(&ea);
}

static unsigned int count_lines(const char *s)
{
    unsigned int n = 0;

    for ( ; *s; s++ )
        n += *s == '\n';
    return n;
}

static struct evtchn *bind(unsigned int port, unsigned int vcpu)
{
    struct evtchn *chn = &chans[port];

    chn->state = ECS_IPI;
    chn->notify_vcpu_id = vcpu;
    dom.evtchn_port_ops->init(&dom, chn);
    return chn;
}

static void raise(struct evtchn *chn)
{
    dom.evtchn_port_ops->set_pending(domain_vcpu(&dom, chn->notify_vcpu_id), chn);
}

static event_word_t *word(unsigned int port)
{
    return (event_word_t *)frames[2] + port;    /* the array's first page is frame 2 */
}

#define CB0 ((struct evtchn_fifo_control_block *)frames[0])
#define CB1 ((struct evtchn_fifo_control_block *)(frames[1] + 4024))
#define W(b) (1u << EVTCHN_FIFO_##b)

/* ---- the tests ---------------------------------------------------------------------- */

static void test_validation(void)
{
    reset_domain();
    CHECK_EQ(init_control(GFN0, 0, 2), -ENOENT);
    CHECK_EQ(init_control(GFN0, 4032, 0), -EINVAL);
    CHECK_EQ(init_control(GFN0, 4028, 0), -EINVAL);
    CHECK_EQ(init_control(GFN0, 12, 0), -EINVAL);
    CHECK_EQ(init_control((uint64_t)-2, 0, 0), -EINVAL);
    CHECK_EQ(init_control(1UL << 40, 0, 0), -EINVAL);
    CHECK_EQ(init_control(0xfee00, 0, 0), -EINVAL);
    CHECK_EQ(init_control(GFN0 + NR_FRAMES, 0, 0), -EINVAL);  /* not our frame */
    CHECK_EQ(init_control(0x5000, 0, 0), -EINVAL);            /* a hole */
    /* XSA-188's class: nothing allocated, referenced or switched by a failure. */
    CHECK_EQ(total_allocs, 0);
    CHECK_EQ(total_refs(), 0);
    CHECK(dom.evtchn_fifo == NULL);
    CHECK_EQ(expand(GFN0 + 2), -EOPNOTSUPP);

    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    CHECK(dom.evtchn_port_ops == &evtchn_port_ops_fifo);
    CHECK_EQ(refs[0], 2);
    CHECK_EQ(init_control(GFN0 + 1, 0, 0), -EINVAL);          /* vCPU 0 again */
    CHECK_EQ(refs[1], 1);
    CHECK_EQ(init_control(GFN0 + 1, 4024, 1), 0);
    CHECK_EQ(init_control(GFN0 + 1, 4024, 1), -EINVAL);
    CHECK_EQ(total_allocs, 1);
    CHECK_EQ(expand((uint64_t)-1), -EINVAL);
    CHECK_EQ(expand(0xfee00), -EINVAL);
    CHECK_EQ(total_refs(), 2);
    evtchn_fifo_destroy(&dom);
    CHECK_EQ(total_refs(), 0);
    CHECK_EQ(live_allocs, 0);
    CHECK(dom.evtchn_fifo == NULL);
}

static void test_limits(void)
{
    unsigned int i;

    reset_domain();
    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    /* 128 pages, the same frame every time (Xen allows it), then -ENOSPC. */
    for ( i = 0; i < EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES; i++ )
        if ( expand(GFN0 + 2) )
            break;
    CHECK_EQ(i, 128);
    CHECK_EQ(refs[2], 1 + 128);
    CHECK_EQ(expand(GFN0 + 3), -ENOSPC);
    CHECK_EQ(refs[3], 1);
    CHECK_EQ(dom.evtchn_fifo->num_evtchns, EVTCHN_FIFO_NR_CHANNELS);
    evtchn_fifo_destroy(&dom);
    CHECK_EQ(total_refs(), 0);
    CHECK_EQ(live_allocs, 0);
}

static void test_carry_over(void)
{
    struct evtchn *a, *b;

    reset_domain();
    a = &chans[5];
    a->state = ECS_IPI;
    b = &chans[70];
    b->state = ECS_IPI;
    set_bit(5, shinfo.evtchn_pending);
    set_bit(9, shinfo.evtchn_pending);          /* a free port: stays */
    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    CHECK(!test_bit(5, shinfo.evtchn_pending));
    CHECK(test_bit(9, shinfo.evtchn_pending));
    CHECK(a->pending && !b->pending);
    CHECK_EQ(a->priority, EVTCHN_FIFO_PRIORITY_DEFAULT);
    CHECK_EQ(upcalls[0], 0);
    CHECK_EQ(expand(GFN0 + 2), 0);
    CHECK(!a->pending);
    CHECK_EQ(*word(5), W(PENDING) | W(LINKED));
    CHECK_EQ(CB0->head[7], 5);
    CHECK_EQ(CB0->ready, 1u << 7);
    CHECK_EQ(upcalls[0], 1);
    evtchn_fifo_destroy(&dom);
}

static void test_queues(void)
{
    struct evtchn *p1, *p2, *p3, *m, *x;

    reset_domain();
    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    CHECK_EQ(expand(GFN0 + 2), 0);
    p1 = bind(1, 0);
    p2 = bind(2, 0);
    p3 = bind(3, 0);
    m = bind(4, 0);

    /* Empty queue: HEAD, READY, one upcall; then the tail's LINK only. */
    raise(p1);
    CHECK_EQ(CB0->head[7], 1);
    CHECK_EQ(CB0->ready, 1u << 7);
    CHECK_EQ(upcalls[0], 1);
    CHECK_EQ(poll_checks, 1);
    raise(p2);
    raise(p3);
    CHECK_EQ(CB0->head[7], 1);
    CHECK_EQ(*word(1) & EVTCHN_FIFO_LINK_MASK, 2);
    CHECK_EQ(*word(2) & EVTCHN_FIFO_LINK_MASK, 3);
    CHECK_EQ(*word(3), W(PENDING) | W(LINKED));
    CHECK_EQ(upcalls[0], 1);
    raise(p2);                                  /* already pending and linked */
    CHECK_EQ(poll_checks, 3);
    CHECK_EQ(*word(2) & EVTCHN_FIFO_LINK_MASK, 3);

    /* The guest consumes 1, 2, 3 (clears LINKED and LINK, then PENDING). */
    *word(1) = *word(2) = *word(3) = 0;
    CB0->ready = 0;
    raise(p1);                                  /* tail 3 unlinked: HEAD again */
    CHECK_EQ(CB0->head[7], 1);
    CHECK_EQ(CB0->ready, 1u << 7);
    CHECK_EQ(upcalls[0], 2);
    *word(1) = 0;

    /* Masked: PENDING only. */
    *word(4) = W(MASKED);
    raise(m);
    CHECK_EQ(*word(4), W(MASKED) | W(PENDING));
    dom.evtchn_port_ops->unmask(&dom, m);
    CHECK_EQ(*word(4), W(PENDING) | W(LINKED));
    CHECK(dom.evtchn_port_ops->is_busy(&dom, m));
    *word(4) = 0;

    /* Moved after consumption: the old queue forgets its tail. */
    CB0->ready = 0;
    raise(p1);                                  /* queue 7: 1 */
    *word(1) = 0;                               /* consumed */
    CHECK_EQ(dom.evtchn_port_ops->set_priority(&dom, p1, 2), 0);
    CHECK_EQ(dom.evtchn_port_ops->set_priority(&dom, p1, 16), -EINVAL);
    raise(p1);                                  /* queue 2 */
    CHECK_EQ(CB0->head[2], 1);
    CB0->head[7] = 0;
    raise(p2);                                  /* queue 7 is empty: HEAD, not 1's LINK */
    CHECK_EQ(CB0->head[7], 2);
    CHECK_EQ(*word(1) & EVTCHN_FIFO_LINK_MASK, 0);
    *word(1) = *word(2) = 0;

    /* Rebound to vCPU 1: its own block, at offset 4024. */
    CHECK_EQ(init_control(GFN0 + 1, 4024, 1), 0);
    p3->notify_vcpu_id = 1;
    raise(p3);
    CHECK_EQ(CB1->head[7], 3);
    CHECK_EQ(CB1->ready, 1u << 7);
    CHECK_EQ(upcalls[1], 1);

    /* No event word for the port yet: kept for expand_array. */
    x = bind(1500, 0);
    raise(x);
    CHECK(x->pending);

    /* log-dirty is told of the array page and both blocks. */
    nr_dirty = 0;
    dom.arch.paging.log_dirty.enabled = true;
    *word(3) = 0;
    CB1->ready = 0;
    raise(p3);
    CHECK(dirtied(GFN0 + 2) && dirtied(GFN0 + 1));
    raise(p1);
    CHECK(dirtied(GFN0));
    dom.arch.paging.log_dirty.enabled = false;
    evtchn_fifo_destroy(&dom);
    CHECK_EQ(total_refs(), 0);
}

static void test_no_control_block(void)
{
    struct evtchn *p;

    reset_domain();
    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    CHECK_EQ(expand(GFN0 + 2), 0);
    p = bind(6, 1);                             /* vCPU 1 has no block */
    printk_reset();
    raise(p);
    raise(p);
    CHECK_EQ(*word(6), 0);                      /* dropped, as Xen */
    CHECK_EQ(upcalls[1], 0);
    CHECK_CONTAINS(printk_log, "d0v1: FIFO event on port 6 dropped");
    CHECK_EQ(count_lines(printk_log), 1);        /* logged once */
    evtchn_fifo_destroy(&dom);
}

static void test_link_bounded(void)
{
    struct evtchn *t, *n;

    reset_domain();
    CHECK_EQ(init_control(GFN0, 0, 0), 0);
    CHECK_EQ(expand(GFN0 + 2), 0);
    t = bind(10, 0);
    n = bind(11, 0);
    raise(t);
    CB0->ready = 0;

    /* A guest that keeps toggling MASKED: 5 exchanges, then given up on. */
    cmpxchg_calls = 0;
    guest_flip = W(MASKED);
    guest_flips_left = ~0u;
    raise(n);
    guest_flips_left = 0;
    CHECK_EQ(cmpxchg_calls, EVTCHN_FIFO_LINK_TRIES + 1);
    CHECK_CONTAINS(printk_log, "port 10: its word keeps changing, not linked to 11");
    CHECK(!(*word(10) & W(BUSY)));
    CHECK_EQ(CB0->head[7], 10);                 /* HEAD not rewritten: lost to the guest */
    CHECK_EQ(CB0->ready, 0);

    /* One change only: the second exchange links it, clearing BUSY. */
    *word(10) = W(PENDING) | W(LINKED);
    *word(11) = 0;
    dom.evtchn_fifo->vcpu[0].tail[7] = 10;
    cmpxchg_calls = 0;
    guest_flip = W(MASKED);
    guest_flips_left = 1;
    raise(n);
    CHECK_EQ(cmpxchg_calls, 2);
    CHECK_EQ(*word(10) & EVTCHN_FIFO_LINK_MASK, 11);
    CHECK(!(*word(10) & W(BUSY)));

    /* The guest unlinks the tail meanwhile: the queue is empty, HEAD is written. */
    *word(11) = W(PENDING) | W(LINKED);
    *word(12) = 0;
    bind(12, 0);
    cmpxchg_calls = 0;
    guest_flip = W(LINKED);
    guest_flips_left = 1;
    raise(&chans[12]);
    CHECK_EQ(cmpxchg_calls, 1);
    CHECK_EQ(CB0->head[7], 12);
    CHECK(!(*word(11) & W(BUSY)));
    CHECK_EQ(CB0->ready, 1u << 7);
    evtchn_fifo_destroy(&dom);
    CHECK_EQ(total_refs(), 0);
    CHECK_EQ(live_allocs, 0);
}

void test_main(void)
{
    test_validation();
    test_limits();
    test_carry_over();
    test_queues();
    test_no_control_block();
    test_link_bounded();
}

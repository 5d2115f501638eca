/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO event channel ABI (Xen's common/event_fifo.c; the design is
 * David Vrabel's "FIFO-based event channel ABI", Xen 4.4).
 *
 * The guest gives, per vCPU, a control block in one of its frames
 * (EVTCHNOP_init_control: gfn and an 8-byte aligned offset) holding a
 * READY word and the HEAD of 16 queues, one per priority (0 highest, 15
 * lowest); and, for the whole domain, up to 128 pages of 32-bit event
 * words, added one at a time (EVTCHNOP_expand_array), 1024 ports a page,
 * 2^17 ports in all.  An event word holds PENDING, MASKED, LINKED and BUSY
 * and a 17-bit LINK to the next port of its queue.
 *
 * Raising a port sets PENDING; if the port is not MASKED and not already
 * LINKED it is linked at the tail of the queue of its priority on its
 * vCPU: the old tail's LINK is set to it (if the tail is still LINKED,
 * i.e. the guest has not consumed it yet), else HEAD is; and when the
 * queue was empty the priority's READY bit is set and the vCPU gets the
 * same upcall as with 2-level (evtchn_upcall_pending, the upcall vector).
 * The guest consumes from HEAD, clearing LINKED and LINK as it goes.
 *
 * The hypervisor keeps each queue's tail itself and never follows a LINK
 * the guest wrote, so a guest scribbling over its own words can lose its
 * own events, never make the hypervisor loop or write outside its frames.
 * The one loop on guest memory, the compare-and-exchange of the tail's
 * LINK, is bounded as Xen bounds it.  The frames are the caller's RAM,
 * held by a reference (get_page) while mapped, so they stay allocated and
 * stay the same frames until EVTCHNOP_reset or the domain's end, whatever
 * the guest does with its p2m; every write is reported to log-dirty.
 *
 * Locking: a port's operations run under its channel's lock (the
 * callers in event_channel.c), set-up, expansion and teardown under the
 * domain's event_lock.  The queues (each vCPU's tails, and a port's last
 * queue) are shared by every port of the domain, so linking a port into a
 * queue holds the domain's FIFO lock (f->lock, level LOCK_LEVEL_EVTCHN_FIFO,
 * under the channel's).  Xen has a lock per queue and moves a port between
 * queues by taking the old queue's, then the new one's; one lock per
 * domain covers a move in one section, and links are short.  The
 * protocol with the guest is lock-free, as Xen's.
 */
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/event_fifo.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <asm/bitops.h>
#include <asm/mm.h>
#include <asm/p2m.h>

/* A guest frame the hypervisor writes: mapped (identity map) and referenced. */
struct fifo_frame {
    void          *virt;            /* NULL: none */
    unsigned long  gfn;             /* where the guest has it (log-dirty) */
};

struct evtchn_fifo_vcpu {
    struct evtchn_fifo_control_block *control_block;   /* NULL: none yet */
    struct fifo_frame cb_frame;
    uint32_t tail[EVTCHN_FIFO_MAX_QUEUES];  /* the last port linked, 0: none */
    bool     dropped_logged;        /* "event dropped: no control block" said */
};

struct evtchn_fifo_domain {
    spinlock_t lock;                /* the queues: every tail, each port's last queue */
    struct fifo_frame event_array[EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES];
    unsigned int num_evtchns;       /* ports with an event word */
    unsigned int nr_vcpus;
    struct evtchn_fifo_vcpu vcpu[];  /* one per vCPU the domain may have */
};

/*
 * How often the tail's LINK is tried (Xen's evtchn_fifo_set_link): once,
 * then with BUSY set, which stops the guest unmasking; what it may still
 * do to a LINKED word (clear PENDING, set or clear MASKED, clear LINKED)
 * fails the exchange at most 4 more times.
 */
#define EVTCHN_FIFO_LINK_TRIES 4

/*
 * The one allocation FIFO makes for a domain, charged to the domain
 * (d->xmem, xen/xmalloc.h; its share of domain_xmem_limit()):
 * sizeof(struct evtchn_fifo_domain) + max_vcpus per-vCPU entries, about
 * 2.7 KiB for 8 vCPUs, one page with its header.
 */
static void *fifo_alloc(struct domain *d, size_t bytes)
{
    return domain_xzalloc_bytes(d, bytes);
}

static void fifo_free(struct domain *d, void *p)
{
    (void)d;
    xfree(p);
}

/* ---- guest memory ------------------------------------------------------------ */

/*
 * Atomic operations on 32-bit words in guest frames: single locked
 * instructions, no loops.  Host unit tests replace guest_cmpxchg with a
 * guest that writes the word between the read and the exchange
 * (tests/unit/test_event_fifo.c).
 */
#ifndef guest_cmpxchg
static inline uint32_t guest_cmpxchg(uint32_t *p, uint32_t old, uint32_t new)
{
    return __sync_val_compare_and_swap(p, old, new);
}
#endif

static inline uint32_t guest_read(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void guest_write(uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline bool guest_test_bit(unsigned int nr, const uint32_t *p)
{
    return (guest_read(p) >> nr) & 1;
}

static inline bool guest_test_and_set_bit(unsigned int nr, uint32_t *p)
{
    bool old;

    asm volatile ( "lock btsl %2, %1" : "=@ccc" (old), "+m" (*p) : "Ir" (nr) : "memory" );
    return old;
}

static inline void guest_set_bit(unsigned int nr, uint32_t *p)
{
    asm volatile ( "lock btsl %1, %0" : "+m" (*p) : "Ir" (nr) : "memory" );
}

static inline void guest_clear_bit(unsigned int nr, uint32_t *p)
{
    asm volatile ( "lock btrl %1, %0" : "+m" (*p) : "Ir" (nr) : "memory" );
}

/* The hypervisor wrote to a guest frame FIFO holds: log-dirty must know. */
static void frame_written(struct domain *d, const struct fifo_frame *f)
{
    if ( paging_mode_log_dirty(d) )
        p2m_note_hypervisor_write(d, f->gfn);
}

static event_word_t *word_from_port(const struct domain *d, unsigned int port)
{
    const struct evtchn_fifo_domain *f = d->evtchn_fifo;

    if ( !f || port >= f->num_evtchns )
        return NULL;
    return (event_word_t *)f->event_array[port / EVTCHN_FIFO_EVENT_WORDS_PER_PAGE].virt +
           port % EVTCHN_FIFO_EVENT_WORDS_PER_PAGE;
}

static void word_written(struct domain *d, unsigned int port)
{
    frame_written(d, &d->evtchn_fifo->event_array[port / EVTCHN_FIFO_EVENT_WORDS_PER_PAGE]);
}

/*
 * Take a reference to the frame at gfn if it is RAM of d (as Xen's
 * get_page_from_gfn + get_page_type(PGT_writable_page)): -EINVAL if not.
 */
static int fifo_map_frame(struct domain *d, uint64_t gfn, struct fifo_frame *f)
{
    unsigned long mfn;
    p2m_type_t t;

    if ( gfn > p2m_max_gfn() )
        return -EINVAL;
    mfn = p2m_get_entry(d, gfn, &t);
    if ( mfn == INVALID_MFN || (t != p2m_ram_rw && t != p2m_ram_logdirty) )
        return -EINVAL;
    if ( !get_page(mfn, d) )
        return -EINVAL;
    f->virt = mfn_to_virt(mfn);
    f->gfn = gfn;
    return 0;
}

static void fifo_unmap_frame(struct fifo_frame *f)
{
    if ( !f->virt )
        return;
    put_page(virt_to_mfn(f->virt));
    f->virt = NULL;
}

/* ---- the queues ---------------------------------------------------------------- */

/*
 * Set the LINK of the word of port 'tail' to 'link', if it is still
 * LINKED (Xen's evtchn_fifo_set_link).  False: it is not (the guest
 * consumed it), so the queue is empty and the caller writes HEAD.  A guest
 * that keeps changing the word beyond what the protocol allows is given
 * up on after EVTCHN_FIFO_LINK_TRIES more tries: the word is left as it is
 * and the new event is lost to the guest (true), as in Xen.
 */
static bool fifo_set_link(struct domain *d, unsigned int tail, uint32_t link)
{
    event_word_t *word = word_from_port(d, tail);
    event_word_t w, old, new;
    unsigned int try;
    bool busy = false, linked = true;

    if ( !word )
        return false;
    w = guest_read(word);
    for ( try = 0; try <= EVTCHN_FIFO_LINK_TRIES; try++ )
    {
        if ( !(w & (1u << EVTCHN_FIFO_LINKED)) )
        {
            linked = false;
            goto out;
        }
        old = w;
        new = (old & ~((1u << EVTCHN_FIFO_BUSY) | EVTCHN_FIFO_LINK_MASK)) | link;
        w = guest_cmpxchg(word, old, new);
        if ( w == old )
        {
            word_written(d, tail);
            return true;            /* BUSY, if we set it, cleared with it */
        }
        if ( !busy )
        {
            /* Stop the guest unmasking while we try again. */
            guest_set_bit(EVTCHN_FIFO_BUSY, word);
            busy = true;
            w = guest_read(word);
        }
    }
    printk(XENLOG_G_WARNING "d%u: FIFO port %u: its word keeps changing, not linked to %u\n",
           d->domain_id, tail, link);
 out:
    if ( busy )
        guest_clear_bit(EVTCHN_FIFO_BUSY, word);
    word_written(d, tail);
    return linked;
}

static void evtchn_fifo_set_pending(struct vcpu *v, struct evtchn *chn)
{
    struct domain *d = v->domain;
    struct evtchn_fifo_domain *f = d->evtchn_fifo;
    struct evtchn_fifo_vcpu *fv = &f->vcpu[v->vcpu_id];
    unsigned int port = chn->port, prio = chn->priority;
    event_word_t *word = word_from_port(d, port);
    uint32_t *old_tail;
    bool linked = true, newly_pending;

    /* No event word yet: raised when expand_array adds its page. */
    if ( !word )
    {
        chn->pending = true;
        return;
    }

    /*
     * No control block on this vCPU: the guest must not unmask a port it
     * cannot be told about, so the event is dropped, as in Xen.
     */
    if ( !fv->control_block )
    {
        if ( !fv->dropped_logged )
            printk(XENLOG_G_WARNING "d%uv%u: FIFO event on port %u dropped: the vCPU has "
                   "no control block\n", d->domain_id, v->vcpu_id, port);
        fv->dropped_logged = true;
        return;
    }

    newly_pending = !guest_test_and_set_bit(EVTCHN_FIFO_PENDING, word);

    spin_lock(&f->lock);
    if ( !guest_test_bit(EVTCHN_FIFO_MASKED, word) &&
         !guest_test_and_set_bit(EVTCHN_FIFO_LINKED, word) )
    {
        /*
         * It was the tail of the queue it was last on (which may be
         * another one: set_priority, bind_vcpu): that queue is empty now,
         * and must not link its next event to a port on another queue.
         */
        old_tail = &f->vcpu[chn->last_vcpu_id].tail[chn->last_priority];
        if ( *old_tail == port )
            *old_tail = 0;
        chn->last_vcpu_id = v->vcpu_id;
        chn->last_priority = prio;

        linked = fv->tail[prio] && fifo_set_link(d, fv->tail[prio], port);
        if ( !linked )
        {
            guest_write(&fv->control_block->head[prio], port);
            frame_written(d, &fv->cb_frame);
        }
        fv->tail[prio] = port;
    }
    spin_unlock(&f->lock);
    word_written(d, port);

    if ( !linked && !guest_test_and_set_bit(prio, &fv->control_block->ready) )
    {
        frame_written(d, &fv->cb_frame);
        vcpu_mark_events_pending(v);
    }

    if ( newly_pending )
        evtchn_check_pollers(d, port);
}

static void evtchn_fifo_init(struct domain *d, struct evtchn *chn)
{
    event_word_t *word = word_from_port(d, chn->port);

    chn->priority = EVTCHN_FIFO_PRIORITY_DEFAULT;
    /* get_free_port skips LINKED ports; only a guest's scribbling gets here. */
    if ( word && guest_test_bit(EVTCHN_FIFO_LINKED, word) )
        printk(XENLOG_G_INFO "d%u: FIFO port %u bound while still on a queue\n",
               d->domain_id, chn->port);
}

static void evtchn_fifo_clear_pending(struct domain *d, struct evtchn *chn)
{
    event_word_t *word = word_from_port(d, chn->port);

    /* The guest unlinks it, and skips it for not being pending. */
    if ( word )
    {
        guest_clear_bit(EVTCHN_FIFO_PENDING, word);
        word_written(d, chn->port);
    }
}

static void evtchn_fifo_unmask(struct domain *d, struct evtchn *chn)
{
    event_word_t *word = word_from_port(d, chn->port);
    struct vcpu *v = domain_vcpu(d, chn->notify_vcpu_id);

    if ( !word )
        return;
    guest_clear_bit(EVTCHN_FIFO_MASKED, word);
    word_written(d, chn->port);
    if ( v && guest_test_bit(EVTCHN_FIFO_PENDING, word) )
        evtchn_fifo_set_pending(v, chn);
}

static bool evtchn_fifo_is_pending(const struct domain *d, const struct evtchn *chn)
{
    const event_word_t *word = word_from_port(d, chn->port);

    return word && guest_test_bit(EVTCHN_FIFO_PENDING, word);
}

static bool evtchn_fifo_is_masked(const struct domain *d, const struct evtchn *chn)
{
    const event_word_t *word = word_from_port(d, chn->port);

    return !word || guest_test_bit(EVTCHN_FIFO_MASKED, word);
}

static bool evtchn_fifo_is_busy(const struct domain *d, const struct evtchn *chn)
{
    const event_word_t *word = word_from_port(d, chn->port);

    return word && guest_test_bit(EVTCHN_FIFO_LINKED, word);
}

/*
 * Only later events go to the new queue: one already LINKED stays where it
 * is until the guest consumes it (Xen's behaviour).
 */
static int evtchn_fifo_set_priority(struct domain *d, struct evtchn *chn,
                                    unsigned int priority)
{
    (void)d;
    if ( priority > EVTCHN_FIFO_PRIORITY_MIN )
        return -EINVAL;
    chn->priority = priority;
    return 0;
}

static void evtchn_fifo_print_state(const struct domain *d, const struct evtchn *chn)
{
    const event_word_t *word = word_from_port(d, chn->port);
    event_word_t w;

    if ( !word )
    {
        printk("?       ");
        return;
    }
    w = guest_read(word);
    printk("%c%c%c%c %-6u", w & (1u << EVTCHN_FIFO_PENDING) ? 'P' : '-',
           w & (1u << EVTCHN_FIFO_MASKED) ? 'M' : '-',
           w & (1u << EVTCHN_FIFO_LINKED) ? 'L' : '-',
           w & (1u << EVTCHN_FIFO_BUSY) ? 'B' : '-', w & EVTCHN_FIFO_LINK_MASK);
}

static const struct evtchn_port_ops evtchn_port_ops_fifo = {
    .init          = evtchn_fifo_init,
    .set_pending   = evtchn_fifo_set_pending,
    .clear_pending = evtchn_fifo_clear_pending,
    .unmask        = evtchn_fifo_unmask,
    .is_pending    = evtchn_fifo_is_pending,
    .is_masked     = evtchn_fifo_is_masked,
    .is_busy       = evtchn_fifo_is_busy,
    .set_priority  = evtchn_fifo_set_priority,
    .print_state   = evtchn_fifo_print_state,
};

/* ---- switching ABI, and the hypercalls -------------------------------------------- */

/*
 * The ports bound under 2-level come along (Xen's setup_ports): default
 * priority, and a port pending in the 2-level bitmap is raised once its
 * event word exists.  Beyond Xen, the 2-level bit is cleared (the state
 * moved), so a reset back to 2-level finds no stale bits.
 */
static void setup_ports(struct domain *d)
{
    unsigned int port;
    struct evtchn *chn;

    for ( port = 1; port < d->valid_evtchns && port < EVTCHN_2L_MAX; port++ )
    {
        chn = evtchn_from_port(d, port);
        chn->priority = EVTCHN_FIFO_PRIORITY_DEFAULT;
        chn->last_vcpu_id = 0;
        chn->last_priority = 0;
        if ( chn->state > ECS_RESERVED &&
             test_and_clear_bit(port, d->shared_info->evtchn_pending) )
            chn->pending = true;
    }
    if ( paging_mode_log_dirty(d) && d->shared_info_gfn != INVALID_GFN )
        p2m_note_hypervisor_write(d, d->shared_info_gfn);
}

int evtchn_fifo_init_control(struct evtchn_init_control *ic)
{
    struct domain *d = current->domain;
    struct evtchn_fifo_domain *f = d->evtchn_fifo;
    struct evtchn_fifo_vcpu *fv;
    struct fifo_frame frame;
    uint32_t offset = ic->offset;
    struct vcpu *v;
    int rc;

    ic->link_bits = EVTCHN_FIFO_LINK_BITS;

    /* Everything is checked before anything changes (cf. XSA-188). */
    if ( !(v = domain_vcpu(d, ic->vcpu)) )
        return -ENOENT;
    if ( offset > PAGE_SIZE - sizeof(struct evtchn_fifo_control_block) )
        return -EINVAL;             /* it must not cross the page */
    if ( offset & 7 )
        return -EINVAL;
    if ( f && f->vcpu[v->vcpu_id].control_block )
        return -EINVAL;             /* once per vCPU (until EVTCHNOP_reset) */
    if ( (rc = fifo_map_frame(d, ic->control_gfn, &frame)) )
        return rc;

    if ( !f )
    {
        f = fifo_alloc(d, sizeof(*f) + d->max_vcpus * sizeof(f->vcpu[0]));
        if ( !f )
        {
            fifo_unmap_frame(&frame);
            return -ENOMEM;
        }
        f->nr_vcpus = d->max_vcpus;
        spin_lock_init_level(&f->lock, "evtchn_fifo", LOCK_LEVEL_EVTCHN_FIFO);
        d->evtchn_fifo = f;
        d->evtchn_port_ops = &evtchn_port_ops_fifo;
        setup_ports(d);
        printk(XENLOG_G_INFO "d%u: FIFO event channels (vCPU %u first)\n",
               d->domain_id, v->vcpu_id);
    }

    fv = &f->vcpu[v->vcpu_id];
    fv->cb_frame = frame;
    fv->control_block = (void *)((char *)frame.virt + offset);
    return 0;
}

int evtchn_fifo_expand_array(const struct evtchn_expand_array *ea)
{
    struct domain *d = current->domain;
    struct evtchn_fifo_domain *f = d->evtchn_fifo;
    unsigned int slot, port;
    struct evtchn *chn;
    int rc;

    if ( !f )
        return -EOPNOTSUPP;
    slot = f->num_evtchns / EVTCHN_FIFO_EVENT_WORDS_PER_PAGE;
    if ( slot >= EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES )
        return -ENOSPC;
    if ( (rc = fifo_map_frame(d, ea->array_gfn, &f->event_array[slot])) )
        return rc;
    port = f->num_evtchns;
    f->num_evtchns += EVTCHN_FIFO_EVENT_WORDS_PER_PAGE;

    /* Raise what was raised while these ports had no word (at most a page's). */
    for ( ; port < f->num_evtchns && port < d->valid_evtchns; port++ )
    {
        chn = evtchn_from_port(d, port);
        spin_lock(&chn->lock);
        if ( chn->pending )
        {
            chn->pending = false;
            if ( chn->state > ECS_RESERVED && domain_vcpu(d, chn->notify_vcpu_id) )
                evtchn_fifo_set_pending(domain_vcpu(d, chn->notify_vcpu_id), chn);
        }
        spin_unlock(&chn->lock);
    }
    return 0;
}

void evtchn_fifo_destroy(struct domain *d)
{
    struct evtchn_fifo_domain *f = d->evtchn_fifo;
    unsigned int i;

    if ( !f )
        return;
    for ( i = 0; i < f->nr_vcpus; i++ )
        fifo_unmap_frame(&f->vcpu[i].cb_frame);
    for ( i = 0; i < EVTCHN_FIFO_MAX_EVENT_ARRAY_PAGES; i++ )
        fifo_unmap_frame(&f->event_array[i]);
    for ( i = 1; i < d->valid_evtchns; i++ )
        evtchn_from_port(d, i)->pending = false;
    d->evtchn_fifo = NULL;
    fifo_free(d, f);
}

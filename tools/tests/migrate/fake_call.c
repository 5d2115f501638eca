/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxencall backend (see fake.h): implements the
 * osdep_* interface of tools/libs/call/private.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "private.h"            /* tools/libs/call */
#include <xen/memory.h>
#include <xen/version.h>

struct fake fake;
static unsigned long live_buffer_pages;

void fake_reset(void)
{
    for ( unsigned int d = 0; d < FAKE_MAX_DOMS; d++ )
        for ( unsigned long i = 0; i < FAKE_MAX_PFNS; i++ )
            free(fake.dom[d].page[i]);
    memset(&fake, 0, sizeof(fake));
    fake.next_id = 1;
    fake.now_ns = 1000000000ULL;        /* the clock starts at 1 s */
}

struct fake_dom *fake_find(uint32_t id)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( fake.dom[i].exists && fake.dom[i].id == id )
            return &fake.dom[i];
    return NULL;
}

static bool populate_one(struct fake_dom *d, unsigned long pfn)
{
    if ( pfn >= FAKE_MAX_PFNS || pfn >= d->max_pages || d->page[pfn] ||
         d->tot_pages >= d->max_pages )
        return false;
    d->page[pfn] = calloc(1, 4096);
    d->tot_pages++;
    return true;
}

struct fake_dom *fake_new_domain(unsigned long max_pages,
                                 unsigned long populate, unsigned int vcpus)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( d->exists )
            continue;
        for ( unsigned long p = 0; p < FAKE_MAX_PFNS; p++ )
            free(d->page[p]);
        memset(d, 0, sizeof(*d));
        d->exists = true;
        d->id = fake.next_id++;
        d->pause_count = 1;
        d->max_pages = max_pages;
        d->max_vcpus = vcpus;
        for ( unsigned long p = 0; p < populate; p++ )
            populate_one(d, p);
        return d;
    }
    return NULL;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void fill_page(uint8_t *p, uint64_t v)
{
    for ( unsigned int k = 0; k < 4096 / 8; k++ )
    {
        uint64_t w = mix(v + k);

        memcpy(p + 8 * k, &w, 8);
    }
}

void fake_fill(struct fake_dom *d, uint64_t seed)
{
    for ( unsigned long p = 0; p < FAKE_MAX_PFNS; p++ )
        if ( d->page[p] )
            fill_page(d->page[p], seed * 1000003 + p);
    /* Two vCPUs' registers, recognisable. */
    d->nr_cpus = d->max_vcpus < 2 ? d->max_vcpus : 2;
    for ( unsigned int v = 0; v < d->nr_cpus; v++ )
    {
        memset(&d->cpu[v], 0, sizeof(d->cpu[v]));
        d->cpu[v].rip = 0x100000 + seed + v;
        d->cpu[v].rsp = 0x200000 + v;
        d->cpu[v].cr0 = 0x80000011;
    }
}

void fake_set_writer(struct fake_dom *d, unsigned long first,
                     unsigned long nr, unsigned long rate)
{
    d->w_first = first;
    d->w_nr = nr;
    d->w_next = 0;
    d->w_rate = rate;
}

/* The writers of running domains write (at every hypercall). */
/* The writer of d writes its next n pages. */
static void write_pages(struct fake_dom *d, unsigned long n)
{
    for ( unsigned long k = 0; k < n; k++ )
    {
        unsigned long pfn = d->w_first + d->w_next;

        d->w_next = (d->w_next + 1) % d->w_nr;
        if ( pfn >= FAKE_MAX_PFNS || !d->page[pfn] )
            continue;
        fill_page(d->page[pfn], 0xabcdef0000000000ULL + ++d->w_gen);
        d->w_writes++;
        if ( d->logdirty )
            d->dirty[pfn / 8] |= 1 << (pfn % 8);
    }
}

void fake_run_writers(size_t work)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        unsigned long n = d->w_rate * work / 64;

        if ( !d->exists || d->pause_count || !d->w_rate || !d->w_nr )
            continue;
        write_pages(d, n ? n : 1);
    }
}

void fake_set_timed_writer(struct fake_dom *d, unsigned long first,
                           unsigned long nr, uint64_t period_ns)
{
    d->w_first = first;
    d->w_nr = nr;
    d->w_next = 0;
    d->w_rate = 0;
    d->w_period_ns = period_ns;
    d->w_time_ns = 0;
}

void fake_clock_pass(uint64_t ns)
{
    fake.now_ns += ns;
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( !d->exists || d->pause_count || !d->w_period_ns || !d->w_nr )
            continue;
        d->w_time_ns += ns;
        write_pages(d, d->w_time_ns / d->w_period_ns);
        d->w_time_ns %= d->w_period_ns;
    }
}

unsigned long fake_compare(const struct fake_dom *a, const struct fake_dom *b,
                           unsigned long *first_diff)
{
    unsigned long n = 0;

    for ( unsigned long p = 0; p < FAKE_MAX_PFNS; p++ )
    {
        bool same = (!a->page[p] && !b->page[p]) ||
                    (a->page[p] && b->page[p] &&
                     !memcmp(a->page[p], b->page[p], 4096));

        if ( same )
            continue;
        if ( !n && first_diff )
            *first_diff = p;
        n++;
    }
    return n;
}

unsigned long fake_live_buffer_pages(void)
{
    return live_buffer_pages;
}

static bool nth(unsigned int *at)
{
    if ( !*at )
        return false;
    return --*at == 0;
}

/* ---- memory_op ---- */

static long populate(struct xen_memory_reservation *r)
{
    xen_pfn_t *gfns = r->extent_start.p;
    struct fake_dom *d = fake_find(r->domid);
    unsigned long i;

    fake.populate_calls++;
    if ( !d )
        return -ESRCH;
    if ( r->extent_order )
        return -EINVAL;
    if ( nth(&fake.fail_populate) )
        return -ENOMEM;
    for ( i = 0; i < r->nr_extents; i++ )
        if ( !populate_one(d, gfns[i]) )
            break;
    return (long)i;
}

/* ---- domctl ---- */

static long getdomaininfo(struct xen_domctl *dc)
{
    struct xen_domctl_getdomaininfo *info = &dc->u.getdomaininfo;
    struct fake_dom *best = NULL;

    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( d->exists && d->id >= dc->domain && (!best || d->id < best->id) )
            best = d;
    }
    if ( !best )
        return -ESRCH;
    memset(info, 0, sizeof(*info));
    info->domain = best->id;
    info->flags = XEN_DOMINF_hvm_guest | XEN_DOMINF_hap |
                  (best->pause_count ? XEN_DOMINF_paused : XEN_DOMINF_running);
    info->tot_pages = best->tot_pages;
    info->max_pages = best->max_pages;
    info->nr_online_vcpus = best->nr_cpus;
    info->max_vcpu_id = best->max_vcpus - 1;
    dc->domain = best->id;
    return 0;
}

static long hvmcontext(struct fake_dom *d, struct xen_domctl *dc)
{
    struct xen_domctl_hvmcontext *h = &dc->u.hvmcontext;
    struct hvm_save_descriptor desc;
    struct hvm_save_header hdr = {
        .magic = HVM_FILE_MAGIC, .version = HVM_FILE_VERSION,
        .cpuid = 0x000906ea, .gtsc_khz = 2400000,
    };
    uint8_t *buf = h->buffer.p;
    uint32_t need = 2 * sizeof(desc) + sizeof(hdr) +
                    d->nr_cpus * (sizeof(desc) + sizeof(struct hvm_hw_cpu));
    uint32_t off = 0;

    if ( dc->cmd == XEN_DOMCTL_sethvmcontext )
    {
        if ( nth(&fake.fail_setcontext) )
            return -EINVAL;
        d->nr_cpus = 0;
        while ( off + sizeof(desc) <= h->size )
        {
            memcpy(&desc, buf + off, sizeof(desc));
            off += sizeof(desc);
            if ( desc.length > h->size - off )
                return -EINVAL;
            if ( desc.typecode == HVM_SAVE_CODE(CPU) )
            {
                if ( desc.instance >= d->max_vcpus || desc.instance >= 2 ||
                     desc.length != sizeof(struct hvm_hw_cpu) )
                    return -EINVAL;
                memcpy(&d->cpu[desc.instance], buf + off, desc.length);
                d->nr_cpus++;
            }
            off += desc.length;
        }
        d->context_set = true;
        return 0;
    }

    if ( nth(&fake.fail_getcontext) )
        return -EIO;
    if ( !buf )
    {
        h->size = need;
        return 0;
    }
    if ( h->size < need )
        return -ENOSPC;
    desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(HEADER), 0, sizeof(hdr) };
    memcpy(buf, &desc, sizeof(desc));
    memcpy(buf + sizeof(desc), &hdr, sizeof(hdr));
    off = sizeof(desc) + sizeof(hdr);
    for ( unsigned int v = 0; v < d->nr_cpus; v++ )
    {
        desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(CPU), (uint16_t)v,
                                             sizeof(struct hvm_hw_cpu) };
        memcpy(buf + off, &desc, sizeof(desc));
        memcpy(buf + off + sizeof(desc), &d->cpu[v], sizeof(d->cpu[v]));
        off += sizeof(desc) + sizeof(d->cpu[v]);
    }
    desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(END), 0, 0 };
    memcpy(buf + off, &desc, sizeof(desc));
    h->size = need;
    return 0;
}

static long shadow_op(struct fake_dom *d, struct xen_domctl_shadow_op *sc)
{
    uint8_t *bm = sc->dirty_bitmap.p;
    unsigned long pages;

    switch ( sc->op )
    {
    case XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY:
        if ( d->logdirty )
            return -EINVAL;
        d->logdirty = true;
        memset(d->dirty, 0, sizeof(d->dirty));
        return 0;
    case XEN_DOMCTL_SHADOW_OP_OFF:
        d->logdirty = false;
        return 0;
    case XEN_DOMCTL_SHADOW_OP_CLEAN:
    case XEN_DOMCTL_SHADOW_OP_PEEK:
        if ( !d->logdirty )
            return -EINVAL;
        if ( sc->op == XEN_DOMCTL_SHADOW_OP_CLEAN &&
             nth(&fake.fail_clean_at) )
            return -ENOMEM;
        pages = sc->pages < FAKE_MAX_PFNS ? sc->pages : FAKE_MAX_PFNS;
        if ( pages && !bm )
            return -EFAULT;
        memcpy(bm, d->dirty, (pages + 7) / 8);
        if ( sc->op == XEN_DOMCTL_SHADOW_OP_CLEAN )
        {
            memset(d->dirty, 0, sizeof(d->dirty));
            d->cleans++;
            if ( sc->mode & XEN_DOMCTL_SHADOW_LOGDIRTY_FINAL )
                d->final_cleans++;
            /* The guest runs on while the toolstack looks at the bitmap. */
            fake_run_writers(64);
        }
        sc->pages = pages;
        return 0;
    default:
        return -EINVAL;
    }
}

static long domctl(struct xen_domctl *dc)
{
    struct fake_dom *d;

    if ( dc->interface_version != XEN_DOMCTL_INTERFACE_VERSION )
        return -EACCES;
    if ( dc->cmd == XEN_DOMCTL_getdomaininfo )
        return getdomaininfo(dc);
    d = fake_find(dc->domain);
    if ( !d )
        return -ESRCH;

    switch ( dc->cmd )
    {
    case XEN_DOMCTL_pausedomain:
        fake.pauses++;
        if ( !d->pause_count++ )
            d->paused_at = fake.now_ns;
        return 0;
    case XEN_DOMCTL_unpausedomain:
        fake.unpauses++;
        if ( !d->pause_count )
            return -EINVAL;
        if ( !--d->pause_count )
        {
            uint64_t span = fake.now_ns - d->paused_at;

            d->pause_spans++;
            d->paused_ns += span;
            if ( span > d->max_pause_ns )
                d->max_pause_ns = span;
        }
        return 0;
    case XEN_DOMCTL_destroydomain:
        for ( unsigned long p = 0; p < FAKE_MAX_PFNS; p++ )
        {
            free(d->page[p]);
            d->page[p] = NULL;
        }
        d->exists = false;
        return 0;
    case XEN_DOMCTL_max_mem:
        d->max_pages = dc->u.max_mem.max_memkb >> 2;
        return 0;
    case XEN_DOMCTL_gethvmcontext:
    case XEN_DOMCTL_sethvmcontext:
        return hvmcontext(d, dc);
    case XEN_DOMCTL_shadow_op:
        return shadow_op(d, &dc->u.shadow_op);
    default:
        return -ENOSYS;
    }
}

int osdep_xencall_open(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    long rc = -ENOSYS;

    (void)xcall;
    fake.hypercalls++;
    if ( call->op == __HYPERVISOR_memory_op &&
         call->arg[0] == XENMEM_populate_physmap )
        rc = populate((void *)(uintptr_t)call->arg[1]);
    else if ( call->op == __HYPERVISOR_domctl )
        rc = domctl((void *)(uintptr_t)call->arg[0]);
    else if ( call->op == __HYPERVISOR_xen_version &&
              call->arg[0] == XENVER_version )
        rc = (FAKE_XEN_MAJOR << 16) | FAKE_XEN_MINOR;

    if ( rc < 0 )
    {
        errno = (int)-rc;
        return -1;
    }
    return rc;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    void *p;

    (void)xcall;
    p = aligned_alloc(XENCALL_PAGE_SIZE, nr_pages * XENCALL_PAGE_SIZE);
    if ( !p )
        return NULL;
    memset(p, 0, nr_pages * XENCALL_PAGE_SIZE);
    live_buffer_pages += nr_pages;
    return p;
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    (void)xcall;
    live_buffer_pages -= nr_pages;
    free(p);
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    (void)xcall;
    return 1;
}

void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
}

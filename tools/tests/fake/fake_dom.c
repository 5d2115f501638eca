/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's domains (see fake.h): their memory, its contents,
 * and the guests that write it.
 */
#include "fake_private.h"

struct fake fake;

/* Memory outlives re-reads of the state file: kept by domain id. */
static struct fake_mem *mems[FAKE_MAX_DOMS];

static void mem_drop(uint32_t id)
{
    for ( unsigned int k = 0; k < FAKE_MAX_DOMS; k++ )
    {
        struct fake_mem *m = mems[k];

        if ( !m || m->id != id )
            continue;
        for ( unsigned long p = 0; p < FAKE_MAX_PFNS; p++ )
            free(m->page[p]);
        free(m);
        mems[k] = NULL;
    }
}

void fake_mem_attach(struct fake_dom *d)
{
    d->mem = NULL;
    for ( unsigned int k = 0; k < FAKE_MAX_DOMS; k++ )
        if ( mems[k] && mems[k]->id == d->id )
            d->mem = mems[k];
}

struct fake_mem *fake_mem_of(struct fake_dom *d)
{
    if ( d->mem )
        return d->mem;
    fake_mem_attach(d);
    if ( d->mem )
        return d->mem;
    for ( unsigned int k = 0; k < FAKE_MAX_DOMS; k++ )
        if ( !mems[k] )
        {
            mems[k] = calloc(1, sizeof(*mems[k]));
            if ( !mems[k] )
                abort();
            mems[k]->id = d->id;
            return d->mem = mems[k];
        }
    abort();
}

void fake_reset(void)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( fake.dom[i].exists )
            mem_drop(fake.dom[i].id);
    memset(&fake, 0, sizeof(fake));
    fake.next_id = 1;
    fake.now_ns = 1000000000ULL;        /* the clock starts at 1 s */
    fake_fail_clear();
    fake_answer(NULL);
    fake_state_reset();
}

struct fake_dom *fake_find(uint32_t id)
{
    fake_state_load();
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( fake.dom[i].exists && fake.dom[i].id == id )
            return &fake.dom[i];
    return NULL;
}

struct fake_dom *fake_touch(uint32_t id)
{
    struct fake_dom *d = fake_find(id);

    if ( d )
        d->touched = true;
    return d;
}

struct fake_dom *fake_dom_alloc(uint32_t id)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( d->exists )
            continue;
        memset(d, 0, sizeof(*d));
        d->exists = true;
        d->id = id;
        d->pause_count = 1;
        d->paused_at = fake.now_ns;
        d->mech = XEN_DIRTY_MECH_PML;
        d->bshift = 9;
        d->explicit_map = true;
        d->touched = true;
        strcpy(d->type, "pvh");
        return d;
    }
    return NULL;
}

void fake_dom_free(struct fake_dom *d)
{
    mem_drop(d->id);
    d->exists = false;
    d->mem = NULL;
}

struct fake_dom *fake_new_domain_id(uint32_t id, unsigned long max_pages,
                                    unsigned long populate, unsigned int vcpus)
{
    struct fake_dom *d;

    if ( fake_find(id) || !(d = fake_dom_alloc(id)) )
        return NULL;
    d->max_pages = max_pages;
    d->max_vcpus = vcpus;
    for ( unsigned long p = 0; p < populate; p++ )
        fake_populate(d, p);
    return d;
}

struct fake_dom *fake_new_domain(unsigned long max_pages,
                                 unsigned long populate, unsigned int vcpus)
{
    return fake_new_domain_id(fake.next_id++, max_pages, populate, vcpus);
}

/* ---- memory ------------------------------------------------------------------- */

bool fake_populated(const struct fake_dom *d, uint64_t pfn)
{
    if ( pfn >= FAKE_MAX_PFNS )
        return false;
    if ( !d->explicit_map )
        return pfn < d->tot_pages;
    return d->mem && fake_bit_test(d->mem->populated, pfn);
}

/* One frame more, within max_pages: XENMEM_populate_physmap's step. */
bool fake_populate(struct fake_dom *d, uint64_t pfn)
{
    struct fake_mem *m;

    if ( pfn >= FAKE_MAX_PFNS || fake_populated(d, pfn) ||
         d->tot_pages >= d->max_pages )
        return false;
    m = fake_mem_of(d);
    if ( !d->explicit_map )
    {
        /* From the state file: make [0, tot) explicit first. */
        for ( uint64_t p = 0; p < d->tot_pages && p < FAKE_MAX_PFNS; p++ )
            fake_bit_set(m->populated, p);
        d->explicit_map = true;
    }
    fake_bit_set(m->populated, pfn);
    d->tot_pages++;
    if ( pfn > d->max_gpfn )
        d->max_gpfn = pfn;
    return true;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A page of the pattern of v. */
static void pattern(uint8_t *p, uint64_t v)
{
    for ( unsigned int k = 0; k < XC_PAGE_SIZE / 8; k++ )
    {
        uint64_t w = mix64(v + k);

        memcpy(p + 8 * k, &w, 8);
    }
}

void fake_page_read(const struct fake_dom *d, uint64_t pfn, uint8_t *buf)
{
    if ( d->mem && pfn < FAKE_MAX_PFNS && d->mem->page[pfn] )
        memcpy(buf, d->mem->page[pfn], XC_PAGE_SIZE);
    else if ( d->seed )
        pattern(buf, d->seed * 0x100000001b3ULL + (pfn << 12));
    else
        memset(buf, d->fill, XC_PAGE_SIZE);
}

uint8_t *fake_page(struct fake_dom *d, uint64_t pfn)
{
    struct fake_mem *m;

    if ( !fake_populated(d, pfn) )
        return NULL;
    m = fake_mem_of(d);
    if ( !m->page[pfn] )
    {
        m->page[pfn] = malloc(XC_PAGE_SIZE);
        if ( !m->page[pfn] )
            abort();
        fake_page_read(d, pfn, m->page[pfn]);
        m->stored++;
    }
    return m->page[pfn];
}

int fake_byte(const struct fake_dom *d, uint64_t paddr)
{
    uint64_t pfn = paddr >> XC_PAGE_SHIFT;
    uint8_t buf[XC_PAGE_SIZE];

    if ( !fake_populated(d, pfn) )
        return -1;
    if ( d->mem && d->mem->page[pfn] )
        return d->mem->page[pfn][paddr & (XC_PAGE_SIZE - 1)];
    fake_page_read(d, pfn, buf);
    return buf[paddr & (XC_PAGE_SIZE - 1)];
}

bool fake_read(const struct fake_dom *d, uint64_t paddr, void *buf, size_t len)
{
    uint8_t *b = buf;

    for ( size_t i = 0; i < len; i++ )
    {
        int v = fake_byte(d, paddr + i);

        if ( v < 0 )
            return false;
        b[i] = (uint8_t)v;
    }
    return true;
}

void fake_fill(struct fake_dom *d, uint64_t seed)
{
    for ( uint64_t p = 0; p < FAKE_MAX_PFNS; p++ )
        if ( fake_populated(d, p) )
            pattern(fake_page(d, p), seed * 1000003 + p);
    /* Two vCPUs' registers, recognisable. */
    d->nr_cpus = d->max_vcpus < FAKE_CPU_RECORDS ? d->max_vcpus : FAKE_CPU_RECORDS;
    for ( unsigned int v = 0; v < d->nr_cpus; v++ )
    {
        memset(&d->cpu[v], 0, sizeof(d->cpu[v]));
        d->cpu[v].rip = 0x100000 + seed + v;
        d->cpu[v].rsp = 0x200000 + v;
        d->cpu[v].cr0 = 0x80000011;
    }
}

unsigned long fake_compare(const struct fake_dom *a, const struct fake_dom *b,
                           unsigned long *first_diff)
{
    static uint8_t pa[XC_PAGE_SIZE], pb[XC_PAGE_SIZE];
    unsigned long n = 0;

    for ( uint64_t p = 0; p < FAKE_MAX_PFNS; p++ )
    {
        bool ia = fake_populated(a, p), ib = fake_populated(b, p), same;

        if ( !ia && !ib )
            continue;
        same = ia && ib;
        if ( same )
        {
            fake_page_read(a, p, pa);
            fake_page_read(b, p, pb);
            same = !memcmp(pa, pb, XC_PAGE_SIZE);
        }
        if ( same )
            continue;
        if ( !n && first_diff )
            *first_diff = p;
        n++;
    }
    return n;
}

void fake_update_memhash(struct fake_dom *d)
{
    static uint8_t buf[XC_PAGE_SIZE];
    uint64_t h = 0;

    if ( !d->seed && !(d->mem && d->mem->stored) )
        return;
    for ( uint64_t pfn = 0; pfn < d->tot_pages && pfn < FAKE_MAX_PFNS; pfn++ )
    {
        uint64_t ph = 0xcbf29ce484222325ULL;

        fake_page_read(d, pfn, buf);
        for ( unsigned int i = 0; i < XC_PAGE_SIZE; i++ )
            ph = (ph ^ buf[i]) * 0x100000001b3ULL;
        h ^= mix64(ph + pfn);
    }
    d->memhash = h;
}

/* ---- the guests --------------------------------------------------------------------- */

void fake_guest_writes(struct fake_dom *d)
{
    unsigned int nv = d->max_vcpus ? d->max_vcpus : 1, k = 0;

    for ( uint64_t p = 0; p <= d->max_gpfn && p < FAKE_MAX_PFNS; p++ )
    {
        if ( !fake_bit_test(d->write, p) || fake_bit_test(d->dirty, p) )
            continue;
        fake_bit_set(d->dirty, p);
        d->dirty_total++;
        if ( nv <= FAKE_MAX_VCPUS )
            d->vdirtied[k++ % nv]++;
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

void fake_set_timed_writer(struct fake_dom *d, unsigned long first,
                           unsigned long nr, uint64_t period_ns)
{
    fake_set_writer(d, first, nr, 0);
    d->w_period_ns = period_ns;
    d->w_time_ns = 0;
}

/* The writer of d writes its next n pages, each a new pattern. */
static void write_pages(struct fake_dom *d, unsigned long n)
{
    for ( unsigned long k = 0; k < n; k++ )
    {
        unsigned long pfn = d->w_first + d->w_next;

        d->w_next = (d->w_next + 1) % d->w_nr;
        if ( !fake_populated(d, pfn) )
            continue;
        pattern(fake_page(d, pfn), 0xabcdef0000000000ULL + ++d->w_gen);
        d->w_writes++;
        if ( d->logdirty )
            fake_bit_set(d->dirty, pfn);
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

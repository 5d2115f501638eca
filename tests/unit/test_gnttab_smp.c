/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables on four CPUs: xen/common/grant_table.c and grant_map.c
 * compiled here as they are (included below), over the real frame table,
 * page allocator and heap pools (arch/x86/mm.c, page_alloc.c, xmalloc.c,
 * on 32 MiB of host memory where the code expects machine memory, as
 * test_heap), run by four host threads that are four CPUs
 * (harness_run_cpus(): each its own smp_processor_id(), current and
 * per-CPU area, so the debug build's lock-order and IRQ-safety checks run
 * per CPU).  Two domains: G grants 32 of its RAM pages to M; M's three
 * vCPUs map, copy and unmap them, the same grants from every CPU at once
 * (so their active entries are contended), at gfns of a fake p2m.
 *
 *   set_version: G's vCPU switches its table between versions 1 and 2
 *   (rewriting its grants in the new layout) while M's vCPUs map, copy and
 *   unmap; a switch may only succeed while nothing is pinned (-EBUSY
 *   otherwise: gt->lock written against the mappers' read holds), so a
 *   mapper never sees its grant's GTF_reading go while it holds the
 *   mapping, never maps a frame the grant does not name, and every
 *   mapping unmaps;
 *   death: G is destroyed (its table under the write lock, then its
 *   frames relinquished, as domain_teardown()) while M's vCPUs hold up to
 *   8 mappings each and keep mapping and copying; afterwards every map is
 *   refused (GNTST_bad_domain), every held mapping still unmaps (the
 *   orphan path, under the maptrack lock), and each frame is freed exactly
 *   with its last reference.
 *
 * Both end with counts: maps = unmaps, the dirty marks (one per writable
 * unmap, one per copy's destination), every pin 0 and every status bit
 * clear, each of G's frames back to its one allocation reference (or
 * freed), M's whole maptrack on its free list, and, once both domains are
 * gone, the heap back to its size, no frame referenced, no orphan left.
 *
 * Seen to fail without the locks: built with -DTEST_NO_GNTTAB_LOCKS the
 * table's rwlock and the entries' locks are compiled out ("make -C
 * tests/unit bin/test_gnttab_smp_nolock" and run it).
 */
#define __XEN__ 1
#define printk test_printk              /* counted, not logged: printk_log is not SMP-safe */
#include <xen/lib.h>
void test_printk(const char *fmt, ...);

#include "../../xen/common/page_alloc.c"
#include "../../xen/common/xmalloc.c"
#include "../../xen/arch/x86/mm.c"
#include "../../xen/common/grant_table.c"
#include "../../xen/common/grant_map.c"

#include <asm/processor.h>

#include "harness.h"

static unsigned long printks;

void test_printk(const char *fmt, ...)
{
    (void)fmt;
    __atomic_fetch_add(&printks, 1, __ATOMIC_RELAXED);
}

#define BASE        0x40000000UL
#define SIZE        (32UL << 20)
#define NR_CPUS_T   4
#define NR_MAPPERS  3               /* CPUs 0-2: M's vCPUs; CPU 3: G's */
#define DOM_G       1
#define DOM_M       2
#define NR_GRANTS   32
#define FIRST_REF   GNTTAB_NR_RESERVED_ENTRIES
#define G_GFN       0x100           /* G's RAM: gfns G_GFN + i */
#define M_GFN       0x200           /* M's RAM: one copy destination per CPU */
#define MAP_GFN     0x1000          /* M's mappings: MAP_GFN + cpu * 64 + slot */
#define FAKE_GFNS   0x2000

/* ---- the faked host: domains, a p2m ---------------------------------------- */

static struct domain doms[3];
static struct vcpu vcpus[3][NR_CPUS_T];
static struct vcpu *vcpu_tables[3][NR_CPUS_T];
struct domain *domain_list;

struct fake_p2m {
    spinlock_t lock;                /* a leaf: taken under the grant locks */
    unsigned long mfn[FAKE_GFNS];
    uint8_t type[FAKE_GFNS];
};
static struct fake_p2m p2ms[3];
static unsigned long dirty_marks[3];
static unsigned long g_mfn[NR_GRANTS];  /* G's frame behind each grant */

struct domain *get_domain_by_id(domid_t domid)
{
    return domid == DOM_G || domid == DOM_M ? &doms[domid] : NULL;
}

struct domain *get_domain_by_any_id(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

unsigned long p2m_max_gfn(void)
{
    return FAKE_GFNS - 1;
}

unsigned long p2m_get_entry(struct domain *d, unsigned long gfn, p2m_type_t *t)
{
    struct fake_p2m *p = &p2ms[d->domain_id];
    unsigned long mfn;

    if ( gfn >= FAKE_GFNS )
    {
        *t = p2m_mmio_dm;
        return INVALID_MFN;
    }
    spin_lock(&p->lock);
    *t = p->type[gfn];
    mfn = p->mfn[gfn];
    spin_unlock(&p->lock);
    return mfn;
}

int p2m_set_entry(struct domain *d, unsigned long gfn, unsigned long mfn,
                  unsigned int order, p2m_type_t t)
{
    struct fake_p2m *p = &p2ms[d->domain_id];

    if ( order || gfn >= FAKE_GFNS )
        return -EINVAL;
    spin_lock(&p->lock);
    p->mfn[gfn] = mfn;
    p->type[gfn] = t;
    spin_unlock(&p->lock);
    return 0;
}

int p2m_add_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn, bool ro)
{
    struct fake_p2m *p = &p2ms[d->domain_id];
    int rc = -EBUSY;

    if ( gfn >= FAKE_GFNS )
        return -EINVAL;
    spin_lock(&p->lock);
    if ( p->type[gfn] == p2m_mmio_dm )
    {
        p->mfn[gfn] = mfn;
        p->type[gfn] = ro ? p2m_grant_map_ro : p2m_grant_map_rw;
        rc = 0;
    }
    spin_unlock(&p->lock);
    return rc;
}

int p2m_remove_grant_mapping(struct domain *d, unsigned long gfn, unsigned long mfn)
{
    struct fake_p2m *p = &p2ms[d->domain_id];
    int rc = -EINVAL;

    if ( gfn >= FAKE_GFNS )
        return -EINVAL;
    spin_lock(&p->lock);
    if ( p2m_is_grant(p->type[gfn]) && p->mfn[gfn] == mfn )
    {
        p->mfn[gfn] = INVALID_MFN;
        p->type[gfn] = p2m_mmio_dm;
        rc = 0;
    }
    spin_unlock(&p->lock);
    return rc;
}

int guest_remove_page(struct domain *d, unsigned long gfn)
{
    (void)d;
    (void)gfn;
    return -ENOENT;
}

void paging_mark_dirty(struct domain *d, unsigned long gfn, struct vcpu *v)
{
    (void)gfn;
    (void)v;
    __atomic_fetch_add(&dirty_marks[d->domain_id], 1, __ATOMIC_RELAXED);
}

#include "stub_hypercall.h"

/* The "guest" buffers are the test's own memory. */
unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    memcpy(to, from, len);
    return 0;
}

unsigned long raw_copy_from_guest(void *to, const void *from, size_t len)
{
    memcpy(to, from, len);
    return 0;
}

static unsigned long heap_start;

static void boot(void)
{
    static bool booted;

    if ( booted )
        return;
    booted = true;
    if ( !harness_map_fixed(BASE, SIZE) )
    {
        CHECK(!"host memory at 1 GiB");
        return;
    }
    init_boot_pages(BASE, BASE + SIZE);
    init_frame_table(max_boot_pfn());
    heap_start = avail_pages() + xmalloc_global_pages();
}

static void become(unsigned int domid, unsigned int cpu)
{
    set_current(&vcpus[domid][cpu]);
}

static mfn_t give_ram(struct domain *d, unsigned long gfn, uint8_t pattern)
{
    mfn_t mfn = alloc_domheap_pages(0);

    CHECK(mfn != INVALID_MFN);
    CHECK_EQ(assign_pages(d, mfn, 0), 0);
    memset(mfn_to_virt(mfn), pattern, PAGE_SIZE);
    p2m_set_entry(d, gfn, mfn, 0, p2m_ram_rw);
    return mfn;
}

static void setup_domains(void)
{
    unsigned int i, j;

    boot();
    memset(doms, 0, sizeof(doms));
    memset(vcpus, 0, sizeof(vcpus));
    memset(p2ms, 0, sizeof(p2ms));
    memset(dirty_marks, 0, sizeof(dirty_marks));
    domain_list = NULL;
    for ( i = DOM_G; i <= DOM_M; i++ )
    {
        struct domain *d = &doms[i];

        d->domain_id = i;
        d->max_vcpus = NR_CPUS_T;
        d->vcpu = vcpu_tables[i];
        d->max_pages = 1024;
        page_list_init(&d->page_list);
        xmem_pool_init(&d->xmem, 64 + gnttab_heap_pages(4, 8));
        for ( j = 0; j < NR_CPUS_T; j++ )
        {
            vcpus[i][j].domain = d;
            vcpus[i][j].vcpu_id = j;
            vcpu_tables[i][j] = &vcpus[i][j];
        }
        for ( j = 0; j < FAKE_GFNS; j++ )
        {
            p2ms[i].mfn[j] = INVALID_MFN;
            p2ms[i].type[j] = p2m_mmio_dm;
        }
        CHECK_EQ(grant_table_init(d, 4, 8, XEN_DOMCTL_GRANT_version(2)), 0);
    }
    for ( i = 0; i < NR_GRANTS; i++ )
        g_mfn[i] = give_ram(&doms[DOM_G], G_GFN + i, (uint8_t)(0x40 + i));
    for ( i = 0; i < NR_CPUS_T; i++ )
        give_ram(&doms[DOM_M], M_GFN + i, 0);
}

/* G writes its grants to M, in its table's layout (flags last, as a guest does). */
static void write_grants(void)
{
    struct grant_table *gt = doms[DOM_G].grant_table;
    unsigned int i;

    for ( i = 0; i < NR_GRANTS; i++ )
    {
        grant_ref_t ref = FIRST_REF + i;

        if ( gt->gt_version == 1 )
        {
            grant_entry_v1_t *e = shared_entry_v1(gt, ref);

            e->domid = DOM_M;
            e->frame = G_GFN + i;
            smp_wmb();
            ACCESS_ONCE(e->flags) = GTF_permit_access;
        }
        else
        {
            grant_entry_v2_t *e = shared_entry_v2(gt, ref);

            e->hdr.domid = DOM_M;
            e->full_page.frame = G_GFN + i;
            smp_wmb();
            ACCESS_ONCE(e->hdr.flags) = GTF_permit_access;
        }
    }
}

/* G's domain_teardown(), the grant and frame parts. */
static void destroy_domain(struct domain *d)
{
    gnttab_release_mappings(d);
    grant_table_destroy(d);
    relinquish_domain_pages(d);
}

/* After both domains went: nothing left anywhere. */
static void check_all_back(void)
{
    unsigned int i;

    for ( i = DOM_G; i <= DOM_M; i++ )
    {
        grant_table_free(&doms[i]);
        CHECK_EQ(doms[i].xmem.pages, 0);
        CHECK_EQ(doms[i].tot_pages, 0);
    }
    CHECK_EQ(frames_referenced(), 0);
    CHECK_EQ(orphaned_pages(), 0);
    CHECK_EQ(avail_pages() + xmalloc_global_pages(), heap_start);
}

/* Every pin of G's table 0 and every status bit clear; M's maptrack all free. */
static void check_tables_idle(void)
{
    struct grant_table *gt = doms[DOM_G].grant_table, *mgt = doms[DOM_M].grant_table;
    unsigned int i, pinned = 0, busy_bits = 0, free_handles = 0;
    grant_handle_t h;

    for ( i = 0; i < nr_grant_entries(gt); i++ )
    {
        uint16_t *st = gnttab_status_word(gt, i);

        pinned += active_entry(gt, i)->pin != 0;
        if ( i >= FIRST_REF )
            busy_bits += (*st & (GTF_reading | GTF_writing)) != 0;
    }
    CHECK_EQ(pinned, 0);
    CHECK_EQ(busy_bits, 0);
    for ( h = mgt->maptrack_free; h != MAPTRACK_TAIL && free_handles <= mgt->maptrack_limit;
          h = maptrack_entry(mgt, h)->ref )
        free_handles++;
    CHECK_EQ(free_handles, mgt->maptrack_limit);
    for ( i = 0; i < NR_GRANTS; i++ )
        CHECK_EQ(mfn_to_page(g_mfn[i])->count_info, PGC_allocated | 1);
}

/* ---- what M's vCPUs do --------------------------------------------------------- */

struct cpu_counts {
    unsigned long maps_ok, map_refused, map_bad_status, wrong_frame, reading_lost;
    unsigned long unmaps_ok, unmap_failed;
    unsigned long copies_ok, copy_refused, copy_bad_status, copy_bad_data;
    unsigned long dead_seen;
};
static struct cpu_counts counts[NR_CPUS_T];

static int16_t do_map(unsigned int cpu, grant_ref_t ref, unsigned int slot,
                      grant_handle_t *handle)
{
    struct gnttab_map_grant_ref op = {
        .host_addr = (uint64_t)(MAP_GFN + cpu * 64 + slot) << PAGE_SHIFT,
        .flags = GNTMAP_host_map,
        .ref = ref,
        .dom = DOM_G,
    };

    map_grant_ref(&op);
    if ( op.status == GNTST_okay )
    {
        *handle = op.handle;
        if ( (op.dev_bus_addr >> PAGE_SHIFT) != g_mfn[ref - FIRST_REF] )
            counts[cpu].wrong_frame++;
    }
    return op.status;
}

/* While mapped, the granter's entry says so (GTF_reading), whatever its version. */
static void check_reading(unsigned int cpu, grant_ref_t ref)
{
    struct grant_table *gt = doms[DOM_G].grant_table;

    grant_read_lock(gt);
    if ( gnttab_alive(gt) && !(*gnttab_status_word(gt, ref) & GTF_reading) )
        counts[cpu].reading_lost++;
    grant_read_unlock(gt);
}

static int16_t do_unmap(unsigned int cpu, unsigned int slot, grant_handle_t handle)
{
    return unmap_common((uint64_t)(MAP_GFN + cpu * 64 + slot) << PAGE_SHIFT, 0, 0, handle);
}

/* A copy of a byte range of grant ref into this CPU's own page, checked. */
static void do_copy(unsigned int cpu, grant_ref_t ref, unsigned int n)
{
    struct gnttab_copy op = {
        .source = { .u.ref = ref, .domid = DOM_G, .offset = (n * 64) % 2048 },
        .dest = { .u.gmfn = M_GFN + cpu, .domid = DOMID_SELF, .offset = 128 },
        .len = 512,
        .flags = GNTCOPY_source_gref,
    };
    int rc = copy_one(&op);
    const uint8_t *p = (const uint8_t *)mfn_to_virt(p2ms[DOM_M].mfn[M_GFN + cpu]) + 128;
    unsigned int i;

    if ( rc == GNTST_okay )
    {
        counts[cpu].copies_ok++;
        for ( i = 0; i < 512; i++ )
            if ( p[i] != (uint8_t)(0x40 + ref - FIRST_REF) )
            {
                counts[cpu].copy_bad_data++;
                break;
            }
    }
    else if ( rc == GNTST_general_error || rc == GNTST_bad_domain )
        counts[cpu].copy_refused++;
    else
        counts[cpu].copy_bad_status++;
}

/* ---- set_version against map, copy and unmap -------------------------------------- */

#define SWITCHES 100
static volatile bool granter_done;
static unsigned long total_maps;     /* successful maps so far, all CPUs */
static unsigned long switches, switch_busy, switch_other;

static long switch_version(unsigned int version)
{
    struct gnttab_set_version op = { .version = version };

    return gnttab_set_version(guest_handle_from_ptr(&op, gnttab_set_version_t));
}

static void version_cpu(unsigned int cpu)
{
    unsigned long n = 0;

    if ( cpu == NR_MAPPERS )
    {
        unsigned long seen = 0;

        become(DOM_G, 0);
        while ( switches < SWITCHES )
        {
            long rc;

            /* Each version is mapped a few times before the next switch. */
            while ( __atomic_load_n(&total_maps, __ATOMIC_RELAXED) < seen + 8 )
                cpu_relax();
            rc = switch_version(3 - doms[DOM_G].grant_table->gt_version);
            if ( rc == 0 )
            {
                switches++;
                write_grants();
                seen = __atomic_load_n(&total_maps, __ATOMIC_RELAXED);
            }
            else if ( rc == -EBUSY )
                switch_busy++;
            else
                switch_other++;
        }
        granter_done = true;
        return;
    }

    become(DOM_M, cpu);
    while ( !granter_done )
    {
        /* Neighbouring CPUs want the same grants at about the same time. */
        grant_ref_t ref = FIRST_REF + (n / 4) % NR_GRANTS;
        grant_handle_t handle;
        int16_t rc = do_map(cpu, ref, 0, &handle);

        n++;
        if ( rc == GNTST_okay )
        {
            counts[cpu].maps_ok++;
            __atomic_fetch_add(&total_maps, 1, __ATOMIC_RELAXED);
            check_reading(cpu, ref);
            do_copy(cpu, ref, n);
            check_reading(cpu, ref);
            if ( do_unmap(cpu, 0, handle) == GNTST_okay )
                counts[cpu].unmaps_ok++;
            else
                counts[cpu].unmap_failed++;
        }
        else if ( rc == GNTST_general_error )
            counts[cpu].map_refused++;      /* G is between versions, or rewriting */
        else
            counts[cpu].map_bad_status++;
        if ( n % 3 == 0 )
            do_copy(cpu, ref, n);
    }
}

static void sum_counts(struct cpu_counts *s)
{
    unsigned int c;

    memset(s, 0, sizeof(*s));
    for ( c = 0; c < NR_MAPPERS; c++ )
    {
        s->maps_ok += counts[c].maps_ok;
        s->map_refused += counts[c].map_refused;
        s->map_bad_status += counts[c].map_bad_status;
        s->wrong_frame += counts[c].wrong_frame;
        s->reading_lost += counts[c].reading_lost;
        s->unmaps_ok += counts[c].unmaps_ok;
        s->unmap_failed += counts[c].unmap_failed;
        s->copies_ok += counts[c].copies_ok;
        s->copy_refused += counts[c].copy_refused;
        s->copy_bad_status += counts[c].copy_bad_status;
        s->copy_bad_data += counts[c].copy_bad_data;
        s->dead_seen += counts[c].dead_seen;
    }
}

static void test_set_version_race(void)
{
    struct cpu_counts s;

    setup_domains();
    become(DOM_G, 0);
    write_grants();
    memset(counts, 0, sizeof(counts));
    switches = switch_busy = switch_other = 0;
    total_maps = 0;
    granter_done = false;

    harness_run_cpus(NR_CPUS_T, version_cpu);

    sum_counts(&s);
    harness_printf("  set_version: %lu switches (%lu -EBUSY), %lu maps (%lu refused), "
                   "%lu copies (%lu refused)\n", switches, switch_busy, s.maps_ok,
                   s.map_refused, s.copies_ok, s.copy_refused);
    CHECK_EQ(switches, SWITCHES);
    CHECK_EQ(switch_other, 0);
    CHECK(s.maps_ok > 0);
    CHECK_EQ(s.map_bad_status, 0);
    CHECK_EQ(s.wrong_frame, 0);
    CHECK_EQ(s.reading_lost, 0);
    CHECK_EQ(s.unmaps_ok, s.maps_ok);
    CHECK_EQ(s.unmap_failed, 0);
    CHECK_EQ(s.copy_bad_status, 0);
    CHECK_EQ(s.copy_bad_data, 0);
    /* One mark per writable unmap (G's frames), one per copy's destination (M's). */
    CHECK_EQ(dirty_marks[DOM_G], s.unmaps_ok);
    CHECK_EQ(dirty_marks[DOM_M], s.copies_ok);
    check_tables_idle();

    destroy_domain(&doms[DOM_M]);
    destroy_domain(&doms[DOM_G]);
    check_all_back();
}

/* ---- the granter dies while its grants are mapped --------------------------------- */

#define HELD        8               /* mappings each CPU keeps */
#define DEATH_AFTER 2000            /* maps before G dies */
#define AFTER_DEATH 200             /* refused maps each CPU sees after */
static volatile bool g_dead;

static void death_cpu(unsigned int cpu)
{
    grant_handle_t handles[HELD];
    bool held[HELD] = { false };
    unsigned long n = 0;
    unsigned int slot;

    if ( cpu == NR_MAPPERS )
    {
        become(DOM_G, 0);
        while ( __atomic_load_n(&total_maps, __ATOMIC_RELAXED) < DEATH_AFTER )
            cpu_relax();
        destroy_domain(&doms[DOM_G]);
        g_dead = true;
        return;
    }

    become(DOM_M, cpu);
    while ( counts[cpu].dead_seen < AFTER_DEATH )
    {
        grant_ref_t ref = FIRST_REF + (n / 4) % NR_GRANTS;
        int16_t rc;

        slot = n % HELD;
        n++;
        if ( held[slot] )
        {
            if ( do_unmap(cpu, slot, handles[slot]) == GNTST_okay )
                counts[cpu].unmaps_ok++;
            else
                counts[cpu].unmap_failed++;
            held[slot] = false;
        }
        rc = do_map(cpu, ref, slot, &handles[slot]);
        if ( rc == GNTST_okay )
        {
            held[slot] = true;
            counts[cpu].maps_ok++;
            __atomic_fetch_add(&total_maps, 1, __ATOMIC_RELAXED);
        }
        else if ( rc == GNTST_bad_domain && g_dead )
            counts[cpu].dead_seen++;
        else if ( rc == GNTST_bad_domain )
            counts[cpu].map_refused++;      /* dying: the table is going */
        else
            counts[cpu].map_bad_status++;
        do_copy(cpu, ref, n);
    }
    /* G is gone: what we still hold unmaps, each frame freed with its last. */
    for ( slot = 0; slot < HELD; slot++ )
        if ( held[slot] )
        {
            if ( do_unmap(cpu, slot, handles[slot]) == GNTST_okay )
                counts[cpu].unmaps_ok++;
            else
                counts[cpu].unmap_failed++;
        }
}

static void test_granter_death(void)
{
    struct cpu_counts s;
    unsigned int i, g_frames_left = 0;

    setup_domains();
    become(DOM_G, 0);
    write_grants();
    memset(counts, 0, sizeof(counts));
    total_maps = 0;
    g_dead = false;

    harness_run_cpus(NR_CPUS_T, death_cpu);

    sum_counts(&s);
    harness_printf("  death: %lu maps, %lu unmaps, %lu copies, %lu refused after\n",
                   s.maps_ok, s.unmaps_ok, s.copies_ok, s.dead_seen);
    CHECK(s.maps_ok >= DEATH_AFTER);
    CHECK_EQ(s.dead_seen, NR_MAPPERS * AFTER_DEATH);
    CHECK_EQ(s.map_bad_status, 0);
    CHECK_EQ(s.wrong_frame, 0);
    CHECK_EQ(s.unmaps_ok, s.maps_ok);
    CHECK_EQ(s.unmap_failed, 0);
    CHECK_EQ(s.copy_bad_status, 0);
    CHECK_EQ(s.copy_bad_data, 0);
    CHECK_EQ(dirty_marks[DOM_M], s.copies_ok);
    /* Every frame of G freed with its last reference; none orphaned still. */
    for ( i = 0; i < NR_GRANTS; i++ )
        g_frames_left += mfn_to_page(g_mfn[i])->count_info != 0;
    CHECK_EQ(g_frames_left, 0);
    CHECK_EQ(orphaned_pages(), 0);
    CHECK_EQ(doms[DOM_G].tot_pages, 0);
    CHECK_EQ(doms[DOM_G].xenheap_pages, 0);
    /* Its dying table refuses everything, and M's maptrack is all free. */
    become(DOM_M, 0);
    {
        grant_handle_t h;

        CHECK_EQ(do_map(0, FIRST_REF, 0, &h), GNTST_bad_domain);
    }

    destroy_domain(&doms[DOM_M]);
    check_all_back();
}

void test_main(void)
{
    test_set_version_race();
    test_granter_death();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The p2m in EPT form: four levels of 512 entries; leaves at level 1
 * (4 KiB) or level 2 (2 MiB).  Splitting a 2 MiB leaf replaces it with a
 * table of 512 4 KiB leaves of the same type, so that later changes can
 * be made per 4 KiB page.
 *
 * The type of each mapping lives in ignored bits of the leaf; the access
 * rights follow from the type (ept_p2m_type_to_flags).
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/dirty_stats.h>
#include <asm/flushtlb.h>
#include <asm/hvm/vmx/ept.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/mm.h>
#include <asm/p2m.h>

typedef uint64_t ept_entry_t;

static void ept_sync_domain(struct p2m_domain *p2m);
#ifdef XEN_HOST_TEST
void host_test_invept(unsigned long type, uint64_t eptp);
#endif
static void ept_free_level(struct domain *d, uint64_t *table, unsigned int level);


static uint64_t ept_p2m_type_to_flags(const struct domain *d, p2m_type_t t,
                                      unsigned int level)
{
    uint64_t ad = cpu_has_vmx_ept_ad ? (EPTE_A | EPTE_D) : 0;

    switch ( t )
    {
    case p2m_ram_rw:
        return EPTE_RWX | EPTE_MT_WB | ad;
    case p2m_ram_logdirty:
        /*
         * PML: writable with the dirty flag clear, so the CPU logs the
         * first write.  Write protection: read/execute only, so the first
         * write faults and is logged.  A 2 MiB leaf is write-protected
         * under PML too: its first write faults and splits it (PML would
         * log only the first write to the whole 2 MiB).
         */
        if ( d->arch.paging.log_dirty.pml && level == 1 )
            return EPTE_RWX | EPTE_MT_WB | (ad & EPTE_A);
        return EPTE_R | EPTE_X | EPTE_MT_WB | (ad & EPTE_A);
    case p2m_ram_ro:
        return EPTE_R | EPTE_X | EPTE_MT_WB | (ad & EPTE_A);
    case p2m_map_foreign:
    case p2m_grant_map_rw:
        return EPTE_R | EPTE_W | EPTE_MT_WB | ad;
    case p2m_grant_map_ro:
        return EPTE_R | EPTE_MT_WB | (ad & EPTE_A);
    case p2m_gnttab_frame:
        return EPTE_RWX | EPTE_MT_WB | ad;
    case p2m_mmio_direct:
        return EPTE_R | EPTE_W | EPTE_MT_UC | ad;
    default:
        return 0;
    }
}

static ept_entry_t make_leaf(const struct domain *d, unsigned long mfn,
                             unsigned int level, p2m_type_t t)
{
    uint64_t flags = ept_p2m_type_to_flags(d, t, level);

    if ( !flags )
        return 0;
    return ((uint64_t)mfn << PAGE_SHIFT) | flags | (level > 1 ? EPTE_SP : 0) |
           ((uint64_t)t << EPTE_TYPE_SHIFT);
}

static p2m_type_t leaf_type(ept_entry_t e)
{
    return (e & EPTE_TYPE_MASK) >> EPTE_TYPE_SHIFT;
}

static bool is_leaf(ept_entry_t e, unsigned int level)
{
    return level == 1 || (e & EPTE_SP);
}

static ept_entry_t *entry_table(ept_entry_t e)
{
    return maddr_to_virt(e & EPTE_ADDR_MASK);
}

/* A table page from the domain's paging pool (p2m-pool.c). */
static ept_entry_t *new_table(struct domain *d)
{
    ept_entry_t *t = paging_pool_alloc(d);

    if ( t )
        d->arch.hvm.p2m.nr_table_pages++;
    return t;
}

static void free_table(struct domain *d, ept_entry_t *t)
{
    d->arch.hvm.p2m.nr_table_pages--;
    paging_pool_free(d, t);
}

/* Replace the 2 MiB leaf *e with a table of 4 KiB leaves of the same type. */
static int split_superpage(struct domain *d, ept_entry_t *e)
{
    ept_entry_t *t = new_table(d);
    unsigned long mfn = (*e & EPTE_ADDR_MASK) >> PAGE_SHIFT;
    p2m_type_t type = leaf_type(*e);
    unsigned int i;

    if ( !t )
        return -ENOMEM;
    for ( i = 0; i < EPT_TABLE_ENTRIES; i++ )
        t[i] = make_leaf(d, mfn + i, 1, type);
    *e = virt_to_maddr(t) | EPTE_RWX;
    dirty_domain_count(d, superpages_split);
    return 0;
}

/* p2m->set_entry: the generic layer checked order, alignment and width, and holds the lock. */
static int ept_set_entry(struct p2m_domain *p2m, unsigned long gfn, unsigned long mfn,
                         unsigned int order, p2m_type_t t)
{
    struct domain *d = p2m->domain;
    unsigned int target = order ? 2 : 1, level;
    ept_entry_t *table = p2m->root, *e;
    int rc;

#ifndef TEST_NO_MM_LOCKS
    ASSERT(spin_is_locked_by_me(&p2m->lock));
#endif

    if ( order && !cpu_has_vmx_ept_2mb )
    {
        unsigned long i;

        for ( i = 0; i < (1UL << order); i++ )
            if ( (rc = ept_set_entry(p2m, gfn + i, mfn + i, 0, t)) )
                return rc;
        return 0;
    }

    for ( level = EPT_LEVELS; level > target; level-- )
    {
        e = &table[(gfn >> (9 * (level - 1))) & 0x1ff];
        if ( !(*e & EPTE_RWX) )
        {
            ept_entry_t *nt = new_table(d);

            if ( !nt )
                return -ENOMEM;
            *e = virt_to_maddr(nt) | EPTE_RWX;
        }
        else if ( is_leaf(*e, level) )
        {
            if ( (rc = split_superpage(d, e)) )
                return rc;
        }
        table = entry_table(*e);
    }

    e = &table[(gfn >> (9 * (target - 1))) & 0x1ff];
    if ( target == 2 && (*e & EPTE_RWX) && !is_leaf(*e, 2) )
    {
        /*
         * Replacing a table of 4 KiB leaves with one superpage leaf (the
         * callers made sure it maps nothing; foreign leaves would drop
         * their references here).
         */
        ept_free_level(d, entry_table(*e), 1);
    }
    *e = (mfn == INVALID_MFN) ? 0 : make_leaf(d, mfn, target, t);

    /* The APIC-access page is no RAM: log-dirty and migration never see it. */
    if ( t != p2m_mmio_direct && gfn + (1UL << order) - 1 > p2m->max_mapped_pfn )
        p2m->max_mapped_pfn = gfn + (1UL << order) - 1;
    ept_sync_domain(p2m);
    return 0;
}

/* Find the leaf entry for gfn; returns it and its level, or NULL. */
static ept_entry_t *ept_lookup(struct p2m_domain *p2m, unsigned long gfn,
                               unsigned int *level_out)
{
    ept_entry_t *table = p2m->root, *e;
    unsigned int level;

    /* Each level's index is masked below: the caller checked the width. */
    if ( !table )
        return NULL;
    for ( level = EPT_LEVELS; level >= 1; level-- )
    {
        e = &table[(gfn >> (9 * (level - 1))) & 0x1ff];
        if ( !(*e & EPTE_RWX) )
            return NULL;
        if ( is_leaf(*e, level) )
        {
            *level_out = level;
            return e;
        }
        table = entry_table(*e);
    }
    return NULL;
}

static unsigned long ept_get_entry(struct p2m_domain *p2m, unsigned long gfn,
                                   p2m_type_t *t, unsigned int *order)
{
    unsigned int level;
    ept_entry_t *e = ept_lookup(p2m, gfn, &level);

    if ( !e )
    {
        *t = p2m_mmio_dm;
        return INVALID_MFN;
    }
    *t = leaf_type(*e);
    if ( order )
        *order = 9 * (level - 1);
    return ((*e & EPTE_ADDR_MASK) >> PAGE_SHIFT) +
           (gfn & ((1UL << (9 * (level - 1))) - 1));
}

/*
 * Free the tables under 'table' back to the pool.  RAM leaves hold no
 * reference (the frames are freed from the domain's page list, asm/mm.h);
 * foreign leaves hold one each, dropped here.
 */
static void ept_free_level(struct domain *d, ept_entry_t *table, unsigned int level)
{
    unsigned int i;

    for ( i = 0; i < EPT_TABLE_ENTRIES; i++ )
    {
        ept_entry_t e = table[i];

        if ( !(e & EPTE_RWX) )
            continue;
        if ( is_leaf(e, level) )
        {
            if ( leaf_type(e) == p2m_map_foreign )
                put_page((e & EPTE_ADDR_MASK) >> PAGE_SHIFT);
            continue;
        }
        ept_free_level(d, entry_table(e), level - 1);
    }
    free_table(d, table);
}

static bool is_ram_type(p2m_type_t t)
{
    return t == p2m_ram_rw || t == p2m_ram_logdirty;
}

/*
 * Give every RAM leaf in [begin, end) type nt, rewriting its flags (which
 * also clears the EPT dirty flag of log-dirty pages under PML).  A 2 MiB
 * leaf inside the range keeps its size (a log-dirty one is split by its
 * first write fault: enabling log-dirty costs one entry per 2 MiB); one
 * that straddles the range's edge is split.
 */
static int ept_change_type_level(struct domain *d, ept_entry_t *table,
                                 unsigned int level, unsigned long base,
                                 unsigned long begin, unsigned long end,
                                 p2m_type_t nt)
{
    unsigned long span = 1UL << (9 * (level - 1));
    unsigned int i = begin > base ? (begin - base) / span : 0;
    int rc;

    for ( ; i < EPT_TABLE_ENTRIES; i++ )
    {
        unsigned long gfn = base + i * span;
        ept_entry_t *e = &table[i];

        if ( gfn >= end )
            break;
        if ( !(*e & EPTE_RWX) )
            continue;               /* not present */

        if ( is_leaf(*e, level) )
        {
            if ( !is_ram_type(leaf_type(*e)) )
                continue;
            if ( level > 1 && (gfn < begin || gfn + span > end) )
            {
                if ( (rc = split_superpage(d, e)) )
                    return rc;
            }
            else
            {
                if ( level > 1 && nt == p2m_ram_logdirty && leaf_type(*e) != nt )
                    d->arch.hvm.p2m.superpages_logdirty++;
                *e = make_leaf(d, (*e & EPTE_ADDR_MASK) >> PAGE_SHIFT, level, nt);
                continue;
            }
        }
        rc = ept_change_type_level(d, entry_table(*e), level - 1, gfn,
                                   begin, end, nt);
        if ( rc )
            return rc;
    }
    return 0;
}

/* p2m->change_type_range: [begin, end) within the width; no flush. */
static int ept_change_type_range(struct p2m_domain *p2m, unsigned long begin,
                                 unsigned long end, p2m_type_t nt)
{
    return ept_change_type_level(p2m->domain, p2m->root, EPT_LEVELS, 0, begin, end, nt);
}

static void ept_teardown(struct p2m_domain *p2m)
{
    if ( !p2m->root )
        return;
    ept_sync_domain(p2m);
    ept_free_level(p2m->domain, p2m->root, EPT_LEVELS);
    p2m->root = NULL;
}

struct invept_desc {
    uint64_t eptp, reserved;
};

/*
 * p2m->flush: invalidate the EPT-derived translations of this p2m, here
 * and on every other CPU that entered one of the domain's vCPUs (Xen's
 * ept_sync_domain: flush_mask() of p2m->dirty_cpumask; the other CPUs
 * flush all contexts, FLUSH_HVM_ASID_CORE).  Called with the p2m lock
 * held, after the change: when it returns, no CPU can use the old entry
 * any more, so a removal or a write protection counts as done only then.
 */
static void ept_sync_domain(struct p2m_domain *p2m)
{
    struct invept_desc desc = { p2m->eptp, 0 };
    unsigned long type = (vmx_caps.ept_vpid & VMX_EPT_INVEPT_SINGLE_CONTEXT)
                         ? INVEPT_SINGLE_CONTEXT : INVEPT_ALL_CONTEXT;
    cpumask_t others;

#ifdef XEN_HOST_TEST
    host_test_invept(type, desc.eptp);  /* tests/unit: counted, not executed */
#else
    asm volatile ( "invept %0, %1" :: "m" (desc), "r" (type) : "memory", "cc" );
#endif
    cpumask_andnot(&others, &p2m->dirty_cpumask, cpumask_of(smp_processor_id()));
    if ( !cpumask_empty(&others) )
        flush_mask(&others, FLUSH_HVM_ASID_CORE);
}

/* Xen's ept_p2m_init: the EPT root and the operations of an EPT p2m. */
int ept_p2m_init(struct p2m_domain *p2m)
{
    p2m->root = new_table(p2m->domain);
    if ( !p2m->root )
        return -ENOMEM;
    p2m->eptp = virt_to_maddr(p2m->root) | EPTP_MT_WB | EPTP_WALK_LENGTH(EPT_LEVELS) |
                (cpu_has_vmx_ept_ad ? EPTP_AD_ENABLE : 0);
    p2m->set_entry = ept_set_entry;
    p2m->get_entry = ept_get_entry;
    p2m->change_type_range = ept_change_type_range;
    p2m->flush = ept_sync_domain;
    p2m->teardown = ept_teardown;
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Using other domains' grants (Xen's common/grant_table.c, the half that
 * pins): GNTTABOP_map_grant_ref, unmap_grant_ref, unmap_and_replace,
 * copy, transfer, cache_flush, and the release of a dying domain's
 * mappings.  See grant_table.c for the model.
 *
 * A mapping pins its grant (the host count of the granter's active entry)
 * for as long as it exists, takes a reference on the frame, and is
 * recorded in the mapper's maptrack under the handle it returns; a copy
 * pins its grants only while it runs.  Unmapping, or the mapper's death,
 * undoes all three; the granter's GTF_reading/GTF_writing go with the
 * last pin.
 */
#include <xen/errno.h>
#include <xen/hypercall.h>
#include <xen/string.h>
#include <asm/mm.h>
#include <asm/p2m.h>

#include "grant_private.h"

static void release_grant_for_copy_td(struct domain *td, grant_ref_t gref, bool readonly);

/* acquire_grant_for_copy: the entry changed while its lock was dropped (Xen's ERESTART). */
#define GNTST_restart 1

/* ---- the maptrack: handles of the mappings a domain holds ------------------ */

/*
 * A free handle, allocating a maptrack page if needed; INVALID_MAPTRACK_HANDLE
 * if none.  Under the maptrack lock (Xen takes handles from a per-vCPU free
 * list and the lock only to grow; one list under the lock is the simpler
 * equivalent).  A new page is in place before maptrack_limit covers it, so
 * an unmap that checks a handle against the limit finds its page.
 */
static grant_handle_t get_maptrack_handle(struct grant_table *lgt)
{
    struct domain *d = lgt->domain;
    struct grant_mapping *page;
    grant_handle_t handle = INVALID_MAPTRACK_HANDLE;
    unsigned int i;

    spin_lock(&lgt->maptrack_lock);
    if ( lgt->maptrack_free == MAPTRACK_TAIL )
    {
        if ( nr_maptrack_frames(lgt) >= lgt->max_maptrack_frames ||
             !(page = gnttab_alloc_page(d)) )
            goto out;
        for ( i = 0; i < MAPTRACK_PER_PAGE; i++ )
            page[i].ref = i + 1 < MAPTRACK_PER_PAGE ? lgt->maptrack_limit + i + 1
                                                    : MAPTRACK_TAIL;
        lgt->maptrack[nr_maptrack_frames(lgt)] = page;
        lgt->maptrack_free = lgt->maptrack_limit;
        smp_wmb();                  /* the page, then the limit that covers it */
        ACCESS_ONCE(lgt->maptrack_limit) = lgt->maptrack_limit + MAPTRACK_PER_PAGE;
    }
    handle = lgt->maptrack_free;
    lgt->maptrack_free = maptrack_entry(lgt, handle)->ref;
 out:
    spin_unlock(&lgt->maptrack_lock);
    return handle;
}

/* Back on the free list; its flags are 0 already (cleared under the entry's lock). */
static void put_maptrack_handle(struct grant_table *lgt, grant_handle_t handle)
{
    struct grant_mapping *map = maptrack_entry(lgt, handle);

    spin_lock(&lgt->maptrack_lock);
    ASSERT(!map->flags);
    map->ref = lgt->maptrack_free;
    lgt->maptrack_free = handle;
    spin_unlock(&lgt->maptrack_lock);
}

/* ---- GNTTABOP_map_grant_ref ----------------------------------------------- */

/*
 * Xen's map_grant_ref: the handle first (the maptrack lock), then the
 * granter's table read-locked and the entry's lock for the pin, the frame
 * reference and the host mapping (the p2m's lock, below them in the
 * order); the maptrack entry is published last, flags after the rest.
 */
static void map_grant_ref(struct gnttab_map_grant_ref *op)
{
    struct domain *ld = current->domain, *rd;
    struct grant_table *lgt = ld->grant_table, *rgt;
    struct active_grant_entry *act;
    struct grant_mapping *map;
    unsigned int pin_incr = 0;
    unsigned long mfn = INVALID_MFN;
    grant_handle_t handle;
    bool have_ref = false;
    uint16_t *status;
    int rc;

    if ( op->flags & GNTMAP_device_map )
        pin_incr += (op->flags & GNTMAP_readonly) ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    if ( op->flags & GNTMAP_host_map )
        pin_incr += (op->flags & GNTMAP_readonly) ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    if ( !pin_incr )
    {
        gdprintk(ld, "bad flags in grant map op: %#x\n", op->flags);
        op->status = GNTST_bad_gntref;
        return;
    }
    /* As Xen for HVM callers: no device, application or PTE mappings. */
    if ( op->flags & (GNTMAP_device_map | GNTMAP_application_map | GNTMAP_contains_pte) )
    {
        gdprintk(ld, "no device mapping in an HVM domain\n");
        op->status = GNTST_general_error;
        return;
    }
    /* DOMID_SELF is no granter (Xen's rcu_lock_domain_by_id): a domain id. */
    if ( !(rd = get_domain_by_id(op->dom)) || !gnttab_alive(rd->grant_table) )
    {
        gdprintk(ld, "cannot find d%u\n", op->dom);
        op->status = GNTST_bad_domain;
        return;
    }
    handle = get_maptrack_handle(lgt);
    if ( handle == INVALID_MAPTRACK_HANDLE )
    {
        gdprintk(ld, "no maptrack handle left\n");
        op->status = GNTST_no_space;
        return;
    }

    rgt = rd->grant_table;
    grant_read_lock(rgt);
    if ( !gnttab_alive(rgt) )
    {
        gdprintk(ld, "d%u is going away\n", op->dom);
        rc = GNTST_bad_domain;
        goto unlock_out;
    }
    if ( op->ref >= nr_grant_entries(rgt) )
    {
        gdprintk(ld, "bad ref %#x for d%u\n", op->ref, rd->domain_id);
        rc = GNTST_bad_gntref;
        goto unlock_out;
    }
    act = active_entry_acquire(rgt, op->ref);
    status = gnttab_status_word(rgt, op->ref);

    /* Already pinned: by us, without overflowing a count, and mappable. */
    if ( act->pin && (act->domid != ld->domain_id ||
                      (act->pin & GNTPIN_incr2oflow_mask(pin_incr)) || act->is_sub_page) )
    {
        gdprintk(ld, "bad domain (%u != %u), pin overflow (%#x) or sub-page grant\n",
                 act->domid, ld->domain_id, act->pin);
        rc = GNTST_general_error;
        goto act_release_out;
    }

    if ( !act->pin ||
         (!(op->flags & GNTMAP_readonly) && !(act->pin & (GNTPIN_hstw_mask | GNTPIN_devw_mask))) )
    {
        rc = gnttab_set_status(rgt, op->ref, act, op->flags & GNTMAP_readonly, true,
                               ld->domain_id);
        if ( rc != GNTST_okay )
            goto act_release_out;
        if ( !act->pin )
        {
            unsigned long gfn = shared_entry_frame(rgt, op->ref);

            rc = gnttab_get_frame(rd, gfn, op->flags & GNTMAP_readonly, &mfn);
            if ( rc != GNTST_okay )
            {
                gnttab_reduce_status(act, status, op->flags & GNTMAP_readonly);
                goto act_release_out;
            }
            have_ref = true;
            act->domid = ld->domain_id;
            act->mfn = mfn;
            act->gfn = gfn;
            act->start = 0;
            act->length = PAGE_SIZE;
            act->is_sub_page = false;
            act->trans_domid = rd->domain_id;
            act->trans_gref = op->ref;
        }
    }
    act->pin += pin_incr;
    mfn = act->mfn;

    /* The mapping's own reference (the first pin took it already). */
    if ( !have_ref && !get_page(mfn, rd) )
    {
        gdprintk(ld, "cannot pin grant frame %#lx\n", mfn);
        rc = GNTST_general_error;
        goto undo_pin;
    }
    /* The entry's GTF_PAT/PWT/PCD apply to MMIO grants only (none for HVM). */
    rc = create_grant_host_mapping(ld, op->host_addr, mfn, op->flags, 0);
    if ( rc != GNTST_okay )
    {
        gdprintk(ld, "cannot map at %#"PRIx64"\n", op->host_addr);
        put_page(mfn);
        goto undo_pin;
    }

    /* Every user of a maptrack entry reads its flags first: they go last. */
    map = maptrack_entry(lgt, handle);
    map->domid = op->dom;
    map->ref = op->ref;
    map->mfn = mfn;
    map->table_id = rgt->id;
    smp_wmb();
    ACCESS_ONCE(map->flags) = op->flags;
    active_entry_release(act);
    grant_read_unlock(rgt);

    op->dev_bus_addr = (uint64_t)mfn << PAGE_SHIFT;     /* as Xen, even for HVM */
    op->handle = handle;
    op->status = GNTST_okay;
    return;

 undo_pin:
    act->pin -= pin_incr;
    gnttab_reduce_status(act, status, op->flags & GNTMAP_readonly);
 act_release_out:
    active_entry_release(act);
 unlock_out:
    grant_read_unlock(rgt);
    op->status = rc;
    put_maptrack_handle(lgt, handle);
}

long gnttab_map_grant_ref(XEN_GUEST_HANDLE_PARAM(gnttab_map_grant_ref_t) uop,
                                 unsigned int count)
{
    struct gnttab_map_grant_ref op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest_offset(&op, uop, i, 1) )
            return -EFAULT;
        map_grant_ref(&op);
        if ( copy_to_guest_offset(uop, i, &op, 1) )
            return -EFAULT;
    }
    return 0;
}

/* ---- GNTTABOP_unmap_grant_ref, GNTTABOP_unmap_and_replace ------------------ */

/*
 * Undo (the host part of) a mapping whose granter's table is alive (rgt
 * read-locked), Xen's unmap_common and unmap_common_complete in one (the
 * p2m change invalidates the EPT at once, so there is no TLB flush to
 * batch).  As Xen, the granter's active entry lock also guards the
 * maptrack entry: of two unmaps of one handle, the second finds it
 * changed.  host_addr 0 leaves the host mapping in place, as in Xen.
 */
static int16_t unmap_live(struct domain *rd, struct grant_mapping *map, unsigned int flags,
                          uint64_t host_addr, uint64_t dev_bus_addr, uint64_t new_addr,
                          grant_handle_t handle, bool *put_handle)
{
    struct domain *ld = current->domain;
    struct grant_table *rgt = rd->grant_table;
    struct active_grant_entry *act;
    bool readonly = flags & GNTMAP_readonly;
    grant_ref_t ref = ACCESS_ONCE(map->ref);
    int rc = GNTST_okay;

    /* A racing unmap may have put the handle on the free list: check first. */
    smp_rmb();
    if ( ref >= nr_grant_entries(rgt) )
        return GNTST_bad_handle;
    act = active_entry_acquire(rgt, ref);
    if ( ACCESS_ONCE(map->flags) != flags || map->ref != ref ||
         map->domid != rd->domain_id || map->table_id != rgt->id )
    {
        gdprintk(ld, "handle %#x was unmapped meanwhile\n", handle);
        rc = GNTST_bad_handle;
        goto out;
    }

    if ( dev_bus_addr && (flags & GNTMAP_device_map) &&
         dev_bus_addr != ((uint64_t)act->mfn << PAGE_SHIFT) )
    {
        gdprintk(ld, "bus address %#"PRIx64" does not match the grant\n", dev_bus_addr);
        rc = GNTST_bad_dev_addr;
        goto out;
    }
    if ( !host_addr || !(flags & GNTMAP_host_map) )
        goto out;                   /* nothing asked of this mapping */

    rc = replace_grant_host_mapping(ld, host_addr, act->mfn, new_addr, flags);
    if ( rc != GNTST_okay )
    {
        gdprintk(ld, "no grant mapping of handle %#x at %#"PRIx64"\n", handle, host_addr);
        goto out;
    }
    ACCESS_ONCE(map->flags) = 0;
    *put_handle = true;

    ASSERT(act->pin & (readonly ? GNTPIN_hstr_mask : GNTPIN_hstw_mask));
    act->pin -= readonly ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    if ( !readonly )
        gnttab_mark_dirty(rd, act->gfn);    /* the mapper may have written it */
    put_page(act->mfn);
    gnttab_reduce_status(act, gnttab_status_word(rgt, ref), readonly);
 out:
    active_entry_release(act);
    return rc;
}

/*
 * The granter's table is gone: Xen keeps a dying granter (and its table)
 * until its mapped frames are released; here the mapping holds its frame
 * alone, so undo the mapping and drop the reference.  The mapper's
 * maptrack lock makes two unmaps of such a handle one after the other.
 */
static int16_t unmap_orphan(struct grant_table *lgt, struct grant_mapping *map,
                            unsigned int flags, domid_t domid, uint32_t table_id,
                            uint64_t host_addr, uint64_t new_addr, grant_handle_t handle)
{
    struct domain *ld = current->domain;
    unsigned long mfn;
    int rc;

    if ( !host_addr || !(flags & GNTMAP_host_map) )
        return GNTST_okay;
    spin_lock(&lgt->maptrack_lock);
    if ( map->flags != flags || map->domid != domid || map->table_id != table_id )
    {
        spin_unlock(&lgt->maptrack_lock);
        gdprintk(ld, "handle %#x was unmapped meanwhile\n", handle);
        return GNTST_bad_handle;
    }
    mfn = map->mfn;
    rc = replace_grant_host_mapping(ld, host_addr, mfn, new_addr, flags);
    if ( rc == GNTST_okay )
    {
        map->flags = 0;
        map->ref = lgt->maptrack_free;
        lgt->maptrack_free = handle;
    }
    spin_unlock(&lgt->maptrack_lock);
    if ( rc == GNTST_okay )
        put_page(mfn);
    return rc;
}

static int16_t unmap_common(uint64_t host_addr, uint64_t dev_bus_addr, uint64_t new_addr,
                            grant_handle_t handle)
{
    struct domain *ld = current->domain, *rd;
    struct grant_table *lgt = ld->grant_table, *rgt;
    struct grant_mapping *map;
    bool put_handle = false;
    unsigned int flags;
    uint32_t table_id;
    domid_t domid;
    int rc;

    if ( handle >= ACCESS_ONCE(lgt->maptrack_limit) )
    {
        gdprintk(ld, "bad handle %#x\n", handle);
        return GNTST_bad_handle;
    }
    smp_rmb();                      /* the limit, then the page it covers */
    map = maptrack_entry(lgt, handle);
    flags = ACCESS_ONCE(map->flags);
    if ( !flags )
    {
        gdprintk(ld, "handle %#x is not mapped\n", handle);
        return GNTST_bad_handle;
    }
    smp_rmb();                      /* flags, then what they were written after */
    domid = map->domid;
    table_id = map->table_id;

    /* The granter, if its table is still the one the mapping was made of. */
    if ( (rd = get_domain_by_id(domid)) && (rgt = rd->grant_table) )
    {
        grant_read_lock(rgt);
        if ( rgt->id == table_id )
        {
            rc = unmap_live(rd, map, flags, host_addr, dev_bus_addr, new_addr, handle,
                            &put_handle);
            grant_read_unlock(rgt);
            if ( put_handle )
                put_maptrack_handle(lgt, handle);
            return rc;
        }
        grant_read_unlock(rgt);
    }
    return unmap_orphan(lgt, map, flags, domid, table_id, host_addr, new_addr, handle);
}

long gnttab_unmap_grant_ref(XEN_GUEST_HANDLE_PARAM(gnttab_unmap_grant_ref_t) uop,
                                   unsigned int count)
{
    struct gnttab_unmap_grant_ref op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        op.status = unmap_common(op.host_addr, op.dev_bus_addr, 0, op.handle);
        if ( copy_field_to_guest(uop, &op, status) )
            return -EFAULT;
        guest_handle_add_offset(uop, 1);
    }
    return 0;
}

long gnttab_unmap_and_replace(XEN_GUEST_HANDLE_PARAM(gnttab_unmap_and_replace_t) uop,
                                     unsigned int count)
{
    struct gnttab_unmap_and_replace op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        op.status = unmap_common(op.host_addr, 0, op.new_addr, op.handle);
        if ( copy_field_to_guest(uop, &op, status) )
            return -EFAULT;
        guest_handle_add_offset(uop, 1);
    }
    return 0;
}

/* ---- GNTTABOP_transfer ---------------------------------------------------- */

/*
 * GNTTABOP_transfer gives a page away; only PV domains can (Xen's
 * steal_page refuses paging_mode_external ones), so for HVM callers every
 * transfer fails: GNTST_bad_page for a gfn that is no valid frame,
 * GNTST_general_error otherwise.  With gnttab=transfer=0: -EOPNOTSUPP.
 */
long gnttab_transfer(XEN_GUEST_HANDLE_PARAM(gnttab_transfer_t) uop,
                            unsigned int count)
{
    struct domain *d = current->domain;
    struct gnttab_transfer op;
    unsigned int i;

    if ( !opt_grant_transfer )
        return -EOPNOTSUPP;
    for ( i = 0; i < count; i++ )
    {
        unsigned long mfn;
        p2m_type_t t;

        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        mfn = p2m_get_entry(d, op.mfn, &t);
        if ( mfn == INVALID_MFN || mfn >= max_page || p2m_is_grant(t) ||
             t == p2m_map_foreign )
            op.status = GNTST_bad_page;
        else
            op.status = GNTST_general_error;    /* steal_page: -EOPNOTSUPP */
        if ( copy_field_to_guest(uop, &op, status) )
            return -EFAULT;
        guest_handle_add_offset(uop, 1);
    }
    return 0;
}

/* ---- GNTTABOP_copy --------------------------------------------------------- */

/*
 * Pin grant gref of rd for one copy by ldom and take a reference on its
 * frame (Xen's acquire_grant_for_copy): *mfn, and the bytes the grant
 * covers, [*off, *off + *len).  A version 2 transitive grant is followed
 * one level (to the grant it names in another domain, pinned there for
 * rd), only when allowed (gnttab=transitive, on by default).
 *
 * Locks as Xen's: rd's table read-locked and the entry's lock held while
 * it is looked at and pinned.  For a transitive grant both are dropped
 * before the other domain's table is locked (no CPU ever holds two
 * tables' locks, so two copies through transitive grants in opposite
 * directions cannot deadlock), taken again afterwards, and if the entry
 * changed meanwhile (another pin or unpin, a version switch) everything
 * is undone and GNTST_restart tells the caller to try again.
 */
static int acquire_grant_for_copy(struct domain *rd, grant_ref_t gref, domid_t ldom,
                                  bool readonly, unsigned long *mfn, uint16_t *off,
                                  uint16_t *len, bool allow_transitive)
{
    struct grant_table *rgt = rd->grant_table;
    unsigned int pin_incr = readonly ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    struct active_grant_entry *act;
    uint32_t old_pin;
    uint16_t *status, flags;
    int rc;

    grant_read_lock(rgt);
    if ( !gnttab_alive(rgt) )
    {
        rc = GNTST_bad_domain;
        goto unlock_out;
    }
    if ( gref >= nr_grant_entries(rgt) )
    {
        gdprintk(current->domain, "bad grant reference %#x of d%u\n", gref, rd->domain_id);
        rc = GNTST_bad_gntref;
        goto unlock_out;
    }
    act = active_entry_acquire(rgt, gref);
    status = gnttab_status_word(rgt, gref);
    if ( act->pin && (act->domid != ldom || (act->pin & GNTPIN_incr2oflow_mask(pin_incr))) )
    {
        gdprintk(current->domain, "bad domain (%u != %u) or pin overflow (%#x)\n",
                 act->domid, ldom, act->pin);
        rc = GNTST_general_error;
        goto act_release_out;
    }
    old_pin = act->pin;
    flags = ACCESS_ONCE(shared_entry_header(rgt, gref)->flags);

    if ( rgt->gt_version == 2 && (flags & GTF_type_mask) == GTF_transitive )
    {
        const grant_entry_v2_t *e = shared_entry_v2(rgt, gref);
        domid_t trans_domid = ACCESS_ONCE(e->transitive.trans_domid);
        grant_ref_t trans_gref = ACCESS_ONCE(e->transitive.gref);
        unsigned long tmfn = INVALID_MFN;
        uint16_t toff = 0, tlen = 0;
        struct domain *td = NULL;

        if ( (!old_pin || (!readonly && !(old_pin & (GNTPIN_devw_mask | GNTPIN_hstw_mask)))) &&
             (rc = gnttab_set_status(rgt, gref, act, readonly, false, ldom)) != GNTST_okay )
            goto act_release_out;
        rc = GNTST_general_error;
        if ( !allow_transitive )
            gdprintk(current->domain, "transitive grant when not allowed\n");
        else if ( trans_domid == rd->domain_id )
            gdprintk(current->domain, "transitive grants cannot be self-referential\n");
        else if ( !(td = get_domain_by_id(trans_domid)) || !td->grant_table )
            gdprintk(current->domain, "transitive grant of a bad domain %u\n", trans_domid);
        else
            rc = GNTST_okay;
        if ( rc != GNTST_okay )
        {
            gnttab_reduce_status(act, status, readonly);
            goto act_release_out;
        }

        /* The other table's locks: not with ours held. */
        active_entry_release(act);
        grant_read_unlock(rgt);
        rc = acquire_grant_for_copy(td, trans_gref, rd->domain_id, readonly,
                                    &tmfn, &toff, &tlen, false);
        grant_read_lock(rgt);
        if ( !gnttab_alive(rgt) )
        {
            grant_read_unlock(rgt);
            if ( rc == GNTST_okay )
            {
                put_page(tmfn);
                release_grant_for_copy_td(td, trans_gref, readonly);
            }
            return GNTST_bad_domain;
        }
        act = active_entry_acquire(rgt, gref);
        status = gnttab_status_word(rgt, gref);
        if ( rc != GNTST_okay )
        {
            gnttab_reduce_status(act, status, readonly);
            goto act_release_out;
        }
        if ( rgt->gt_version != 2 || act->pin != old_pin )
        {
            /* Changed while unlocked: undo, each table's locks alone. */
            active_entry_release(act);
            grant_read_unlock(rgt);
            put_page(tmfn);
            release_grant_for_copy_td(td, trans_gref, readonly);
            grant_read_lock(rgt);
            if ( gnttab_alive(rgt) && gref < nr_grant_entries(rgt) )
            {
                act = active_entry_acquire(rgt, gref);
                gnttab_reduce_status(act, gnttab_status_word(rgt, gref), readonly);
                active_entry_release(act);
            }
            grant_read_unlock(rgt);
            return GNTST_restart;
        }
        if ( !old_pin )
        {
            act->domid = ldom;
            act->start = toff;
            act->length = tlen;
            act->trans_domid = trans_domid;
            act->trans_gref = trans_gref;
            act->mfn = tmfn;
            act->gfn = INVALID_GFN;
            /* Treated as a sub-page grant whatever it is: not mappable. */
            act->is_sub_page = true;
        }
        else if ( act->mfn != tmfn || act->trans_domid != trans_domid ||
                  act->trans_gref != trans_gref || act->start != toff || act->length != tlen )
        {
            gnttab_reduce_status(act, status, readonly);
            active_entry_release(act);
            grant_read_unlock(rgt);
            put_page(tmfn);
            release_grant_for_copy_td(td, trans_gref, readonly);
            return GNTST_general_error;
        }
    }
    else if ( !old_pin || (!readonly && !(old_pin & (GNTPIN_devw_mask | GNTPIN_hstw_mask))) )
    {
        unsigned long gfn, gmfn;
        uint16_t goff = 0, glen = PAGE_SIZE;
        bool sub_page = false;

        if ( (rc = gnttab_set_status(rgt, gref, act, readonly, false, ldom)) != GNTST_okay )
            goto act_release_out;
        if ( rgt->gt_version == 2 && (flags & GTF_sub_page) )
        {
            const grant_entry_v2_t *e = shared_entry_v2(rgt, gref);

            gfn = ACCESS_ONCE(e->sub_page.frame);
            goff = ACCESS_ONCE(e->sub_page.page_off);
            glen = ACCESS_ONCE(e->sub_page.length);
            sub_page = true;
        }
        else
            gfn = shared_entry_frame(rgt, gref);
        rc = gnttab_get_frame(rd, gfn, readonly, &gmfn);
        if ( rc != GNTST_okay )
        {
            gnttab_reduce_status(act, status, readonly);
            goto act_release_out;
        }
        if ( !act->pin )
        {
            act->domid = ldom;
            act->is_sub_page = sub_page;
            act->start = goff;
            act->length = glen;
            act->trans_domid = rd->domain_id;
            act->trans_gref = gref;
            act->mfn = gmfn;
            act->gfn = gfn;
        }
        else if ( act->mfn != gmfn || act->trans_domid != rd->domain_id ||
                  act->trans_gref != gref ||
                  (act->is_sub_page && (!sub_page || act->start != goff ||
                                        act->length != glen)) )
        {
            put_page(gmfn);
            gnttab_reduce_status(act, status, readonly);
            rc = GNTST_general_error;
            goto act_release_out;
        }
    }
    else
    {
        /* Pinned already: a reference of our own, from the frame's owner. */
        struct domain *owner = act->trans_domid == rd->domain_id
                               ? rd : get_domain_by_id(act->trans_domid);

        if ( !owner || !get_page(act->mfn, owner) )
        {
            rc = GNTST_bad_domain;
            goto act_release_out;
        }
    }

    act->pin += pin_incr;
    *off = act->start;
    *len = act->length;
    *mfn = act->mfn;
    rc = GNTST_okay;
 act_release_out:
    active_entry_release(act);
 unlock_out:
    grant_read_unlock(rgt);
    return rc;
}

/*
 * Undo acquire_grant_for_copy's pin (not its frame reference).  A table
 * destroyed meanwhile took its pins with it; the next level, for a
 * transitive grant, after this table's locks are dropped.
 */
static void release_grant_for_copy(struct domain *rd, grant_ref_t gref, bool readonly)
{
    struct grant_table *rgt = rd->grant_table;
    struct active_grant_entry *act;
    domid_t trans_domid;
    grant_ref_t trans_gref;

    grant_read_lock(rgt);
    if ( !gnttab_alive(rgt) || gref >= nr_grant_entries(rgt) )
    {
        grant_read_unlock(rgt);
        return;
    }
    act = active_entry_acquire(rgt, gref);
    trans_domid = act->trans_domid;
    trans_gref = act->trans_gref;
    ASSERT(act->pin & (readonly ? GNTPIN_hstr_mask : GNTPIN_hstw_mask));
    act->pin -= readonly ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    if ( !readonly )
        gnttab_mark_dirty(rd, act->gfn);
    gnttab_reduce_status(act, gnttab_status_word(rgt, gref), readonly);
    active_entry_release(act);
    grant_read_unlock(rgt);
    if ( trans_domid != rd->domain_id )
        release_grant_for_copy_td(get_domain_by_id(trans_domid), trans_gref, readonly);
}

/* The transitive level: one only (acquire allows no further). */
static void release_grant_for_copy_td(struct domain *td, grant_ref_t gref, bool readonly)
{
    if ( td && td->grant_table )
        release_grant_for_copy(td, gref, readonly);
}

/* One side of a copy: whose, which frame, which bytes of it may be used. */
struct copy_buf {
    struct domain *domain;
    bool          read_only;
    bool          have_grant;
    grant_ref_t   ref;
    unsigned long mfn;          /* referenced while claimed; INVALID_MFN if not */
    unsigned long gfn;          /* a gmfn side: to mark it dirty */
    uint16_t      offset, len;
};

/* Only DOMID_SELF may name a frame by gfn (Xen's gnttab_copy_lock_domain). */
static int copy_lock_domain(domid_t domid, bool is_gref, struct copy_buf *buf)
{
    if ( domid != DOMID_SELF && !is_gref )
        return GNTST_permission_denied;
    if ( !(buf->domain = get_domain_by_any_id(domid)) || !buf->domain->grant_table )
        return GNTST_bad_domain;
    return GNTST_okay;
}

static int copy_claim_buf(const struct gnttab_copy *op, const struct gnttab_copy_ptr *ptr,
                          struct copy_buf *buf, unsigned int gref_flag)
{
    int rc;

    buf->read_only = gref_flag == GNTCOPY_source_gref;
    if ( op->flags & gref_flag )
    {
        rc = acquire_grant_for_copy(buf->domain, ptr->u.ref, current->domain->domain_id,
                                    buf->read_only, &buf->mfn, &buf->offset, &buf->len,
                                    opt_transitive_grants);
        if ( rc != GNTST_okay )
            return rc;
        buf->ref = ptr->u.ref;
        buf->have_grant = true;
        return GNTST_okay;
    }
    rc = gnttab_get_frame(buf->domain, ptr->u.gmfn, buf->read_only, &buf->mfn);
    if ( rc != GNTST_okay )
        return rc;
    buf->gfn = ptr->u.gmfn;
    buf->offset = 0;
    buf->len = PAGE_SIZE;
    return GNTST_okay;
}

static void copy_release_buf(struct copy_buf *buf)
{
    if ( buf->mfn == INVALID_MFN )
        return;
    if ( buf->have_grant )
        release_grant_for_copy(buf->domain, buf->ref, buf->read_only);
    else if ( !buf->read_only )
        gnttab_mark_dirty(buf->domain, buf->gfn);
    put_page(buf->mfn);
    buf->mfn = INVALID_MFN;
}

/* Within a page on both sides (GNTST_bad_copy_arg), and within what was granted. */
static int copy_bytes(const struct gnttab_copy *op, const struct copy_buf *dest,
                      const struct copy_buf *src)
{
    if ( op->source.offset + op->len > PAGE_SIZE || op->dest.offset + op->len > PAGE_SIZE )
    {
        gdprintk(current->domain, "copy beyond a page\n");
        return GNTST_bad_copy_arg;
    }
    if ( op->source.offset < src->offset ||
         op->source.offset + op->len > src->offset + src->len ||
         op->dest.offset < dest->offset ||
         op->dest.offset + op->len > dest->offset + dest->len )
    {
        gdprintk(current->domain, "copy outside the granted bytes\n");
        return GNTST_general_error;
    }
    memmove((char *)mfn_to_virt(dest->mfn) + op->dest.offset,
            (const char *)mfn_to_virt(src->mfn) + op->source.offset, op->len);
    return GNTST_okay;
}

static int copy_one(const struct gnttab_copy *op)
{
    struct copy_buf src = { .mfn = INVALID_MFN }, dest = { .mfn = INVALID_MFN };
    int rc;

    rc = copy_lock_domain(op->source.domid, op->flags & GNTCOPY_source_gref, &src);
    if ( rc == GNTST_okay )
        rc = copy_lock_domain(op->dest.domid, op->flags & GNTCOPY_dest_gref, &dest);
    if ( rc == GNTST_okay )
        rc = copy_claim_buf(op, &op->source, &src, GNTCOPY_source_gref);
    if ( rc == GNTST_okay )
        rc = copy_claim_buf(op, &op->dest, &dest, GNTCOPY_dest_gref);
    if ( rc == GNTST_okay )
        rc = copy_bytes(op, &dest, &src);
    copy_release_buf(&src);
    copy_release_buf(&dest);
    return rc;
}

long gnttab_copy(XEN_GUEST_HANDLE_PARAM(gnttab_copy_t) uop, unsigned int count)
{
    struct gnttab_copy op;
    unsigned int i, tries;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        /*
         * A transitive grant that changed under the claim is claimed again
         * (Xen's ERESTART); only the caller's own vCPUs can keep changing
         * it, and after a few tries they are told to try again themselves.
         */
        for ( tries = 0; (op.status = copy_one(&op)) == GNTST_restart; )
            if ( ++tries == 5 )
            {
                op.status = GNTST_eagain;
                break;
            }
        if ( copy_field_to_guest(uop, &op, status) )
            return -EFAULT;
        guest_handle_add_offset(uop, 1);
    }
    return 0;
}

/* ---- GNTTABOP_cache_flush ------------------------------------------------- */

/*
 * One cache maintenance op (Xen's _cache_flush; Arm's use, x86 answers it
 * too).  a.dev_bus_addr is the machine address map_grant_ref returned;
 * the frame must be the caller's or one it has a grant of, which is
 * searched for in the owner's active entries, at most 4096 of them a
 * call: 1 means "not found yet, continue at *cur_ref".  x86 caches are
 * coherent: clean (and clean+invalidate) write the lines back with
 * CLFLUSH; invalidate alone is -EOPNOTSUPP.
 */
static int cache_flush(const struct gnttab_cache_flush *cf, grant_ref_t *cur_ref)
{
    struct domain *d = current->domain, *owner;
    unsigned long mfn;
    char *v;

    if ( cf->offset >= PAGE_SIZE || cf->length > PAGE_SIZE ||
         cf->offset + cf->length > PAGE_SIZE ||
         (cf->op & ~(GNTTAB_CACHE_INVAL | GNTTAB_CACHE_CLEAN)) )
        return -EINVAL;
    if ( !cf->length || !cf->op )
        return !*cur_ref ? 0 : -EILSEQ;

    mfn = cf->a.dev_bus_addr >> PAGE_SHIFT;
    if ( !mfn_to_page(mfn) )
        return -EINVAL;
    /* A reference for the flush (Xen's page_get_owner_and_reference). */
    owner = get_domain_by_id(page_get_owner(mfn));
    if ( !owner || !owner->grant_table || !get_page(mfn, owner) )
        return -EPERM;
    if ( d != owner )
    {
        struct grant_table *ogt = owner->grant_table;
        grant_ref_t ref, end;
        bool found = false;

        grant_read_lock(ogt);
        if ( !gnttab_alive(ogt) )
        {
            grant_read_unlock(ogt);
            put_page(mfn);
            return -EPERM;
        }
        end = min(*cur_ref + (1U << GNTTABOP_CONTINUATION_ARG_SHIFT), nr_grant_entries(ogt));
        for ( ref = *cur_ref; ref < end && !found; ref++ )
        {
            struct active_grant_entry *act = active_entry_acquire(ogt, ref);

            found = act->pin && act->domid == d->domain_id && act->mfn == mfn;
            active_entry_release(act);
        }
        if ( !found )
        {
            bool more = end < nr_grant_entries(ogt);

            grant_read_unlock(ogt);
            put_page(mfn);
            if ( more )
            {
                *cur_ref = end;
                return 1;
            }
            return -EINVAL;
        }
        grant_read_unlock(ogt);
    }

    if ( cf->op == GNTTAB_CACHE_INVAL )
    {
        put_page(mfn);
        return -EOPNOTSUPP;
    }
    for ( v = (char *)mfn_to_virt(mfn); v < (char *)mfn_to_virt(mfn) + PAGE_SIZE; v += 64 )
        asm volatile ( "clflush %0" :: "m" (*v) : "memory" );
    put_page(mfn);
    return 0;
}

long gnttab_cache_flush(XEN_GUEST_HANDLE_PARAM(gnttab_cache_flush_t) uop,
                               grant_ref_t *cur_ref, unsigned int count)
{
    struct gnttab_cache_flush op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        for ( ; ; )
        {
            int ret = cache_flush(&op, cur_ref);

            if ( ret < 0 )
                return ret;
            if ( ret == 0 )
                break;
            if ( hypercall_preempt_check() )
                return i;
        }
        *cur_ref = 0;
        guest_handle_add_offset(uop, 1);
    }
    *cur_ref = 0;
    return 0;
}

/* ---- a dying domain's mappings --------------------------------------------- */

/*
 * Every mapping d still holds is undone (Xen's gnttab_release_mappings):
 * the granter's pin goes (and with the last one its GTF_reading/writing),
 * under the granter's read lock and the entry's lock, and the frame's
 * reference, which may free it if its granter died already.  The p2m
 * entries themselves go with d's p2m.  d's vCPUs no longer run, so
 * nothing else uses its maptrack.  Bounded by d's maptrack (at most
 * max_maptrack_frames pages); not preemptible, as domain destruction here
 * is not (Xen continues it from a domctl).
 */
void gnttab_release_mappings(struct domain *d)
{
    struct grant_table *gt = d->grant_table;
    grant_handle_t handle;
    unsigned int i;

    if ( !gt )
        return;
    for ( handle = 0; handle < gt->maptrack_limit; handle++ )
    {
        struct grant_mapping *map = maptrack_entry(gt, handle);
        bool readonly = map->flags & GNTMAP_readonly;
        struct grant_table *rgt;
        struct domain *rd;

        if ( !(map->flags & (GNTMAP_device_map | GNTMAP_host_map)) )
            continue;
        if ( (rd = get_domain_by_id(map->domid)) && rd != d && (rgt = rd->grant_table) )
        {
            grant_read_lock(rgt);
            if ( rgt->id == map->table_id && map->ref < nr_grant_entries(rgt) )
            {
                struct active_grant_entry *act = active_entry_acquire(rgt, map->ref);

                BUG_ON(!(act->pin & (readonly ? GNTPIN_hstr_mask : GNTPIN_hstw_mask)));
                act->pin -= readonly ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
                if ( !readonly )
                    gnttab_mark_dirty(rd, act->gfn);
                gnttab_reduce_status(act, gnttab_status_word(rgt, map->ref), readonly);
                active_entry_release(act);
            }
            grant_read_unlock(rgt);
        }
        put_page(map->mfn);
        map->flags = 0;
    }
    spin_lock(&gt->maptrack_lock);
    for ( i = 0; i < nr_maptrack_frames(gt); i++ )
    {
        gnttab_free_page(d, gt->maptrack[i]);
        gt->maptrack[i] = NULL;
    }
    gt->maptrack_limit = 0;
    gt->maptrack_free = MAPTRACK_TAIL;
    spin_unlock(&gt->maptrack_lock);
}

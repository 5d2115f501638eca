/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory_op: the subset this hypervisor implements, with Xen's semantics.
 *
 * A domain's reservation: XENMEM_populate_physmap fills guest frames with
 * fresh memory; XENMEM_decrease_reservation gives frames back (ballooning:
 * the gfns become holes, the frames go back to the heap once nothing else
 * references them); XENMEM_increase_reservation allocates frames to the
 * domain without mapping them (Xen's behaviour for translated guests);
 * XENMEM_current_reservation, XENMEM_maximum_reservation and
 * XENMEM_maximum_gpfn read it.  Every frame is charged to the domain
 * (tot_pages, at most max_pages: asm/mm.h) from its allocation to its
 * free.  The three reservation changes return the number of extents done,
 * stop at the first one that fails, and are preempted and continued with
 * the start extent in cmd's bits 6 and up (MEMOP_EXTENT_SHIFT), as Xen.
 *
 * XENMEM_add_to_physmap_batch with XENMAPSPACE_gmfn_foreign maps frames of
 * another domain into the caller (the control domain only), which is how
 * privcmd's foreign mapping (and our dom0 test kernels) read a guest's
 * memory; XENMEM_remove_from_physmap undoes it.  Per-entry errors go to
 * the caller's errs array, as in Xen.  XENMEM_add_to_physmap maps the
 * domain's shared_info page (XENMAPSPACE_shared_info) and its grant-table
 * frames (XENMAPSPACE_grant_table, common/grant_table.c);
 * XENMEM_acquire_resource maps a domain's grant-table frames into the
 * control domain.  XENMEM_memory_map and XENMEM_machine_memory_map return
 * the E820 maps.  Everything else: -ENOSYS, logged once by name.
 */
#include <xen/errno.h>
#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/string.h>
#include <xen/sched.h>
#include <xen/xmalloc.h>
#include <public/memory.h>
#include <asm/hvm/hvm.h>
#include <asm/mm.h>
#include <asm/p2m.h>
#include <asm/setup.h>

static struct domain *target_domain(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

static long add_to_physmap_batch(XEN_GUEST_HANDLE_PARAM(xen_add_to_physmap_batch_t) arg,
                                 unsigned int start)
{
    struct xen_add_to_physmap_batch b;
    struct domain *d, *fd;
    unsigned int i;

    if ( copy_from_guest(&b, arg, 1) )
        return -EFAULT;
    if ( b.space != XENMAPSPACE_gmfn_foreign )
        return -EOPNOTSUPP;
    if ( !(d = target_domain(b.domid)) || d != current->domain )
        return -EPERM;              /* only into the caller itself */
    if ( !is_control_domain(d) )
        return -EPERM;
    if ( !(fd = get_domain_by_id(b.u.foreign_domid)) || fd == d )
        return -ESRCH;
    /* A suspended domain's memory is what a save copies. */
    if ( fd->state != DOMSTATE_running && !domain_is_suspended(fd) )
        return -ESRCH;

    for ( i = start; i < b.size; i++ )
    {
        xen_ulong_t idx;
        xen_pfn_t gpfn;
        int err;

        if ( copy_from_guest_offset(&idx, b.idxs, i, 1) ||
             copy_from_guest_offset(&gpfn, b.gpfns, i, 1) )
            return -EFAULT;
        err = p2m_add_foreign(d, gpfn, fd, idx);
        if ( copy_to_guest_offset(b.errs, i, &err, 1) )
            return -EFAULT;
    }
    return 0;
}

static long remove_from_physmap(XEN_GUEST_HANDLE_PARAM(xen_remove_from_physmap_t) arg)
{
    struct xen_remove_from_physmap r;
    struct domain *d;
    int rc;

    if ( copy_from_guest(&r, arg, 1) )
        return -EFAULT;
    if ( !(d = target_domain(r.domid)) )
        return -EPERM;
    /* A grant-table frame: the domain's own, or (Xen's XSM_TARGET) the control domain. */
    if ( d == current->domain || is_control_domain(current->domain) )
    {
        rc = gnttab_unmap_frame(d, r.gpfn);
        if ( rc != -ENOENT )
            return rc;
    }
    if ( d != current->domain )
        return -EPERM;
    return p2m_remove_foreign(d, r.gpfn);
}

/* ---- reservations ----------------------------------------------------- */

/* Xen's memop_args: one reservation change in progress. */
struct memop_args {
    struct domain *domain;
    XEN_GUEST_HANDLE(xen_pfn_t) extent_list;
    unsigned long nr_extents;
    unsigned int extent_order;
    unsigned long nr_done;          /* IN: where to start; OUT: extents done */
    bool preempted;
};

/*
 * The largest extent a domain may ask for (Xen's max_order(): 2 MiB for a
 * domU, 1 GiB for the control domain (CONFIG_CTLDOM_MAX_ORDER on x86).
 */
static unsigned int max_order(const struct domain *d)
{
    return is_control_domain(d) ? 2 * PAGETABLE_ORDER : PAGETABLE_ORDER;
}

/*
 * Remove the frame at gfn from d (Xen's guest_remove_page): the gfn
 * becomes a hole (the EPT entry is cleared and the EPT caches invalidated
 * before this returns) and the frame's allocation reference is dropped,
 * so it goes back to the heap unless something still references it (a
 * registered vcpu_info, a foreign mapping by the control domain): then it
 * stays d's, counted in tot_pages, until that reference goes.  As Xen:
 * -ENOENT for a hole, -EPERM for MMIO (the APIC-access page), -ENXIO for
 * a frame that is not d's (a foreign or grant mapping); the shared_info
 * page and grant-table frames are only unhooked from the gfn (they are
 * the hypervisor's to free).  -ENOMEM if splitting a 2 MiB mapping needs
 * a table the paging pool does not have.
 */
int guest_remove_page(struct domain *d, unsigned long gfn)
{
    unsigned long mfn;
    p2m_type_t t;
    int rc;

    mfn = p2m_get_entry(d, gfn, &t);
    if ( mfn == INVALID_MFN )
        return -ENOENT;
    if ( t == p2m_mmio_direct )
        return -EPERM;
    if ( mfn_to_page(mfn)->count_info & PGC_xen_heap )
    {
        /*
         * Xen: special pages (shared_info, grant-table frames) are simply
         * unhooked from this phys slot; they are the hypervisor's to free.
         */
        if ( t == p2m_gnttab_frame && (rc = gnttab_unmap_frame(d, gfn)) != -ENOENT )
            return rc;
        if ( (rc = p2m_remove_entry(d, gfn, 0)) )
            return rc;
        if ( d->shared_info_gfn == gfn )
            d->shared_info_gfn = INVALID_GFN;
        return 0;
    }
    if ( !get_page(mfn, d) )
        return -ENXIO;              /* Xen's "Bad page free": not d's frame */
    rc = p2m_remove_entry(d, gfn, 0);
    if ( !rc )
    {
        /* Migration must learn the page is gone (it then sends no data). */
        p2m_note_hypervisor_write(d, gfn);
        put_page_alloc_ref(mfn);
    }
    put_page(mfn);
    return rc;
}

/*
 * A whole 2 MiB extent mapped by one 2 MiB leaf of d's RAM goes in one
 * step (no table for a split); true if it did.  Anything else is removed
 * 4 KiB at a time by the caller.
 */
static bool remove_superpage(struct domain *d, unsigned long gfn)
{
    unsigned int order;
    unsigned long mfn, i;
    p2m_type_t t;

    if ( gfn & ((1UL << SUPERPAGE_ORDER) - 1) )
        return false;
    mfn = p2m_get_entry_order(d, gfn, &t, &order);
    if ( mfn == INVALID_MFN || order != SUPERPAGE_ORDER ||
         (t != p2m_ram_rw && t != p2m_ram_logdirty && t != p2m_ram_ro) )
        return false;
    for ( i = 0; i < (1UL << SUPERPAGE_ORDER); i++ )
        if ( page_get_owner(mfn + i) != d->domain_id )
            return false;
    if ( p2m_remove_entry(d, gfn, SUPERPAGE_ORDER) )
        return false;
    for ( i = 0; i < (1UL << SUPERPAGE_ORDER); i++ )
    {
        p2m_note_hypervisor_write(d, gfn + i);
        put_page_alloc_ref(mfn + i);
    }
    return true;
}

static void decrease_reservation(struct memop_args *a)
{
    unsigned long i, j;
    xen_pfn_t gfn;

    if ( a->extent_order > max_order(current->domain) )
        return;

    for ( i = a->nr_done; i < a->nr_extents; i++ )
    {
        if ( i != a->nr_done && hypercall_preempt_check() )
        {
            a->preempted = true;
            break;
        }
        if ( copy_from_guest_offset(&gfn, a->extent_list, i, 1) )
            break;
        if ( a->extent_order >= SUPERPAGE_ORDER )
        {
            /* Leaves of 2 MiB go whole; split ones, 4 KiB at a time. */
            for ( j = 0; j < (1UL << a->extent_order); j += 1UL << SUPERPAGE_ORDER )
                if ( !remove_superpage(a->domain, gfn + j) )
                    break;
        }
        else
            j = 0;
        for ( ; j < (1UL << a->extent_order); j++ )
            if ( guest_remove_page(a->domain, gfn + j) )
                goto out;
    }
 out:
    a->nr_done = i;
}

static void populate_physmap(struct memop_args *a)
{
    struct domain *d = a->domain;
    unsigned long i, n = 1UL << a->extent_order;
    xen_pfn_t gfn;

    if ( a->extent_order > max_order(current->domain) )
        return;

    for ( i = a->nr_done; i < a->nr_extents; i++ )
    {
        mfn_t mfn;

        if ( i != a->nr_done && hypercall_preempt_check() )
        {
            a->preempted = true;
            break;
        }
        if ( copy_from_guest_offset(&gfn, a->extent_list, i, 1) )
            break;
        /*
         * Misaligned, past max_pages, or over anything mapped: stop.  (Xen
         * replaces what was there, leaving the old frame allocated to the
         * domain; we refuse instead.)
         */
        if ( gfn & (n - 1) || gfn > p2m_max_gfn() || d->tot_pages + n > d->max_pages ||
             !p2m_range_empty(d, gfn, a->extent_order) )
            break;
        mfn = alloc_domheap_pages_for(d, a->extent_order);
        if ( mfn == INVALID_MFN )
            break;                  /* the host is out of memory */
        clear_pages(mfn_to_virt(mfn), a->extent_order);
        if ( p2m_add_ram(d, gfn, mfn, a->extent_order) )
            break;                  /* -ENOMEM: the paging pool is used up */
    }
    a->nr_done = i;
}

/*
 * Frames for d that are not mapped anywhere: what Xen does for a
 * translated guest (only a PV guest learns their frame numbers).  They
 * count in tot_pages until the domain dies.
 */
static void increase_reservation(struct memop_args *a)
{
    struct domain *d = a->domain;
    unsigned long i;

    if ( a->extent_order > max_order(current->domain) )
        return;

    for ( i = a->nr_done; i < a->nr_extents; i++ )
    {
        mfn_t mfn;

        if ( i != a->nr_done && hypercall_preempt_check() )
        {
            a->preempted = true;
            break;
        }
        if ( d->tot_pages + (1UL << a->extent_order) > d->max_pages )
            break;
        mfn = alloc_domheap_pages_for(d, a->extent_order);
        if ( mfn == INVALID_MFN )
            break;
        clear_pages(mfn_to_virt(mfn), a->extent_order);
        if ( assign_pages(d, mfn, a->extent_order) )
        {
            free_domheap_pages(mfn, a->extent_order);
            break;
        }
    }
    a->nr_done = i;
}

/*
 * XENMEM_{increase,decrease}_reservation, XENMEM_populate_physmap: the
 * number of extents done (counting from 0, continuations included), as
 * Xen; an argument that cannot be read, a domain that does not exist or
 * may not be changed by the caller (only itself, or any domain for the
 * control domain) are 0 extents done.
 */
static long reservation_op(unsigned int op, unsigned long start_extent,
                           XEN_GUEST_HANDLE_PARAM(void) arg)
{
    XEN_GUEST_HANDLE_PARAM(xen_memory_reservation_t) rarg =
        guest_handle_cast(arg, xen_memory_reservation_t);
    struct xen_memory_reservation r;
    struct memop_args a = { 0 };
    struct domain *d;

    if ( copy_from_guest(&r, rarg, 1) )
        return start_extent;
    /* Is it too large to encode a continuation? */
    if ( r.nr_extents > (~0u >> MEMOP_EXTENT_SHIFT) )
        return start_extent;
    if ( start_extent >= r.nr_extents )
        return start_extent;
    if ( !(d = target_domain(r.domid)) )
        return start_extent;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return start_extent;        /* Xen's XSM_TARGET */
    /* Address-width and NUMA requests are accepted: one node, any frame. */

    a.domain = d;
    a.extent_list = r.extent_start;
    a.nr_extents = r.nr_extents;
    a.extent_order = r.extent_order;
    a.nr_done = start_extent;

    switch ( op )
    {
    case XENMEM_increase_reservation:
        increase_reservation(&a);
        break;
    case XENMEM_decrease_reservation:
        decrease_reservation(&a);
        break;
    default:
        populate_physmap(&a);
        break;
    }

    if ( a.preempted )
        return hypercall_create_continuation(__HYPERVISOR_memory_op, "lh",
                                             op | (a.nr_done << MEMOP_EXTENT_SHIFT), arg);
    return a.nr_done;
}

/* XENMEM_current_reservation, XENMEM_maximum_reservation, XENMEM_maximum_gpfn. */
static long reservation_query(unsigned int op, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct xen_memory_domain md;
    struct domain *d;

    if ( copy_from_guest(&md, guest_handle_cast(arg, xen_memory_domain_t), 1) )
        return -EFAULT;
    if ( !(d = target_domain(md.domid)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    switch ( op )
    {
    case XENMEM_current_reservation:
        return d->tot_pages;
    case XENMEM_maximum_reservation:
        return d->max_pages;
    default:
        /* Xen's domain_get_maximum_gpfn(): the p2m's highest mapped gfn. */
        return d->arch.hvm.p2m.max_mapped_pfn;
    }
}

/*
 * Map d's shared_info page at gpfn (Xen's xenmem_add_to_physmap_one for
 * XENMAPSPACE_shared_info).  As in Xen, whatever was at gpfn is removed
 * first, a RAM frame freed (guest_remove_page: "normal domain memory is
 * freed, to avoid leaking memory"; it stays only while something else
 * references it, and stays counted then), MMIO refused (-EPERM), another
 * domain's frame refused (-ENXIO); then the page leaves its old gfn and
 * takes the new one.  The page is the hypervisor's, shared with the guest:
 * it never counts in tot_pages.
 */
static int map_shared_info(struct domain *d, unsigned long gpfn)
{
    unsigned long mfn = virt_to_mfn(d->shared_info), prev;
    p2m_type_t t;
    int rc = 0;

    if ( gpfn > p2m_max_gfn() )
        return -EINVAL;
    if ( gpfn == d->shared_info_gfn )
        return 0;

    prev = p2m_get_entry(d, gpfn, &t);
    if ( t == p2m_mmio_direct )
        return -EPERM;
    if ( prev != INVALID_MFN )
        rc = guest_remove_page(d, gpfn);
    if ( !rc && d->shared_info_gfn != INVALID_GFN )
    {
        rc = p2m_remove_entry(d, d->shared_info_gfn, 0);
        if ( !rc )
            d->shared_info_gfn = INVALID_GFN;
    }
    if ( !rc )
        rc = p2m_set_entry(d, gpfn, mfn, 0, p2m_ram_rw);
    if ( rc )
        return rc;
    d->shared_info_gfn = gpfn;
    p2m_note_hypervisor_write(d, gpfn);
    return 0;
}

static const char *const mapspace_names[] = {
    [XENMAPSPACE_grant_table]   = "XENMEM_add_to_physmap grant_table",
    [XENMAPSPACE_gmfn]          = "XENMEM_add_to_physmap gmfn",
    [XENMAPSPACE_gmfn_range]    = "XENMEM_add_to_physmap gmfn_range",
    [XENMAPSPACE_gmfn_foreign]  = "XENMEM_add_to_physmap gmfn_foreign",
    [XENMAPSPACE_dev_mmio]      = "XENMEM_add_to_physmap dev_mmio",
};

static long add_to_physmap(XEN_GUEST_HANDLE_PARAM(xen_add_to_physmap_t) arg)
{
    struct xen_add_to_physmap xatp;
    struct domain *d;

    if ( copy_from_guest(&xatp, arg, 1) )
        return -EFAULT;
    if ( xatp.space == XENMAPSPACE_grant_table )
    {
        if ( !(d = target_domain(xatp.domid)) )
            return -ESRCH;
        if ( d != current->domain && !is_control_domain(current->domain) )
            return -EPERM;
        return gnttab_map_frame(d, xatp.idx, xatp.gpfn);
    }
    if ( xatp.space != XENMAPSPACE_shared_info )
        return subop_enosys(__HYPERVISOR_memory_op, XENMEM_add_to_physmap,
                            xatp.space < ARRAY_SIZE(mapspace_names)
                            ? mapspace_names[xatp.space] : "XENMEM_add_to_physmap");
    if ( !(d = target_domain(xatp.domid)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    if ( xatp.idx != 0 )
        return -EINVAL;             /* shared_info has one frame */
    return map_shared_info(d, xatp.gpfn);
}

/*
 * XENMEM_acquire_resource (Xen's acquire_resource), for the grant table
 * only: the control domain maps frames [frame, frame + nr_frames) of
 * another domain's shared or status grant frames at the gfns frame_list
 * gives (a translated caller's), each a foreign mapping holding its frame
 * (undone with XENMEM_remove_from_physmap); a null frame_list asks for
 * the resource's size.  The other resources (ioreq servers, vmtrace
 * buffers) do not exist here: -EOPNOTSUPP.  The request is bounded by
 * the table's maximum size, so it is done in one go (Xen continues after
 * each 32 frames).
 */
static long acquire_resource(XEN_GUEST_HANDLE_PARAM(xen_mem_acquire_resource_t) arg)
{
    struct domain *d, *currd = current->domain;
    struct xen_mem_acquire_resource xmar;
    unsigned int max_frames, done;
    int rc;

    /* Xen: a translated caller must be the hardware domain. */
    if ( !is_control_domain(currd) )
        return -EACCES;
    if ( copy_from_guest(&xmar, arg, 1) )
        return -EFAULT;
    if ( xmar.pad )
        return -EINVAL;
    if ( (xmar.frame >> 32) || ((xmar.frame + xmar.nr_frames) >> 32) )
        return -EINVAL;
    if ( !(d = get_domain_by_id(xmar.domid)) )
        return -ESRCH;
    if ( d == currd )
        return -EPERM;
    if ( xmar.type != XENMEM_resource_grant_table )
        return -EOPNOTSUPP;
    if ( !(max_frames = gnttab_resource_max_frames(d, xmar.id)) )
        return -EINVAL;

    if ( guest_handle_is_null(xmar.frame_list) )
    {
        if ( xmar.nr_frames )
            return -EINVAL;
        xmar.nr_frames = max_frames;
        return copy_field_to_guest(arg, &xmar, nr_frames) ? -EFAULT : 0;
    }
    if ( !xmar.nr_frames || xmar.nr_frames > max_frames )
        return -EINVAL;

    for ( done = 0; done < xmar.nr_frames; )
    {
        xen_pfn_t mfn_list[32], gfn_list[32];
        unsigned int todo = min_t(unsigned int, ARRAY_SIZE(mfn_list), xmar.nr_frames - done);
        unsigned int i;

        rc = gnttab_acquire_resource(d, xmar.id, xmar.frame + done, todo, mfn_list);
        if ( rc < 0 )
            return rc;
        if ( copy_from_guest_offset(gfn_list, xmar.frame_list, done, todo) )
            return -EFAULT;
        for ( i = 0; i < todo; i++ )
        {
            rc = p2m_add_foreign_frame(currd, gfn_list[i], d, mfn_list[i]);
            /* As Xen: only the first frame's failure is told as it is. */
            if ( rc )
                return done + i ? -EIO : rc;
        }
        done += todo;
    }
    return 0;
}

/* The E820 entry layout XENMEM_*memory_map return: 20 bytes, packed. */
struct e820entry_packed {
    uint64_t addr, size;
    uint32_t type;
} __attribute__((packed));

/*
 * XENMEM_memory_map: the caller's own map, as its start info gave it (Xen:
 * d->arch.e820; -ENOSYS if none was set, i.e. a toolstack-built domain).
 * XENMEM_machine_memory_map: the host's map, for the control domain only.
 * At most nr_entries are written; nr_entries says how many were.
 */
static long memory_map(XEN_GUEST_HANDLE_PARAM(xen_memory_map_t) arg, bool machine)
{
    struct domain *d = current->domain;
    struct hvm_memmap_table_entry own[HVM_MAX_MEMMAP];
    struct e820entry_packed e;
    struct xen_memory_map map;
    unsigned int i, n;

    if ( machine && !is_control_domain(d) )
        return -EPERM;
    if ( copy_from_guest(&map, arg, 1) )
        return -EFAULT;

    if ( machine )
        n = get_boot_info()->nr_e820;
    else
    {
        /* A snapshot: the toolstack may set it meanwhile. */
        spin_lock(&d->arch.hvm.memmap_lock);
        n = d->arch.hvm.nr_memmap;
        memcpy(own, d->arch.hvm.memmap, n * sizeof(*own));
        spin_unlock(&d->arch.hvm.memmap_lock);
    }
    if ( !n )
        return -ENOSYS;
    n = min(n, map.nr_entries);

    for ( i = 0; i < n; i++ )
    {
        if ( machine )
        {
            const struct e820entry *h = &get_boot_info()->e820[i];

            e.addr = h->addr; e.size = h->size; e.type = h->type;
        }
        else
        {
            e.addr = own[i].addr; e.size = own[i].size; e.type = own[i].type;
        }
        if ( copy_to_guest_offset(map.buffer, i, &e, 1) )
            return -EFAULT;
    }
    map.nr_entries = n;
    if ( copy_field_to_guest(arg, &map, nr_entries) )
        return -EFAULT;
    return 0;
}

/*
 * XENMEM_set_memory_map: the map XENMEM_memory_map gives the domain from
 * now on (Xen's, for a toolstack-built domain; libxl sets it before the
 * guest runs).  For the domain itself or by the control domain (as Xen's
 * XSM_TARGET); at most HVM_MAX_MEMMAP entries (-EINVAL; Xen takes up to
 * E820MAX), entries as given, as Xen.  0 entries: no map (-ENOSYS then).
 */
static long set_memory_map(XEN_GUEST_HANDLE_PARAM(xen_foreign_memory_map_t) arg)
{
    struct hvm_memmap_table_entry map[HVM_MAX_MEMMAP];
    struct xen_foreign_memory_map fmap;
    struct e820entry_packed e;
    struct domain *d;
    unsigned int i;

    if ( copy_from_guest(&fmap, arg, 1) )
        return -EFAULT;
    if ( fmap.map.nr_entries > HVM_MAX_MEMMAP )
        return -EINVAL;
    d = fmap.domid == DOMID_SELF ? current->domain : get_domain_by_id(fmap.domid);
    if ( !d )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    for ( i = 0; i < fmap.map.nr_entries; i++ )
    {
        if ( copy_from_guest_offset(&e, fmap.map.buffer, i, 1) )
            return -EFAULT;
        map[i] = (struct hvm_memmap_table_entry){ .addr = e.addr, .size = e.size,
                                                  .type = e.type };
    }
    hvm_set_memory_map(d, map, fmap.map.nr_entries);
    return 0;
}

/*
 * XENMEM_claim_pages, Xen's: the control domain stakes a claim for a
 * domain it builds, nr_extents pages in all (0 cancels), so that the
 * populate that follows cannot run out because others allocate meanwhile
 * (domain_set_outstanding_pages(), page_alloc.c).  As Xen: no extent list,
 * order 0 and no flags, else -EINVAL; an unknown domain -EINVAL.
 */
static long claim_pages(XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct xen_memory_reservation r;
    struct domain *d;

    if ( copy_from_guest(&r, guest_handle_cast(arg, xen_memory_reservation_t), 1) )
        return -EFAULT;
    if ( !guest_handle_is_null(r.extent_start) || r.extent_order || r.mem_flags )
        return -EINVAL;
    if ( !is_control_domain(current->domain) )
        return -EPERM;
    d = get_domain_by_id(r.domid);
    if ( !d )
        return -EINVAL;
    return domain_set_outstanding_pages(d, r.nr_extents);
}

static const char *const memory_op_names[] = {
    [XENMEM_increase_reservation]   = "XENMEM_increase_reservation",
    [XENMEM_decrease_reservation]   = "XENMEM_decrease_reservation",
    [XENMEM_maximum_ram_page]       = "XENMEM_maximum_ram_page",
    [XENMEM_current_reservation]    = "XENMEM_current_reservation",
    [XENMEM_maximum_reservation]    = "XENMEM_maximum_reservation",
    [XENMEM_machphys_mfn_list]      = "XENMEM_machphys_mfn_list",
    [XENMEM_populate_physmap]       = "XENMEM_populate_physmap",
    [XENMEM_add_to_physmap]         = "XENMEM_add_to_physmap",
    [XENMEM_memory_map]             = "XENMEM_memory_map",
    [XENMEM_machine_memory_map]     = "XENMEM_machine_memory_map",
    [XENMEM_exchange]               = "XENMEM_exchange",
    [XENMEM_machphys_mapping]       = "XENMEM_machphys_mapping",
    [XENMEM_set_memory_map]         = "XENMEM_set_memory_map",
    [XENMEM_maximum_gpfn]           = "XENMEM_maximum_gpfn",
    [XENMEM_remove_from_physmap]    = "XENMEM_remove_from_physmap",
    [XENMEM_set_pod_target]         = "XENMEM_set_pod_target",
    [XENMEM_get_pod_target]         = "XENMEM_get_pod_target",
    [XENMEM_get_sharing_freed_pages] = "XENMEM_get_sharing_freed_pages",
    [XENMEM_get_sharing_shared_pages] = "XENMEM_get_sharing_shared_pages",
    [XENMEM_paging_op]              = "XENMEM_paging_op",
    [XENMEM_access_op]              = "XENMEM_access_op",
    [XENMEM_sharing_op]             = "XENMEM_sharing_op",
    [XENMEM_add_to_physmap_batch]   = "XENMEM_add_to_physmap_batch",
    [XENMEM_claim_pages]            = "XENMEM_claim_pages",
    [XENMEM_machphys_compat_mfn_list] = "XENMEM_machphys_compat_mfn_list",
    [XENMEM_get_vnumainfo]          = "XENMEM_get_vnumainfo",
    [XENMEM_reserved_device_memory_map] = "XENMEM_reserved_device_memory_map",
    [XENMEM_acquire_resource]       = "XENMEM_acquire_resource",
};

long do_memory_op(unsigned long cmd, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    unsigned long start_extent = cmd >> MEMOP_EXTENT_SHIFT;
    unsigned int op = cmd & MEMOP_CMD_MASK;

    switch ( op )
    {
    case XENMEM_increase_reservation:
    case XENMEM_decrease_reservation:
    case XENMEM_populate_physmap:
        return reservation_op(op, start_extent, arg);
    case XENMEM_current_reservation:
    case XENMEM_maximum_reservation:
    case XENMEM_maximum_gpfn:
        if ( start_extent )
            return -EINVAL;
        return reservation_query(op, arg);
    case XENMEM_maximum_ram_page:
        if ( start_extent )
            return -EINVAL;
        return max_page;
    case XENMEM_claim_pages:
        if ( start_extent )
            return -EINVAL;
        return claim_pages(arg);
    case XENMEM_add_to_physmap_batch:
        /* Xen's check for malicious input: the start is an entry index. */
        if ( start_extent != (uint16_t)start_extent )
            return -EDOM;
        return add_to_physmap_batch(guest_handle_cast(arg, xen_add_to_physmap_batch_t),
                                    start_extent);
    case XENMEM_remove_from_physmap:
        if ( start_extent )
            return -EINVAL;
        return remove_from_physmap(guest_handle_cast(arg, xen_remove_from_physmap_t));
    case XENMEM_add_to_physmap:
        /* Only XENMAPSPACE_gmfn_range (not here) uses the start. */
        if ( start_extent != (uint16_t)start_extent )
            return -EDOM;
        return add_to_physmap(guest_handle_cast(arg, xen_add_to_physmap_t));
    case XENMEM_acquire_resource:
        return acquire_resource(guest_handle_cast(arg, xen_mem_acquire_resource_t));
    case XENMEM_get_sharing_freed_pages:
    case XENMEM_get_sharing_shared_pages:
        return 0;                   /* no memory sharing: none (Xen without it) */
    case XENMEM_set_memory_map:
        if ( start_extent )
            return -EINVAL;
        return set_memory_map(guest_handle_cast(arg, xen_foreign_memory_map_t));
    case XENMEM_memory_map:
    case XENMEM_machine_memory_map:
        return memory_map(guest_handle_cast(arg, xen_memory_map_t),
                          op == XENMEM_machine_memory_map);
    default:
        return subop_enosys(__HYPERVISOR_memory_op, op,
                            op < ARRAY_SIZE(memory_op_names) ? memory_op_names[op] : NULL);
    }
}

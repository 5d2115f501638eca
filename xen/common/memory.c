/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory_op: the subset this hypervisor implements.
 *
 * XENMEM_populate_physmap fills a domain's guest frames with memory.
 * XENMEM_add_to_physmap_batch with XENMAPSPACE_gmfn_foreign maps frames
 * of another domain into the caller (the control domain only), which is
 * how privcmd's foreign mapping (and our dom0 test kernels) read a guest's
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
#include <asm/mm.h>
#include <asm/p2m.h>
#include <asm/setup.h>

static struct domain *target_domain(domid_t domid)
{
    return domid == DOMID_SELF ? current->domain : get_domain_by_id(domid);
}

static long add_to_physmap_batch(XEN_GUEST_HANDLE_PARAM(xen_add_to_physmap_batch_t) arg)
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
    if ( fd->state != DOMSTATE_running )
        return -ESRCH;

    for ( i = 0; i < b.size; i++ )
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

/*
 * Fill guest frames with fresh memory: extents of 2^extent_order frames
 * (order 0 or 9) at the given gfns, within the domain's max_pages.  The
 * control domain may populate any domain (that is how a domain is built),
 * a domain itself only itself.  Returns the number of extents done, as Xen.
 */
static long populate_physmap(XEN_GUEST_HANDLE_PARAM(xen_memory_reservation_t) arg)
{
    struct xen_memory_reservation r;
    struct domain *d;
    unsigned long i;

    if ( copy_from_guest(&r, arg, 1) )
        return -EFAULT;
    if ( !(d = target_domain(r.domid)) )
        return -ESRCH;
    if ( d != current->domain && !is_control_domain(current->domain) )
        return -EPERM;
    if ( r.extent_order != 0 && r.extent_order != SUPERPAGE_ORDER )
        return -EINVAL;

    for ( i = 0; i < r.nr_extents; i++ )
    {
        unsigned long n = 1UL << r.extent_order, mfn;
        xen_pfn_t gpfn;
        p2m_type_t t;
        int rc;

        if ( copy_from_guest_offset(&gpfn, r.extent_start, i, 1) )
            return i ? (long)i : -EFAULT;
        if ( gpfn & (n - 1) || d->tot_pages + n > d->max_pages ||
             p2m_get_entry(d, gpfn, &t) != INVALID_MFN )
            break;                  /* misaligned, over the limit, or in use */
        mfn = alloc_domheap_pages(r.extent_order);
        if ( mfn == INVALID_MFN )
            break;
        clear_pages(mfn_to_virt(mfn), r.extent_order);
        assign_pages(d, mfn, r.extent_order);
        if ( (rc = p2m_set_entry(d, gpfn, mfn, r.extent_order, p2m_ram_rw)) )
        {
            put_pages(mfn, r.extent_order);
            break;
        }
        d->tot_pages += n;
    }
    return i;
}

/*
 * Map d's shared_info page at gpfn (Xen's xenmem_add_to_physmap_one for
 * XENMAPSPACE_shared_info).  As in Xen the page leaves its previous gfn
 * and takes the place of whatever was at gpfn; a RAM frame found there is
 * kept until the domain dies (a registered vcpu_info may live in it).
 */
static int map_shared_info(struct domain *d, unsigned long gpfn)
{
    unsigned long mfn = virt_to_mfn(d->shared_info), old;
    struct displaced_frame *f = NULL;
    p2m_type_t t;
    int rc;

    if ( gpfn > p2m_max_gfn() )
        return -EINVAL;
    if ( gpfn == d->shared_info_gfn )
        return 0;

    old = p2m_get_entry(d, gpfn, &t);
    if ( old != INVALID_MFN )
    {
        if ( t == p2m_map_foreign )
        {
            if ( (rc = p2m_remove_foreign(d, gpfn)) )
                return rc;
        }
        else if ( t == p2m_ram_rw || t == p2m_ram_logdirty )
        {
            if ( !(f = xmalloc(struct displaced_frame)) )
                return -ENOMEM;
            f->mfn = old;
        }
        else
            return -EBUSY;
    }

    if ( (rc = p2m_set_entry(d, gpfn, mfn, 0, p2m_ram_rw)) )
    {
        xfree(f);
        return rc;
    }
    /*
     * Mapped, the shared page becomes the domain's (Xen's
     * share_xen_page_with_guest): its p2m entry holds the reference, and
     * the p2m's teardown frees it.
     */
    if ( d->shared_info_gfn == INVALID_GFN )
        assign_pages(d, mfn, 0);
    /* tot_pages counts RAM leaves of the p2m (the teardown frees them). */
    if ( f )
    {
        f->next = d->displaced;
        d->displaced = f;
    }
    else
        d->tot_pages++;
    if ( d->shared_info_gfn != INVALID_GFN )
    {
        p2m_set_entry(d, d->shared_info_gfn, INVALID_MFN, 0, p2m_mmio_dm);
        d->tot_pages--;
    }
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
    const struct domain *d = current->domain;
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
        n = d->arch.hvm.nr_memmap;
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
            const struct hvm_memmap_table_entry *m = &d->arch.hvm.memmap[i];

            e.addr = m->addr; e.size = m->size; e.type = m->type;
        }
        if ( copy_to_guest_offset(map.buffer, i, &e, 1) )
            return -EFAULT;
    }
    map.nr_entries = n;
    if ( copy_field_to_guest(arg, &map, nr_entries) )
        return -EFAULT;
    return 0;
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
    switch ( cmd )
    {
    case XENMEM_populate_physmap:
        return populate_physmap(guest_handle_cast(arg, xen_memory_reservation_t));
    case XENMEM_add_to_physmap_batch:
        return add_to_physmap_batch(guest_handle_cast(arg, xen_add_to_physmap_batch_t));
    case XENMEM_remove_from_physmap:
        return remove_from_physmap(guest_handle_cast(arg, xen_remove_from_physmap_t));
    case XENMEM_add_to_physmap:
        return add_to_physmap(guest_handle_cast(arg, xen_add_to_physmap_t));
    case XENMEM_acquire_resource:
        return acquire_resource(guest_handle_cast(arg, xen_mem_acquire_resource_t));
    case XENMEM_memory_map:
    case XENMEM_machine_memory_map:
        return memory_map(guest_handle_cast(arg, xen_memory_map_t),
                          cmd == XENMEM_machine_memory_map);
    default:
        return subop_enosys(__HYPERVISOR_memory_op, cmd,
                            cmd < ARRAY_SIZE(memory_op_names) ? memory_op_names[cmd] : NULL);
    }
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's memory_op and dm_op (see fake.h).
 */
#include <inttypes.h>

#include "fake_private.h"

/* XENMEM_populate_physmap: 4 KiB and 2 MiB extents, within max_pages. */
static long populate(struct xen_memory_reservation *r)
{
    xen_pfn_t *gfns = r->extent_start.p;
    unsigned long n = 1UL << r->extent_order, i, j;
    struct fake_dom *d;
    int rc;

    fake.populate_calls++;
    fake_log("populate %u nr=%lu order=%u", r->domid,
             (unsigned long)r->nr_extents, r->extent_order);
    d = fake_touch(r->domid);
    if ( !d )
        return -ESRCH;
    if ( (rc = fake_injected("populate")) )
        return rc;
    if ( r->extent_order != 0 && r->extent_order != 9 )
        return -EINVAL;

    for ( i = 0; i < r->nr_extents; i++ )
    {
        xen_pfn_t gfn = gfns[i];

        if ( (gfn & (n - 1)) || gfn + n > FAKE_MAX_PFNS ||
             d->tot_pages + n > d->max_pages ||
             (r->extent_order && fake.refuse_2m) )
            break;
        for ( j = 0; j < n && !fake_populated(d, gfn + j); j++ )
            ;
        if ( j < n )
            break;                          /* already populated */
        for ( j = 0; j < n; j++ )
            fake_populate(d, gfn + j);
        if ( r->extent_order )
            d->extents_2m++;
        else
            d->extents_4k++;
    }
    fake_state_save();
    return (long)i;
}

long fake_memory_op(unsigned long cmd, void *arg)
{
    struct xen_memory_domain *md = arg;
    struct fake_dom *d;

    switch ( cmd )
    {
    case XENMEM_populate_physmap:
        return populate(arg);
    case XENMEM_current_reservation:
    case XENMEM_maximum_gpfn:
        d = fake_find(md->domid);
        if ( !d )
            return -ESRCH;
        return cmd == XENMEM_current_reservation ? (long)d->tot_pages
                                                 : (long)d->max_gpfn;
    default:
        return -ENOSYS;
    }
}

/*
 * XEN_DMOP_track_dirty_vram: asking again for the same range returns the
 * pages written since and re-arms them; a new range returns all ones;
 * nr == 0 stops tracking.  Not while in log-dirty mode.
 */
static long track_dirty_vram(struct fake_dom *d, const xen_dm_op_track_dirty_vram_t *t,
                             uint8_t *bm, size_t bm_size)
{
    uint64_t first = t->first_pfn;
    uint32_t nr = t->nr;
    int rc;

    fake_log("track_dirty_vram %u first=%#" PRIx64 " nr=%u", d->id, first, nr);
    if ( (rc = fake_injected("track_dirty_vram")) )
        return rc;
    if ( d->logdirty )
        return -EINVAL;
    if ( nr == 0 )
    {
        d->vram_nr = 0;
        d->vram_first = 0;
        fake_state_save();
        return 0;
    }
    if ( first + nr > d->max_gpfn + 1 || bm_size < (nr + 7) / 8 )
        return -EINVAL;
    d->vram_calls++;
    if ( first != d->vram_first || nr != d->vram_nr )
    {
        /* a new range: every page is reported */
        memset(bm, 0xff, (nr + 7) / 8);
        if ( nr % 8 )
            bm[nr / 8] &= (1 << (nr % 8)) - 1;
        d->vram_first = first;
        d->vram_nr = nr;
    }
    else
    {
        memset(bm, 0, (nr + 7) / 8);
        for ( uint32_t i = 0; i < nr; i++ )
        {
            uint64_t p = first + i;

            if ( p < FAKE_MAX_PFNS && fake_bit_test(d->dirty, p) )
            {
                fake_bit_set(bm, i);
                fake_bit_clear(d->dirty, p);
            }
        }
    }
    fake_guest_writes(d);
    fake_state_save();
    return 0;
}

long fake_dm_op(domid_t domid, unsigned int nr_bufs, xen_dm_op_buf_t *bufs)
{
    struct xen_dm_op op;
    struct fake_dom *d;

    if ( nr_bufs < 1 || bufs[0].size < sizeof(op) )
        return -EFAULT;
    memcpy(&op, bufs[0].h.p, sizeof(op));
    d = fake_touch(domid);
    if ( !d )
        return -ESRCH;
    switch ( op.op )
    {
    case XEN_DMOP_track_dirty_vram:
        if ( nr_bufs < 2 )
            return -EINVAL;
        return track_dirty_vram(d, &op.u.track_dirty_vram, bufs[1].h.p, bufs[1].size);
    default:
        return -EOPNOTSUPP;
    }
}

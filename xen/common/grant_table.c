/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables, as in Xen (common/grant_table.c): a domain lets another
 * map or copy its frames by writing entries into a table it shares with
 * the hypervisor (public/grant_table.h describes the protocol).
 *
 * Per domain:
 *   - the shared frames (the entries, version 1 or 2) and, under version
 *     2, the status frames; the domain maps them into its physmap with
 *     XENMAPSPACE_grant_table, a toolstack through XENMEM_acquire_resource;
 *   - the active table: one entry per grant, with Xen's four pin counts
 *     (host/device, read/write) of the mappings and copies using it, the
 *     frame it was pinned to and who pinned it;
 *   - the maptrack: the mappings this domain holds of other domains'
 *     grants, indexed by the handle map_grant_ref returned.
 *
 * A grant is pinned while mapped (and during a copy): the first pin sets
 * GTF_reading (and GTF_writing for a writable use) in the granter's entry
 * with a compare-and-exchange on the flags word, so the granter can revoke
 * only an entry nobody uses (its own cmpxchg of the flags to 0 sees the
 * bits); the last unpin clears them.  Each mapping holds a reference to
 * the frame (get_page), so a frame stays allocated as long as any domain
 * maps it, even after its owner died (asm/mm.h: it is orphaned and freed
 * with its last reference).  A mapping names its granter by domain id and
 * by the granter's table id, so that a mapping outliving its granter is
 * recognised (the id may be reused) and can still be undone.
 *
 * HVM/PVH callers only: a host mapping is a p2m entry at the
 * guest-physical address host_addr (p2m_grant_map_rw/ro); device maps,
 * application maps and PTE addresses fail as Xen fails them for HVM.
 * The atomic updates of the shared words are Xen's (lock cmpxchg, lock
 * and), which the guest side of the protocol assumes.
 *
 * Locking is Xen's (grant_private.h, docs/misc/grant-tables.md
 * "Locking"): gt->lock, a rwlock, read for using the table and write for
 * changing its shape; an active entry's lock under the read lock for its
 * pins; the maptrack lock for the mapper's handles.  Never two tables'
 * locks at once: a transitive copy drops the first table's locks before
 * it takes the second's, and checks afterwards that nothing changed.
 *
 * Every allocation is bounded by the domain's limits (max_grant_frames,
 * max_maptrack_frames) and made through the helpers below.
 */
#include <xen/errno.h>
#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <public/domctl.h>
#include <asm/config.h>
#include <asm/grant_table.h>
#include <asm/mm.h>
#include <asm/p2m.h>

#include "grant_private.h"

/* ---- parameters (Xen's) --------------------------------------------------- */

unsigned int opt_max_grant_frames = 64;
unsigned int opt_max_maptrack_frames = 1024;
unsigned int opt_gnttab_max_version = 2;
bool opt_transitive_grants = true;
bool opt_grant_transfer = true;

static int parse_gnttab_limit(const char *arg, unsigned int *valp)
{
    const char *e;
    unsigned long val = simple_strtoul(arg, &e, 0);

    if ( *e || e == arg )
        return -EINVAL;
    if ( val > 0x7fffffffUL )      /* INT_MAX, as Xen */
        return -ERANGE;
    *valp = val;
    return 0;
}

static int parse_gnttab_max_frames(const char *arg)
{
    return parse_gnttab_limit(arg, &opt_max_grant_frames);
}
custom_param("gnttab_max_frames", parse_gnttab_max_frames);

static int parse_gnttab_max_maptrack_frames(const char *arg)
{
    return parse_gnttab_limit(arg, &opt_max_maptrack_frames);
}
custom_param("gnttab_max_maptrack_frames", parse_gnttab_max_maptrack_frames);

/* gnttab=max-ver:<1|2>,transitive=<bool>,transfer=<bool> */
static int parse_gnttab(const char *s)
{
    const char *ss, *e;
    int val, rc = 0;

    do {
        ss = strchr(s, ',');
        if ( !ss )
            ss = strchr(s, '\0');

        if ( !strncmp(s, "max-ver:", 8) || !strncmp(s, "max_ver:", 8) )
        {
            long ver = simple_strtol(s + 8, &e, 10);

            if ( e == ss && ver >= 1 && ver <= 2 )
                opt_gnttab_max_version = ver;
            else
                rc = -EINVAL;
        }
        else if ( (val = parse_boolean("transitive", s, ss)) >= 0 )
            opt_transitive_grants = val;
        else if ( (val = parse_boolean("transfer", s, ss)) >= 0 )
            opt_grant_transfer = val;
        else
            rc = -EINVAL;

        s = ss + 1;
    } while ( *ss );

    return rc;
}
custom_param("gnttab", parse_gnttab);

/* ---- what the domain's table is made of ------------------------------------ */

/*
 * Every page and array the table holds for d comes from here, charged to
 * d (its heap pool, d->xmem, xen/xmalloc.h; the shared and status frames
 * are pages shared with d, its xenheap_pages).  Each is bounded by d's
 * limits: at most max_grant_frames shared frames, their status frames and
 * active pages, max_maptrack_frames maptrack pages, and arrays of
 * pointers sized by those limits (gnttab_heap_pages()).
 */
void *gnttab_alloc_page(struct domain *d)
{
    return domain_alloc_xenheap_pages(d, 0);    /* zeroed */
}

void gnttab_free_page(struct domain *d, void *p)
{
    domain_free_xenheap_pages(d, p, 0);
}

static void *gnttab_zalloc(struct domain *d, size_t bytes)
{
    return domain_xzalloc_bytes(d, bytes);
}

/*
 * A frame the domain shares with us (a shared or status frame): a
 * hypervisor page shared with d, as Xen's (share_xen_page_with_guest), so
 * that d and, through a foreign mapping, its toolstack may map it; never
 * in d's tot_pages; its one reference is the table's.
 */
static unsigned long gnttab_alloc_frame(struct domain *d)
{
    void *p = alloc_xenheap_page();             /* zeroed */

    if ( !p )
        return INVALID_MFN;
    share_xen_page_with_guest(d, virt_to_mfn(p));
    return virt_to_mfn(p);
}

/* The table lets go of it; a foreign mapping may still hold it (orphaned). */
static void gnttab_free_frame(struct domain *d, unsigned long mfn)
{
    relinquish_page(d, mfn);
}

unsigned long gnttab_heap_pages(int max_grant_frames, int max_maptrack_frames)
{
    unsigned int g = max_grant_frames < 0 ? opt_max_grant_frames : (unsigned int)max_grant_frames;
    unsigned int m = max_maptrack_frames < 0 ? opt_max_maptrack_frames
                                             : (unsigned int)max_maptrack_frames;
    struct grant_table *gt = NULL;

    if ( g > opt_max_grant_frames || m > opt_max_maptrack_frames )
        return 0;                               /* refused by grant_table_init */
    return xmalloc_pages_max(sizeof(*gt))
           + xmalloc_pages_max(g * sizeof(*gt->shared))
           + xmalloc_pages_max(grant_to_status_frames(g) * sizeof(*gt->status))
           + xmalloc_pages_max(num_act_frames(g) * sizeof(*gt->active))
           + xmalloc_pages_max(m * sizeof(*gt->maptrack))
           + num_act_frames(g) + m;             /* active and maptrack pages */
}

static uint32_t next_table_id = 1;

int grant_table_check_config(int max_grant_frames, int max_maptrack_frames,
                             unsigned int options)
{
    unsigned int version = options & XEN_DOMCTL_GRANT_version_mask;

    if ( options & ~XEN_DOMCTL_GRANT_version_mask )
        return -EINVAL;
    if ( !version || version > opt_gnttab_max_version )
        return -EINVAL;
    if ( max_grant_frames < 0 )
        max_grant_frames = opt_max_grant_frames;
    if ( max_maptrack_frames < 0 )
        max_maptrack_frames = opt_max_maptrack_frames;
    if ( (unsigned int)max_grant_frames < INITIAL_NR_GRANT_FRAMES ||
         (unsigned int)max_grant_frames > opt_max_grant_frames ||
         (unsigned int)max_maptrack_frames > opt_max_maptrack_frames )
        return -EINVAL;
    return 0;
}

int grant_table_init(struct domain *d, int max_grant_frames, int max_maptrack_frames,
                     unsigned int options)
{
    struct grant_table *gt;
    unsigned int i, nr_status;
    int rc = grant_table_check_config(max_grant_frames, max_maptrack_frames, options);

    if ( rc )
        return rc;
    if ( !(gt = gnttab_zalloc(d, sizeof(*gt))) )
        return -ENOMEM;
    rwlock_init_level(&gt->lock, "gt->lock", LOCK_LEVEL_GNTTAB);
    spin_lock_init_level(&gt->maptrack_lock, "maptrack_lock", LOCK_LEVEL_MAPTRACK);
    d->grant_table = gt;
    gt->domain = d;
    gt->id = __atomic_fetch_add(&next_table_id, 1, __ATOMIC_RELAXED);
    if ( !gt->id )                      /* 0 never names a table */
        gt->id = __atomic_fetch_add(&next_table_id, 1, __ATOMIC_RELAXED);
    gt->gt_version = 1;
    gt->max_version = options & XEN_DOMCTL_GRANT_version_mask;
    gt->max_grant_frames = max_grant_frames < 0 ? opt_max_grant_frames
                                                : (unsigned int)max_grant_frames;
    gt->max_maptrack_frames = max_maptrack_frames < 0 ? opt_max_maptrack_frames
                                                      : (unsigned int)max_maptrack_frames;
    gt->maptrack_free = MAPTRACK_TAIL;
    nr_status = grant_to_status_frames(gt->max_grant_frames);

    gt->shared = gnttab_zalloc(d, gt->max_grant_frames * sizeof(*gt->shared));
    gt->status = gnttab_zalloc(d, nr_status * sizeof(*gt->status));
    gt->active = gnttab_zalloc(d, num_act_frames(gt->max_grant_frames) * sizeof(*gt->active));
    gt->maptrack = gnttab_zalloc(d, gt->max_maptrack_frames * sizeof(*gt->maptrack));
    if ( !gt->shared || !gt->status || !gt->active ||
         (gt->max_maptrack_frames && !gt->maptrack) )
        goto nomem;
    for ( i = 0; i < gt->max_grant_frames; i++ )
        gt->shared[i].gfn = INVALID_GFN;
    for ( i = 0; i < nr_status; i++ )
        gt->status[i].gfn = INVALID_GFN;
    grant_write_lock(gt);
    rc = gnttab_grow_table(d, INITIAL_NR_GRANT_FRAMES);
    grant_write_unlock(gt);
    if ( rc )
        goto nomem;
    return 0;

 nomem:
    grant_table_destroy(d);
    return -ENOMEM;
}

/* Status frames for req shared frames under version 2 (Xen's). */
static int populate_status_frames(struct domain *d, struct grant_table *gt,
                                  unsigned int req)
{
    unsigned int i, want = grant_to_status_frames(req);

    for ( i = gt->nr_status_frames; i < want; i++ )
    {
        gt->status[i].mfn = gnttab_alloc_frame(d);
        if ( gt->status[i].mfn == INVALID_MFN )
        {
            while ( i-- > gt->nr_status_frames )
                gnttab_free_frame(d, gt->status[i].mfn);
            return -ENOMEM;
        }
        gt->status[i].gfn = INVALID_GFN;
    }
    if ( want > gt->nr_status_frames )
        gt->nr_status_frames = want;
    return 0;
}

/*
 * Back to version 1: the status frames go, taken out of d's physmap first.
 * Xen crashes an HVM domain whose status frame is still used elsewhere (a
 * toolstack's foreign mapping); here the switch fails with -EBUSY before
 * anything changed.
 */
static int unpopulate_status_frames(struct domain *d, struct grant_table *gt)
{
    unsigned int i;

    for ( i = 0; i < gt->nr_status_frames; i++ )
        if ( (mfn_to_page(gt->status[i].mfn)->count_info & PGC_count_mask) != 1 )
        {
            gdprintk(d, "status frame %u is mapped elsewhere: cannot switch to v1\n", i);
            return -EBUSY;
        }
    for ( i = 0; i < gt->nr_status_frames; i++ )
    {
        if ( gt->status[i].gfn != INVALID_GFN )
            p2m_set_entry(d, gt->status[i].gfn, INVALID_MFN, 0, p2m_mmio_dm);
        gnttab_free_frame(d, gt->status[i].mfn);
        gt->status[i].mfn = INVALID_MFN;
        gt->status[i].gfn = INVALID_GFN;
    }
    gt->nr_status_frames = 0;
    return 0;
}

/* Grow d's table to req shared frames (at most its limit); Xen's.  Under gt->lock, written. */
int gnttab_grow_table(struct domain *d, unsigned int req)
{
    struct grant_table *gt = d->grant_table;
    unsigned int i, j, old = gt->nr_grant_frames, act_old = num_act_frames(old);

#ifndef TEST_NO_GNTTAB_LOCKS
    ASSERT_RWLOCK_WRITE(&gt->lock);
#endif
    if ( req < INITIAL_NR_GRANT_FRAMES )
        req = INITIAL_NR_GRANT_FRAMES;
    if ( req > gt->max_grant_frames )
        return -EINVAL;
    if ( req > INITIAL_NR_GRANT_FRAMES && req > old )
        gdprintk(d, "growing the grant table from %u to %u frames\n", old, req);

    for ( i = act_old; i < num_act_frames(req); i++ )
    {
        if ( !(gt->active[i] = gnttab_alloc_page(d)) )
            goto active_failed;
        for ( j = 0; j < ACGNT_PER_PAGE; j++ )
            spin_lock_init_level(&gt->active[i][j].lock, "act->lock",
                                 LOCK_LEVEL_GNTTAB_ACTIVE);
    }
    for ( i = old; i < req; i++ )
    {
        gt->shared[i].mfn = gnttab_alloc_frame(d);
        gt->shared[i].gfn = INVALID_GFN;
        if ( gt->shared[i].mfn == INVALID_MFN )
            goto shared_failed;
    }
    if ( gt->gt_version > 1 && populate_status_frames(d, gt, req) )
        goto shared_failed;
    if ( req > old )
        gt->nr_grant_frames = req;
    return 0;

 shared_failed:
    while ( i-- > old )
        gnttab_free_frame(d, gt->shared[i].mfn);
    i = num_act_frames(req);
 active_failed:
    while ( i-- > act_old )
    {
        gnttab_free_page(d, gt->active[i]);
        gt->active[i] = NULL;
    }
    gdprintk(d, "out of memory growing the grant table to %u frames\n", req);
    return -ENOMEM;
}

/* ---- the granter's entries: flags, status and pins ------------------------- */

/*
 * The first use of a grant (or its first writable use) claims it in the
 * granter's entry: type GTF_permit_access (no GTF_sub_page for a mapping),
 * for ldomid, not GTF_readonly if writable; GTF_reading (| GTF_writing)
 * set.  Version 1: one cmpxchg of the flags+domid word, retried a few
 * times if the guest changes it meanwhile (Xen's bound, against a guest
 * that keeps it changing).  Version 2: the bits go into the status word,
 * then the entry is read again.
 */
static int set_status_v1(const struct active_grant_entry *act, grant_entry_header_t *shah,
                         bool readonly, bool mapflag, domid_t ldomid)
{
    uint32_t *raw = (uint32_t *)shah;
    uint16_t mask = GTF_type_mask | (mapflag ? GTF_sub_page : 0);
    uint32_t cur = ACCESS_ONCE(*raw);
    unsigned int retries;

    for ( retries = 0; ; retries++ )
    {
        uint16_t flags = cur & 0xffff, nflags;
        domid_t domid = cur >> 16;
        uint32_t prev;

        if ( !act->pin && ((flags & mask) != GTF_permit_access || domid != ldomid) )
        {
            gdprintk(current->domain, "bad flags (%#x) or domain (%u), expected d%u\n",
                     flags, domid, ldomid);
            return GNTST_general_error;
        }
        nflags = flags | GTF_reading;
        if ( !readonly )
        {
            if ( flags & GTF_readonly )
            {
                gdprintk(current->domain, "writable use of a read-only grant\n");
                return GNTST_general_error;
            }
            nflags |= GTF_writing;
        }
        prev = guest_cmpxchg32(raw, cur, (cur & 0xffff0000U) | nflags);
        if ( prev == cur )
            return GNTST_okay;
        if ( retries == 4 )
        {
            gdprintk(current->domain, "grant entry unstable\n");
            return GNTST_general_error;
        }
        cur = prev;
    }
}

static bool v2_type_ok(uint16_t flags, uint16_t mask, bool mapflag)
{
    return (flags & mask) == GTF_permit_access ||
           (!mapflag && (flags & mask) == GTF_transitive);
}

static int set_status_v2(const struct active_grant_entry *act, grant_entry_header_t *shah,
                         grant_status_t *status, bool readonly, bool mapflag,
                         domid_t ldomid)
{
    uint16_t mask = GTF_type_mask | (mapflag ? GTF_sub_page : 0);
    uint16_t flags = ACCESS_ONCE(shah->flags);
    domid_t domid = ACCESS_ONCE(shah->domid);

    if ( !act->pin && (!v2_type_ok(flags, mask, mapflag) || domid != ldomid) )
    {
        gdprintk(current->domain, "bad flags (%#x) or domain (%u), expected d%u\n",
                 flags, domid, ldomid);
        return GNTST_general_error;
    }
    if ( !readonly && (flags & GTF_readonly) )
    {
        gdprintk(current->domain, "writable use of a read-only grant\n");
        return GNTST_general_error;
    }
    gnttab_set_flags(readonly ? GTF_reading : GTF_reading | GTF_writing, status);

    /* The granter sees the status before we look at its entry again. */
    smp_mb();
    flags = ACCESS_ONCE(shah->flags);
    domid = ACCESS_ONCE(shah->domid);
    if ( !act->pin )
    {
        if ( !v2_type_ok(flags, mask, mapflag) || domid != ldomid ||
             (!readonly && (flags & GTF_readonly)) )
        {
            gnttab_clear_flags(GTF_reading | GTF_writing, status);
            gdprintk(current->domain, "grant entry changed while pinned\n");
            return GNTST_general_error;
        }
    }
    else if ( flags & GTF_readonly )
    {
        gnttab_clear_flags(GTF_writing, status);
        gdprintk(current->domain, "grant entry became read-only\n");
        return GNTST_general_error;
    }
    return GNTST_okay;
}

/* The caller holds rgt's read lock and act's lock (as every user of a pin). */
int gnttab_set_status(struct grant_table *rgt, grant_ref_t ref,
                      const struct active_grant_entry *act, bool readonly, bool mapflag,
                      domid_t ldomid)
{
    if ( rgt->gt_version == 1 )
        return set_status_v1(act, shared_entry_header(rgt, ref), readonly, mapflag, ldomid);
    return set_status_v2(act, shared_entry_header(rgt, ref), status_entry(rgt, ref),
                         readonly, mapflag, ldomid);
}

/*
 * After an unpin: the granter's GTF_reading goes with the last pin,
 * GTF_writing with the last writable one (Xen's reduce_status_for_pin).
 */
void gnttab_reduce_status(const struct active_grant_entry *act, uint16_t *status,
                          bool readonly)
{
    unsigned int clear = act->pin ? 0 : GTF_reading;

    if ( !status )
        return;
    if ( !readonly && !(act->pin & (GNTPIN_hstw_mask | GNTPIN_devw_mask)) )
        clear |= GTF_writing;
    if ( clear )
        gnttab_clear_flags(clear, status);
}

uint16_t *gnttab_status_word(struct grant_table *gt, grant_ref_t ref)
{
    if ( ref >= nr_grant_entries(gt) )
        return NULL;
    return gt->gt_version == 1 ? &shared_entry_header(gt, ref)->flags
                               : status_entry(gt, ref);
}

/*
 * A reference to rd's frame at gfn for a grant (Xen's get_paged_frame):
 * only the granter's own RAM, or one of its grant-table frames; a frame
 * it maps from elsewhere (foreign or grant mappings), MMIO or a hole is
 * GNTST_bad_page.  Beyond Xen: a writable use of p2m_ram_ro fails.
 */
int gnttab_get_frame(struct domain *rd, unsigned long gfn, bool readonly,
                     unsigned long *mfn)
{
    p2m_type_t t;
    unsigned long m = p2m_get_entry(rd, gfn, &t);

    switch ( t )
    {
    case p2m_ram_rw:
    case p2m_ram_logdirty:
    case p2m_gnttab_frame:
        break;
    case p2m_ram_ro:
        if ( readonly )
            break;
        gdprintk(current->domain, "writable grant of d%u's read-only gfn %#lx\n",
                 rd->domain_id, gfn);
        return GNTST_general_error;
    default:
        gdprintk(current->domain, "d%u's gfn %#lx is not its RAM\n", rd->domain_id, gfn);
        return GNTST_bad_page;
    }
    if ( m == INVALID_MFN || !get_page(m, rd) )
        return GNTST_bad_page;
    *mfn = m;
    return GNTST_okay;
}

/* ---- GNTTABOP_setup_table, query_size --------------------------- */

/* May the caller look at (or set up) d's table?  Xen's XSM_TARGET. */
static bool gnttab_may_access(const struct domain *d)
{
    return d == current->domain || is_control_domain(current->domain);
}

static long gnttab_setup_table(XEN_GUEST_HANDLE_PARAM(gnttab_setup_table_t) uop,
                               unsigned int count)
{
    struct gnttab_setup_table op;
    struct grant_table *gt;
    struct domain *d;
    unsigned int i;

    if ( count != 1 )
        return -EINVAL;
    if ( copy_from_guest(&op, uop, 1) )
        return -EFAULT;

    if ( !(d = get_domain_by_any_id(op.dom)) || !(gt = d->grant_table) )
    {
        op.status = GNTST_bad_domain;
        return copy_field_to_guest(uop, &op, status) ? -EFAULT : 0;
    }
    /* Written: it may grow the table (Xen's, the frame list copied under it). */
    grant_write_lock(gt);
    if ( !gnttab_alive(gt) )
        op.status = GNTST_bad_domain;
    else if ( !gnttab_may_access(d) )
        op.status = GNTST_permission_denied;
    else if ( op.nr_frames > gt->max_grant_frames )
    {
        gdprintk(current->domain, "d%u is limited to %u grant-table frames\n",
                 d->domain_id, gt->max_grant_frames);
        op.status = GNTST_general_error;
    }
    else if ( (op.nr_frames > gt->nr_grant_frames ||
               (gt->gt_version > 1 &&
                grant_to_status_frames(op.nr_frames) > gt->nr_status_frames)) &&
              gnttab_grow_table(d, op.nr_frames) )
        op.status = GNTST_general_error;
    else
    {
        op.status = GNTST_okay;
        /* HVM: where each frame is in d's physmap (Xen's M2P), or ~0. */
        for ( i = 0; i < op.nr_frames; i++ )
        {
            xen_pfn_t gfn = gt->shared[i].gfn;

            if ( copy_to_guest_offset(op.frame_list, i, &gfn, 1) )
                op.status = GNTST_bad_virt_addr;
        }
    }
    grant_write_unlock(gt);
    return copy_field_to_guest(uop, &op, status) ? -EFAULT : 0;
}

static long gnttab_query_size(XEN_GUEST_HANDLE_PARAM(gnttab_query_size_t) uop,
                              unsigned int count)
{
    struct gnttab_query_size op;
    struct domain *d;

    if ( count != 1 )
        return -EINVAL;
    if ( copy_from_guest(&op, uop, 1) )
        return -EFAULT;

    if ( !(d = get_domain_by_any_id(op.dom)) || !d->grant_table )
        op.status = GNTST_bad_domain;
    else
    {
        struct grant_table *gt = d->grant_table;

        grant_read_lock(gt);
        if ( !gnttab_alive(gt) )
            op.status = GNTST_bad_domain;
        else if ( !gnttab_may_access(d) )
            op.status = GNTST_permission_denied;
        else
        {
            op.nr_frames = gt->nr_grant_frames;
            op.max_nr_frames = gt->max_grant_frames;
            op.status = GNTST_okay;
        }
        grant_read_unlock(gt);
    }
    return copy_to_guest(uop, &op, 1) ? -EFAULT : 0;
}

/* ---- GNTTABOP_set_version, get_status_frames, get_version ------------------ */

static long gnttab_set_version(XEN_GUEST_HANDLE_PARAM(gnttab_set_version_t) uop)
{
    struct domain *d = current->domain;
    struct grant_table *gt = d->grant_table;
    grant_entry_v1_t reserved[GNTTAB_NR_RESERVED_ENTRIES];
    struct gnttab_set_version op;
    unsigned int i, nr_ents;
    long res;

    if ( copy_from_guest(&op, uop, 1) )
        return -EFAULT;

    /* Written: the version, the status frames and every entry change (Xen's). */
    grant_write_lock(gt);
    res = -EINVAL;
    if ( op.version != 1 && op.version != 2 )
        goto out;
    res = -ENOSYS;
    if ( op.version == 2 && gt->max_version == 1 )
        goto out;                   /* as before set_version existed */
    res = 0;
    if ( gt->gt_version == op.version )
        goto out;

    /*
     * Only the reserved entries may be in use (xenstored, xenconsoled map
     * them).  The write lock keeps every pin as it is: pins change only
     * under an entry's lock, taken with the read lock held.
     */
    nr_ents = nr_grant_entries(gt);
    for ( i = GNTTAB_NR_RESERVED_ENTRIES; i < nr_ents; i++ )
        if ( active_entry(gt, i)->pin )
        {
            gdprintk(d, "cannot switch from v%u to v%u: grant %#x is in use\n",
                     gt->gt_version, op.version, i);
            res = -EBUSY;
            goto out;
        }

    if ( gt->gt_version == 1 )
    {
        if ( (res = populate_status_frames(d, gt, gt->nr_grant_frames)) )
            goto out;
        memcpy(reserved, shared_entry_v1(gt, 0), sizeof(reserved));
    }
    else
    {
        for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
        {
            const grant_entry_v2_t *e = shared_entry_v2(gt, i);

            switch ( e->hdr.flags & GTF_type_mask )
            {
            case GTF_permit_access:
                if ( !(e->full_page.frame >> 32) )
                    break;
                /* fall through */
            case GTF_transitive:
                gdprintk(d, "reserved grant %u cannot be a v1 entry\n", i);
                res = -ERANGE;
                goto out;
            }
        }
        for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
        {
            const grant_entry_v2_t *e = shared_entry_v2(gt, i);

            memset(&reserved[i], 0, sizeof(reserved[i]));
            if ( (e->hdr.flags & GTF_type_mask) == GTF_permit_access )
            {
                reserved[i].flags = e->hdr.flags | *status_entry(gt, i);
                reserved[i].domid = e->hdr.domid;
                reserved[i].frame = e->full_page.frame;
            }
        }
        if ( (res = unpopulate_status_frames(d, gt)) )
            goto out;
    }

    /* No crud from the old layout; the reserved entries in the new one. */
    for ( i = 0; i < gt->nr_grant_frames; i++ )
        clear_page(mfn_to_virt(gt->shared[i].mfn));
    if ( op.version == 1 )
        memcpy(shared_entry_v1(gt, 0), reserved, sizeof(reserved));
    else
        for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
        {
            grant_entry_v2_t *e = shared_entry_v2(gt, i);

            *status_entry(gt, i) = reserved[i].flags & (GTF_reading | GTF_writing);
            e->hdr.flags = reserved[i].flags & ~(GTF_reading | GTF_writing);
            e->hdr.domid = reserved[i].domid;
            e->full_page.frame = reserved[i].frame;
        }
    gt->gt_version = op.version;

 out:
    op.version = gt->gt_version;
    grant_write_unlock(gt);
    if ( copy_to_guest(uop, &op, 1) )
        res = -EFAULT;
    return res;
}

static long gnttab_get_status_frames(XEN_GUEST_HANDLE_PARAM(gnttab_get_status_frames_t) uop,
                                     unsigned int count)
{
    struct gnttab_get_status_frames op;
    struct grant_table *gt;
    struct domain *d;
    unsigned int i;

    if ( count != 1 )
        return -EINVAL;
    if ( copy_from_guest(&op, uop, 1) )
        return -EFAULT;

    if ( !(d = get_domain_by_any_id(op.dom)) || !(gt = d->grant_table) )
    {
        op.status = GNTST_bad_domain;
        return copy_field_to_guest(uop, &op, status) ? -EFAULT : 0;
    }
    grant_read_lock(gt);
    if ( !gnttab_alive(gt) )
        op.status = GNTST_bad_domain;
    else if ( !gnttab_may_access(d) )
        op.status = GNTST_permission_denied;
    else if ( op.nr_frames > gt->nr_status_frames )
    {
        gdprintk(current->domain, "d%u has %u status frames, not %u\n",
                 d->domain_id, gt->nr_status_frames, op.nr_frames);
        op.status = GNTST_general_error;
    }
    else
    {
        op.status = GNTST_okay;
        for ( i = 0; i < op.nr_frames; i++ )
        {
            uint64_t gfn = gt->status[i].gfn;

            if ( copy_to_guest_offset(op.frame_list, i, &gfn, 1) )
                op.status = GNTST_bad_virt_addr;
        }
    }
    grant_read_unlock(gt);
    return copy_field_to_guest(uop, &op, status) ? -EFAULT : 0;
}

static long gnttab_get_version(XEN_GUEST_HANDLE_PARAM(gnttab_get_version_t) uop)
{
    struct gnttab_get_version op;
    struct domain *d;

    if ( copy_from_guest(&op, uop, 1) )
        return -EFAULT;
    if ( !(d = get_domain_by_any_id(op.dom)) || !d->grant_table )
        return -ESRCH;
    if ( !gnttab_may_access(d) )
        return -EPERM;
    grant_read_lock(d->grant_table);
    op.version = gnttab_alive(d->grant_table) ? d->grant_table->gt_version : 0;
    grant_read_unlock(d->grant_table);
    if ( !op.version )
        return -ESRCH;
    return copy_field_to_guest(uop, &op, version) ? -EFAULT : 0;
}

/* ---- GNTTABOP_swap_grant_ref --------------------------------------- */

/* Under the write lock, as Xen's: no pin can change meanwhile. */
static int16_t swap_grant_ref_locked(struct grant_table *gt, grant_ref_t ref_a,
                                     grant_ref_t ref_b)
{
    if ( ref_a >= nr_grant_entries(gt) || ref_b >= nr_grant_entries(gt) )
        return GNTST_bad_gntref;
    if ( ref_a == ref_b )
        return GNTST_okay;
    if ( active_entry(gt, ref_a)->pin || active_entry(gt, ref_b)->pin )
        return GNTST_eagain;

    if ( gt->gt_version == 1 )
    {
        grant_entry_v1_t e = *shared_entry_v1(gt, ref_a);

        *shared_entry_v1(gt, ref_a) = *shared_entry_v1(gt, ref_b);
        *shared_entry_v1(gt, ref_b) = e;
    }
    else
    {
        grant_entry_v2_t e = *shared_entry_v2(gt, ref_a);
        grant_status_t s = *status_entry(gt, ref_a);

        *shared_entry_v2(gt, ref_a) = *shared_entry_v2(gt, ref_b);
        *status_entry(gt, ref_a) = *status_entry(gt, ref_b);
        *shared_entry_v2(gt, ref_b) = e;
        *status_entry(gt, ref_b) = s;
    }
    return GNTST_okay;
}

static int16_t swap_grant_ref(grant_ref_t ref_a, grant_ref_t ref_b)
{
    struct grant_table *gt = current->domain->grant_table;
    int16_t rc;

    grant_write_lock(gt);
    rc = swap_grant_ref_locked(gt, ref_a, ref_b);
    grant_write_unlock(gt);
    return rc;
}

static long gnttab_swap_grant_ref(XEN_GUEST_HANDLE_PARAM(gnttab_swap_grant_ref_t) uop,
                                  unsigned int count)
{
    struct gnttab_swap_grant_ref op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check() )
            return i;
        if ( copy_from_guest(&op, uop, 1) )
            return -EFAULT;
        op.status = swap_grant_ref(op.ref_a, op.ref_b);
        if ( copy_field_to_guest(uop, &op, status) )
            return -EFAULT;
        guest_handle_add_offset(uop, 1);
    }
    return 0;
}

/* ---- the table's frames in the physmap, and for the toolstack --------------- */

/*
 * Frame idx of d's table (shared, or status under v2), growing the table
 * to make idx valid if it may (Xen's gnttab_get_{shared,status}_frame_mfn).
 */
static struct grant_frame *get_table_frame(struct domain *d, unsigned long idx, bool status)
{
    struct grant_table *gt = d->grant_table;

    if ( status )
    {
        unsigned int nr_grant;

        if ( idx >= gt->nr_status_frames )
        {
            if ( idx >= ~0U / STGNT_PER_PAGE )
                return NULL;
            nr_grant = status_to_grant_frames(idx + 1);
            if ( nr_grant <= gt->max_grant_frames )
                gnttab_grow_table(d, nr_grant);
            if ( idx >= gt->nr_status_frames )
                return NULL;
        }
        return &gt->status[idx];
    }
    if ( idx >= gt->nr_grant_frames )
    {
        if ( idx < gt->max_grant_frames )
            gnttab_grow_table(d, idx + 1);
        if ( idx >= gt->nr_grant_frames )
            return NULL;
    }
    return &gt->shared[idx];
}

/* Which of d's table frames is at gfn (NULL: none). */
static struct grant_frame *frame_at_gfn(struct grant_table *gt, unsigned long gfn)
{
    unsigned int i;

    for ( i = 0; i < gt->nr_grant_frames; i++ )
        if ( gt->shared[i].gfn == gfn )
            return &gt->shared[i];
    for ( i = 0; i < gt->nr_status_frames; i++ )
        if ( gt->status[i].gfn == gfn )
            return &gt->status[i];
    return NULL;
}

/*
 * As Xen's xenmem_add_to_physmap_one for XENMAPSPACE_grant_table: the
 * frame leaves the gfn it was at, and takes the place of what is at gfn.
 * Another of the table's frames there is unhooked; a foreign mapping
 * there is undone; RAM there is taken out of the physmap and kept until
 * the domain dies (Xen frees it; here, as for shared_info, a registered
 * vcpu_info may live in it).  Not over MMIO (-EPERM, as Xen), a grant
 * mapping or the shared_info page (-EBUSY: this tree keeps those apart).
 */
static int gnttab_map_frame_locked(struct domain *d, unsigned long idx, unsigned long gfn)
{
    struct grant_table *gt = d->grant_table;
    struct grant_frame *f, *other;
    bool status = false;
    unsigned long old;
    p2m_type_t t;
    int rc;

    if ( !gnttab_alive(gt) )
        return -EINVAL;
    if ( gt->gt_version == 2 && (idx & XENMAPIDX_grant_table_status) )
    {
        idx &= ~(unsigned long)XENMAPIDX_grant_table_status;
        status = true;
    }
    if ( !(f = get_table_frame(d, idx, status)) || gfn > p2m_max_gfn() )
        return -EINVAL;
    if ( f->gfn == gfn )
        return 0;

    /*
     * As Xen's xenmem_add_to_physmap_one: what is at gfn goes first.  MMIO
     * is refused; another table frame or shared_info is unhooked; RAM is
     * freed (guest_remove_page: "normal domain memory is freed, to avoid
     * leaking memory"; it once stayed the domain's outside tot_pages, the
     * leak of issue 16); another domain's frame is refused (-ENXIO).
     */
    old = p2m_get_entry(d, gfn, &t);
    if ( t == p2m_mmio_direct )
        return -EPERM;
    if ( old != INVALID_MFN )
    {
        if ( t == p2m_gnttab_frame && (other = frame_at_gfn(gt, gfn)) )
            other->gfn = INVALID_GFN;
        else if ( (rc = guest_remove_page(d, gfn)) )
            return rc;
    }

    if ( (rc = p2m_set_entry(d, gfn, f->mfn, 0, p2m_gnttab_frame)) )
        return rc;
    if ( f->gfn != INVALID_GFN )
        p2m_set_entry(d, f->gfn, INVALID_MFN, 0, p2m_mmio_dm);
    f->gfn = gfn;
    return 0;
}

/* Written, as Xen's gnttab_map_frame: it may grow the table, and moves a frame. */
int gnttab_map_frame(struct domain *d, unsigned long idx, unsigned long gfn)
{
    int rc;

    if ( !d->grant_table )
        return -EINVAL;
    grant_write_lock(d->grant_table);
    rc = gnttab_map_frame_locked(d, idx, gfn);
    grant_write_unlock(d->grant_table);
    return rc;
}

int gnttab_unmap_frame(struct domain *d, unsigned long gfn)
{
    struct grant_table *gt = d->grant_table;
    struct grant_frame *f;
    int rc = -ENOENT;

    if ( !gt )
        return -ENOENT;
    grant_write_lock(gt);
    if ( gnttab_alive(gt) && (f = frame_at_gfn(gt, gfn)) )
    {
        f->gfn = INVALID_GFN;
        rc = p2m_set_entry(d, gfn, INVALID_MFN, 0, p2m_mmio_dm);
    }
    grant_write_unlock(gt);
    return rc;
}

unsigned int gnttab_resource_max_frames(const struct domain *d, unsigned int id)
{
    const struct grant_table *gt = d->grant_table;

    if ( !gt )
        return 0;
    switch ( id )
    {
    case XENMEM_resource_grant_table_id_shared:
        return gt->max_grant_frames;
    case XENMEM_resource_grant_table_id_status:
        return grant_to_status_frames(gt->max_grant_frames);
    default:
        return 0;
    }
}

/*
 * The mfns of frames [frame, frame + nr_frames) of d's shared or (under
 * v2) status frames, growing the table as needed (Xen's
 * gnttab_acquire_resource): nr_frames, or -EINVAL.
 */
int gnttab_acquire_resource(struct domain *d, unsigned int id, unsigned int frame,
                            unsigned int nr_frames, xen_pfn_t mfn_list[])
{
    struct grant_table *gt = d->grant_table;
    unsigned int i, final = frame + nr_frames - 1;
    struct grant_frame *frames;
    int rc = -EINVAL;

    if ( !nr_frames || !gt || final < frame )
        return -EINVAL;
    /* Written, as Xen's gnttab_acquire_resource: it may grow the table. */
    grant_write_lock(gt);
    if ( !gnttab_alive(gt) )
        goto out;
    switch ( id )
    {
    case XENMEM_resource_grant_table_id_shared:
        frames = gt->shared;
        if ( !get_table_frame(d, final, false) )
            goto out;
        break;
    case XENMEM_resource_grant_table_id_status:
        if ( gt->gt_version != 2 || !get_table_frame(d, final, true) )
            goto out;
        frames = gt->status;
        break;
    default:
        goto out;
    }
    for ( i = 0; i < nr_frames; i++ )
        mfn_list[i] = frames[frame + i].mfn;
    rc = nr_frames;
 out:
    grant_write_unlock(gt);
    return rc;
}

/* ---- the end of a domain's table ------------------------------------------ */

/*
 * The frames go back unless another domain still maps them (a toolstack's
 * foreign mapping): then they are freed with that mapping.  They may
 * still be in d's p2m, which is torn down after this and leaves
 * p2m_gnttab_frame entries alone.  Other domains' mappings of d's grants
 * hold their frames by reference and name d's table by its id, so they
 * stay valid, and undoable, without it.
 *
 * Under the write lock: a CPU mapping, copying or unmapping one of d's
 * grants holds the read lock, so it finishes first, and any CPU that comes
 * after finds the table destroyed (id 0, no entries) and d's grants gone.
 * The structure itself (its lock) lives on until the domain is freed
 * (grant_table_free), as Xen keeps it until the domain's last reference.
 */
void grant_table_destroy(struct domain *d)
{
    struct grant_table *gt = d->grant_table;
    unsigned int i;

    if ( !gt )
        return;
    if ( gt->maptrack_limit )
        gnttab_release_mappings(d);
    grant_write_lock(gt);
    if ( !gt->id )
    {
        grant_write_unlock(gt);
        return;
    }
    gt->id = 0;
    for ( i = 0; i < gt->nr_grant_frames; i++ )
        gnttab_free_frame(d, gt->shared[i].mfn);
    for ( i = 0; i < gt->nr_status_frames; i++ )
        gnttab_free_frame(d, gt->status[i].mfn);
    if ( gt->active )
        for ( i = 0; i < num_act_frames(gt->nr_grant_frames); i++ )
            gnttab_free_page(d, gt->active[i]);
    gt->nr_grant_frames = gt->nr_status_frames = 0;
    xfree(gt->shared);
    xfree(gt->status);
    xfree(gt->active);
    xfree(gt->maptrack);
    gt->shared = gt->status = NULL;
    gt->active = NULL;
    gt->maptrack = NULL;
    grant_write_unlock(gt);
}

void grant_table_free(struct domain *d)
{
    struct grant_table *gt = d->grant_table;

    if ( !gt )
        return;
    grant_table_destroy(d);
    d->grant_table = NULL;
    xfree(gt);
}

/* ---- the hypercall -------------------------------------------------------- */

static const char *const gnttabop_names[] = {
    [GNTTABOP_dump_table]       = "GNTTABOP_dump_table",
};

/*
 * A batch stops early when the caller's time is up: rc > 0 operations are
 * done, and the guest re-enters with the rest (Xen's continuation, the
 * handle moved on past them).  cache_flush may also stop inside one
 * operation, the search state in the command's upper bits.
 */
#define BATCH(type, fn)                                                       \
    do {                                                                      \
        XEN_GUEST_HANDLE_PARAM(type) h_ = guest_handle_cast(uop, type);       \
                                                                              \
        rc = fn(h_, count);                                                   \
        if ( rc > 0 )                                                         \
        {                                                                     \
            guest_handle_add_offset(h_, rc);                                  \
            uop = guest_handle_cast(h_, void);                                \
        }                                                                     \
    } while ( 0 )

long do_grant_table_op(unsigned int cmd, XEN_GUEST_HANDLE_PARAM(void) uop,
                       unsigned int count)
{
    unsigned int opaque_in = cmd & GNTTABOP_ARG_MASK, opaque_out = 0;
    long rc;

    if ( !current->domain->grant_table )
        return -ENOSYS;
    if ( (int)count < 0 )
        return -EINVAL;
    if ( (cmd &= GNTTABOP_CMD_MASK) != GNTTABOP_cache_flush && opaque_in )
        return -EINVAL;

    switch ( cmd )
    {
    case GNTTABOP_map_grant_ref:
        BATCH(gnttab_map_grant_ref_t, gnttab_map_grant_ref);
        break;
    case GNTTABOP_unmap_grant_ref:
        BATCH(gnttab_unmap_grant_ref_t, gnttab_unmap_grant_ref);
        break;
    case GNTTABOP_unmap_and_replace:
        BATCH(gnttab_unmap_and_replace_t, gnttab_unmap_and_replace);
        break;
    case GNTTABOP_transfer:
        BATCH(gnttab_transfer_t, gnttab_transfer);
        break;
    case GNTTABOP_copy:
        BATCH(gnttab_copy_t, gnttab_copy);
        break;
    case GNTTABOP_swap_grant_ref:
        BATCH(gnttab_swap_grant_ref_t, gnttab_swap_grant_ref);
        break;
    case GNTTABOP_setup_table:
        rc = gnttab_setup_table(guest_handle_cast(uop, gnttab_setup_table_t), count);
        break;
    case GNTTABOP_query_size:
        rc = gnttab_query_size(guest_handle_cast(uop, gnttab_query_size_t), count);
        break;
    case GNTTABOP_set_version:
        rc = gnttab_set_version(guest_handle_cast(uop, gnttab_set_version_t));
        break;
    case GNTTABOP_get_status_frames:
        rc = gnttab_get_status_frames(guest_handle_cast(uop, gnttab_get_status_frames_t),
                                      count);
        break;
    case GNTTABOP_get_version:
        rc = gnttab_get_version(guest_handle_cast(uop, gnttab_get_version_t));
        break;
    case GNTTABOP_cache_flush:
    {
        XEN_GUEST_HANDLE_PARAM(gnttab_cache_flush_t) h = guest_handle_cast(uop, gnttab_cache_flush_t);

        rc = gnttab_cache_flush(h, &opaque_in, count);
        if ( rc >= 0 )
        {
            guest_handle_add_offset(h, rc);
            uop = guest_handle_cast(h, void);
            opaque_out = opaque_in;
        }
        break;
    }
    default:
        return subop_enosys(__HYPERVISOR_grant_table_op, cmd,
                            cmd < ARRAY_SIZE(gnttabop_names) ? gnttabop_names[cmd] : NULL);
    }

    if ( rc > 0 || (opaque_out && rc == 0) )
    {
        ASSERT((unsigned long)rc < count);
        return hypercall_create_continuation(__HYPERVISOR_grant_table_op, "ihi",
                                             opaque_out | cmd, uop, count - rc);
    }
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sharing between domains (case gnttab-share): d0 is the control domain,
 * d1 the granter, d2 a mapper, d3 a witness.
 *
 * The toolstack and xenstored (dom0, first): d0 builds a domain it never
 * runs (d100: createdomain, max_mem, populate_physmap), maps its first
 * grant frame with XENMEM_acquire_resource and seeds its reserved entries
 * (GNTTAB_RESERVED_CONSOLE and _XENSTORE, as Xen's xc_dom_gnttab_seed),
 * then maps the xenstore grant as xenstored does through gntdev
 * (map_grant_ref at a gfn of its physmap), and also takes the compat path
 * (XENMAPSPACE_grant_table into d100's physmap, setup_table, a foreign
 * mapping).  Then it destroys d100 while mapping its grant and frames:
 * the frames stay, intact, and each comes back to the heap exactly when
 * its last mapping goes.
 *
 * A mapper dies holding maps (d2, meanwhile): it maps three of d1's
 * grants and powers off without unmapping; d1 sees GTF_reading/writing go
 * when d2 is gone (the maptrack walked at its destruction) and revokes.
 *
 * Mapping, copying, revoking between d0 and d1, through a mailbox page d1
 * grants: the data on both sides, every copy direction (gref<->gmfn and
 * gref<->gref) and their errors, revoking in use (fails) and unused,
 * mapping a revoked grant; then d1 dies with two grants mapped by d0,
 * which still reads them and gets each frame freed exactly at its unmap.
 */
#include "gnttab-test.h"

#define WAIT_ROUNDS     200000

/* d0's gfns: grant mappings at MAP(i), acquired frames, foreign mappings. */
#define MAP(i)          (GNT_MAP_GFN + (i))
#define ACQ_GFN         (GNT_MAP_GFN + 0x100)
#define FOREIGN_GFN     (GNT_MAP_GFN + 0x180)

/* ---- the control domain's calls -------------------------------------------- */

static long domctl(struct xen_domctl *op)
{
    op->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    return hypercall6(__HYPERVISOR_domctl, (unsigned long)op, 0, 0, 0, 0);
}

static long physinfo(struct xen_sysctl_physinfo *pi)
{
    struct xen_sysctl s = { .cmd = XEN_SYSCTL_physinfo,
                            .interface_version = XEN_SYSCTL_INTERFACE_VERSION };
    long rc = hypercall6(__HYPERVISOR_sysctl, (unsigned long)&s, 0, 0, 0, 0);

    *pi = s.u.physinfo;
    return rc;
}

/* XEN_SYSCTL_debug_keys with one key. */
static long debug_key(char key)
{
    struct xen_sysctl s = { .cmd = XEN_SYSCTL_debug_keys,
                            .interface_version = XEN_SYSCTL_INTERFACE_VERSION };

    set_xen_guest_handle(s.u.debug_keys.keys, &key);
    s.u.debug_keys.nr_keys = 1;
    return hypercall6(__HYPERVISOR_sysctl, (unsigned long)&s, 0, 0, 0, 0);
}

static unsigned long free_pages(void)
{
    struct xen_sysctl_physinfo pi;

    return physinfo(&pi) ? 0 : pi.free_pages;
}

static bool domain_exists(domid_t id)
{
    struct xen_domctl op = { .cmd = XEN_DOMCTL_getdomaininfo, .domain = id };

    return !domctl(&op) && op.u.getdomaininfo.domain == id;
}

static long create_domain(domid_t id, int max_grant_frames, int max_maptrack_frames,
                          uint32_t grant_opts)
{
    struct xen_domctl op = { .cmd = XEN_DOMCTL_createdomain, .domain = id };

    op.u.createdomain = (struct xen_domctl_createdomain){
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap, .max_vcpus = 1,
        .max_grant_frames = max_grant_frames, .max_maptrack_frames = max_maptrack_frames,
        .grant_opts = grant_opts,
    };
    return domctl(&op);
}

static long acquire(domid_t dom, unsigned int type, unsigned int id, uint64_t frame,
                    unsigned int nr, xen_pfn_t *gfns, uint32_t *nr_out)
{
    struct xen_mem_acquire_resource r = {
        .domid = dom, .type = type, .id = id, .nr_frames = nr, .frame = frame,
    };
    long rc;

    set_xen_guest_handle(r.frame_list, gfns);
    rc = hypercall_memory_op(XENMEM_acquire_resource, &r);
    if ( nr_out )
        *nr_out = r.nr_frames;
    return rc;
}

static long foreign_map(domid_t dom, xen_ulong_t idx, xen_pfn_t gpfn)
{
    struct xen_add_to_physmap_batch b = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_gmfn_foreign, .size = 1,
        .u.foreign_domid = dom,
    };
    int err = -1;
    long rc;

    set_xen_guest_handle(b.idxs, &idx);
    set_xen_guest_handle(b.gpfns, &gpfn);
    set_xen_guest_handle(b.errs, &err);
    rc = hypercall_memory_op(XENMEM_add_to_physmap_batch, &b);
    return rc ?: err;
}

static long remove_from_physmap(domid_t dom, xen_pfn_t gpfn)
{
    struct xen_remove_from_physmap r = { .domid = dom, .gpfn = gpfn };

    return hypercall_memory_op(XENMEM_remove_from_physmap, &r);
}

static long setup_table_of(domid_t dom, unsigned int nr, xen_pfn_t *list)
{
    struct gnttab_setup_table st = { .dom = dom, .nr_frames = nr };

    set_xen_guest_handle(st.frame_list, list);
    return hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1) ?: st.status;
}

/* ---- dom0: the toolstack's and xenstored's side ---------------------------- */

static void dom0_config_errors(void)
{
    printk("createdomain's grant fields (Xen's checks):\n");
    check_rc("grant_opts 0 (version 0)", create_domain(101, -1, -1, 0), -XEN_EINVAL);
    check_rc("version 3", create_domain(101, -1, -1, XEN_DOMCTL_GRANT_version(3)), -XEN_EINVAL);
    check_rc("an unknown option", create_domain(101, -1, -1, XEN_DOMCTL_GRANT_version(1) | 0x10),
             -XEN_EINVAL);
    check_rc("max_grant_frames 65 (host: 64)",
             create_domain(101, 65, -1, XEN_DOMCTL_GRANT_version(1)), -XEN_EINVAL);
    check_rc("max_grant_frames 0", create_domain(101, 0, -1, XEN_DOMCTL_GRANT_version(1)),
             -XEN_EINVAL);
    check_rc("max_maptrack_frames 1025 (host: 1024)",
             create_domain(101, -1, 1025, XEN_DOMCTL_GRANT_version(1)), -XEN_EINVAL);
    check_true("  no domain 101 made", !domain_exists(101));
}

static uint8_t store_seen[PAGE_SIZE] __aligned(PAGE_SIZE);

static void dom0_toolstack(void)
{
    struct xen_domctl op;
    struct gnttab_query_size q = { .dom = DOM_CREATED };
    struct gnttab_get_version gv = { .dom = DOM_CREATED };
    xen_pfn_t gfns[16], list[2], acq[2] = { ACQ_GFN, ACQ_GFN + 1 };
    grant_entry_v1_t *seed = gfn_va(ACQ_GFN);
    grant_handle_t hstore;
    unsigned long f1, f2, f3, f4;
    uint32_t nr = 0;
    unsigned int i;
    long rc;

    printk("Building d%u and seeding its grant table (the toolstack's path):\n", DOM_CREATED);
    check_rc("createdomain, 2 grant frames, no maptrack",
             create_domain(DOM_CREATED, 2, 0, XEN_DOMCTL_GRANT_version(1)), 0);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_max_mem, .domain = DOM_CREATED };
    op.u.max_mem.max_memkb = 1024;
    check_rc("max_mem 1 MiB", domctl(&op), 0);
    {
        struct xen_memory_reservation r = { .nr_extents = 16, .domid = DOM_CREATED };

        for ( i = 0; i < 16; i++ )
            gfns[i] = i;
        set_xen_guest_handle(r.extent_start, gfns);
        check_rc("populate 16 pages", hypercall_memory_op(XENMEM_populate_physmap, &r), 16);
    }

    check_rc("acquire_resource size query",
             acquire(DOM_CREATED, XENMEM_resource_grant_table,
                     XENMEM_resource_grant_table_id_shared, 0, 0, NULL, &nr), 0);
    check_rc("  frames (max_grant_frames)", nr, 2);
    check_rc("acquire shared frame 0",
             acquire(DOM_CREATED, XENMEM_resource_grant_table,
                     XENMEM_resource_grant_table_id_shared, 0, 1, acq, NULL), 0);
    check_rc("acquire frames 0-1 (the table grows)",
             acquire(DOM_CREATED, XENMEM_resource_grant_table,
                     XENMEM_resource_grant_table_id_shared, 0, 2, acq, NULL), 0);
    check_rc("acquire frame 2 (past the limit)",
             acquire(DOM_CREATED, XENMEM_resource_grant_table,
                     XENMEM_resource_grant_table_id_shared, 2, 1, acq, NULL), -XEN_EINVAL);
    check_rc("acquire status frames under v1",
             acquire(DOM_CREATED, XENMEM_resource_grant_table,
                     XENMEM_resource_grant_table_id_status, 0, 1, acq, NULL), -XEN_EINVAL);
    check_rc("acquire an ioreq server (none)",
             acquire(DOM_CREATED, XENMEM_resource_ioreq_server, 0, 0, 1, acq, NULL),
             -XEN_EOPNOTSUPP);
    check_rc("acquire of ourselves", acquire(DOMID_SELF, XENMEM_resource_grant_table, 0, 0, 1,
                                             acq, NULL), -XEN_ESRCH);
    check_rc("acquire of d0 by id", acquire(0, XENMEM_resource_grant_table, 0, 0, 1, acq, NULL),
             -XEN_EPERM);
    check_rc("acquire of d0x7000", acquire(0x7000, XENMEM_resource_grant_table, 0, 0, 1, acq,
                                           NULL), -XEN_ESRCH);
    check_rc("acquire with frame past 32 bits", acquire(DOM_CREATED, XENMEM_resource_grant_table,
             0, 1ULL << 32, 1, acq, NULL), -XEN_EINVAL);
    {
        xen_pfn_t over = va_gfn(store_seen);

        check_rc("acquire over our own RAM", acquire(DOM_CREATED, XENMEM_resource_grant_table,
                 0, 0, 1, &over, NULL), -XEN_EBUSY);
    }
    check_rc("query_size of d100", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1) ?: q.status,
             GNTST_okay);
    check_rc("  nr_frames (grown by the acquire)", q.nr_frames, 2);
    check_rc("  max_nr_frames", q.max_nr_frames, 2);
    check_rc("get_version of d100", hypercall_grant_table_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc("  version", gv.version, 1);

    /* xc_dom_gnttab_seed's entries: console gfn 1, xenstore gfn 2, for d0. */
    seed[GNTTAB_RESERVED_CONSOLE].domid = 0;
    seed[GNTTAB_RESERVED_CONSOLE].frame = 1;
    seed[GNTTAB_RESERVED_XENSTORE].domid = 0;
    seed[GNTTAB_RESERVED_XENSTORE].frame = 2;
    barrier();
    seed[GNTTAB_RESERVED_CONSOLE].flags = GTF_permit_access;
    seed[GNTTAB_RESERVED_XENSTORE].flags = GTF_permit_access;

    printk("xenstored maps d%u's GNTTAB_RESERVED_XENSTORE:\n", DOM_CREATED);
    check_rc("map_grant_ref(d100, 1) at a gfn of ours",
             gnttab_map(DOM_CREATED, GNTTAB_RESERVED_XENSTORE, MAP(10), GNTMAP_host_map, &hstore),
             GNTST_okay);
    check_rc("  d100's entry shows it in use", seed[GNTTAB_RESERVED_XENSTORE].flags,
             GTF_permit_access | GTF_reading | GTF_writing);
    /* Debug key 'g' (Xen's gnttab_usage_print_all): ref 1 pinned by d0. */
    check_rc("xl debug-keys g: the grant tables' usage printed", debug_key('g'), 0);
    fill_pattern(gfn_va(MAP(10)), 0x5a);
    check_rc("foreign map of d100's gfn 2 (the builder's view)",
             foreign_map(DOM_CREATED, 2, FOREIGN_GFN), 0);
    check_true("  the same frame: what xenstored wrote", has_pattern(gfn_va(FOREIGN_GFN), 0x5a));
    check_rc("setup_table(d100, 2)", setup_table_of(DOM_CREATED, 2, list), GNTST_okay);
    check_true("  not in d100's physmap: ~0 for both",
               list[0] == (xen_pfn_t)~0UL && list[1] == (xen_pfn_t)~0UL);

    printk("The compat path (XENMAPSPACE_grant_table into the guest):\n");
    check_rc("add_to_physmap(d100, frame 0 at gfn 20)", gnttab_map_frame(DOM_CREATED, 0, 20), 0);
    check_rc("setup_table(d100, 1)", setup_table_of(DOM_CREATED, 1, list), GNTST_okay);
    check_rc("  frame 0's gfn", list[0], 20);
    check_rc("foreign map of d100's gfn 20", foreign_map(DOM_CREATED, 20, FOREIGN_GFN + 1), 0);
    check_rc("  the seeded entry through it",
             ((grant_entry_v1_t *)gfn_va(FOREIGN_GFN + 1))[GNTTAB_RESERVED_XENSTORE].frame, 2);
    check_rc("unmap it", remove_from_physmap(DOMID_SELF, FOREIGN_GFN + 1), 0);
    check_rc("remove_from_physmap(d100, gfn 20)", remove_from_physmap(DOM_CREATED, 20), 0);
    check_rc("setup_table(d100, 1)", setup_table_of(DOM_CREATED, 1, list), GNTST_okay);
    check_true("  frame 0 out of d100's physmap again", list[0] == (xen_pfn_t)~0UL);

    printk("d%u destroyed while its grant and frames are mapped:\n", DOM_CREATED);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_destroydomain, .domain = DOM_CREATED };
    check_rc("destroydomain", domctl(&op), 0);
    check_true("  gone", WAIT_UNTIL(!domain_exists(DOM_CREATED), WAIT_ROUNDS));
    f1 = free_pages();
    /* Key 'q''s heap line: its 3 frames d0 still maps are orphaned now. */
    check_rc("xl debug-keys q: the heap and the orphaned frames", debug_key('q'), 0);
    check_true("the xenstore page is still what was written", has_pattern(gfn_va(MAP(10)), 0x5a));
    check_true("the seeded entries still read back", seed[GNTTAB_RESERVED_XENSTORE].frame == 2);
    check_rc("unmap the grant (a foreign mapping still holds it)",
             gnttab_unmap(MAP(10), hstore), GNTST_okay);
    f2 = free_pages();
    check_rc("  free pages unchanged", f2 - f1, 0);
    check_rc("unmap the foreign mapping", remove_from_physmap(DOMID_SELF, FOREIGN_GFN), 0);
    f3 = free_pages();
    check_rc("  that frame freed now, exactly", f3 - f2, 1);
    rc = remove_from_physmap(DOMID_SELF, ACQ_GFN);
    check_rc("unmap acquired frame 0", rc, 0);
    check_rc("unmap acquired frame 1", remove_from_physmap(DOMID_SELF, ACQ_GFN + 1), 0);
    f4 = free_pages();
    check_rc("  both grant frames freed now, exactly", f4 - f3, 2);
    check_rc("xl debug-keys q: no frame orphaned now", debug_key('q'), 0);
    check_rc("map d100's grant again", gnttab_map(DOM_CREATED, 1, MAP(10), GNTMAP_host_map, NULL),
             GNTST_bad_domain);
}

static void dom0_granter(void)
{
    static uint8_t local[PAGE_SIZE] __aligned(PAGE_SIZE);
    struct mailbox *mb = gfn_va(MAP(0));
    grant_handle_t hmb, h11, h14, h15, hro;
    struct gnttab_copy c;
    unsigned long f1, f2, f3;

    printk("Sharing with d%u:\n", DOM_GRANTER);
    check_true("map d1's mailbox (ref 10) once d1 grants it",
               WAIT_UNTIL(gnttab_map(DOM_GRANTER, 10, MAP(0), GNTMAP_host_map, &hmb) == GNTST_okay,
                          WAIT_ROUNDS));
    mb->hello = 1;

    check_rc("map ref 11", gnttab_map(DOM_GRANTER, 11, MAP(1), GNTMAP_host_map, &h11), GNTST_okay);
    check_true("  d1's data", has_pattern(gfn_va(MAP(1)), 0x11));
    fill_pattern(gfn_va(MAP(1)), 0x61);
    check_rc("map ref 14 read-only", gnttab_map(DOM_GRANTER, 14, MAP(4),
             GNTMAP_host_map | GNTMAP_readonly, &h14), GNTST_okay);
    check_true("  d1's data", has_pattern(gfn_va(MAP(4)), 0x14));
    check_rc("map ref 11 read-only as well", gnttab_map(DOM_GRANTER, 11, MAP(2),
             GNTMAP_host_map | GNTMAP_readonly, &hro), GNTST_okay);
    check_true("  the same page", has_pattern(gfn_va(MAP(2)), 0x61));
    check_rc("  unmap that", gnttab_unmap(MAP(2), hro), GNTST_okay);

    c = (struct gnttab_copy){
        .source = { .u.ref = 12, .domid = DOM_GRANTER },
        .dest = { .u.gmfn = va_gfn(local), .domid = DOMID_SELF },
        .len = PAGE_SIZE, .flags = GNTCOPY_source_gref,
    };
    check_rc("copy d1's gref 12 -> our gmfn", gnttab_copy_one(&c), GNTST_okay);
    check_true("  d1's data", has_pattern(local, 0x12));
    fill_pattern(local, 0x62);
    c = (struct gnttab_copy){
        .source = { .u.gmfn = va_gfn(local), .domid = DOMID_SELF },
        .dest = { .u.ref = 13, .domid = DOM_GRANTER },
        .len = PAGE_SIZE, .flags = GNTCOPY_dest_gref,
    };
    check_rc("copy our gmfn -> d1's gref 13", gnttab_copy_one(&c), GNTST_okay);
    c.dest.u.ref = 14;
    check_rc("  into read-only gref 14", gnttab_copy_one(&c), GNTST_general_error);
    c.dest.u.ref = 13;
    c.source.offset = 4000;
    c.len = 200;
    check_rc("  200 bytes from offset 4000", gnttab_copy_one(&c), GNTST_bad_copy_arg);
    c.source.domid = DOM_GRANTER;
    c.source.offset = 0;
    check_rc("  a gmfn of d1 (only DOMID_SELF's)", gnttab_copy_one(&c), GNTST_permission_denied);
    c = (struct gnttab_copy){
        .source = { .u.ref = 12, .domid = DOM_GRANTER, .offset = 8 },
        .dest = { .u.ref = 13, .domid = DOM_GRANTER, .offset = 1000 },
        .len = 100, .flags = GNTCOPY_source_gref | GNTCOPY_dest_gref,
    };
    check_rc("copy d1's gref 12 -> d1's gref 13 (a third party's copy)", gnttab_copy_one(&c),
             GNTST_okay);
    c.source.u.ref = 4096;
    check_rc("  from a bad gref", gnttab_copy_one(&c), GNTST_bad_gntref);
    c.source.u.ref = 12;
    c.dest.domid = 0x7000;
    check_rc("  to d0x7000", gnttab_copy_one(&c), GNTST_bad_domain);

    mb->step = 1;
    check_true("d1 checked (step 2)", WAIT_UNTIL(mb->step == 2, WAIT_ROUNDS));
    check_rc("map ref 12, which d1 revoked", gnttab_map(DOM_GRANTER, 12, MAP(3), GNTMAP_host_map,
             NULL), GNTST_general_error);
    check_rc("unmap ref 11", gnttab_unmap(MAP(1), h11), GNTST_okay);
    check_rc("unmap ref 14", gnttab_unmap(MAP(4), h14), GNTST_okay);
    mb->step = 3;
    check_true("d1 revoked them (step 4)", WAIT_UNTIL(mb->step == 4, WAIT_ROUNDS));
    check_rc("map ref 11, revoked", gnttab_map(DOM_GRANTER, 11, MAP(1), GNTMAP_host_map, NULL),
             GNTST_general_error);
    check_rc("map ref 15", gnttab_map(DOM_GRANTER, 15, MAP(5), GNTMAP_host_map, &h15), GNTST_okay);
    check_true("  d1's data", has_pattern(gfn_va(MAP(5)), 0x15));
    mb->step = 5;

    printk("d%u dies while we map two of its grants:\n", DOM_GRANTER);
    check_true("d1 gone", WAIT_UNTIL(!domain_exists(DOM_GRANTER), WAIT_ROUNDS));
    f1 = free_pages();
    check_true("its page still mapped, its data intact", has_pattern(gfn_va(MAP(5)), 0x15));
    fill_pattern(gfn_va(MAP(5)), 0x65);
    check_true("  and ours to write", has_pattern(gfn_va(MAP(5)), 0x65));
    check_rc("map its grant anew", gnttab_map(DOM_GRANTER, 15, MAP(6), GNTMAP_host_map, NULL),
             GNTST_bad_domain);
    check_rc("unmap ref 15 at the wrong gfn", gnttab_unmap(MAP(6), h15), GNTST_general_error);
    check_rc("unmap ref 15", gnttab_unmap(MAP(5), h15), GNTST_okay);
    f2 = free_pages();
    check_rc("  its frame freed now, exactly", f2 - f1, 1);
    check_rc("unmap the mailbox", gnttab_unmap(MAP(0), hmb), GNTST_okay);
    f3 = free_pages();
    check_rc("  its frame freed now, exactly", f3 - f2, 1);
    check_rc("unmap it again", gnttab_unmap(MAP(0), hmb), GNTST_bad_handle);
}

void dom0_main(void)
{
    struct xen_sysctl_physinfo pi;

    printk("Control domain:\n");
    check_rc("physinfo", physinfo(&pi), 0);
    check_true("  capabilities gnttab_v1 and gnttab_v2",
               (pi.capabilities & (XEN_SYSCTL_PHYSCAP_gnttab_v1 | XEN_SYSCTL_PHYSCAP_gnttab_v2)) ==
               (XEN_SYSCTL_PHYSCAP_gnttab_v1 | XEN_SYSCTL_PHYSCAP_gnttab_v2));
    dom0_config_errors();
    /* d1 and d2 wait meanwhile: nothing else allocates while we count pages. */
    dom0_toolstack();
    check_rc("let d1 start (its HVM_PARAM_STORE_EVTCHN)",
             hvm_set_param(DOM_GRANTER, HVM_PARAM_STORE_EVTCHN, 1), 0);
    dom0_granter();
}

/* ---- d1: the granter ------------------------------------------------------- */

static uint8_t gpages[8][PAGE_SIZE] __aligned(PAGE_SIZE);

static void granter_with_mapper(void)
{
    struct mailbox *mb = (struct mailbox *)gpages[0];

    printk("Granting to d%u, which dies holding the maps:\n", DOM_MAPPER);
    fill_pattern(gpages[1], 0x21);
    fill_pattern(gpages[2], 0x22);
    gnttab_grant(21, DOM_MAPPER, va_gfn(gpages[1]), 0);
    gnttab_grant(22, DOM_MAPPER, va_gfn(gpages[2]), GTF_readonly);
    gnttab_grant(20, DOM_MAPPER, va_gfn(gpages[0]), 0);
    check_true("d2 mapped them (step 1)", WAIT_UNTIL(mb->step == 1, WAIT_ROUNDS));
    check_true("  d2's write in ref 21", has_pattern(gpages[1], 0x71));
    check_true("  ref 22 unchanged", has_pattern(gpages[2], 0x22));
    check_rc("  refs 20, 21 in use for writing", gnttab_in_use(20) & gnttab_in_use(21),
             GTF_reading | GTF_writing);
    check_rc("  ref 22 for reading", gnttab_in_use(22), GTF_reading);
    check_true("  revoking ref 21 fails", !gnttab_end_access(21));
    mb->hello = 1;                      /* d2 may die now */
    check_true("d2 gone: its maps released (the flags go)",
               WAIT_UNTIL(!(gnttab_in_use(20) | gnttab_in_use(21) | gnttab_in_use(22)),
                          WAIT_ROUNDS));
    check_true("  revoke refs 20, 21, 22",
               gnttab_end_access(20) && gnttab_end_access(21) && gnttab_end_access(22));
}

static void granter_with_dom0(void)
{
    struct mailbox *mb = (struct mailbox *)gpages[0];
    unsigned int i;

    printk("Granting to d0:\n");
    memset(gpages[0], 0, PAGE_SIZE);
    for ( i = 1; i <= 5; i++ )
        fill_pattern(gpages[i], 0x10 + i);
    gnttab_grant(11, DOM_CTRL, va_gfn(gpages[1]), 0);
    gnttab_grant(12, DOM_CTRL, va_gfn(gpages[2]), 0);
    gnttab_grant(13, DOM_CTRL, va_gfn(gpages[3]), 0);
    gnttab_grant(14, DOM_CTRL, va_gfn(gpages[4]), GTF_readonly);
    gnttab_grant(15, DOM_CTRL, va_gfn(gpages[5]), 0);
    gnttab_grant(10, DOM_CTRL, va_gfn(gpages[0]), 0);

    check_true("d0 mapped and copied (step 1)", WAIT_UNTIL(mb->step == 1, WAIT_ROUNDS));
    check_true("  d0's write in ref 11", has_pattern(gpages[1], 0x61));
    {
        uint8_t want[PAGE_SIZE];

        fill_pattern(want, 0x62);
        memcpy(want + 1000, gpages[2] + 8, 100);
        check_true("  ref 13: d0's page, and 100 bytes of ref 12 at 1000 (gref->gref)",
                   !memcmp(gpages[3], want, PAGE_SIZE));
    }
    check_true("  ref 14 (read-only) unchanged", has_pattern(gpages[4], 0x14));
    check_rc("  refs 10, 11 in use for writing", gnttab_in_use(10) & gnttab_in_use(11),
             GTF_reading | GTF_writing);
    check_rc("  ref 14 for reading", gnttab_in_use(14), GTF_reading);
    check_rc("  refs 12, 13 not in use (copies are done)", gnttab_in_use(12) | gnttab_in_use(13), 0);
    check_true("  revoking ref 11 fails", !gnttab_end_access(11));
    check_rc("  its entry untouched", gnttab_v1[11].flags,
             GTF_permit_access | GTF_reading | GTF_writing);
    check_true("  revoking ref 12 succeeds", gnttab_end_access(12));
    mb->step = 2;

    check_true("d0 unmapped refs 11, 14 (step 3)", WAIT_UNTIL(mb->step == 3, WAIT_ROUNDS));
    check_rc("  not in use", gnttab_in_use(11) | gnttab_in_use(14), 0);
    check_true("  revoke them", gnttab_end_access(11) && gnttab_end_access(14));
    mb->step = 4;
    check_true("d0 mapped ref 15 (step 5)", WAIT_UNTIL(mb->step == 5, WAIT_ROUNDS));
    check_rc("  in use", gnttab_in_use(15), GTF_reading | GTF_writing);
    printk("Powering off with refs 10 and 15 mapped by d0\n");
}

void granter_main(void)
{
    uint64_t go = 0;

    check_true("d0 lets us start", WAIT_UNTIL(!hvm_get_param(DOMID_SELF, HVM_PARAM_STORE_EVTCHN,
                                                             &go) && go, WAIT_ROUNDS));
    check_rc("grant table v1, 1 frame", gnttab_setup(1, 1), 0);
    granter_with_mapper();
    granter_with_dom0();
}

/* ---- d2: a mapper that dies holding its maps ------------------------------- */

void mapper_main(void)
{
    struct mailbox *mb = gfn_va(GNT_MAP_GFN);
    grant_handle_t h[3];

    printk("Mapping d%u's grants:\n", DOM_GRANTER);
    check_true("map ref 20 (the mailbox) once granted",
               WAIT_UNTIL(gnttab_map(DOM_GRANTER, 20, GNT_MAP_GFN, GNTMAP_host_map, &h[0]) ==
                          GNTST_okay, WAIT_ROUNDS));
    check_rc("map ref 21", gnttab_map(DOM_GRANTER, 21, GNT_MAP_GFN + 1, GNTMAP_host_map, &h[1]),
             GNTST_okay);
    check_true("  d1's data", has_pattern(gfn_va(GNT_MAP_GFN + 1), 0x21));
    fill_pattern(gfn_va(GNT_MAP_GFN + 1), 0x71);
    check_rc("map ref 22 read-only", gnttab_map(DOM_GRANTER, 22, GNT_MAP_GFN + 2,
             GNTMAP_host_map | GNTMAP_readonly, &h[2]), GNTST_okay);
    check_true("  d1's data", has_pattern(gfn_va(GNT_MAP_GFN + 2), 0x22));
    check_rc("map ref 22 writable (GTF_readonly)", gnttab_map(DOM_GRANTER, 22, GNT_MAP_GFN + 3,
             GNTMAP_host_map, NULL), GNTST_general_error);
    mb->step = 1;
    check_true("d1 looked (hello)", WAIT_UNTIL(mb->hello, WAIT_ROUNDS));
    printk("Powering off with three grants of d1 mapped\n");
}

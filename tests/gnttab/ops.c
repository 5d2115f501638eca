/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * role=ops: a domU's grant table on its own, against Xen's semantics.
 * Grants to itself stand in for another domain's where the semantics
 * are the same (Xen lets a domain map its own grants): set-up as Linux
 * does it, versions 1 and 2, the reserved entries across a switch, every
 * bad reference, flag, domain and size with Xen's code, mapping, revoking
 * (the v1 cmpxchg protocol), copies and their bounds, the pin limit, a
 * long batch preempted and continued, transfer, swap, cache_flush.
 */
#include "gnttab-test.h"

/* Frames we grant (to ourselves), one replaced by a table frame. */
static uint8_t pages[8][PAGE_SIZE] __aligned(PAGE_SIZE);
static uint8_t over_ram[PAGE_SIZE] __aligned(PAGE_SIZE);

#define MAP(i)  (GNT_MAP_GFN + (i))

static domid_t self;

static void fill(void *p, uint8_t seed)
{
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        ((uint8_t *)p)[i] = seed + i * 7;
}

static bool filled(const void *p, uint8_t seed)
{
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        if ( ((const uint8_t *)p)[i] != (uint8_t)(seed + i * 7) )
            return false;
    return true;
}

static void queries(void)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    struct gnttab_get_version gv = { .dom = DOMID_SELF };
    struct gnttab_set_version sv;

    printk("Queries, versions, bad arguments:\n");
    check_rc("query_size(DOMID_SELF)", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc("  status", q.status, GNTST_okay);
    check_rc("  nr_frames (one at creation)", q.nr_frames, 1);
    check_rc("  max_nr_frames (Xen's default)", q.max_nr_frames, 64);
    check_rc("query_size with count 2", hypercall_grant_table_op(GNTTABOP_query_size, &q, 2),
             -XEN_EINVAL);
    check_rc("query_size with count -1", hypercall_grant_table_op(GNTTABOP_query_size, &q, ~0u),
             -XEN_EINVAL);
    check_rc("query_size of a bad pointer",
             hypercall_grant_table_op(GNTTABOP_query_size, (void *)0x8000000000UL, 1),
             -XEN_EFAULT);
    q.dom = 0x7000;
    check_rc("query_size of d0x7000", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc("  status", q.status, GNTST_bad_domain);
    q.dom = 0;
    check_rc("query_size of d0", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc("  status", q.status, GNTST_permission_denied);

    check_rc("get_version", hypercall_grant_table_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc("  version 1 at creation", gv.version, 1);
    gv.dom = 0;
    check_rc("get_version of d0", hypercall_grant_table_op(GNTTABOP_get_version, &gv, 1),
             -XEN_EPERM);
    gv.dom = 0x7000;
    check_rc("get_version of d0x7000", hypercall_grant_table_op(GNTTABOP_get_version, &gv, 1),
             -XEN_ESRCH);
    sv.version = 3;
    check_rc("set_version 3", hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1),
             -XEN_EINVAL);
    check_rc("  reports the version in use", sv.version, 1);
    sv.version = 0;
    check_rc("set_version 0", hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1),
             -XEN_EINVAL);

    check_rc("GNTTABOP_dump_table (not in 4.17)",
             hypercall_grant_table_op(GNTTABOP_dump_table, &q, 1), -XEN_ENOSYS);
    check_rc("GNTTABOP 13", hypercall_grant_table_op(13, &q, 1), -XEN_ENOSYS);
    check_rc("continuation bits on query_size",
             hypercall_grant_table_op(GNTTABOP_query_size | (1u << 12), &q, 1), -XEN_EINVAL);
}

static void frames(void)
{
    xen_pfn_t list[4] = { 0 };
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 2 };
    long rc;

    printk("Frames in the physmap (Linux's set-up):\n");
    check_rc("gnttab_setup: set_version 1, frame 0 at GNT_TABLE_GFN", gnttab_setup(1, 1), 0);
    check_rc("frame 63 (the last): the table grows",
             gnttab_map_frame(DOMID_SELF, 63, GNT_TABLE_GFN + 63), 0);
    check_rc("frame 64: past max_nr_frames",
             gnttab_map_frame(DOMID_SELF, 64, GNT_TABLE_GFN + 64), -XEN_EINVAL);
    check_rc("status frame under v1",
             gnttab_map_frame(DOMID_SELF, XENMAPIDX_grant_table_status, GNT_STATUS_GFN),
             -XEN_EINVAL);
    check_rc("frame 1 at a gfn past the address width",
             gnttab_map_frame(DOMID_SELF, 1, 1UL << 40), -XEN_EINVAL);
    check_rc("frame 1 over our own RAM (Xen's XTF does this)",
             gnttab_map_frame(DOMID_SELF, 1, va_gfn(over_ram)), 0);
    check_true("  our RAM page now shows the (empty) frame 1",
               ((volatile uint64_t *)over_ram)[0] == 0 && ((volatile uint64_t *)over_ram)[511] == 0);
    ((volatile grant_entry_v1_t *)over_ram)[3].frame = 0x1234;     /* entry 515 */

    set_xen_guest_handle(st.frame_list, list);
    check_rc("setup_table 2 frames", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  status", st.status, GNTST_okay);
    check_rc("  frame 0's gfn", list[0], GNT_TABLE_GFN);
    check_rc("  frame 1's gfn (where it moved)", list[1], va_gfn(over_ram));
    check_rc("frame 1 back above RAM",
             gnttab_map_frame(DOMID_SELF, 1, GNT_TABLE_GFN + 1), 0);
    check_rc("setup_table again", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  frame 1's gfn", list[1], GNT_TABLE_GFN + 1);
    check_rc("  the same frame: entry 515 as written", gnttab_v1[515].frame, 0x1234);
    gnttab_v1[515].frame = 0;
    st.nr_frames = 65;
    check_rc("setup_table 65 frames", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  status", st.status, GNTST_general_error);
    st.nr_frames = 1;
    set_xen_guest_handle(st.frame_list, (xen_pfn_t *)0x8000000000UL);
    check_rc("setup_table into a bad list", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  status", st.status, GNTST_bad_virt_addr);
    check_rc("setup_table with count 0", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 0),
             -XEN_EINVAL);
    st.dom = 0;
    check_rc("setup_table of d0", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  status", st.status, GNTST_permission_denied);
    rc = gnttab_map_frame(0, 0, GNT_TABLE_GFN + 100);
    check_rc("add_to_physmap of d0's frame", rc, -XEN_EPERM);
}

static void mapping(void)
{
    grant_handle_t h, h2, hs[130];
    uint64_t t0, t1, t2;
    unsigned int i;

    printk("Mapping our own grants:\n");
    fill(pages[0], 1);
    gnttab_grant(10, self, va_gfn(pages[0]), 0);
    check_rc("map ref 10 (granted to us) at MAP(0)",
             gnttab_map(self, 10, MAP(0), GNTMAP_host_map, &h), GNTST_okay);
    check_true("  the data is the granted page's", filled(gfn_va(MAP(0)), 1));
    ((volatile uint8_t *)gfn_va(MAP(0)))[100] = 0xa5;
    check_true("  a write through the mapping lands in it", pages[0][100] == 0xa5);
    check_rc("  GTF_reading | GTF_writing set", gnttab_in_use(10), GTF_reading | GTF_writing);
    check_true("  revoking it fails (in use)", !gnttab_end_access(10));
    check_rc("  the entry is untouched", gnttab_v1[10].flags, GTF_permit_access | GTF_reading | GTF_writing);
    check_rc("map it again read-only at MAP(1)",
             gnttab_map(self, 10, MAP(1), GNTMAP_host_map | GNTMAP_readonly, &h2), GNTST_okay);
    check_rc("unmap the writable one", gnttab_unmap(MAP(0), h), GNTST_okay);
    check_rc("  GTF_writing gone, GTF_reading stays", gnttab_in_use(10), GTF_reading);
    check_rc("unmap it again", gnttab_unmap(MAP(0), h), GNTST_bad_handle);
    check_rc("unmap the read-only one at the wrong gfn", gnttab_unmap(MAP(0), h2),
             GNTST_general_error);
    check_rc("unmap with host_addr 0 (Xen: nothing done, okay)", gnttab_unmap(0, h2), GNTST_okay);
    check_rc("  still in use", gnttab_in_use(10), GTF_reading);
    check_rc("unmap it", gnttab_unmap(MAP(1), h2), GNTST_okay);
    check_rc("  flags cleared", gnttab_in_use(10), 0);
    check_true("revoke now succeeds", gnttab_end_access(10));
    check_rc("map the revoked grant", gnttab_map(self, 10, MAP(0), GNTMAP_host_map, &h),
             GNTST_general_error);

    printk("Bad references, flags, domains, addresses:\n");
    gnttab_grant(11, self, va_gfn(pages[1]), 0);
    gnttab_grant(12, self, va_gfn(pages[2]), GTF_readonly);
    gnttab_grant(13, 0, va_gfn(pages[3]), 0);                 /* for d0 */
    gnttab_grant(14, self, 0x7fffffff, 0);                    /* not our RAM */
    gnttab_v1[15].domid = self;
    gnttab_v1[15].frame = va_gfn(pages[4]);
    gnttab_v1[15].flags = GTF_accept_transfer;
    check_rc("ref past the table (512 * 64)", gnttab_map(self, 512 * 64, MAP(0), GNTMAP_host_map, &h),
             GNTST_bad_gntref);
    check_rc("flags 0", gnttab_map(self, 11, MAP(0), 0, &h), GNTST_bad_gntref);
    check_rc("GNTMAP_readonly alone", gnttab_map(self, 11, MAP(0), GNTMAP_readonly, &h),
             GNTST_bad_gntref);
    check_rc("GNTMAP_device_map (HVM: none)", gnttab_map(self, 11, MAP(0),
             GNTMAP_host_map | GNTMAP_device_map, &h), GNTST_general_error);
    check_rc("GNTMAP_application_map", gnttab_map(self, 11, MAP(0),
             GNTMAP_host_map | GNTMAP_application_map, &h), GNTST_general_error);
    check_rc("GNTMAP_contains_pte", gnttab_map(self, 11, MAP(0),
             GNTMAP_host_map | GNTMAP_contains_pte, &h), GNTST_general_error);
    check_rc("DOMID_SELF (a granter is a domain id)",
             gnttab_map(DOMID_SELF, 11, MAP(0), GNTMAP_host_map, &h), GNTST_bad_domain);
    check_rc("d0x7000", gnttab_map(0x7000, 11, MAP(0), GNTMAP_host_map, &h), GNTST_bad_domain);
    check_rc("d0's ref 11 (not granted to us)", gnttab_map(0, 11, MAP(0), GNTMAP_host_map, &h),
             GNTST_general_error);
    check_rc("writable map of a GTF_readonly grant",
             gnttab_map(self, 12, MAP(0), GNTMAP_host_map, &h), GNTST_general_error);
    check_rc("  no flag left behind", gnttab_in_use(12), 0);
    check_rc("a grant to d0", gnttab_map(self, 13, MAP(0), GNTMAP_host_map, &h),
             GNTST_general_error);
    check_rc("a grant of a frame that is not our RAM",
             gnttab_map(self, 14, MAP(0), GNTMAP_host_map, &h), GNTST_bad_page);
    check_rc("  no flag left behind", gnttab_in_use(14), 0);
    check_rc("a GTF_accept_transfer entry", gnttab_map(self, 15, MAP(0), GNTMAP_host_map, &h),
             GNTST_general_error);
    check_rc("host_addr over our own RAM", gnttab_map(self, 11, va_gfn(pages[5]),
             GNTMAP_host_map, &h), GNTST_general_error);
    check_rc("host_addr past the address width", gnttab_map(self, 11, 1UL << 40,
             GNTMAP_host_map, &h), GNTST_general_error);
    check_rc("  no flag left behind", gnttab_in_use(11), 0);
    check_rc("map ref 11 at MAP(2)", gnttab_map(self, 11, MAP(2), GNTMAP_host_map, &h), GNTST_okay);
    check_rc("map ref 12 read-only over it",
             gnttab_map(self, 12, MAP(2), GNTMAP_host_map | GNTMAP_readonly, &h2),
             GNTST_general_error);
    check_rc("bad handle", gnttab_unmap(MAP(2), 0x7fffffff), GNTST_bad_handle);
    check_rc("unmap_and_replace with a new_addr (HVM: no)", ({
        struct gnttab_unmap_and_replace r = { .host_addr = (uint64_t)MAP(2) << PAGE_SHIFT,
                                              .new_addr = 0x1000, .handle = h };
        hypercall_grant_table_op(GNTTABOP_unmap_and_replace, &r, 1) ?: r.status; }),
        GNTST_general_error);
    check_rc("unmap_and_replace without one (an unmap)", ({
        struct gnttab_unmap_and_replace r = { .host_addr = (uint64_t)MAP(2) << PAGE_SHIFT,
                                              .handle = h };
        hypercall_grant_table_op(GNTTABOP_unmap_and_replace, &r, 1) ?: r.status; }),
        GNTST_okay);
    check_rc("  flags cleared", gnttab_in_use(11), 0);

    printk("Pin counts (Xen's 8-bit counters):\n");
    t0 = rdtsc();
    for ( i = 0; i < 128; i++ )
        if ( gnttab_map(self, 11, MAP(10 + i), GNTMAP_host_map, &hs[i]) != GNTST_okay )
            break;
    t1 = rdtsc();
    check_rc("128 writable mappings of one grant", i, 128);
    check_rc("the 129th", gnttab_map(self, 11, MAP(10 + 128), GNTMAP_host_map, &hs[128]),
             GNTST_general_error);
    check_rc("a read-only one still (its own count)",
             gnttab_map(self, 11, MAP(10 + 128), GNTMAP_host_map | GNTMAP_readonly, &hs[128]),
             GNTST_okay);
    t2 = rdtsc();
    for ( i = 0; i < 129; i++ )
        if ( gnttab_unmap(MAP(10 + i), hs[i]) != GNTST_okay )
            break;
    check_rc("all unmapped", i, 129);
    /* A figure, not a check (Bochs: one tick per instruction, both the guest's and ours). */
    printk("  one map_grant_ref call: %lu ticks, one unmap: %lu (averages)\n",
           (unsigned long)((t1 - t0) / 128), (unsigned long)((rdtsc() - t2) / 129));
    check_rc("  flags cleared", gnttab_in_use(11), 0);
}

static void versions(void)
{
    struct gnttab_set_version sv;
    struct gnttab_get_status_frames gs = { .dom = DOMID_SELF, .nr_frames = 1 };
    uint64_t sframes[4];
    grant_handle_t h, hr;

    printk("Version switches:\n");
    gnttab_grant(1, self, va_gfn(pages[6]), 0);             /* a reserved entry */
    gnttab_grant(20, self, va_gfn(pages[7]), 0);
    check_rc("map reserved ref 1", gnttab_map(self, 1, MAP(3), GNTMAP_host_map, &hr), GNTST_okay);
    check_rc("map ref 20", gnttab_map(self, 20, MAP(4), GNTMAP_host_map, &h), GNTST_okay);
    sv.version = 2;
    check_rc("set_version 2 while ref 20 is mapped",
             hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), -XEN_EBUSY);
    check_rc("  still version 1", sv.version, 1);
    check_rc("unmap ref 20", gnttab_unmap(MAP(4), h), GNTST_okay);
    gnttab_end_access(20);
    sv.version = 2;
    check_rc("set_version 2 with only a reserved entry mapped",
             hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), 0);
    check_rc("  version 2", sv.version, 2);
    check_rc("status frame 0 at GNT_STATUS_GFN",
             gnttab_map_frame(DOMID_SELF, XENMAPIDX_grant_table_status, GNT_STATUS_GFN), 0);
    gnttab_version = 2;
    gnttab_status = gfn_va(GNT_STATUS_GFN);
    check_rc("  reserved entry 1 kept: its flags", gnttab_v2[1].hdr.flags, GTF_permit_access);
    check_rc("  its domid", gnttab_v2[1].hdr.domid, self);
    check_rc("  its frame", gnttab_v2[1].full_page.frame, va_gfn(pages[6]));
    check_rc("  its status (still mapped)", gnttab_status[1], GTF_reading | GTF_writing);
    check_rc("  entry 10 and above cleared", gnttab_v2[10].hdr.flags | gnttab_v2[11].hdr.flags, 0);
    set_xen_guest_handle(gs.frame_list, sframes);
    check_rc("get_status_frames 1", hypercall_grant_table_op(GNTTABOP_get_status_frames, &gs, 1), 0);
    check_rc("  status", gs.status, GNTST_okay);
    check_rc("  its gfn", sframes[0], GNT_STATUS_GFN);
    gs.nr_frames = 9;
    check_rc("get_status_frames 9 (64 v2 frames have 8)",
             hypercall_grant_table_op(GNTTABOP_get_status_frames, &gs, 1), 0);
    check_rc("  status: more than there are", gs.status, GNTST_general_error);
    gs.nr_frames = 1;
    check_rc("get_status_frames count 2", hypercall_grant_table_op(GNTTABOP_get_status_frames, &gs, 2),
             -XEN_EINVAL);
    gs.dom = 0x7000;
    check_rc("get_status_frames of d0x7000", hypercall_grant_table_op(GNTTABOP_get_status_frames, &gs, 1), 0);
    check_rc("  status", gs.status, GNTST_bad_domain);

    /* v2: full-page and sub-page grants, status in its own frame. */
    fill(pages[2], 3);
    gnttab_grant(30, self, va_gfn(pages[2]), 0);
    check_rc("v2: map ref 30", gnttab_map(self, 30, MAP(5), GNTMAP_host_map, &h), GNTST_okay);
    check_true("  the data", filled(gfn_va(MAP(5)), 3));
    check_rc("  status word", gnttab_status[30], GTF_reading | GTF_writing);
    check_rc("  the entry's flags untouched", gnttab_v2[30].hdr.flags, GTF_permit_access);
    check_true("  revoke fails", !gnttab_end_access(30));
    gnttab_v2[30].hdr.flags = GTF_permit_access;            /* undo the attempt */
    check_rc("unmap", gnttab_unmap(MAP(5), h), GNTST_okay);
    check_rc("  status cleared", gnttab_status[30], 0);
    gnttab_grant_sub_page(31, self, va_gfn(pages[2]), 256, 512, 0);
    check_rc("map a sub-page grant", gnttab_map(self, 31, MAP(5), GNTMAP_host_map, &h),
             GNTST_general_error);

    sv.version = 1;
    check_rc("back to v1 (nothing but ref 1 mapped)",
             hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), 0);
    gnttab_version = 1;
    check_rc("  reserved entry 1 as v1: flags with its use",
             gnttab_v1[1].flags, GTF_permit_access | GTF_reading | GTF_writing);
    check_rc("  frame", gnttab_v1[1].frame, va_gfn(pages[6]));
    check_rc("unmap ref 1", gnttab_unmap(MAP(3), hr), GNTST_okay);
    check_rc("  flags cleared", gnttab_in_use(1), 0);
    gnttab_end_access(1);
}

static void copies(void)
{
    struct gnttab_copy c;

    printk("Copies:\n");
    fill(pages[0], 5);
    memset(pages[1], 0, PAGE_SIZE);
    c = (struct gnttab_copy){
        .source = { .u.gmfn = va_gfn(pages[0]), .domid = DOMID_SELF },
        .dest = { .u.gmfn = va_gfn(pages[1]), .domid = DOMID_SELF },
        .len = PAGE_SIZE,
    };
    check_rc("gmfn -> gmfn, a page", gnttab_copy_one(&c), GNTST_okay);
    check_true("  copied", filled(pages[1], 5));
    c.source.domid = self;
    check_rc("a gmfn named by our domid, not DOMID_SELF", gnttab_copy_one(&c),
             GNTST_permission_denied);
    c.source.domid = DOMID_SELF;
    c.source.offset = 4000;
    c.len = 200;
    check_rc("source past the page", gnttab_copy_one(&c), GNTST_bad_copy_arg);
    c.source.offset = 0;
    c.dest.offset = 3900;
    check_rc("dest past the page", gnttab_copy_one(&c), GNTST_bad_copy_arg);
    c.dest.offset = 0;
    c.len = 0;
    check_rc("len 0", gnttab_copy_one(&c), GNTST_okay);
    c.source.u.gmfn = 0x7fffffff;
    c.len = 16;
    check_rc("source not RAM", gnttab_copy_one(&c), GNTST_bad_page);
    c.source.u.gmfn = va_gfn(pages[0]);

    gnttab_grant(40, self, va_gfn(pages[2]), 0);
    gnttab_grant(41, self, va_gfn(pages[3]), GTF_readonly);
    memset(pages[2], 0, PAGE_SIZE);
    c.flags = GNTCOPY_dest_gref;
    c.dest.u.ref = 40;
    c.dest.domid = self;
    c.len = PAGE_SIZE;
    check_rc("gmfn -> gref", gnttab_copy_one(&c), GNTST_okay);
    check_true("  copied", filled(pages[2], 5));
    check_rc("  no pin left", gnttab_in_use(40), 0);
    c.dest.u.ref = 41;
    check_rc("into a GTF_readonly grant", gnttab_copy_one(&c), GNTST_general_error);
    c.dest.u.ref = 512 * 64;
    check_rc("a bad dest gref", gnttab_copy_one(&c), GNTST_bad_gntref);
    c.dest.u.ref = 40;
    c.dest.domid = 0x7000;
    check_rc("a dest gref of d0x7000", gnttab_copy_one(&c), GNTST_bad_domain);
    c.dest.domid = 0;
    check_rc("a dest gref of d0 (not granted to us)", gnttab_copy_one(&c), GNTST_general_error);

    fill(pages[3], 9);
    memset(pages[4], 0, PAGE_SIZE);
    c = (struct gnttab_copy){
        .source = { .u.ref = 41, .domid = self, .offset = 8 },
        .dest = { .u.gmfn = va_gfn(pages[4]), .domid = DOMID_SELF, .offset = 16 },
        .len = 100, .flags = GNTCOPY_source_gref,
    };
    check_rc("gref (read-only) -> gmfn, 100 bytes at offsets", gnttab_copy_one(&c), GNTST_okay);
    check_true("  copied", !memcmp(pages[4] + 16, pages[3] + 8, 100) && !pages[4][15] &&
                           !pages[4][116]);
    c.flags = GNTCOPY_source_gref | GNTCOPY_dest_gref;
    c.dest = (struct gnttab_copy_ptr){ .u.ref = 40, .domid = self, .offset = 0 };
    check_rc("gref -> gref", gnttab_copy_one(&c), GNTST_okay);
    check_true("  copied", !memcmp(pages[2], pages[3] + 8, 100));
    check_rc("  no pins left", gnttab_in_use(40) | gnttab_in_use(41), 0);
    gnttab_end_access(41);
    check_rc("from a revoked grant", gnttab_copy_one(&c), GNTST_general_error);
}

static void copies_v2(void)
{
    struct gnttab_set_version sv = { .version = 2 };
    struct gnttab_copy c;

    printk("Copies of v2 sub-page and transitive grants:\n");
    check_rc("set_version 2", hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), 0);
    /* New status frames: the old one went (and its gfn with it) at the switch to v1. */
    check_rc("status frame 0 at GNT_STATUS_GFN again",
             gnttab_map_frame(DOMID_SELF, XENMAPIDX_grant_table_status, GNT_STATUS_GFN), 0);
    gnttab_version = 2;
    fill(pages[5], 11);
    memset(pages[6], 0, PAGE_SIZE);
    gnttab_grant_sub_page(50, self, va_gfn(pages[5]), 1024, 256, 0);
    c = (struct gnttab_copy){
        .source = { .u.ref = 50, .domid = self, .offset = 1024 },
        .dest = { .u.gmfn = va_gfn(pages[6]), .domid = DOMID_SELF },
        .len = 256, .flags = GNTCOPY_source_gref,
    };
    check_rc("the whole sub-page", gnttab_copy_one(&c), GNTST_okay);
    check_true("  copied", !memcmp(pages[6], pages[5] + 1024, 256));
    check_rc("  status cleared", gnttab_status[50], 0);
    c.source.offset = 1023;
    check_rc("one byte before it", gnttab_copy_one(&c), GNTST_general_error);
    c.source.offset = 1025;
    check_rc("one byte past it", gnttab_copy_one(&c), GNTST_general_error);
    c.source.offset = 4000;
    c.len = 100;
    check_rc("past the page (checked first)", gnttab_copy_one(&c), GNTST_bad_copy_arg);
    gnttab_grant_transitive(51, self, self, 50);
    c.source = (struct gnttab_copy_ptr){ .u.ref = 51, .domid = self, .offset = 1024 };
    c.len = 16;
    check_rc("a transitive grant to ourselves", gnttab_copy_one(&c), GNTST_general_error);
    check_rc("  status cleared", gnttab_status[51], 0);
    gnttab_v2[50].hdr.flags = 0;
    gnttab_v2[51].hdr.flags = 0;
    sv.version = 1;
    check_rc("back to v1", hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), 0);
    gnttab_version = 1;
}

/*
 * A long batch is preempted and continued (Xen's continuation): our
 * second vCPU counts while vCPU 0 is inside one hypercall of 2000 page
 * copies; it must have run meanwhile, and every copy must be done.
 */
static volatile unsigned long spins;
static volatile bool stop_spinning;

static void spinner(unsigned int id __unused)
{
    while ( !stop_spinning )
    {
        spins++;
        hypercall_yield();
    }
}

#define BATCH 2000
static struct gnttab_copy batch[BATCH];

static void long_batch(void)
{
    unsigned long before, after;
    unsigned int i, bad = 0;
    long rc;

    printk("A long batch:\n");
    if ( vcpu_start(1, spinner) )
        return xtf_error("Error: cannot start vCPU 1\n");
    while ( !spins )
        hypercall_yield();
    fill(pages[0], 21);
    for ( i = 0; i < BATCH; i++ )
        batch[i] = (struct gnttab_copy){
            .source = { .u.gmfn = va_gfn(pages[0]), .domid = DOMID_SELF },
            .dest = { .u.gmfn = va_gfn(pages[1 + i % 4]), .domid = DOMID_SELF },
            .len = PAGE_SIZE, .status = 0x7777,
        };
    before = spins;
    rc = hypercall_grant_table_op(GNTTABOP_copy, batch, BATCH);
    after = spins;
    stop_spinning = true;
    for ( i = 0; i < BATCH; i++ )
        bad += batch[i].status != GNTST_okay;
    check_rc("2000 page copies in one call", rc, 0);
    check_rc("  statuses not okay", bad, 0);
    check_true("  copied", filled(pages[4], 21));
    printk("  vCPU 1 ran %lu times during the call\n", after - before);
    check_true("  it was preempted and continued (vCPU 1 ran meanwhile)", after > before);

    /*
     * A huge count over an array that ends where our memory ends: done up
     * to there, then -EFAULT.  The array is our table's last frame (its
     * entries unused), the gfn after it a hole.
     */
    {
        struct gnttab_copy *last = gfn_va(GNT_TABLE_GFN + 63);
        unsigned int n = PAGE_SIZE / sizeof(*last);

        for ( i = 0; i < n; i++ )
            last[i] = (struct gnttab_copy){
                .source = { .u.gmfn = va_gfn(pages[0]), .domid = DOMID_SELF },
                .dest = { .u.gmfn = va_gfn(pages[1]), .domid = DOMID_SELF },
                .len = 0, .status = 0x7777,
            };
        rc = hypercall_grant_table_op(GNTTABOP_copy, last, 0x7fffffff);
        check_rc("count 0x7fffffff over a page of copies", rc, -XEN_EFAULT);
        for ( i = 0, bad = 0; i < n; i++ )
            if ( last[i].status != GNTST_okay && !bad++ )
                printk("  first not done: %u (status %d)\n", i, last[i].status);
        check_rc("  the page's copies done first (statuses not okay)", bad, 0);
        memset(last, 0, PAGE_SIZE);
    }
}

static void misc(void)
{
    struct gnttab_transfer t = { .mfn = va_gfn(pages[0]), .domid = self, .ref = 60 };
    struct gnttab_swap_grant_ref s = { .ref_a = 61, .ref_b = 62 };
    struct gnttab_cache_flush cf;
    grant_handle_t h;
    struct gnttab_map_grant_ref m = {
        .host_addr = (uint64_t)MAP(6) << PAGE_SHIFT, .flags = GNTMAP_host_map,
        .ref = 63, .dom = self,
    };

    printk("Transfer, swap, cache_flush:\n");
    check_rc("transfer of a RAM gfn", hypercall_grant_table_op(GNTTABOP_transfer, &t, 1), 0);
    check_rc("  status (HVM: steal_page refuses)", t.status, GNTST_general_error);
    t.mfn = 0x7fffffff;
    check_rc("transfer of a hole", hypercall_grant_table_op(GNTTABOP_transfer, &t, 1), 0);
    check_rc("  status", t.status, GNTST_bad_page);

    gnttab_grant(61, self, 0x111, 0);
    gnttab_grant(62, 0, 0x222, GTF_readonly);
    check_rc("swap refs 61 and 62", hypercall_grant_table_op(GNTTABOP_swap_grant_ref, &s, 1), 0);
    check_rc("  status", s.status, GNTST_okay);
    check_true("  swapped", gnttab_v1[61].frame == 0x222 && gnttab_v1[62].frame == 0x111 &&
                            gnttab_v1[61].domid == 0 && gnttab_v1[62].domid == self);
    s.ref_b = 512 * 64;
    check_rc("swap with a bad ref", hypercall_grant_table_op(GNTTABOP_swap_grant_ref, &s, 1), 0);
    check_rc("  status", s.status, GNTST_bad_gntref);
    gnttab_grant(63, self, va_gfn(pages[0]), 0);
    check_rc("map ref 63", hypercall_grant_table_op(GNTTABOP_map_grant_ref, &m, 1) ?: m.status,
             GNTST_okay);
    h = m.handle;
    s = (struct gnttab_swap_grant_ref){ .ref_a = 61, .ref_b = 63 };
    check_rc("swap a mapped ref", hypercall_grant_table_op(GNTTABOP_swap_grant_ref, &s, 1), 0);
    check_rc("  status", s.status, GNTST_eagain);

    cf = (struct gnttab_cache_flush){ .a.dev_bus_addr = m.dev_bus_addr, .length = 64,
                                      .op = GNTTAB_CACHE_CLEAN };
    check_rc("cache_flush clean of the mapped grant",
             hypercall_grant_table_op(GNTTABOP_cache_flush, &cf, 1), 0);
    cf.op = GNTTAB_CACHE_INVAL;
    check_rc("cache_flush invalidate (x86: no)",
             hypercall_grant_table_op(GNTTABOP_cache_flush, &cf, 1), -XEN_EOPNOTSUPP);
    cf.op = 4;
    check_rc("cache_flush with a bad op", hypercall_grant_table_op(GNTTABOP_cache_flush, &cf, 1),
             -XEN_EINVAL);
    cf.op = GNTTAB_CACHE_CLEAN;
    cf.offset = 4090;
    check_rc("cache_flush past the page", hypercall_grant_table_op(GNTTABOP_cache_flush, &cf, 1),
             -XEN_EINVAL);
    check_rc("unmap ref 63", gnttab_unmap(MAP(6), h), GNTST_okay);
}

void ops_main(void)
{
    self = cpuid_domid();
    printk("Grant table operations of d%u on its own\n", self);
    queries();
    frames();
    mapping();
    versions();
    copies();
    copies_v2();
    misc();
    long_batch();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * role=limits, booted with gnttab_max_frames=4 gnttab_max_maptrack_frames=1
 * gnttab=max-ver:1: the host's limits bound every domain's table and
 * maptrack, and a domain cannot use version 2.
 */
#include "gnttab-test.h"

static uint8_t page[2][PAGE_SIZE] __aligned(PAGE_SIZE);

#define MAPTRACK_PER_PAGE 256           /* 16-byte entries, as Xen */

void limits_main(void)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    struct gnttab_set_version sv = { .version = 2 };
    struct gnttab_setup_table st = { .dom = DOMID_SELF };
    static grant_handle_t h[MAPTRACK_PER_PAGE + 1];
    static xen_pfn_t list[8];
    domid_t self = cpuid_domid();
    unsigned int i, n;

    printk("The host's limits:\n");
    check_rc("query_size", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1) ?: q.status, 0);
    check_rc("  max_nr_frames (gnttab_max_frames=4)", q.max_nr_frames, 4);
    check_rc("set_version 2 (gnttab=max-ver:1)",
             hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), -XEN_ENOSYS);
    check_rc("  version stays 1", sv.version, 1);
    check_rc("gnttab_setup: version 1, 1 frame", gnttab_setup(1, 1), 0);
    check_rc("frame 3", gnttab_map_frame(DOMID_SELF, 3, GNT_TABLE_GFN + 3), 0);
    check_rc("frame 4", gnttab_map_frame(DOMID_SELF, 4, GNT_TABLE_GFN + 4), -XEN_EINVAL);
    set_xen_guest_handle(st.frame_list, list);
    st.nr_frames = 5;
    check_rc("setup_table 5", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc("  status", st.status, GNTST_general_error);
    st.nr_frames = 4;
    check_rc("setup_table 4", hypercall_grant_table_op(GNTTABOP_setup_table, &st, 1) ?: st.status,
             GNTST_okay);
    check_rc("  the last frame's gfn", list[3], GNT_TABLE_GFN + 3);

    /* One maptrack page: 256 handles (two full pin counts of one grant). */
    gnttab_grant(10, self, va_gfn(page[0]), 0);
    gnttab_grant(11, self, va_gfn(page[1]), 0);
    for ( n = 0; n < MAPTRACK_PER_PAGE; n++ )
        if ( gnttab_map(self, 10, GNT_MAP_GFN + n,
                        GNTMAP_host_map | (n >= 128 ? GNTMAP_readonly : 0), &h[n]) )
            break;
    check_rc("256 mappings (gnttab_max_maptrack_frames=1)", n, MAPTRACK_PER_PAGE);
    check_rc("one more: no handle left",
             gnttab_map(self, 11, GNT_MAP_GFN + n, GNTMAP_host_map, &h[n]), GNTST_no_space);
    check_rc("  ref 11 not pinned", gnttab_in_use(11), 0);
    check_rc("unmap one", gnttab_unmap(GNT_MAP_GFN, h[0]), GNTST_okay);
    check_rc("its handle serves again",
             gnttab_map(self, 11, GNT_MAP_GFN, GNTMAP_host_map, &h[0]), GNTST_okay);
    for ( i = 0; i < n; i++ )
        if ( gnttab_unmap(GNT_MAP_GFN + i, h[i]) )
            break;
    check_rc("all unmapped", i, n);
    check_rc("  no pin left", gnttab_in_use(10) | gnttab_in_use(11), 0);
}

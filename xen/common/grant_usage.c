/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Debug key 'g' (`xl debug-keys g`): every domain's grant table and its
 * pinned entries, in Xen's layout (gnttab_usage_print_all): for each
 * domain "grant-table for remote dN (vV)", its frames and maptrack
 * frames, then one line per entry some domain has pinned (mapped or
 * copying): the reference, the domain that pinned it, the frame, the pin
 * counts (GNTPIN_*), then the shared entry's domid, frame and flags (v2:
 * its status).  "no active grant table entries" if none.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/grant_table.h>
#include "grant_private.h"

static void gnttab_usage_print(struct domain *rd)
{
    struct grant_table *gt = rd->grant_table;
    unsigned int ref, nr, shown = 0;

    printk("      -------- active --------       -------- shared --------\n");
    printk("[ref] localdom mfn      pin          localdom gmfn     flags\n");
    if ( !gnttab_alive(gt) )
    {
        printk("grant-table for remote d%d: none\n", rd->domain_id);
        return;
    }

    grant_read_lock(gt);
    printk("grant-table for remote d%d (v%u)\n"
           "  %u frames (%u max), %u maptrack frames (%u max)\n",
           rd->domain_id, gt->gt_version, gt->nr_grant_frames, gt->max_grant_frames,
           nr_maptrack_frames(gt), gt->max_maptrack_frames);
    nr = nr_grant_entries(gt);
    for ( ref = 0; ref < nr; ref++ )
    {
        struct active_grant_entry *act = active_entry_acquire(gt, ref);
        const grant_entry_header_t *sha;
        unsigned int flags;

        if ( act->pin )
        {
            sha = shared_entry_header(gt, ref);
            flags = gt->gt_version == 1 ? sha->flags : *status_entry(gt, ref);
            printk("[0x%03x]  %5d 0x%lx 0x%08x      %5d 0x%06lx 0x%02x\n",
                   ref, act->domid, act->mfn, act->pin, sha->domid,
                   shared_entry_frame(gt, ref), flags);
            shown++;
        }
        active_entry_release(act);
    }
    grant_read_unlock(gt);
    if ( !shown )
        printk("no active grant table entries\n");
}

void gnttab_usage_print_all(unsigned char key)
{
    struct domain *d;

    printk("gnttab_usage_print_all [ key '%c' pressed\n", key);
    for_each_domain ( d )
        gnttab_usage_print(d);
    printk("gnttab_usage_print_all ] done\n");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A write to a read-only grant mapping (case gnttab-ro-write): d1 grants
 * a page read-only to d2; d2 maps it (GNTMAP_readonly), reads it, then
 * writes to it.  Xen emulates the write and drops it; here the writer is
 * crashed (no instruction emulator: docs/misc/grant-tables.md).  Either
 * way the granter's page is unchanged, and once d2 is gone its mapping is
 * released and the grant can be revoked.
 */
#include "gnttab-test.h"

#define WAIT_ROUNDS 200000

static uint8_t page[PAGE_SIZE] __aligned(PAGE_SIZE);
static struct mailbox mbox __aligned(PAGE_SIZE);

void granter_ro_main(void)
{
    check_rc("grant table v1, 1 frame", gnttab_setup(1, 1), 0);
    fill_pattern(page, 0x33);
    gnttab_grant(10, DOM_MAPPER, va_gfn(page), GTF_readonly);
    gnttab_grant(11, DOM_MAPPER, va_gfn(&mbox), 0);
    check_true("d2 mapped it (step 1)", WAIT_UNTIL(mbox.step == 1, WAIT_ROUNDS));
    check_rc("  in use for reading", gnttab_in_use(10), GTF_reading);
    mbox.hello = 1;
    check_true("d2 gone (crashed): its mapping released",
               WAIT_UNTIL(!gnttab_in_use(10), WAIT_ROUNDS));
    check_true("  our page is unchanged", has_pattern(page, 0x33));
    check_true("  revoke", gnttab_end_access(10));
}

void ro_writer_main(void)
{
    volatile uint8_t *p = gfn_va(GNT_MAP_GFN);
    struct mailbox *mb = gfn_va(GNT_MAP_GFN + 1);
    grant_handle_t h;

    check_true("map d1's mailbox (ref 11)",
               WAIT_UNTIL(gnttab_map(DOM_GRANTER, 11, GNT_MAP_GFN + 1, GNTMAP_host_map, &h) ==
                          GNTST_okay, WAIT_ROUNDS));
    check_rc("map d1's ref 10 read-only", gnttab_map(DOM_GRANTER, 10, GNT_MAP_GFN,
             GNTMAP_host_map | GNTMAP_readonly, &h), GNTST_okay);
    check_true("  d1's data", has_pattern((const void *)p, 0x33));
    mb->step = 1;
    check_true("d1 looked", WAIT_UNTIL(mb->hello, WAIT_ROUNDS));
    printk("Writing to the read-only mapping: this domain should be crashed\n");
    p[8] = 0;
    xtf_failure("Fail: the write to a read-only grant mapping went through\n");
}

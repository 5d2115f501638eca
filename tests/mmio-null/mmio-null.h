/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of the unclaimed-MMIO test share (tests/mmio-null/). */
#ifndef MMIO_NULL_TEST_H
#define MMIO_NULL_TEST_H

#define MMIO_NULL_HPET  0xfed00000UL    /* nothing claims it: reads all ones */

extern unsigned int mmio_null_accesses;     /* emulated instructions so far */

/* pageend.c: emulated loads ending a page and straddling two. */
void test_page_end(void);

#endif /* MMIO_NULL_TEST_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake hypervisor for the host tests of libxenguest: a libxencall
 * backend (fake_call.c) that answers the hypercalls the builder makes --
 * XENMEM_populate_physmap, XEN_DOMCTL_gethvmcontext / sethvmcontext --
 * for one domain, FAKE_DOMID, whose memory is host pages; and a
 * libxenforeignmemory backend (fake_fmem.c) that maps those pages (a
 * mapping is a copy, written back at unmap).
 */
#ifndef TOOLS_TESTS_GUEST_FAKE_H
#define TOOLS_TESTS_GUEST_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xenctrl.h>
#include <xen/hvm/save.h>

#define FAKE_DOMID          7
#define FAKE_MAX_PFNS       (64UL << 8)     /* 64 MiB */
#define FAKE_FILL           0xcc            /* fresh pages' bytes */
#define FAKE_CPUID          0x000906ea      /* the HEADER's cpuid */

struct fake {
    /* The domain: populated pages, and the limit (max_mem). */
    uint8_t *page[FAKE_MAX_PFNS];
    unsigned long tot_pages, max_pages;
    unsigned int extents_2m, extents_4k;    /* populated so far */

    /* Behaviour. */
    bool refuse_2m;             /* 2 MiB extents fail (fragmented host) */
    int setcontext_error;       /* -Exxx for sethvmcontext, 0: succeed */
    bool context_no_header;     /* gethvmcontext returns only END */
    int map_error;              /* whole-call errno for foreign maps */

    /* What the builder did. */
    unsigned int hypercalls, populate_calls, maps, unmaps;
    unsigned int live_maps;     /* mapped, not yet unmapped */
    bool bad_map;               /* a frame outside the domain was mapped */
    uint8_t context[4096];      /* the last sethvmcontext */
    uint32_t context_size;
};

extern struct fake fake;

/* Forget everything: a fresh, empty domain with max_pages. */
void fake_reset(unsigned long max_pages);

/* The guest's byte at paddr (FAKE_FILL... if not populated: -1). */
int fake_byte(uint64_t paddr);
/* Copy len guest bytes at paddr out; false if a page is not populated. */
bool fake_read(uint64_t paddr, void *buf, size_t len);

/* Hypercall buffer pages still allocated. */
unsigned long fake_live_buffer_pages(void);

#endif /* TOOLS_TESTS_GUEST_FAKE_H */

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenforeignmemory's direct backend, for this project's control-domain
 * test kernels (tests/): no kernel in between.
 *
 * A test kernel identity-maps the low 4 GiB of its guest-physical space,
 * and only its RAM (at most a few hundred MiB) is populated.  Mappings go
 * into a window of that space above RAM, [FMEM_WINDOW_BASE_GFN,
 * + FMEM_WINDOW_PAGES): each call takes a run of free pages of the window
 * and places frame arr[i] at page i with XENMEM_add_to_physmap_batch
 * (DOMID_SELF, XENMAPSPACE_gmfn_foreign); the guest-physical address of
 * the run is the pointer returned.  Unmapping removes each page with
 * XENMEM_remove_from_physmap and frees the run.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "private.h"
#include <xen/memory.h>

/* 2 GiB to 3 GiB, guest-physical. */
#define FMEM_WINDOW_BASE_GFN    0x80000UL
#define FMEM_WINDOW_PAGES       0x40000UL

/* Frames passed to the hypervisor in one add_to_physmap_batch. */
#define FMEM_BATCH              64

#define BITS_PER_WORD           64
static uint64_t window_used[FMEM_WINDOW_PAGES / BITS_PER_WORD];

/*
 * Provided by the environment (tests/common/hypercall.c): the hypercall
 * through the hypercall page; returns -XEN_Exxx (the negated errno) on
 * failure, -ENOSYS when there is no hypercall page.
 */
long hypercall6(unsigned int nr, unsigned long a1, unsigned long a2,
                unsigned long a3, unsigned long a4, unsigned long a5);

static bool page_used(unsigned long i)
{
    return (window_used[i / BITS_PER_WORD] >> (i % BITS_PER_WORD)) & 1;
}

static void mark_pages(unsigned long first, unsigned long num, bool used)
{
    unsigned long i;

    for ( i = first; i < first + num; i++ )
    {
        if ( used )
            window_used[i / BITS_PER_WORD] |= 1ULL << (i % BITS_PER_WORD);
        else
            window_used[i / BITS_PER_WORD] &= ~(1ULL << (i % BITS_PER_WORD));
    }
}

/* First fit: the index of 'num' free pages in a row, or -1. */
static long window_alloc(unsigned long num)
{
    unsigned long i = 0, run = 0;

    while ( i < FMEM_WINDOW_PAGES )
    {
        /* Whole used words are skipped at once. */
        if ( !(i % BITS_PER_WORD) && window_used[i / BITS_PER_WORD] == ~0ULL )
        {
            run = 0;
            i += BITS_PER_WORD;
            continue;
        }
        run = page_used(i) ? 0 : run + 1;
        i++;
        if ( run == num )
        {
            mark_pages(i - num, num, true);
            return (long)(i - num);
        }
    }

    return -1;
}

int osdep_xenforeignmemory_open(xenforeignmemory_handle *fmem)
{
    (void)fmem;
    return 0;
}

int osdep_xenforeignmemory_close(xenforeignmemory_handle *fmem)
{
    (void)fmem;
    return 0;
}

static long remove_page(xen_pfn_t gpfn)
{
    struct xen_remove_from_physmap r = {
        .domid = DOMID_SELF,
        .gpfn = gpfn,
    };

    return hypercall6(__HYPERVISOR_memory_op, XENMEM_remove_from_physmap,
                      (unsigned long)&r, 0, 0, 0);
}

/* Remove pages [first, first + num) of the window that err[] says are in. */
static void unmap_pages(unsigned long first, size_t num, const int err[])
{
    size_t i;

    for ( i = 0; i < num; i++ )
        if ( !err || !err[i] )
            (void)remove_page(FMEM_WINDOW_BASE_GFN + first + i);
}

void *osdep_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                                 int prot, size_t num,
                                 const xen_pfn_t arr[], int err[])
{
    xen_ulong_t idxs[FMEM_BATCH];
    xen_pfn_t gpfns[FMEM_BATCH];
    long first, rc;
    size_t done, i, n;

    (void)prot;                 /* always read-write */

    if ( num > FMEM_WINDOW_PAGES || (first = window_alloc(num)) < 0 )
    {
        errno = ENOMEM;
        PERROR("No room for %zu pages in the foreign mapping window", num);
        return NULL;
    }

    for ( done = 0; done < num; done += n )
    {
        struct xen_add_to_physmap_batch b = {
            .domid = DOMID_SELF,
            .space = XENMAPSPACE_gmfn_foreign,
            .u.foreign_domid = (domid_t)dom,
        };

        n = num - done < FMEM_BATCH ? num - done : FMEM_BATCH;
        for ( i = 0; i < n; i++ )
        {
            idxs[i] = arr[done + i];
            gpfns[i] = FMEM_WINDOW_BASE_GFN + first + done + i;
            err[done + i] = 0;
        }
        b.size = (uint16_t)n;
        set_xen_guest_handle_raw(b.idxs, idxs);
        set_xen_guest_handle_raw(b.gpfns, gpfns);
        set_xen_guest_handle_raw(b.errs, &err[done]);

        rc = hypercall6(__HYPERVISOR_memory_op, XENMEM_add_to_physmap_batch,
                        (unsigned long)&b, 0, 0, 0);
        if ( rc < 0 )
        {
            /* Nothing of this batch was tried: undo the earlier ones. */
            unmap_pages(first, done, err);
            mark_pages(first, num, false);
            errno = -rc;
            PERROR("Mapping frames of d%u failed", dom);
            return NULL;
        }
    }

    return (void *)((FMEM_WINDOW_BASE_GFN + first) << XENFOREIGNMEMORY_PAGE_SHIFT);
}

int osdep_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr,
                                 size_t num)
{
    unsigned long gfn = (uintptr_t)addr >> XENFOREIGNMEMORY_PAGE_SHIFT;
    unsigned long first = gfn - FMEM_WINDOW_BASE_GFN;

    (void)fmem;
    if ( gfn < FMEM_WINDOW_BASE_GFN || first >= FMEM_WINDOW_PAGES ||
         num > FMEM_WINDOW_PAGES - first )
    {
        errno = EINVAL;
        return -1;
    }

    /* Pages that failed to map were never added: their removal fails. */
    unmap_pages(first, num, NULL);
    mark_pages(first, num, false);

    return 0;
}

/*
 * A resource: XENMEM_acquire_resource places its frames at a run of the
 * window (the hint is ignored); unmapping removes them like foreign frames.
 */
int osdep_xenforeignmemory_map_resource(xenforeignmemory_handle *fmem,
                                        xenforeignmemory_resource_handle *fres)
{
    xen_pfn_t gpfns[FMEM_BATCH];
    struct xen_mem_acquire_resource ar = {
        .domid = fres->domid,
        .type = (uint16_t)fres->type,
        .id = fres->id,
        .frame = fres->frame,
        .nr_frames = (uint32_t)fres->nr_frames,
    };
    long first, rc;
    unsigned long i;

    (void)fmem;
    if ( fres->nr_frames > FMEM_BATCH )
    {
        errno = E2BIG;
        return -1;
    }
    if ( (first = window_alloc(fres->nr_frames)) < 0 )
    {
        errno = ENOMEM;
        return -1;
    }
    for ( i = 0; i < fres->nr_frames; i++ )
        gpfns[i] = FMEM_WINDOW_BASE_GFN + first + i;
    set_xen_guest_handle_raw(ar.frame_list, gpfns);
    rc = hypercall6(__HYPERVISOR_memory_op, XENMEM_acquire_resource,
                    (unsigned long)&ar, 0, 0, 0);
    if ( rc < 0 )
    {
        mark_pages(first, fres->nr_frames, false);
        errno = -rc;
        return -1;
    }
    fres->addr = (void *)((FMEM_WINDOW_BASE_GFN + first) << XENFOREIGNMEMORY_PAGE_SHIFT);
    return 0;
}

int osdep_xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                          xenforeignmemory_resource_handle *fres)
{
    return fres->addr ? osdep_xenforeignmemory_unmap(fmem, fres->addr, fres->nr_frames) : 0;
}

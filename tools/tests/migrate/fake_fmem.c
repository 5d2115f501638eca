/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxenforeignmemory backend (see fake.h): a
 * mapping is a copy of the frames, written back at unmap if it was mapped
 * writable.  Frames not populated fail with EINVAL in err[].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fake.h"
#include "private.h"            /* tools/libs/foreignmemory */

#define MAX_MAPS 16

static struct {
    uint8_t *addr;
    size_t num;
    uint32_t dom;
    bool writable;
    xen_pfn_t *pfns;
    int *err;
} maps[MAX_MAPS];

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

void *osdep_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                                 int prot, size_t num,
                                 const xen_pfn_t arr[], int err[])
{
    struct fake_dom *d;
    unsigned int m;

    (void)fmem;
    fake_run_writers(num);
    fake_clock_pass(num * FAKE_NS_PER_PAGE);
    if ( fake.fail_map_at && --fake.fail_map_at == 0 )
    {
        errno = fake.fail_errno ? fake.fail_errno : EFAULT;
        return NULL;
    }
    d = fake_find(dom);
    if ( !d )
    {
        errno = ESRCH;
        return NULL;
    }
    for ( m = 0; m < MAX_MAPS && maps[m].addr; m++ )
        ;
    if ( m == MAX_MAPS )
    {
        errno = ENOMEM;
        return NULL;
    }
    maps[m].addr = aligned_alloc(4096, num * 4096);
    maps[m].pfns = malloc(num * sizeof(*arr));
    maps[m].err = malloc(num * sizeof(*err));
    maps[m].num = num;
    maps[m].dom = dom;
    maps[m].writable = prot & PROT_WRITE;
    memcpy(maps[m].pfns, arr, num * sizeof(*arr));
    for ( size_t i = 0; i < num; i++ )
    {
        uint8_t *src = arr[i] < FAKE_MAX_PFNS ? d->page[arr[i]] : NULL;

        err[i] = src ? 0 : -EINVAL;
        if ( src )
            memcpy(maps[m].addr + i * 4096, src, 4096);
        else
            memset(maps[m].addr + i * 4096, 0, 4096);
    }
    memcpy(maps[m].err, err, num * sizeof(*err));
    fake.maps++;
    fake.live_maps++;
    return maps[m].addr;
}

int osdep_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr,
                                 size_t num)
{
    struct fake_dom *d;
    unsigned int m;

    (void)fmem;
    for ( m = 0; m < MAX_MAPS && maps[m].addr != addr; m++ )
        ;
    if ( m == MAX_MAPS || maps[m].num != num )
    {
        errno = EINVAL;
        return -1;
    }
    d = fake_find(maps[m].dom);
    for ( size_t i = 0; d && maps[m].writable && i < num; i++ )
        if ( !maps[m].err[i] && d->page[maps[m].pfns[i]] )
            memcpy(d->page[maps[m].pfns[i]], maps[m].addr + i * 4096, 4096);
    free(maps[m].addr);
    free(maps[m].pfns);
    free(maps[m].err);
    memset(&maps[m], 0, sizeof(maps[m]));
    fake.unmaps++;
    fake.live_maps--;
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxenforeignmemory backend (see fake.h):
 * implements the osdep_* interface of tools/libs/foreignmemory/private.h.
 * A mapping is a copy of the frames, written back when it is unmapped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "private.h"            /* tools/libs/foreignmemory */

#define MAX_MAPS 16

static struct {
    uint8_t *addr;
    size_t num;
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
    unsigned int m;
    size_t i;

    (void)fmem; (void)prot;
    if ( fake.map_error )
    {
        errno = fake.map_error;
        return NULL;
    }
    if ( dom != FAKE_DOMID )
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
    memcpy(maps[m].pfns, arr, num * sizeof(*arr));
    for ( i = 0; i < num; i++ )
    {
        uint8_t *src = arr[i] < FAKE_MAX_PFNS ? fake.page[arr[i]] : NULL;

        err[i] = src ? 0 : -EINVAL;
        if ( src )
            memcpy(maps[m].addr + i * 4096, src, 4096);
        else
        {
            memset(maps[m].addr + i * 4096, 0, 4096);
            fake.bad_map = true;
        }
    }
    memcpy(maps[m].err, err, num * sizeof(*err));
    fake.maps++;
    fake.live_maps++;
    return maps[m].addr;
}

int osdep_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr,
                                 size_t num)
{
    unsigned int m;
    size_t i;

    (void)fmem;
    for ( m = 0; m < MAX_MAPS && maps[m].addr != addr; m++ )
        ;
    if ( m == MAX_MAPS || maps[m].num != num )
    {
        errno = EINVAL;
        return -1;
    }
    for ( i = 0; i < num; i++ )
        if ( !maps[m].err[i] )
            memcpy(fake.page[maps[m].pfns[i]], maps[m].addr + i * 4096, 4096);
    free(maps[m].addr);
    free(maps[m].pfns);
    free(maps[m].err);
    memset(&maps[m], 0, sizeof(maps[m]));
    fake.unmaps++;
    fake.live_maps--;
    return 0;
}

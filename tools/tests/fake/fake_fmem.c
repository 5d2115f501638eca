/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxenforeignmemory backend (see fake.h): the
 * osdep_* interface of tools/libs/foreignmemory/private.h.  A mapping is a
 * copy of the frames, written back at unmap if it was mapped writable;
 * frames not populated fail with -EINVAL in err[].  Mapping takes time on
 * the fake clock, and running guests' writers write meanwhile.
 */
#include <sys/mman.h>

#include "fake_private.h"
#include "../../libs/foreignmemory/private.h"

#define MAX_MAPS 64

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
    int rc;

    fake_state_load();
    rc = fake_injected("fmem_open");
    if ( rc )
    {
        errno = -rc;
        PERROR("fake: cannot open");
        return -1;
    }
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
    int rc;

    (void)fmem;
    fake_run_writers(num);
    fake_clock_pass(num * FAKE_NS_PER_PAGE);
    if ( (rc = fake_injected("map")) )
    {
        errno = -rc;
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
    maps[m].addr = aligned_alloc(XC_PAGE_SIZE, num * XC_PAGE_SIZE);
    maps[m].pfns = malloc(num * sizeof(*arr));
    maps[m].err = malloc(num * sizeof(*err));
    if ( !maps[m].addr || !maps[m].pfns || !maps[m].err )
        abort();
    maps[m].num = num;
    maps[m].dom = dom;
    maps[m].writable = prot & PROT_WRITE;
    memcpy(maps[m].pfns, arr, num * sizeof(*arr));
    for ( size_t i = 0; i < num; i++ )
    {
        uint8_t *to = maps[m].addr + i * XC_PAGE_SIZE;

        err[i] = fake_populated(d, arr[i]) ? 0 : -EINVAL;
        if ( !err[i] )
            fake_page_read(d, arr[i], to);
        else
        {
            memset(to, 0, XC_PAGE_SIZE);
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
    struct fake_dom *d;
    unsigned int m;
    bool wrote = false;

    (void)fmem;
    for ( m = 0; m < MAX_MAPS && maps[m].addr != addr; m++ )
        ;
    if ( m == MAX_MAPS || maps[m].num != num )
    {
        errno = EINVAL;
        return -1;
    }
    d = maps[m].writable ? fake_touch(maps[m].dom) : NULL;
    for ( size_t i = 0; d && i < num; i++ )
    {
        uint8_t *page;

        if ( maps[m].err[i] || !(page = fake_page(d, maps[m].pfns[i])) )
            continue;
        memcpy(page, maps[m].addr + i * XC_PAGE_SIZE, XC_PAGE_SIZE);
        wrote = true;
    }
    free(maps[m].addr);
    free(maps[m].pfns);
    free(maps[m].err);
    memset(&maps[m], 0, sizeof(maps[m]));
    fake.unmaps++;
    fake.live_maps--;
    if ( wrote )
        fake_state_save();
    return 0;
}

/*
 * XENMEM_acquire_resource: frame 0 of a domain's grant table (what
 * xc_dom_gnttab_seed maps), in place; anything else -EINVAL.
 */
int osdep_xenforeignmemory_map_resource(xenforeignmemory_handle *fmem,
                                        xenforeignmemory_resource_handle *fres)
{
    struct fake_dom *d;
    int rc;

    (void)fmem;
    fake_log("acquire_resource %u type=%u id=%u frame=%lu nr=%lu", fres->domid,
             fres->type, fres->id, fres->frame, fres->nr_frames);
    if ( (rc = fake_injected("acquire_resource")) )
    {
        errno = -rc;
        return -1;
    }
    if ( !(d = fake_touch(fres->domid)) )
    {
        errno = ESRCH;
        return -1;
    }
    if ( fres->type != XENMEM_resource_grant_table ||
         fres->id != XENMEM_resource_grant_table_id_shared ||
         fres->frame != 0 || fres->nr_frames != 1 )
    {
        errno = EINVAL;
        return -1;
    }
    fres->addr = d->gnttab;
    d->resource_maps++;
    d->live_resource_maps++;
    return 0;
}

int osdep_xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                          xenforeignmemory_resource_handle *fres)
{
    struct fake_dom *d = fake_find(fres->domid);

    (void)fmem;
    if ( !d || fres->addr != d->gnttab || !d->live_resource_maps )
    {
        errno = EINVAL;
        return -1;
    }
    d->live_resource_maps--;
    return 0;
}

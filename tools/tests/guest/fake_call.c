/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxencall backend (see fake.h): implements the
 * osdep_* interface of tools/libs/call/private.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "private.h"            /* tools/libs/call */
#include <xen/memory.h>

struct fake fake;
static unsigned long live_buffer_pages;

void fake_reset(unsigned long max_pages)
{
    unsigned long i;

    for ( i = 0; i < FAKE_MAX_PFNS; i++ )
        free(fake.page[i]);
    memset(&fake, 0, sizeof(fake));
    fake.max_pages = max_pages;
}

int fake_byte(uint64_t paddr)
{
    uint64_t pfn = paddr >> 12;

    if ( pfn >= FAKE_MAX_PFNS || !fake.page[pfn] )
        return -1;
    return fake.page[pfn][paddr & 0xfff];
}

bool fake_read(uint64_t paddr, void *buf, size_t len)
{
    uint8_t *b = buf;
    size_t i;

    for ( i = 0; i < len; i++ )
    {
        int v = fake_byte(paddr + i);

        if ( v < 0 )
            return false;
        b[i] = (uint8_t)v;
    }
    return true;
}

unsigned long fake_live_buffer_pages(void)
{
    return live_buffer_pages;
}

/* XENMEM_populate_physmap, as the hypervisor does it. */
static long populate(struct xen_memory_reservation *r)
{
    xen_pfn_t *gfns = r->extent_start.p;
    unsigned long n = 1UL << r->extent_order, i, j;

    fake.populate_calls++;
    if ( r->domid != FAKE_DOMID )
        return -ESRCH;
    if ( r->extent_order != 0 && r->extent_order != 9 )
        return -EINVAL;

    for ( i = 0; i < r->nr_extents; i++ )
    {
        xen_pfn_t gfn = gfns[i];

        if ( (gfn & (n - 1)) || gfn + n > FAKE_MAX_PFNS ||
             fake.tot_pages + n > fake.max_pages ||
             (r->extent_order && fake.refuse_2m) )
            break;
        for ( j = 0; j < n && !fake.page[gfn + j]; j++ )
            ;
        if ( j < n )
            break;                          /* already populated */
        for ( j = 0; j < n; j++ )
        {
            fake.page[gfn + j] = malloc(4096);
            memset(fake.page[gfn + j], FAKE_FILL, 4096);
        }
        fake.tot_pages += n;
        if ( r->extent_order )
            fake.extents_2m++;
        else
            fake.extents_4k++;
    }
    return (long)i;
}

static long hvmcontext(struct xen_domctl *d)
{
    struct xen_domctl_hvmcontext *h = &d->u.hvmcontext;
    struct hvm_save_descriptor desc;
    struct hvm_save_header hdr = {
        .magic = HVM_FILE_MAGIC,
        .version = HVM_FILE_VERSION,
        .changeset = 0x1234,
        .cpuid = FAKE_CPUID,
        .gtsc_khz = 2400000,
    };
    uint8_t *buf = h->buffer.p;
    uint32_t need = fake.context_no_header ? sizeof(desc)
                                           : 2 * sizeof(desc) + sizeof(hdr);
    uint32_t off = 0;

    if ( d->cmd == XEN_DOMCTL_sethvmcontext )
    {
        if ( fake.setcontext_error )
            return fake.setcontext_error;
        if ( h->size > sizeof(fake.context) )
            return -EINVAL;
        memcpy(fake.context, buf, h->size);
        fake.context_size = h->size;
        return 0;
    }

    if ( !buf )
    {
        h->size = need;
        return 0;
    }
    if ( h->size < need )
        return -ENOSPC;
    if ( !fake.context_no_header )
    {
        desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(HEADER), 0, sizeof(hdr) };
        memcpy(buf, &desc, sizeof(desc));
        memcpy(buf + sizeof(desc), &hdr, sizeof(hdr));
        off = sizeof(desc) + sizeof(hdr);
    }
    desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(END), 0, 0 };
    memcpy(buf + off, &desc, sizeof(desc));
    h->size = need;
    return 0;
}

static long domctl(struct xen_domctl *d)
{
    if ( d->interface_version != XEN_DOMCTL_INTERFACE_VERSION )
        return -EACCES;
    if ( d->domain != FAKE_DOMID )
        return -ESRCH;

    switch ( d->cmd )
    {
    case XEN_DOMCTL_gethvmcontext:
    case XEN_DOMCTL_sethvmcontext:
        return hvmcontext(d);
    case XEN_DOMCTL_max_mem:
        fake.max_pages = d->u.max_mem.max_memkb >> 2;
        return 0;
    default:
        return -ENOSYS;
    }
}

int osdep_xencall_open(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    long rc = -ENOSYS;

    (void)xcall;
    fake.hypercalls++;
    if ( call->op == __HYPERVISOR_memory_op &&
         call->arg[0] == XENMEM_populate_physmap )
        rc = populate((void *)(uintptr_t)call->arg[1]);
    else if ( call->op == __HYPERVISOR_domctl )
        rc = domctl((void *)(uintptr_t)call->arg[0]);

    if ( rc < 0 )
    {
        errno = -rc;
        return -1;
    }
    return rc;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    void *p;

    (void)xcall;
    p = aligned_alloc(XENCALL_PAGE_SIZE, nr_pages * XENCALL_PAGE_SIZE);
    if ( !p )
        return NULL;
    memset(p, 0, nr_pages * XENCALL_PAGE_SIZE);
    live_buffer_pages += nr_pages;
    return p;
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    (void)xcall;
    live_buffer_pages -= nr_pages;
    free(p);
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    (void)xcall;
    return 1;
}

void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
}

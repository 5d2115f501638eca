/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: the domain builder's image (struct xc_dom_image), its
 * memory, the kernel and modules given to it, the guest's memory layout,
 * and loading the kernel and modules into the guest through foreign
 * mappings.  Xen's xg_dom_core.c, for PVH guests only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "xg_private.h"

/* Guest pages mapped at once while copying. */
#define COPY_CHUNK_PAGES 512

/* ---- memory the builder owns ------------------------------------------- */

void *xc_dom_malloc(struct xc_dom_image *dom, size_t size)
{
    struct xc_dom_mem *block;

    if ( size > SIZE_MAX - sizeof(*block) )
    {
        errno = ENOMEM;
        return NULL;
    }
    block = malloc(sizeof(*block) + size);
    if ( !block )
    {
        errno = ENOMEM;
        return NULL;
    }
    memset(block, 0, sizeof(*block) + size);
    block->len = size;
    block->next = dom->memblocks;
    dom->memblocks = block;
    return block->memory;
}

char *xc_dom_strdup(struct xc_dom_image *dom, const char *str)
{
    size_t len = strlen(str) + 1;
    char *copy = xc_dom_malloc(dom, len);

    if ( copy )
        memcpy(copy, str, len);
    return copy;
}

/* ---- the image ------------------------------------------------------------ */

struct xc_dom_image *xc_dom_allocate(xc_interface *xch,
                                     const char *cmdline, const char *features)
{
    struct xc_dom_image *dom;

    (void)features;             /* no feature negotiation for PVH here */

    if ( !xch )
    {
        errno = EINVAL;
        return NULL;
    }
    dom = calloc(1, sizeof(*dom));
    if ( !dom )
    {
        errno = ENOMEM;
        return NULL;
    }
    dom->xch = xch;
    dom->container_type = XC_DOM_HVM_CONTAINER;
    dom->max_vcpus = 1;
    dom->max_kernel_size = XC_DOM_DECOMPRESS_MAX;
    dom->max_module_size = XC_DOM_DECOMPRESS_MAX;
    dom->console_pfn = dom->xenstore_pfn = INVALID_PFN;

    if ( cmdline )
    {
        dom->cmdline = xc_dom_strdup(dom, cmdline);
        if ( !dom->cmdline )
        {
            xc_dom_release(dom);
            errno = ENOMEM;
            return NULL;
        }
        dom->cmdline_size = strlen(cmdline) + 1;
    }

    DOMPRINTF("cmdline=\"%s\"", cmdline ? cmdline : "");
    return dom;
}

void xc_dom_release(struct xc_dom_image *dom)
{
    struct xc_dom_mem *block, *next;
    int saved_errno = errno;

    if ( !dom )
        return;

    xenforeignmemory_close(dom->fmem);
    for ( block = dom->memblocks; block; block = next )
    {
        next = block->next;
        free(block);
    }
    free(dom);
    errno = saved_errno;
}

int xc_dom_kernel_check_size(struct xc_dom_image *dom, size_t sz)
{
    if ( dom->max_kernel_size && sz > dom->max_kernel_size )
    {
        xc_dom_panic(dom->xch, XC_INVALID_KERNEL, E2BIG,
                     "kernel image too large (%zu bytes, at most %zu)", sz,
                     dom->max_kernel_size);
        return -1;
    }
    return 0;
}

int xc_dom_kernel_max_size(struct xc_dom_image *dom, size_t sz)
{
    dom->max_kernel_size = sz;
    return 0;
}

int xc_dom_module_max_size(struct xc_dom_image *dom, size_t sz)
{
    dom->max_module_size = sz;
    return 0;
}

int xc_dom_kernel_mem(struct xc_dom_image *dom, const void *mem,
                      size_t memsize)
{
    if ( xc_dom_kernel_check_size(dom, memsize) )
        return -1;
    dom->kernel_blob = (void *)mem;
    dom->kernel_size = memsize;
    return 0;
}

int xc_dom_module_mem(struct xc_dom_image *dom, const void *mem,
                      size_t memsize, const char *cmdline)
{
    struct xc_dom_module *mod;

    if ( dom->num_modules >= XG_MAX_MODULES )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, E2BIG,
                     "too many modules (at most %d)", XG_MAX_MODULES);
        return -1;
    }
    if ( dom->max_module_size && memsize > dom->max_module_size )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, E2BIG,
                     "module too large (%zu bytes, at most %zu)", memsize,
                     dom->max_module_size);
        return -1;
    }

    mod = &dom->modules[dom->num_modules];
    memset(mod, 0, sizeof(*mod));
    if ( cmdline && !(mod->cmdline = xc_dom_strdup(dom, cmdline)) )
        return -1;
    mod->blob = (void *)mem;
    mod->size = memsize;
    dom->num_modules++;
    return 0;
}

bool xc_dom_translated(const struct xc_dom_image *dom)
{
    (void)dom;
    return true;
}

/* ---- parsing and the layout ----------------------------------------------- */

int xc_dom_parse_image(struct xc_dom_image *dom)
{
    return xg_dom_elf_parse(dom);
}

/*
 * The command lines (the guest's and each module's) share the start-info
 * page from XG_PVH_SI_CMDLINE on.
 */
static size_t cmdlines_size(const struct xc_dom_image *dom)
{
    size_t n = (dom->cmdline ? strlen(dom->cmdline) : 0) + 1;
    unsigned int i;

    for ( i = 0; i < dom->num_modules; i++ )
        if ( dom->modules[i].cmdline )
            n += strlen(dom->modules[i].cmdline) + 1;
    return n;
}

int xc_dom_mem_init(struct xc_dom_image *dom, unsigned int mem_mb)
{
    xc_interface *xch = dom->xch;
    xen_paddr_t ram, si, next;
    unsigned int i;

    if ( mem_mb < XG_PVH_MIN_MEM_MB || mem_mb > XG_PVH_MAX_MEM_MB )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL,
                     "memory size %u MiB out of range (%u-%u MiB)", mem_mb,
                     XG_PVH_MIN_MEM_MB, XG_PVH_MAX_MEM_MB);
        return -1;
    }
    if ( !dom->kernel_seg.vend )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL,
                     "the kernel image has not been parsed");
        return -1;
    }
    if ( cmdlines_size(dom) > XG_PAGE_SIZE - XG_PVH_SI_CMDLINE )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, E2BIG,
                     "command lines too long (%zu bytes with their NULs, at "
                     "most %lu)", cmdlines_size(dom),
                     XG_PAGE_SIZE - XG_PVH_SI_CMDLINE);
        return -1;
    }

    ram = (xen_paddr_t)mem_mb << 20;
    si = ram - XG_PAGE_SIZE;
    dom->total_pages = ram >> XG_PAGE_SHIFT;
    dom->lowmem_end = ram;
    dom->start_info_seg.vstart = si;
    dom->start_info_seg.vend = ram;
    dom->start_info_seg.pfn = si >> XG_PAGE_SHIFT;
    dom->start_info_seg.pages = 1;

    /* The kernel's segments: RAM from 1 MiB below the start info. */
    if ( xg_dom_elf_check_ram(dom, XG_PVH_HIGH_RAM_START, si) )
        return -1;

    /* Modules after the kernel, each on pages of its own. */
    next = (dom->kernel_seg.vend + XG_PAGE_SIZE - 1) & ~(xen_paddr_t)(XG_PAGE_SIZE - 1);
    for ( i = 0; i < dom->num_modules; i++ )
    {
        struct xc_dom_module *mod = &dom->modules[i];
        xen_paddr_t pages = (mod->size + XG_PAGE_SIZE - 1) >> XG_PAGE_SHIFT;

        if ( next > si || pages > (si - next) >> XG_PAGE_SHIFT )
        {
            xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL,
                         "module %u (%zu bytes) does not fit in guest RAM "
                         "after the kernel (%#"PRIx64"-%#"PRIx64")", i,
                         mod->size, next, si);
            return -1;
        }
        mod->seg.vstart = next;
        mod->seg.vend = next + mod->size;
        mod->seg.pfn = next >> XG_PAGE_SHIFT;
        mod->seg.pages = pages;
        next += pages << XG_PAGE_SHIFT;
    }
    if ( dom->num_modules )
    {
        dom->initrd_start = dom->modules[0].seg.vstart;
        dom->initrd_len = dom->modules[0].size;
    }

    DOMPRINTF("%u MiB: %lu pages, start info at %#"PRIx64", %u module(s)",
              mem_mb, (unsigned long)dom->total_pages, si, dom->num_modules);
    return 0;
}

/* ---- writing the guest -------------------------------------------------- */

int xg_dom_copy_to_guest(struct xc_dom_image *dom, xen_paddr_t paddr,
                         const void *src, size_t len)
{
    if ( !len )
        return 0;
    if ( paddr >= (xen_paddr_t)dom->total_pages << XG_PAGE_SHIFT ||
         len > ((xen_paddr_t)dom->total_pages << XG_PAGE_SHIFT) - paddr )
    {
        xc_dom_panic(dom->xch, XC_INTERNAL_ERROR, EINVAL,
                     "%#zx bytes at %#"PRIx64" lie outside the guest's RAM",
                     len, paddr);
        return -1;
    }
    return xg_dom_write_frames(dom, paddr, src, len);
}

int xg_dom_write_frames(struct xc_dom_image *dom, xen_paddr_t paddr,
                        const void *src, size_t len)
{
    xc_interface *xch = dom->xch;
    const uint8_t *s = src;
    xen_pfn_t *pfns;
    int rc = 0;

    if ( !len )
        return 0;
    if ( !dom->fmem )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, EINVAL,
                     "no domain to write to (xc_dom_boot_xen_init first)");
        return -1;
    }

    pfns = malloc(COPY_CHUNK_PAGES * sizeof(*pfns));
    if ( !pfns )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory for a mapping");
        return -1;
    }

    while ( len )
    {
        xen_pfn_t first = paddr >> XG_PAGE_SHIFT;
        size_t offset = paddr & (XG_PAGE_SIZE - 1);
        size_t pages = (offset + len + XG_PAGE_SIZE - 1) >> XG_PAGE_SHIFT;
        size_t chunk, i;
        uint8_t *map;

        if ( pages > COPY_CHUNK_PAGES )
            pages = COPY_CHUNK_PAGES;
        chunk = (pages << XG_PAGE_SHIFT) - offset;
        if ( chunk > len )
            chunk = len;

        for ( i = 0; i < pages; i++ )
            pfns[i] = first + i;
        map = xenforeignmemory_map(dom->fmem, dom->guest_domid,
                                   PROT_READ | PROT_WRITE, pages, pfns, NULL);
        if ( !map )
        {
            xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                         "cannot map d%u's frames %#"PRIpfn"-%#"PRIpfn": %s",
                         dom->guest_domid, first, first + pages - 1,
                         strerror(errno));
            rc = -1;
            break;
        }
        if ( s )
        {
            memcpy(map + offset, s, chunk);
            s += chunk;
        }
        else
            memset(map + offset, 0, chunk);
        xenforeignmemory_unmap(dom->fmem, map, pages);

        paddr += chunk;
        len -= chunk;
    }

    free(pfns);
    return rc;
}

int xc_dom_build_image(struct xc_dom_image *dom)
{
    unsigned int i;

    if ( !dom->total_pages )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, EINVAL,
                     "no memory layout (xc_dom_mem_init first)");
        return -1;
    }

    if ( xg_dom_elf_load(dom) )
        return -1;

    for ( i = 0; i < dom->num_modules; i++ )
    {
        const struct xc_dom_module *mod = &dom->modules[i];

        if ( xg_dom_copy_to_guest(dom, mod->seg.vstart, mod->blob, mod->size) )
            return -1;
        DOMPRINTF("module %u: %zu bytes at %#"PRIx64, i, mod->size,
                  mod->seg.vstart);
    }

    if ( xg_dom_alloc_magic_pages(dom) || xg_dom_load_acpi(dom) )
        return -1;
    return 0;
}

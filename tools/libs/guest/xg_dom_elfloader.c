/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: the PVH kernel loader, on libelf (xen/common/libelf, the
 * parser the hypervisor's own builder uses, compiled into this library as
 * in Xen).  ELF32 and ELF64 x86 images are accepted; the image is checked
 * whole before anything is written to the guest, and each problem has its
 * own message (libelf's), failing with errno EINVAL and XC_INVALID_KERNEL.
 * Segments are placed at their physical addresses (p_paddr): for Linux's
 * vmlinux the virtual ones are the kernel's high mapping.
 */
#include <inttypes.h>

#include "xg_private.h"
#include <xen/libelf/libelf.h>

/*
 * libelf's checks of the image alone (elf_init, elf_parse_binary): the
 * image is in dom->kernel_blob for the builder's whole life, so each step
 * re-reads it rather than keeping a parser's state.
 */
static int elf_open(struct xc_dom_image *dom, struct elf_binary *elf)
{
    if ( elf_init(elf, dom->kernel_blob, dom->kernel_size) ||
         elf_parse_binary(elf) )
    {
        xc_dom_panic(dom->xch, XC_INVALID_KERNEL, EINVAL, "%s", elf->err);
        return -1;
    }
    return 0;
}

int xg_dom_elf_parse(struct xc_dom_image *dom)
{
    struct elf_binary elf;
    struct elf_dom_parms parms;

    if ( !dom->kernel_blob )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, EINVAL, "no kernel image given");
        return -1;
    }
    if ( elf_open(dom, &elf) )
        return -1;
    if ( elf_xen_parse(&elf, &parms, true) )
    {
        xc_dom_panic(dom->xch, XC_INVALID_KERNEL, EINVAL, "%s", elf.err);
        return -1;
    }

    dom->phys_entry = parms.phys_entry;
    dom->guest_type = "hvm-3.0-x86_32";
    dom->kernel_seg.vstart = elf.pstart;
    dom->kernel_seg.vend = elf.pend;
    dom->kernel_seg.pfn = elf.pstart >> XG_PAGE_SHIFT;
    dom->kernel_seg.pages = ((elf.pend + XG_PAGE_SIZE - 1) >> XG_PAGE_SHIFT) -
                            dom->kernel_seg.pfn;
    DOMPRINTF("PVH kernel (%s, machine %u): %u loadable segment(s) at "
              "%#"PRIx64"-%#"PRIx64", entry %#"PRIx64, elf_class_name(&elf),
              elf.machine, elf.nr_load, elf.pstart, elf.pend, dom->phys_entry);
    return 0;
}

int xg_dom_elf_check_ram(struct xc_dom_image *dom, xen_paddr_t ram_start,
                         xen_paddr_t ram_end)
{
    struct elf_binary elf;

    if ( elf_open(dom, &elf) )
        return -1;
    if ( elf_check_load_range(&elf, ram_start, ram_end) )
    {
        xc_dom_panic(dom->xch, XC_INVALID_KERNEL, EINVAL, "%s", elf.err);
        return -1;
    }
    return 0;
}

static int load_segment(void *arg, uint64_t paddr, const void *src,
                        uint64_t filesz, uint64_t memsz)
{
    struct xc_dom_image *dom = arg;

    if ( xg_dom_copy_to_guest(dom, paddr, src, filesz) ||
         xg_dom_copy_to_guest(dom, paddr + filesz, NULL, memsz - filesz) )
        return -1;
    DOMPRINTF("segment: %#"PRIx64" bytes to %#"PRIx64", %#"PRIx64" zeroed",
              filesz, paddr, memsz - filesz);
    return 0;
}

/* Copy failures were reported by xg_dom_copy_to_guest (errno kept). */
int xg_dom_elf_load(struct xc_dom_image *dom)
{
    struct elf_binary elf;

    if ( elf_open(dom, &elf) )
        return -1;
    return elf_load_binary(&elf, load_segment, dom);
}

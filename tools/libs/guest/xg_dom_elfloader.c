/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: the ELF64 loader for PVH kernels.
 *
 * The image is checked whole before anything is written to the guest:
 * the ELF header, the program headers and every PT_LOAD / PT_NOTE segment
 * must lie inside the file; the Xen notes are read for the PVH entry
 * point (XEN_ELFNOTE_PHYS32_ENTRY, a 4- or 8-byte value), which must lie
 * in a loaded segment.  Each problem has its own message and fails with
 * errno EINVAL and XC_INVALID_KERNEL.  Segments are placed at their
 * physical addresses (p_paddr): for Linux's vmlinux the virtual ones are
 * the kernel's high mapping.
 */
#include <inttypes.h>

#include "xg_private.h"
#include "public/elfnote.h"

#define ROUNDUP4(x) (((uint64_t)(x) + 3) & ~(uint64_t)3)

/* Program header i of a checked image. */
static void get_phdr(const struct xc_dom_image *dom, unsigned int i,
                     struct xg_elf64_phdr *ph)
{
    const uint8_t *img = dom->kernel_blob;
    struct xg_elf64_ehdr eh;

    memcpy(&eh, img, sizeof(eh));
    memcpy(ph, img + eh.e_phoff + (uint64_t)i * sizeof(*ph), sizeof(*ph));
}

static unsigned int nr_phdrs(const struct xc_dom_image *dom)
{
    struct xg_elf64_ehdr eh;

    memcpy(&eh, dom->kernel_blob, sizeof(eh));
    return eh.e_phnum;
}

/*
 * The Xen notes of one PT_NOTE segment (inside the image): set *entry
 * from XEN_ELFNOTE_PHYS32_ENTRY.  -1 (logged) if a note is malformed.
 */
static int read_notes(struct xc_dom_image *dom, unsigned int seg,
                      const struct xg_elf64_phdr *ph, bool *have_entry,
                      uint64_t *entry)
{
    xc_interface *xch = dom->xch;
    const uint8_t *img = dom->kernel_blob;
    uint64_t off = ph->p_offset, end = ph->p_offset + ph->p_filesz;

    while ( end - off >= sizeof(struct xg_elf_note) )
    {
        struct xg_elf_note n;
        uint64_t name = off + sizeof(n), namesz, descsz;
        const uint8_t *desc;

        memcpy(&n, img + off, sizeof(n));
        namesz = ROUNDUP4(n.namesz);
        descsz = ROUNDUP4(n.descsz);
        if ( namesz > end - name || descsz > end - name - namesz )
        {
            xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                         "note at offset %#"PRIx64" runs past the end of "
                         "segment %u", off, seg);
            return -1;
        }
        desc = img + name + namesz;

        if ( n.namesz == 4 && !memcmp(img + name, "Xen", 4) &&
             n.type == XEN_ELFNOTE_PHYS32_ENTRY )
        {
            if ( n.descsz == 4 )
            {
                uint32_t v;

                memcpy(&v, desc, sizeof(v));
                *entry = v;
            }
            else if ( n.descsz == 8 )
                memcpy(entry, desc, sizeof(*entry));
            else
            {
                xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                             "PVH entry note has a %"PRIu32"-byte value "
                             "(4 or 8 expected)", n.descsz);
                return -1;
            }
            *have_entry = true;
        }

        off = name + namesz + descsz;
    }

    return 0;
}

int xg_dom_elf_parse(struct xc_dom_image *dom)
{
    xc_interface *xch = dom->xch;
    const uint8_t *img = dom->kernel_blob;
    size_t size = dom->kernel_size;
    struct xg_elf64_ehdr eh;
    uint64_t lo = UINT64_MAX, hi = 0, entry = 0;
    unsigned int i, nr_load = 0;
    bool have_entry = false;

    if ( !img )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL, "no kernel image given");
        return -1;
    }
    if ( size < XG_SELFMAG || memcmp(img, XG_ELFMAG, XG_SELFMAG) )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image is not an ELF file (bad magic)");
        return -1;
    }
    if ( size < sizeof(eh) )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image is truncated (%zu bytes, less than an "
                     "ELF64 header)", size);
        return -1;
    }
    memcpy(&eh, img, sizeof(eh));
    if ( eh.e_ident[XG_EI_CLASS] != XG_ELFCLASS64 ||
         eh.e_ident[XG_EI_DATA] != XG_ELFDATA2LSB )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image is not a 64-bit little-endian ELF file "
                     "(class %u, data %u)", eh.e_ident[XG_EI_CLASS],
                     eh.e_ident[XG_EI_DATA]);
        return -1;
    }
    if ( eh.e_type != XG_ET_EXEC || eh.e_machine != XG_EM_X86_64 )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image is not an x86-64 executable (type %u, "
                     "machine %u)", eh.e_type, eh.e_machine);
        return -1;
    }
    if ( !eh.e_phnum )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image has no program headers");
        return -1;
    }
    if ( eh.e_phentsize != sizeof(struct xg_elf64_phdr) || eh.e_phoff > size ||
         (uint64_t)eh.e_phnum * sizeof(struct xg_elf64_phdr) > size - eh.e_phoff )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "program headers (%u of %u bytes at offset %#"PRIx64") "
                     "lie outside the image (%zu bytes)", eh.e_phnum,
                     eh.e_phentsize, eh.e_phoff, size);
        return -1;
    }

    for ( i = 0; i < eh.e_phnum; i++ )
    {
        struct xg_elf64_phdr ph;

        get_phdr(dom, i, &ph);
        if ( ph.p_type != XG_PT_LOAD && ph.p_type != XG_PT_NOTE )
            continue;

        if ( ph.p_filesz &&
             (ph.p_offset > size || ph.p_filesz > size - ph.p_offset) )
        {
            xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                         "segment %u (%#"PRIx64" bytes at offset %#"PRIx64") "
                         "lies outside the image (%zu bytes)", i,
                         ph.p_filesz, ph.p_offset, size);
            return -1;
        }

        if ( ph.p_type == XG_PT_NOTE )
        {
            if ( read_notes(dom, i, &ph, &have_entry, &entry) )
                return -1;
            continue;
        }

        if ( ph.p_filesz > ph.p_memsz )
        {
            xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                         "segment %u has more bytes in the file (%#"PRIx64") "
                         "than in memory (%#"PRIx64")", i, ph.p_filesz,
                         ph.p_memsz);
            return -1;
        }
        if ( !ph.p_memsz )
            continue;
        if ( ph.p_memsz > UINT64_MAX - ph.p_paddr )
        {
            xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                         "segment %u at %#"PRIx64"+%#"PRIx64" does not fit "
                         "in guest RAM", i, ph.p_paddr, ph.p_memsz);
            return -1;
        }
        nr_load++;
        if ( ph.p_paddr < lo )
            lo = ph.p_paddr;
        if ( ph.p_paddr + ph.p_memsz > hi )
            hi = ph.p_paddr + ph.p_memsz;
    }

    if ( !nr_load )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image has no loadable segment");
        return -1;
    }
    if ( !have_entry )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "kernel image has no PVH entry point "
                     "(no XEN_ELFNOTE_PHYS32_ENTRY note)");
        return -1;
    }
    if ( entry < lo || entry >= hi || entry > UINT32_MAX )
    {
        xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                     "PVH entry point %#"PRIx64" lies outside the loaded "
                     "segments (%#"PRIx64"-%#"PRIx64")", entry, lo, hi);
        return -1;
    }

    dom->phys_entry = entry;
    dom->guest_type = "hvm-3.0-x86_32";
    dom->kernel_seg.vstart = lo;
    dom->kernel_seg.vend = hi;
    dom->kernel_seg.pfn = lo >> XG_PAGE_SHIFT;
    dom->kernel_seg.pages = ((hi + XG_PAGE_SIZE - 1) >> XG_PAGE_SHIFT) -
                            dom->kernel_seg.pfn;
    DOMPRINTF("PVH kernel: %u loadable segment(s) at %#"PRIx64"-%#"PRIx64
              ", entry %#"PRIx64, nr_load, lo, hi, entry);
    return 0;
}

int xg_dom_elf_check_ram(struct xc_dom_image *dom, xen_paddr_t ram_start,
                         xen_paddr_t ram_end)
{
    xc_interface *xch = dom->xch;
    unsigned int i, n = nr_phdrs(dom);

    for ( i = 0; i < n; i++ )
    {
        struct xg_elf64_phdr ph;

        get_phdr(dom, i, &ph);
        if ( ph.p_type != XG_PT_LOAD || !ph.p_memsz )
            continue;
        if ( ph.p_paddr < ram_start || ph.p_paddr > ram_end ||
             ph.p_memsz > ram_end - ph.p_paddr )
        {
            xc_dom_panic(xch, XC_INVALID_KERNEL, EINVAL,
                         "segment %u at %#"PRIx64"+%#"PRIx64" does not fit "
                         "in guest RAM (%#"PRIx64"-%#"PRIx64")", i,
                         ph.p_paddr, ph.p_memsz, ram_start, ram_end);
            return -1;
        }
    }

    return 0;
}

int xg_dom_elf_load(struct xc_dom_image *dom)
{
    const uint8_t *img = dom->kernel_blob;
    unsigned int i, n = nr_phdrs(dom);

    for ( i = 0; i < n; i++ )
    {
        struct xg_elf64_phdr ph;

        get_phdr(dom, i, &ph);
        if ( ph.p_type != XG_PT_LOAD || !ph.p_memsz )
            continue;
        if ( xg_dom_copy_to_guest(dom, ph.p_paddr, img + ph.p_offset,
                                  ph.p_filesz) ||
             xg_dom_copy_to_guest(dom, ph.p_paddr + ph.p_filesz, NULL,
                                  ph.p_memsz - ph.p_filesz) )
            return -1;
        DOMPRINTF("segment %u: %#"PRIx64" bytes to %#"PRIx64", %#"PRIx64
                  " zeroed", i, ph.p_filesz, ph.p_paddr,
                  ph.p_memsz - ph.p_filesz);
    }

    return 0;
}

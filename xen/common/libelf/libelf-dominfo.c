/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libelf: the Xen notes of a PVH kernel (see xen/libelf.h).  As Xen, the
 * notes come from the PT_NOTE segments (those at offset 0 skipped: some
 * binutils leave them so), and from the SHT_NOTE sections when no segment
 * holds a Xen note.  A note is a 12-byte header, then its name and its
 * descriptor, each padded to 4 bytes; all of it must lie inside its
 * segment or section.
 */
#include "libelf-private.h"

/* One note owned by "Xen". */
static int elf_xen_parse_note(struct elf_binary *elf,
                              struct elf_dom_parms *parms, const Elf_Note *n,
                              const char *desc)
{
    uint64_t v;

    parms->xen_notes++;
    if ( n->n_type != XEN_ELFNOTE_PHYS32_ENTRY )
        return 0;

    if ( n->n_descsz == 4 )
    {
        uint32_t v32;

        memcpy(&v32, desc, sizeof(v32));
        v = v32;
    }
    else if ( n->n_descsz == 8 )
        memcpy(&v, desc, sizeof(v));
    else
        return elf_err(elf, "PVH entry note has a %u-byte value (4 or 8 "
                       "expected)", n->n_descsz);

    /* The entry is a 32-bit address; all ones means "unset" (as Xen). */
    if ( v >= UNSET_ADDR32 )
        return elf_err(elf, "PVH entry point %#"PRIx64" is out of range "
                       "(at most %#x)", v, UNSET_ADDR32 - 1);
    parms->phys_entry = v;
    return 0;
}

/* The notes in [off, off + len) of the image ("segment 3", "section 5"). */
static int elf_xen_parse_notes(struct elf_binary *elf,
                               struct elf_dom_parms *parms, uint64_t off,
                               uint64_t len, const char *what, unsigned int idx)
{
    uint64_t end = off + len;

    if ( !elf_range_ok(elf, off, len) )
        return elf_err(elf, "%s %u (%#"PRIx64" bytes at offset %#"PRIx64") "
                       "lies outside the image (%zu bytes)", what, idx, len,
                       off, elf->size);

    /* Fewer bytes than a note header at the end are padding. */
    while ( end - off >= sizeof(Elf_Note) )
    {
        uint64_t name = off + sizeof(Elf_Note), namesz, descsz;
        Elf_Note n;

        memcpy(&n, elf->image + off, sizeof(n));
        namesz = ELF_ROUNDUP4(n.n_namesz);
        descsz = ELF_ROUNDUP4(n.n_descsz);
        if ( namesz > end - name || descsz > end - name - namesz )
            return elf_err(elf, "note at offset %#"PRIx64" (name %u bytes, "
                           "descriptor %u bytes) runs past the end of %s %u",
                           off, n.n_namesz, n.n_descsz, what, idx);

        if ( n.n_namesz == 4 && !memcmp(elf->image + name, "Xen", 4) &&
             elf_xen_parse_note(elf, parms, &n,
                                elf->image + name + namesz) )
            return -1;

        off = name + namesz + descsz;
    }

    return 0;
}

int elf_xen_parse(struct elf_binary *elf, struct elf_dom_parms *parms,
                  bool hvm)
{
    unsigned int i, in_segments;

    parms->phys_entry = UNSET_ADDR32;
    parms->xen_notes = 0;

    for ( i = 0; i < elf->phnum; i++ )
    {
        Elf64_Phdr ph;

        elf_phdr_by_index(elf, i, &ph);
        if ( ph.p_type != PT_NOTE || !ph.p_offset )
            continue;
        if ( elf_xen_parse_notes(elf, parms, ph.p_offset, ph.p_filesz,
                                 "segment", i) )
            return -1;
    }
    in_segments = parms->xen_notes;

    /* Section 0 is the null section. */
    for ( i = 1; !in_segments && i < elf->shnum; i++ )
    {
        Elf64_Shdr sh;

        elf_shdr_by_index(elf, i, &sh);
        if ( sh.sh_type != SHT_NOTE )
            continue;
        if ( elf_xen_parse_notes(elf, parms, sh.sh_offset, sh.sh_size,
                                 "section", i) )
            return -1;
    }

    if ( !hvm )
        return 0;
    if ( parms->phys_entry == UNSET_ADDR32 )
        return elf_err(elf, "kernel image has no PVH entry point (no "
                       "XEN_ELFNOTE_PHYS32_ENTRY note)");
    if ( parms->phys_entry < elf->pstart || parms->phys_entry >= elf->pend )
        return elf_err(elf, "PVH entry point %#x lies outside the loaded "
                       "segments (%#"PRIx64"-%#"PRIx64")",
                       (unsigned int)parms->phys_entry, elf->pstart, elf->pend);
    return 0;
}

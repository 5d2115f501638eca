/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libelf: checking an image's headers and segments, and loading it (see
 * xen/libelf.h).  Nothing is loaded before every check has passed.
 */
#include "libelf-private.h"

/* The ELF header, widened to ELF64's layout. */
static void elf_ehdr_read(const struct elf_binary *elf, Elf64_Ehdr *eh)
{
    Elf32_Ehdr e;

    if ( elf->class == ELFCLASS64 )
    {
        memcpy(eh, elf->image, sizeof(*eh));
        return;
    }
    memcpy(&e, elf->image, sizeof(e));
    memcpy(eh->e_ident, e.e_ident, EI_NIDENT);
    eh->e_type = e.e_type;
    eh->e_machine = e.e_machine;
    eh->e_version = e.e_version;
    eh->e_entry = e.e_entry;
    eh->e_phoff = e.e_phoff;
    eh->e_shoff = e.e_shoff;
    eh->e_flags = e.e_flags;
    eh->e_ehsize = e.e_ehsize;
    eh->e_phentsize = e.e_phentsize;
    eh->e_phnum = e.e_phnum;
    eh->e_shentsize = e.e_shentsize;
    eh->e_shnum = e.e_shnum;
    eh->e_shstrndx = e.e_shstrndx;
}

/* A header table: 'nr' entries of 'entsize' bytes at 'off', inside the image. */
static int elf_check_table(struct elf_binary *elf, const char *what,
                           uint64_t off, unsigned int nr, unsigned int entsize,
                           size_t want)
{
    if ( entsize != want )
        return elf_err(elf, "%s (%u of %u bytes at offset %#"PRIx64") are not "
                       "%s's size (%zu bytes)", what, nr, entsize, off,
                       elf_class_name(elf), want);
    if ( !elf_range_ok(elf, off, (uint64_t)nr * entsize) )
        return elf_err(elf, "%s (%u of %u bytes at offset %#"PRIx64") lie "
                       "outside the image (%zu bytes)", what, nr, entsize, off,
                       elf->size);
    return 0;
}

int elf_init(struct elf_binary *elf, const char *image, size_t size)
{
    bool is64;
    size_t ehsize;
    Elf64_Ehdr eh;

    memset(elf, 0, sizeof(*elf));
    elf->image = image;
    elf->size = size;

    if ( !image )
        return elf_err(elf, "no kernel image given");
    if ( !elf_is_elfbinary(image, size) )
        return elf_err(elf, "kernel image is not an ELF file (bad magic)");
    if ( size < EI_NIDENT )
        return elf_err(elf, "kernel image is truncated (%zu bytes, less than "
                       "an ELF identification)", size);

    elf->class = (uint8_t)image[EI_CLASS];
    if ( elf->class != ELFCLASS32 && elf->class != ELFCLASS64 )
        return elf_err(elf, "kernel image has an unknown ELF class %u "
                       "(ELFCLASS32 or ELFCLASS64 expected)", elf->class);
    if ( (uint8_t)image[EI_DATA] != ELFDATA2LSB )
        return elf_err(elf, "kernel image is not a little-endian ELF file "
                       "(data %u)", (uint8_t)image[EI_DATA]);

    is64 = elf->class == ELFCLASS64;
    ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if ( size < ehsize )
        return elf_err(elf, "kernel image is truncated (%zu bytes, less than "
                       "an %s header)", size, elf_class_name(elf));

    elf_ehdr_read(elf, &eh);
    elf->machine = eh.e_machine;
    if ( eh.e_type != ET_EXEC ||
         (eh.e_machine != EM_386 && eh.e_machine != EM_X86_64) )
        return elf_err(elf, "kernel image is not an x86 executable (type %u, "
                       "machine %u; ET_EXEC with EM_386 or EM_X86_64 "
                       "expected)", eh.e_type, eh.e_machine);
    if ( eh.e_ehsize < ehsize )
        return elf_err(elf, "kernel image's %s header claims %u bytes (%zu "
                       "expected)", elf_class_name(elf), eh.e_ehsize, ehsize);

    elf->phoff = eh.e_phoff;
    elf->phnum = eh.e_phnum;
    if ( !elf->phnum )
        return elf_err(elf, "kernel image has no program headers");
    if ( elf_check_table(elf, "program headers", eh.e_phoff, eh.e_phnum,
                         eh.e_phentsize,
                         is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) )
        return -1;

    /* No sections is fine; a table that is there must be sound (as Xen). */
    elf->shoff = eh.e_shoff;
    elf->shnum = eh.e_shnum;
    if ( elf->shnum &&
         elf_check_table(elf, "section headers", eh.e_shoff, eh.e_shnum,
                         eh.e_shentsize,
                         is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) )
        return -1;

    return 0;
}

int elf_parse_binary(struct elf_binary *elf)
{
    unsigned int i;

    elf->pstart = UINT64_MAX;
    elf->pend = 0;
    elf->nr_load = 0;

    for ( i = 0; i < elf->phnum; i++ )
    {
        Elf64_Phdr ph;

        elf_phdr_by_index(elf, i, &ph);
        if ( ph.p_type != PT_LOAD && ph.p_type != PT_NOTE )
            continue;

        if ( ph.p_filesz && !elf_range_ok(elf, ph.p_offset, ph.p_filesz) )
            return elf_err(elf, "segment %u (%#"PRIx64" bytes at offset "
                           "%#"PRIx64") lies outside the image (%zu bytes)",
                           i, ph.p_filesz, ph.p_offset, elf->size);
        if ( ph.p_type == PT_NOTE )
            continue;

        if ( ph.p_filesz > ph.p_memsz )
            return elf_err(elf, "segment %u has more bytes in the file "
                           "(%#"PRIx64") than in memory (%#"PRIx64")", i,
                           ph.p_filesz, ph.p_memsz);
        if ( !ph.p_memsz )
            continue;
        if ( ph.p_memsz > UINT64_MAX - ph.p_paddr )
            return elf_err(elf, "segment %u at %#"PRIx64"+%#"PRIx64" wraps "
                           "around: it does not fit in guest RAM", i,
                           ph.p_paddr, ph.p_memsz);

        elf->nr_load++;
        if ( ph.p_paddr < elf->pstart )
            elf->pstart = ph.p_paddr;
        if ( ph.p_paddr + ph.p_memsz > elf->pend )
            elf->pend = ph.p_paddr + ph.p_memsz;
    }

    if ( !elf->nr_load )
        return elf_err(elf, "kernel image has no loadable segment");
    return 0;
}

int elf_check_load_range(struct elf_binary *elf, uint64_t start, uint64_t end)
{
    unsigned int i;

    for ( i = 0; i < elf->phnum; i++ )
    {
        Elf64_Phdr ph;

        elf_phdr_by_index(elf, i, &ph);
        if ( ph.p_type != PT_LOAD || !ph.p_memsz )
            continue;
        if ( ph.p_paddr < start || ph.p_paddr > end ||
             ph.p_memsz > end - ph.p_paddr )
            return elf_err(elf, "segment %u at %#"PRIx64"+%#"PRIx64" does not "
                           "fit in guest RAM (%#"PRIx64"-%#"PRIx64")", i,
                           ph.p_paddr, ph.p_memsz, start, end);
    }

    return 0;
}

int elf_load_binary(struct elf_binary *elf, elf_load_fn *load, void *arg)
{
    unsigned int i;

    for ( i = 0; i < elf->phnum; i++ )
    {
        Elf64_Phdr ph;

        elf_phdr_by_index(elf, i, &ph);
        if ( ph.p_type != PT_LOAD || !ph.p_memsz )
            continue;
        if ( load(arg, ph.p_paddr, elf->image + ph.p_offset, ph.p_filesz,
                  ph.p_memsz) )
            return elf_err(elf, "segment %u: cannot copy %#"PRIx64" bytes to "
                           "%#"PRIx64, i, ph.p_memsz, ph.p_paddr);
    }

    return 0;
}

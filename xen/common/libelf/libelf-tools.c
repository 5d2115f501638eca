/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libelf: reading the headers of either class (see xen/libelf.h).  Callers
 * have checked the tables' bounds (elf_init); fields are copied out, so the
 * image needs no alignment, and ELF32 fields are widened to ELF64's.
 */
#include "libelf-private.h"

int elf_err(struct elf_binary *elf, const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    vsnprintf(elf->err, sizeof(elf->err), fmt, args);
    va_end(args);
    return -1;
}

bool elf_is_elfbinary(const char *image, size_t size)
{
    return size >= SELFMAG && !memcmp(image, ELFMAG, SELFMAG);
}

const char *elf_class_name(const struct elf_binary *elf)
{
    return elf->class == ELFCLASS64 ? "ELF64" : "ELF32";
}

void elf_phdr_by_index(const struct elf_binary *elf, unsigned int i,
                       Elf64_Phdr *ph)
{
    if ( elf->class == ELFCLASS64 )
        memcpy(ph, elf->image + elf->phoff + (uint64_t)i * sizeof(*ph),
               sizeof(*ph));
    else
    {
        Elf32_Phdr p;

        memcpy(&p, elf->image + elf->phoff + (uint64_t)i * sizeof(p),
               sizeof(p));
        ph->p_type = p.p_type;
        ph->p_flags = p.p_flags;
        ph->p_offset = p.p_offset;
        ph->p_vaddr = p.p_vaddr;
        ph->p_paddr = p.p_paddr;
        ph->p_filesz = p.p_filesz;
        ph->p_memsz = p.p_memsz;
        ph->p_align = p.p_align;
    }
}

void elf_shdr_by_index(const struct elf_binary *elf, unsigned int i,
                       Elf64_Shdr *sh)
{
    if ( elf->class == ELFCLASS64 )
        memcpy(sh, elf->image + elf->shoff + (uint64_t)i * sizeof(*sh),
               sizeof(*sh));
    else
    {
        Elf32_Shdr s;

        memcpy(&s, elf->image + elf->shoff + (uint64_t)i * sizeof(s),
               sizeof(s));
        sh->sh_name = s.sh_name;
        sh->sh_type = s.sh_type;
        sh->sh_flags = s.sh_flags;
        sh->sh_addr = s.sh_addr;
        sh->sh_offset = s.sh_offset;
        sh->sh_size = s.sh_size;
        sh->sh_link = s.sh_link;
        sh->sh_info = s.sh_info;
        sh->sh_addralign = s.sh_addralign;
        sh->sh_entsize = s.sh_entsize;
    }
}

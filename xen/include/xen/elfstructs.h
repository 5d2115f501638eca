/* SPDX-License-Identifier: GPL-2.0-only */
/* The parts of the ELF64 format the domain builder reads. */
#ifndef __XEN_ELFSTRUCTS_H__
#define __XEN_ELFSTRUCTS_H__

#include <xen/types.h>

#define EI_NIDENT   16
#define ELFMAG      "\177ELF"
#define EI_CLASS    4
#define ELFCLASS64  2
#define EM_X86_64   62
#define PT_LOAD     1
#define PT_NOTE     4

typedef struct {
    uint8_t  e_ident[EI_NIDENT];
    uint16_t e_type, e_machine;
    uint32_t e_version;
    uint64_t e_entry, e_phoff, e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
    uint32_t p_type, p_flags;
    uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

typedef struct {
    uint32_t n_namesz, n_descsz, n_type;
} Elf_Note;

#endif /* __XEN_ELFSTRUCTS_H__ */

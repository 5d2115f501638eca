/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parts of the ELF format (the System V ABI's layouts and numbers) the
 * PVH loaders read, for both classes.  Included by the hypervisor, by the
 * tools (libxenguest) and by the guest test kernels, so it needs nothing
 * but <stdint.h>.
 */
#ifndef __XEN_ELFSTRUCTS_H__
#define __XEN_ELFSTRUCTS_H__

#include <stdint.h>

#define EI_NIDENT       16
#define ELFMAG          "\177ELF"
#define SELFMAG         4
#define EI_CLASS        4
#define EI_DATA         5
#define ELFCLASS32      1
#define ELFCLASS64      2
#define ELFDATA2LSB     1
#define EV_CURRENT      1

#define ET_EXEC         2
#define EM_386          3
#define EM_X86_64       62

#define PT_NULL         0
#define PT_LOAD         1
#define PT_NOTE         4

#define SHT_NOTE        7

typedef struct {
    uint8_t  e_ident[EI_NIDENT];
    uint16_t e_type, e_machine;
    uint32_t e_version;
    uint32_t e_entry, e_phoff, e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf32_Ehdr;

typedef struct {
    uint8_t  e_ident[EI_NIDENT];
    uint16_t e_type, e_machine;
    uint32_t e_version;
    uint64_t e_entry, e_phoff, e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
    uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
             p_align;
} Elf32_Phdr;

typedef struct {
    uint32_t p_type, p_flags;
    uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

typedef struct {
    uint32_t sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link,
             sh_info, sh_addralign, sh_entsize;
} Elf32_Shdr;

typedef struct {
    uint32_t sh_name, sh_type;
    uint64_t sh_flags, sh_addr, sh_offset, sh_size;
    uint32_t sh_link, sh_info;
    uint64_t sh_addralign, sh_entsize;
} Elf64_Shdr;

/* The same for both classes: header, name and descriptor each padded to 4. */
typedef struct {
    uint32_t n_namesz, n_descsz, n_type;
} Elf_Note;

#endif /* __XEN_ELFSTRUCTS_H__ */

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libelf: the one parser of PVH kernel images (Xen's xen/common/libelf),
 * compiled into the hypervisor (its boot-module domain builder) and into
 * libxenguest (tools/libs/guest, the xc_dom_* builder), so both accept and
 * refuse exactly the same images.
 *
 * Accepted: ELF32 or ELF64, little-endian, ET_EXEC, machine EM_386 or
 * EM_X86_64 (in either class, as Xen), carrying Xen's
 * XEN_ELFNOTE_PHYS32_ENTRY note.  Everything is checked before anything is
 * loaded:
 *
 *   elf_init()          the ELF header, the program header table and the
 *                       section header table lie inside the image, their
 *                       entry sizes are the class's;
 *   elf_parse_binary()  every PT_LOAD and PT_NOTE segment lies inside the
 *                       image, p_filesz <= p_memsz, p_paddr + p_memsz does
 *                       not wrap; pstart/pend span the PT_LOAD segments;
 *   elf_xen_parse()     the Xen notes (PT_NOTE segments, else SHT_NOTE
 *                       sections): every note's padded name and descriptor
 *                       inside its segment; the PVH entry present and in a
 *                       loaded range;
 *   elf_check_load_range()  every PT_LOAD segment inside the domain's RAM;
 *   elf_load_binary()   only then: each PT_LOAD segment through a callback.
 *
 * Each function returns 0, or -1 with one clear message in elf->err.
 * Fields are read with memcpy, so the image needs no alignment.
 */
#ifndef __XEN_LIBELF_H__
#define __XEN_LIBELF_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfstructs.h"      /* beside it, in the tools too */

#define ELF_ERR_LEN     192
#define UNSET_ADDR32    ((uint32_t)~0u)

struct elf_binary {
    const char *image;          /* the whole file */
    size_t size;
    unsigned int class;         /* ELFCLASS32 or ELFCLASS64 */
    unsigned int machine;       /* EM_386 or EM_X86_64 */
    uint64_t phoff, shoff;      /* the header tables */
    unsigned int phnum, shnum;

    /* elf_parse_binary(): the PT_LOAD segments' span, [pstart, pend). */
    uint64_t pstart, pend;
    unsigned int nr_load;

    char err[ELF_ERR_LEN];      /* why the last call failed */
};

/* What the Xen notes say (Xen's struct elf_dom_parms, the PVH part). */
struct elf_dom_parms {
    uint32_t phys_entry;        /* XEN_ELFNOTE_PHYS32_ENTRY or UNSET_ADDR32 */
    unsigned int xen_notes;     /* notes owned by "Xen" */
};

/* Copy filesz bytes of src to guest-physical paddr, zero up to memsz. */
typedef int elf_load_fn(void *arg, uint64_t paddr, const void *src,
                        uint64_t filesz, uint64_t memsz);

/* libelf-tools.c */
bool elf_is_elfbinary(const char *image, size_t size);
const char *elf_class_name(const struct elf_binary *elf);
/* Program / section header i (i < phnum / shnum), widened to ELF64. */
void elf_phdr_by_index(const struct elf_binary *elf, unsigned int i,
                       Elf64_Phdr *ph);
void elf_shdr_by_index(const struct elf_binary *elf, unsigned int i,
                       Elf64_Shdr *sh);

/* libelf-loader.c */
int elf_init(struct elf_binary *elf, const char *image, size_t size);
int elf_parse_binary(struct elf_binary *elf);
int elf_check_load_range(struct elf_binary *elf, uint64_t start, uint64_t end);
int elf_load_binary(struct elf_binary *elf, elf_load_fn *load, void *arg);

/* libelf-dominfo.c */
int elf_xen_parse(struct elf_binary *elf, struct elf_dom_parms *parms,
                  bool hvm);

#endif /* __XEN_LIBELF_H__ */

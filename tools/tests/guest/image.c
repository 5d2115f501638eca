/* SPDX-License-Identifier: GPL-2.0-only */
/* Small PVH kernel images (see image.h). */
#include <string.h>

#include "image.h"

/* ELF constants (the System V ABI's). */
#define ELFCLASS64      2
#define ELFDATA2LSB     1
#define EV_CURRENT      1
#define ET_EXEC         2
#define EM_X86_64       62
#define PT_LOAD         1
#define PT_NOTE         4
#define PF_X            1
#define PF_W            2
#define PF_R            4
#define PHYS32_ENTRY    18      /* XEN_ELFNOTE_PHYS32_ENTRY */

struct ehdr {
    uint8_t ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint64_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

/* ELF32's layouts: narrower fields, and p_flags after p_memsz. */
struct ehdr32 {
    uint8_t ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint32_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr32 {
    uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

/* The ELF64 headers as ELF32 ones (the values fit). */
static void write_elf32(uint8_t *buf, const struct ehdr *eh, const struct phdr *ph)
{
    struct ehdr32 e = {
        .type = eh->type, .machine = eh->machine, .version = eh->version,
        .entry = eh->entry, .phoff = eh->phoff, .ehsize = sizeof(e),
        .phentsize = sizeof(struct phdr32), .phnum = eh->phnum,
    };
    unsigned int i;

    memcpy(e.ident, eh->ident, sizeof(e.ident));
    e.ident[4] = IMAGE_ELF32;
    memcpy(buf, &e, sizeof(e));
    for ( i = 0; i < eh->phnum; i++ )
    {
        struct phdr32 p = {
            .type = ph[i].type, .offset = ph[i].offset, .vaddr = ph[i].vaddr,
            .paddr = ph[i].paddr, .filesz = ph[i].filesz, .memsz = ph[i].memsz,
            .flags = ph[i].flags, .align = ph[i].align,
        };

        memcpy(buf + eh->phoff + i * sizeof(p), &p, sizeof(p));
    }
}

void image_default_opts(struct image_opts *o)
{
    o->paddr = 0x100000;
    o->text = 0x2345;
    o->bss = 0x1800;
    o->entry = 0x100040;
    o->entry_size = 4;
    o->elf_class = IMAGE_ELF64;
    o->machine = EM_X86_64;
}

uint8_t image_text_byte(size_t i)
{
    return (uint8_t)(i * 7 + 1);
}

size_t image_build(uint8_t *buf, size_t room, const struct image_opts *o)
{
    size_t size = IMAGE_TEXT_OFFSET + o->text, i;
    struct ehdr eh = {
        .ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
        .type = ET_EXEC,
        .machine = o->machine,
        .version = EV_CURRENT,
        .entry = o->entry,
        .phoff = IMAGE_PHDR_OFFSET,
        .ehsize = sizeof(struct ehdr),
        .phentsize = sizeof(struct phdr),
        .phnum = 2,
    };
    struct phdr ph[2] = {
        {
            .type = PT_LOAD, .flags = PF_R | PF_W | PF_X,
            .offset = IMAGE_TEXT_OFFSET, .vaddr = o->paddr, .paddr = o->paddr,
            .filesz = o->text, .memsz = o->text + o->bss, .align = 0x1000,
        },
        {
            .type = PT_NOTE, .flags = PF_R, .offset = IMAGE_NOTE_OFFSET,
            .align = 4,
        },
    };
    uint32_t note[3] = { 4, o->entry_size, PHYS32_ENTRY };

    if ( room < size )
        return 0;
    memset(buf, 0, size);

    if ( o->entry_size )
    {
        memcpy(buf + IMAGE_NOTE_OFFSET, note, sizeof(note));
        memcpy(buf + IMAGE_NOTE_OFFSET + sizeof(note), "Xen", 4);
        memcpy(buf + IMAGE_NOTE_OFFSET + sizeof(note) + 4, &o->entry,
               o->entry_size);
        ph[1].filesz = sizeof(note) + 4 + o->entry_size;
    }
    else
        ph[1].type = 0;             /* PT_NULL */

    if ( o->elf_class == IMAGE_ELF32 )
        write_elf32(buf, &eh, ph);
    else
    {
        memcpy(buf, &eh, sizeof(eh));
        memcpy(buf + IMAGE_PHDR_OFFSET, ph, sizeof(ph));
    }
    for ( i = 0; i < o->text; i++ )
        buf[IMAGE_TEXT_OFFSET + i] = image_text_byte(i);

    return size;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the multiboot2 boot information: command line, boot loader
 * name, memory map and modules.  Only the tags we use are decoded; the
 * rest are skipped by their size, as the specification requires.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <asm/setup.h>

#define MB2_BOOTLOADER_MAGIC  0x36d76289

#define MB2_TAG_END           0
#define MB2_TAG_CMDLINE       1
#define MB2_TAG_LOADER_NAME   2
#define MB2_TAG_MODULE        3
#define MB2_TAG_MMAP          6

struct mb2_tag {
    uint32_t type, size;
};

struct mb2_tag_string {
    struct mb2_tag tag;
    char string[];
};

struct mb2_tag_module {
    struct mb2_tag tag;
    uint32_t mod_start, mod_end;
    char cmdline[];
};

struct mb2_mmap_entry {
    uint64_t addr, len;
    uint32_t type, zero;
};

struct mb2_tag_mmap {
    struct mb2_tag tag;
    uint32_t entry_size, entry_version;
    uint8_t entries[];
};

int multiboot2_parse(uint32_t magic, paddr_t mbi, struct boot_info *bi)
{
    const uint8_t *p = (const uint8_t *)(unsigned long)mbi;
    uint32_t total = *(const uint32_t *)p;
    const uint8_t *end = p + total;

    if ( magic != MB2_BOOTLOADER_MAGIC )
        return -EINVAL;

    bi->mbi_start = mbi;
    bi->mbi_end = mbi + total;
    bi->cmdline = "";
    for ( p += 8; p + sizeof(struct mb2_tag) <= end;
          p += ROUNDUP(((const struct mb2_tag *)p)->size, 8) )
    {
        const struct mb2_tag *tag = (const struct mb2_tag *)p;

        if ( tag->type == MB2_TAG_END || tag->size < sizeof(*tag) )
            break;

        switch ( tag->type )
        {
        case MB2_TAG_CMDLINE:
            bi->cmdline = ((const struct mb2_tag_string *)tag)->string;
            break;

        case MB2_TAG_LOADER_NAME:
            bi->loader = ((const struct mb2_tag_string *)tag)->string;
            break;

        case MB2_TAG_MODULE:
        {
            const struct mb2_tag_module *m = (const void *)tag;

            if ( bi->nr_modules == MAX_BOOT_MODULES )
            {
                printk(XENLOG_WARNING "Too many boot modules, ignoring the rest\n");
                break;
            }
            bi->mods[bi->nr_modules].start = m->mod_start;
            bi->mods[bi->nr_modules].end = m->mod_end;
            bi->mods[bi->nr_modules].cmdline = m->cmdline;
            bi->nr_modules++;
            break;
        }

        case MB2_TAG_MMAP:
        {
            const struct mb2_tag_mmap *mm = (const void *)tag;
            const uint8_t *e = mm->entries;

            for ( ; e + mm->entry_size <= p + tag->size; e += mm->entry_size )
            {
                const struct mb2_mmap_entry *me = (const void *)e;

                if ( bi->nr_e820 == MAX_E820_ENTRIES )
                    break;
                bi->e820[bi->nr_e820].addr = me->addr;
                bi->e820[bi->nr_e820].size = me->len;
                bi->e820[bi->nr_e820].type = me->type;
                bi->nr_e820++;
            }
            break;
        }
        }
    }

    return bi->nr_e820 ? 0 : -ENODEV;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/libelf: PVH images of both classes accepted and loaded;
 * malformed ones of each class refused with their own message, before
 * anything is loaded.  Images are written from a model (ELF64's widths)
 * in either class's layout; cases corrupt the model or the bytes.
 */
#include <xen/lib.h>
#include <xen/libelf.h>
#include <xen/string.h>
#include <public/elfnote.h>

#include "harness.h"

/* The System V ABI's layouts, independently of the code under test. */
_Static_assert(sizeof(Elf32_Ehdr) == 52 && sizeof(Elf64_Ehdr) == 64, "ehdr");
_Static_assert(sizeof(Elf32_Phdr) == 32 && sizeof(Elf64_Phdr) == 56, "phdr");
_Static_assert(sizeof(Elf32_Shdr) == 40 && sizeof(Elf64_Shdr) == 64, "shdr");
_Static_assert(__builtin_offsetof(Elf32_Phdr, p_flags) == 24, "p_flags");
_Static_assert(__builtin_offsetof(Elf64_Phdr, p_offset) == 8, "p_offset");
_Static_assert(__builtin_offsetof(Elf32_Ehdr, e_phentsize) == 42, "e32");
_Static_assert(__builtin_offsetof(Elf64_Ehdr, e_phentsize) == 54, "e64");

#define PHOFF       0x40
#define NOTE_OFF    0x200
#define SHOFF       0x300
#define TEXT_OFF    0x1000
#define TEXT_SIZE   0x1234
#define BSS_SIZE    0x800
#define PADDR       0x100000
#define ENTRY       0x100010
#define RAM_START   0x100000
#define RAM_END     0x7ff000

static struct {
    unsigned int cls;
    uint16_t type, machine, ehsize, phentsize, phnum, shentsize, shnum;
    uint64_t phoff, shoff;
    Elf64_Phdr ph[2];           /* PT_LOAD, PT_NOTE */
    Elf64_Shdr sh[2];           /* the null section, the SHT_NOTE one */
    Elf_Note note;
    char name[4];
    uint64_t entry;
    size_t size;
} m;

static uint8_t img[0x3000];

static void model_default(unsigned int cls)
{
    bool is64 = cls == ELFCLASS64;

    memset(&m, 0, sizeof(m));
    m.cls = cls;
    m.type = ET_EXEC;
    m.machine = EM_X86_64;
    m.ehsize = is64 ? 64 : 52;
    m.phentsize = is64 ? 56 : 32;
    m.phnum = 2;
    m.phoff = PHOFF;
    m.shentsize = is64 ? 64 : 40;
    m.shnum = 2;
    m.shoff = SHOFF;
    m.ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = TEXT_OFF,
                            .p_vaddr = PADDR, .p_paddr = PADDR,
                            .p_filesz = TEXT_SIZE,
                            .p_memsz = TEXT_SIZE + BSS_SIZE };
    m.ph[1] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = NOTE_OFF,
                            .p_filesz = 20, .p_memsz = 20 };
    m.sh[1] = (Elf64_Shdr){ .sh_type = SHT_NOTE, .sh_offset = NOTE_OFF,
                            .sh_size = 20 };
    m.note = (Elf_Note){ 4, 4, XEN_ELFNOTE_PHYS32_ENTRY };
    memcpy(m.name, "Xen", 4);
    m.entry = ENTRY;
    m.size = TEXT_OFF + TEXT_SIZE;
}

static uint8_t text_byte(size_t i)
{
    return (uint8_t)(i * 13 + 5);
}

/* Write the model into img in its class's layout. */
static void emit(void)
{
    unsigned int i;

    memset(img, 0, sizeof(img));
    if ( m.cls == ELFCLASS64 )
    {
        Elf64_Ehdr e = {
            .e_type = m.type, .e_machine = m.machine, .e_version = EV_CURRENT,
            .e_entry = m.entry, .e_phoff = m.phoff, .e_shoff = m.shoff,
            .e_ehsize = m.ehsize, .e_phentsize = m.phentsize,
            .e_phnum = m.phnum, .e_shentsize = m.shentsize,
            .e_shnum = m.shnum,
        };

        memcpy(e.e_ident, ELFMAG, 4);
        memcpy(img, &e, sizeof(e));
        memcpy(img + PHOFF, m.ph, sizeof(m.ph));
        memcpy(img + SHOFF, m.sh, sizeof(m.sh));
    }
    else
    {
        Elf32_Ehdr e = {
            .e_type = m.type, .e_machine = m.machine, .e_version = EV_CURRENT,
            .e_entry = m.entry, .e_phoff = m.phoff, .e_shoff = m.shoff,
            .e_ehsize = m.ehsize, .e_phentsize = m.phentsize,
            .e_phnum = m.phnum, .e_shentsize = m.shentsize,
            .e_shnum = m.shnum,
        };

        memcpy(e.e_ident, ELFMAG, 4);
        memcpy(img, &e, sizeof(e));
        for ( i = 0; i < 2; i++ )
        {
            Elf32_Phdr p = {
                .p_type = m.ph[i].p_type, .p_offset = m.ph[i].p_offset,
                .p_vaddr = m.ph[i].p_vaddr, .p_paddr = m.ph[i].p_paddr,
                .p_filesz = m.ph[i].p_filesz, .p_memsz = m.ph[i].p_memsz,
            };
            Elf32_Shdr s = {
                .sh_type = m.sh[i].sh_type, .sh_offset = m.sh[i].sh_offset,
                .sh_size = m.sh[i].sh_size,
            };

            memcpy(img + PHOFF + i * sizeof(p), &p, sizeof(p));
            memcpy(img + SHOFF + i * sizeof(s), &s, sizeof(s));
        }
    }
    img[EI_CLASS] = m.cls;
    img[EI_DATA] = ELFDATA2LSB;
    img[6] = EV_CURRENT;

    memcpy(img + NOTE_OFF, &m.note, sizeof(m.note));
    memcpy(img + NOTE_OFF + 12, m.name, 4);
    memcpy(img + NOTE_OFF + 16, &m.entry, 4);
    for ( i = 0; i < TEXT_SIZE; i++ )
        img[TEXT_OFF + i] = text_byte(i);
}

/* ---- parsing and loading, as both builders do ---------------------------- */

static struct elf_binary elf;
static struct elf_dom_parms parms;
static uint8_t ram[0x4000];     /* guest-physical PADDR on */
static unsigned int loads;

static int load(void *arg, uint64_t paddr, const void *src, uint64_t filesz,
                uint64_t memsz)
{
    (void)arg;
    loads++;
    if ( paddr < PADDR || memsz > sizeof(ram) - (paddr - PADDR) )
        return -1;
    memcpy(ram + (paddr - PADDR), src, filesz);
    memset(ram + (paddr - PADDR) + filesz, 0, memsz - filesz);
    return 0;
}

/* The step that failed: 0 none, then 1-5 in the order below. */
static int run(void)
{
    loads = 0;
    memset(ram, 0xa5, sizeof(ram));
    if ( elf_init(&elf, (const char *)img, m.size) )
        return 1;
    if ( elf_parse_binary(&elf) )
        return 2;
    if ( elf_xen_parse(&elf, &parms, true) )
        return 3;
    if ( elf_check_load_range(&elf, RAM_START, RAM_END) )
        return 4;
    if ( elf_load_binary(&elf, load, NULL) )
        return 5;
    return 0;
}

static void check_loaded(void)
{
    size_t i;
    bool text = true, bss = true;

    for ( i = 0; i < TEXT_SIZE; i++ )
        text &= ram[i] == text_byte(i);
    for ( i = TEXT_SIZE; i < TEXT_SIZE + BSS_SIZE; i++ )
        bss &= ram[i] == 0;
    CHECK(text);
    CHECK(bss);
    CHECK_EQ(ram[TEXT_SIZE + BSS_SIZE], 0xa5);      /* nothing past memsz */
}

static void good(unsigned int cls, uint16_t machine)
{
    model_default(cls);
    m.machine = machine;
    emit();
    CHECK_EQ(run(), 0);
    CHECK_STR(elf.err, "");
    CHECK_EQ(elf.class, cls);
    CHECK_EQ(elf.machine, machine);
    CHECK_EQ(parms.phys_entry, ENTRY);
    CHECK_EQ(elf.pstart, PADDR);
    CHECK_EQ(elf.pend, PADDR + TEXT_SIZE + BSS_SIZE);
    CHECK_EQ(elf.nr_load, 1);
    CHECK_EQ(loads, 1);
    check_loaded();
}

static void test_good(void)
{
    good(ELFCLASS64, EM_X86_64);
    good(ELFCLASS64, EM_386);
    good(ELFCLASS32, EM_X86_64);
    good(ELFCLASS32, EM_386);
}

/* No PT_NOTE (or one at offset 0, which Xen skips): the SHT_NOTE section. */
static void test_section_notes(void)
{
    unsigned int cls;

    for ( cls = ELFCLASS32; cls <= ELFCLASS64; cls++ )
    {
        model_default(cls);
        m.ph[1].p_type = PT_NULL;
        emit();
        CHECK_EQ(run(), 0);
        CHECK_EQ(parms.phys_entry, ENTRY);

        model_default(cls);
        m.ph[1].p_offset = 0;
        emit();
        CHECK_EQ(run(), 0);

        /* ... and without sections either: no entry. */
        model_default(cls);
        m.ph[1].p_type = PT_NULL;
        m.shnum = 0;
        emit();
        CHECK_EQ(run(), 3);
        CHECK_CONTAINS(elf.err, "no PVH entry point");
    }
}

/* An 8-byte entry, and other owners' notes skipped. */
static void test_note_variants(void)
{
    /* Owner "Linux" (6 bytes), 3 bytes of descriptor: both padded. */
    static const uint8_t other[] = {
        6, 0, 0, 0, 3, 0, 0, 0, 18, 0, 0, 0,
        'L', 'i', 'n', 'u', 'x', 0, 0, 0, 1, 2, 3, 0,
    };
    uint64_t e = 0x100020;

    model_default(ELFCLASS64);
    emit();
    memcpy(img + NOTE_OFF + 4, &(uint32_t){ 8 }, 4);
    memcpy(img + NOTE_OFF + 16, &e, 8);
    memcpy(img + PHOFF + 56 + 32, &(uint64_t){ 24 }, 8);     /* p_filesz */
    CHECK_EQ(run(), 0);
    CHECK_EQ(parms.phys_entry, 0x100020);

    /* 8 bytes at or above 4 GiB, or 0xffffffff (Xen's "unset"): refused. */
    e = 0x100100020ULL;
    memcpy(img + NOTE_OFF + 16, &e, 8);
    CHECK_EQ(run(), 3);
    CHECK_CONTAINS(elf.err, "PVH entry point 0x100100020 is out of range (at most 0xfffffffe)");
    e = 0xffffffffULL;
    memcpy(img + NOTE_OFF + 16, &e, 8);
    CHECK_EQ(run(), 3);
    CHECK_CONTAINS(elf.err, "PVH entry point 0xffffffff is out of range");

    /* Another owner's note of type 18 first: skipped, padding and all. */
    model_default(ELFCLASS32);
    emit();
    memmove(img + NOTE_OFF + sizeof(other), img + NOTE_OFF, 20);
    memcpy(img + NOTE_OFF, other, sizeof(other));
    memcpy(img + PHOFF + 32 + 16, &(uint32_t){ 44 }, 4);     /* p_filesz */
    CHECK_EQ(run(), 0);
    CHECK_EQ(parms.phys_entry, ENTRY);
    CHECK_EQ(parms.xen_notes, 1);
}

/* ---- malformed images ------------------------------------------------------ */

struct bad {
    const char *name;
    void (*corrupt)(void);      /* on the model; then emitted */
    void (*corrupt_bytes)(void);/* on the emitted bytes */
    int step;
    const char *message;
};

static void truncated(void) { m.size = 40; }
static void tiny(void) { m.size = 10; }
static void no_note(void) { m.ph[1].p_type = PT_NULL; m.sh[1].sh_type = 0; }
static void bad_machine(void) { m.machine = 40; }
static void not_exec(void) { m.type = 3; }
static void small_ehsize(void) { m.ehsize = 20; }
static void no_phdrs(void) { m.phnum = 0; }
static void phentsize(void) { m.phentsize = 40; }
static void phoff_past(void) { m.phoff = m.size - 8; }
static void phoff_wraps(void) { m.phoff = ~0ULL - 8; }
static void phnum_huge(void) { m.phnum = 0xffff; }
static void shoff_past(void) { m.shoff = m.size - 16; }
static void shentsize(void) { m.shentsize = 12; }
static void shnum_huge(void) { m.shnum = 0xffff; }
static void seg_past(void) { m.ph[0].p_offset = m.size; }
static void seg_long(void) { m.ph[0].p_filesz = TEXT_SIZE + 1; m.ph[0].p_memsz = 0x10000; }
static void seg_wraps(void) { m.ph[0].p_offset = ~0ULL - 0x10; }
static void filesz_big(void) { m.ph[0].p_memsz = TEXT_SIZE - 1; }
static void paddr_wraps(void) { m.ph[0].p_paddr = ~0ULL - 0x100; }
static void no_load(void) { m.ph[0].p_type = PT_NULL; }
static void note_seg_past(void) { m.ph[1].p_offset = m.size - 4; }
static void note_sec_past(void) { m.ph[1].p_type = PT_NULL; m.sh[1].sh_size = m.size; }
static void namesz_big(void) { m.note.n_namesz = 0x100; }
static void descsz_big(void) { m.note.n_descsz = 0xfffffffd; }
static void namesz_unaligned(void) { m.note.n_namesz = 5; }
static void descsz_2(void) { m.note.n_descsz = 2; }
static void entry_out(void) { m.entry = 0x200000; }
static void entry_end(void) { m.entry = PADDR + TEXT_SIZE + BSS_SIZE; }
static void below_ram(void) { m.ph[0].p_paddr = 0x80000; m.entry = 0x80010; }
static void above_ram(void) { m.ph[0].p_memsz = RAM_END; }
static void top_4g(void) { m.ph[0].p_paddr = 0xffff0000; m.entry = 0xffff0010; }
static void bad_magic(void) { img[0] = 'X'; }
static void class_3(void) { img[EI_CLASS] = 3; }
static void class_0(void) { img[EI_CLASS] = 0; }
static void class_other(void) { img[EI_CLASS] ^= 3; }
static void big_endian(void) { img[EI_DATA] = 2; }

static const struct bad bad_cases[] = {
    { "bad magic", NULL, bad_magic, 1, "not an ELF file (bad magic)" },
    { "10 bytes", tiny, NULL, 1, "truncated (10 bytes, less than an ELF identification)" },
    { "truncated header", truncated, NULL, 1, "truncated (40 bytes, less than an ELF" },
    { "class 3", NULL, class_3, 1, "unknown ELF class 3" },
    { "class 0", NULL, class_0, 1, "unknown ELF class 0" },
    { "big-endian", NULL, big_endian, 1, "not a little-endian ELF file (data 2)" },
    { "wrong machine", bad_machine, NULL, 1, "not an x86 executable (type 2, machine 40" },
    { "not ET_EXEC", not_exec, NULL, 1, "not an x86 executable (type 3, machine 62" },
    { "e_ehsize too small", small_ehsize, NULL, 1, "header claims 20 bytes" },
    { "no program headers", no_phdrs, NULL, 1, "has no program headers" },
    { "wrong phentsize", phentsize, NULL, 1, "program headers (2 of 40 bytes at offset 0x40) are not" },
    { "phoff past the end", phoff_past, NULL, 1, "program headers (2 of" },
    { "phoff wraps", phoff_wraps, NULL, 1, "lie outside the image" },
    { "phnum 65535", phnum_huge, NULL, 1, "program headers (65535 of" },
    { "shoff past the end", shoff_past, NULL, 1, "section headers (2 of" },
    { "wrong shentsize", shentsize, NULL, 1, "section headers (2 of 12 bytes" },
    { "shnum 65535", shnum_huge, NULL, 1, "section headers (65535 of" },
    { "segment offset past the end", seg_past, NULL, 2, "segment 0 (0x1234 bytes at offset 0x2234) lies outside" },
    { "segment runs past the end", seg_long, NULL, 2, "segment 0 (0x1235 bytes at offset 0x1000) lies outside" },
    { "segment offset wraps", seg_wraps, NULL, 2, "segment 0 (0x1234 bytes at offset" },
    { "filesz > memsz", filesz_big, NULL, 2, "segment 0 has more bytes in the file (0x1234) than in memory (0x1233)" },
    { "no PT_LOAD", no_load, NULL, 2, "no loadable segment" },
    { "note segment past the end", note_seg_past, NULL, 2, "segment 1 (0x14 bytes at offset" },
    { "note section past the end", note_sec_past, NULL, 3, "section 1 (0x2234 bytes at offset 0x200) lies outside" },
    { "note namesz past the segment", namesz_big, NULL, 3, "(name 256 bytes, descriptor 4 bytes) runs past the end of segment 1" },
    { "note descsz wraps when padded", descsz_big, NULL, 3, "descriptor 4294967293 bytes) runs past the end of segment 1" },
    { "note namesz padding past the segment", namesz_unaligned, NULL, 3, "(name 5 bytes, descriptor 4 bytes) runs past" },
    { "entry of 2 bytes", descsz_2, NULL, 3, "PVH entry note has a 2-byte value" },
    { "no PHYS32_ENTRY note", no_note, NULL, 3, "no PVH entry point (no XEN_ELFNOTE_PHYS32_ENTRY note)" },
    { "entry outside the segments", entry_out, NULL, 3, "PVH entry point 0x200000 lies outside the loaded segments (0x100000-0x101a34)" },
    { "entry at the segment's end", entry_end, NULL, 3, "PVH entry point 0x101a34 lies outside" },
    { "segment below RAM", below_ram, NULL, 4, "segment 0 at 0x80000+0x1a34 does not fit in guest RAM (0x100000-0x7ff000)" },
    { "segment past RAM", above_ram, NULL, 4, "segment 0 at 0x100000+0x7ff000 does not fit" },
    { "segment at the top of 4 GiB", top_4g, NULL, 4, "segment 0 at 0xffff0000+0x1a34 does not fit" },
};

/* Each class read as the other one. */
static const struct bad bad_elf32_as_64 = {
    "ELF32 read as ELF64", NULL, class_other, 1, "ELF64 header claims 0 bytes",
};

/* Only ELF64's fields are wide enough to wrap around. */
static const struct bad bad_elf64[] = {
    { "ELF64 read as ELF32", NULL, class_other, 1, "has no program headers" },
    { "paddr + memsz wraps", paddr_wraps, NULL, 2, "wraps around: it does not fit in guest RAM" },
};

static void check_bad(unsigned int cls, const struct bad *c)
{
    char got[256], want[64];
    int step;

    model_default(cls);
    if ( c->corrupt )
        c->corrupt();
    emit();
    if ( c->corrupt_bytes )
        c->corrupt_bytes();
    step = run();

    /* One line naming the case, so that a failure says which. */
    snprintf(got, sizeof(got), "ELF%u %s: step %d, %u loads: %s",
             cls == ELFCLASS64 ? 64 : 32, c->name, step, loads, elf.err);
    snprintf(want, sizeof(want), "step %d, 0 loads: ", c->step);
    CHECK_CONTAINS(got, want);
    CHECK_CONTAINS(got, c->message);
}

static void test_bad(void)
{
    unsigned int cls, i;

    for ( cls = ELFCLASS32; cls <= ELFCLASS64; cls++ )
        for ( i = 0; i < ARRAY_SIZE(bad_cases); i++ )
            check_bad(cls, &bad_cases[i]);
    check_bad(ELFCLASS32, &bad_elf32_as_64);
    for ( i = 0; i < ARRAY_SIZE(bad_elf64); i++ )
        check_bad(ELFCLASS64, &bad_elf64[i]);
}

/* A failing copy stops the load and says which segment. */
static void test_load_fails(void)
{
    model_default(ELFCLASS32);
    m.ph[0].p_memsz = sizeof(ram) + 1;
    emit();
    CHECK_EQ(run(), 5);
    CHECK_CONTAINS(elf.err, "segment 0: cannot copy 0x4001 bytes to 0x100000");
}

void test_main(void)
{
    test_good();
    test_section_notes();
    test_note_variants();
    test_bad();
    test_load_fails();
}

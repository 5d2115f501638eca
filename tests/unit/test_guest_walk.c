/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/arch/x86/hvm/guest_access.c: copies to and from a guest through its
 * own page tables, a page at a time.  The guest is faked: a p2m of a few
 * populated frames (any gfn), 4-level page tables built in them, and a
 * vCPU in long mode whose CR3 names them.  The layouts are a Linux
 * control domain's: a user-space buffer of 4 KiB pages scattered over
 * guest-physical memory (U/S set, D clear), buffers that start inside a
 * page, a page not present in the middle, read-only pages, 2 MiB and
 * 1 GiB pages with the PAT and NX bits set, PCID bits in CR3, and a buffer
 * in the last page of the address space.  What is checked is where the
 * bytes land (every frame's content), what is refused, and that nothing
 * is written where a copy was refused.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/guest_access.h>
#include <xen/mm.h>
#include <asm/page-bits.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>

#include "harness.h"


/* ---- the fake guest-physical memory -------------------------------------- */

#define NR_FRAMES 48
#define POISON    0xa5

static struct frame {
    unsigned long gfn;
    p2m_type_t t;
    bool used;
    uint8_t page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
} frames[NR_FRAMES];

static unsigned long hv_writes[64];
static unsigned int nr_hv_writes;

static struct frame *find(unsigned long gfn)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES; i++ )
        if ( frames[i].used && frames[i].gfn == gfn )
            return &frames[i];
    return NULL;
}

static uint8_t *populate(unsigned long gfn, p2m_type_t t)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES && frames[i].used; i++ )
        ;
    CHECK(i < NR_FRAMES);
    frames[i].used = true;
    frames[i].gfn = gfn;
    frames[i].t = t;
    memset(frames[i].page, POISON, PAGE_SIZE);
    return frames[i].page;
}

static uint8_t *frame(unsigned long gfn)
{
    struct frame *f = find(gfn);

    return f ? f->page : NULL;
}

void *p2m_map_gpa(struct domain *d, uint64_t gpa, p2m_type_t *t)
{
    struct frame *f = find(gpa >> PAGE_SHIFT);

    (void)d;
    if ( !f )
        return NULL;
    *t = f->t;
    return f->page + (gpa & ~PAGE_MASK);
}

void p2m_note_hypervisor_write(struct domain *d, unsigned long gfn)
{
    (void)d;
    if ( nr_hv_writes < ARRAY_SIZE(hv_writes) )
        hv_writes[nr_hv_writes++] = gfn;
}

/* ---- the fake vCPU and its page tables ----------------------------------- */

static struct domain dom;
static struct vcpu vcpu;
static uint64_t cr3;                    /* as the CPU holds it: PCID bits too */
static unsigned long next_table_gfn = 0x1000;

static uint64_t fake_get_guest_cr3(struct vcpu *v)
{
    (void)v;
    return cr3;
}

static const struct hvm_function_table fake_funcs = {
    .get_guest_cr3 = fake_get_guest_cr3,
};
const struct hvm_function_table *hvm_funcs = &fake_funcs;

#define TABLE_FLAGS (PTE_P | PTE_W | PTE_U | PTE_A)
#define USER_RW     (PTE_P | PTE_W | PTE_U | PTE_A)     /* D clear, as Linux maps them */
#define PTE_PAT_LARGE (1ULL << 12)
#define PTE_NX      (1ULL << 63)

static uint64_t *entry(uint64_t table_gpa, unsigned int idx)
{
    p2m_type_t t;

    return (uint64_t *)p2m_map_gpa(&dom, table_gpa + idx * 8, &t);
}

/* Map gva to gpa with a leaf at 'level' (1: 4 KiB, 2: 2 MiB, 3: 1 GiB). */
static void map(unsigned long gva, uint64_t gpa, unsigned int level, uint64_t flags)
{
    uint64_t table = cr3 & PADDR_MASK & PAGE_MASK;
    unsigned int l;

    for ( l = 4; l > level; l-- )
    {
        uint64_t *e = entry(table, (gva >> (12 + 9 * (l - 1))) & 0x1ff);

        if ( !(*e & PTE_P) )
        {
            populate(next_table_gfn, p2m_ram_rw);
            memset(frame(next_table_gfn), 0, PAGE_SIZE);
            *e = (next_table_gfn++ << PAGE_SHIFT) | TABLE_FLAGS;
        }
        table = *e & PADDR_MASK & PAGE_MASK;
    }
    *entry(table, (gva >> (12 + 9 * (level - 1))) & 0x1ff) =
        gpa | flags | (level > 1 ? PTE_PSE : 0);
}

/* The table entry of gva at 'level' (to change its flags). */
static uint64_t *pte_of(unsigned long gva, unsigned int level)
{
    uint64_t table = cr3 & PADDR_MASK & PAGE_MASK;
    unsigned int l;

    for ( l = 4; l > level; l-- )
        table = *entry(table, (gva >> (12 + 9 * (l - 1))) & 0x1ff) & PADDR_MASK & PAGE_MASK;
    return entry(table, (gva >> (12 + 9 * (level - 1))) & 0x1ff);
}

static void reset(void)
{
    memset(frames, 0, sizeof(frames));
    nr_hv_writes = 0;
    next_table_gfn = 0x1000;
    populate(0x800, p2m_ram_rw);
    memset(frame(0x800), 0, PAGE_SIZE);
    cr3 = 0x800ULL << PAGE_SHIFT;
    vcpu.domain = &dom;
    vcpu.arch.hvm.guest_cr0 = X86_CR0_PE | X86_CR0_PG | X86_CR0_WP;
    vcpu.arch.hvm.guest_cr4 = X86_CR4_PAE;
    vcpu.arch.hvm.guest_efer = EFER_LME | EFER_LMA;
    current = &vcpu;
}

static uint8_t pattern[3 * PAGE_SIZE], back[3 * PAGE_SIZE];

static void fill_pattern(void)
{
    unsigned int i;

    for ( i = 0; i < sizeof(pattern); i++ )
        pattern[i] = (uint8_t)(i * 7 + (i >> 8) + 1);
    if ( pattern[0] == POISON )
        pattern[0]++;
}

/* Does gfn hold 'want' at [off, off + len) and POISON everywhere else? */
static bool frame_is(unsigned long gfn, unsigned int off, const uint8_t *want,
                     unsigned int len)
{
    const uint8_t *p = frame(gfn);
    unsigned int i;

    if ( !p || memcmp(p + off, want, len) )
        return false;
    for ( i = 0; i < PAGE_SIZE; i++ )
        if ( (i < off || i >= off + len) && p[i] != POISON )
            return false;
    return true;
}

static bool frame_untouched(unsigned long gfn)
{
    return frame_is(gfn, 0, NULL, 0);
}

/* ---- the checks ---------------------------------------------------------- */

#define UBUF 0x00007f1234560000UL       /* a user-space address */

/* Three 4 KiB pages at UBUF on gfns 0x21, 0x07, 0x33 (not contiguous). */
static void map_user_buffer(void)
{
    populate(0x21, p2m_ram_rw);
    populate(0x07, p2m_ram_rw);
    populate(0x33, p2m_ram_rw);
    map(UBUF, 0x21UL << PAGE_SHIFT, 1, USER_RW);
    map(UBUF + PAGE_SIZE, 0x07UL << PAGE_SHIFT, 1, USER_RW);
    map(UBUF + 2 * PAGE_SIZE, 0x33UL << PAGE_SHIFT, 1, USER_RW);
}

static void test_scattered_pages(uint64_t pcid)
{
    reset();
    cr3 |= pcid;
    map_user_buffer();

    /* 8 KiB from 16 bytes in: three pages, the frames in guest order. */
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + 16), pattern, 8192), 0);
    CHECK(frame_is(0x21, 16, pattern, PAGE_SIZE - 16));
    CHECK(frame_is(0x07, 0, pattern + PAGE_SIZE - 16, PAGE_SIZE));
    CHECK(frame_is(0x33, 0, pattern + 2 * PAGE_SIZE - 16, 16));
    CHECK_EQ(nr_hv_writes, 3);
    CHECK(hv_writes[0] == 0x21 && hv_writes[1] == 0x07 && hv_writes[2] == 0x33);

    memset(back, 0, sizeof(back));
    CHECK_EQ(raw_copy_from_guest(back, (void *)(UBUF + 16), 8192), 0);
    CHECK(!memcmp(back, pattern, 8192));

    /* Unaligned start and length, ending one byte into the third page. */
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + PAGE_SIZE - 3), pattern + 1, PAGE_SIZE + 4), 0);
    CHECK_EQ(frame(0x33)[0], pattern[PAGE_SIZE + 4]);
    CHECK_EQ(frame(0x33)[16], POISON);

    CHECK(raw_guest_array_writable((void *)(UBUF + 16), 1022, 8));
    CHECK(raw_guest_array_writable((void *)UBUF, 3 * PAGE_SIZE, 1));
    CHECK(!raw_guest_array_writable((void *)(UBUF + 16), 1536, 8)); /* a 4th page */
}

static void test_not_present(void)
{
    reset();
    map_user_buffer();
    *pte_of(UBUF + PAGE_SIZE, 1) = 0;       /* never touched: no PTE */

    CHECK(!raw_guest_array_writable((void *)(UBUF + 100), 2 * PAGE_SIZE, 1));
    CHECK(raw_guest_array_writable((void *)(UBUF + 100), PAGE_SIZE - 100, 1));
    /* The copy stops at the hole: the bytes from there on are not copied. */
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + 100), pattern, 8192),
             8192 - (PAGE_SIZE - 100));
    CHECK(frame_is(0x21, 100, pattern, PAGE_SIZE - 100));
    CHECK(frame_untouched(0x07));
    CHECK(frame_untouched(0x33));
    CHECK_EQ(raw_copy_from_guest(back, (void *)(UBUF + 100), 8192), 8192 - (PAGE_SIZE - 100));

    /* A table missing higher up: the whole 2 MiB range. */
    *pte_of(UBUF, 2) = 0;
    CHECK_EQ(raw_copy_to_guest((void *)UBUF, pattern, 16), 16);
}

static void test_read_only(void)
{
    reset();
    map_user_buffer();
    *pte_of(UBUF + PAGE_SIZE, 1) &= ~(uint64_t)PTE_W;   /* e.g. the zero page */

    CHECK(!raw_guest_array_writable((void *)(UBUF + 16), 1024, 8));
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + PAGE_SIZE + 8), pattern, 8), 8);
    CHECK(frame_untouched(0x07));
    CHECK_EQ(raw_copy_from_guest(back, (void *)(UBUF + 16), 8192), 0);

    /* Without CR0.WP a supervisor write ignores W, as the CPU does. */
    vcpu.arch.hvm.guest_cr0 &= ~X86_CR0_WP;
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + PAGE_SIZE + 8), pattern, 8), 0);
    CHECK(frame_is(0x07, 8, pattern, 8));
    vcpu.arch.hvm.guest_cr0 |= X86_CR0_WP;

    /* W clear in a table entry higher up covers the whole range. */
    *pte_of(UBUF + PAGE_SIZE, 1) |= PTE_W;
    *pte_of(UBUF, 3) &= ~(uint64_t)PTE_W;
    CHECK(!raw_guest_array_writable((void *)UBUF, 8, 1));
    *pte_of(UBUF, 3) |= PTE_W;

    /* A frame the p2m says is read-only: read yes, write no. */
    *pte_of(UBUF + 2 * PAGE_SIZE, 1) = (0x34UL << PAGE_SHIFT) | USER_RW;
    populate(0x34, p2m_ram_ro);
    CHECK(!raw_guest_array_writable((void *)(UBUF + 2 * PAGE_SIZE), 8, 1));
    CHECK_EQ(raw_copy_to_guest((void *)(UBUF + 2 * PAGE_SIZE), pattern, 8), 8);
    CHECK(frame_untouched(0x34));
    CHECK_EQ(raw_copy_from_guest(back, (void *)(UBUF + 2 * PAGE_SIZE), 8), 0);
}

static void test_large_pages(void)
{
    const unsigned long g2m = 0x40000000UL, g1g = 0x8000000000UL;

    reset();
    /* A 2 MiB page (PAT and NX set) at gpa 6 MiB, then a 4 KiB page. */
    map(g2m, 0x600000, 2, USER_RW | PTE_PAT_LARGE | PTE_NX);
    map(g2m + 0x200000, 0x55UL << PAGE_SHIFT, 1, USER_RW | PTE_NX);
    populate(0x7ff, p2m_ram_rw);            /* the 2 MiB page's last frame */
    populate(0x55, p2m_ram_rw);
    CHECK_EQ(raw_copy_to_guest((void *)(g2m + 0x1ff800), pattern, PAGE_SIZE), 0);
    CHECK(frame_is(0x7ff, 0x800, pattern, 0x800));
    CHECK(frame_is(0x55, 0, pattern + 0x800, 0x800));
    CHECK(raw_guest_array_writable((void *)(g2m + 0x1ff800), PAGE_SIZE, 1));

    /* Two 1 GiB pages (PAT set) at gpa 1 GiB and 3 GiB, copied across. */
    map(g1g, 0x40000000, 3, USER_RW | PTE_PAT_LARGE);
    map(g1g + 0x40000000, 0xc0000000, 3, USER_RW | PTE_PAT_LARGE);
    populate(0x7ffff, p2m_ram_rw);
    populate(0xc0000, p2m_ram_rw);
    CHECK_EQ(raw_copy_to_guest((void *)(g1g + 0x3ffff800), pattern, PAGE_SIZE), 0);
    CHECK(frame_is(0x7ffff, 0x800, pattern, 0x800));
    CHECK(frame_is(0xc0000, 0, pattern + 0x800, 0x800));
    memset(back, 0, sizeof(back));
    CHECK_EQ(raw_copy_from_guest(back, (void *)(g1g + 0x3ffff800), PAGE_SIZE), 0);
    CHECK(!memcmp(back, pattern, PAGE_SIZE));
}

static void test_addresses(void)
{
    reset();
    map_user_buffer();
    /* Not canonical: refused without a walk. */
    CHECK_EQ(raw_copy_to_guest((void *)0x0000800000000000UL, pattern, 8), 8);
    CHECK(!raw_guest_array_writable((void *)0xffff7ffffffff000UL, 1, 8));
    /* Wrapping past the top of the address space. */
    CHECK_EQ(raw_copy_to_guest((void *)~0UL, pattern, 2), 2);
    CHECK(!raw_guest_array_writable((void *)(UBUF + 16), ~0UL / 8, 16));
}

/*
 * A buffer in the last page of the address space, with page 0 mapped too
 * (a guest may map both): the range [top + 0x800, top + 0xfff) is one
 * page, and whether it is writable must not depend on what lies past the
 * end (the check must not wrap around to page 0 and walk on).
 */
static void test_top_page(void)
{
    const unsigned long top = ~0UL & PAGE_MASK;

    reset();
    populate(0x60, p2m_ram_rw);
    populate(0x61, p2m_ram_rw);
    map(top, 0x60UL << PAGE_SHIFT, 1, PTE_P | PTE_W | PTE_A);
    map(0, 0x61UL << PAGE_SHIFT, 1, PTE_P | PTE_W | PTE_A);

    CHECK(raw_guest_array_writable((void *)(top + 0x800), 0x7ff, 1));
    CHECK_EQ(raw_copy_to_guest((void *)(top + 0x800), pattern, 0x7ff), 0);
    CHECK(frame_is(0x60, 0x800, pattern, 0x7ff));
    CHECK(frame_untouched(0x61));
    /* Up to the very end: it wraps, refused. */
    CHECK(!raw_guest_array_writable((void *)(top + 0x800), 0x800, 1));
    CHECK_EQ(raw_copy_to_guest((void *)(top + 0x800), pattern, 0x800), 0x800);
    /* Nothing: nothing to check. */
    CHECK(raw_guest_array_writable((void *)(UBUF + 0x10), 0, 8));
}

/* 32-bit two-level paging: 4 KiB pages scattered, and a 4 MiB page. */
static void test_two_level(void)
{
    uint32_t *pd, *pt;

    reset();
    vcpu.arch.hvm.guest_efer = 0;
    vcpu.arch.hvm.guest_cr4 = X86_CR4_PSE;
    pd = (uint32_t *)frame(0x800);
    populate(0x801, p2m_ram_rw);
    pt = (uint32_t *)frame(0x801);
    memset(pt, 0, PAGE_SIZE);
    populate(0x21, p2m_ram_rw);
    populate(0x07, p2m_ram_rw);
    pd[0x10] = (0x801 << PAGE_SHIFT) | PTE_P | PTE_W | PTE_U;
    pt[0x20] = (0x21 << PAGE_SHIFT) | USER_RW;
    pt[0x21] = (0x07 << PAGE_SHIFT) | USER_RW;
    pd[0x20] = 0x00c00000 | PTE_P | PTE_W | PTE_PSE;    /* 4 MiB page at 12 MiB */
    populate(0xfff, p2m_ram_rw);                         /* its last frame */

    CHECK_EQ(raw_copy_to_guest((void *)0x04020ff0UL, pattern, 0x20), 0);
    CHECK(frame_is(0x21, 0xff0, pattern, 0x10));
    CHECK(frame_is(0x07, 0, pattern + 0x10, 0x10));
    CHECK_EQ(raw_copy_to_guest((void *)0x083ffff0UL, pattern, 0x10), 0);
    CHECK(frame_is(0xfff, 0xff0, pattern, 0x10));
    CHECK_EQ(raw_copy_to_guest((void *)0x04022000UL, pattern, 1), 1);
}

void test_main(void)
{
    fill_pattern();
    test_scattered_pages(0);
    test_scattered_pages(0x123);            /* CR3 with a PCID */
    test_not_present();
    test_read_only();
    test_large_pages();
    test_addresses();
    test_top_page();
    test_two_level();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Emulated instructions at a page's end: the hypervisor fetches the bytes
 * at RIP for its emulator, up to 15, a page walk per page.
 *
 *  - a load that ends its page, before a page that is not mapped: the
 *    fetch gets the bytes up to the page's end and the load is emulated;
 *    only then the CPU faults fetching the next instruction (#PF, CR2
 *    the next page);
 *  - a load whose bytes straddle two mapped pages: fetched across them.
 *
 * The code is a page-aligned block of this image (the identity map); the
 * 2 MiB page holding it is split into 4 KiB pages for the test, so that
 * the page after the block can be left out.
 */
#include "test.h"
#include "fault.h"
#include "extable.h"
#include "mmio-null.h"

/*
 * Page A, page B.  pe_end: "movl (%rsi), %eax" (8b 06), the last two
 * bytes of A; B starts with "ret".  pe_cross: "movl 0(%rsi), %eax"
 * (8b 46 00) with its first byte the last of B and the rest on page C,
 * then "ret".
 */
void pe_end(void);
void pe_cross(void);
asm ( ".pushsection .text.pageend, \"ax\"\n"
      " .p2align 12\n"
      "pe_page_a:\n"
      " .skip 4096 - 2, 0xcc\n"
      "pe_end:\n"
      " .byte 0x8b, 0x06\n"
      "pe_page_b:\n"
      " ret\n"
      " .skip 4096 - 2, 0xcc\n"
      "pe_cross:\n"
      " .byte 0x8b\n"
      "pe_page_c:\n"
      " .byte 0x46, 0x00\n"
      " ret\n"
      " .p2align 12, 0xcc\n"
      ".popsection\n" );
extern const char pe_page_a[], pe_page_b[], pe_page_c[];

#define IDENT_2M(va)    ((va) & ~((1UL << 21) - 1))

static uint64_t l1[512] __attribute__((aligned(4096)));

static uint64_t *pde_of(unsigned long va)
{
    uint64_t *l4 = (uint64_t *)(read_cr3() & ~0xfffUL);
    uint64_t *l3 = (uint64_t *)(l4[(va >> 39) & 511] & 0x000ffffffffff000UL);
    uint64_t *l2 = (uint64_t *)(l3[(va >> 30) & 511] & 0x000ffffffffff000UL);

    return &l2[(va >> 21) & 511];
}

static void flush_tlb(void)
{
    write_cr3_ex(read_cr3());
}

/* The 2 MiB identity page of va as 512 pages of 4 KiB, all present. */
static uint64_t split(unsigned long va)
{
    uint64_t *pde = pde_of(va), saved = *pde;
    unsigned long base = IDENT_2M(va);
    unsigned int i;

    for ( i = 0; i < 512; i++ )
        l1[i] = (base + i * 4096UL) | 0x3;          /* present, writable */
    *pde = (unsigned long)l1 | 0x3;
    flush_tlb();
    return saved;
}

static void set_present(unsigned long va, bool present)
{
    l1[(va >> 12) & 511] = present ? ((va & ~0xfffUL) | 0x3) : 0;
    asm volatile ( "invlpg (%0)" :: "r" (va) : "memory" );
}

void test_page_end(void)
{
    unsigned long a = (unsigned long)pe_page_a, ex = 0, v, cr2;
    uint64_t saved;

    printk("Emulated loads at a page's end\n");
    if ( IDENT_2M(a) != IDENT_2M((unsigned long)pe_page_c + 4095) )
    {
        xtf_error("Error: the page-end block crosses a 2 MiB page\n");
        return;
    }
    saved = split(a);

    set_present((unsigned long)pe_page_b, false);
    v = 0;
    /* The #PF at page B resumes at 2: (the return address still pushed). */
    asm volatile ( "call pe_end\n"
                   "jmp 1f\n"
                   "2: add $8, %%rsp\n"
                   "1:\n"
                   _ASM_EXTABLE(pe_page_b, 2b)
                   : "+D" (ex), "+a" (v) : "S" (MMIO_NULL_HPET) : "memory" );
    cr2 = read_cr2();
    mmio_null_accesses++;
    check_val("ending its page, the next not mapped: the load", v & 0xffffffffUL, 0xffffffffUL);
    check_val("  then #PF fetching the next instruction", ex ? EXINFO_VECTOR(ex) : 0, X86_EXC_PF);
    check_val("  at the next page (CR2)", cr2, (unsigned long)pe_page_b);
    check_val("  not present", EXINFO_ERROR(ex) & 1, 0);
    set_present((unsigned long)pe_page_b, true);

    v = 0;
    asm volatile ( "call pe_cross" : "+a" (v) : "S" (MMIO_NULL_HPET) : "memory" );
    mmio_null_accesses++;
    check_val("straddling two pages: the load", v & 0xffffffffUL, 0xffffffffUL);

    *pde_of(a) = saved;
    flush_tlb();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reaching guest memory from a hypercall: walk the guest's own page
 * tables (guest virtual -> guest physical), then the p2m (guest physical
 * -> machine), one page at a time.
 *
 * Supported guest paging modes: paging off, 32-bit 2-level paging, and
 * 4-level long-mode paging.  Legacy 3-level PAE paging is not (no guest
 * of ours uses it; such a guest cannot turn paging on, see hvm_set_cr0).
 *
 * These are the byte-level copies under xen/guest_access.h's typed handle
 * macros (raw_copy_{to,from}_guest), and the one hypervisor-internal read
 * of guest-linear memory (hvm_fetch_from_guest_linear, for instruction
 * bytes).
 */
#include <xen/guest_access.h>
#include <xen/mm.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/p2m.h>

#define BAD_GPA (~0ULL)

static bool read_guest_pte(struct domain *d, uint64_t gpa, uint64_t *pte,
                           unsigned int size)
{
    p2m_type_t t;
    void *p = p2m_map_gpa(d, gpa, &t);

    if ( !p )
        return false;
    *pte = size == 8 ? *(uint64_t *)p : *(uint32_t *)p;
    return true;
}

uint64_t hvm_gva_to_gpa(struct vcpu *v, unsigned long gva, bool write)
{
    const struct hvm_vcpu *hvm = &v->arch.hvm;
    struct domain *d = v->domain;
    bool wp = hvm->guest_cr0 & X86_CR0_WP;
    uint64_t table, pte;
    int level;

    if ( !(hvm->guest_cr0 & X86_CR0_PG) )
        return hvm->guest_efer & EFER_LMA ? gva : (uint32_t)gva;

    table = hvm_funcs->get_guest_cr3(v);

    if ( hvm->guest_efer & EFER_LMA )
    {
        /* Canonical check: bits 63..47 all equal. */
        if ( ((long)gva >> 47) != 0 && ((long)gva >> 47) != -1 )
            return BAD_GPA;
        table &= PADDR_MASK & PAGE_MASK;
        for ( level = 4; level >= 1; level-- )
        {
            unsigned int idx = (gva >> (12 + 9 * (level - 1))) & 0x1ff;

            if ( !read_guest_pte(d, table + idx * 8, &pte, 8) || !(pte & PTE_P) )
                return BAD_GPA;
            if ( write && wp && !(pte & PTE_W) )
                return BAD_GPA;
            if ( (level == 3 || level == 2) && (pte & PTE_PSE) )
            {
                uint64_t size = 1ULL << (12 + 9 * (level - 1));

                return (pte & PADDR_MASK & ~(size - 1)) | (gva & (size - 1));
            }
            table = pte & PADDR_MASK & PAGE_MASK;
        }
        return table | (gva & ~PAGE_MASK);
    }

    if ( hvm->guest_cr4 & X86_CR4_PAE )
        return BAD_GPA;

    /* 32-bit, two levels, 4 MiB pages with CR4.PSE. */
    gva = (uint32_t)gva;
    table &= 0xfffff000UL;
    if ( !read_guest_pte(d, table + ((gva >> 22) & 0x3ff) * 4, &pte, 4) ||
         !(pte & PTE_P) || (write && wp && !(pte & PTE_W)) )
        return BAD_GPA;
    if ( (pte & PTE_PSE) && (hvm->guest_cr4 & X86_CR4_PSE) )
        return (pte & 0xffc00000UL) | (gva & 0x3fffff);
    table = pte & 0xfffff000UL;
    if ( !read_guest_pte(d, table + ((gva >> 12) & 0x3ff) * 4, &pte, 4) ||
         !(pte & PTE_P) || (write && wp && !(pte & PTE_W)) )
        return BAD_GPA;
    return (pte & 0xfffff000UL) | (gva & ~PAGE_MASK);
}

static unsigned long copy_guest(void *buf, unsigned long gva, size_t len,
                                bool to_guest)
{
    struct vcpu *v = current;
    char *b = buf;

    if ( gva + len < gva )
        return len;                 /* wraps past the top of the address space */
    while ( len )
    {
        size_t chunk = min_t(size_t, len, PAGE_SIZE - (gva & ~PAGE_MASK));
        uint64_t gpa = hvm_gva_to_gpa(v, gva, to_guest);
        p2m_type_t t;
        char *p;

        if ( gpa == BAD_GPA )
            break;
        p = p2m_map_gpa(v->domain, gpa, &t);
        if ( !p || (to_guest && !p2m_is_guest_writable(t)) )
            break;
        if ( to_guest )
        {
            memcpy(p, b, chunk);
            p2m_note_hypervisor_write(v->domain, gpa >> PAGE_SHIFT);
        }
        else
            memcpy(b, p, chunk);
        b += chunk;
        gva += chunk;
        len -= chunk;
    }
    return len;
}

unsigned long raw_copy_from_guest(void *to, const void *from, size_t len)
{
    return copy_guest(to, (unsigned long)from, len, false);
}

unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    return copy_guest((void *)from, (unsigned long)to, len, true);
}

unsigned long hvm_fetch_from_guest_linear(void *buf, unsigned long addr,
                                          size_t len)
{
    return copy_guest(buf, addr, len, false);
}

/*
 * Every page of [ptr, ptr + nr * size) present, writable and RAM of the
 * caller.  Counted in pages, not by address: a range in the last page of
 * the address space must not wrap around to page 0 and go on from there.
 * Nothing to write is always fine.
 */
bool raw_guest_array_writable(const void *ptr, unsigned long nr, size_t size)
{
    unsigned long gva = (unsigned long)ptr, bytes, pages, i;

    if ( size && nr > ~0UL / size )
        return false;               /* nr * size overflows */
    bytes = nr * size;
    if ( gva + bytes < gva )
        return false;               /* wraps past the top */
    if ( !bytes )
        return true;
    pages = ((gva & ~PAGE_MASK) + bytes - 1) / PAGE_SIZE + 1;
    for ( i = 0; i < pages; i++ )
    {
        uint64_t gpa = hvm_gva_to_gpa(current, (gva & PAGE_MASK) + i * PAGE_SIZE, true);
        p2m_type_t t;

        if ( gpa == BAD_GPA || !p2m_map_gpa(current->domain, gpa, &t) ||
             !p2m_is_guest_writable(t) )
            return false;
    }
    return true;
}

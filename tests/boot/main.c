/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Boot: the PVH entry worked, the start info is sane, Xen is there and its
 * hypercall page answers.
 */

#include "test.h"
#include "public/arch-x86/cpuid.h"

const char test_title[] = "Boot: PVH start info, CPUID and xen_version";

static void check_start_info(void)
{
    const struct hvm_start_info *si = (const void *)(uintptr_t)start_info_pa;
    const struct hvm_memmap_table_entry *mm;
    unsigned int i;

    printk("start_info at %#lx\n", (unsigned long)start_info_pa);
    if ( !start_info_pa )
        return xtf_failure("Fail: no start info (%%ebx was 0)\n");

    printk("  magic %#x version %u flags %#x nr_modules %u\n",
           si->magic, si->version, si->flags, si->nr_modules);
    if ( si->magic != XEN_HVM_START_MAGIC_VALUE )
        return xtf_failure("Fail: start info magic %#x, expected %#x\n",
                           si->magic, XEN_HVM_START_MAGIC_VALUE);
    if ( start_info_pa & 7 )
        xtf_failure("Fail: start info %#lx not 8-byte aligned\n",
                    (unsigned long)start_info_pa);

    printk("  cmdline %#lx \"%s\"\n",
           (unsigned long)si->cmdline_paddr, cmdline);

    if ( si->version >= 1 && si->memmap_paddr )
    {
        mm = (const void *)(uintptr_t)si->memmap_paddr;
        printk("  memmap %#lx, %u entries\n",
               (unsigned long)si->memmap_paddr, si->memmap_entries);
        for ( i = 0; i < si->memmap_entries && i < 16; i++ )
            printk("    [%016lx, %016lx) type %u\n",
                   (unsigned long)mm[i].addr,
                   (unsigned long)(mm[i].addr + mm[i].size), mm[i].type);
    }
}

static void check_cpuid(void)
{
    struct cpuid_leaf l;
    char sig[13];

    if ( !under_xen )
        return xtf_skip("Skip: CPUID 0x40000000 does not say Xen\n");

    cpuid(xen_cpuid_base, &l);
    memcpy(sig + 0, &l.b, 4);
    memcpy(sig + 4, &l.c, 4);
    memcpy(sig + 8, &l.d, 4);
    sig[12] = '\0';
    printk("CPUID %#x: \"%s\", max leaf %#x\n", xen_cpuid_base, sig, l.a);

    cpuid(xen_cpuid_base + 1, &l);
    printk("CPUID %#x: version %u.%u\n", xen_cpuid_base + 1,
           l.a >> 16, l.a & 0xffff);
    cpuid(xen_cpuid_base + 2, &l);
    printk("CPUID %#x: %u hypercall page(s), MSR %#x\n", xen_cpuid_base + 2,
           l.a, l.b);
}

static void check_xen_version(void)
{
    long ver;

    if ( !hypercall_page_ready )
        return;

    ver = hypercall_xen_version(XENVER_version, NULL);
    if ( ver < 0 )
        return xtf_failure("Fail: xen_version(XENVER_version) = %ld\n", ver);

    printk("xen_version: %lu.%lu\n", ver >> 16, ver & 0xffff);
}

void test_main(void)
{
    check_start_info();
    check_cpuid();
    check_xen_version();

    xtf_success(NULL);
}

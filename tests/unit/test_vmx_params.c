/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The VMX boot parameters of xen/arch/x86/hvm/vmx/vmcs.c, parsed by the
 * real parser: pml=, ept=pml=/ad=, ple_gap=, ple_window=.  The file is
 * included whole so its static variables can be checked; the functions it
 * calls that need the hardware are never reached and are stubbed below.
 */
#include "../../xen/arch/x86/hvm/vmx/vmcs.c"

#include "harness.h"

/* What vmcs.c links against but these tests never call. */
char vmx_asm_vmexit_handler[1];
unsigned long tss_base(void) { return 0; }
void *alloc_xenheap_pages(unsigned int order) { (void)order; return NULL; }
void free_xenheap_pages(void *v, unsigned int order) { (void)v; (void)order; }
void *xmem_alloc_pages(struct xmem_pool *pool, unsigned int order)
{
    (void)pool; (void)order;
    return NULL;
}
void xmem_free_pages(struct xmem_pool *pool, void *p, unsigned int order)
{
    (void)pool; (void)p; (void)order;
}
void paging_mark_dirty(struct domain *d, unsigned long gfn, struct vcpu *v)
{
    (void)d; (void)gfn; (void)v;
}
void paging_mark_dirty_gpas(struct domain *d, const uint64_t *gpa, unsigned int n,
                            struct vcpu *v)
{
    (void)d; (void)gpa; (void)n; (void)v;
}
bool vlapic_x2apic_mode(const struct vlapic *vlapic) { (void)vlapic; return false; }
bool vlapic_hw_enabled(const struct vlapic *vlapic) { (void)vlapic; return true; }

static void defaults(void)
{
    opt_pml_enabled = 1;
    opt_ept_ad = -1;
    ple_gap = 128;
    ple_window = 4096;
}

static int parse(const char *cmdline)
{
    defaults();
    printk_reset();
    return cmdline_parse(cmdline);
}

static void test_defaults(void)
{
    CHECK_EQ(parse(""), 0);
    CHECK_EQ(opt_pml_enabled, 1);           /* PML on by default, as Xen >= 4.7 */
    CHECK_EQ(opt_ept_ad, -1);
    CHECK_EQ(ple_gap, 128);
    CHECK_EQ(ple_window, 4096);
}

static void test_pml(void)
{
    CHECK_EQ(parse("pml=0"), 0);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("pml=1"), 0);
    CHECK_EQ(opt_pml_enabled, 1);
    CHECK_EQ(parse("no-pml"), 0);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("pml=off"), 0);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("pml=maybe"), -EINVAL);
    CHECK_EQ(opt_pml_enabled, 1);           /* the default is kept */
    CHECK_CONTAINS(printk_log, "parameter \"pml\" has invalid value \"maybe\"");
}

static void test_ept(void)
{
    CHECK_EQ(parse("ept=pml=0"), 0);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("ept=no-pml"), 0);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("ept=ad=0"), 0);
    CHECK_EQ(opt_ept_ad, 0);
    CHECK_EQ(opt_pml_enabled, 1);           /* pruned later, with the caps */
    CHECK_EQ(parse("ept=ad=1,pml=0"), 0);
    CHECK_EQ(opt_ept_ad, 1);
    CHECK_EQ(opt_pml_enabled, 0);
    CHECK_EQ(parse("pml=0 ept=pml=1"), 0);  /* the last one wins */
    CHECK_EQ(opt_pml_enabled, 1);
    CHECK_EQ(parse("ept=foo"), -EINVAL);
    CHECK_CONTAINS(printk_log, "parameter \"ept\" has invalid value \"foo\", rc=-22!");
}

static void test_ple(void)
{
    CHECK_EQ(parse("pml=1 ple_gap=64 ple_window=4096"), 0);
    CHECK_EQ(ple_gap, 64);
    CHECK_EQ(ple_window, 4096);
    CHECK_EQ(parse("ple_gap=0"), 0);
    CHECK_EQ(ple_gap, 0);
    CHECK_EQ(parse("ple-gap=41"), 0);       /* '-' and '_' are the same */
    CHECK_EQ(ple_gap, 41);
    CHECK_EQ(parse("ple_gap=abc ple_window=8192"), -EINVAL);
    CHECK_EQ(ple_gap, 128);                 /* the default is kept ... */
    CHECK_EQ(ple_window, 8192);             /* ... and parsing goes on */
    CHECK_CONTAINS(printk_log, "parameter \"ple_gap\" has invalid value \"abc\"");
}

void test_main(void)
{
    test_defaults();
    test_pml();
    test_ept();
    test_ple();
}

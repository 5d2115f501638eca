/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixed bits of DR6/DR7 and the merge of a #DB's status into DR6
 * (xen/arch/x86/debug.c), against the SDM's rules, with and without RTM
 * in the guest's CPUID.
 */
#include <xen/lib.h>
#include <asm/cpufeature.h>
#include <asm/cpuid.h>
#include <asm/debugreg.h>

#include "harness.h"

static bool rtm;

/* The only CPUID the code under test asks for: leaf 0 and leaf 7's RTM. */
void guest_cpuid(const struct vcpu *v, uint32_t leaf, uint32_t subleaf,
                 struct cpuid_leaf *res)
{
    (void)v; (void)subleaf;
    res->a = leaf == 0 ? 7 : 0;
    res->b = leaf == 7 && rtm ? CPUID7B_RTM : 0;
    res->c = res->d = 0;
}

static void test_dr6_fixed(void)
{
    rtm = false;
    /* Reserved bits read 1, bit 12 reads 0, the status bits are kept. */
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0), 0xffff0ff0u);
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0xffffffffu), 0xffffeffful);
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0x600fu), 0xffff6fffu);
    /* RTM (bit 16) has inverted polarity: it may read 0 only with RTM. */
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0xfffe0ff0u), 0xffff0ff0u);
    rtm = true;
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0xfffe0ff0u), 0xfffe0ff0u);
    CHECK_EQ(x86_adj_dr6_rsvd(NULL, 0), 0xfffe0ff0u);
}

static void test_dr7_fixed(void)
{
    rtm = false;
    CHECK_EQ(x86_adj_dr7_rsvd(NULL, 0), 0x400u);
    /* Bits 12, 14, 15 read 0; bit 11 (RTM) only with RTM; GD is kept. */
    CHECK_EQ(x86_adj_dr7_rsvd(NULL, 0xffffffffu), 0xffff27ffu);
    CHECK_EQ(x86_adj_dr7_rsvd(NULL, 0x2000u), 0x2400u);
    rtm = true;
    CHECK_EQ(x86_adj_dr7_rsvd(NULL, 0xffffffffu), 0xffff2fffu);
}

static void test_merge(void)
{
    rtm = false;
    /* A breakpoint hit: B0-B3 replaced. */
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff0ff0u, 0x1), 0xffff0ff1u);
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff0ff1u, 0x4), 0xffff0ff4u);
    /* BS, BD, BT accumulate until software clears them. */
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff4ff0u, 0x2), 0xffff4ff2u);
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff0ff3u, 0x4000), 0xffff4ff0u);
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff2ff0u, 0x4000), 0xffff6ff0u);
    /* ICEBP reports nothing: the breakpoint bits go, the rest stays. */
    CHECK_EQ(x86_merge_dr6(NULL, 0xffffeff5u, 0), 0xffffeff0u);
    /* RTM (positive in the report) clears bit 16 where the guest has RTM. */
    rtm = true;
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff0ff0u, 0x10001), 0xfffe0ff1u);
    rtm = false;
    CHECK_EQ(x86_merge_dr6(NULL, 0xffff0ff0u, 0x10001), 0xffff0ff1u);
}

void test_main(void)
{
    test_dr6_fixed();
    test_dr7_fixed();
    test_merge();
}

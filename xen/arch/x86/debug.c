/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixed bits of DR6 and DR7 and how a #DB's status merges into DR6
 * (the facts of Xen's arch/x86/debug.c; see asm/debugreg.h).
 */
#include <xen/lib.h>
#include <asm/cpufeature.h>
#include <asm/cpuid.h>
#include <asm/debugreg.h>

static bool guest_has_rtm(const struct vcpu *v)
{
    struct cpuid_leaf l;

    guest_cpuid(v, 0, 0, &l);
    if ( l.a < 7 )
        return false;
    guest_cpuid(v, 7, 0, &l);
    return l.b & CPUID7B_RTM;
}

unsigned int x86_adj_dr6_rsvd(const struct vcpu *v, unsigned int dr6)
{
    unsigned int ones = X86_DR6_DEFAULT;

    /*
     * Reserved bits read as 1; bits given to later features have inverted
     * polarity and only leave 1 where the feature exists.  Bus-lock
     * detection is never advertised (cpuid.c hides it).
     */
    if ( guest_has_rtm(v) )
        ones &= ~X86_DR6_RTM;

    return (dr6 | ones) & ~X86_DR6_ZEROS;
}

unsigned int x86_adj_dr7_rsvd(const struct vcpu *v, unsigned int dr7)
{
    unsigned int zeros = X86_DR7_ZEROS;

    if ( !guest_has_rtm(v) )
        zeros |= X86_DR7_RTM;

    return (dr7 & ~zeros) | X86_DR7_DEFAULT;
}

unsigned int x86_merge_dr6(const struct vcpu *v, unsigned int dr6,
                           unsigned int pending)
{
    /* To positive polarity, where "set" means "happened". */
    dr6 ^= X86_DR6_DEFAULT;
    dr6 = (dr6 & ~X86_DR6_BP_MASK) | (pending & X86_DR6_KNOWN_MASK);
    dr6 ^= X86_DR6_DEFAULT;

    return x86_adj_dr6_rsvd(v, dr6);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The witness of the fuzz cases: a domain that must finish unharmed while
 * a neighbour does its worst.  It fills a buffer from a seeded sequence,
 * sets its own syscall MSRs, FS/GS bases and control registers, then for
 * a number of rounds yields the CPU (so the fuzzer runs) and checks that
 * nothing of it changed: memory, MSRs, CR0/CR3/CR4/EFER.  Values another
 * domain writes must never leak into this one.
 *
 * Guest command line: rounds=<n> (default 2000), seed=<n> (default 1).
 */
#include "test.h"

const char test_title[] = "Fuzz witness: memory and registers stay ours";

#define MSR_STAR            0xc0000081
#define MSR_LSTAR           0xc0000082
#define MSR_CSTAR           0xc0000083
#define MSR_SYSCALL_MASK    0xc0000084
#define MSR_FS_BASE         0xc0000100
#define MSR_GS_BASE         0xc0000101
#define MSR_SHADOW_GS_BASE  0xc0000102

#define BUF_WORDS (64 * 1024 / 8)

static uint64_t buf[BUF_WORDS];

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static const uint32_t msrs[] = {
    MSR_STAR, MSR_LSTAR, MSR_CSTAR, MSR_SYSCALL_MASK,
    MSR_FS_BASE, MSR_GS_BASE, MSR_SHADOW_GS_BASE,
};

/* Canonical, distinctive values for this domain. */
static uint64_t msr_value(unsigned int i, uint64_t seed)
{
    return i == 3 ? 0x4700 : (mix(seed + i) & 0x00007ffffffff000ULL) | (i << 4);
}

void test_main(void)
{
    unsigned long rounds = cmdline_ulong("rounds", 2000);
    uint64_t seed = cmdline_ulong("seed", 1);
    unsigned long cr0 = read_cr0(), cr3 = read_cr3(), cr4 = read_cr4();
    uint64_t efer = rdmsr(MSR_EFER);
    unsigned long r, i, bad = 0;
    uint64_t start = rdtsc();

    for ( i = 0; i < ARRAY_SIZE(msrs); i++ )
        wrmsr(msrs[i], msr_value(i, seed));

    for ( r = 0; r < rounds && bad < 8; r++ )
    {
        for ( i = 0; i < BUF_WORDS; i += 61 )
            buf[i] = mix(seed ^ (r * BUF_WORDS + i));

        if ( hypercall_page_ready )
            hypercall_yield();

        for ( i = 0; i < BUF_WORDS; i += 61 )
            if ( buf[i] != mix(seed ^ (r * BUF_WORDS + i)) && bad++ < 8 )
                xtf_failure("Fail: round %lu: word %lu changed under us\n", r, i);
        for ( i = 0; i < ARRAY_SIZE(msrs); i++ )
            if ( rdmsr(msrs[i]) != msr_value(i, seed) && bad++ < 8 )
                xtf_failure("Fail: round %lu: MSR %#x is %#lx, we wrote %#lx\n",
                            r, msrs[i], (unsigned long)rdmsr(msrs[i]),
                            (unsigned long)msr_value(i, seed));
        if ( (read_cr0() != cr0 || read_cr3() != cr3 || read_cr4() != cr4 ||
              rdmsr(MSR_EFER) != efer) && bad++ < 8 )
            xtf_failure("Fail: round %lu: CR0 %#lx CR3 %#lx CR4 %#lx EFER %#lx, "
                        "expected %#lx %#lx %#lx %#lx\n", r, read_cr0(), read_cr3(),
                        read_cr4(), (unsigned long)rdmsr(MSR_EFER), cr0, cr3, cr4,
                        (unsigned long)efer);
    }

    {
        struct vcpu_runstate_info rs = { 0 };

        /* How long that took, and how much of it we ran (the rest: others). */
        if ( hypercall_page_ready )
            hypercall_vcpu_op(VCPUOP_get_runstate_info, 0, &rs);
        printk("witness: %lu rounds, %lu differences, %lu ticks, running %lu us\n", r, bad,
               (unsigned long)(rdtsc() - start),
               (unsigned long)(rs.time[RUNSTATE_running] / 1000));
    }
    if ( !bad )
        xtf_success("Success: nothing of ours changed\n");
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPUID and MSR policy (xen/arch/x86/cpuid.c, msr.c): every MSR Debian's
 * Linux 6.1 touches as a PVH dom0 reads and writes as Xen would answer an
 * HVM guest, MSRs outside the policy #GP, values are checked, and what
 * CPUID advertises agrees with what the MSRs and CR4 accept.
 */
#include "test.h"
#include "fault.h"

const char test_title[] = "CPUID and MSR policy";

#define MSR_SMI_COUNT               0x34
#define MSR_FEATURE_CONTROL         0x3a
#define MSR_TSC_ADJUST              0x3b
#define MSR_SPEC_CTRL               0x48
#define MSR_PRED_CMD                0x49
#define MSR_PLATFORM_INFO           0xce
#define MSR_MTRRcap                 0xfe
#define MSR_ARCH_CAPABILITIES       0x10a
#define MSR_FLUSH_CMD               0x10b
#define MSR_MISC_FEATURES_ENABLES   0x140
#define MSR_MCG_CAP                 0x179
#define MSR_THERM_INTERRUPT         0x19b
#define MSR_MISC_ENABLE             0x1a0
#define MSR_MTRR_PHYSBASE(n)        (0x200 + 2 * (n))
#define MSR_MTRR_PHYSMASK(n)        (0x201 + 2 * (n))
#define MSR_MTRRfix64K_00000        0x250
#define MSR_MTRRfix4K_F8000         0x26f
#define MSR_CR_PAT                  0x277
#define MSR_MTRRdefType             0x2ff
#define MSR_PPERF                   0x64e
#define MSR_TSC_AUX                 0xc0000103
#define MSR_AMD64_DE_CFG            0xc0011029

#define X86_CR4_FSGSBASE            (1UL << 16)
#define X86_CR4_OSXSAVE             (1UL << 18)
#define X86_CR4_PKE                 (1UL << 22)
#define X86_CR4_LA57                (1UL << 12)
#define X86_CR4_VMXE                (1UL << 13)
#define X86_CR4_SMXE                (1UL << 14)
#define X86_CR4_UMIP                (1UL << 11)

/* The "not affected" and informational ARCH_CAPABILITIES bits Xen passes on. */
#define ARCH_CAPS_KNOWN             0x0d1ae17fUL

static struct cpuid_leaf l1, l7, e1;

static bool has(uint32_t reg, unsigned int bit)
{
    return reg & (1u << bit);
}

static void cpuid_consistency(void)
{
    printk("CPUID: leaf 1 ecx %#x edx %#x; leaf 7 ebx %#x ecx %#x edx %#x\n",
           l1.c, l1.d, l7.b, l7.c, l7.d);
    check_true("XSAVE, AVX hidden (1.ECX 26/28)", !has(l1.c, 26) && !has(l1.c, 28));
    check_true("x2APIC, TSC-deadline (the vLAPIC's) shown (1.ECX 21/24)",
               has(l1.c, 21) && has(l1.c, 24));
    check_true("VMX, MONITOR, PDCM, DCA hidden (1.ECX 5/3/15/18)",
               !has(l1.c, 5) && !has(l1.c, 3) && !has(l1.c, 15) && !has(l1.c, 18));
    check_true("ACPI thermal, TM, PBE, DS, PSN hidden (1.EDX 22/29/31/21/18)",
               !has(l1.d, 22) && !has(l1.d, 29) && !has(l1.d, 31) &&
               !has(l1.d, 21) && !has(l1.d, 18));
    check_true("hypervisor bit set (1.ECX 31)", has(l1.c, 31));
    check_true("TSC_ADJUST, SGX, MPX, PT, AVX2, AVX-512F hidden (7.EBX 1/2/14/25/5/16)",
               !has(l7.b, 1) && !has(l7.b, 2) && !has(l7.b, 14) && !has(l7.b, 25) &&
               !has(l7.b, 5) && !has(l7.b, 16));
    check_true("PKU, OSPKE, LA57, WAITPKG, TME hidden (7.ECX 3/4/16/5/13)",
               !has(l7.c, 3) && !has(l7.c, 4) && !has(l7.c, 16) && !has(l7.c, 5) &&
               !has(l7.c, 13));
    check_true("CORE_CAPS, ARCH_LBR, PCONFIG, SRBDS_CTRL hidden (7.EDX 30/19/18/9)",
               !has(l7.d, 30) && !has(l7.d, 19) && !has(l7.d, 18) && !has(l7.d, 9));
}

static void cr4_policy(void)
{
    unsigned long cr4 = read_cr4();

    printk("CR4 against CPUID (cr4 %#lx):\n", cr4);
    check_gp("CR4.PKE (PKU hidden)", write_cr4_ex(cr4 | X86_CR4_PKE));
    check_gp("CR4.OSXSAVE (XSAVE hidden)", write_cr4_ex(cr4 | X86_CR4_OSXSAVE));
    check_gp("CR4.LA57", write_cr4_ex(cr4 | X86_CR4_LA57));
    check_gp("CR4.VMXE (VMX hidden)", write_cr4_ex(cr4 | X86_CR4_VMXE));
    check_gp("CR4.SMXE (SMX hidden)", write_cr4_ex(cr4 | X86_CR4_SMXE));
    if ( has(l7.b, 0) )
        check_ok("CR4.FSGSBASE (advertised)", write_cr4_ex(cr4 | X86_CR4_FSGSBASE));
    else
        check_gp("CR4.FSGSBASE (not advertised)", write_cr4_ex(cr4 | X86_CR4_FSGSBASE));
    if ( has(l7.c, 2) )
        check_ok("CR4.UMIP (advertised)", write_cr4_ex(cr4 | X86_CR4_UMIP));
    else
        check_gp("CR4.UMIP (not advertised)", write_cr4_ex(cr4 | X86_CR4_UMIP));
    check_ok("CR4 restored", write_cr4_ex(cr4));
}

/* Linux's list (docs linux-dom0.md items 1, 2, 10, 13) and the rest of the policy. */
static void linux_msrs(void)
{
    uint64_t v;

    printk("MSRs Linux 6.1 touches:\n");
    check_ok("RDMSR FEATURE_CONTROL", rdmsr_ex(MSR_FEATURE_CONTROL, &v));
    check_val("FEATURE_CONTROL: locked, no VMX", v, 1);
    check_gp("WRMSR FEATURE_CONTROL (locked)", wrmsr_ex(MSR_FEATURE_CONTROL, 5));
    check_gp("RDMSR TSC_ADJUST (not advertised)", rdmsr_ex(MSR_TSC_ADJUST, &v));
    check_gp("WRMSR TSC_ADJUST", wrmsr_ex(MSR_TSC_ADJUST, 0));

    if ( has(l7.d, 29) )
    {
        check_ok("RDMSR ARCH_CAPABILITIES (advertised)", rdmsr_ex(MSR_ARCH_CAPABILITIES, &v));
        printk("       ARCH_CAPABILITIES = %#lx\n", (unsigned long)v);
        check_val("ARCH_CAPABILITIES: only bits Xen passes on", v & ~ARCH_CAPS_KNOWN, 0);
        check_gp("WRMSR ARCH_CAPABILITIES (read-only)", wrmsr_ex(MSR_ARCH_CAPABILITIES, v));
    }
    else
        check_gp("RDMSR ARCH_CAPABILITIES (not advertised)", rdmsr_ex(MSR_ARCH_CAPABILITIES, &v));

    check_ok("RDMSR PLATFORM_INFO", rdmsr_ex(MSR_PLATFORM_INFO, &v));
    check_val("PLATFORM_INFO: no CPUID faulting (bit 32)", v & (1UL << 32), 0);
    check_ok("RDMSR MISC_FEATURES_ENABLES", rdmsr_ex(MSR_MISC_FEATURES_ENABLES, &v));
    check_val("MISC_FEATURES_ENABLES", v, 0);
    check_ok("WRMSR MISC_FEATURES_ENABLES 0", wrmsr_ex(MSR_MISC_FEATURES_ENABLES, 0));
    check_gp("WRMSR MISC_FEATURES_ENABLES CPUID faulting",
             wrmsr_ex(MSR_MISC_FEATURES_ENABLES, 1));

    check_gp("RDMSR THERM_INTERRUPT 0x19b", rdmsr_ex(MSR_THERM_INTERRUPT, &v));
    check_gp("RDMSR THERM_INTERRUPT again (logged once)", rdmsr_ex(MSR_THERM_INTERRUPT, &v));
    check_gp("RDMSR PPERF 0x64e", rdmsr_ex(MSR_PPERF, &v));
    check_gp("RDMSR SMI_COUNT 0x34", rdmsr_ex(MSR_SMI_COUNT, &v));
    check_gp("RDMSR AMD DE_CFG 0xc0011029 (Intel guest)", rdmsr_ex(MSR_AMD64_DE_CFG, &v));

    if ( has(l7.d, 26) )
    {
        check_ok("RDMSR SPEC_CTRL (IBRSB advertised)", rdmsr_ex(MSR_SPEC_CTRL, &v));
        check_val("SPEC_CTRL starts at 0", v, 0);
        check_ok("WRMSR SPEC_CTRL IBRS|STIBP", wrmsr_ex(MSR_SPEC_CTRL, 3));
        rdmsr_ex(MSR_SPEC_CTRL, &v);
        check_val("SPEC_CTRL reads back", v, 3);
        check_gp("WRMSR SPEC_CTRL bit 3 (reserved)", wrmsr_ex(MSR_SPEC_CTRL, 1UL << 3));
        check_gp("WRMSR SPEC_CTRL bit 32 (reserved)", wrmsr_ex(MSR_SPEC_CTRL, 1UL << 32));
        if ( has(l7.d, 31) )
            check_ok("WRMSR SPEC_CTRL SSBD (advertised)", wrmsr_ex(MSR_SPEC_CTRL, 4));
        else
            check_gp("WRMSR SPEC_CTRL SSBD (not advertised)", wrmsr_ex(MSR_SPEC_CTRL, 4));
        rdmsr_ex(MSR_SPEC_CTRL, &v);
        check_val("SPEC_CTRL unchanged by a refused write", v, has(l7.d, 31) ? 4 : 3);
        check_ok("WRMSR SPEC_CTRL 0", wrmsr_ex(MSR_SPEC_CTRL, 0));
        check_ok("WRMSR PRED_CMD IBPB (text_poke's write)", wrmsr_ex(MSR_PRED_CMD, 1));
        check_gp("WRMSR PRED_CMD bit 1 (reserved)", wrmsr_ex(MSR_PRED_CMD, 2));
        check_gp("RDMSR PRED_CMD (write-only)", rdmsr_ex(MSR_PRED_CMD, &v));
    }
    else
    {
        check_gp("RDMSR SPEC_CTRL (not advertised)", rdmsr_ex(MSR_SPEC_CTRL, &v));
        check_gp("WRMSR PRED_CMD (not advertised)", wrmsr_ex(MSR_PRED_CMD, 1));
    }
    if ( has(l7.d, 28) )
    {
        check_ok("WRMSR FLUSH_CMD L1D (advertised)", wrmsr_ex(MSR_FLUSH_CMD, 1));
        check_gp("WRMSR FLUSH_CMD bit 1", wrmsr_ex(MSR_FLUSH_CMD, 2));
        check_gp("RDMSR FLUSH_CMD (write-only)", rdmsr_ex(MSR_FLUSH_CMD, &v));
    }
    else
        check_gp("WRMSR FLUSH_CMD (not advertised)", wrmsr_ex(MSR_FLUSH_CMD, 1));

    check_ok("RDMSR MISC_ENABLE", rdmsr_ex(MSR_MISC_ENABLE, &v));
    check_val("MISC_ENABLE: fast strings, no BTS, no PEBS", v, 0x1801);
    check_ok("WRMSR MISC_ENABLE unchanged", wrmsr_ex(MSR_MISC_ENABLE, v));
    check_gp("WRMSR MISC_ENABLE MONITOR (bit 18)", wrmsr_ex(MSR_MISC_ENABLE, v | (1UL << 18)));

    if ( has(l1.d, 7) || has(l1.d, 14) )
    {
        check_ok("RDMSR MCG_CAP (MCE advertised)", rdmsr_ex(MSR_MCG_CAP, &v));
        check_val("MCG_CAP: no banks", v, 0);
    }
    if ( has(e1.d, 27) )
    {
        check_ok("WRMSR TSC_AUX (RDTSCP advertised)", wrmsr_ex(MSR_TSC_AUX, 5));
        rdmsr_ex(MSR_TSC_AUX, &v);
        check_val("TSC_AUX reads back", v, 5);
    }
    check_gp("WRMSR PAT with type 2", wrmsr_ex(MSR_CR_PAT, 0x0007040600070402UL));
}

static void mtrrs(void)
{
    uint64_t v;

    if ( !has(l1.d, 12) )
    {
        check_gp("RDMSR MTRRcap (MTRR not advertised)", rdmsr_ex(MSR_MTRRcap, &v));
        return;
    }
    printk("MTRRs (advertised):\n");
    rdmsr_ex(MSR_MTRRcap, &v);
    check_val("MTRRcap: 8 variable, fixed, WC", v, 0x508);
    check_gp("WRMSR MTRRcap (read-only)", wrmsr_ex(MSR_MTRRcap, v));
    rdmsr_ex(MSR_MTRRdefType, &v);
    check_val("MTRRdefType: enabled, write-back", v, 0x806);
    check_gp("WRMSR MTRRdefType type 2", wrmsr_ex(MSR_MTRRdefType, 0xc02));
    check_gp("WRMSR MTRRdefType bit 12", wrmsr_ex(MSR_MTRRdefType, 0x1806));
    check_ok("WRMSR MTRRdefType UC, FE", wrmsr_ex(MSR_MTRRdefType, 0xc00));
    rdmsr_ex(MSR_MTRRdefType, &v);
    check_val("MTRRdefType reads back", v, 0xc00);
    check_ok("WRMSR MTRRdefType back to WB", wrmsr_ex(MSR_MTRRdefType, 0x806));
    check_ok("WRMSR fixed 64K all WB", wrmsr_ex(MSR_MTRRfix64K_00000, 0x0606060606060606UL));
    rdmsr_ex(MSR_MTRRfix64K_00000, &v);
    check_val("fixed 64K reads back", v, 0x0606060606060606UL);
    check_gp("WRMSR fixed 4K F8000 with UC- (7)", wrmsr_ex(MSR_MTRRfix4K_F8000, 0x0706060606060606UL));
    check_ok("WRMSR PHYSBASE0 2 GiB WB", wrmsr_ex(MSR_MTRR_PHYSBASE(0), 0x80000006UL));
    check_ok("WRMSR PHYSMASK0 valid", wrmsr_ex(MSR_MTRR_PHYSMASK(0), 0xf80000800UL));
    rdmsr_ex(MSR_MTRR_PHYSMASK(0), &v);
    check_val("PHYSMASK0 reads back", v, 0xf80000800UL);
    check_gp("WRMSR PHYSBASE0 bit 8 (reserved)", wrmsr_ex(MSR_MTRR_PHYSBASE(0), 0x80000106UL));
    check_gp("WRMSR PHYSMASK0 bit 0 (reserved)", wrmsr_ex(MSR_MTRR_PHYSMASK(0), 0xf80000801UL));
    check_gp("WRMSR PHYSBASE0 beyond the address width", wrmsr_ex(MSR_MTRR_PHYSBASE(0), 1UL << 52));
    check_gp("RDMSR PHYSBASE8 (only 8 ranges)", rdmsr_ex(MSR_MTRR_PHYSBASE(8), &v));
    wrmsr_ex(MSR_MTRR_PHYSMASK(0), 0);
}

static void apic_base(void)
{
    uint64_t v;

    printk("APIC_BASE:\n");
    check_ok("RDMSR APIC_BASE", rdmsr_ex(0x1b, &v));
    check_val("APIC_BASE: 0xfee00000, enabled, BSP on vCPU 0", v, 0xfee00900UL);
    check_ok("WRMSR APIC_BASE unchanged", wrmsr_ex(0x1b, v));
    check_gp("WRMSR APIC_BASE x2APIC without enable", wrmsr_ex(0x1b, (v & ~(1UL << 11)) | (1UL << 10)));
    check_gp("WRMSR APIC_BASE reserved bit 9", wrmsr_ex(0x1b, v | (1UL << 9)));
    check_gp("WRMSR APIC_BASE beyond the address width", wrmsr_ex(0x1b, v | (1UL << 52)));
}

static void unknown_msrs(void)
{
    uint64_t v;

    printk("MSRs outside the policy:\n");
    check_gp("RDMSR 0x12345678", rdmsr_ex(0x12345678, &v));
    check_gp("WRMSR 0x12345678", wrmsr_ex(0x12345678, 0));
    check_gp("RDMSR 0xc0010015 (AMD HWCR)", rdmsr_ex(0xc0010015, &v));
    /* DEBUGCTL (0x1d9) exists, as in Xen: tests/debug-regs. Its LBR MSRs do not. */
    check_gp("RDMSR 0x1dd (LER_FROM_LIP)", rdmsr_ex(0x1dd, &v));
}

void test_main(void)
{
    cpuid(1, &l1);
    cpuid_count(7, 0, &l7);
    cpuid(0x80000001, &e1);

    cpuid_consistency();
    cr4_policy();
    linux_msrs();
    mtrrs();
    apic_base();
    unknown_msrs();

    printk("%u checks passed\n", checks_passed());
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("The CPUID and MSR policy holds\n");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hostile guest: one instruction-level attack per case, each of which
 * once took the host down or hung it.  The guest must get exactly what
 * hardware would give it (a #GP, or the instruction completing), and the
 * hypervisor and the witness domain beside it must carry on.
 *
 * Guest command line: case=<name>
 *   msr      WRMSR of non-canonical values to LSTAR, CSTAR, KERNEL_GS_BASE,
 *            FS_BASE, GS_BASE, SYSENTER_ESP/EIP; reserved bits of SFMASK,
 *            TSC_AUX; invalid PAT memory types; reserved EFER bits.  Each
 *            must #GP and leave the MSR as it was; good values are taken.
 *            (Before the fix: a host #GP in WRMSR and a panic, or a failed
 *            VM entry.)
 *   cr       MOV to CR0 with bits 63:32 set (bits 31:0 that are reserved
 *            are ignored, as hardware does), clearing CR0.PG in 64-bit
 *            mode, CR0.NW without CD, CR4 bits not advertised (PKE,
 *            OSXSAVE, LA57), clearing CR4.PAE in long mode, CR4.PCIDE with
 *            a non-zero CR3[11:0]: each #GP, state unchanged.
 *   invd     INVD and WBINVD complete and execution goes on (before: INVD
 *            exited again and again, forever).
 *   console-flood  console_io write of 4 MiB (of NULs, which print nothing):
 *            the hypercall is preempted when the caller's slice ends and
 *            continued (Xen's hypercall continuations), so the domain's
 *            other vCPU runs during it; once, one hypercall held the CPU
 *            for as long as the guest liked.  Needs vcpus=2.
 *   spin     spin forever on one instruction (with watchdog=<s> on the
 *            command line): nothing in the hypervisor ends a spinning
 *            guest (that is legitimate), but its watchdog does, as in Xen
 *            (SCHEDOP_watchdog -> SHUTDOWN_watchdog); a toolstack would
 *            destroy it otherwise.  No Test result line.
 *   cli-hlt  CLI; HLT on the domain's only vCPU: the vCPU goes down and
 *            with it the domain ("all vCPUs offline"), so the machine can
 *            power off once the witness is done.  No Test result line.
 *   vcpu-down  VCPUOP_down on the domain's only vCPU: the same.
 */
#include "test.h"
#include "fault.h"

const char test_title[] = "Hostile guest: instruction-level attacks on the host";

#define MSR_IA32_SYSENTER_ESP   0x175
#define MSR_IA32_SYSENTER_EIP   0x176
#define MSR_IA32_CR_PAT         0x277
#define MSR_LSTAR               0xc0000082
#define MSR_CSTAR               0xc0000083
#define MSR_SYSCALL_MASK        0xc0000084
#define MSR_FS_BASE             0xc0000100
#define MSR_GS_BASE             0xc0000101
#define MSR_SHADOW_GS_BASE      0xc0000102
#define MSR_TSC_AUX             0xc0000103

#define X86_CR0_TS              (1UL << 3)
#define X86_CR0_NW              (1UL << 29)
#define X86_CR0_CD              (1UL << 30)
#define X86_CR4_OSXSAVE         (1UL << 18)
#define X86_CR4_PKE             (1UL << 22)
#define X86_CR4_LA57            (1UL << 12)
#define X86_CR4_PCIDE           (1UL << 17)

#define NONCANON_LOW            0x0000800000000000UL
#define NONCANON_HIGH           0x8000000000000000UL

/* ---- MSRs ----------------------------------------------------------------- */

struct msr_case {
    const char *name;
    uint32_t msr;
    uint64_t bad;
    uint64_t good;
};

static const struct msr_case msr_cases[] = {
    { "LSTAR non-canonical (bit 47)",    MSR_LSTAR,          NONCANON_LOW,  0xffffffff81000000UL },
    { "LSTAR non-canonical (bit 63)",    MSR_LSTAR,          NONCANON_HIGH, 0x1000 },
    { "CSTAR non-canonical",             MSR_CSTAR,          NONCANON_LOW,  0x2000 },
    { "KERNEL_GS_BASE non-canonical",    MSR_SHADOW_GS_BASE, NONCANON_HIGH, 0xffff800000000000UL },
    { "FS_BASE non-canonical",           MSR_FS_BASE,        NONCANON_LOW,  0x7fffffffe000UL },
    { "GS_BASE non-canonical",           MSR_GS_BASE,        NONCANON_HIGH, 0 },
    { "SYSENTER_ESP non-canonical",      MSR_IA32_SYSENTER_ESP, NONCANON_LOW, 0x3000 },
    { "SYSENTER_EIP non-canonical",      MSR_IA32_SYSENTER_EIP, NONCANON_HIGH, 0x4000 },
    { "SFMASK bits 63:32",               MSR_SYSCALL_MASK,   1UL << 32,     0x47700 },
    { "TSC_AUX bits 63:32",              MSR_TSC_AUX,        1UL << 40,     7 },
    { "PAT type 2 (reserved)",           MSR_IA32_CR_PAT,    0x0007040600070402UL, 0x0007040600070406UL },
    { "PAT type 8 (reserved)",           MSR_IA32_CR_PAT,    0x0007040600070408UL, 0x0007040600070406UL },
    { "EFER reserved bit 1",             MSR_EFER,           0, 0 },      /* filled in */
};

static void test_msrs(void)
{
    unsigned int i;

    printk("WRMSR with values the hardware refuses:\n");
    for ( i = 0; i < ARRAY_SIZE(msr_cases); i++ )
    {
        struct msr_case c = msr_cases[i];
        uint64_t before, after;

        if ( c.msr == MSR_EFER )
        {
            c.good = rdmsr(MSR_EFER);
            c.bad = c.good | (1UL << 1);
        }
        if ( rdmsr_ex(c.msr, &before) )
        {
            xtf_failure("Fail: RDMSR %#x faulted\n", c.msr);
            continue;
        }
        check_gp(c.name, wrmsr_ex(c.msr, c.bad));
        rdmsr_ex(c.msr, &after);
        check_val("  unchanged after the #GP", after, before);

        /* The guest keeps its MSRs: a good value goes in and reads back. */
        if ( wrmsr_ex(c.msr, c.good) )
            check_ok("  a good value", 1);
        else
        {
            rdmsr_ex(c.msr, &after);
            check_val("  good value read back", after, c.good);
        }
        wrmsr_ex(c.msr, before);
    }
}

/* ---- control registers ---------------------------------------------------- */

static void test_crs(void)
{
    unsigned long cr0 = read_cr0(), cr3 = read_cr3(), cr4 = read_cr4();
    struct cpuid_leaf l;

    printk("MOV to CR0/CR4 with values the hardware refuses:\n");
    check_gp("CR0 bit 32", write_cr0_ex(cr0 | (1UL << 32)));
    check_gp("CR0 bit 63", write_cr0_ex(cr0 | (1UL << 63)));
    check_gp("CR0.PG cleared in 64-bit mode", write_cr0_ex(cr0 & ~(unsigned long)X86_CR0_PG));
    check_gp("CR0.PE cleared with PG set", write_cr0_ex(cr0 & ~(unsigned long)X86_CR0_PE));
    check_gp("CR0.NW without CD", write_cr0_ex((cr0 | X86_CR0_NW) & ~X86_CR0_CD));
    check_val("CR0 unchanged", read_cr0(), cr0);

    check_gp("CR4 bit 32", write_cr4_ex(cr4 | (1UL << 32)));
    check_gp("CR4.OSXSAVE (XSAVE not offered)", write_cr4_ex(cr4 | X86_CR4_OSXSAVE));
    cpuid_count(7, 0, &l);
    if ( !(l.c & (1u << 3)) )
        check_gp("CR4.PKE (PKU not offered)", write_cr4_ex(cr4 | X86_CR4_PKE));
    else
        xtf_failure("Fail: CPUID advertises PKU, which is not emulated\n");
    check_gp("CR4.LA57 while paging", write_cr4_ex(cr4 | X86_CR4_LA57));
    check_gp("CR4.PAE cleared in long mode", write_cr4_ex(cr4 & ~(unsigned long)X86_CR4_PAE));
    cpuid_count(1, 0, &l);
    if ( (l.c & (1u << 17)) && (cr3 & 0xfff) == 0 )
    {
        /* PCIDE needs CR3[11:0] = 0: make them non-zero first. */
        if ( write_cr3_ex(cr3 | 0x8) )
            xtf_failure("Fail: MOV CR3 with PCD/PWT bits faulted\n");
        check_gp("CR4.PCIDE with CR3[11:0] != 0", write_cr4_ex(cr4 | X86_CR4_PCIDE));
        write_cr3_ex(cr3);
    }
    check_val("CR4 unchanged", read_cr4(), cr4);

    /* Legal writes still work. */
    check_ok("CR0.TS set", write_cr0_ex(cr0 | X86_CR0_TS));
    asm volatile ( "clts" );
    check_val("CR0.TS cleared by CLTS", read_cr0(), cr0);
    /* Reserved bits 31:0 are ignored, as on hardware (and in Xen). */
    check_ok("CR0 reserved bit 6 (ignored)", write_cr0_ex(cr0 | (1UL << 6)));
    check_val("CR0 without bit 6", read_cr0(), cr0);
}

/* ---- INVD / WBINVD ---------------------------------------------------------- */

static void test_invd(void)
{
    unsigned int i;

    printk("INVD and WBINVD complete:\n");
    for ( i = 0; i < 3; i++ )
        asm volatile ( "invd" ::: "memory" );
    check_true("INVD x3", true);
    for ( i = 0; i < 3; i++ )
        asm volatile ( "wbinvd" ::: "memory" );
    check_true("WBINVD x3", true);
}

/* ---- a hypercall that takes long ------------------------------------------ */

#define FLOOD_BYTES (4UL << 20)
static char flood_buf[FLOOD_BYTES];        /* .bss: all NULs */
static volatile bool in_call, flood_done;
static volatile unsigned long gaps_inside;

/* Count how often this vCPU was descheduled and came back during the call. */
static void watcher(unsigned int id __attribute__((unused)))
{
    uint64_t last = rdtsc();

    while ( !flood_done )
    {
        uint64_t now = rdtsc();

        if ( now - last > 20000 && in_call )
            gaps_inside++;
        last = now;
    }
}

static void test_console_flood(void)
{
    char what[80];
    long rc;
    int err;

    printk("console_io write of %lu bytes:\n", FLOOD_BYTES);
    if ( (err = vcpu_start(1, watcher)) )
        return xtf_error("Error: cannot start vCPU 1: %d\n", err);
    in_call = true;
    rc = hypercall_console_write(flood_buf, FLOOD_BYTES);
    in_call = false;
    flood_done = true;
    check_val("console_io write returned", rc, 0);
    snprintf(what, sizeof(what), "preempted: the other vCPU ran %lu times during it",
             gaps_inside);
    check_true(what, gaps_inside >= 3);
}

void test_main(void)
{
    char which[16] = "";

    if ( !cmdline_get_str("case", which, sizeof(which)) )
        return xtf_error("Error: no case= on the command line\n");

    if ( !strcmp(which, "msr") )
        test_msrs();
    else if ( !strcmp(which, "cr") )
        test_crs();
    else if ( !strcmp(which, "invd") )
        test_invd();
    else if ( !strcmp(which, "console-flood") )
        test_console_flood();
    else if ( !strcmp(which, "spin") )
    {
        printk("Spinning on one instruction until the watchdog fires\n");
        asm volatile ( "1: jmp 1b" );
    }
    else if ( !strcmp(which, "cli-hlt") )
    {
        printk("CLI; HLT on the last vCPU: this domain should go down\n");
        asm volatile ( "cli; hlt" ::: "memory" );
        /* Not reached: the vCPU is down. */
        return xtf_failure("Fail: HLT with interrupts off returned\n");
    }
    else if ( !strcmp(which, "vcpu-down") )
    {
        printk("VCPUOP_down on the last vCPU: this domain should go down\n");
        hypercall_vcpu_op(VCPUOP_down, 0, NULL);
        return xtf_failure("Fail: VCPUOP_down on the last vCPU returned\n");
    }
    else
        return xtf_error("Error: unknown case '%s'\n", which);

    printk("%u checks passed\n", checks_passed());
}

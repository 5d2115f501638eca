/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VMX capabilities, boot parameters and VMCS construction.
 *
 * The capabilities are negotiated once, from the TRUE control MSRs where
 * the CPU has them: each control word is built from the bits we cannot do
 * without ("min") and the ones we use if present ("opt"), and the
 * dependencies are pruned (PML needs EPT with A/D bits; ple_gap=0 turns
 * pause-loop exiting off).  PML is on by default (opt_pml_enabled = 1),
 * as in Xen since 4.7; pause-loop exiting is tuned by ple_gap/ple_window.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/config.h>
#include <asm/debugreg.h>
#include <asm/processor.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/hvm/vlapic.h>
#include <asm/paging.h>

/* pml=<bool>: Page Modification Logging for log-dirty tracking. */
static bool opt_pml_enabled = 1;
boolean_param("pml", opt_pml_enabled);

/* Set when the user turned PML off (pml=0, ept=pml=0 or ept=ad=0). */
static int8_t opt_ept_ad = -1;

/* ept=[pml=<bool>,ad=<bool>], Xen's spelling. */
static int parse_ept_param(const char *s)
{
    const char *ss;
    int val, rc = 0;

    do {
        ss = strchr(s, ',');
        if ( !ss )
            ss = strchr(s, '\0');

        if ( (val = parse_boolean("pml", s, ss)) >= 0 )
            opt_pml_enabled = val;
        else if ( (val = parse_boolean("ad", s, ss)) >= 0 )
            opt_ept_ad = val;
        else
            rc = -EINVAL;

        s = ss + 1;
    } while ( *ss );

    return rc;
}
custom_param("ept", parse_ept_param);

/*
 * apicv=<bool> (Xen's): use the CPU's APIC virtualization (APIC-access
 * page, APIC-register virtualization).  apicv=0 leaves the xAPIC page a
 * hole in EPT, so every access faults and is emulated (x86_emulate.c):
 * the path a CPU without these features takes, testable on one with them.
 */
static bool opt_apicv_enabled = true;
boolean_param("apicv", opt_apicv_enabled);

/* Pause-loop exiting: gap and window in TSC ticks; ple_gap=0 disables it. */
static unsigned int ple_gap = 128;
integer_param("ple_gap", ple_gap);
static unsigned int ple_window = 4096;
integer_param("ple_window", ple_window);

struct vmx_caps vmx_caps;
/* Each CPU enters VMX operation with a region of its own (Xen's vmxon_region). */
static DEFINE_PER_CPU(void *, vmxon_region);
static uint16_t next_vpid = 1;

static const char *pml_off_reason;

bool vmx_apic_access_virt(void)
{
    return cpu_has_vmx_virtualize_apic_accesses;
}

/* x2APIC mode or a disabled APIC: no xAPIC page to virtualize. */
void vmx_vlapic_mode_changed(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;
    const struct vlapic *vlapic = &v->arch.hvm.vlapic;

    if ( !cpu_has_vmx_virtualize_apic_accesses )
        return;
    if ( vlapic_x2apic_mode(vlapic) || !vlapic_hw_enabled(vlapic) )
        vmx->secondary_exec_control &= ~SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES;
    else
        vmx->secondary_exec_control |= SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES;
    vmx_vmcs_enter(v);
    __vmwrite(SECONDARY_VM_EXEC_CONTROL, vmx->secondary_exec_control);
    vmx_vmcs_exit(v);
}

bool vmx_pml_usable(void)
{
    return cpu_has_vmx_pml;
}

unsigned int vmx_ple_gap(void)
{
    return cpu_has_vmx_ple ? ple_gap : 0;
}

/*
 * Build a control word: bits in 'min' are required, bits in 'opt' are
 * used when allowed.  The MSR's low half has the bits that must be 1,
 * the high half those that may be 1.
 */
static int adjust_vmx_controls(const char *name, uint32_t min, uint32_t opt,
                               uint32_t msr, uint32_t *out)
{
    uint64_t v = rdmsr(msr);
    uint32_t must = (uint32_t)v, may = v >> 32;
    uint32_t ctl = ((min | opt) & may) | must;

    if ( (ctl & min) != min )
    {
        printk(XENLOG_ERR "VMX: CPU lacks required %s controls %#x\n",
               name, min & ~ctl);
        return -EINVAL;
    }
    *out = ctl;
    return 0;
}

static int vmx_negotiate_caps(void)
{
    uint64_t basic = rdmsr(MSR_IA32_VMX_BASIC);
    bool true_ctls = basic & VMX_BASIC_TRUE_CTLS;
    uint32_t min, opt;
    int rc;

    vmx_caps.revision_id = basic & VMX_BASIC_REVISION_MASK;

    min = PIN_BASED_EXT_INTR_MASK | PIN_BASED_NMI_EXITING;
    rc = adjust_vmx_controls("pin-based", min,
                             PIN_BASED_VIRTUAL_NMIS | PIN_BASED_PREEMPT_TIMER,
                             true_ctls ? MSR_IA32_VMX_TRUE_PINBASED_CTLS
                                       : MSR_IA32_VMX_PINBASED_CTLS,
                             &vmx_caps.pin_based);
    if ( rc )
        return rc;

    /*
     * MOV DR exits until a vCPU first touches its debug registers; they are
     * then loaded and the guest runs with them until it is switched out
     * (vmx.c, as Xen's lazy switching).
     */
    min = CPU_BASED_HLT_EXITING | CPU_BASED_UNCOND_IO_EXITING |
          CPU_BASED_MWAIT_EXITING | CPU_BASED_MONITOR_EXITING |
          CPU_BASED_MOV_DR_EXITING | CPU_BASED_ACTIVATE_SECONDARY_CONTROLS;
    rc = adjust_vmx_controls("processor-based", min, CPU_BASED_TPR_SHADOW,
                             true_ctls ? MSR_IA32_VMX_TRUE_PROCBASED_CTLS
                                       : MSR_IA32_VMX_PROCBASED_CTLS,
                             &vmx_caps.cpu_based);
    if ( rc )
        return rc;
    /* With EPT the guest owns CR3 and INVLPG; those exits must be off. */
    vmx_caps.cpu_based &= ~(CPU_BASED_CR3_LOAD_EXITING |
                            CPU_BASED_CR3_STORE_EXITING |
                            CPU_BASED_INVLPG_EXITING);
    /* With the TPR shadow CR8 is the virtual TPR; without, CR8 must exit. */
    if ( vmx_caps.cpu_based & CPU_BASED_TPR_SHADOW )
        vmx_caps.cpu_based &= ~(CPU_BASED_CR8_LOAD_EXITING | CPU_BASED_CR8_STORE_EXITING);
    else
        vmx_caps.cpu_based |= CPU_BASED_CR8_LOAD_EXITING | CPU_BASED_CR8_STORE_EXITING;

    min = SECONDARY_EXEC_ENABLE_EPT | SECONDARY_EXEC_UNRESTRICTED_GUEST;
    opt = SECONDARY_EXEC_ENABLE_VPID | SECONDARY_EXEC_ENABLE_RDTSCP |
          SECONDARY_EXEC_ENABLE_INVPCID | SECONDARY_EXEC_XSAVES |
          SECONDARY_EXEC_PAUSE_LOOP_EXITING | SECONDARY_EXEC_ENABLE_PML |
          SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES | SECONDARY_EXEC_APIC_REGISTER_VIRT;
    rc = adjust_vmx_controls("secondary", min, opt,
                             MSR_IA32_VMX_PROCBASED_CTLS2, &vmx_caps.secondary);
    if ( rc )
        return rc;

    /*
     * xAPIC MMIO without instruction decoding needs all three: accesses
     * redirected to the virtual-APIC page (TPR shadow), reads served from
     * it and writes trapping after the fact (APIC-register virtualization).
     * Without them the APIC page faults in EPT and MOVs are decoded.
     */
    if ( !opt_apicv_enabled || !(vmx_caps.cpu_based & CPU_BASED_TPR_SHADOW) ||
         !(vmx_caps.secondary & SECONDARY_EXEC_APIC_REGISTER_VIRT) ||
         !(vmx_caps.secondary & SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES) )
        vmx_caps.secondary &= ~(SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES |
                                SECONDARY_EXEC_APIC_REGISTER_VIRT);

    vmx_caps.ept_vpid = rdmsr(MSR_IA32_VMX_EPT_VPID_CAP);
    if ( !(vmx_caps.ept_vpid & VMX_EPT_WALK_LENGTH_4_SUPPORTED) ||
         !(vmx_caps.ept_vpid & VMX_EPT_MEMORY_TYPE_WB) ||
         !(vmx_caps.ept_vpid & VMX_EPT_INVEPT_INSTRUCTION) )
    {
        printk(XENLOG_ERR "VMX: EPT lacks 4-level walks, WB or INVEPT\n");
        return -EINVAL;
    }
    if ( !(vmx_caps.ept_vpid & VMX_VPID_INVVPID_INSTRUCTION) )
        vmx_caps.secondary &= ~SECONDARY_EXEC_ENABLE_VPID;

    /* EPT A/D bits: used unless ept=ad=0. */
    if ( opt_ept_ad == 0 )
        vmx_caps.ept_vpid &= ~VMX_EPT_AD_BIT;

    /* PML needs EPT A/D; the user may also turn it off. */
    if ( !(vmx_caps.secondary & SECONDARY_EXEC_ENABLE_PML) )
        pml_off_reason = "not supported by CPU";
    else if ( !opt_pml_enabled )
        pml_off_reason = "pml=0";
    else if ( !cpu_has_vmx_ept_ad )
        pml_off_reason = opt_ept_ad == 0 ? "ept=ad=0" : "no EPT A/D bits";
    if ( pml_off_reason )
        vmx_caps.secondary &= ~SECONDARY_EXEC_ENABLE_PML;

    if ( !ple_gap )
        vmx_caps.secondary &= ~SECONDARY_EXEC_PAUSE_LOOP_EXITING;

    /*
     * The guest's DR7 and IA32_DEBUGCTL are saved at each exit and loaded
     * at each entry (the VM exit itself sets DR7 to 0x400 and clears
     * DEBUGCTL).  Both controls are "default1" in the legacy control MSRs,
     * so every VMX CPU has them; the TRUE MSRs would let them be 0.
     */
    min = VM_EXIT_IA32E_MODE | VM_EXIT_SAVE_GUEST_EFER | VM_EXIT_LOAD_HOST_EFER |
          VM_EXIT_SAVE_DEBUG_CNTRLS;
    opt = VM_EXIT_SAVE_GUEST_PAT | VM_EXIT_LOAD_HOST_PAT;
    rc = adjust_vmx_controls("VM-exit", min, opt,
                             true_ctls ? MSR_IA32_VMX_TRUE_EXIT_CTLS
                                       : MSR_IA32_VMX_EXIT_CTLS,
                             &vmx_caps.exit);
    if ( rc )
        return rc;
    vmx_caps.exit &= ~VM_EXIT_ACK_INTR_ON_EXIT;

    min = VM_ENTRY_LOAD_GUEST_EFER | VM_ENTRY_LOAD_DEBUG_CTLS;
    opt = VM_ENTRY_LOAD_GUEST_PAT;
    rc = adjust_vmx_controls("VM-entry", min, opt,
                             true_ctls ? MSR_IA32_VMX_TRUE_ENTRY_CTLS
                                       : MSR_IA32_VMX_ENTRY_CTLS,
                             &vmx_caps.entry);
    if ( rc )
        return rc;
    /* Set per vCPU, following the guest's EFER.LMA. */
    vmx_caps.entry &= ~(VM_ENTRY_IA32E_MODE | VM_ENTRY_SMM);

    vmx_caps.preempt_timer_shift = rdmsr(MSR_IA32_VMX_MISC) & VMX_MISC_PREEMPT_TIMER_RATE;

    vmx_caps.cr0_fixed0 = rdmsr(MSR_IA32_VMX_CR0_FIXED0);
    vmx_caps.cr0_fixed1 = rdmsr(MSR_IA32_VMX_CR0_FIXED1);
    vmx_caps.cr4_fixed0 = rdmsr(MSR_IA32_VMX_CR4_FIXED0);
    vmx_caps.cr4_fixed1 = rdmsr(MSR_IA32_VMX_CR4_FIXED1);

    return 0;
}

static void vmx_display_features(void)
{
    printk(XENLOG_INFO "VMX: Supported advanced features:\n");
#define P(p, s) if ( p ) printk(XENLOG_INFO " - %s\n", s)
    P(cpu_has_vmx_ept, "Extended Page Tables (EPT)");
    P(cpu_has_vmx_ept && cpu_has_vmx_ept_ad, "EPT Accessed and Dirty flags");
    P(cpu_has_vmx_vpid, "Virtual-Processor Identifiers (VPID)");
    P(vmx_caps.pin_based & PIN_BASED_VIRTUAL_NMIS, "Virtual NMI");
    P(cpu_has_vmx_unrestricted_guest, "Unrestricted Guest");
    P(cpu_has_vmx_ple, "Pause-Loop Exiting");
    P(cpu_has_vmx_pml, "Page Modification Logging");
    P(vmx_caps.cpu_based & CPU_BASED_TPR_SHADOW, "APIC TPR shadow");
    P(cpu_has_vmx_virtualize_apic_accesses, "APIC MMIO access virtualisation");
    P(cpu_has_vmx_apic_reg_virt, "APIC Register Virtualization");
#undef P

    if ( cpu_has_vmx_pml )
        printk(XENLOG_INFO "VMX: PML enabled\n");
    else
        printk(XENLOG_INFO "VMX: PML disabled (%s)\n", pml_off_reason);

    if ( cpu_has_vmx_ple )
        printk(XENLOG_INFO "VMX: PLE gap %u window %u\n", ple_gap, ple_window);
    else if ( !ple_gap )
        printk(XENLOG_INFO "VMX: PLE disabled\n");
    else
        printk(XENLOG_INFO "VMX: PLE disabled (not supported by CPU)\n");
}

/* ---- raw VMX instructions ----------------------------------------------- */

static void vmx_fail(const char *insn, unsigned long field)
{
    unsigned long err = 0;

    /* VM_INSTRUCTION_ERROR is only meaningful for VMfailValid. */
    asm volatile ( "vmread %1, %0" : "=r" (err) : "r" ((unsigned long)VM_INSTRUCTION_ERROR)
                   : "cc" );
    panic("VMX: %s of field %#lx failed, VM-instruction error %lu",
          insn, field, err);
}

/*
 * Debug builds check at every VMREAD/VMWRITE that the CPU's current-VMCS
 * pointer (VMPTRST; all ones when none) is the one current_vmcs.c recorded.
 */
static inline void check_current_vmcs(void)
{
#ifdef CONFIG_DEBUG
    paddr_t hw;

    asm volatile ( "vmptrst %0" : "=m" (hw) );
    ASSERT(hw == (vmx_current_vmcs() ?: INVALID_PADDR));
#endif
}

unsigned long __vmread(unsigned long field)
{
    unsigned long value;
    bool ok;

    check_current_vmcs();
    /* Success leaves CF and ZF clear: condition "above". */
    asm volatile ( "vmread %2, %0" : "=rm" (value), "=@cca" (ok)
                   : "r" (field) : "memory" );
    if ( !ok )
        vmx_fail("vmread", field);
    return value;
}

void __vmwrite(unsigned long field, unsigned long value)
{
    bool ok;

    check_current_vmcs();
    asm volatile ( "vmwrite %2, %1" : "=@cca" (ok) : "r" (field), "rm" (value)
                   : "memory" );
    if ( !ok )
        vmx_fail("vmwrite", field);
}

bool __vmptrld(paddr_t pa)
{
    bool ok;

    asm volatile ( "vmptrld %1" : "=@cca" (ok) : "m" (pa) : "memory" );
    return ok;
}

bool __vmpclear(paddr_t pa)
{
    bool ok;

    asm volatile ( "vmclear %1" : "=@cca" (ok) : "m" (pa) : "memory" );
    return ok;
}

/* ---- per-CPU enable ----------------------------------------------------- */

int vmx_cpu_up(void)
{
    uint64_t fc, cr0, cr4;
    paddr_t pa;
    bool ok;
    int rc;

    if ( !(cpuid_ecx(1) & X86_FEATURE_VMX_ECX) )
    {
        printk(XENLOG_ERR "VMX: CPU has no VMX\n");
        return -ENODEV;
    }

    fc = rdmsr(MSR_IA32_FEATURE_CONTROL);
    if ( !(fc & IA32_FEATURE_CONTROL_LOCK) )
    {
        fc |= IA32_FEATURE_CONTROL_LOCK | IA32_FEATURE_CONTROL_VMXON_OUTSIDE_SMX;
        wrmsr(MSR_IA32_FEATURE_CONTROL, fc);
    }
    if ( !(fc & IA32_FEATURE_CONTROL_VMXON_OUTSIDE_SMX) )
    {
        printk(XENLOG_ERR "VMX: disabled by the firmware (IA32_FEATURE_CONTROL %#lx)\n",
               (unsigned long)fc);
        return -ENODEV;
    }

    /*
     * The boot CPU negotiates what every CPU will use; a later CPU must
     * offer the same VMCS revision (the controls are checked per VMCS).
     */
    if ( smp_processor_id() == 0 )
    {
        rc = vmx_negotiate_caps();
        if ( rc )
            return rc;
    }
    else if ( (rdmsr(MSR_IA32_VMX_BASIC) & VMX_BASIC_REVISION_MASK) != vmx_caps.revision_id )
    {
        printk(XENLOG_ERR "VMX: CPU%u has VMCS revision %#x, CPU0 %#x\n", smp_processor_id(),
               (uint32_t)(rdmsr(MSR_IA32_VMX_BASIC) & VMX_BASIC_REVISION_MASK),
               vmx_caps.revision_id);
        return -EINVAL;
    }

    cr0 = (read_cr0() | vmx_caps.cr0_fixed0) & vmx_caps.cr0_fixed1;
    write_cr0(cr0);
    cr4 = (read_cr4() | X86_CR4_VMXE | vmx_caps.cr4_fixed0) & vmx_caps.cr4_fixed1;
    write_cr4(cr4);

    if ( !this_cpu(vmxon_region) && !(this_cpu(vmxon_region) = alloc_xenheap_page()) )
        return -ENOMEM;
    *(uint32_t *)this_cpu(vmxon_region) = vmx_caps.revision_id;
    pa = virt_to_maddr(this_cpu(vmxon_region));
    asm volatile ( "vmxon %1" : "=@cca" (ok) : "m" (pa) : "memory" );
    if ( !ok )
    {
        printk(XENLOG_ERR "VMX: VMXON failed on CPU%u\n", smp_processor_id());
        return -EIO;
    }

    if ( smp_processor_id() == 0 )
        vmx_display_features();
    return 0;
}

/*
 * Drop every EPT-derived and VPID-tagged translation this CPU holds: the
 * receiving end of a FLUSH_HVM_ASID_CORE shootdown (arch/x86/smp.c).
 */
#define INVVPID_ALL_CONTEXT 2
void vmx_flush_guest_tlbs(void)
{
    struct { uint64_t eptp, reserved; } ept_desc = { 0, 0 };
    struct { uint64_t vpid, gla; } vpid_desc = { 0, 0 };

    if ( vmx_caps.ept_vpid & VMX_EPT_INVEPT_ALL_CONTEXT )
        asm volatile ( "invept %0, %1" :: "m" (ept_desc), "r" (2UL) : "memory", "cc" );
    if ( vmx_caps.ept_vpid & VMX_VPID_INVVPID_ALL_CONTEXT )
        asm volatile ( "invvpid %0, %1" :: "m" (vpid_desc), "r" ((unsigned long)INVVPID_ALL_CONTEXT)
                       : "memory", "cc" );
}

/* ---- VMCS construction -------------------------------------------------- */

extern char vmx_asm_vmexit_handler[];
unsigned long tss_base(void);

static void vmx_set_host_state(void)
{
    struct desc_ptr gdt, idt;

    sgdt(&gdt);
    sidt(&idt);
    __vmwrite(HOST_CR0, read_cr0());
    __vmwrite(HOST_CR3, read_cr3());
    __vmwrite(HOST_CR4, read_cr4());
    __vmwrite(HOST_ES_SELECTOR, __HYPERVISOR_DS);
    __vmwrite(HOST_CS_SELECTOR, __HYPERVISOR_CS);
    __vmwrite(HOST_SS_SELECTOR, __HYPERVISOR_DS);
    __vmwrite(HOST_DS_SELECTOR, __HYPERVISOR_DS);
    __vmwrite(HOST_FS_SELECTOR, 0);
    __vmwrite(HOST_GS_SELECTOR, 0);
    __vmwrite(HOST_TR_SELECTOR, TSS_SELECTOR);
    __vmwrite(HOST_FS_BASE, 0);
    __vmwrite(HOST_GS_BASE, 0);
    __vmwrite(HOST_TR_BASE, tss_base());
    __vmwrite(HOST_GDTR_BASE, gdt.base);
    __vmwrite(HOST_IDTR_BASE, idt.base);
    __vmwrite(HOST_SYSENTER_CS, 0);
    __vmwrite(HOST_SYSENTER_ESP, 0);
    __vmwrite(HOST_SYSENTER_EIP, 0);
    __vmwrite(HOST_EFER, rdmsr(MSR_EFER));
    if ( vmx_caps.exit & VM_EXIT_LOAD_HOST_PAT )
        __vmwrite(HOST_PAT, rdmsr(MSR_IA32_CR_PAT));
    __vmwrite(HOST_RIP, (unsigned long)vmx_asm_vmexit_handler);
    /* HOST_RSP is written by vmx_enter_guest() before every entry. */
}

/* The VMCS fields of each guest segment register: selector, base, limit, AR. */
static const unsigned int seg_fields[][4] = {
    [x86_seg_es] = { GUEST_ES_SELECTOR, GUEST_ES_BASE, GUEST_ES_LIMIT, GUEST_ES_AR_BYTES },
    [x86_seg_cs] = { GUEST_CS_SELECTOR, GUEST_CS_BASE, GUEST_CS_LIMIT, GUEST_CS_AR_BYTES },
    [x86_seg_ss] = { GUEST_SS_SELECTOR, GUEST_SS_BASE, GUEST_SS_LIMIT, GUEST_SS_AR_BYTES },
    [x86_seg_ds] = { GUEST_DS_SELECTOR, GUEST_DS_BASE, GUEST_DS_LIMIT, GUEST_DS_AR_BYTES },
    [x86_seg_fs] = { GUEST_FS_SELECTOR, GUEST_FS_BASE, GUEST_FS_LIMIT, GUEST_FS_AR_BYTES },
    [x86_seg_gs] = { GUEST_GS_SELECTOR, GUEST_GS_BASE, GUEST_GS_LIMIT, GUEST_GS_AR_BYTES },
    [x86_seg_ldtr] = { GUEST_LDTR_SELECTOR, GUEST_LDTR_BASE, GUEST_LDTR_LIMIT, GUEST_LDTR_AR_BYTES },
    [x86_seg_tr] = { GUEST_TR_SELECTOR, GUEST_TR_BASE, GUEST_TR_LIMIT, GUEST_TR_AR_BYTES },
};

void vmx_set_segment(enum x86_segment seg, uint16_t sel, uint64_t base,
                     uint32_t limit, uint32_t ar)
{
    __vmwrite(seg_fields[seg][0], sel);
    __vmwrite(seg_fields[seg][1], base);
    __vmwrite(seg_fields[seg][2], limit);
    __vmwrite(seg_fields[seg][3], ar);
}

void vmx_get_segment(enum x86_segment seg, uint32_t *sel, uint64_t *base,
                     uint32_t *limit, uint32_t *ar)
{
    *sel = __vmread(seg_fields[seg][0]);
    *base = __vmread(seg_fields[seg][1]);
    *limit = __vmread(seg_fields[seg][2]);
    *ar = __vmread(seg_fields[seg][3]);
}

/* Guest segment state for the PVH entry: flat 32-bit protected mode. */
static void vmx_set_flat32_segments(void)
{
    enum x86_segment seg;

    /* G=1, D/B=1, P=1, S=1; code: execute/read accessed, data: read/write accessed */
    for ( seg = x86_seg_es; seg <= x86_seg_gs; seg++ )
        vmx_set_segment(seg, seg == x86_seg_cs ? 0x08 : 0x10, 0, 0xffffffff,
                        seg == x86_seg_cs ? 0xc09b : 0xc093);
    vmx_set_segment(x86_seg_ldtr, 0, 0, 0, X86_SEG_AR_UNUSABLE);
    /* TR must be usable: a busy 32-bit TSS (type 11), present. */
    vmx_set_segment(x86_seg_tr, 0, 0, 0x67, 0x008b);
    __vmwrite(GUEST_GDTR_BASE, 0);
    __vmwrite(GUEST_GDTR_LIMIT, 0);
    __vmwrite(GUEST_IDTR_BASE, 0);
    __vmwrite(GUEST_IDTR_LIMIT, 0);
}

/* The value the CPU runs with for a CR0 the guest asked for. */
unsigned long vmx_real_cr0(unsigned long guest_cr0)
{
    /* Unrestricted guest: PE and PG may be clear even if fixed0 says 1. */
    unsigned long fixed0 = vmx_caps.cr0_fixed0 & ~(X86_CR0_PE | X86_CR0_PG);

    return (guest_cr0 | fixed0) & vmx_caps.cr0_fixed1;
}

unsigned long vmx_real_cr4(unsigned long guest_cr4)
{
    return (guest_cr4 | vmx_caps.cr4_fixed0) & vmx_caps.cr4_fixed1;
}

int vmx_create_vmcs(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;
    struct domain *d = v->domain;
    uint32_t secondary = vmx_caps.secondary;

    vmx->vmcs = domain_alloc_xenheap_pages(d, 0);      /* counted against d */
    if ( !vmx->vmcs )
        return -ENOMEM;
    *(uint32_t *)vmx->vmcs = vmx_caps.revision_id;
    vmx->vmcs_pa = virt_to_maddr(vmx->vmcs);
    vmx->active_cpu = -1;
    vmx->launched = false;
    /* A new region: VMCLEAR initialises it; it is active on no CPU yet. */
    if ( !__vmpclear(vmx->vmcs_pa) )
        return -EIO;
    vmx_vmcs_enter(v);

    /* PML is switched on only while the domain is in log-dirty mode. */
    secondary &= ~SECONDARY_EXEC_ENABLE_PML;
    if ( cpu_has_vmx_vpid )
    {
        vmx->vpid = next_vpid++;
        __vmwrite(VIRTUAL_PROCESSOR_ID, vmx->vpid);
    }
    vmx->secondary_exec_control = secondary;
    vmx->entry_control = vmx_caps.entry;

    __vmwrite(PIN_BASED_VM_EXEC_CONTROL, vmx_caps.pin_based);
    __vmwrite(CPU_BASED_VM_EXEC_CONTROL, vmx_caps.cpu_based);
    __vmwrite(SECONDARY_VM_EXEC_CONTROL, secondary);
    __vmwrite(VM_EXIT_CONTROLS, vmx_caps.exit);
    __vmwrite(VM_ENTRY_CONTROLS, vmx->entry_control);
    /*
     * #DB and #AC are intercepted always, as Xen does since XSA-156
     * (CVE-2015-8104, CVE-2015-5307): a guest can make their delivery raise
     * them again with no instruction boundary in between, which hangs a CPU
     * in microcode.  vmx.c re-injects them (#DB with the SDM's DR6 update).
     */
    __vmwrite(EXCEPTION_BITMAP, (1u << X86_EXC_MC) | (1u << X86_EXC_DB) |
                                (1u << X86_EXC_AC));
    __vmwrite(PAGE_FAULT_ERROR_CODE_MASK, 0);
    __vmwrite(PAGE_FAULT_ERROR_CODE_MATCH, 0);
    __vmwrite(CR3_TARGET_COUNT, 0);
    __vmwrite(VM_EXIT_MSR_STORE_COUNT, 0);
    __vmwrite(VM_EXIT_MSR_LOAD_COUNT, 0);
    __vmwrite(VM_ENTRY_MSR_LOAD_COUNT, 0);
    __vmwrite(VM_ENTRY_INTR_INFO, 0);
    __vmwrite(TSC_OFFSET, 0);
    __vmwrite(VMCS_LINK_POINTER, ~0UL);
    __vmwrite(EPT_POINTER, d->arch.hvm.p2m.eptp);
    if ( vmx_caps.cpu_based & CPU_BASED_TPR_SHADOW )
    {
        /* The vLAPIC's register page is the virtual-APIC page. */
        __vmwrite(VIRTUAL_APIC_PAGE_ADDR, virt_to_maddr(v->arch.hvm.vlapic.regs));
        __vmwrite(TPR_THRESHOLD, 0);
    }
    if ( secondary & SECONDARY_EXEC_VIRTUALIZE_APIC_ACCESSES )
        __vmwrite(APIC_ACCESS_ADDR, vlapic_access_mfn(d) << PAGE_SHIFT);

    if ( secondary & SECONDARY_EXEC_PAUSE_LOOP_EXITING )
    {
        __vmwrite(PLE_GAP, ple_gap);
        __vmwrite(PLE_WINDOW, ple_window);
    }

    vmx_set_host_state();

    /*
     * The guest owns no CR0 bit: every write exits and is emulated, so
     * that EFER.LMA and the IA-32e entry control follow CR0.PG.  CR4 is
     * handled the same way (VMXE stays set underneath and reads as 0), so
     * guest_cr0/guest_cr4 always hold what the guest last wrote.
     */
    __vmwrite(CR0_GUEST_HOST_MASK, ~0UL);
    vmx->cr4_host_mask = ~0UL;
    __vmwrite(CR4_GUEST_HOST_MASK, vmx->cr4_host_mask);

    v->arch.hvm.guest_cr0 = X86_CR0_PE | X86_CR0_ET;
    v->arch.hvm.guest_cr4 = 0;
    v->arch.hvm.guest_efer = 0;
    __vmwrite(GUEST_CR0, vmx_real_cr0(v->arch.hvm.guest_cr0));
    __vmwrite(CR0_READ_SHADOW, v->arch.hvm.guest_cr0);
    __vmwrite(GUEST_CR4, vmx_real_cr4(v->arch.hvm.guest_cr4));
    __vmwrite(CR4_READ_SHADOW, v->arch.hvm.guest_cr4);
    __vmwrite(GUEST_CR3, 0);
    __vmwrite(GUEST_EFER, 0);
    if ( vmx_caps.entry & VM_ENTRY_LOAD_GUEST_PAT )
        __vmwrite(GUEST_PAT, 0x0007040600070406ULL);
    __vmwrite(GUEST_DR7, X86_DR7_DEFAULT);
    __vmwrite(GUEST_IA32_DEBUGCTL, 0);
    __vmwrite(GUEST_SYSENTER_CS, 0);
    __vmwrite(GUEST_SYSENTER_ESP, 0);
    __vmwrite(GUEST_SYSENTER_EIP, 0);
    __vmwrite(GUEST_INTERRUPTIBILITY_INFO, 0);
    __vmwrite(GUEST_ACTIVITY_STATE, GUEST_ACTIVITY_ACTIVE);
    __vmwrite(GUEST_PENDING_DBG_EXCEPTIONS, 0);
    vmx_set_flat32_segments();

    __vmwrite(GUEST_RIP, 0);
    __vmwrite(GUEST_RSP, 0);
    __vmwrite(GUEST_RFLAGS, X86_EFLAGS_MBS);

    vmx_vmcs_exit(v);
    return 0;
}

void vmx_destroy_vmcs(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;

    if ( vmx->vmcs )
    {
        vmx_clear_vmcs(v);
        domain_free_xenheap_pages(v->domain, vmx->vmcs, 0);
        vmx->vmcs = NULL;
        vmx->vmcs_pa = 0;
    }
    if ( vmx->pml_pg )
    {
        domain_free_xenheap_pages(v->domain, vmx->pml_pg, 0);
        vmx->pml_pg = NULL;
    }
}

/* ---- Page Modification Logging ------------------------------------------- */

/*
 * Drain v's PML buffer into the log-dirty bitmap.  v's VMCS must be the
 * loaded one (v is current, or inside vmx_vmcs_enter/exit).  The index
 * counts down from 511 and wraps to 0xffff when the buffer is full;
 * entries above the index are valid.
 */
void vmx_vcpu_flush_pml_buffer(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;
    const uint64_t *buf = vmx->pml_pg;
    unsigned long idx;
    unsigned int i;

    if ( !buf || !(vmx->secondary_exec_control & SECONDARY_EXEC_ENABLE_PML) )
        return;
    ASSERT(vmx_vmcs_is_loaded(v));

    idx = __vmread(GUEST_PML_INDEX);
    i = idx >= PML_ENTITY_NUM ? 0 : idx + 1;
    dirty_vcpu_add(v, pml_entries, PML_ENTITY_NUM - i);
    paging_mark_dirty_gpas(v->domain, &buf[i], PML_ENTITY_NUM - i, v);
    __vmwrite(GUEST_PML_INDEX, PML_ENTITY_NUM - 1);
}

int vmx_domain_enable_pml(struct domain *d)
{
    struct vcpu *v;

    if ( !cpu_has_vmx_pml )
        return -EOPNOTSUPP;

    for_each_vcpu ( d, v )
        if ( !v->arch.hvm.vmx.pml_pg &&
             !(v->arch.hvm.vmx.pml_pg = domain_alloc_xenheap_pages(d, 0)) )
            return -ENOMEM;

    for_each_vcpu ( d, v )
    {
        struct vmx_vcpu *vmx = &v->arch.hvm.vmx;

        vmx_vmcs_enter(v);
        __vmwrite(PML_ADDRESS, virt_to_maddr(vmx->pml_pg));
        __vmwrite(GUEST_PML_INDEX, PML_ENTITY_NUM - 1);
        vmx->secondary_exec_control |= SECONDARY_EXEC_ENABLE_PML;
        __vmwrite(SECONDARY_VM_EXEC_CONTROL, vmx->secondary_exec_control);
        vmx_vmcs_exit(v);
    }
    return 0;
}

void vmx_domain_flush_pml_buffers(struct domain *d)
{
    struct vcpu *v;

    for_each_vcpu ( d, v )
    {
        if ( !(v->arch.hvm.vmx.secondary_exec_control & SECONDARY_EXEC_ENABLE_PML) )
            continue;
        vmx_vmcs_enter(v);
        vmx_vcpu_flush_pml_buffer(v);
        vmx_vmcs_exit(v);
    }
}

void vmx_domain_disable_pml(struct domain *d)
{
    struct vcpu *v;

    for_each_vcpu ( d, v )
    {
        struct vmx_vcpu *vmx = &v->arch.hvm.vmx;

        if ( !(vmx->secondary_exec_control & SECONDARY_EXEC_ENABLE_PML) )
            continue;
        vmx_vmcs_enter(v);
        vmx_vcpu_flush_pml_buffer(v);
        vmx->secondary_exec_control &= ~SECONDARY_EXEC_ENABLE_PML;
        __vmwrite(SECONDARY_VM_EXEC_CONTROL, vmx->secondary_exec_control);
        vmx_vmcs_exit(v);
    }
}

/*
 * End the guest's run at the scheduler's slice deadline with the VMX
 * preemption timer, where the CPU has it.  The local APIC timer would do on
 * hardware (external interrupts exit the guest whatever its RFLAGS.IF), but
 * Bochs re-evaluates interrupt masking only when IF changes, so a guest that
 * spins with interrupts off never sees the timer; the preemption timer
 * counts inside VMX non-root operation and always exits.
 */
void vmx_set_preemption_timer(uint64_t deadline)
{
    uint64_t now, ticks;

    if ( !(vmx_caps.pin_based & PIN_BASED_PREEMPT_TIMER) )
        return;
    now = rdtsc();
    ticks = deadline > now ? (deadline - now) >> vmx_caps.preempt_timer_shift : 0;
    __vmwrite(GUEST_PREEMPTION_TIMER, ticks > 0xffffffffULL ? 0xffffffffU : ticks);
}

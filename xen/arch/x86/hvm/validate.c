/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks on values entering a vCPU's state from the guest or the control
 * domain (see asm/hvm/validate.h).  The rules are the architecture's
 * (Intel SDM vol. 3, "Checks on Guest State Area" and the MSR/CR
 * descriptions), applied before anything is written, so that nothing
 * reaches the VMCS, a host MSR or FXRSTOR that would fault in the
 * hypervisor or fail a VM entry.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/hvm/save.h>
#include <asm/cpuid.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/validate.h>
#include <asm/msr-index.h>
#include <asm/processor.h>

static uint32_t mxcsr_mask = 0xffbf;    /* the architectural default */
static unsigned int paddr_bits = 36;
static bool cpu_has_nx;

void hvm_validate_init(void)
{
    static uint8_t fxsave_area[512] __attribute__((aligned(16)));
    struct cpuid_leaf l;
    uint32_t mask;

    /* FXSAVE stores the MXCSR_MASK at byte 28; 0 means 0xffbf. */
    asm volatile ( "fxsave64 %0" : "=m" (fxsave_area) );
    memcpy(&mask, fxsave_area + 28, sizeof(mask));
    if ( mask )
        mxcsr_mask = mask;

    cpuid_count(0x80000000, 0, &l);
    if ( l.a >= 0x80000008 )
    {
        cpuid_count(0x80000008, 0, &l);
        paddr_bits = l.a & 0xff;
    }
    if ( paddr_bits > 48 )
        paddr_bits = 48;            /* four EPT levels map 48 bits */
    cpuid_count(0x80000001, 0, &l);
    cpu_has_nx = l.d & (1u << 20);
}

unsigned int hvm_paddr_bits(void)
{
    return paddr_bits;
}

bool hvm_cr0_bits_valid(uint64_t cr0)
{
    return !(cr0 & ~(uint64_t)HVM_CR0_GUEST_DEFINED) &&
           !((cr0 & X86_CR0_PG) && !(cr0 & X86_CR0_PE)) &&
           !((cr0 & X86_CR0_NW) && !(cr0 & X86_CR0_CD));
}

uint64_t hvm_cr4_guest_valid_bits(const struct domain *d)
{
    struct cpuid_leaf l1, l7;
    struct vcpu *v = d->vcpu ? d->vcpu[0] : NULL;
    uint64_t valid = X86_CR4_VME | X86_CR4_PVI | X86_CR4_TSD | X86_CR4_DE |
                     X86_CR4_PSE | X86_CR4_PAE | X86_CR4_MCE | X86_CR4_PGE |
                     X86_CR4_PCE | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;

    if ( !v )
        return valid;
    /* What the guest's CPUID advertises, and nothing else. */
    guest_cpuid(v, 1, 0, &l1);
    guest_cpuid(v, 7, 0, &l7);
    if ( l1.c & (1u << 17) )
        valid |= X86_CR4_PCIDE;
    if ( l7.b & (1u << 0) )
        valid |= X86_CR4_FSGSBASE;
    if ( l7.b & (1u << 7) )
        valid |= X86_CR4_SMEP;
    if ( l7.b & (1u << 20) )
        valid |= X86_CR4_SMAP;
    if ( l7.c & (1u << 2) )
        valid |= X86_CR4_UMIP;
    return valid;
}

bool hvm_efer_valid(uint64_t efer)
{
    uint64_t valid = EFER_SCE | EFER_LME | EFER_LMA | (cpu_has_nx ? EFER_NXE : 0);

    return !(efer & ~valid);
}

bool hvm_cr3_valid(uint64_t cr3)
{
    return !(cr3 >> paddr_bits);
}

/* Bits 1 (always 1), 3, 5, 15 and 22-63 are reserved. */
#define RFLAGS_RESERVED  (~0x3f7fd7UL)

bool hvm_rflags_valid(uint64_t rflags, bool long_mode)
{
    if ( (rflags & RFLAGS_RESERVED) || !(rflags & X86_EFLAGS_MBS) )
        return false;
    return !(long_mode && (rflags & X86_EFLAGS_VM));
}

bool hvm_pat_valid(uint64_t pat)
{
    unsigned int i;

    for ( i = 0; i < 8; i++ )
    {
        uint8_t t = pat >> (8 * i);

        /* 0 UC, 1 WC, 4 WT, 5 WP, 6 WB, 7 UC-; 2, 3 and 8+ reserved. */
        if ( t > 7 || t == 2 || t == 3 )
            return false;
    }
    return true;
}

static bool mtrr_type_valid(uint8_t t)
{
    return t == MTRR_TYPE_UNCACHABLE || t == MTRR_TYPE_WRCOMB ||
           t == MTRR_TYPE_WRTHROUGH || t == MTRR_TYPE_WRPROT ||
           t == MTRR_TYPE_WRBACK;
}

bool hvm_mtrr_def_type_valid(uint64_t val)
{
    return !(val & ~(uint64_t)(MTRRdefType_TYPE_MASK | MTRRdefType_FE | MTRRdefType_E)) &&
           mtrr_type_valid(val & MTRRdefType_TYPE_MASK);
}

bool hvm_mtrr_fixed_valid(uint64_t val)
{
    unsigned int i;

    for ( i = 0; i < 8; i++ )
        if ( !mtrr_type_valid(val >> (8 * i)) )
            return false;
    return true;
}

/* PHYSBASE: type in 7:0, 11:8 reserved; PHYSMASK: 10:0 reserved, V in 11. */
bool hvm_mtrr_var_valid(bool base, uint64_t val)
{
    if ( val >> paddr_bits )
        return false;
    if ( base )
        return !(val & 0xf00) && mtrr_type_valid(val & 0xff);
    return !(val & (MTRR_PHYSMASK_VALID - 1));
}

bool hvm_mxcsr_valid(uint32_t mxcsr)
{
    return !(mxcsr & ~mxcsr_mask);
}

bool hvm_msr_value_valid(uint32_t msr, uint64_t val)
{
    switch ( msr )
    {
    case MSR_LSTAR:
    case MSR_CSTAR:
    case MSR_FS_BASE:
    case MSR_GS_BASE:
    case MSR_SHADOW_GS_BASE:
    case MSR_IA32_SYSENTER_ESP:
    case MSR_IA32_SYSENTER_EIP:
        return is_canonical_address(val);
    case MSR_SYSCALL_MASK:
    case MSR_TSC_AUX:
        return !(val >> 32);            /* bits 63:32 reserved */
    case MSR_IA32_CR_PAT:
        return hvm_pat_valid(val);
    case MSR_EFER:
        return hvm_efer_valid(val);
    default:
        return true;
    }
}

/* ---- whole CPU records ---------------------------------------------------- */

#define X86_EVENTTYPE_EXT_INTR      0
#define X86_EVENTTYPE_RESERVED      1
#define X86_EVENTTYPE_NMI_TYPE      2
#define X86_EVENTTYPE_HW_EXC        3

/* Exceptions that push an error code: #DF, #TS, #NP, #SS, #GP, #PF, #AC. */
static bool vector_has_error_code(unsigned int vector)
{
    return vector == 8 || (vector >= 10 && vector <= 14) || vector == 17;
}

static bool pending_event_valid(const struct hvm_hw_cpu *c)
{
    unsigned int vector = c->pending_event & 0xff;
    unsigned int type = (c->pending_event >> 8) & 7;
    bool has_error = c->pending_event & (1u << 11);

    if ( !(c->pending_event & (1u << 31)) )
        return true;                    /* nothing pending */
    if ( c->pending_event & 0x7ffff000u )
        return false;                   /* bits 30:12 reserved */
    switch ( type )
    {
    case X86_EVENTTYPE_RESERVED:
        return false;
    case X86_EVENTTYPE_NMI_TYPE:
        if ( vector != 2 )
            return false;
        break;
    case X86_EVENTTYPE_HW_EXC:
        if ( vector > 31 )
            return false;
        break;
    }
    /* An error code only with an exception that has one, in protected mode. */
    if ( has_error && (type != X86_EVENTTYPE_HW_EXC || !vector_has_error_code(vector) ||
                       !(c->cr0 & X86_CR0_PE)) )
        return false;
    if ( has_error && (c->error_code >> 15) )
        return false;                   /* bits 31:15 must be 0 (SDM 26.2.1.3) */
    return true;
}

#define SEG_PACKED_L (1u << 9)     /* L in Xen's packed access rights */

#define BAD(what) do { field = (what); goto bad; } while ( 0 )

int hvm_hw_cpu_check(const struct domain *d, const struct hvm_hw_cpu *c)
{
    const char *field;
    uint32_t mxcsr;
    bool lma = c->msr_efer & EFER_LMA;

    if ( c->flags & ~XEN_X86_FPU_INITIALISED )
        BAD("flags");
    memcpy(&mxcsr, c->fpu_regs + 24, sizeof(mxcsr));
    if ( !hvm_mxcsr_valid(mxcsr) )
        BAD("MXCSR (reserved bits)");

    if ( !hvm_cr0_bits_valid(c->cr0) )
        BAD("cr0");
    if ( c->cr4 & ~hvm_cr4_guest_valid_bits(d) )
        BAD("cr4");
    if ( !hvm_efer_valid(c->msr_efer) )
        BAD("efer");
    /* LMA = LME && PG; long mode needs PAE; no legacy PAE paging here. */
    if ( lma != ((c->msr_efer & EFER_LME) && (c->cr0 & X86_CR0_PG)) )
        BAD("efer.lma");
    if ( lma && !(c->cr4 & X86_CR4_PAE) )
        BAD("cr4.pae in long mode");
    if ( !lma && (c->cr0 & X86_CR0_PG) && (c->cr4 & X86_CR4_PAE) )
        BAD("legacy PAE paging (not supported)");
    if ( (c->cr4 & X86_CR4_PCIDE) && !lma )
        BAD("cr4.pcide outside long mode");
    if ( !hvm_cr3_valid(c->cr3) )
        BAD("cr3");
    /* Bits 63:32 of DR6/DR7 #GP on MOV (the hypervisor's own, at load). */
    if ( c->dr6 >> 32 )
        BAD("dr6");
    if ( c->dr7 >> 32 )
        BAD("dr7");
    /* The must-be-one bit 1 is set at load, as Xen's hvm_load_cpu_ctxt. */
    if ( !hvm_rflags_valid(c->rflags | X86_EFLAGS_MBS, lma) )
        BAD("rflags");
    /* 64-bit code: canonical; otherwise bits 63:32 clear (SDM 26.3.1.4). */
    if ( lma && (c->cs_arbytes & SEG_PACKED_L) ? !is_canonical_address(c->rip)
                                                : (c->rip >> 32) )
        BAD("rip");

    if ( !is_canonical_address(c->fs_base) || !is_canonical_address(c->gs_base) ||
         !is_canonical_address(c->tr_base) || !is_canonical_address(c->ldtr_base) )
        BAD("segment base");
    if ( (c->cs_base | c->ds_base | c->es_base | c->ss_base) >> 32 )
        BAD("segment base");
    if ( !is_canonical_address(c->gdtr_base) || !is_canonical_address(c->idtr_base) )
        BAD("descriptor table base");
    if ( c->gdtr_limit > 0xffff || c->idtr_limit > 0xffff )
        BAD("descriptor table limit");
    if ( (c->cs_sel | c->ds_sel | c->es_sel | c->fs_sel | c->gs_sel | c->ss_sel |
          c->tr_sel | c->ldtr_sel) >> 16 )
        BAD("segment selector");
    if ( (c->cs_arbytes | c->ds_arbytes | c->es_arbytes | c->fs_arbytes |
          c->gs_arbytes | c->ss_arbytes | c->tr_arbytes | c->ldtr_arbytes) >> 12 )
        BAD("segment access rights");

    if ( !is_canonical_address(c->sysenter_esp) || !is_canonical_address(c->sysenter_eip) )
        BAD("sysenter");
    if ( c->sysenter_cs >> 32 )
        BAD("sysenter_cs");
    if ( !hvm_msr_value_valid(MSR_LSTAR, c->msr_lstar) ||
         !hvm_msr_value_valid(MSR_CSTAR, c->msr_cstar) ||
         !hvm_msr_value_valid(MSR_SHADOW_GS_BASE, c->shadow_gs) )
        BAD("syscall MSRs (non-canonical)");
    if ( !hvm_msr_value_valid(MSR_SYSCALL_MASK, c->msr_syscall_mask) ||
         !hvm_msr_value_valid(MSR_TSC_AUX, c->msr_tsc_aux) )
        BAD("MSR reserved bits");

    if ( !pending_event_valid(c) )
        BAD("pending event");
    return 0;

 bad:
    printk(XENLOG_G_ERR "d%u: HVM CPU record refused: bad %s\n", d->domain_id, field);
    return -EINVAL;
}

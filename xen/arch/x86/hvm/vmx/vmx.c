/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The VM-exit path: run a vCPU until it has to give up the CPU, and
 * dispatch each exit through one table indexed by exit reason.
 *
 * Every exit is counted per vCPU and per reason before dispatch.  A guest
 * that does something we cannot or will not handle is crashed with one
 * log line naming the reason; the hypervisor and other domains carry on.
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/softirq.h>
#include <asm/cpuid.h>
#include <asm/debugreg.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/io.h>
#include <asm/hvm/support.h>
#include <asm/hvm/validate.h>
#include <asm/hvm/vlapic.h>
#include <asm/apic.h>
#include <asm/hvm/vmx/vmcs.h>
#include <asm/hvm/vmx/vmx.h>
#include <asm/x86_emulate.h>
#include <asm/msr.h>
#include <asm/p2m.h>
#include <asm/processor.h>
#include <asm/x86_emulate.h>
#include <xen/string.h>
#include <public/hvm/hvm_vcpu.h>
#include <public/hvm/save.h>

/*
 * vmexit_cost_ticks=<n>: spend n TSC ticks in every VM exit before handling
 * it.  Bochs charges nothing for the exit and entry themselves (only the
 * instructions the handler runs), while hardware spends over a thousand
 * cycles per round trip; benchmarks use this to model that cost.  Default 0
 * (off).  This project's parameter, not Xen's.
 */
static unsigned int vmexit_cost_ticks;
integer_param("vmexit_cost_ticks", vmexit_cost_ticks);

static const char *const exit_reason_names[EXIT_REASON_NR] = {
#define X(name, nr) [nr] = #name,
    VMX_EXIT_REASONS(X)
#undef X
};

const char *vmx_exit_reason_name(unsigned int reason)
{
    if ( reason < EXIT_REASON_NR && exit_reason_names[reason] )
        return exit_reason_names[reason];
    return "?";
}

void vmx_inject_hw_exception(unsigned int vector, int error_code)
{
    uint32_t info = vector | (X86_EVENTTYPE_HW_EXCEPTION << INTR_INFO_INTR_TYPE_SHIFT) |
                    INTR_INFO_VALID_MASK;

    if ( error_code >= 0 )
    {
        info |= INTR_INFO_DELIVER_CODE_MASK;
        __vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, error_code);
    }
    __vmwrite(VM_ENTRY_INTR_INFO, info);
}

/*
 * Step over 'len' bytes of instruction the hypervisor completed for the
 * guest: leaving it ends any STI / MOV SS interrupt shadow and clears
 * RFLAGS.RF, as completing an instruction does.
 */
static void step_over(struct cpu_user_regs *regs, unsigned long len)
{
    unsigned long intr;

    regs->rip += len;
    regs->rflags &= ~(unsigned long)X86_EFLAGS_RF;
    intr = __vmread(GUEST_INTERRUPTIBILITY_INFO);
    if ( intr & (VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS) )
        __vmwrite(GUEST_INTERRUPTIBILITY_INFO,
                  intr & ~(unsigned long)(VMX_INTR_SHADOW_STI | VMX_INTR_SHADOW_MOV_SS));
}

/* Complete the instruction that caused the exit (Xen's update_guest_eip). */
static void update_guest_rip(struct cpu_user_regs *regs)
{
    step_over(regs, __vmread(VM_EXIT_INSTRUCTION_LEN));
    vmx_singlestep_done(current, regs);
}

/* ---- exit handlers ------------------------------------------------------ */

typedef void (*vmx_exit_handler_t)(struct vcpu *v, struct cpu_user_regs *regs);

static void vmx_exit_unhandled(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned int reason = VMX_EXIT_REASON_BASIC(__vmread(VM_EXIT_REASON));

    domain_crash(v->domain, "d%uv%u unhandled VM exit %u (%s) at rip %#lx",
                 v->domain->domain_id, v->vcpu_id, reason,
                 vmx_exit_reason_name(reason), (unsigned long)regs->rip);
}

static void vmx_exit_exception_nmi(struct vcpu *v, struct cpu_user_regs *regs)
{
    uint32_t info = __vmread(VM_EXIT_INTR_INFO);
    unsigned int type = (info >> INTR_INFO_INTR_TYPE_SHIFT) & 7;

    if ( type == X86_EVENTTYPE_NMI )
    {
        /* Only smp_send_stop() sends NMIs: another CPU panicked. */
        if ( smp_stopping() )
            stop_this_cpu();
        return;
    }
    switch ( info & INTR_INFO_VECTOR_MASK )
    {
    case X86_EXC_DB:
        vmx_exit_debug(v, regs, info);
        return;
    case X86_EXC_AC:
        /* Intercepted only against XSA-156 loops: the guest's own #AC. */
        vmx_inject_hw_exception(X86_EXC_AC, __vmread(VM_EXIT_INTR_ERROR_CODE));
        return;
    }
    domain_crash(v->domain, "d%uv%u unexpected exception %u at rip %#lx",
                 v->domain->domain_id, v->vcpu_id, info & INTR_INFO_VECTOR_MASK,
                 (unsigned long)regs->rip);
}

static void vmx_exit_external_interrupt(struct vcpu *v, struct cpu_user_regs *regs)
{
    /*
     * The interrupt stayed pending in the local APIC (no acknowledge on
     * exit) and was taken when vmx_do_resume() enabled interrupts.
     */
}

static void vmx_exit_triple_fault(struct vcpu *v, struct cpu_user_regs *regs)
{
    domain_crash(v->domain, "d%uv%u triple fault at rip %#lx",
                 v->domain->domain_id, v->vcpu_id, (unsigned long)regs->rip);
}

static void vmx_exit_ignore(struct vcpu *v, struct cpu_user_regs *regs)
{
}

static void vmx_exit_cpuid(struct vcpu *v, struct cpu_user_regs *regs)
{
    struct cpuid_leaf res;

    guest_cpuid(v, regs->rax, regs->rcx, &res);
    regs->rax = res.a;
    regs->rbx = res.b;
    regs->rcx = res.c;
    regs->rdx = res.d;
    update_guest_rip(regs);
}

static void vmx_exit_hlt(struct vcpu *v, struct cpu_user_regs *regs)
{
    update_guest_rip(regs);
    hvm_hlt(v, regs);
}

static void vmx_exit_vmcall(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned long len = __vmread(VM_EXIT_INSTRUCTION_LEN);

    step_over(regs, len);
    if ( hvm_hypercall(v, regs) == HVM_HCALL_preempted )
        regs->rip -= len;           /* a continuation: VMCALL runs again */
    else if ( v == current && vmx_vmcs_is_loaded(v) )
        vmx_singlestep_done(v, regs);   /* not if it went away (shutdown) */
}

/*
 * INVD exits unconditionally, WBINVD when intercepted.  Neither has
 * anything to do for a guest with no assigned devices (Xen likewise skips
 * INVD), but both must step over the instruction or it repeats forever.
 */
static void vmx_exit_wbinvd(struct vcpu *v, struct cpu_user_regs *regs)
{
    update_guest_rip(regs);
}

static void vmx_exit_ud(struct vcpu *v, struct cpu_user_regs *regs)
{
    vmx_inject_hw_exception(X86_EXC_UD, -1);
}

static unsigned long *gpr_ptr(struct cpu_user_regs *regs, unsigned int n)
{
    switch ( n )
    {
    case 0: return (unsigned long *)&regs->rax;
    case 1: return (unsigned long *)&regs->rcx;
    case 2: return (unsigned long *)&regs->rdx;
    case 3: return (unsigned long *)&regs->rbx;
    case 4: return (unsigned long *)&regs->rsp;
    case 5: return (unsigned long *)&regs->rbp;
    case 6: return (unsigned long *)&regs->rsi;
    case 7: return (unsigned long *)&regs->rdi;
    case 8: return (unsigned long *)&regs->r8;
    case 9: return (unsigned long *)&regs->r9;
    case 10: return (unsigned long *)&regs->r10;
    case 11: return (unsigned long *)&regs->r11;
    case 12: return (unsigned long *)&regs->r12;
    case 13: return (unsigned long *)&regs->r13;
    case 14: return (unsigned long *)&regs->r14;
    default: return (unsigned long *)&regs->r15;
    }
}

static void vmx_exit_cr_access(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned long q = __vmread(EXIT_QUALIFICATION);
    unsigned int cr = VMX_CR_ACCESS_NUM(q);
    unsigned long *gpr = gpr_ptr(regs, VMX_CR_ACCESS_GPR(q));
    int rc = 0;

    switch ( VMX_CR_ACCESS_TYPE(q) )
    {
    case VMX_CR_ACCESS_TYPE_MOV_TO_CR:
        if ( cr == 0 )
            rc = hvm_set_cr0(v, *gpr);
        else if ( cr == 4 )
            rc = hvm_set_cr4(v, *gpr);
        else if ( cr == 8 )     /* exits only without the TPR shadow */
        {
            if ( *gpr >> 4 )
            {
                vmx_inject_hw_exception(X86_EXC_GP, 0);
                return;
            }
            vlapic_set_cr8(v, *gpr);
        }
        else
            rc = -1;
        break;
    case VMX_CR_ACCESS_TYPE_MOV_FROM_CR:
        if ( cr == 8 )
            *gpr = vlapic_get_cr8(v);
        else
            rc = -1;
        break;
    case VMX_CR_ACCESS_TYPE_CLTS:
        rc = hvm_set_cr0(v, v->arch.hvm.guest_cr0 & ~X86_CR0_TS);
        break;
    case VMX_CR_ACCESS_TYPE_LMSW:
        /* LMSW sets PE/MP/EM/TS and cannot clear PE. */
        rc = hvm_set_cr0(v, (v->arch.hvm.guest_cr0 & ~0xeUL) |
                            (VMX_CR_ACCESS_LMSW_DATA(q) & 0xf) |
                            (v->arch.hvm.guest_cr0 & X86_CR0_PE));
        break;
    }

    if ( rc > 0 )
        return;                     /* an exception was injected */
    if ( rc < 0 )
    {
        domain_crash(v->domain, "d%uv%u unhandled CR%u access (qualification %#lx)",
                     v->domain->domain_id, v->vcpu_id, cr, q);
        return;
    }
    update_guest_rip(regs);
}

static void vmx_exit_msr_read(struct vcpu *v, struct cpu_user_regs *regs)
{
    uint64_t val;

    if ( guest_rdmsr(v, regs->rcx, &val) )
    {
        vmx_inject_hw_exception(X86_EXC_GP, 0);
        return;
    }
    regs->rax = (uint32_t)val;
    regs->rdx = val >> 32;
    update_guest_rip(regs);
}

static void vmx_exit_msr_write(struct vcpu *v, struct cpu_user_regs *regs)
{
    uint64_t val = ((uint64_t)(uint32_t)regs->rdx << 32) | (uint32_t)regs->rax;

    if ( guest_wrmsr(v, regs->rcx, val) )
    {
        vmx_inject_hw_exception(X86_EXC_GP, 0);
        return;
    }
    update_guest_rip(regs);
}

/* A register of the instruction's address size (16, 32, 64 bits) set to val. */
static void set_asize_reg(unsigned long *reg, unsigned long val, unsigned int asize)
{
    if ( asize == VMX_INSN_ASIZE_16 )
        *reg = (*reg & ~0xffffUL) | (val & 0xffff);
    else if ( asize == VMX_INSN_ASIZE_32 )
        *reg = (uint32_t)val;            /* a 32-bit write zero-extends */
    else
        *reg = val;
}

/*
 * OUTS (REP or not), as Xen emulates it; the debug port is its use (test
 * kernels running as dom0 print with `rep outsb`).  A long REP is done in
 * pieces: RSI and RCX move on and the instruction runs again.  INS is not
 * emulated (no device here has input worth a string).
 */
static void vmx_exit_io_string(struct vcpu *v, struct cpu_user_regs *regs,
                               unsigned long q)
{
    unsigned int asize = VMX_INSN_ASIZE(__vmread(VMX_INSTRUCTION_INFO));
    unsigned long amask = asize == VMX_INSN_ASIZE_16 ? 0xffff :
                          asize == VMX_INSN_ASIZE_32 ? 0xffffffffUL : ~0UL;
    unsigned long count = (q & VMX_IO_REP) ? regs->rcx & amask : 1;
    unsigned int bytes = VMX_IO_SIZE(q);
    bool down = regs->rflags & X86_EFLAGS_DF;
    long done;

    if ( q & VMX_IO_IN )
    {
        domain_crash(v->domain, "d%uv%u INS from port %#lx is not emulated",
                     v->domain->domain_id, v->vcpu_id, VMX_IO_PORT(q));
        return;
    }
    done = count ? hvm_portio_outs(v, VMX_IO_PORT(q), bytes,
                                   __vmread(GUEST_LINEAR_ADDRESS), count, down) : 0;
    if ( done < 0 )
    {
        domain_crash(v->domain, "d%uv%u OUTS to port %#lx from an unreadable address %#lx",
                     v->domain->domain_id, v->vcpu_id, VMX_IO_PORT(q),
                     __vmread(GUEST_LINEAR_ADDRESS));
        return;
    }
    set_asize_reg(&regs->rsi, (regs->rsi & amask) + (down ? -done : done) * bytes, asize);
    if ( q & VMX_IO_REP )
        set_asize_reg(&regs->rcx, count - done, asize);
    if ( (unsigned long)done == count )
        update_guest_rip(regs);
}

static void vmx_exit_io(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned long q = __vmread(EXIT_QUALIFICATION);

    if ( q & VMX_IO_STRING )
    {
        vmx_exit_io_string(v, regs, q);
        return;
    }
    hvm_portio(v, VMX_IO_PORT(q), VMX_IO_SIZE(q), !!(q & VMX_IO_IN),
               (unsigned long *)&regs->rax);
    update_guest_rip(regs);
}

/*
 * An access to the xAPIC page the CPU did not complete: emulate the
 * instruction (x86_emulate.c: MOV and the read-modify-write forms, every
 * width) against the vLAPIC and step over it.  'offset' is in the page.
 */
struct apic_mmio {
    struct vcpu *v;
    unsigned int offset;
};

static int apic_mmio_read(void *priv, unsigned int bytes, uint64_t *val)
{
    const struct apic_mmio *m = priv;

    if ( m->offset + bytes > PAGE_SIZE )
        return X86EMUL_UNHANDLEABLE;
    *val = vlapic_mmio_read(m->v, m->offset, bytes);
    return X86EMUL_OKAY;
}

static int apic_mmio_write(void *priv, unsigned int bytes, uint64_t val)
{
    const struct apic_mmio *m = priv;

    if ( m->offset + bytes > PAGE_SIZE )
        return X86EMUL_UNHANDLEABLE;
    vlapic_mmio_write(m->v, m->offset, bytes, val);
    return X86EMUL_OKAY;
}

static const struct x86_emulate_ops apic_mmio_ops = {
    .read = apic_mmio_read,
    .write = apic_mmio_write,
};

#define SEG_AR_DB (1u << 14)

static bool vmx_long_mode_code(struct vcpu *v);

/* The code size the guest runs: 64-bit code, else CS.D. */
static unsigned int vmx_code_mode(struct vcpu *v)
{
    if ( vmx_long_mode_code(v) )
        return 64;
    return (__vmread(GUEST_CS_AR_BYTES) & SEG_AR_DB) ? 32 : 16;
}

/* x86_emulate's view of the instruction at RIP: the mode and what is mapped of its bytes. */
static void vmx_emulate_ctxt(struct vcpu *v, struct cpu_user_regs *regs,
                             struct x86_emulate_ctxt *ctxt, uint8_t insn[15])
{
    unsigned long rip = __vmread(GUEST_CS_BASE) + regs->rip, len;

    memset(insn, 0, 15);
    ctxt->regs = regs;
    ctxt->insn = insn;
    ctxt->mode = vmx_code_mode(v);
    if ( ctxt->mode == 64 )
        rip = regs->rip;
    else
        rip = (uint32_t)rip;
    /*
     * One copy, a page walk per page, not per byte (15 walks under the
     * p2m lock cost an APIC register read 14,000 ticks).  The copy stops
     * at the first page it cannot read, so an instruction that ends a
     * page before one that is not mapped gets the bytes up to the page's
     * end, as before; none past the top of the address space.
     */
    len = rip + 15 < rip ? -rip : 15;
    ctxt->insn_bytes = len - hvm_fetch_from_guest_linear(insn, rip, len);
}

static void vmx_emulate_apic_mmio(struct vcpu *v, struct cpu_user_regs *regs,
                                  unsigned int offset, bool write)
{
    struct apic_mmio m = { v, offset };
    uint8_t insn[15];
    struct x86_emulate_ctxt ctxt = { .priv = &m };
    int rc;

    vmx_emulate_ctxt(v, regs, &ctxt, insn);
    rc = x86_emulate(&ctxt, &apic_mmio_ops);
    if ( rc == X86EMUL_EXCEPTION )
    {
        vmx_inject_hw_exception(ctxt.exception, -1);
        return;
    }
    if ( rc != X86EMUL_OKAY || (write && !ctxt.mem_write) || (!write && !ctxt.mem_read) )
    {
        domain_crash(v->domain, "d%uv%u unsupported %s of APIC register %#x at rip %#lx",
                     v->domain->domain_id, v->vcpu_id, write ? "write" : "read",
                     offset, (unsigned long)regs->rip);
        return;
    }
    /* x86_emulate advanced RIP: the rest of completing an instruction. */
    step_over(regs, 0);
    vmx_singlestep_done(v, regs);
}

/* APIC-access exit (fault-like): a read of PPR, TMCCT..., or a write the CPU will not take. */
static void vmx_exit_apic_access(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned long q = __vmread(EXIT_QUALIFICATION);
    unsigned int type = (q >> 12) & 0xf;

    if ( type > 1 )             /* 0 linear read, 1 linear write */
    {
        domain_crash(v->domain, "d%uv%u APIC access of type %u (qualification %#lx) at rip %#lx",
                     v->domain->domain_id, v->vcpu_id, type, q, (unsigned long)regs->rip);
        return;
    }
    vmx_emulate_apic_mmio(v, regs, q & 0xfff, type == 1);
}

/* APIC-write exit (trap-like): the value is in the virtual-APIC page. */
static void vmx_exit_apic_write(struct vcpu *v, struct cpu_user_regs *regs)
{
    vlapic_apic_write(v, __vmread(EXIT_QUALIFICATION) & 0xfff);
}

/*
 * An access to a guest-physical address nothing claims (Xen's null
 * handler, hvm/intercept.c): the instruction at RIP is fetched and
 * emulated by x86_emulate() with reads of all ones and writes dropped.
 */
static void vmx_emulate_unclaimed_mmio(struct vcpu *v, struct cpu_user_regs *regs,
                                       uint64_t gpa)
{
    uint8_t insn[15];
    struct x86_emulate_ctxt ctxt = {};
    const char *why = NULL;
    int rc;

    vmx_emulate_ctxt(v, regs, &ctxt, insn);
    rc = hvm_mmio_unclaimed(v, &ctxt, gpa, &why);
    switch ( rc )
    {
    case X86EMUL_OKAY:
        step_over(regs, 0);             /* x86_emulate advanced RIP */
        vmx_singlestep_done(v, regs);
        break;
    case X86EMUL_EXCEPTION:             /* LOCK where it cannot be: #UD */
        vmx_inject_hw_exception(ctxt.exception, -1);
        break;
    default:
        domain_crash(v->domain, "d%uv%u cannot emulate the access to unclaimed MMIO at gpa %#lx (rip %#lx, bytes %02x %02x %02x %02x): %s",
                     v->domain->domain_id, v->vcpu_id, (unsigned long)gpa,
                     (unsigned long)regs->rip, insn[0], insn[1], insn[2], insn[3], why);
        break;
    }
}

/*
 * An EPT violation that log-dirty tracking does not explain.  The xAPIC
 * page (without the CPU's APIC virtualisation) is emulated on the vLAPIC;
 * any other address inside the guest-physical width that is not RAM
 * (p2m_mmio_dm: nothing mapped) goes to the null handler, as in Xen.
 * What cannot be emulated crashes the domain with the reason: an
 * instruction fetch, an access while delivering an event or walking the
 * guest's page tables, an address beyond the guest-physical width (on
 * hardware whose width is the guest's, the guest's own page walk faults
 * first with #PF(RSVD)).
 */
static void vmx_exit_ept_violation(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned long q = __vmread(EXIT_QUALIFICATION);
    uint64_t gpa = __vmread(GUEST_PHYSICAL_ADDRESS);
    unsigned long gfn = gpa >> PAGE_SHIFT;
    p2m_type_t t = p2m_ram_rw;
    const char *why = NULL;

    if ( hvm_hap_nested_page_fault(v, gpa, q) )
        return;
    /* The xAPIC page without the CPU's APIC virtualization. */
    if ( (gpa >> PAGE_SHIFT) == (APIC_DEFAULT_BASE >> PAGE_SHIFT) &&
         !hvm_funcs->apic_access_virt() && !(q & EPT_EXEC_VIOLATION) &&
         vlapic_hw_enabled(&v->arch.hvm.vlapic) && !vlapic_x2apic_mode(&v->arch.hvm.vlapic) )
    {
        vmx_emulate_apic_mmio(v, regs, gpa & ~PAGE_MASK, q & EPT_WRITE_VIOLATION);
        return;
    }
    if ( gfn <= p2m_max_gfn() )
        p2m_get_entry(v->domain, gfn, &t);
    if ( gfn > p2m_max_gfn() )
        why = "beyond the guest-physical address width";
    else if ( t != p2m_mmio_dm )
        why = NULL;                     /* RAM the access may not make */
    else if ( q & EPT_EXEC_VIOLATION )
        why = "instruction fetch from MMIO";
    else if ( __vmread(IDT_VECTORING_INFO) & INTR_INFO_VALID_MASK )
        why = "MMIO touched while delivering an event";
    else if ( !(q & EPT_GLA_VALID) || !(q & EPT_GLA_FAULT) )
        why = "MMIO touched by the guest's page walk";
    else
    {
        vmx_emulate_unclaimed_mmio(v, regs, gpa);
        return;
    }
    domain_crash(v->domain, "d%uv%u EPT violation: gpa %#lx (%c%c%c) at rip %#lx%s%s",
                 v->domain->domain_id, v->vcpu_id, (unsigned long)gpa,
                 q & EPT_READ_VIOLATION ? 'r' : '-',
                 q & EPT_WRITE_VIOLATION ? 'w' : '-',
                 q & EPT_EXEC_VIOLATION ? 'x' : '-', (unsigned long)regs->rip,
                 why ? ": " : "", why ?: "");
}

static void vmx_exit_pml_full(struct vcpu *v, struct cpu_user_regs *regs)
{
    /* The write that filled the buffer is retried after the flush. */
    dirty_vcpu_count(v, pml_full_exits);
    vmx_vcpu_flush_pml_buffer(v);
}

static void vmx_exit_preemption_timer(struct vcpu *v, struct cpu_user_regs *regs)
{
    /*
     * The slice ended or a timer fell due: the scheduler's check before
     * the next entry (timers run, slice over?) decides what follows.
     */
}

static void vmx_exit_pause(struct vcpu *v, struct cpu_user_regs *regs)
{
    /* A pause loop: let another vCPU run, as Xen does (no RIP update). */
    dirty_vcpu_count(v, ple_exits);
    vcpu_yield();
}

static void vmx_exit_invalid_guest_state(struct vcpu *v, struct cpu_user_regs *regs)
{
    domain_crash(v->domain, "d%uv%u VM entry failed: invalid guest state (qualification %lu) at rip %#lx",
                 v->domain->domain_id, v->vcpu_id, __vmread(EXIT_QUALIFICATION),
                 (unsigned long)regs->rip);
}

static const vmx_exit_handler_t vmx_exit_handlers[EXIT_REASON_NR] = {
    [EXIT_REASON_EXCEPTION_NMI]         = vmx_exit_exception_nmi,
    [EXIT_REASON_EXTERNAL_INTERRUPT]    = vmx_exit_external_interrupt,
    [EXIT_REASON_TRIPLE_FAULT]          = vmx_exit_triple_fault,
    [EXIT_REASON_PENDING_VIRT_INTR]     = vmx_exit_ignore,  /* vmx_intr_assist injects */
    [EXIT_REASON_PENDING_VIRT_NMI]      = vmx_exit_ignore,  /* vmx_intr_assist injects */
    [EXIT_REASON_INIT]                  = vmx_exit_ignore,
    [EXIT_REASON_SIPI]                  = vmx_exit_ignore,
    [EXIT_REASON_CPUID]                 = vmx_exit_cpuid,
    [EXIT_REASON_HLT]                   = vmx_exit_hlt,
    [EXIT_REASON_INVD]                  = vmx_exit_wbinvd,
    [EXIT_REASON_VMCALL]                = vmx_exit_vmcall,
    [EXIT_REASON_VMCLEAR]               = vmx_exit_ud,
    [EXIT_REASON_VMLAUNCH]              = vmx_exit_ud,
    [EXIT_REASON_VMPTRLD]               = vmx_exit_ud,
    [EXIT_REASON_VMPTRST]               = vmx_exit_ud,
    [EXIT_REASON_VMREAD]                = vmx_exit_ud,
    [EXIT_REASON_VMRESUME]              = vmx_exit_ud,
    [EXIT_REASON_VMWRITE]               = vmx_exit_ud,
    [EXIT_REASON_VMXOFF]                = vmx_exit_ud,
    [EXIT_REASON_VMXON]                 = vmx_exit_ud,
    [EXIT_REASON_INVEPT]                = vmx_exit_ud,
    [EXIT_REASON_INVVPID]               = vmx_exit_ud,
    [EXIT_REASON_MWAIT_INSTRUCTION]     = vmx_exit_ud,
    [EXIT_REASON_MONITOR_INSTRUCTION]   = vmx_exit_ud,
    [EXIT_REASON_CR_ACCESS]             = vmx_exit_cr_access,
    [EXIT_REASON_DR_ACCESS]             = vmx_exit_dr_access,
    [EXIT_REASON_IO_INSTRUCTION]        = vmx_exit_io,
    [EXIT_REASON_MSR_READ]              = vmx_exit_msr_read,
    [EXIT_REASON_MSR_WRITE]             = vmx_exit_msr_write,
    [EXIT_REASON_INVALID_GUEST_STATE]   = vmx_exit_invalid_guest_state,
    [EXIT_REASON_PAUSE_INSTRUCTION]     = vmx_exit_pause,
    [EXIT_REASON_EPT_VIOLATION]         = vmx_exit_ept_violation,
    [EXIT_REASON_WBINVD]                = vmx_exit_wbinvd,
    [EXIT_REASON_PML_FULL]              = vmx_exit_pml_full,
    [EXIT_REASON_TPR_BELOW_THRESHOLD]   = vmx_exit_ignore,  /* vmx_intr_assist delivers */
    [EXIT_REASON_APIC_ACCESS]           = vmx_exit_apic_access,
    [EXIT_REASON_APIC_WRITE]            = vmx_exit_apic_write,
    [EXIT_REASON_VMX_PREEMPTION_TIMER_EXPIRED] = vmx_exit_preemption_timer,
};

/* ---- the run loop ------------------------------------------------------- */

void vmx_dump_exit_counts(const struct vcpu *v)
{
    char line[768];
    unsigned int i, n;

    n = snprintf(line, sizeof(line), "d%uv%u exits: total=%lu",
                 v->domain->domain_id, v->vcpu_id,
                 (unsigned long)v->arch.hvm.exits_total);
    for ( i = 0; i < EXIT_REASON_NR && n < sizeof(line); i++ )
        if ( v->arch.hvm.exit_count[i] )
            n += snprintf(line + n, sizeof(line) - n, " %s=%lu",
                          vmx_exit_reason_name(i),
                          (unsigned long)v->arch.hvm.exit_count[i]);
    printk(XENLOG_INFO "%s\n", line);
}

static unsigned int vmx_get_exit_counts(const struct vcpu *v, const uint64_t **counts)
{
    *counts = v->arch.hvm.exit_count;
    return EXIT_REASON_NR;
}

static void vmx_handle_exit(struct vcpu *v, struct cpu_user_regs *regs)
{
    unsigned int reason = VMX_EXIT_REASON_BASIC(__vmread(VM_EXIT_REASON));
    vmx_exit_handler_t fn = NULL;

    if ( vmexit_cost_ticks )
    {
        uint64_t end = rdtsc() + vmexit_cost_ticks;

        while ( rdtsc() < end )
            cpu_relax();
    }

    v->arch.hvm.exits_total++;
    if ( reason < EXIT_REASON_NR )
    {
        v->arch.hvm.exit_count[reason]++;
        fn = vmx_exit_handlers[reason];
    }
    (fn ? fn : vmx_exit_unhandled)(v, regs);
}

/* Run v until it blocks, yields, is preempted or its domain stops. */
void vmx_do_resume(struct vcpu *v)
{
    struct cpu_user_regs *regs = &v->arch.hvm.regs;
    unsigned long rc;
    uint64_t deadline;

    /* The one place the running vCPU's VMCS is made the loaded one. */
    vmx_vmcs_reload(v);
    /* From now on this CPU may cache the domain's EPT translations (ept_sync_domain). */
    if ( !cpumask_test_cpu(smp_processor_id(), &v->domain->arch.hvm.p2m.dirty_cpumask) )
        cpumask_set_cpu(smp_processor_id(), &v->domain->arch.hvm.p2m.dirty_cpumask);
    vmx_restore_dr(v);
    while ( vcpu_runnable(v) && sched_may_enter_guest() )
    {
        /* Exit handlers touch other VMCSs only inside enter/exit pairs. */
        BUG_ON(!vmx_vmcs_is_loaded(v));
        vmx_intr_assist(v, regs);
        /*
         * As Xen's vmx_asm_do_vmentry: interrupts off from here to the
         * entry, and a last look for softirqs raised since (by an interrupt
         * handler or another CPU).  If there are any, go round again with
         * interrupts on, so that none waits in the guest for the next exit.
         * vmx_intr_assist() does nothing twice (a queued event stays).
         */
        local_irq_disable();
        if ( softirq_pending(smp_processor_id()) )
        {
            local_irq_enable();
            continue;
        }
        __vmwrite(GUEST_RIP, regs->rip);
        __vmwrite(GUEST_RSP, regs->rsp);
        __vmwrite(GUEST_RFLAGS, regs->rflags);
        deadline = sched_slice_deadline();
        /*
         * Bochs does not exit for external interrupts after an entry with
         * IF clear (docs/design.md): keep serial input from overrunning.
         */
        if ( !(regs->rflags & X86_EFLAGS_IF) )
            deadline = min(deadline, ns16550_rx_deadline());
        vmx_set_preemption_timer(deadline);
        write_cr2(v->arch.hvm.guest_cr2);

        rc = vmx_enter_guest(regs, v->arch.hvm.vmx.launched);
        if ( rc )
        {
            unsigned long err = __vmread(VM_INSTRUCTION_ERROR);

            local_irq_enable();
            domain_crash(v->domain, "d%uv%u VM%s failed: VM-instruction error %lu (rflags %#lx)",
                         v->domain->domain_id, v->vcpu_id,
                         v->arch.hvm.vmx.launched ? "RESUME" : "LAUNCH", err, rc);
            return;
        }
        v->arch.hvm.vmx.launched = true;

        v->arch.hvm.guest_cr2 = read_cr2();
        /*
         * A VM exit leaves RFLAGS.IF clear.  Interrupt handlers never touch
         * the loaded VMCS, so they may run from here on: an external
         * interrupt that ended the guest's run is taken now.
         */
        local_irq_enable();
        regs->rip = __vmread(GUEST_RIP);
        regs->rsp = __vmread(GUEST_RSP);
        regs->rflags = __vmread(GUEST_RFLAGS);
        vmx_idtv_reinject();
        vmx_handle_exit(v, regs);
    }
}

/* ---- the vendor hooks ------------------------------------------------------ */

unsigned long vmx_real_cr0(unsigned long guest_cr0);
unsigned long vmx_real_cr4(unsigned long guest_cr4);

static void vmx_update_guest_cr(struct vcpu *v, unsigned int cr)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    if ( cr == 0 )
    {
        __vmwrite(GUEST_CR0, vmx_real_cr0(v->arch.hvm.guest_cr0));
        __vmwrite(CR0_READ_SHADOW, v->arch.hvm.guest_cr0);
    }
    else if ( cr == 4 )
    {
        __vmwrite(GUEST_CR4, vmx_real_cr4(v->arch.hvm.guest_cr4));
        __vmwrite(CR4_READ_SHADOW, v->arch.hvm.guest_cr4);
    }
}

static void vmx_update_guest_efer(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;

    ASSERT(vmx_vmcs_is_loaded(v));
    __vmwrite(GUEST_EFER, v->arch.hvm.guest_efer);
    if ( v->arch.hvm.guest_efer & EFER_LMA )
        vmx->entry_control |= VM_ENTRY_IA32E_MODE;
    else
        vmx->entry_control &= ~VM_ENTRY_IA32E_MODE;
    __vmwrite(VM_ENTRY_CONTROLS, vmx->entry_control);
}

static unsigned int vmx_get_cpl(struct vcpu *v)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    return (__vmread(GUEST_SS_AR_BYTES) >> 5) & 3;
}

#define SEG_AR_L (1u << 13)

static bool vmx_long_mode_code(struct vcpu *v)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    return (v->arch.hvm.guest_efer & EFER_LMA) &&
           (__vmread(GUEST_CS_AR_BYTES) & SEG_AR_L);
}

static uint64_t vmx_get_guest_cr3(struct vcpu *v)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    return __vmread(GUEST_CR3);
}

static uint64_t vmx_get_msr(struct vcpu *v, uint32_t msr, bool *ok)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    *ok = true;
    switch ( msr )
    {
    case MSR_FS_BASE:           return __vmread(GUEST_FS_BASE);
    case MSR_GS_BASE:           return __vmread(GUEST_GS_BASE);
    case MSR_IA32_SYSENTER_CS:  return __vmread(GUEST_SYSENTER_CS);
    case MSR_IA32_SYSENTER_ESP: return __vmread(GUEST_SYSENTER_ESP);
    case MSR_IA32_SYSENTER_EIP: return __vmread(GUEST_SYSENTER_EIP);
    case MSR_IA32_CR_PAT:
        if ( vmx_caps.entry & VM_ENTRY_LOAD_GUEST_PAT )
            return __vmread(GUEST_PAT);
        break;
    case MSR_IA32_DEBUGCTLMSR:  return __vmread(GUEST_IA32_DEBUGCTL);
    }
    *ok = false;
    return 0;
}

static bool vmx_set_msr(struct vcpu *v, uint32_t msr, uint64_t val)
{
    ASSERT(vmx_vmcs_is_loaded(v));
    switch ( msr )
    {
    case MSR_FS_BASE:           __vmwrite(GUEST_FS_BASE, val); return true;
    case MSR_GS_BASE:           __vmwrite(GUEST_GS_BASE, val); return true;
    case MSR_IA32_SYSENTER_CS:  __vmwrite(GUEST_SYSENTER_CS, (uint32_t)val); return true;
    case MSR_IA32_SYSENTER_ESP: __vmwrite(GUEST_SYSENTER_ESP, val); return true;
    case MSR_IA32_SYSENTER_EIP: __vmwrite(GUEST_SYSENTER_EIP, val); return true;
    case MSR_IA32_CR_PAT:
        if ( !(vmx_caps.entry & VM_ENTRY_LOAD_GUEST_PAT) )
            return false;
        __vmwrite(GUEST_PAT, val);
        return true;
    case MSR_IA32_DEBUGCTLMSR:  /* checked by the MSR policy (msr.c) */
        __vmwrite(GUEST_IA32_DEBUGCTL, val);
        return true;
    }
    return false;
}

/*
 * Xen's packed 12-bit access rights (type, S, DPL, P in bits 0-7; AVL, L,
 * D/B, G in bits 8-11), as its save records and vcpu_hvm_context carry them,
 * to and from the VMCS layout (bits 8-11 at 12-15, bit 16 "unusable").  As
 * in Xen, an unusable segment is one that is not present.
 */
#define SEG_AR_PRESENT 0x80u

static uint32_t unpack_ar(uint16_t ar)
{
    uint32_t vmcs = (ar & 0xff) | ((uint32_t)(ar & 0xf00) << 4);

    return (ar & SEG_AR_PRESENT) ? vmcs : vmcs | X86_SEG_AR_UNUSABLE;
}

static uint16_t pack_ar(uint32_t vmcs)
{
    uint16_t ar = (vmcs & 0xff) | ((vmcs >> 4) & 0xf00);

    return (vmcs & X86_SEG_AR_UNUSABLE) ? ar & ~SEG_AR_PRESENT : ar;
}

/*
 * Load a register state given as Xen's vcpu_hvm_context (VCPUOP_initialise,
 * and the boot vCPU's PVH entry).  Checked like Xen: the control registers
 * must describe a mode the CPU can enter.
 */
static int check_hvm_context(struct vcpu *v, const struct vcpu_hvm_context *ctx)
{
    uint64_t cr0, cr3, cr4, efer, rflags, rip;
    bool lma;

    switch ( ctx->mode )
    {
    case VCPU_HVM_MODE_32B:
    {
        const struct vcpu_hvm_x86_32 *c = &ctx->cpu_regs.x86_32;

        cr0 = c->cr0; cr3 = c->cr3; cr4 = c->cr4; efer = c->efer;
        rflags = c->eflags | X86_EFLAGS_MBS; rip = c->eip;
        if ( efer & (EFER_LMA | EFER_LME) )
            return -EINVAL;
        if ( !(cr0 & X86_CR0_PE) || (cr0 & X86_CR0_PG) )
            return -EINVAL;         /* paging would need PDPTEs / page tables checked */
        break;
    }
    case VCPU_HVM_MODE_64B:
    {
        const struct vcpu_hvm_x86_64 *c = &ctx->cpu_regs.x86_64;

        cr0 = c->cr0; cr3 = c->cr3; cr4 = c->cr4; efer = c->efer | EFER_LMA;
        rflags = c->rflags | X86_EFLAGS_MBS; rip = c->rip;
        if ( !(efer & EFER_LME) || !(cr0 & X86_CR0_PG) || !(cr0 & X86_CR0_PE) ||
             !(cr4 & X86_CR4_PAE) )
            return -EINVAL;
        break;
    }
    default:
        return -EINVAL;
    }

    lma = efer & EFER_LMA;
    if ( !hvm_cr0_bits_valid(cr0) || !hvm_efer_valid(efer) || !hvm_cr3_valid(cr3) ||
         (cr4 & ~hvm_cr4_guest_valid_bits(v->domain)) ||
         ((cr4 & ~(uint64_t)X86_CR4_VMXE) & ~vmx_caps.cr4_fixed1) ||
         ((cr4 & X86_CR4_PCIDE) && (cr3 & 0xfff)) ||
         !hvm_rflags_valid(rflags, lma) ||
         (lma ? !is_canonical_address(rip) : (rip >> 32)) )
        return -EINVAL;
    return 0;
}

static int vmx_set_context(struct vcpu *v, const struct vcpu_hvm_context *ctx)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    struct cpu_user_regs *r = &hvm->regs;
    uint64_t cr0, cr4, efer;
    int rc;

    /* Everything is checked before anything changes. */
    if ( (rc = check_hvm_context(v, ctx)) )
        return rc;

    switch ( ctx->mode )
    {
    case VCPU_HVM_MODE_32B:
    {
        const struct vcpu_hvm_x86_32 *c = &ctx->cpu_regs.x86_32;

        cr0 = c->cr0; cr4 = c->cr4; efer = c->efer;
        if ( efer & (EFER_LMA | EFER_LME) )
            return -EINVAL;
        if ( !(cr0 & X86_CR0_PE) || (cr0 & X86_CR0_PG) )
            return -EINVAL;         /* paging would need PDPTEs / page tables checked */
        memset(r, 0, sizeof(*r));
        r->rax = c->eax; r->rcx = c->ecx; r->rdx = c->edx; r->rbx = c->ebx;
        r->rsp = c->esp; r->rbp = c->ebp; r->rsi = c->esi; r->rdi = c->edi;
        r->rip = c->eip; r->rflags = c->eflags | X86_EFLAGS_MBS;
        vmx_vmcs_enter(v);
        vmx_set_segment(x86_seg_cs, 0x08, c->cs_base, c->cs_limit, unpack_ar(c->cs_ar));
        vmx_set_segment(x86_seg_ds, 0x10, c->ds_base, c->ds_limit, unpack_ar(c->ds_ar));
        vmx_set_segment(x86_seg_ss, 0x10, c->ss_base, c->ss_limit, unpack_ar(c->ss_ar));
        vmx_set_segment(x86_seg_es, 0x10, c->es_base, c->es_limit, unpack_ar(c->es_ar));
        vmx_set_segment(x86_seg_fs, 0, 0, 0xffffffff, unpack_ar(c->ds_ar));
        vmx_set_segment(x86_seg_gs, 0, 0, 0xffffffff, unpack_ar(c->ds_ar));
        vmx_set_segment(x86_seg_tr, 0, c->tr_base, c->tr_limit ?: 0x67,
                    c->tr_ar ? unpack_ar(c->tr_ar) : 0x8b);     /* busy 32-bit TSS */
        __vmwrite(GUEST_CR3, c->cr3);
        break;
    }

    case VCPU_HVM_MODE_64B:
    {
        const struct vcpu_hvm_x86_64 *c = &ctx->cpu_regs.x86_64;

        cr0 = c->cr0; cr4 = c->cr4; efer = c->efer;
        if ( !(efer & EFER_LME) || !(cr0 & X86_CR0_PG) || !(cr0 & X86_CR0_PE) ||
             !(cr4 & X86_CR4_PAE) )
            return -EINVAL;
        efer |= EFER_LMA;
        memset(r, 0, sizeof(*r));
        r->rax = c->rax; r->rcx = c->rcx; r->rdx = c->rdx; r->rbx = c->rbx;
        r->rsp = c->rsp; r->rbp = c->rbp; r->rsi = c->rsi; r->rdi = c->rdi;
        r->rip = c->rip; r->rflags = c->rflags | X86_EFLAGS_MBS;
        vmx_vmcs_enter(v);
        /* Flat: 64-bit code, data read/write, busy 64-bit TSS. */
        vmx_set_segment(x86_seg_cs, 0x08, 0, 0xffffffff, 0xa09b);
        vmx_set_segment(x86_seg_ds, 0x10, 0, 0xffffffff, 0xc093);
        vmx_set_segment(x86_seg_ss, 0x10, 0, 0xffffffff, 0xc093);
        vmx_set_segment(x86_seg_es, 0x10, 0, 0xffffffff, 0xc093);
        vmx_set_segment(x86_seg_fs, 0, 0, 0xffffffff, 0xc093);
        vmx_set_segment(x86_seg_gs, 0, 0, 0xffffffff, 0xc093);
        vmx_set_segment(x86_seg_tr, 0, 0, 0x67, 0x8b);
        __vmwrite(GUEST_CR3, c->cr3);
        break;
    }

    default:
        return -EINVAL;
    }

    vmx_set_segment(x86_seg_ldtr, 0, 0, 0, X86_SEG_AR_UNUSABLE);
    __vmwrite(GUEST_GDTR_BASE, 0);
    __vmwrite(GUEST_GDTR_LIMIT, 0);
    __vmwrite(GUEST_IDTR_BASE, 0);
    __vmwrite(GUEST_IDTR_LIMIT, 0);
    __vmwrite(GUEST_INTERRUPTIBILITY_INFO, 0);
    __vmwrite(GUEST_ACTIVITY_STATE, GUEST_ACTIVITY_ACTIVE);
    __vmwrite(VM_ENTRY_INTR_INFO, 0);

    hvm->guest_cr0 = cr0 | X86_CR0_ET;
    hvm->guest_cr4 = cr4;
    hvm->guest_efer = efer;
    vmx_update_guest_cr(v, 0);
    vmx_update_guest_cr(v, 4);
    vmx_update_guest_efer(v);
    vmx_vmcs_exit(v);
    return 0;
}

/*
 * Xen's hvm_vcpu_reset_state(): the state after INIT and a start-up IPI
 * (SDM 9.1.1, table 9-1), real mode at cs:ip.  Unrestricted guest (which
 * this hypervisor requires) runs it natively; CR0 and CR4 writes exit and
 * are emulated as in any mode, so the guest can go on to protected and
 * long mode (docs/misc/dom0-abi.md, "The local APIC").
 */
static void vmx_vcpu_reset_state(struct vcpu *v, uint16_t cs, uint16_t ip)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    struct cpu_user_regs *r = &hvm->regs;

    memset(r, 0, sizeof(*r));
    r->rip = ip;
    r->rflags = X86_EFLAGS_MBS;
    r->rdx = 0x00000f00;                /* family 0xf, as Xen */
    vmx_vmcs_enter(v);
    vmx_set_segment(x86_seg_cs, cs, (uint32_t)cs << 4, 0xffff, 0x9b);
    vmx_set_segment(x86_seg_ds, 0, 0, 0xffff, 0x93);
    vmx_set_segment(x86_seg_ss, 0, 0, 0xffff, 0x93);
    vmx_set_segment(x86_seg_es, 0, 0, 0xffff, 0x93);
    vmx_set_segment(x86_seg_fs, 0, 0, 0xffff, 0x93);
    vmx_set_segment(x86_seg_gs, 0, 0, 0xffff, 0x93);
    vmx_set_segment(x86_seg_tr, 0, 0, 0xffff, 0x8b);
    vmx_set_segment(x86_seg_ldtr, 0, 0, 0xffff, 0x82);
    __vmwrite(GUEST_GDTR_BASE, 0);
    __vmwrite(GUEST_GDTR_LIMIT, 0xffff);
    __vmwrite(GUEST_IDTR_BASE, 0);
    __vmwrite(GUEST_IDTR_LIMIT, 0xffff);
    __vmwrite(GUEST_CR3, 0);
    __vmwrite(GUEST_DR7, 0x400);
    __vmwrite(GUEST_INTERRUPTIBILITY_INFO, 0);
    __vmwrite(GUEST_ACTIVITY_STATE, GUEST_ACTIVITY_ACTIVE);
    __vmwrite(VM_ENTRY_INTR_INFO, 0);
    hvm->guest_cr0 = X86_CR0_ET;
    hvm->guest_cr2 = 0;
    hvm->guest_cr4 = 0;
    hvm->guest_efer = 0;
    vmx_update_guest_cr(v, 0);
    vmx_update_guest_cr(v, 4);
    vmx_update_guest_efer(v);
    vmx_vmcs_exit(v);
}

/* ---- HVM save records ----------------------------------------------------- */

#define SAVE_SEG(c, seg, name) do {                                 \
        uint32_t ar_;                                               \
                                                                    \
        vmx_get_segment(seg, &(c)->name##_sel, &(c)->name##_base,   \
                        &(c)->name##_limit, &ar_);                  \
        (c)->name##_arbytes = pack_ar(ar_);                         \
    } while ( 0 )

#define LOAD_SEG(c, seg, name)                                      \
    vmx_set_segment(seg, (c)->name##_sel, (c)->name##_base,             \
                (c)->name##_limit, unpack_ar((c)->name##_arbytes))

static void vmx_save_cpu(struct vcpu *v, struct hvm_hw_cpu *c)
{
    const struct hvm_vcpu *h = &v->arch.hvm;
    const struct cpu_user_regs *r = &h->regs;

    memset(c, 0, sizeof(*c));
    if ( v == current )
        asm volatile ( "fxsave64 %0" : "=m" (v->arch.hvm.fpu) );
    memcpy(c->fpu_regs, h->fpu, sizeof(c->fpu_regs));
    c->flags = XEN_X86_FPU_INITIALISED;

    c->rax = r->rax; c->rbx = r->rbx; c->rcx = r->rcx; c->rdx = r->rdx;
    c->rbp = r->rbp; c->rsi = r->rsi; c->rdi = r->rdi; c->rsp = r->rsp;
    c->r8 = r->r8; c->r9 = r->r9; c->r10 = r->r10; c->r11 = r->r11;
    c->r12 = r->r12; c->r13 = r->r13; c->r14 = r->r14; c->r15 = r->r15;
    c->rip = r->rip;
    c->rflags = r->rflags;

    c->cr0 = h->guest_cr0;
    c->cr2 = h->guest_cr2;
    c->cr4 = h->guest_cr4;
    c->msr_efer = h->guest_efer;
    c->shadow_gs = v == current ? rdmsr(MSR_SHADOW_GS_BASE) : h->msr_shadow_gs;
    c->msr_lstar = h->msr_lstar;
    c->msr_star = h->msr_star;
    c->msr_cstar = h->msr_cstar;
    c->msr_syscall_mask = h->msr_syscall_mask;
    c->msr_tsc_aux = h->msr_tsc_aux;
    c->tsc = rdtsc();

    {
        unsigned long dr[4], dr6;

        vmx_get_debugregs(v, dr, &dr6);
        c->dr0 = dr[0]; c->dr1 = dr[1]; c->dr2 = dr[2]; c->dr3 = dr[3];
        c->dr6 = dr6;
    }

    vmx_vmcs_enter(v);
    c->cr3 = __vmread(GUEST_CR3);
    c->dr7 = __vmread(GUEST_DR7);
    SAVE_SEG(c, x86_seg_cs, cs);
    SAVE_SEG(c, x86_seg_ds, ds);
    SAVE_SEG(c, x86_seg_es, es);
    SAVE_SEG(c, x86_seg_fs, fs);
    SAVE_SEG(c, x86_seg_gs, gs);
    SAVE_SEG(c, x86_seg_ss, ss);
    SAVE_SEG(c, x86_seg_tr, tr);
    SAVE_SEG(c, x86_seg_ldtr, ldtr);
    c->gdtr_base = __vmread(GUEST_GDTR_BASE);
    c->gdtr_limit = __vmread(GUEST_GDTR_LIMIT);
    c->idtr_base = __vmread(GUEST_IDTR_BASE);
    c->idtr_limit = __vmread(GUEST_IDTR_LIMIT);
    c->sysenter_cs = __vmread(GUEST_SYSENTER_CS);
    c->sysenter_esp = __vmread(GUEST_SYSENTER_ESP);
    c->sysenter_eip = __vmread(GUEST_SYSENTER_EIP);
    if ( __vmread(VM_ENTRY_INTR_INFO) & INTR_INFO_VALID_MASK )
    {
        c->pending_event = __vmread(VM_ENTRY_INTR_INFO);
        c->error_code = __vmread(VM_ENTRY_EXCEPTION_ERROR_CODE);
    }
    vmx_vmcs_exit(v);
}

static int vmx_load_cpu(struct vcpu *v, const struct hvm_hw_cpu *c)
{
    struct hvm_vcpu *h = &v->arch.hvm;
    struct cpu_user_regs *r = &h->regs;
    uint64_t efer = c->msr_efer;

    /* Checked field by field before anything changes (also done by save.c). */
    if ( hvm_hw_cpu_check(v->domain, c) ||
         ((c->cr4 & ~(uint64_t)X86_CR4_VMXE) & ~vmx_caps.cr4_fixed1) )
        return -EINVAL;

    memcpy(h->fpu, c->fpu_regs, sizeof(h->fpu));
    if ( v == current )
        asm volatile ( "fxrstor64 %0" :: "m" (v->arch.hvm.fpu) );

    r->rax = c->rax; r->rbx = c->rbx; r->rcx = c->rcx; r->rdx = c->rdx;
    r->rbp = c->rbp; r->rsi = c->rsi; r->rdi = c->rdi; r->rsp = c->rsp;
    r->r8 = c->r8; r->r9 = c->r9; r->r10 = c->r10; r->r11 = c->r11;
    r->r12 = c->r12; r->r13 = c->r13; r->r14 = c->r14; r->r15 = c->r15;
    r->rip = c->rip;
    r->rflags = c->rflags | X86_EFLAGS_MBS;

    h->guest_cr0 = c->cr0 | X86_CR0_ET;
    h->guest_cr2 = c->cr2;
    h->guest_cr4 = c->cr4 & ~(uint64_t)X86_CR4_VMXE;
    h->guest_efer = efer;
    h->msr_shadow_gs = c->shadow_gs;
    h->msr_lstar = c->msr_lstar;
    h->msr_star = c->msr_star;
    h->msr_cstar = c->msr_cstar;
    h->msr_syscall_mask = c->msr_syscall_mask;
    h->msr_tsc_aux = c->msr_tsc_aux;

    vmx_vmcs_enter(v);
    __vmwrite(GUEST_CR3, c->cr3);
    /* The fixed bits as the CPU has them; bits 63:32 were refused. */
    __vmwrite(GUEST_DR7, x86_adj_dr7_rsvd(v, c->dr7));
    {
        const unsigned long dr[4] = { c->dr0, c->dr1, c->dr2, c->dr3 };

        vmx_set_debugregs(v, dr, x86_adj_dr6_rsvd(v, c->dr6));
    }
    LOAD_SEG(c, x86_seg_cs, cs);
    LOAD_SEG(c, x86_seg_ds, ds);
    LOAD_SEG(c, x86_seg_es, es);
    LOAD_SEG(c, x86_seg_fs, fs);
    LOAD_SEG(c, x86_seg_gs, gs);
    LOAD_SEG(c, x86_seg_ss, ss);
    LOAD_SEG(c, x86_seg_tr, tr);
    LOAD_SEG(c, x86_seg_ldtr, ldtr);
    __vmwrite(GUEST_GDTR_BASE, c->gdtr_base);
    __vmwrite(GUEST_GDTR_LIMIT, c->gdtr_limit);
    __vmwrite(GUEST_IDTR_BASE, c->idtr_base);
    __vmwrite(GUEST_IDTR_LIMIT, c->idtr_limit);
    __vmwrite(GUEST_SYSENTER_CS, c->sysenter_cs);
    __vmwrite(GUEST_SYSENTER_ESP, c->sysenter_esp);
    __vmwrite(GUEST_SYSENTER_EIP, c->sysenter_eip);
    __vmwrite(GUEST_INTERRUPTIBILITY_INFO, 0);
    __vmwrite(GUEST_ACTIVITY_STATE, GUEST_ACTIVITY_ACTIVE);
    __vmwrite(VM_ENTRY_INTR_INFO, (c->pending_event & INTR_INFO_VALID_MASK)
                                  ? c->pending_event : 0);
    __vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, c->error_code);
    vmx_update_guest_cr(v, 0);
    vmx_update_guest_cr(v, 4);
    vmx_update_guest_efer(v);
    vmx_vmcs_exit(v);
    return 0;
}

const struct hvm_function_table vmx_function_table = {
    .name               = "VMX",
    .cpu_up             = vmx_cpu_up,
    .flush_guest_tlbs   = vmx_flush_guest_tlbs,
    .vcpu_initialise    = vmx_create_vmcs,
    .vcpu_destroy       = vmx_destroy_vmcs,
    .do_resume          = vmx_do_resume,
    .update_guest_cr    = vmx_update_guest_cr,
    .update_guest_efer  = vmx_update_guest_efer,
    .inject_exception   = vmx_inject_hw_exception,
    .set_context        = vmx_set_context,
    .get_cpl            = vmx_get_cpl,
    .long_mode_code     = vmx_long_mode_code,
    .get_msr            = vmx_get_msr,
    .set_msr            = vmx_set_msr,
    .get_guest_cr3      = vmx_get_guest_cr3,
    .dump_exit_counts   = vmx_dump_exit_counts,
    .get_exit_counts    = vmx_get_exit_counts,
    .save_cpu           = vmx_save_cpu,
    .load_cpu           = vmx_load_cpu,
    .pml_supported      = vmx_pml_usable,
    .enable_pml         = vmx_domain_enable_pml,
    .disable_pml        = vmx_domain_disable_pml,
    .flush_pml          = vmx_domain_flush_pml_buffers,
    .apic_access_virt   = vmx_apic_access_virt,
    .ctxt_switch_from   = vmx_save_dr,
    .vlapic_mode_changed = vmx_vlapic_mode_changed,
    .vcpu_reset_state   = vmx_vcpu_reset_state,
};

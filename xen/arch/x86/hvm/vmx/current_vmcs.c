/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which VMCS each physical CPU has loaded, kept in one place (Xen's
 * per-CPU current_vmcs and foreign_vmcs, and each VMCS's active_cpu).
 *
 * VMREAD and VMWRITE act on whatever VMCS the CPU last VMPTRLDed.  The
 * record below is changed only next to the VMPTRLD (vmcs_ptrld()) and the
 * VMCLEAR (vmx_clear_vmcs()), so it always names the loaded one.
 *
 * The rules:
 * - vmx_do_resume() makes the running vCPU's VMCS the loaded one, through
 *   vmx_vmcs_reload(), before it enters the guest: that is the only place
 *   the running vCPU's VMCS is (re)loaded.  Code running for the current
 *   vCPU (exit handlers, hypercalls) may then use __vmread/__vmwrite.
 * - Any other vCPU's VMCS is touched only between vmx_vmcs_enter(v) and
 *   vmx_vmcs_exit(v).  The pairs nest (for the same v) and are no-ops when
 *   v is current; the outermost exit loads again whatever was loaded before
 *   the first enter, or VMCLEARs v's VMCS if nothing was.  One foreign vCPU
 *   at a time per CPU, as in Xen.
 *
 * Differences from Xen, which runs on many CPUs: there is one physical
 * CPU, so a foreign vCPU cannot be running elsewhere (Xen pauses it and
 * takes its vmcs_lock) and its VMCS never has to move between CPUs (Xen
 * VMCLEARs it again on exit so that it may).  Here the VMCS stays active on
 * this CPU, keeping its launch state; active_cpu is kept as Xen keeps it
 * so the SMP case has its place.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/percpu.h>
#include <asm/config.h>
#include <asm/hvm/vmx/vmcs.h>

/* What one physical CPU has loaded. */
struct vmx_cpu_vmcs {
    paddr_t current_vmcs;       /* machine address; 0 when none is loaded */
    struct vcpu *foreign;       /* the non-current vCPU entered, or NULL */
    unsigned int count;         /* nested vmx_vmcs_enter()s of 'foreign' */
    paddr_t prev;               /* loaded before the first of those (0: none) */
};

static DEFINE_PER_CPU(struct vmx_cpu_vmcs, vmx_cpu_vmcs);

#define this_vmcs (&this_cpu(vmx_cpu_vmcs))

paddr_t vmx_current_vmcs(void)
{
    return this_vmcs->current_vmcs;
}

bool vmx_vmcs_is_loaded(const struct vcpu *v)
{
    return v && v->arch.hvm.vmx.vmcs_pa &&
           v->arch.hvm.vmx.vmcs_pa == this_vmcs->current_vmcs;
}

/* VMPTRLD and the record, together. */
static void vmcs_ptrld(paddr_t pa)
{
    if ( !__vmptrld(pa) )
        panic("VMX: VMPTRLD of %#lx failed", (unsigned long)pa);
    this_vmcs->current_vmcs = pa;
}

/* VMPTRLD v's VMCS, making it active on (and current for) this CPU. */
void vmx_load_vmcs(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;

    BUG_ON(!vmx->vmcs_pa);
    if ( vmx->active_cpu == -1 )
        vmx->active_cpu = smp_processor_id();
    BUG_ON(vmx->active_cpu != (int)smp_processor_id());
    vmcs_ptrld(vmx->vmcs_pa);
}

/*
 * VMCLEAR v's VMCS: its state is written back to memory and its launch
 * state is clear, so the next entry is a VMLAUNCH.  Nothing to do if it is
 * active nowhere.
 */
void vmx_clear_vmcs(struct vcpu *v)
{
    struct vmx_vcpu *vmx = &v->arch.hvm.vmx;
    struct vmx_cpu_vmcs *c = this_vmcs;

    if ( vmx->active_cpu == -1 )
        return;
    BUG_ON(vmx->active_cpu != (int)smp_processor_id());
    BUG_ON(c->foreign == v);        /* inside its own enter/exit */
    if ( !__vmpclear(vmx->vmcs_pa) )
        panic("VMX: VMCLEAR failed for d%uv%u",
              v->domain->domain_id, v->vcpu_id);
    vmx->active_cpu = -1;
    vmx->launched = false;
    if ( c->current_vmcs == vmx->vmcs_pa )
        c->current_vmcs = 0;
    if ( c->prev == vmx->vmcs_pa )
        c->prev = 0;                /* nothing to go back to */
}

/*
 * Make v's VMCS the loaded one.  False only if v is the running vCPU and
 * its VMCS is not loaded (another vCPU's enter/exit is open): its fields
 * cannot be reached then.
 */
bool vmx_vmcs_try_enter(struct vcpu *v)
{
    struct vmx_cpu_vmcs *c = this_vmcs;

    if ( v == current )
        return vmx_vmcs_is_loaded(v);

    if ( c->foreign == v )
        BUG_ON(c->count == 0);
    else
    {
        BUG_ON(c->foreign || c->count);     /* one foreign vCPU at a time */
        c->prev = c->current_vmcs;
        c->foreign = v;
        if ( !vmx_vmcs_is_loaded(v) )
            vmx_load_vmcs(v);
    }
    c->count++;
    return true;
}

void vmx_vmcs_enter(struct vcpu *v)
{
    bool ok = vmx_vmcs_try_enter(v);

    BUG_ON(!ok);
}

void vmx_vmcs_exit(struct vcpu *v)
{
    struct vmx_cpu_vmcs *c = this_vmcs;
    paddr_t prev;

    if ( v == current )
        return;

    BUG_ON(c->foreign != v || c->count == 0);
    BUG_ON(!vmx_vmcs_is_loaded(v));
    if ( --c->count )
        return;

    prev = c->prev;
    c->foreign = NULL;
    c->prev = 0;
    if ( !prev )
        vmx_clear_vmcs(v);          /* nothing was loaded: nothing is again */
    else if ( prev != v->arch.hvm.vmx.vmcs_pa )
        vmcs_ptrld(prev);           /* still active here: never cleared */
}

/*
 * The VM-entry path: make the running vCPU's VMCS the loaded one.  Called
 * only by vmx_do_resume(), with no enter/exit open.
 */
void vmx_vmcs_reload(struct vcpu *v)
{
    struct vmx_cpu_vmcs *c = this_vmcs;

    BUG_ON(v != current);
    BUG_ON(c->foreign || c->count);
    if ( !vmx_vmcs_is_loaded(v) )
        vmx_load_vmcs(v);
}

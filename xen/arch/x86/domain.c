/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What common code asks of the architecture for domains and vCPUs (Xen's
 * arch/x86/domain.c): switching vCPUs, running one, and describing one on
 * the console.  Common code calls only these (xen/sched.h's arch_*
 * section), never HVM or VMX code, so that another vendor or PV would
 * plug in here.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/vlapic.h>

void context_switch(struct vcpu *prev, struct vcpu *next)
{
    hvm_context_switch(prev, next);
}

void arch_vcpu_run(struct vcpu *v)
{
    hvm_funcs->do_resume(v);
}

void arch_dump_vcpu_info(struct vcpu *v)
{
    printk("    rip %#lx rflags %#lx upcall vector %#x exits %lu\n",
           (unsigned long)v->arch.hvm.regs.rip, (unsigned long)v->arch.hvm.regs.rflags,
           v->arch.hvm.evtchn_upcall_vector, (unsigned long)v->arch.hvm.exits_total);
    vlapic_dump(v);
    hvm_funcs->dump_exit_counts(v);
}

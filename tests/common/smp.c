/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting secondary vCPUs directly in long mode (VCPUOP_initialise 64B). */

#include "test.h"
#include "public/hvm/hvm_vcpu.h"

void ap_start64(void);
void load_idt(void);
noreturn void smp_ap_main(unsigned int id, void (*fn)(unsigned int id));

long vcpu_is_up(unsigned int id)
{
    return hypercall_vcpu_op(VCPUOP_is_up, id, NULL);
}

unsigned int vcpu_count(void)
{
    unsigned int n;

    if ( !hypercall_page_ready )
        return 0;

    for ( n = 0; n < 4096; n++ )
        if ( vcpu_is_up(n) < 0 )
            break;

    return n;
}

int vcpu_start(unsigned int id, void (*fn)(unsigned int id))
{
    static struct vcpu_hvm_context ctx;
    static spinlock_t lock = SPIN_LOCK_UNLOCKED;
    unsigned long *top;
    long rc;

    if ( id == 0 || id >= GUEST_MAX_VCPUS )
        return -XEN_EINVAL;

    rc = vcpu_is_up(id);
    if ( rc < 0 )
        return rc;
    if ( rc > 0 )
        return -XEN_EBUSY;

    /* The new vCPU finds { fn, id } at its %rsp (see head.S). */
    top = (unsigned long *)(cpu_stacks[id] + GUEST_STACK_SIZE);
    top[-2] = (unsigned long)fn;
    top[-1] = id;

    spin_lock(&lock);
    memset(&ctx, 0, sizeof(ctx));
    ctx.mode = VCPU_HVM_MODE_64B;
    ctx.cpu_regs.x86_64 = (struct vcpu_hvm_x86_64){
        .rip = (unsigned long)ap_start64,
        .rsp = (unsigned long)&top[-2],
        .rflags = X86_EFLAGS_MBS,
        .cr0 = read_cr0(),
        .cr3 = read_cr3(),
        .cr4 = read_cr4(),
        .efer = rdmsr(MSR_EFER),
    };

    rc = hypercall_vcpu_op(VCPUOP_initialise, id, &ctx);
    spin_unlock(&lock);
    if ( rc )
        return rc;

    return hypercall_vcpu_op(VCPUOP_up, id, NULL);
}

noreturn void smp_ap_main(unsigned int id, void (*fn)(unsigned int id))
{
    load_idt();

    fn(id);

    /* HLT with interrupts off: Xen takes the vCPU down. */
    for ( ;; )
    {
        cli();
        halt();
    }
}

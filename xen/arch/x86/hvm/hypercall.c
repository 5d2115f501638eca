/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercall entry for HVM/PVH guests: the hypercall page, the calling
 * conventions, and dispatch through one table.
 *
 * 64-bit code passes the number in RAX and arguments in RDI, RSI, RDX,
 * R10, R8; 32-bit code uses EAX and EBX, ECX, EDX, ESI, EDI.  The result
 * goes back in RAX.  Hypercalls from guest user mode fail with -EPERM;
 * unknown numbers with -ENOSYS, logged once each (hypercall_enosys).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/softirq.h>
#include <xen/string.h>
#include <public/xen.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/support.h>
#include <asm/p2m.h>

typedef long (*hypercall_fn_t)(unsigned long a1, unsigned long a2,
                               unsigned long a3, unsigned long a4,
                               unsigned long a5);

/* A pointer argument register as the handler's typed guest handle. */
#define HND(a, type)  guest_handle_from_ptr((void *)(a), type)

static long hc_xen_version(unsigned long a1, unsigned long a2, unsigned long a3,
                           unsigned long a4, unsigned long a5)
{
    return do_xen_version((int)a1, HND(a2, void));
}

static long hc_console_io(unsigned long a1, unsigned long a2, unsigned long a3,
                          unsigned long a4, unsigned long a5)
{
    return do_console_io((unsigned int)a1, (unsigned int)a2, HND(a3, char));
}

static long hc_sched_op(unsigned long a1, unsigned long a2, unsigned long a3,
                        unsigned long a4, unsigned long a5)
{
    return do_sched_op((int)a1, HND(a2, void));
}

static long hc_vcpu_op(unsigned long a1, unsigned long a2, unsigned long a3,
                       unsigned long a4, unsigned long a5)
{
    return do_vcpu_op((int)a1, (unsigned int)a2, HND(a3, void));
}

static long hc_memory_op(unsigned long a1, unsigned long a2, unsigned long a3,
                         unsigned long a4, unsigned long a5)
{
    return do_memory_op(a1, HND(a2, void));
}

static long hc_grant_table_op(unsigned long a1, unsigned long a2, unsigned long a3,
                             unsigned long a4, unsigned long a5)
{
    return do_grant_table_op((unsigned int)a1, HND(a2, void), (unsigned int)a3);
}

static long hc_sysctl(unsigned long a1, unsigned long a2, unsigned long a3,
                      unsigned long a4, unsigned long a5)
{
    return do_sysctl(HND(a1, xen_sysctl_t));
}

static long hc_domctl(unsigned long a1, unsigned long a2, unsigned long a3,
                      unsigned long a4, unsigned long a5)
{
    return do_domctl(HND(a1, xen_domctl_t));
}

static long hc_dm_op(unsigned long a1, unsigned long a2, unsigned long a3,
                     unsigned long a4, unsigned long a5)
{
    return do_dm_op((domid_t)a1, (unsigned int)a2, HND(a3, xen_dm_op_buf_t));
}

static long hc_vm_assist(unsigned long a1, unsigned long a2, unsigned long a3,
                         unsigned long a4, unsigned long a5)
{
    return do_vm_assist((unsigned int)a1, (unsigned int)a2);
}

static long hc_event_channel_op(unsigned long a1, unsigned long a2, unsigned long a3,
                                unsigned long a4, unsigned long a5)
{
    return do_event_channel_op((int)a1, HND(a2, void));
}

static long hc_hvm_op(unsigned long a1, unsigned long a2, unsigned long a3,
                      unsigned long a4, unsigned long a5)
{
    return do_hvm_op(a1, HND(a2, void));
}

static long hc_platform_op(unsigned long a1, unsigned long a2, unsigned long a3,
                           unsigned long a4, unsigned long a5)
{
    return do_platform_op(HND(a1, xen_platform_op_t));
}

static long hc_multicall(unsigned long a1, unsigned long a2, unsigned long a3,
                         unsigned long a4, unsigned long a5)
{
    if ( !hvm_funcs->long_mode_code(current) )
        return -ENOSYS;             /* the 32-bit entry layout is not handled */
    return do_multicall(HND(a1, multicall_entry_t), (unsigned int)a2);
}

static const hypercall_fn_t hypercall_table[] = {
    [__HYPERVISOR_multicall]    = hc_multicall,
    [__HYPERVISOR_platform_op]  = hc_platform_op,
    [__HYPERVISOR_memory_op]    = hc_memory_op,
    [__HYPERVISOR_xen_version]  = hc_xen_version,
    [__HYPERVISOR_console_io]   = hc_console_io,
    [__HYPERVISOR_grant_table_op] = hc_grant_table_op,
    [__HYPERVISOR_sched_op]     = hc_sched_op,
    [__HYPERVISOR_vcpu_op]      = hc_vcpu_op,
    [__HYPERVISOR_vm_assist]    = hc_vm_assist,
    [__HYPERVISOR_event_channel_op] = hc_event_channel_op,
    [__HYPERVISOR_hvm_op]       = hc_hvm_op,
    [__HYPERVISOR_sysctl]       = hc_sysctl,
    [__HYPERVISOR_domctl]       = hc_domctl,
    [__HYPERVISOR_dm_op]        = hc_dm_op,
};

bool hypercall_preempt_check(void)
{
    /*
     * The caller's slice is over, or a softirq waits (a timer is due, or
     * serial input came: the UART's interrupt is taken in here, interrupts
     * being enabled): let them run, then go on.
     */
    return rdtsc() >= sched_slice_deadline() || softirq_pending(smp_processor_id());
}

long hypercall_create_continuation(unsigned int op, const char *format, ...)
{
    struct hvm_vcpu *hvm = &current->arch.hvm;
    unsigned int i;
    va_list args;

    memset(hvm->hcall_args, 0, sizeof(hvm->hcall_args));
    va_start(args, format);
    for ( i = 0; format[i]; i++ )
    {
        unsigned long a;

        switch ( format[i] )
        {
        case 'i': a = va_arg(args, unsigned int); break;
        case 'l': a = va_arg(args, unsigned long); break;
        /* A handle is one pointer in a struct: passed as a pointer is (SysV x86-64). */
        case 'h': a = (unsigned long)va_arg(args, void *); break;
        default:
            BUG();
        }
        BUG_ON(i >= ARRAY_SIZE(hvm->hcall_args));
        hvm->hcall_args[i] = a;
    }
    va_end(args);

    hvm->hcall_preempted = true;
    raise_resched();
    return op;
}

/*
 * One multicall entry (common/multicall.c), through the same table: its
 * result in call->result; true if the call was preempted, its
 * continuation's arguments then in call->args.
 */
bool arch_do_multicall_call(struct multicall_entry *call)
{
    struct hvm_vcpu *hvm = &current->arch.hvm;
    hypercall_fn_t fn = NULL;
    unsigned int i;

    if ( call->op == __HYPERVISOR_multicall )
    {
        call->result = -EINVAL;     /* no nesting, as Xen */
        return false;
    }
    if ( call->op < ARRAY_SIZE(hypercall_table) )
        fn = hypercall_table[call->op];
    hvm->hcall_preempted = false;
    call->result = fn ? fn(call->args[0], call->args[1], call->args[2], call->args[3],
                           call->args[4])
                      : hypercall_enosys(call->op);
    if ( !hvm->hcall_preempted )
        return false;
    for ( i = 0; i < ARRAY_SIZE(hvm->hcall_args) && i < ARRAY_SIZE(call->args); i++ )
        call->args[i] = hvm->hcall_args[i];
    hvm->hcall_preempted = false;
    return true;
}

int hvm_hypercall(struct vcpu *v, struct cpu_user_regs *regs)
{
    struct hvm_vcpu *hvm = &v->arch.hvm;
    bool lm = hvm_funcs->long_mode_code(v);
    unsigned long nr, a[5];
    hypercall_fn_t fn = NULL;
    long rc;

    if ( hvm_funcs->get_cpl(v) != 0 )
    {
        regs->rax = -EPERM;
        return HVM_HCALL_completed;
    }

    if ( lm )
    {
        nr = regs->rax;
        a[0] = regs->rdi; a[1] = regs->rsi; a[2] = regs->rdx;
        a[3] = regs->r10; a[4] = regs->r8;
    }
    else
    {
        nr = (uint32_t)regs->rax;
        a[0] = (uint32_t)regs->rbx; a[1] = (uint32_t)regs->rcx;
        a[2] = (uint32_t)regs->rdx; a[3] = (uint32_t)regs->rsi;
        a[4] = (uint32_t)regs->rdi;
    }

    if ( nr < ARRAY_SIZE(hypercall_table) )
        fn = hypercall_table[nr];
    hvm->hcall_preempted = false;
    rc = fn ? fn(a[0], a[1], a[2], a[3], a[4]) : hypercall_enosys(nr);

    if ( hvm->hcall_preempted )
    {
        /* The guest re-executes the hypercall with the new arguments. */
        const unsigned long *n = hvm->hcall_args;

        hvm->hcall_preempted = false;
        if ( lm )
        {
            regs->rdi = n[0]; regs->rsi = n[1]; regs->rdx = n[2];
            regs->r10 = n[3]; regs->r8 = n[4];
        }
        else
        {
            regs->rbx = (uint32_t)n[0]; regs->rcx = (uint32_t)n[1];
            regs->rdx = (uint32_t)n[2]; regs->rsi = (uint32_t)n[3];
            regs->rdi = (uint32_t)n[4];
        }
        return HVM_HCALL_preempted;     /* rax still holds the number */
    }

    if ( lm )
        regs->rax = rc;
    else
        regs->rax = (uint32_t)rc;
    return HVM_HCALL_completed;
}

/* One 32-byte stub per hypercall: mov $nr, %eax; vmcall; ret. */
#define HYPERCALL_STUB_SIZE 32

int hvm_init_hypercall_page(struct domain *d, uint64_t gpa)
{
    p2m_type_t t;
    uint8_t *p = p2m_map_gpa(d, gpa, &t);
    unsigned int i;

    if ( !p || (t != p2m_ram_rw && t != p2m_ram_logdirty) )
        return -EINVAL;
    /* Written for the guest: log-dirty must see it (migration would miss it). */
    p2m_note_hypervisor_write(d, gpa >> PAGE_SHIFT);

    memset(p, 0xcc, PAGE_SIZE);             /* int3 between stubs */
    for ( i = 0; i < PAGE_SIZE / HYPERCALL_STUB_SIZE; i++ )
    {
        uint8_t *s = p + i * HYPERCALL_STUB_SIZE;

        s[0] = 0xb8;                        /* mov $i, %eax */
        s[1] = i & 0xff;
        s[2] = (i >> 8) & 0xff;
        s[3] = 0;
        s[4] = 0;
        s[5] = 0x0f;                        /* vmcall */
        s[6] = 0x01;
        s[7] = 0xc1;
        s[8] = 0xc3;                        /* ret */
    }
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls and sub-operations this hypervisor does not implement fail
 * with -ENOSYS, as in Xen, and are logged once each, by name, so that
 * what a guest (Linux as dom0, say) asked for and did not get is visible
 * in the log without flooding it.
 */
#include <xen/errno.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>

static const char *const hypercall_names[] = {
    [__HYPERVISOR_set_trap_table]           = "set_trap_table",
    [__HYPERVISOR_mmu_update]               = "mmu_update",
    [__HYPERVISOR_set_gdt]                  = "set_gdt",
    [__HYPERVISOR_stack_switch]             = "stack_switch",
    [__HYPERVISOR_set_callbacks]            = "set_callbacks",
    [__HYPERVISOR_fpu_taskswitch]           = "fpu_taskswitch",
    [__HYPERVISOR_sched_op_compat]          = "sched_op_compat",
    [__HYPERVISOR_platform_op]              = "platform_op",
    [__HYPERVISOR_set_debugreg]             = "set_debugreg",
    [__HYPERVISOR_get_debugreg]             = "get_debugreg",
    [__HYPERVISOR_update_descriptor]        = "update_descriptor",
    [__HYPERVISOR_memory_op]                = "memory_op",
    [__HYPERVISOR_multicall]                = "multicall",
    [__HYPERVISOR_update_va_mapping]        = "update_va_mapping",
    [__HYPERVISOR_set_timer_op]             = "set_timer_op",
    [__HYPERVISOR_event_channel_op_compat]  = "event_channel_op_compat",
    [__HYPERVISOR_xen_version]              = "xen_version",
    [__HYPERVISOR_console_io]               = "console_io",
    [__HYPERVISOR_physdev_op_compat]        = "physdev_op_compat",
    [__HYPERVISOR_grant_table_op]           = "grant_table_op",
    [__HYPERVISOR_vm_assist]                = "vm_assist",
    [__HYPERVISOR_update_va_mapping_otherdomain] = "update_va_mapping_otherdomain",
    [__HYPERVISOR_iret]                     = "iret",
    [__HYPERVISOR_vcpu_op]                  = "vcpu_op",
    [__HYPERVISOR_set_segment_base]         = "set_segment_base",
    [__HYPERVISOR_mmuext_op]                = "mmuext_op",
    [__HYPERVISOR_xsm_op]                   = "xsm_op",
    [__HYPERVISOR_nmi_op]                   = "nmi_op",
    [__HYPERVISOR_sched_op]                 = "sched_op",
    [__HYPERVISOR_callback_op]              = "callback_op",
    [__HYPERVISOR_xenoprof_op]              = "xenoprof_op",
    [__HYPERVISOR_event_channel_op]         = "event_channel_op",
    [__HYPERVISOR_physdev_op]               = "physdev_op",
    [__HYPERVISOR_hvm_op]                   = "hvm_op",
    [__HYPERVISOR_sysctl]                   = "sysctl",
    [__HYPERVISOR_domctl]                   = "domctl",
    [__HYPERVISOR_kexec_op]                 = "kexec_op",
    [__HYPERVISOR_tmem_op]                  = "tmem_op",
    [__HYPERVISOR_argo_op]                  = "argo_op",
    [__HYPERVISOR_xenpmu_op]                = "xenpmu_op",
    [__HYPERVISOR_dm_op]                    = "dm_op",
    [__HYPERVISOR_hypfs_op]                 = "hypfs_op",
    [__HYPERVISOR_arch_0]                   = "mca",
    [__HYPERVISOR_arch_1]                   = "arch_1",
};

#define NR_TRACKED 64                   /* hypercalls and sub-ops 0-62; 63: the rest */

static uint64_t logged_hypercalls;
static uint64_t logged_subops[NR_TRACKED];

const char *hypercall_name(unsigned long nr)
{
    if ( nr < ARRAY_SIZE(hypercall_names) && hypercall_names[nr] )
        return hypercall_names[nr];
    return "unknown";
}

/* True the first time for this (bucket, bit). */
static bool first_time(uint64_t *word, unsigned long n)
{
    uint64_t bit = 1ULL << (n < NR_TRACKED - 1 ? n : NR_TRACKED - 1);

    if ( *word & bit )
        return false;
    *word |= bit;
    return true;
}

long hypercall_enosys(unsigned long nr)
{
    const struct domain *d = current->domain;

    if ( first_time(&logged_hypercalls, nr) )
        printk(XENLOG_G_WARNING "d%u: hypercall %lu (%s) not implemented: -ENOSYS "
               "(logged once)\n", d->domain_id, nr, hypercall_name(nr));
    return -ENOSYS;
}

long subop_enosys(unsigned int hypercall, unsigned long subop, const char *name)
{
    const struct domain *d = current->domain;

    if ( hypercall < NR_TRACKED && first_time(&logged_subops[hypercall], subop) )
        printk(XENLOG_G_WARNING "d%u: %s %lu%s%s%s not implemented: -ENOSYS "
               "(logged once)\n", d->domain_id, hypercall_name(hypercall), subop,
               name ? " (" : "", name ?: "", name ? ")" : "");
    return -ENOSYS;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * multicall (13): a batch of hypercalls in one, as Xen's
 * common/multicall.c.  Each entry's op runs with its first five arguments;
 * its return value goes into the entry's result field; the multicall
 * itself returns 0, or -EFAULT if the list cannot be read or a result not
 * written back.  Libxenctrl 4.17 sends every memory_op this way (a single
 * entry, to get a 64-bit result through privcmd).
 *
 * Preemption as Xen: between entries the batch may stop and continue
 * (the guest re-executes the multicall for the entries left); an entry
 * whose own call was preempted gets its continuation's arguments written
 * back into the entry, and the batch continues from that entry.  A
 * multicall inside a multicall: -EINVAL in its result.  The entries are
 * 64-bit ones; a 32-bit caller gets -ENOSYS (no compat layout here).
 * The state is the caller's vCPU's (hcall_preempted): nothing shared.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <public/xen.h>

long do_multicall(XEN_GUEST_HANDLE_PARAM(multicall_entry_t) call_list, unsigned int nr_calls)
{
    struct multicall_entry call;
    unsigned int i;

    if ( !guest_handle_okay(call_list, nr_calls) )
        return -EFAULT;

    for ( i = 0; i < nr_calls; i++ )
    {
        bool preempted;

        if ( i && hypercall_preempt_check() )
            return hypercall_create_continuation(__HYPERVISOR_multicall, "hi",
                                                 call_list.p, nr_calls - i);
        if ( copy_from_guest(&call, call_list, 1) )
            return -EFAULT;

        preempted = arch_do_multicall_call(&call);
        if ( preempted )
        {
            /* Its continuation's arguments into the entry; go on from it. */
            if ( copy_to_guest(call_list, &call, 1) )
                return -EFAULT;
            return hypercall_create_continuation(__HYPERVISOR_multicall, "hi",
                                                 call_list.p, nr_calls - i);
        }
        if ( copy_field_to_guest(call_list, &call, result) )
            return -EFAULT;
        guest_handle_add_offset(call_list, 1);
    }
    return 0;
}

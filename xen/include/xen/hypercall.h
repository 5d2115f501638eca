/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercall handlers, with Xen's prototypes.  Guest pointers arrive as
 * typed guest handles (XEN_GUEST_HANDLE_PARAM(type)), made from the
 * argument registers in arch/x86/hvm/hypercall.c, and are read and written
 * only through xen/guest_access.h.  A new hypercall's handler takes
 * XEN_GUEST_HANDLE_PARAM(its argument type), or (void) when the type
 * depends on a sub-op.
 */
#ifndef __XEN_HYPERCALL_H__
#define __XEN_HYPERCALL_H__

#include <xen/cpumask.h>
#include <xen/types.h>
#include <public/xen.h>
#include <public/domctl.h>
#include <public/platform.h>
#include <public/sysctl.h>
#include <public/hvm/dm_op.h>

long do_xen_version(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_console_io(unsigned int cmd, unsigned int count,
                   XEN_GUEST_HANDLE_PARAM(char) buffer);
long do_sched_op(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_vcpu_op(int cmd, unsigned int vcpuid, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_vm_assist(unsigned int cmd, unsigned int type);
long do_memory_op(unsigned long cmd, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_grant_table_op(unsigned int cmd, XEN_GUEST_HANDLE_PARAM(void) uop,
                       unsigned int count);
long do_sysctl(XEN_GUEST_HANDLE_PARAM(xen_sysctl_t) u_sysctl);
long do_domctl(XEN_GUEST_HANDLE_PARAM(xen_domctl_t) u_domctl);

/*
 * memory_op: bits 6 and up of cmd are the extent to start from, for the
 * continuation of a preempted reservation change (Xen's, in the same
 * private header; guests see them only as the cmd they re-execute).
 */
#define MEMOP_EXTENT_SHIFT 6
#define MEMOP_CMD_MASK     ((1 << MEMOP_EXTENT_SHIFT) - 1)

/*
 * The architecture's domctls (arch/x86/domctl.c), called by do_domctl for
 * the commands common code does not handle, with the target domain
 * checked; *copyback says whether op goes back to the caller.
 */
struct domain;
struct xen_domctl;
struct xen_domctl_getdomaininfo;
long arch_do_domctl(struct xen_domctl *op, struct domain *d, bool *copyback);
/* The sysctls common/sysctl.c does not know (arch/x86/sysctl.c). */
struct xen_sysctl;
long arch_do_sysctl(struct xen_sysctl *op, bool *copyback);
/* A CPU map into a caller's xenctl_bitmap (common/domctl.c; Xen's name). */
struct xenctl_bitmap;
int cpumask_to_xenctl_bitmap(struct xenctl_bitmap *b, const cpumask_t *m);
/* The architecture's part of getdomaininfo. */
void arch_get_domain_info(const struct domain *d, struct xen_domctl_getdomaininfo *info);
/* XEN_DOMCTL_{get,set}_paging_mempool_size, in bytes (Xen's names). */
int arch_get_paging_mempool_size(struct domain *d, uint64_t *size);
int arch_set_paging_mempool_size(struct domain *d, uint64_t size);
/* multicall (common/multicall.c) and one entry of it (the arch's dispatch). */
struct multicall_entry;
long do_multicall(XEN_GUEST_HANDLE_PARAM(multicall_entry_t) call_list, unsigned int nr_calls);
bool arch_do_multicall_call(struct multicall_entry *call);
long do_dm_op(domid_t domid, unsigned int nr_bufs,
              XEN_GUEST_HANDLE_PARAM(xen_dm_op_buf_t) bufs);
long do_event_channel_op(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_hvm_op(unsigned long op, XEN_GUEST_HANDLE_PARAM(void) arg);
long do_platform_op(XEN_GUEST_HANDLE_PARAM(xen_platform_op_t) u_xenpf_op);

/*
 * What is not implemented (common/unimplemented.c): -ENOSYS, logged once
 * per hypercall, or per hypercall and sub-op, by name.  'name' may be NULL.
 */
const char *hypercall_name(unsigned long nr);
long hypercall_enosys(unsigned long nr);
long subop_enosys(unsigned int hypercall, unsigned long subop, const char *name);

/*
 * Long operations stop at a preemption point when the caller's time is up
 * and are restarted by the guest itself, as in Xen: the handler calls
 * hypercall_create_continuation() with the arguments the rest of the work
 * needs and returns its result; the guest then re-executes the hypercall
 * with those arguments (nothing it can see changes in between but the
 * argument registers).  hypercall_preempt_check() says whether to stop.
 *
 * The arguments follow a format string, one character each, as in Xen:
 * 'i' an unsigned int, 'l' an unsigned long, 'h' a guest handle (of any
 * type; advance it with guest_handle_add_offset() first if the rest of
 * the work starts further on).
 */
bool hypercall_preempt_check(void);
long hypercall_create_continuation(unsigned int op, const char *format, ...);

#endif /* __XEN_HYPERCALL_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* Hypercall handlers.  Guest pointers arrive as guest-virtual addresses. */
#ifndef __XEN_HYPERCALL_H__
#define __XEN_HYPERCALL_H__

#include <xen/types.h>
#include <public/xen.h>

long do_xen_version(int cmd, unsigned long arg);
long do_console_io(unsigned int cmd, unsigned int count, unsigned long buffer);
long do_sched_op(int cmd, unsigned long arg);
long do_vcpu_op(int cmd, unsigned int vcpuid, unsigned long arg);
long do_memory_op(unsigned long cmd, unsigned long arg);
long do_sysctl(unsigned long u_sysctl);
long do_domctl(unsigned long u_domctl);

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
/* The architecture's part of getdomaininfo. */
void arch_get_domain_info(const struct domain *d, struct xen_domctl_getdomaininfo *info);
long do_dm_op(domid_t domid, unsigned int nr_bufs, unsigned long u_bufs);
long do_event_channel_op(int cmd, unsigned long arg);
long do_hvm_op(unsigned long op, unsigned long arg);
long do_platform_op(unsigned long u_xenpf_op);

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
 */
bool hypercall_preempt_check(void);
long hypercall_create_continuation(unsigned int op, unsigned long a1,
                                   unsigned long a2, unsigned long a3,
                                   unsigned long a4, unsigned long a5);

#endif /* __XEN_HYPERCALL_H__ */

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
long do_dm_op(domid_t domid, unsigned int nr_bufs, unsigned long u_bufs);
long do_event_channel_op(int cmd, unsigned long arg);
long do_hvm_op(unsigned long op, unsigned long arg);

/*
 * An unimplemented hypercall or sub-op: logged once per (hypercall, name)
 * with the calling domain, and -ENOSYS returned.  'subop' may be NULL.
 */
long hypercall_unimplemented(const char *hypercall, const char *subop,
                             unsigned long nr);

#endif /* __XEN_HYPERCALL_H__ */

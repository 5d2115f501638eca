/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For a test that compiles hypervisor code calling into the hypercall
 * machinery: a hypercall is never preempted, and a continuation or an
 * unknown sub-op is -ENOSYS.  Included once, in the test's own file.
 */
#ifndef __TESTS_UNIT_STUB_HYPERCALL_H__
#define __TESTS_UNIT_STUB_HYPERCALL_H__

#include <xen/errno.h>

bool hypercall_preempt_check(void)
{
    return false;
}

long hypercall_create_continuation(unsigned int op, const char *format, ...)
{
    (void)op;
    (void)format;
    return -ENOSYS;
}

long subop_enosys(unsigned int hypercall, unsigned long subop, const char *name)
{
    (void)hypercall;
    (void)subop;
    (void)name;
    return -ENOSYS;
}

#endif /* __TESTS_UNIT_STUB_HYPERCALL_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls from a guest test kernel (x86-64 HVM ABI): number in %rax,
 * arguments in %rdi, %rsi, %rdx, %r10, %r8, result in %rax.  Calls go
 * through the hypercall page the hypervisor fills (stub N at N * 32).
 */
#ifndef GUEST_HYPERCALL_H
#define GUEST_HYPERCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "public/xen.h"
#include "public/errno.h"
#include "public/sched.h"
#include "public/vcpu.h"
#include "public/version.h"

#define HYPERCALL_STUB_SIZE 32

extern uint8_t hypercall_page[];

/* CPUID base of the Xen leaves (0x40000000 normally), 0 if not under Xen. */
extern uint32_t xen_cpuid_base;
/* Set once the hypercall page is filled in. */
extern bool hypercall_page_ready;

/* Find the Xen CPUID leaves; true when running under Xen. */
bool xen_detect(void);
/* Register hypercall_page with the hypervisor (needs xen_detect()). */
int hypercall_page_init(void);

/* Any hypercall through the page, up to five arguments. */
long hypercall6(unsigned int nr, unsigned long a1, unsigned long a2,
                unsigned long a3, unsigned long a4, unsigned long a5);
/* The same with a VMCALL of our own, bypassing the page. */
long hypercall_vmcall(unsigned long nr, unsigned long a1, unsigned long a2,
                      unsigned long a3, unsigned long a4, unsigned long a5);

static inline long hypercall_console_io(unsigned int cmd, unsigned int count,
                                        const void *buf)
{
    return hypercall6(__HYPERVISOR_console_io, cmd, count,
                      (unsigned long)buf, 0, 0);
}

static inline long hypercall_console_write(const char *buf,
                                           unsigned int count)
{
    return hypercall_console_io(CONSOLEIO_write, count, buf);
}

static inline long hypercall_xen_version(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_xen_version, cmd, (unsigned long)arg,
                      0, 0, 0);
}

static inline long hypercall_sched_op(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_sched_op, cmd, (unsigned long)arg,
                      0, 0, 0);
}

static inline long hypercall_yield(void)
{
    return hypercall_sched_op(SCHEDOP_yield, NULL);
}

static inline long hypercall_shutdown(unsigned int reason)
{
    struct sched_shutdown s = { .reason = reason };

    return hypercall_sched_op(SCHEDOP_shutdown, &s);
}

static inline long hypercall_vcpu_op(unsigned int cmd, unsigned int vcpu,
                                     void *arg)
{
    return hypercall6(__HYPERVISOR_vcpu_op, cmd, vcpu, (unsigned long)arg,
                      0, 0);
}

#endif /* GUEST_HYPERCALL_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Emulated port I/O and MMIO (Xen's hvm/intercept.c): each device
 * registers the ports it answers with register_portio_handler() when a
 * domain is created, and hvm_portio() dispatches a guest's IN/OUT to it.
 * Ports and guest-physical addresses nobody claims read as all ones and
 * ignore writes.
 */
#ifndef __ASM_X86_HVM_IO_H__
#define __ASM_X86_HVM_IO_H__

#include <xen/types.h>

struct domain;

/* A handler runs for current; *val holds the value out / receives the value in. */
typedef void (*portio_action_t)(bool in, unsigned int port, unsigned int bytes,
                                uint32_t *val);

struct hvm_io_handler {
    uint16_t port, size;            /* [port, port + size) */
    portio_action_t action;
};

#define MAX_PORTIO_HANDLERS 8

int register_portio_handler(struct domain *d, unsigned int port,
                            unsigned int size, portio_action_t action);

/*
 * An access to guest-physical address 'gpa' that is neither RAM nor an
 * emulated device (Xen's null handler): the instruction in ctxt (regs,
 * mode and its bytes filled in by the caller) is emulated by x86_emulate()
 * with reads returning all ones at its width and writes dropped, and the
 * first such access of the domain is logged.  X86EMUL_OKAY (RIP advanced),
 * X86EMUL_EXCEPTION (ctxt->exception to inject), or X86EMUL_UNHANDLEABLE
 * with *why saying what (the caller crashes the domain).
 */
struct vcpu;
struct x86_emulate_ctxt;
int hvm_mmio_unclaimed(struct vcpu *v, struct x86_emulate_ctxt *ctxt,
                       uint64_t gpa, const char **why);

/* Devices: hvm/rtc.c (0x70-0x71) and the debug port (0xe9). */
void rtc_init(struct domain *d);

#endif /* __ASM_X86_HVM_IO_H__ */

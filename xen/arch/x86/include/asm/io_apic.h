/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's IO-APIC, as far as the hypervisor's own devices need it. */
#ifndef __ASM_X86_IO_APIC_H__
#define __ASM_X86_IO_APIC_H__

/*
 * Route ISA IRQ 'irq' (0-15) to 'vector' on this CPU, unmasked, through
 * the IO-APIC the ACPI MADT names (its interrupt source overrides
 * applied).  0, or -ENODEV when the host has no MADT or no IO-APIC pin
 * for the IRQ (the caller then polls).  Found and masked on first use.
 */
int io_apic_route_isa_irq(unsigned int irq, unsigned int vector);

/* Mask the pin again (the device falls back to polling). */
void io_apic_mask_isa_irq(unsigned int irq);

#endif /* __ASM_X86_IO_APIC_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Generic HVM code and the vendor seam.  Code outside hvm/vmx/ calls the
 * hooks in hvm_funcs, never VMX internals, so that another vendor's
 * implementation could sit beside VMX.
 */
#ifndef __ASM_X86_HVM_HVM_H__
#define __ASM_X86_HVM_HVM_H__

#include <xen/types.h>
#include <public/xen.h>
#include <asm/processor.h>
#include <asm/regs.h>

struct vcpu;
struct domain;
struct vcpu_hvm_context;
struct hvm_hw_cpu;

struct hvm_function_table {
    const char *name;
    /* Enter VMX (or SVM) operation on this CPU, a secondary one (the boot CPU: hvm_enable). */
    int  (*cpu_up)(void);
    /* Drop every guest translation this CPU caches (all EPT and VPID contexts). */
    void (*flush_guest_tlbs)(void);
    int  (*vcpu_initialise)(struct vcpu *v);
    void (*vcpu_destroy)(struct vcpu *v);
    /* Run v until it must be descheduled. */
    void (*do_resume)(struct vcpu *v);
    /* Push guest_cr0/guest_cr4/guest_efer of v into the hardware state. */
    void (*update_guest_cr)(struct vcpu *v, unsigned int cr);
    void (*update_guest_efer)(struct vcpu *v);
    void (*inject_exception)(unsigned int vector, int error_code);
    /* Load a full register state (VCPUOP_initialise, the boot vCPU). */
    int  (*set_context)(struct vcpu *v, const struct vcpu_hvm_context *ctx);
    /* Guest CPL and whether it runs 64-bit code (for hypercall ABI). */
    unsigned int (*get_cpl)(struct vcpu *v);
    bool (*long_mode_code)(struct vcpu *v);
    /* Segment bases and MSRs kept in the hardware state. */
    uint64_t (*get_msr)(struct vcpu *v, uint32_t msr, bool *ok);
    bool (*set_msr)(struct vcpu *v, uint32_t msr, uint64_t val);
    uint64_t (*get_guest_cr3)(struct vcpu *v);
    void (*dump_exit_counts)(const struct vcpu *v);
    /* v's exits by the vendor's reason numbers: *counts[0 .. return value). */
    unsigned int (*get_exit_counts)(const struct vcpu *v, const uint64_t **counts);
    /* The vCPU's state as an HVM save record (XEN_DOMCTL_*hvmcontext). */
    void (*save_cpu)(struct vcpu *v, struct hvm_hw_cpu *c);
    int  (*load_cpu)(struct vcpu *v, const struct hvm_hw_cpu *c);
    /* Page Modification Logging for log-dirty domains. */
    bool (*pml_supported)(void);
    int  (*enable_pml)(struct domain *d);
    void (*disable_pml)(struct domain *d);
    void (*flush_pml)(struct domain *d);
    /* The CPU redirects xAPIC MMIO to the virtual-APIC page (else: EPT faults). */
    bool (*apic_access_virt)(void);
    /* v's APIC changed mode (x2APIC on/off, disabled): adjust the controls. */
    void (*vlapic_mode_changed)(struct vcpu *v);
    /*
     * Xen's hvm_vcpu_reset_state(): v (not running) as a CPU after INIT
     * and start-up: real mode at cs:ip (CS base cs << 4), nothing pending.
     */
    void (*vcpu_reset_state)(struct vcpu *v, uint16_t cs, uint16_t ip);
    /* v leaves the CPU for another vCPU: take back what is lazily loaded. */
    void (*ctxt_switch_from)(struct vcpu *v);
};

extern const struct hvm_function_table *hvm_funcs;

int hvm_enable(void);
/* A secondary CPU: the vendor's cpu_up (0 if HVM is not in use). */
int hvm_cpu_up(void);
int hvm_domain_initialise(struct domain *d);
/* Remember the memory map a domain was built with (XENMEM_memory_map). */
struct hvm_memmap_table_entry;
void hvm_set_memory_map(struct domain *d, const struct hvm_memmap_table_entry *map,
                        unsigned int nr);
void hvm_domain_destroy(struct domain *d);
int hvm_vcpu_initialise(struct vcpu *v);
void hvm_vcpu_destroy(struct vcpu *v);
/* Switch the MSRs the hardware does not switch, when v is scheduled in. */
void hvm_context_switch(struct vcpu *prev, struct vcpu *next);

/* hvm/save.c: XEN_DOMCTL_gethvmcontext / sethvmcontext. */
int hvm_save_context(struct domain *d, XEN_GUEST_HANDLE(uint8) buf, uint32_t *size);
int hvm_load_context(struct domain *d, XEN_GUEST_HANDLE(uint8) buf, uint32_t size);

/* Handlers called from the vendor exit path (CPUID: asm/cpuid.h, MSRs: asm/msr.h). */
void hvm_hlt(struct vcpu *v, struct cpu_user_regs *regs);
/* HVM_HCALL_preempted: the vendor code must not step over the instruction. */
#define HVM_HCALL_completed  0
#define HVM_HCALL_preempted  1
int hvm_hypercall(struct vcpu *v, struct cpu_user_regs *regs);
/* 0 done, >0 exception injected, <0 cannot emulate. */
int hvm_set_cr0(struct vcpu *v, unsigned long value);
int hvm_set_cr4(struct vcpu *v, unsigned long value);
/* WRMSR to EFER: 0, or -EINVAL for a value the guest may not set (#GP). */
int hvm_set_efer(struct vcpu *v, uint64_t value);
/* hvm/intercept.c: a guest's IN/OUT; the domain's devices set up at creation. */
void hvm_portio(struct vcpu *v, unsigned int port, unsigned int bytes, bool in,
                unsigned long *val);
/*
 * OUTS: up to 'count' elements of 'bytes' from guest-linear 'linear' (of
 * the running vCPU) to 'port', descending if 'down'; at most
 * HVM_OUTS_MAX_BYTES a call.  The elements done, or -EFAULT if the source
 * could not be read (nothing written to the port then).
 */
#define HVM_OUTS_MAX_BYTES 512
long hvm_portio_outs(struct vcpu *v, unsigned int port, unsigned int bytes,
                     unsigned long linear, unsigned long count, bool down);
/*
 * hvm/irq.c: interrupt sources.  hvm_assert_evtchn_irq() is called when
 * evtchn_upcall_pending becomes set; the vendor code asks
 * hvm_vcpu_has_pending_irq() before each VM entry what to inject and
 * calls hvm_vcpu_ack_pending_irq() once it did.
 */
void hvm_assert_evtchn_irq(struct vcpu *v);

/* The interrupt to inject next (Xen's hvm_intack); an NMI goes first. */
enum hvm_intsrc { hvm_intsrc_none, hvm_intsrc_nmi, hvm_intsrc_lapic, hvm_intsrc_vector };
struct hvm_intack {
    enum hvm_intsrc source;
    uint8_t         vector;
};
struct hvm_intack hvm_vcpu_has_pending_irq(struct vcpu *v);
void hvm_vcpu_ack_pending_irq(struct vcpu *v, struct hvm_intack intack);

void hvm_portio_init(struct domain *d);
/* True if the EPT violation was expected and handled (log-dirty, ...). */
bool hvm_hap_nested_page_fault(struct vcpu *v, uint64_t gpa, unsigned long q);


#endif /* __ASM_X86_HVM_HVM_H__ */

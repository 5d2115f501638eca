/* SPDX-License-Identifier: MIT */
/*
 * x86 part of the public ABI: guest handles, frame and word types and the
 * structures whose layout depends on the architecture.  Only x86-64 is
 * supported (hypervisor, toolstack and guests are all 64-bit).
 */

#include "../xen.h"

#ifndef __LOCAL_PUBLIC_ARCH_X86_XEN_H__
#define __LOCAL_PUBLIC_ARCH_X86_XEN_H__

#if !defined(__x86_64__)
#error "public/arch-x86/xen.h: only x86-64 is supported"
#endif

/*
 * A guest handle wraps a guest virtual address in a one-member struct so
 * that it cannot be dereferenced by accident; copy_{to,from}_guest() do
 * the access.  On x86-64 a handle is 8 bytes, so the "_64" variant used in
 * domctl/sysctl/dm_op is the same type.
 */
#define ___DEFINE_XEN_GUEST_HANDLE(name, type)                                \
    typedef struct { type *p; } __guest_handle_##name
#define __DEFINE_XEN_GUEST_HANDLE(name, type)                                 \
    ___DEFINE_XEN_GUEST_HANDLE(name, type);                                   \
    ___DEFINE_XEN_GUEST_HANDLE(const_##name, const type)
#define DEFINE_XEN_GUEST_HANDLE(name)   __DEFINE_XEN_GUEST_HANDLE(name, name)
#define __XEN_GUEST_HANDLE(name)        __guest_handle_##name
#define XEN_GUEST_HANDLE(name)          __XEN_GUEST_HANDLE(name)
#define XEN_GUEST_HANDLE_PARAM(name)    XEN_GUEST_HANDLE(name)
#define set_xen_guest_handle_raw(hnd, val) do { (hnd).p = (val); } while (0)
#define set_xen_guest_handle(hnd, val)     set_xen_guest_handle_raw(hnd, val)

#include "xen-x86_64.h"

#ifndef __ASSEMBLY__
typedef unsigned long xen_pfn_t;
#define PRI_xen_pfn  "lx"
#define PRIu_xen_pfn "lu"

typedef unsigned long xen_ulong_t;
#define PRI_xen_ulong "lx"
#endif

/* x86 supports PV guests; their entry and upcall mask fields exist. */
#define XEN_HAVE_PV_GUEST_ENTRY 1
#define XEN_HAVE_PV_UPCALL_MASK 1

#define FIRST_RESERVED_GDT_PAGE  14
#define FIRST_RESERVED_GDT_BYTE  (FIRST_RESERVED_GDT_PAGE * 4096)
#define FIRST_RESERVED_GDT_ENTRY (FIRST_RESERVED_GDT_BYTE / 8)

/* vcpu_info slots embedded in shared_info; more need register_vcpu_info. */
#define XEN_LEGACY_MAX_VCPUS 32

/* Port 0xe9 debug console offered to HVM guests. */
#define XEN_HVM_DEBUGCONS_IOPORT 0xe9

/* "ud2; .ascii \"xen\"" before an instruction asks Xen to emulate it. */
#ifdef __ASSEMBLY__
#define XEN_EMULATE_PREFIX .byte 0x0f, 0x0b, 0x78, 0x65, 0x6e ;
#define XEN_CPUID          XEN_EMULATE_PREFIX cpuid
#else
#define XEN_EMULATE_PREFIX ".byte 0x0f,0x0b,0x78,0x65,0x6e ; "
#define XEN_CPUID          XEN_EMULATE_PREFIX "cpuid"
#endif

#ifndef __ASSEMBLY__

/* One virtual IDT entry of a PV guest (set_trap_table). */
struct trap_info {
    uint8_t vector;
    uint8_t flags;           /* bits 0-1: DPL, bit 2: clear event mask */
    uint16_t cs;
    unsigned long address;
};
typedef struct trap_info trap_info_t;
DEFINE_XEN_GUEST_HANDLE(trap_info_t);

#define TI_GET_DPL(_ti)       ((_ti)->flags & 3)
#define TI_GET_IF(_ti)        ((_ti)->flags & 4)
#define TI_SET_DPL(_ti, _dpl) ((_ti)->flags |= (_dpl))
#define TI_SET_IF(_ti, _if)   ((_ti)->flags |= ((!!(_if)) << 2))

typedef uint64_t tsc_timestamp_t;

/* PV vCPU state (VCPUOP_initialise for PV, get/setvcpucontext domctls). */
struct vcpu_guest_context {
    struct { char x[512]; } fpu_ctxt;   /* FXSAVE image, kept first */
#define VGCF_I387_VALID                (1 << 0)
#define VGCF_IN_KERNEL                 (1 << 2)
#define _VGCF_i387_valid               0
#define VGCF_i387_valid                (1 << _VGCF_i387_valid)
#define _VGCF_in_kernel                2
#define VGCF_in_kernel                 (1 << _VGCF_in_kernel)
#define _VGCF_failsafe_disables_events 3
#define VGCF_failsafe_disables_events  (1 << _VGCF_failsafe_disables_events)
#define _VGCF_syscall_disables_events  4
#define VGCF_syscall_disables_events   (1 << _VGCF_syscall_disables_events)
#define _VGCF_online                   5
#define VGCF_online                    (1 << _VGCF_online)
    unsigned long flags;
    struct cpu_user_regs user_regs;
    struct trap_info trap_ctxt[256];
    unsigned long ldt_base, ldt_ents;
    unsigned long gdt_frames[16], gdt_ents;
    unsigned long kernel_ss, kernel_sp;
    unsigned long ctrlreg[8];           /* user page table in ctrlreg[1] */
    unsigned long debugreg[8];
    unsigned long event_callback_eip;
    unsigned long failsafe_callback_eip;
    unsigned long syscall_callback_eip;
    unsigned long vm_assist;            /* VMASST_TYPE_* bits */
    uint64_t fs_base;
    uint64_t gs_base_kernel;
    uint64_t gs_base_user;
};
typedef struct vcpu_guest_context vcpu_guest_context_t;
DEFINE_XEN_GUEST_HANDLE(vcpu_guest_context_t);

/* Arch tail of shared_info (PV p2m bookkeeping, NMI reason). */
struct arch_shared_info {
    unsigned long max_pfn;
    xen_pfn_t pfn_to_mfn_frame_list_list;
    unsigned long nmi_reason;
    unsigned long p2m_cr3;
    unsigned long p2m_vaddr;
    unsigned long p2m_generation;
};
typedef struct arch_shared_info arch_shared_info_t;

#if defined(__XEN__) || defined(__XEN_TOOLS__)
/* x86 part of XEN_DOMCTL_createdomain: which devices Xen emulates. */
struct xen_arch_domainconfig {
#define _XEN_X86_EMU_LAPIC    0
#define XEN_X86_EMU_LAPIC     (1U << _XEN_X86_EMU_LAPIC)
#define _XEN_X86_EMU_HPET     1
#define XEN_X86_EMU_HPET      (1U << _XEN_X86_EMU_HPET)
#define _XEN_X86_EMU_PM       2
#define XEN_X86_EMU_PM        (1U << _XEN_X86_EMU_PM)
#define _XEN_X86_EMU_RTC      3
#define XEN_X86_EMU_RTC       (1U << _XEN_X86_EMU_RTC)
#define _XEN_X86_EMU_IOAPIC   4
#define XEN_X86_EMU_IOAPIC    (1U << _XEN_X86_EMU_IOAPIC)
#define _XEN_X86_EMU_PIC      5
#define XEN_X86_EMU_PIC       (1U << _XEN_X86_EMU_PIC)
#define _XEN_X86_EMU_VGA      6
#define XEN_X86_EMU_VGA       (1U << _XEN_X86_EMU_VGA)
#define _XEN_X86_EMU_IOMMU    7
#define XEN_X86_EMU_IOMMU     (1U << _XEN_X86_EMU_IOMMU)
#define _XEN_X86_EMU_PIT      8
#define XEN_X86_EMU_PIT       (1U << _XEN_X86_EMU_PIT)
#define _XEN_X86_EMU_USE_PIRQ 9
#define XEN_X86_EMU_USE_PIRQ  (1U << _XEN_X86_EMU_USE_PIRQ)
#define _XEN_X86_EMU_VPCI     10
#define XEN_X86_EMU_VPCI      (1U << _XEN_X86_EMU_VPCI)
#define XEN_X86_EMU_ALL                                                       \
    (XEN_X86_EMU_LAPIC | XEN_X86_EMU_HPET | XEN_X86_EMU_PM |                  \
     XEN_X86_EMU_RTC | XEN_X86_EMU_IOAPIC | XEN_X86_EMU_PIC |                 \
     XEN_X86_EMU_VGA | XEN_X86_EMU_IOMMU | XEN_X86_EMU_PIT |                  \
     XEN_X86_EMU_USE_PIRQ | XEN_X86_EMU_VPCI)
    uint32_t emulation_flags;
#define XEN_X86_MSR_RELAXED (1u << 0)
    uint32_t misc_flags;
};
#define XEN_X86_MISC_FLAGS_MAX XEN_X86_MSR_RELAXED
#endif /* __XEN__ || __XEN_TOOLS__ */

/* CPUID and MSR policy entries (domctl/sysctl policy calls). */
typedef struct xen_cpuid_leaf {
#define XEN_CPUID_NO_SUBLEAF 0xffffffffu
    uint32_t leaf, subleaf;
    uint32_t a, b, c, d;
} xen_cpuid_leaf_t;
DEFINE_XEN_GUEST_HANDLE(xen_cpuid_leaf_t);

typedef struct xen_msr_entry {
    uint32_t idx;
    uint32_t flags;          /* must be zero */
    uint64_t val;
} xen_msr_entry_t;
DEFINE_XEN_GUEST_HANDLE(xen_msr_entry_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_ARCH_X86_XEN_H__ */

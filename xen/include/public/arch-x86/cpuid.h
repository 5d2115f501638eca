/* SPDX-License-Identifier: MIT */
/*
 * Hypervisor CPUID leaves.  Xen's block starts at 0x40000000 (or a
 * multiple of 0x100 above it when another signature is shown first):
 *
 *   leaf 1 (base+0): EAX max leaf; EBX:ECX:EDX "XenVMMXenVMM"
 *   leaf 2 (base+1): EAX major << 16 | minor
 *   leaf 3 (base+2): EAX hypercall pages, EBX MSR to write their address
 *                    to, ECX feature bits (XEN_CPUID_FEAT1_*)
 *   leaf 4 (base+3): time / TSC information (sub-leaves 0-2)
 *   leaf 5 (base+4): HVM features: EAX XEN_HVM_CPUID_*, EBX vCPU id,
 *                    ECX domid (when the matching bits are set)
 *   leaf 6 (base+5): PV/HVM machine address width in EBX[7:0]
 */

#ifndef __LOCAL_PUBLIC_ARCH_X86_CPUID_H__
#define __LOCAL_PUBLIC_ARCH_X86_CPUID_H__

#define XEN_CPUID_FIRST_LEAF 0x40000000
#define XEN_CPUID_LEAF(i)    (XEN_CPUID_FIRST_LEAF + (i))

/* Little-endian "XenV", "MMXe", "nVMM". */
#define XEN_CPUID_SIGNATURE_EBX 0x566e6558
#define XEN_CPUID_SIGNATURE_ECX 0x65584d4d
#define XEN_CPUID_SIGNATURE_EDX 0x4d4d566e

/* Leaf 3 ECX. */
#define _XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD 0
#define XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD  (1u << 0)

/* Leaf 5 EAX. */
#define XEN_HVM_CPUID_APIC_ACCESS_VIRT (1u << 0)  /* APIC register virtualisation */
#define XEN_HVM_CPUID_X2APIC_VIRT      (1u << 1)  /* x2APIC virtualisation */
#define XEN_HVM_CPUID_IOMMU_MAPPINGS   (1u << 2)  /* grant/foreign maps in IOMMU */
#define XEN_HVM_CPUID_VCPU_ID_PRESENT  (1u << 3)  /* EBX holds the vCPU id */
#define XEN_HVM_CPUID_DOMID_PRESENT    (1u << 4)  /* ECX holds the domid */
#define XEN_HVM_CPUID_EXT_DEST_ID      (1u << 5)  /* 15-bit MSI destination ids */
#define XEN_HVM_CPUID_UPCALL_VECTOR    (1u << 6)  /* per-vCPU upcall vector */

/* Leaf 6 EBX. */
#define XEN_CPUID_MACHINE_ADDRESS_WIDTH_MASK (0xffu << 0)

#define XEN_CPUID_MAX_NUM_LEAVES 5

#endif /* __LOCAL_PUBLIC_ARCH_X86_CPUID_H__ */

/* SPDX-License-Identifier: MIT */
/*
 * x86-64 specifics of the guest ABI: register frame, per-vCPU arch data
 * and the hypervisor's reserved virtual range.  Included from
 * arch-x86/xen.h; including it directly pulls in the rest first.
 */

#include "../xen.h"

#ifndef __LOCAL_PUBLIC_ARCH_X86_XEN_X86_64_H__
#define __LOCAL_PUBLIC_ARCH_X86_XEN_X86_64_H__

/* Virtual range reserved for the hypervisor in 64-bit PV guests. */
#define __HYPERVISOR_VIRT_START 0xFFFF800000000000
#define __HYPERVISOR_VIRT_END   0xFFFF880000000000
#define __MACH2PHYS_VIRT_START  0xFFFF800000000000
#define __MACH2PHYS_VIRT_END    0xFFFF804000000000

#define HYPERVISOR_VIRT_START xen_mk_ulong(__HYPERVISOR_VIRT_START)
#define HYPERVISOR_VIRT_END   xen_mk_ulong(__HYPERVISOR_VIRT_END)

/* set_segment_base selectors. */
#define SEGBASE_FS          0
#define SEGBASE_GS_USER     1
#define SEGBASE_GS_KERNEL   2
#define SEGBASE_GS_USER_SEL 3

#define _VGCF_in_syscall 8
#define VGCF_in_syscall  (1 << _VGCF_in_syscall)
#define VGCF_IN_SYSCALL  VGCF_in_syscall

#ifndef __ASSEMBLY__

/*
 * Register aliases.  Every slot is 8 bytes; the unions only let code name
 * the narrower views (eax, ax, al ...) the way Xen's own code does.
 */
#define __XEN_REG_ABCD(w)                                                     \
    union {                                                                   \
        uint64_t r##w##x;                                                     \
        uint32_t e##w##x;                                                     \
        uint16_t w##x;                                                        \
        struct {                                                              \
            uint8_t w##l;                                                     \
            uint8_t w##h;                                                     \
        };                                                                    \
    }
#define __XEN_REG_PTR8(n)                                                     \
    union {                                                                   \
        uint64_t r##n;                                                        \
        uint32_t e##n;                                                        \
        uint16_t n;                                                           \
        uint8_t n##l;                                                         \
    }
#define __XEN_REG_PTR(n)                                                      \
    union {                                                                   \
        uint64_t r##n;                                                        \
        uint32_t e##n;                                                        \
        uint16_t n;                                                           \
    }
#define __XEN_REG_NUM(n)                                                      \
    union {                                                                   \
        uint64_t r##n;                                                        \
        uint32_t r##n##d;                                                     \
        uint16_t r##n##w;                                                     \
        uint8_t r##n##b;                                                      \
    }

/* Saved guest registers, in the order the entry code pushes them. */
struct cpu_user_regs {
    __XEN_REG_NUM(15);
    __XEN_REG_NUM(14);
    __XEN_REG_NUM(13);
    __XEN_REG_NUM(12);
    __XEN_REG_PTR8(bp);
    __XEN_REG_ABCD(b);
    __XEN_REG_NUM(11);
    __XEN_REG_NUM(10);
    __XEN_REG_NUM(9);
    __XEN_REG_NUM(8);
    __XEN_REG_ABCD(a);
    __XEN_REG_ABCD(c);
    __XEN_REG_ABCD(d);
    __XEN_REG_PTR8(si);
    __XEN_REG_PTR8(di);
    uint32_t error_code;     /* hypervisor-private */
    uint32_t entry_vector;   /* hypervisor-private */
    __XEN_REG_PTR(ip);
    uint16_t cs, _pad0[1];
    uint8_t saved_upcall_mask;
    uint8_t _pad1[3];
    __XEN_REG_PTR(flags);
    __XEN_REG_PTR8(sp);
    uint16_t ss, _pad2[3];
    uint16_t es, _pad3[3];
    uint16_t ds, _pad4[3];
    uint16_t fs, _pad5[3];
    uint16_t gs, _pad6[3];
};
typedef struct cpu_user_regs cpu_user_regs_t;
DEFINE_XEN_GUEST_HANDLE(cpu_user_regs_t);

#undef __XEN_REG_ABCD
#undef __XEN_REG_PTR8
#undef __XEN_REG_PTR
#undef __XEN_REG_NUM

#define xen_pfn_to_cr3(pfn) ((unsigned long)(pfn) << 12)
#define xen_cr3_to_pfn(cr3) ((unsigned long)(cr3) >> 12)

/* Arch part of struct vcpu_info; keeps vcpu_info at 64 bytes. */
struct arch_vcpu_info {
    unsigned long cr2;
    unsigned long pad;
};
typedef struct arch_vcpu_info arch_vcpu_info_t;

typedef unsigned long xen_callback_t;

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_ARCH_X86_XEN_X86_64_H__ */

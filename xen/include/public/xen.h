/* SPDX-License-Identifier: MIT */
/*
 * Core of the public ABI between the hypervisor, its guests and the
 * toolstack: hypercall numbers, domain ids, the shared_info page and the
 * handful of types every other public header builds on.
 *
 * Names, numbers and layouts follow Xen 4.17 (the version Debian 12 ships
 * as libxen-dev); tests/abi checks them against that copy.
 */

#ifndef __LOCAL_PUBLIC_XEN_H__
#define __LOCAL_PUBLIC_XEN_H__

#include "xen-compat.h"

#if defined(__x86_64__) || defined(__i386__)
#include "arch-x86/xen.h"
#else
#error "public/xen.h: unsupported architecture"
#endif

/* Typed integer constants that still work in assembly. */
#ifndef __ASSEMBLY__
#define __xen_mk_uint(x)   x##U
#define __xen_mk_ulong(x)  x##UL
#define __xen_mk_ullong(x) x##ULL
#else
#define __xen_mk_uint(x)   x
#define __xen_mk_ulong(x)  x
#define __xen_mk_ullong(x) x
#endif
#define xen_mk_uint(x)   __xen_mk_uint(x)
#define xen_mk_ulong(x)  __xen_mk_ulong(x)
#define xen_mk_ullong(x) __xen_mk_ullong(x)

#ifndef __ASSEMBLY__
/* Handles to plain C types. */
DEFINE_XEN_GUEST_HANDLE(char);
__DEFINE_XEN_GUEST_HANDLE(uchar, unsigned char);
DEFINE_XEN_GUEST_HANDLE(int);
__DEFINE_XEN_GUEST_HANDLE(uint, unsigned int);
DEFINE_XEN_GUEST_HANDLE(void);
DEFINE_XEN_GUEST_HANDLE(uint64_t);
DEFINE_XEN_GUEST_HANDLE(xen_pfn_t);
DEFINE_XEN_GUEST_HANDLE(xen_ulong_t);

/* Trailing variable-length array. */
#define XEN_FLEX_ARRAY_DIM
#endif

/*
 * Hypercall numbers.  On x86-64 the number goes in %rax and up to five
 * arguments in %rdi, %rsi, %rdx, %r10, %r8; the hypercall page holds one
 * 32-byte stub per number.
 */
#define __HYPERVISOR_set_trap_table                 0
#define __HYPERVISOR_mmu_update                     1
#define __HYPERVISOR_set_gdt                        2
#define __HYPERVISOR_stack_switch                   3
#define __HYPERVISOR_set_callbacks                  4
#define __HYPERVISOR_fpu_taskswitch                 5
#define __HYPERVISOR_sched_op_compat                6
#define __HYPERVISOR_platform_op                    7
#define __HYPERVISOR_set_debugreg                   8
#define __HYPERVISOR_get_debugreg                   9
#define __HYPERVISOR_update_descriptor             10
/* 11 is unused */
#define __HYPERVISOR_memory_op                     12
#define __HYPERVISOR_multicall                     13
#define __HYPERVISOR_update_va_mapping             14
#define __HYPERVISOR_set_timer_op                  15
#define __HYPERVISOR_event_channel_op_compat       16
#define __HYPERVISOR_xen_version                   17
#define __HYPERVISOR_console_io                    18
#define __HYPERVISOR_physdev_op_compat             19
#define __HYPERVISOR_grant_table_op                20
#define __HYPERVISOR_vm_assist                     21
#define __HYPERVISOR_update_va_mapping_otherdomain 22
#define __HYPERVISOR_iret                          23
#define __HYPERVISOR_vcpu_op                       24
#define __HYPERVISOR_set_segment_base              25
#define __HYPERVISOR_mmuext_op                     26
#define __HYPERVISOR_xsm_op                        27
#define __HYPERVISOR_nmi_op                        28
#define __HYPERVISOR_sched_op                      29
#define __HYPERVISOR_callback_op                   30
#define __HYPERVISOR_xenoprof_op                   31
#define __HYPERVISOR_event_channel_op              32
#define __HYPERVISOR_physdev_op                    33
#define __HYPERVISOR_hvm_op                        34
#define __HYPERVISOR_sysctl                        35
#define __HYPERVISOR_domctl                        36
#define __HYPERVISOR_kexec_op                      37
#define __HYPERVISOR_tmem_op                       38
#define __HYPERVISOR_argo_op                       39
#define __HYPERVISOR_xenpmu_op                     40
#define __HYPERVISOR_dm_op                         41
#define __HYPERVISOR_hypfs_op                      42

/* Eight numbers reserved for architecture-specific calls. */
#define __HYPERVISOR_arch_0 48
#define __HYPERVISOR_arch_1 49
#define __HYPERVISOR_arch_2 50
#define __HYPERVISOR_arch_3 51
#define __HYPERVISOR_arch_4 52
#define __HYPERVISOR_arch_5 53
#define __HYPERVISOR_arch_6 54
#define __HYPERVISOR_arch_7 55

/* Virtual interrupts, bound to event channels with EVTCHNOP_bind_virq. */
#define VIRQ_TIMER      0   /* per-vCPU: timer expired */
#define VIRQ_DEBUG      1   /* per-vCPU: dump debug state */
#define VIRQ_CONSOLE    2   /* global: console input for the control domain */
#define VIRQ_DOM_EXC    3   /* global: a domain shut down or crashed */
#define VIRQ_TBUF       4   /* global: trace records ready */
#define VIRQ_DEBUGGER   6   /* global: a domain paused for the debugger */
#define VIRQ_XENOPROF   7   /* per-vCPU: profiling sample */
#define VIRQ_CON_RING   8   /* global: hypervisor console ring has data */
#define VIRQ_PCPU_STATE 9   /* global: physical CPU state change */
#define VIRQ_MEM_EVENT  10  /* global: memory event */
#define VIRQ_ARGO       11  /* global: Argo message */
#define VIRQ_ENOMEM     12  /* global: hypervisor heap low */
#define VIRQ_XENPMU     13  /* per-vCPU: PMU interrupt */
#define VIRQ_ARCH_0     16
#define VIRQ_ARCH_1     17
#define VIRQ_ARCH_2     18
#define VIRQ_ARCH_3     19
#define VIRQ_ARCH_4     20
#define VIRQ_ARCH_5     21
#define VIRQ_ARCH_6     22
#define VIRQ_ARCH_7     23
#define NR_VIRQS        24

/* mmu_update request types (low two bits of mmu_update.ptr). */
#define MMU_NORMAL_PT_UPDATE       0
#define MMU_MACHPHYS_UPDATE        1
#define MMU_PT_UPDATE_PRESERVE_AD  2
#define MMU_PT_UPDATE_NO_TRANSLATE 3

/* mmuext_op commands. */
#define MMUEXT_PIN_L1_TABLE       0
#define MMUEXT_PIN_L2_TABLE       1
#define MMUEXT_PIN_L3_TABLE       2
#define MMUEXT_PIN_L4_TABLE       3
#define MMUEXT_UNPIN_TABLE        4
#define MMUEXT_NEW_BASEPTR        5
#define MMUEXT_TLB_FLUSH_LOCAL    6
#define MMUEXT_INVLPG_LOCAL       7
#define MMUEXT_TLB_FLUSH_MULTI    8
#define MMUEXT_INVLPG_MULTI       9
#define MMUEXT_TLB_FLUSH_ALL      10
#define MMUEXT_INVLPG_ALL         11
#define MMUEXT_FLUSH_CACHE        12
#define MMUEXT_SET_LDT            13
#define MMUEXT_NEW_USER_BASEPTR   15
#define MMUEXT_CLEAR_PAGE         16
#define MMUEXT_COPY_PAGE          17
#define MMUEXT_FLUSH_CACHE_GLOBAL 18
#define MMUEXT_MARK_SUPER         19
#define MMUEXT_UNMARK_SUPER       20

#ifndef __ASSEMBLY__
struct mmuext_op {
    unsigned int cmd;                   /* MMUEXT_* */
    union {
        xen_pfn_t mfn;
        unsigned long linear_addr;
    } arg1;
    union {
        unsigned int nr_ents;
        XEN_GUEST_HANDLE(const_void) vcpumask;
        xen_pfn_t src_mfn;
    } arg2;
};
typedef struct mmuext_op mmuext_op_t;
DEFINE_XEN_GUEST_HANDLE(mmuext_op_t);
#endif

/* update_va_mapping flags. */
#define UVMF_NONE           (xen_mk_ulong(0) << 0)
#define UVMF_TLB_FLUSH      (xen_mk_ulong(1) << 0)
#define UVMF_INVLPG         (xen_mk_ulong(2) << 0)
#define UVMF_FLUSHTYPE_MASK (xen_mk_ulong(3) << 0)
#define UVMF_MULTI          (xen_mk_ulong(0) << 2)
#define UVMF_LOCAL          (xen_mk_ulong(0) << 2)
#define UVMF_ALL            (xen_mk_ulong(1) << 2)

/* console_io sub-commands. */
#define CONSOLEIO_write 0
#define CONSOLEIO_read  1

/* vm_assist commands and types. */
#define VMASST_CMD_enable               0
#define VMASST_CMD_disable              1
#define VMASST_TYPE_4gb_segments        0
#define VMASST_TYPE_4gb_segments_notify 1
#define VMASST_TYPE_writable_pagetables 2
#define VMASST_TYPE_pae_extended_cr3    3
#define VMASST_TYPE_architectural_iopl  4
#define VMASST_TYPE_runstate_update_flag 5
#define VMASST_TYPE_m2p_strict          32

/*
 * Domain ids.  Real domains are below DOMID_FIRST_RESERVED; the values
 * from there up are pseudo-domains understood by particular hypercalls.
 */
#define DOMID_FIRST_RESERVED xen_mk_uint(0x7FF0)
#define DOMID_SELF           xen_mk_uint(0x7FF0) /* the calling domain */
#define DOMID_IO             xen_mk_uint(0x7FF1) /* owner of I/O memory */
#define DOMID_XEN            xen_mk_uint(0x7FF2) /* the hypervisor itself */
#define DOMID_COW            xen_mk_uint(0x7FF3) /* shared copy-on-write pages */
#define DOMID_INVALID        xen_mk_uint(0x7FF4) /* "no domain" */
#define DOMID_IDLE           xen_mk_uint(0x7FFF) /* idle vCPUs' domain */
#define DOMID_MASK           xen_mk_uint(0x7FFF)

#ifndef __ASSEMBLY__

typedef uint16_t domid_t;

/* One page-table or M2P write requested through mmu_update. */
struct mmu_update {
    uint64_t ptr;
    uint64_t val;
};
typedef struct mmu_update mmu_update_t;
DEFINE_XEN_GUEST_HANDLE(mmu_update_t);

/* One call of a multicall batch. */
struct multicall_entry {
    xen_ulong_t op, result;
    xen_ulong_t args[6];
};
typedef struct multicall_entry multicall_entry_t;
DEFINE_XEN_GUEST_HANDLE(multicall_entry_t);

/*
 * Per-vCPU system time.  Xen bumps 'version' to an odd value before an
 * update and to the next even value after it; a reader retries while the
 * value is odd or changed under it.  Time now, in ns:
 *   system_time + (((tsc - tsc_timestamp) << tsc_shift) * tsc_to_system_mul >> 32)
 * with a negative tsc_shift meaning a right shift.
 */
struct vcpu_time_info {
    uint32_t version;
    uint32_t pad0;
    uint64_t tsc_timestamp;
    uint64_t system_time;
    uint32_t tsc_to_system_mul;
    int8_t tsc_shift;
    uint8_t flags;                      /* XEN_PVCLOCK_* */
    uint8_t pad1[2];
};
typedef struct vcpu_time_info vcpu_time_info_t;

#define XEN_PVCLOCK_TSC_STABLE_BIT (1 << 0)
#define XEN_PVCLOCK_GUEST_STOPPED  (1 << 1)

/*
 * Per-vCPU event state.  Xen sets evtchn_upcall_pending (and a bit in
 * evtchn_pending_sel per word of shared_info.evtchn_pending) and then
 * interrupts the vCPU unless evtchn_upcall_mask is set.  64 bytes.
 */
struct vcpu_info {
    uint8_t evtchn_upcall_pending;
    uint8_t evtchn_upcall_mask;
    xen_ulong_t evtchn_pending_sel;
    struct arch_vcpu_info arch;
    vcpu_time_info_t time;
};
#ifndef __XEN__
typedef struct vcpu_info vcpu_info_t;
#endif

/*
 * The page shared between a domain and the hypervisor: the first
 * XEN_LEGACY_MAX_VCPUS vcpu_info slots, the 2-level event channel
 * pending/mask bitmaps and the wallclock base.
 */
struct shared_info {
    struct vcpu_info vcpu_info[XEN_LEGACY_MAX_VCPUS];

    xen_ulong_t evtchn_pending[sizeof(xen_ulong_t) * 8];
    xen_ulong_t evtchn_mask[sizeof(xen_ulong_t) * 8];

    /* Wallclock at system_time 0; same version protocol as above. */
    uint32_t wc_version;
    uint32_t wc_sec;
    uint32_t wc_nsec;
    uint32_t wc_sec_hi;
#define xen_wc_sec_hi wc_sec_hi

    struct arch_shared_info arch;
};
#ifndef __XEN__
typedef struct shared_info shared_info_t;
#endif

/* Start-of-day information for PV guests (HVM/PVH use hvm_start_info). */
struct start_info {
    char magic[32];                     /* "xen-<version>-<platform>" */
    unsigned long nr_pages;
    unsigned long shared_info;          /* machine address */
    uint32_t flags;                     /* SIF_* */
    xen_pfn_t store_mfn;
    uint32_t store_evtchn;
    union {
        struct {
            xen_pfn_t mfn;
            uint32_t evtchn;
        } domU;
        struct {
            uint32_t info_off;
            uint32_t info_size;
        } dom0;
    } console;
    unsigned long pt_base;
    unsigned long nr_pt_frames;
    unsigned long mfn_list;
    unsigned long mod_start;
    unsigned long mod_len;
#define MAX_GUEST_CMDLINE 1024
    int8_t cmd_line[MAX_GUEST_CMDLINE];
    unsigned long first_p2m_pfn;
    unsigned long nr_p2m_frames;
};
typedef struct start_info start_info_t;

#endif /* !__ASSEMBLY__ */

/* start_info.flags and hvm_start_info.flags. */
#define SIF_PRIVILEGED      (1 << 0)    /* domain may use privileged calls */
#define SIF_INITDOMAIN      (1 << 1)    /* the initial control domain */
#define SIF_MULTIBOOT_MOD   (1 << 2)    /* mod_start is a multiboot module list */
#define SIF_MOD_START_PFN   (1 << 3)    /* mod_start is a pfn */
#define SIF_VIRT_P2M_4TOOLS (1 << 4)    /* tools understand a linear p2m */
#define SIF_PM_MASK         (0xFF << 8) /* power-management options */

#ifndef __ASSEMBLY__

/* Entry of the module list when SIF_MULTIBOOT_MOD is set. */
struct xen_multiboot_mod_list {
    uint32_t mod_start;
    uint32_t mod_end;                   /* inclusive */
    uint32_t cmdline;
    uint32_t pad;
};

/* Boot console description handed to the initial domain. */
typedef struct dom0_vga_console_info {
    uint8_t video_type;
#define XEN_VGATYPE_TEXT_MODE_3 0x03
#define XEN_VGATYPE_VESA_LFB    0x23
#define XEN_VGATYPE_EFI_LFB     0x70
    union {
        struct {
            uint16_t font_height;
            uint16_t cursor_x, cursor_y;
            uint16_t rows, columns;
        } text_mode_3;
        struct {
            uint16_t width, height;
            uint16_t bytes_per_line;
            uint16_t bits_per_pixel;
            uint32_t lfb_base;
            uint32_t lfb_size;          /* in 64 KiB units */
            uint8_t red_pos, red_size;
            uint8_t green_pos, green_size;
            uint8_t blue_pos, blue_size;
            uint8_t rsvd_pos, rsvd_size;
            uint32_t gbl_caps;
            uint16_t mode_attrs;
            uint16_t pad;
            uint32_t ext_lfb_base;      /* lfb_base bits 63:32 */
        } vesa_lfb;
    } u;
} dom0_vga_console_info_t;
#define xen_vga_console_info   dom0_vga_console_info
#define xen_vga_console_info_t dom0_vga_console_info_t

typedef uint8_t xen_domain_handle_t[16];

__DEFINE_XEN_GUEST_HANDLE(uint8, uint8_t);
__DEFINE_XEN_GUEST_HANDLE(uint16, uint16_t);
__DEFINE_XEN_GUEST_HANDLE(uint32, uint32_t);
__DEFINE_XEN_GUEST_HANDLE(uint64, uint64_t);

typedef struct {
    uint8_t a[16];
} xen_uuid_t;

/* Build a xen_uuid_t from the usual 8-4-4-4-12 groups, big-endian. */
#define XEN_DEFINE_UUID_(a, b, c, d, e1, e2, e3, e4, e5, e6)                  \
    {{ ((a) >> 24) & 0xFF, ((a) >> 16) & 0xFF, ((a) >> 8) & 0xFF,            \
       (a) & 0xFF, ((b) >> 8) & 0xFF, (b) & 0xFF, ((c) >> 8) & 0xFF,         \
       (c) & 0xFF, ((d) >> 8) & 0xFF, (d) & 0xFF,                            \
       e1, e2, e3, e4, e5, e6 }}
#define XEN_DEFINE_UUID(a, b, c, d, e1, e2, e3, e4, e5, e6)                   \
    ((xen_uuid_t)XEN_DEFINE_UUID_(a, b, c, d, e1, e2, e3, e4, e5, e6))

#endif /* !__ASSEMBLY__ */

/*
 * 64-bit fields and handles in the domctl/sysctl/dm_op structures.  On
 * x86-64 plain uint64_t is already 8-aligned and a handle is already 8
 * bytes, so these are the plain types (as in Xen for x86-64).
 */
#ifndef int64_aligned_t
#define int64_aligned_t int64_t
#endif
#ifndef uint64_aligned_t
#define uint64_aligned_t uint64_t
#endif
#ifndef XEN_GUEST_HANDLE_64
#define XEN_GUEST_HANDLE_64(name) XEN_GUEST_HANDLE(name)
#endif

#ifndef __ASSEMBLY__
/* A bitmap of nr_bits bits in guest memory (cpumaps, nodemaps). */
struct xenctl_bitmap {
    XEN_GUEST_HANDLE_64(uint8) bitmap;
    uint32_t nr_bits;
};
typedef struct xenctl_bitmap xenctl_bitmap_t;
#endif

#endif /* __LOCAL_PUBLIC_XEN_H__ */

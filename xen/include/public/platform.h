/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_platform_op(op): hardware platform operations for the
 * control domain.  Xen's numbers and layouts; only the sub-operations
 * this hypervisor answers are declared (XENPF_firmware_info and
 * XENPF_get_dom0_console, the latter in ext/platform.h).  The EFI member
 * of firmware_info's union is only its size (that type is answered -ENOSYS).
 */

#ifndef __LOCAL_PUBLIC_PLATFORM_H__
#define __LOCAL_PUBLIC_PLATFORM_H__

#include "xen.h"

#define XENPF_INTERFACE_VERSION 0x03000001

/* Boot firmware information (EDD disks, EDID, EFI, keyboard flags). */
#define XENPF_firmware_info       50
#define XEN_FW_DISK_INFO          1 /* from int 13 AH=08/41/48 */
#define XEN_FW_DISK_MBR_SIGNATURE 2 /* from MBR offset 0x1b8 */
#define XEN_FW_VBEDDC_INFO        3 /* from int 10 AX=4f15 */
#define XEN_FW_EFI_INFO           4 /* from EFI */
#define XEN_FW_KBD_SHIFT_FLAGS    5 /* int 16, Fn02: Get keyboard shift flags */

#ifndef __ASSEMBLY__

struct xenpf_firmware_info {
    /* IN */
    uint32_t type;
    uint32_t index;
    /* OUT */
    union {
        struct {
            uint8_t device;
            uint8_t version;
            uint16_t interface_support;
            uint16_t legacy_max_cylinder;
            uint8_t legacy_max_head;
            uint8_t legacy_sectors_per_track;
            XEN_GUEST_HANDLE(void) edd_params;
        } disk_info;                    /* XEN_FW_DISK_INFO */
        struct {
            uint8_t device;
            uint32_t mbr_signature;
        } disk_mbr_signature;           /* XEN_FW_DISK_MBR_SIGNATURE */
        struct {
            uint8_t capabilities;
            uint8_t edid_transfer_time;
            XEN_GUEST_HANDLE(uint8) edid;
        } vbeddc_info;                  /* XEN_FW_VBEDDC_INFO */
        uint64_t efi_info[4];           /* XEN_FW_EFI_INFO: union xenpf_efi_info,
                                           not declared here */
        uint8_t kbd_shift_flags;        /* XEN_FW_KBD_SHIFT_FLAGS */
    } u;
};
typedef struct xenpf_firmware_info xenpf_firmware_info_t;

/* XENPF_get_dom0_console (Xen 4.18) is in ext/platform.h. */

struct xen_platform_op {
    uint32_t cmd;
    uint32_t interface_version;         /* XENPF_INTERFACE_VERSION */
    union {
        xenpf_firmware_info_t firmware_info;
        dom0_vga_console_info_t dom0_console;
        uint8_t pad[128];
    } u;
};
typedef struct xen_platform_op xen_platform_op_t;
DEFINE_XEN_GUEST_HANDLE(xen_platform_op_t);

#endif /* !__ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_PLATFORM_H__ */

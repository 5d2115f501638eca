// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform a PVH dom0 finds (docs/misc/platform.md), checked from a
 * control domain and from a domU (guest command line "domu"):
 *
 *   platform_op   XENPF_firmware_info / XENPF_get_dom0_console answered as
 *                 Xen does with nothing to report; -EPERM for a domU;
 *                 -EACCES for a wrong interface version; unknown -ENOSYS
 *   -ENOSYS       unknown hypercalls and memory_op sub-ops
 */
#include "test.h"
#include "fault.h"
#include "public/memory.h"
#include "public/platform.h"
#include "public/ext/platform.h"

const char test_title[] = "Platform: platform_op, memory map, ACPI, RTC";

static bool is_dom0;

static long platform_op(struct xen_platform_op *op)
{
    return hypercall6(__HYPERVISOR_platform_op, (unsigned long)op, 0, 0, 0, 0);
}

static long firmware_info(uint32_t type, uint32_t index, struct xen_platform_op *op)
{
    memset(op, 0xa5, sizeof(*op));
    op->cmd = XENPF_firmware_info;
    op->interface_version = XENPF_INTERFACE_VERSION;
    op->u.firmware_info.type = type;
    op->u.firmware_info.index = index;
    return platform_op(op);
}

static void test_platform_op(void)
{
    struct xen_platform_op op;

    printk("platform_op:\n");
    if ( !is_dom0 )
    {
        check_val("firmware_info from a domU: -EPERM",
                  firmware_info(XEN_FW_DISK_INFO, 0, &op), -XEN_EPERM);
        op.cmd = XENPF_get_dom0_console;
        check_val("get_dom0_console from a domU: -EPERM", platform_op(&op), -XEN_EPERM);
        return;
    }
    check_val("firmware_info DISK_INFO 0: -ESRCH (no EDD)",
              firmware_info(XEN_FW_DISK_INFO, 0, &op), -XEN_ESRCH);
    check_val("firmware_info DISK_MBR_SIGNATURE 0: -ESRCH",
              firmware_info(XEN_FW_DISK_MBR_SIGNATURE, 0, &op), -XEN_ESRCH);
    check_val("firmware_info VBEDDC_INFO 0: -ESRCH (no EDID)",
              firmware_info(XEN_FW_VBEDDC_INFO, 0, &op), -XEN_ESRCH);
    check_val("firmware_info VBEDDC_INFO 1: -EINVAL",
              firmware_info(XEN_FW_VBEDDC_INFO, 1, &op), -XEN_EINVAL);
    check_val("firmware_info EFI_INFO: -ENOSYS (no EFI)",
              firmware_info(XEN_FW_EFI_INFO, 0, &op), -XEN_ENOSYS);
    check_val("firmware_info KBD_SHIFT_FLAGS 0: 0",
              firmware_info(XEN_FW_KBD_SHIFT_FLAGS, 0, &op), 0);
    check_val("  kbd_shift_flags written back as 0", op.u.firmware_info.u.kbd_shift_flags, 0);
    check_val("firmware_info KBD_SHIFT_FLAGS 1: -EINVAL",
              firmware_info(XEN_FW_KBD_SHIFT_FLAGS, 1, &op), -XEN_EINVAL);
    check_val("firmware_info type 99: -EINVAL", firmware_info(99, 0, &op), -XEN_EINVAL);

    memset(&op, 0, sizeof(op));
    op.cmd = XENPF_get_dom0_console;
    op.interface_version = XENPF_INTERFACE_VERSION;
    check_val("get_dom0_console: -ENODEV (no VGA console)", platform_op(&op), -XEN_ENODEV);
    op.interface_version = 0x03000000;
    check_val("wrong interface version: -EACCES", platform_op(&op), -XEN_EACCES);
    op.interface_version = XENPF_INTERFACE_VERSION;
    op.cmd = 1;                                 /* XENPF_settime32 */
    check_val("XENPF_settime32: -ENOSYS", platform_op(&op), -XEN_ENOSYS);
    check_val("unmapped argument: -EFAULT",
              hypercall6(__HYPERVISOR_platform_op, 0x8000000000UL, 0, 0, 0, 0), -XEN_EFAULT);
}

static void test_enosys(void)
{
    printk("Unimplemented hypercalls and sub-ops:\n");
    check_val("hypercall 37 (kexec_op): -ENOSYS",
              hypercall6(__HYPERVISOR_kexec_op, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("hypercall 37 again: -ENOSYS (logged once)",
              hypercall6(__HYPERVISOR_kexec_op, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("memory_op XENMEM_exchange: -ENOSYS",
              hypercall6(__HYPERVISOR_memory_op, XENMEM_exchange, 0, 0, 0, 0), -XEN_ENOSYS);
    check_val("memory_op 99: -ENOSYS",
              hypercall6(__HYPERVISOR_memory_op, 99, 0, 0, 0, 0), -XEN_ENOSYS);
}

void test_main(void)
{
    is_dom0 = start_info && (start_info->flags & SIF_INITDOMAIN);
    printk("Running as %s\n", is_dom0 ? "the control domain" : "a domU");

    test_platform_op();
    test_enosys();

    printk("%u checks passed\n", checks_passed());
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("The platform is as Xen's\n");
}

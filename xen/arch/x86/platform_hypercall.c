/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platform_op (hypercall 7), Xen's arch/x86/platform_hypercall.c: hardware
 * platform operations, for the control domain only.  This hypervisor has
 * no boot firmware information to hand on (no EDD, no EDID, no EFI) and
 * no VGA console, so it gives Xen's answers for "nothing to report":
 *
 *   XENPF_firmware_info  disk info, MBR signature   -ESRCH (no EDD entries)
 *                        VBE DDC (EDID)             -ESRCH (index 0), -EINVAL
 *                        EFI info                   -ENOSYS (not booted by EFI)
 *                        keyboard shift flags       0 (index 0), -EINVAL
 *                        other types                -EINVAL
 *   XENPF_get_dom0_console                          -ENODEV (no VGA console)
 *   anything else                                   -ENOSYS, logged once
 *
 * Linux 6.1 as a PVH dom0 asks for both at boot and takes every one of
 * these answers in its stride.  A domU gets -EPERM, a wrong interface
 * version -EACCES, an unreadable argument -EFAULT, in Xen's order.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <public/platform.h>
#include <public/ext/platform.h>

static long firmware_info(struct xenpf_firmware_info *fw, bool *copy_back)
{
    switch ( fw->type )
    {
    case XEN_FW_DISK_INFO:
    case XEN_FW_DISK_MBR_SIGNATURE:
        return -ESRCH;              /* index >= the number of EDD entries (0) */
    case XEN_FW_VBEDDC_INFO:
        return fw->index ? -EINVAL : -ESRCH;   /* no EDID was found at boot */
    case XEN_FW_EFI_INFO:
        return -ENOSYS;             /* not booted through EFI */
    case XEN_FW_KBD_SHIFT_FLAGS:
        if ( fw->index )
            return -EINVAL;
        fw->u.kbd_shift_flags = 0;  /* the BIOS's flags: none recorded */
        *copy_back = true;
        return 0;
    default:
        return -EINVAL;
    }
}

long do_platform_op(XEN_GUEST_HANDLE_PARAM(xen_platform_op_t) u_xenpf_op)
{
    struct xen_platform_op op;
    bool copy_back = false;
    long ret;

    if ( copy_from_guest(&op, u_xenpf_op, 1) )
        return -EFAULT;
    if ( op.interface_version != XENPF_INTERFACE_VERSION )
        return -EACCES;
    if ( !is_control_domain(current->domain) )
        return -EPERM;

    switch ( op.cmd )
    {
    case XENPF_firmware_info:
        ret = firmware_info(&op.u.firmware_info, &copy_back);
        break;
    case XENPF_get_dom0_console:
        ret = -ENODEV;              /* Xen without a VGA/VESA console */
        break;
    default:
        return subop_enosys(__HYPERVISOR_platform_op, op.cmd, NULL);
    }

    if ( copy_back && copy_field_to_guest(u_xenpf_op, &op, u.firmware_info) )
        ret = -EFAULT;
    return ret;
}

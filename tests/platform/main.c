// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform a PVH dom0 finds (docs/misc/platform.md), checked from a
 * control domain and from a domU (guest command line "domu"):
 *
 *   platform_op   XENPF_firmware_info / XENPF_get_dom0_console answered as
 *                 Xen does with nothing to report; -EPERM for a domU;
 *                 -EACCES for a wrong interface version; unknown -ENOSYS
 *   -ENOSYS       unknown hypercalls and memory_op sub-ops
 *   RTC           ports 0x70/0x71: the date Bochs's time0 gives
 *                 (2000-01-01, a Saturday), in BCD and in binary, 24- and
 *                 12-hour; UIP never set; writes to the time ignored
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

static uint8_t cmos(unsigned int reg)
{
    outb(reg, 0x70);
    return inb(0x71);
}

static void cmos_write(unsigned int reg, uint8_t val)
{
    outb(reg, 0x70);
    outb(val, 0x71);
}

static bool bcd_ok(uint8_t v, unsigned int max)
{
    return (v & 0xf) <= 9 && (v >> 4) <= 9 && (unsigned int)((v >> 4) * 10 + (v & 0xf)) <= max;
}

static void test_rtc(void)
{
    unsigned int i, uip = 0;
    uint8_t sec, min, hour, b;

    printk("RTC (ports 0x70/0x71):\n");
    for ( i = 0; i < 1000; i++ )
        if ( cmos(0x0a) & 0x80 )
            uip++;
    check_val("status A: UIP clear in 1000 reads", uip, 0);
    check_val("status A: 32.768 kHz base, 1024 Hz rate", cmos(0x0a), 0x26);
    b = cmos(0x0b);
    check_val("status B: 24-hour, BCD", b, 0x02);
    check_val("status C: no interrupt flags", cmos(0x0c), 0);
    check_val("status D: valid RAM and time", cmos(0x0d), 0x80);
    check_val("index port reads 0xff", inb(0x70), 0xff);

    sec = cmos(0x00); min = cmos(0x02); hour = cmos(0x04);
    printk("       time %02x:%02x:%02x, date %02x%02x-%02x-%02x, weekday %x\n",
           hour, min, sec, cmos(0x32), cmos(0x09), cmos(0x08), cmos(0x07), cmos(0x06));
    check_true("seconds, minutes, hours are BCD in range",
               bcd_ok(sec, 59) && bcd_ok(min, 59) && bcd_ok(hour, 23));
    check_val("century (0x32, BCD)", cmos(0x32), 0x20);
    check_val("year (BCD)", cmos(0x09), 0x00);
    check_val("month (BCD)", cmos(0x08), 0x01);
    check_val("day (BCD)", cmos(0x07), 0x01);
    check_val("weekday: Saturday = 7", cmos(0x06), 7);

    cmos_write(0x0b, 0x06);                     /* binary, 24-hour */
    check_val("binary mode: status B kept", cmos(0x0b), 0x06);
    check_val("binary century", cmos(0x32), 20);
    check_val("binary month", cmos(0x08), 1);
    check_val("binary day", cmos(0x07), 1);
    check_true("binary hours < 24, minutes < 60",
               cmos(0x04) < 24 && cmos(0x02) < 60);
    cmos_write(0x0b, 0x04);                     /* binary, 12-hour */
    hour = cmos(0x04);
    check_true("12-hour mode: hours 1-12, PM in bit 7",
               (hour & 0x7f) >= 1 && (hour & 0x7f) <= 12);
    cmos_write(0x0b, 0x02);

    cmos_write(0x09, 0x55);                     /* writes to the time are ignored */
    check_val("year unchanged after a write", cmos(0x09), 0x00);
    cmos_write(0x0a, 0xa6);                     /* UIP is read-only */
    check_val("status A: UIP not writable", cmos(0x0a) & 0x80, 0);
    cmos_write(0x0a, 0x26);
    cmos_write(0x40, 0x5a);
    check_val("CMOS RAM 0x40 keeps what was written", cmos(0x40), 0x5a);
    check_val("CMOS RAM via index | 0x80 (NMI bit)", cmos(0xc0), 0x5a);
}

void test_main(void)
{
    is_dom0 = start_info && (start_info->flags & SIF_INITDOMAIN);
    printk("Running as %s\n", is_dom0 ? "the control domain" : "a domU");

    test_platform_op();
    test_enosys();
    test_rtc();

    printk("%u checks passed\n", checks_passed());
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("The platform is as Xen's\n");
}

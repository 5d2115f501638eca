/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercall errors: bad numbers, bad sub-commands and bad pointers get
 * Xen's error codes, and the guest survives every one of them.
 *
 *   unknown hypercall (page stub, raw VMCALL)      -ENOSYS
 *   console_io / sched_op / xen_version / vcpu_op
 *     with an unknown sub-command                  -ENOSYS
 *   console_io write from an unmapped address      -EFAULT
 *   console_io write from a mapped address that
 *     is not guest RAM                             -EFAULT
 *   sched_op shutdown with an unmapped argument    -EFAULT
 *   vcpu_op on a vCPU id the domain lacks          -ENOENT
 *   hvm_op pagetable_dying (Linux's boot probe)    -EINVAL (HAP, as Xen),
 *     with an unmapped argument -EFAULT, an unknown domain -ESRCH
 */

#include "test.h"
#include "events.h"

const char test_title[] = "Hypercall error paths";

/* Not mapped by the identity map, which covers [0, 4 GiB) only. */
#define UNMAPPED_VA  0x8000000000UL         /* 512 GiB: L4 slot 1 */
/* Mapped by the identity map; not guest RAM unless the domain is huge. */
#define NOT_RAM_VA   0xc0000000UL           /* 3 GiB */

/* An unused number: beyond Xen's arch range (48-55), below the page end. */
#define UNKNOWN_HYPERCALL 60
#define HUGE_HYPERCALL    1000
#define UNKNOWN_SUBOP     0x7fff

static void check(const char *what, long rc, long expected)
{
    if ( rc == expected )
        printk("  ok   %-44s %ld\n", what, rc);
    else
        xtf_failure("Fail: %s returned %ld, expected %ld\n",
                    what, rc, expected);
}

/* One past the end of guest RAM: from the memory map, else start info. */
static unsigned long ram_end(void)
{
    const struct hvm_memmap_table_entry *mm;
    unsigned long end = ((unsigned long)start_info_pa | (PAGE_SIZE - 1)) + 1;
    unsigned int i;

    if ( start_info && start_info->memmap_paddr )
    {
        mm = (const void *)(uintptr_t)start_info->memmap_paddr;
        for ( i = 0; i < start_info->memmap_entries; i++ )
            if ( mm[i].addr + mm[i].size > end )
                end = mm[i].addr + mm[i].size;
    }

    return end;
}

void test_main(void)
{
    static const char msg[] = "console_io write from a good buffer\n";
    unsigned int nr_vcpus;
    long rc;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    printk("Unknown hypercalls:\n");
    check("hypercall 60 via the page",
          hypercall6(UNKNOWN_HYPERCALL, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check("hypercall 60 via VMCALL",
          hypercall_vmcall(UNKNOWN_HYPERCALL, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check("hypercall 1000 via VMCALL",
          hypercall_vmcall(HUGE_HYPERCALL, 0, 0, 0, 0, 0), -XEN_ENOSYS);

    printk("console_io:\n");
    rc = hypercall_console_write(msg, sizeof(msg) - 1);
    if ( rc < 0 )
        xtf_failure("Fail: console_io write of a good buffer: %ld\n", rc);
    check("console_io write, count 0",
          hypercall_console_write(msg, 0), 0);
    check("console_io unknown cmd",
          hypercall_console_io(UNKNOWN_SUBOP, sizeof(msg) - 1, msg),
          -XEN_ENOSYS);
    check("console_io write, unmapped buffer",
          hypercall_console_io(CONSOLEIO_write, 16,
                               (const void *)UNMAPPED_VA),
          -XEN_EFAULT);
    if ( ram_end() <= NOT_RAM_VA )
        check("console_io write, buffer not in RAM",
              hypercall_console_io(CONSOLEIO_write, 16,
                                   (const void *)NOT_RAM_VA),
              -XEN_EFAULT);
    else
        printk("  (skipped the not-RAM buffer: RAM reaches %#lx)\n",
               ram_end());

    printk("sched_op:\n");
    check("sched_op unknown cmd",
          hypercall_sched_op(UNKNOWN_SUBOP, NULL), -XEN_ENOSYS);
    check("sched_op shutdown, unmapped argument",
          hypercall_sched_op(SCHEDOP_shutdown, (void *)UNMAPPED_VA),
          -XEN_EFAULT);
    check("sched_op yield", hypercall_yield(), 0);

    printk("xen_version:\n");
    check("xen_version unknown cmd",
          hypercall_xen_version(UNKNOWN_SUBOP, NULL), -XEN_ENOSYS);

    printk("vcpu_op:\n");
    check("vcpu_op is_up on vCPU 0", vcpu_is_up(0), 1);
    nr_vcpus = vcpu_count();
    printk("  domain has %u vCPU(s)\n", nr_vcpus);
    if ( nr_vcpus == 0 )
        xtf_failure("Fail: VCPUOP_is_up finds no vCPU\n");
    check("vcpu_op is_up, vCPU id = nr vCPUs",
          vcpu_is_up(nr_vcpus), -XEN_ENOENT);
    check("vcpu_op up, vCPU id = nr vCPUs",
          hypercall_vcpu_op(VCPUOP_up, nr_vcpus, NULL), -XEN_ENOENT);
    check("vcpu_op is_up, vCPU id 0x7fffffff",
          vcpu_is_up(0x7fffffff), -XEN_ENOENT);
    check("vcpu_op unknown cmd on vCPU 0",
          hypercall_vcpu_op(UNKNOWN_SUBOP, 0, NULL), -XEN_ENOSYS);

    printk("hvm_op:\n");
    {
        struct xen_hvm_pagetable_dying pd = { .domid = DOMID_SELF, .gpa = 0 };

        check("hvm_op pagetable_dying, DOMID_SELF (HAP)",
              hypercall_hvm_op(HVMOP_pagetable_dying, &pd), -XEN_EINVAL);
        check("hvm_op pagetable_dying, unmapped argument",
              hypercall_hvm_op(HVMOP_pagetable_dying, (void *)UNMAPPED_VA),
              -XEN_EFAULT);
        pd.domid = 0x7fef;
        check("hvm_op pagetable_dying, unknown domain",
              hypercall_hvm_op(HVMOP_pagetable_dying, &pd), -XEN_ESRCH);
    }

    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("Survived every bad hypercall\n");
}

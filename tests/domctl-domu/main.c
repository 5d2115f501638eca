/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libxenctrl from a domain that is not the control domain.
 *
 * Default mode: every control operation fails with -1 and errno EPERM --
 * domctl, sysctl, dm_op, the project's counters and remote shutdown -- and
 * the domain itself carries on.  Opening the interface works (any domain
 * may ask the version).
 *
 * "spin" on the command line: do nothing but spin, forever; the control
 * domain test (tests/dom0-domctl) pauses, unpauses and destroys this
 * domain, or shuts it down.
 *
 * The operations are tried on the control domain (or target=<domid>) and
 * on this domain itself.
 *
 * Guest command line: [spin] [target=<domid>] (default 0).
 */
#include "test.h"
#include "public/arch-x86/cpuid.h"

#include <errno.h>
#include <string.h>
#include <xenctrl.h>
#include <xendevicemodel.h>

const char test_title[] = "libxenctrl from an unprivileged domain";

static void expect_eperm(const char *what, long long rc)
{
    if ( rc == -1 && errno == EPERM )
        printk("  ok   %-40s -1, EPERM\n", what);
    else
        xtf_failure("Fail: %s: returned %lld errno %d, expected -1 EPERM\n",
                    what, rc, errno);
}

static noreturn void spin(void)
{
    volatile unsigned long n = 0;

    printk("Spinning until the control domain ends this domain\n");
    for ( ;; )
    {
        n++;
        cpu_relax();
    }
}

/* Our domid, from Xen's HVM CPUID leaf, or -1 if it is not given. */
static long self_domid(void)
{
    struct cpuid_leaf l;

    cpuid(xen_cpuid_base, &l);
    if ( l.a < xen_cpuid_base + 4 )
        return -1;
    cpuid(xen_cpuid_base + 4, &l);

    return (l.a & XEN_HVM_CPUID_DOMID_PRESENT) ? (long)l.c : -1;
}

static void try_all(xc_interface *xch, uint32_t target)
{
    xendevicemodel_handle *dmod = xc_interface_dmod_handle(xch);
    xc_domaininfo_t info[2];
    xc_dominfo_t di;
    xc_physinfo_t pi;
    xen_domctl_dirty_stats_t st;
    unsigned int nr = 64, nr_vcpus = 0;
    unsigned long bitmap[1];
    char ring[64];
    DECLARE_HYPERCALL_BUFFER(unsigned long, dirty);

    dirty = xc_hypercall_buffer_alloc_pages(xch, dirty, 1);
    if ( !dirty )
        return xtf_failure("Fail: hypercall buffer: errno %d\n", errno);

    printk("Control operations on d%u:\n", target);
    expect_eperm("xc_physinfo", xc_physinfo(xch, &pi));
    expect_eperm("xc_domain_getinfolist",
                 xc_domain_getinfolist(xch, 0, 2, info));
    expect_eperm("xc_domain_getinfo", xc_domain_getinfo(xch, target, 1, &di));
    expect_eperm("xc_readconsolering",
                 xc_readconsolering(xch, ring, &nr, 0, 0, NULL));
    expect_eperm("xc_domain_pause", xc_domain_pause(xch, target));
    expect_eperm("xc_domain_unpause", xc_domain_unpause(xch, target));
    expect_eperm("xc_domain_shutdown",
                 xc_domain_shutdown(xch, target, SHUTDOWN_poweroff));
    expect_eperm("xc_shadow_control(ENABLE_LOGDIRTY)",
                 xc_shadow_control(xch, target,
                                   XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY,
                                   NULL, 0));
    expect_eperm("xc_logdirty_control(CLEAN)",
                 xc_logdirty_control(xch, target, XEN_DOMCTL_SHADOW_OP_CLEAN,
                                     HYPERCALL_BUFFER(dirty), 64, 0, NULL));
    expect_eperm("xendevicemodel_track_dirty_vram",
                 xendevicemodel_track_dirty_vram(dmod, target, 0x100, 64,
                                                 bitmap));
    expect_eperm("xc_dirty_stats",
                 xc_dirty_stats(xch, target, &st, NULL, &nr_vcpus));
    nr = 0;
    expect_eperm("xc_dirty_stats_all (size query)",
                 xc_dirty_stats_all(xch, NULL, &nr, NULL, &nr_vcpus, NULL));
    expect_eperm("xc_domain_destroy", xc_domain_destroy(xch, target));

    xc_hypercall_buffer_free_pages(xch, dirty, 1);
}

void test_main(void)
{
    long self;
    xc_interface *xch;

    if ( cmdline_get_str("spin", NULL, 0) )
        spin();

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    xch = xc_interface_open(NULL, NULL, 0);
    if ( !xch )
        return xtf_failure("Fail: xc_interface_open: errno %d\n", errno);

    /* The control domain, and this domain itself. */
    try_all(xch, cmdline_ulong("target", 0));
    self = self_domid();
    if ( self > 0 )
        try_all(xch, self);
    else
        printk("(domid not in CPUID: operations on self not tried)\n");

    xc_interface_close(xch);

    printk("Still running after all of them\n");
}

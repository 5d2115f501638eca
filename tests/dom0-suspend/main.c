/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The control domain's side of the suspend protocol, through libxenctrl
 * and libxenguest (the direct backend), against tests/suspend-domu:
 *
 *   - each time the domU calls SCHEDOP_shutdown(SHUTDOWN_suspend): a
 *     VIRQ_DOM_EXC arrives; getdomaininfo reports XEN_DOMINF_shutdown with
 *     reason SHUTDOWN_suspend (xc_domain_getinfo: shutdown, shutdown_reason
 *     2); the domain stays (it is not reaped) and does not run (its CPU
 *     time stands still);
 *   - it is resumed in place: round 0 with xc_domain_resume(fast=1) (the
 *     domU's call returns 1 if it has PV drivers), round 1 with fast=0
 *     (returns 0); afterwards it is listed running, not shut down;
 *   - bad calls get Xen's answers: xc_domain_resume(fast=1) of a running
 *     domain -1 EINVAL ("not suspended", libxenguest's check);
 *     XEN_DOMCTL_resumedomain (fast=0) of a running domain 0 and it runs
 *     on; of the calling domain itself -1 EINVAL; of a domain that does
 *     not exist -1 ESRCH; of a domain that powered off -1 ESRCH (here it
 *     is reaped at once; Xen would still hold it);
 *   - at the end the domU powers off by itself.
 *
 * Guest command line: [domu=<id>] (default 1) [rounds=N] (default 2,
 * as the domU's).
 */
#include "test.h"
#include "xc-check.h"
#include "events.h"
#include <xenctrl.h>
#include <xenguest.h>
#include <errno.h>
#include <string.h>

const char test_title[] = "Suspend and resume in place (control domain)";

static xc_interface *xch;
static evtchn_port_t dom_exc;


/* The domain's getdomaininfo, false if it is not there. */
static bool get_info(uint32_t domid, xc_domaininfo_t *di)
{
    return xc_domain_getinfolist(xch, domid, 1, di) == 1 && di->domain == domid;
}

static unsigned int reason_of(const xc_domaininfo_t *di)
{
    return (di->flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
}

/* Yield until domid is shut down (true) or gone or never (false). */
static bool wait_shutdown(uint32_t domid, xc_domaininfo_t *di)
{
    unsigned int i;

    for ( i = 0; i < 100000; i++ )
    {
        if ( !get_info(domid, di) )
            return false;
        if ( di->flags & XEN_DOMINF_shutdown )
            return true;
        hypercall_yield();
    }
    return false;
}

static bool wait_gone(uint32_t domid)
{
    xc_domaininfo_t di;
    unsigned int i;

    for ( i = 0; i < 100000; i++ )
    {
        if ( !get_info(domid, &di) )
            return true;
        hypercall_yield();
    }
    return false;
}

static void one_round(uint32_t domu, unsigned int round)
{
    xc_domaininfo_t di, di2;
    xc_dominfo_t info;
    int fast = round == 0, i;

    printk("Round %u:\n", round);
    if ( !wait_shutdown(domu, &di) )
        return xtf_failure("Fail: d%u never shut down (or went away)\n", domu);
    if ( reason_of(&di) != SHUTDOWN_suspend )
        return xtf_failure("Fail: d%u shut down with reason %u, not suspend\n",
                           domu, reason_of(&di));
    pass("d%u shut down: flags %#x, reason %u (SHUTDOWN_suspend)\n", domu,
         di.flags, reason_of(&di));
    if ( evtchn_pending(dom_exc) )
        pass("VIRQ_DOM_EXC arrived\n");
    else
        xtf_failure("Fail: no VIRQ_DOM_EXC for d%u's suspend\n", domu);
    evtchn_clear(dom_exc);

    if ( xc_domain_getinfo(xch, domu, 1, &info) != 1 || info.domid != domu ||
         !info.shutdown || info.shutdown_reason != SHUTDOWN_suspend )
        xtf_failure("Fail: xc_domain_getinfo(d%u): shutdown %u reason %u\n",
                    domu, info.shutdown, info.shutdown_reason);
    else
        pass("xc_domain_getinfo: shutdown 1, shutdown_reason %u\n",
             info.shutdown_reason);

    for ( i = 0; i < 200; i++ )
        hypercall_yield();
    if ( !get_info(domu, &di2) )
        return xtf_failure("Fail: suspended d%u was reaped\n", domu);
    if ( di2.cpu_time != di.cpu_time || !(di2.flags & XEN_DOMINF_shutdown) )
        xtf_failure("Fail: suspended d%u ran: cpu_time %lu -> %lu, flags %#x\n",
                    domu, (unsigned long)di.cpu_time,
                    (unsigned long)di2.cpu_time, di2.flags);
    else
        pass("after 200 yields still there, still suspended, CPU time still %lu ns\n",
             (unsigned long)di2.cpu_time);

    if ( xc_domain_resume(xch, domu, fast) )
        return xtf_failure("Fail: xc_domain_resume(d%u, fast=%d): errno %d\n",
                           domu, fast, errno);
    if ( !get_info(domu, &di) || (di.flags & XEN_DOMINF_shutdown) )
        return xtf_failure("Fail: d%u after resume: flags %#x\n", domu, di.flags);
    pass("xc_domain_resume(d%u, fast=%d): 0, running (flags %#x)\n", domu, fast,
         di.flags);

    /* Bad calls on the running domain. */
    expect_errno("xc_domain_resume(running domain, fast=1)",
                 xc_domain_resume(xch, domu, 1), EINVAL);
    if ( xc_domain_resume(xch, domu, 0) )
        xtf_failure("Fail: resumedomain of running d%u: errno %d, expected 0\n",
                    domu, errno);
    else if ( !get_info(domu, &di) || (di.flags & XEN_DOMINF_shutdown) )
        xtf_failure("Fail: running d%u after resumedomain: flags %#x\n", domu, di.flags);
    else
        pass("resumedomain of a running domain: 0, it runs on\n");
}

void test_main(void)
{
    uint32_t domu = cmdline_ulong("domu", 1);
    unsigned int rounds = cmdline_ulong("rounds", 2), r;
    xc_domaininfo_t di;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( map_shared_info() || evtchn_bind_virq(VIRQ_DOM_EXC, 0, &dom_exc) )
        return xtf_failure("Fail: cannot bind VIRQ_DOM_EXC\n");
    xch = xc_interface_open(NULL, NULL, 0);
    if ( !xch )
        return xtf_failure("Fail: xc_interface_open: errno %d\n", errno);

    printk("Before any suspend:\n");
    expect_errno("xc_domain_resume(self: d0, fast=0)", xc_domain_resume(xch, 0, 0), EINVAL);
    expect_errno("xc_domain_resume(no such domain, fast=0)",
                 xc_domain_resume(xch, 77, 0), ESRCH);
    expect_errno("xc_domain_resume(self: d0, fast=1) (not suspended)",
                 xc_domain_resume(xch, 0, 1), EINVAL);

    for ( r = 0; r < rounds; r++ )
        one_round(domu, r);

    printk("The domU powers off:\n");
    if ( !wait_gone(domu) )
        return xtf_failure("Fail: d%u did not go away\n", domu);
    pass("d%u gone after its poweroff\n", domu);
    expect_errno("xc_domain_resume(powered-off domain, fast=0)",
                 xc_domain_resume(xch, domu, 0), ESRCH);
    if ( get_info(domu, &di) )
        xtf_failure("Fail: d%u is back\n", domu);
    xc_interface_close(xch);
}

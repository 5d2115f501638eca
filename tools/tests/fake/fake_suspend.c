/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's guests in the suspend protocol (see fake.h): a
 * domain with "suspend=<mode>" in the state file has PV drivers
 * (HVM_PARAM_CALLBACK_IRQ 1, as Linux sets it) and answers the toolstack's
 * xenstore request control/shutdown = "suspend" as Linux's
 * drivers/xen/manage.c does -- it clears the node (the acknowledgement)
 * and calls SCHEDOP_shutdown(SHUTDOWN_suspend) -- or misbehaves:
 *
 *   ack        acknowledges and suspends at once
 *   late       acknowledges at once, suspends 5 s later on the fake clock
 *              (a getdomaininfo after that sees it suspended)
 *   noack      never answers (the node stays "suspend")
 *   nosuspend  acknowledges but never suspends
 *   crash      acknowledges, then crashes (shut down, reason crash)
 *
 * Suspending is what the hypervisor does: shut down with reason suspend,
 * vCPU 0's rax (the hypercall's return value) 0.  XEN_DOMCTL_resumedomain
 * (fake_domctl.c) undoes it.  Each step is logged ("guest 7 acks suspend",
 * "guest 7 suspends", "resumedomain 7 rax=0x1").
 */
#include <inttypes.h>

#include "fake_private.h"
#include <xen/sched.h>

#define LATE_NS 5000000000ULL

static const char *const mode_names[] = {
    [FAKE_SUSPEND_NONE] = "none", [FAKE_SUSPEND_ACK] = "ack",
    [FAKE_SUSPEND_LATE] = "late", [FAKE_SUSPEND_NOACK] = "noack",
    [FAKE_SUSPEND_NOSUSPEND] = "nosuspend", [FAKE_SUSPEND_CRASH] = "crash",
};

int fake_suspend_mode(const char *name)
{
    for ( unsigned int i = 0; i < sizeof(mode_names) / sizeof(*mode_names); i++ )
        if ( !strcmp(name, mode_names[i]) )
            return (int)i;
    return -1;
}

const char *fake_suspend_mode_name(int mode)
{
    return mode >= 0 && mode < (int)(sizeof(mode_names) / sizeof(*mode_names))
           ? mode_names[mode] : "none";
}

static void shut_down(struct fake_dom *d, unsigned int reason)
{
    d->flags &= ~(XEN_DOMINF_running | XEN_DOMINF_blocked);
    d->flags |= XEN_DOMINF_shutdown;
    d->reason = reason;
    d->suspend_at = 0;
    if ( reason == SHUTDOWN_suspend )
        d->cpu[0].rax = 0;              /* SCHEDOP_shutdown's return value */
    fake_log("guest %u %s", d->id, reason == SHUTDOWN_suspend ? "suspends" : "crashes");
    fake_state_save();
}

bool fake_guest_control(const char *path, const char *value)
{
    unsigned int id;
    int end = 0;
    struct fake_dom *d;

    if ( sscanf(path, "/local/domain/%u/control/shutdown%n", &id, &end) != 1 ||
         path[end] || strcmp(value, "suspend") )
        return false;
    d = fake_touch(id);
    if ( !d || !d->suspend_mode || (d->flags & XEN_DOMINF_shutdown) ||
         d->suspend_mode == FAKE_SUSPEND_NOACK )
        return false;
    fake_log("guest %u acks suspend", id);
    switch ( d->suspend_mode )
    {
    case FAKE_SUSPEND_ACK:
        shut_down(d, SHUTDOWN_suspend);
        break;
    case FAKE_SUSPEND_LATE:
        d->suspend_at = fake.now_ns + LATE_NS;
        break;
    case FAKE_SUSPEND_CRASH:
        shut_down(d, SHUTDOWN_crash);
        break;
    default:
        break;
    }
    return true;
}

void fake_guest_suspend_tick(void)
{
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
    {
        struct fake_dom *d = &fake.dom[i];

        if ( d->exists && d->suspend_at && fake.now_ns >= d->suspend_at &&
             !(d->flags & XEN_DOMINF_shutdown) )
            shut_down(d, SHUTDOWN_suspend);
    }
}

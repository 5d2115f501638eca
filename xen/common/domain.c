/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Domain and vCPU lifetime: creation, shutdown, crash, destruction, and
 * the vcpu_op hypercall.
 *
 * A domain that shuts down or crashes stops running at once; the
 * scheduler destroys it (frees its memory and prints its vCPUs' exit
 * counters) the next time it runs.  When the last domain is gone the
 * machine powers off, so a test run ends by itself.
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/xmalloc.h>
#include <public/hvm/hvm_vcpu.h>
#include <public/sched.h>
#include <public/vcpu.h>
#include <asm/hvm/hvm.h>
#include <asm/shutdown.h>

struct domain *domain_list;

static struct vcpu *vcpu_create(struct domain *d, unsigned int id)
{
    struct vcpu *v = xzalloc(struct vcpu);

    if ( !v )
        return NULL;
    v->vcpu_id = id;
    v->domain = d;
    if ( hvm_vcpu_initialise(v) )
    {
        xfree(v);
        return NULL;
    }
    d->vcpu[id] = v;
    if ( id )
        d->vcpu[id - 1]->next_in_list = v;
    return v;
}

static void domain_free(struct domain *d)
{
    unsigned int i;

    if ( d->vcpu )
    {
        for ( i = 0; i < d->max_vcpus; i++ )
        {
            if ( !d->vcpu[i] )
                continue;
            hvm_vcpu_destroy(d->vcpu[i]);
            xfree(d->vcpu[i]);
        }
        xfree(d->vcpu);
    }
    hvm_domain_destroy(d);
    xfree(d);
}

struct domain *domain_create(domid_t domid, const char *name,
                             unsigned int max_vcpus, bool privileged)
{
    struct domain *d, **pp;
    unsigned int i;

    if ( get_domain_by_id(domid) || !max_vcpus )
        return NULL;
    d = xzalloc(struct domain);
    if ( !d )
        return NULL;
    d->domain_id = domid;
    strlcpy(d->name, name, sizeof(d->name));
    d->max_vcpus = max_vcpus;
    d->is_privileged = privileged;
    d->state = DOMSTATE_running;

    if ( hvm_domain_initialise(d) )
        goto fail;
    d->vcpu = xzalloc_array(struct vcpu *, max_vcpus);
    if ( !d->vcpu )
        goto fail;
    for ( i = 0; i < max_vcpus; i++ )
        if ( !vcpu_create(d, i) )
            goto fail;

    /* Keep the list sorted by domain id. */
    for ( pp = &domain_list; *pp && (*pp)->domain_id < domid; pp = &(*pp)->next_in_list )
        ;
    d->next_in_list = *pp;
    *pp = d;
    return d;

 fail:
    domain_free(d);
    return NULL;
}

struct domain *get_domain_by_id(domid_t domid)
{
    struct domain *d;

    for_each_domain ( d )
        if ( d->domain_id == domid )
            return d;
    return NULL;
}

static const char *shutdown_reason_str(unsigned int reason)
{
    switch ( reason )
    {
    case SHUTDOWN_poweroff: return "poweroff";
    case SHUTDOWN_reboot:   return "reboot";
    case SHUTDOWN_suspend:  return "suspend";
    case SHUTDOWN_crash:    return "crash";
    case SHUTDOWN_watchdog: return "watchdog";
    default:                return "unknown";
    }
}

void domain_shutdown(struct domain *d, unsigned int reason)
{
    if ( d->state != DOMSTATE_running )
        return;
    guest_console_flush(d);
    d->state = reason == SHUTDOWN_crash ? DOMSTATE_crashed : DOMSTATE_shutdown;
    d->shutdown_code = reason;
    printk(XENLOG_INFO "d%u: shutdown: %s\n", d->domain_id, shutdown_reason_str(reason));
    raise_resched();
}

void domain_crash(struct domain *d, const char *fmt, ...)
{
    char msg[256];
    va_list args;

    if ( d->state != DOMSTATE_running )
        return;
    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);

    guest_console_flush(d);
    printk(XENLOG_G_ERR "Domain %u crashed: %s\n", d->domain_id, msg);
    d->state = DOMSTATE_crashed;
    d->shutdown_code = SHUTDOWN_crash;
    raise_resched();
}

void domain_destroy(struct domain *d)
{
    struct domain **pp;
    struct vcpu *v;

    for ( pp = &domain_list; *pp; pp = &(*pp)->next_in_list )
        if ( *pp == d )
        {
            *pp = d->next_in_list;
            break;
        }

    guest_console_flush(d);
    for_each_vcpu ( d, v )
        hvm_funcs->dump_exit_counts(v);
    if ( current && current->domain == d )
        current = NULL;
    printk(XENLOG_INFO "d%u: destroyed (%lu pages freed)\n", d->domain_id, d->tot_pages);
    domain_free(d);

    if ( !domain_list )
    {
        printk("All domains have shut down: powering off\n");
        machine_power_off();
    }
}

/*
 * Take v down.  As in Xen, a domain whose last vCPU goes down (VCPUOP_down,
 * or HLT with interrupts disabled) is shut down: nothing could ever run it
 * again, and it must not keep the machine up.
 */
void vcpu_down(struct vcpu *v)
{
    struct domain *d = v->domain;
    struct vcpu *o;

    v->is_up = false;
    if ( v == current )
        raise_resched();
    for_each_vcpu ( d, o )
        if ( o->is_up )
            return;
    printk(XENLOG_G_INFO "d%u: all vCPUs offline -- powering off\n", d->domain_id);
    domain_shutdown(d, SHUTDOWN_poweroff);
}

void domain_pause(struct domain *d)
{
    d->pause_count++;
    raise_resched();
}

void domain_unpause(struct domain *d)
{
    if ( d->pause_count )
        d->pause_count--;
}

/* ---- vcpu_op -------------------------------------------------------------- */

long do_vcpu_op(int cmd, unsigned int vcpuid, unsigned long arg)
{
    struct domain *d = current->domain;
    struct vcpu *v;

    if ( vcpuid >= d->max_vcpus || !(v = d->vcpu[vcpuid]) )
        return -ENOENT;

    switch ( cmd )
    {
    case VCPUOP_initialise:
    {
        struct vcpu_hvm_context ctx;
        int rc;

        if ( v->is_initialised )
            return -EEXIST;
        if ( copy_from_guest(&ctx, arg, sizeof(ctx)) )
            return -EFAULT;
        rc = hvm_funcs->set_context(v, &ctx);
        if ( rc )
            return rc;
        v->is_initialised = true;
        return 0;
    }

    case VCPUOP_up:
        if ( !v->is_initialised )
            return -EINVAL;
        v->is_up = true;
        return 0;

    case VCPUOP_down:
        vcpu_down(v);
        return 0;

    case VCPUOP_is_up:
        return v->is_up;

    default:
        return -ENOSYS;
    }
}

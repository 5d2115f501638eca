/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local APIC timer of the emulated APIC (Xen's vlapic.c timer and
 * vpt.c, trimmed to the one timer): one-shot, periodic and TSC-deadline
 * modes on a hypervisor timer (common/timer.c).  The count runs at 1 GHz
 * before the divider, as in Xen.
 *
 * What a periodic timer costs the host is bounded by what its guest
 * takes (docs/misc/security.md, "Loops and timers"):
 *
 *  - an expiry latches the vector in IRR and does NOT re-arm the timer;
 *    the next period is armed only when the guest takes that tick (the
 *    vector goes from IRR to ISR at injection, vlapic_timer_irq_taken()),
 *    as Xen's vpt re-arms in pt_irq_fired();
 *  - missed ticks are dropped, Xen's "no_missed_ticks_pending" policy:
 *    the next tick is the first end of a period after the injection, on
 *    the grid the count started (TMCCT stays consistent), so a guest that
 *    keeps interrupts off, holds TPR high, never EOIs or is not running
 *    costs one expiry in all, not one per period;
 *  - the period is at least VLAPIC_MIN_PERIOD (Xen's 0.1 ms, logged once).
 *
 * This is also what hardware shows the guest: ticks that arrive while one
 * is still in IRR merge into it.  Xen's default, delay_for_missed_ticks,
 * would replay every missed tick and needs a per-vCPU guest time frozen
 * while it is descheduled; this hypervisor gives every vCPU the host's TSC
 * (docs/misc/dom0-abi.md), and Linux keeps time from its clocksource, not
 * from counting ticks, so nothing needs the replay.
 *
 * One-shot and TSC-deadline timers fire once per arming, which the guest
 * pays for with its own WRMSR or MMIO write (an exit).
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <asm/apic.h>
#include <asm/hvm/vlapic.h>
#include <asm/processor.h>

static uint32_t timer_mode(const struct vlapic *vlapic)
{
    return vlapic->lvtt & APIC_TIMER_MODE_MASK;
}

uint32_t vlapic_timer_divisor(uint32_t tdcr)
{
    uint32_t div = (tdcr & 3) | ((tdcr & 8) >> 1);

    return div == 7 ? 1 : 2u << div;
}

/* ns for one run of the count from TMICT to 0. */
static s_time_t count_period(const struct vlapic *vlapic)
{
    return (s_time_t)vlapic->timer_tmict * vlapic->timer_div * APIC_BUS_CYCLE_NS;
}

/* The first end of a period after 'now', on the grid the count started. */
static s_time_t next_tick(const struct vlapic *vlapic, s_time_t now)
{
    s_time_t elapsed = now - vlapic->timer_start;

    if ( elapsed < 0 )
        return vlapic->timer_start + vlapic->timer_period;
    return vlapic->timer_start + (elapsed / vlapic->timer_period + 1) * vlapic->timer_period;
}

/* A tick of ours still waits in IRR: the guest has not taken it. */
static bool tick_outstanding(const struct vlapic *vlapic)
{
    unsigned int vec = vlapic->timer_pending;

    if ( vlapic->timer_pending < 0 )
        return false;
    return (vlapic_get_reg(vlapic, APIC_IRR + (vec / 32) * 16) >> (vec % 32)) & 1;
}

/*
 * Arm the periodic timer for its next tick, if it runs, is unmasked and
 * has no tick outstanding.  Every re-arm follows a guest action: a tick
 * taken, an LVTT, TDCR or TMICT write.
 */
static void periodic_resume(struct vlapic *vlapic)
{
    if ( timer_mode(vlapic) != APIC_TIMER_PERIODIC || !vlapic->timer_period ||
         timer_is_active(&vlapic->timer) || (vlapic->lvtt & APIC_LVT_MASKED) ||
         tick_outstanding(vlapic) )
        return;
    vlapic->timer_pending = -1;
    set_timer(&vlapic->timer, next_tick(vlapic, NOW()));
}

static void vlapic_timer_fn(void *data)
{
    struct vcpu *v = data;
    struct vlapic *vlapic = vcpu_vlapic(v);
    uint32_t lvtt = vlapic->lvtt;
    unsigned int vec = lvtt & APIC_LVT_VECTOR;

    if ( timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        vlapic->tdt_msr = 0;
    if ( !v->is_running )
        vlapic->timer_fires_off++;
    /* Masked: nothing to deliver; a periodic timer waits for the unmask. */
    if ( lvtt & APIC_LVT_MASKED )
        return;
    vlapic->timer_irqs++;
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC )
        vlapic->timer_pending = vec;   /* re-armed when the guest takes it */
    vlapic_set_irq(v, vec);            /* vector < 16: an error, no re-arm */
}

void vlapic_timer_irq_taken(struct vlapic *vlapic, unsigned int vec)
{
    if ( vlapic->timer_pending != (int)vec )
        return;
    vlapic->timer_pending = -1;
    vlapic->timer_rearms++;
    periodic_resume(vlapic);
}

void vlapic_timer_stop(struct vlapic *vlapic)
{
    stop_timer(&vlapic->timer);
    vlapic->timer_period = 0;
    vlapic->timer_tmict = 0;
    vlapic->timer_pending = -1;
    vlapic->tdt_msr = 0;
}

void vlapic_timer_load(struct vlapic *vlapic, uint32_t tmict)
{
    struct vcpu *v = vlapic->vcpu;
    s_time_t period;

    vlapic_timer_stop(vlapic);
    if ( !tmict || timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        return;
    vlapic->timer_tmict = tmict;
    vlapic->timer_div = vlapic_timer_divisor(vlapic_get_reg(vlapic, APIC_TDCR));
    period = count_period(vlapic);
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC && period < VLAPIC_MIN_PERIOD )
    {
        if ( !vlapic->timer_warned )
        {
            vlapic->timer_warned = true;
            printk(XENLOG_G_WARNING "d%uv%u vLAPIC: periodic timer of %ld ns raised to %ld ns (logged once)\n",
                   v->domain->domain_id, v->vcpu_id, (long)period, (long)VLAPIC_MIN_PERIOD);
        }
        period = VLAPIC_MIN_PERIOD;
    }
    vlapic->timer_start = NOW();
    vlapic->timer_period = period;
    set_timer(&vlapic->timer, vlapic->timer_start + period);
}

uint32_t vlapic_timer_tmcct(const struct vlapic *vlapic)
{
    s_time_t counts, elapsed = NOW() - vlapic->timer_start;

    if ( !vlapic->timer_period || timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        return 0;
    counts = (elapsed < 0 ? 0 : elapsed) / ((s_time_t)vlapic->timer_div * APIC_BUS_CYCLE_NS);
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC )
        return vlapic->timer_tmict - counts % vlapic->timer_tmict;
    return counts >= vlapic->timer_tmict ? 0 : vlapic->timer_tmict - counts;
}

/*
 * LVTT written.  As Xen and KVM (and hardware): entering or leaving
 * TSC-deadline mode disarms the timer and clears TMICT and the deadline;
 * between one-shot and periodic the count goes on where it is.
 */
void vlapic_timer_lvtt_changed(struct vlapic *vlapic, uint32_t old)
{
    uint32_t mode = timer_mode(vlapic), old_mode = old & APIC_TIMER_MODE_MASK;
    s_time_t now = NOW(), period, elapsed;

    if ( (mode == APIC_TIMER_TSC_DEADLINE) != (old_mode == APIC_TIMER_TSC_DEADLINE) )
    {
        vlapic_timer_stop(vlapic);
        vlapic_set_reg(vlapic, APIC_TMICT, 0);
        return;
    }
    if ( mode != old_mode && vlapic->timer_period )
    {
        period = count_period(vlapic);
        elapsed = now - vlapic->timer_start;
        stop_timer(&vlapic->timer);
        vlapic->timer_pending = -1;
        if ( mode == APIC_TIMER_PERIODIC )
        {
            /* A one-shot count that already ran out stays at 0. */
            if ( elapsed >= period )
            {
                vlapic->timer_period = 0;
                return;
            }
            vlapic->timer_period = period < VLAPIC_MIN_PERIOD ? VLAPIC_MIN_PERIOD : period;
            set_timer(&vlapic->timer, vlapic->timer_start + vlapic->timer_period);
        }
        else
        {
            /* Periodic -> one-shot: the count runs out at its next 0. */
            vlapic->timer_start += (elapsed / period) * period;
            vlapic->timer_period = period;
            set_timer(&vlapic->timer, vlapic->timer_start + period);
        }
        return;
    }
    periodic_resume(vlapic);    /* unmasked, or a new vector */
}

/* TDCR written while counting: the counts done so far stay done (as Xen). */
void vlapic_timer_tdcr_changed(struct vlapic *vlapic, uint32_t old_div)
{
    uint32_t div = vlapic_timer_divisor(vlapic_get_reg(vlapic, APIC_TDCR));
    s_time_t now = NOW(), counts, period;

    if ( !vlapic->timer_period || div == old_div ||
         timer_mode(vlapic) == APIC_TIMER_TSC_DEADLINE )
        return;
    counts = (now - vlapic->timer_start) / ((s_time_t)old_div * APIC_BUS_CYCLE_NS);
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC )
        counts %= vlapic->timer_tmict;
    else if ( counts >= vlapic->timer_tmict )
        return;                         /* ran out: TMCCT stays 0 */
    stop_timer(&vlapic->timer);
    vlapic->timer_div = div;
    vlapic->timer_start = now - counts * div * APIC_BUS_CYCLE_NS;
    period = count_period(vlapic);
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC && period < VLAPIC_MIN_PERIOD )
        period = VLAPIC_MIN_PERIOD;
    vlapic->timer_period = period;
    if ( timer_mode(vlapic) == APIC_TIMER_PERIODIC )
    {
        if ( !tick_outstanding(vlapic) )
            set_timer(&vlapic->timer, next_tick(vlapic, now));
    }
    else
        set_timer(&vlapic->timer, vlapic->timer_start + period);
}

/*
 * IA32_TSC_DEADLINE (the guest's TSC is the host's): 0 disarms, a value
 * at or before now fires at once (and the MSR reads 0, as Xen), a later
 * one fires then.  One too far to represent in system time (2^63, 2^64-1:
 * centuries away) never fires; tsc_to_stime() saturates.  Ignored outside
 * TSC-deadline mode and with the APIC disabled, as in Xen.
 */
void vlapic_timer_set_deadline(struct vlapic *vlapic, uint64_t tsc)
{
    s_time_t when;

    if ( !vlapic_hw_enabled(vlapic) || timer_mode(vlapic) != APIC_TIMER_TSC_DEADLINE )
        return;
    stop_timer(&vlapic->timer);
    vlapic->tdt_msr = 0;
    if ( !tsc )
        return;
    if ( tsc <= rdtsc() )
    {
        set_timer(&vlapic->timer, NOW());
        return;
    }
    vlapic->tdt_msr = tsc;
    when = tsc_to_stime(tsc);
    if ( when != STIME_MAX )
        set_timer(&vlapic->timer, when);
}

void vlapic_timer_init(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    init_timer(&vlapic->timer, vlapic_timer_fn, v, 0);
    vlapic->timer_pending = -1;
    vlapic->timer_div = 2;
}

void vlapic_timer_destroy(struct vcpu *v)
{
    struct vlapic *vlapic = vcpu_vlapic(v);

    kill_timer(&vlapic->timer);
    if ( vlapic->timer_irqs )
        printk(XENLOG_INFO "d%uv%u vLAPIC: %lu timer interrupts, %lu periodic re-arms, "
               "%lu expiries while not running\n",
               v->domain->domain_id, v->vcpu_id, (unsigned long)vlapic->timer_irqs,
               (unsigned long)vlapic->timer_rearms, (unsigned long)vlapic->timer_fires_off);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TSC frequency (cpu_khz), which turns every time the hypervisor keeps
 * (time slices, guest CPU time, timeouts) into TSC ticks.
 *
 * 1. Calibrate against PIT channel 2 (gate through port 0x61) over 50 ms,
 *    the way PC operating systems do.  This is the frequency that the
 *    platform's timers agree with; under Bochs it is the configured `ips`.
 * 2. If CPUID leaf 0x15 gives the TSC frequency (crystal Hz x EBX / EAX)
 *    and it agrees with the calibration within 1%, take it: it is exact
 *    (Linux's and Xen's preference too).
 * 3. Otherwise take the calibration rounded to the nearest MHz.
 *
 * Why round: the calibration counts TSC ticks until the PIT's output goes
 * high, and that happens at a PIT clock edge, so the count depends on
 * where between two edges (838 ns apart) the countdown started.  Under
 * Bochs (clock sync=none) everything is deterministic, but that phase
 * depends on how many instructions ran before: a different module command
 * line shifts it, and 50 ms at ips=1600000000 measured anything from
 * 80,000,412 to 80,000,886 ticks (1600.008-1600.017 MHz) for one
 * hypervisor binary.  Every slice length followed it, so two runs of the
 * bench differed in their last digits.  The error is below 2 PIT ticks
 * (about 34 ppm, 0.06 MHz at 1.6 GHz), far inside half a MHz, so the
 * rounded value is the same in every boot whenever the true frequency is
 * a whole MHz (Bochs's ips always is in our runs).  Bochs's CPU models do
 * report leaf 0x15, but with the modelled part's nominal frequency
 * (tigerlake: 38.4 MHz x 126 / 2 = 2419.2 MHz), not the ips its timers
 * follow, which is why the leaf must agree with the PIT to be used.  On
 * hardware without the leaf, rounding costs at most 0.5 MHz (about 200
 * ppm at 2.5 GHz).
 *
 * System time (Xen's NOW(): ns since boot) is scaled from the TSC: the
 * TSC is the only clock (one physical CPU, guests read the same TSC, no
 * offsetting), so the scale given to guests in vcpu_time_info is the one
 * the hypervisor uses itself.  The wallclock: the host's CMOS clock is
 * read once at boot (Xen's get_cmos_time), then advanced with system
 * time.  Under Bochs the CMOS clock starts at the bochsrc's clock time0.
 */
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>
#include <asm/cpufeature.h>
#include <asm/io.h>
#include <asm/msr-index.h>
#include <asm/mc146818rtc.h>
#include <asm/processor.h>
#include <asm/time.h>

#define PIT_CH2             0x42
#define PIT_MODE            0x43
#define PIT_GATE_PORT       0x61
#define PIT_GATE_CH2        0x01
#define PIT_SPEAKER         0x02
#define PIT_OUT2            0x20
#define PIT_HZ              1193182UL
#define CALIBRATE_MS        50

unsigned long cpu_khz;

/* TSC ticks in CALIBRATE_MS of PIT time. */
static uint64_t pit_calibrate(void)
{
    unsigned long count = PIT_HZ * CALIBRATE_MS / 1000;
    uint64_t t0, t1;
    uint8_t gate = inb(PIT_GATE_PORT);

    /* Channel 2 gate on, speaker off; mode 0, lobyte/hibyte, binary. */
    outb((gate & ~PIT_SPEAKER) | PIT_GATE_CH2, PIT_GATE_PORT);
    outb(0xb0, PIT_MODE);
    outb(count & 0xff, PIT_CH2);
    outb(count >> 8, PIT_CH2);

    t0 = rdtsc();
    while ( !(inb(PIT_GATE_PORT) & PIT_OUT2) )
        ;
    t1 = rdtsc();
    outb(gate, PIT_GATE_PORT);
    return t1 - t0;
}

/* The TSC frequency from CPUID leaf 0x15, in kHz; 0 if not reported. */
static unsigned long cpuid_tsc_khz(void)
{
    struct cpuid_leaf l;

    cpuid_count(0, 0, &l);
    if ( l.a < 0x15 )
        return 0;
    cpuid_count(0x15, 0, &l);
    if ( !l.a || !l.b || !l.c )
        return 0;
    return (unsigned long)((uint64_t)l.c * l.b / l.a / 1000);
}

/*
 * The frequency to use, in kHz, from the PIT calibration and CPUID 0x15's
 * (0: not reported): the leaf if the two agree within 1% either way, else
 * the calibration rounded to the nearest MHz.
 */
static unsigned long tsc_choose_khz(unsigned long pit_khz, unsigned long leaf_khz)
{
    unsigned long khz;

    if ( leaf_khz && leaf_khz <= pit_khz + pit_khz / 100 &&
         pit_khz <= leaf_khz + leaf_khz / 100 )
        return leaf_khz;
    khz = (pit_khz + 500) / 1000 * 1000;
    return khz ?: 1000;
}

/*
 * A TSC that was moved before we started (IA32_TSC_ADJUST not 0: firmware,
 * or under Bochs a hardware reset, after which the TSC restarts at 0) is
 * set back, as Linux does on its boot CPU.  Under Bochs it must be: its
 * TSC-deadline timer compares a deadline with its own tick count, not with
 * the TSC, so after a reboot every deadline looked past and the timer
 * interrupt never stopped (1.9 million of them before Linux dom0 got
 * through its second boot's first second).
 */
static void tsc_adjust_reset(void)
{
    struct cpuid_leaf l;
    int64_t adjust;

    cpuid_count(0, 0, &l);
    if ( l.a < 7 )
        return;
    cpuid_count(7, 0, &l);
    if ( !(l.b & CPUID7B_TSC_ADJUST) )
        return;
    adjust = rdmsr(MSR_IA32_TSC_ADJUST);
    if ( !adjust )
        return;
    wrmsr(MSR_IA32_TSC_ADJUST, 0);
    printk(XENLOG_INFO "TSC: IA32_TSC_ADJUST was %ld, set to 0\n", (long)adjust);
}

void calibrate_tsc(void)
{
    unsigned long pit_khz;

    tsc_adjust_reset();
    pit_khz = pit_calibrate() / CALIBRATE_MS;
    unsigned long leaf_khz = cpuid_tsc_khz();

    cpu_khz = tsc_choose_khz(pit_khz, leaf_khz);
    if ( leaf_khz && cpu_khz == leaf_khz )
        printk(XENLOG_INFO "TSC: %lu kHz from CPUID 0x15 (PIT calibration: %lu kHz)\n",
               leaf_khz, pit_khz);
    else if ( leaf_khz )
        printk(XENLOG_INFO "TSC: PIT calibration %lu kHz, rounded to %lu kHz "
               "(CPUID 0x15's %lu kHz disagrees: not used)\n",
               pit_khz, cpu_khz, leaf_khz);
    else
        printk(XENLOG_INFO "TSC: PIT calibration %lu kHz, rounded to %lu kHz\n",
               pit_khz, cpu_khz);
    printk(XENLOG_INFO "Detected %lu.%03lu MHz processor.\n",
           cpu_khz / 1000, cpu_khz % 1000);
}

/* ---- system time ---------------------------------------------------------- */

static struct time_scale tsc_scale;     /* TSC ticks -> ns */
static uint64_t boot_tsc;               /* TSC at system time 0 */

/*
 * The scale for a clock of ticks_per_sec: shift the tick count until the
 * rate lies in (1e9, 2e9] per second, then the multiplier 1e9/rate is a
 * 32-bit binary fraction below 1.
 */
static void set_time_scale(struct time_scale *ts, uint64_t ticks_per_sec)
{
    uint64_t rate = ticks_per_sec;
    int shift = 0;

    while ( rate > 2 * 1000000000ULL )
    {
        rate >>= 1;
        shift--;
    }
    while ( rate <= 1000000000ULL )
    {
        rate <<= 1;
        shift++;
    }
    ts->shift = shift;
    ts->mul_frac = (uint32_t)((1000000000ULL << 32) / rate);
}

static uint64_t scale_delta(uint64_t delta, const struct time_scale *ts)
{
    if ( ts->shift < 0 )
        delta >>= -ts->shift;
    else
        delta <<= ts->shift;
    return (uint64_t)(((unsigned __int128)delta * ts->mul_frac) >> 32);
}

/* ---- the CMOS real-time clock: the wallclock at boot ----------------------- */

#define RTC_PM              0x80    /* in the hours register, 12-hour mode */

static uint8_t cmos_read(uint8_t reg)
{
    outb(reg, RTC_PORT(0));
    return inb(RTC_PORT(1));
}

static unsigned int cmos_value(uint8_t v, bool binary)
{
    return binary ? v : (v & 0xf) + (v >> 4) * 10;
}

static uint64_t wallclock_at_boot;     /* seconds since the epoch at NOW() == 0 */

static uint64_t get_cmos_time(void)
{
    unsigned int i, sec, min, hour, day, mon, year, century;
    uint8_t b, h;
    bool bin;

    /* Wait (boundedly) for an update to finish; it lasts under 2 ms. */
    for ( i = 0; i < 1000000 && (cmos_read(RTC_REG_A) & RTC_UIP); i++ )
        cpu_relax();
    b = cmos_read(RTC_REG_B);
    bin = b & RTC_DM_BINARY;
    sec = cmos_value(cmos_read(RTC_SECONDS), bin);
    min = cmos_value(cmos_read(RTC_MINUTES), bin);
    h = cmos_read(RTC_HOURS);
    hour = cmos_value(h & ~RTC_PM, bin);
    if ( !(b & RTC_24H) && (h & RTC_PM) )
        hour = (hour % 12) + 12;
    else if ( !(b & RTC_24H) )
        hour %= 12;
    day = cmos_value(cmos_read(RTC_DAY_OF_MONTH), bin);
    mon = cmos_value(cmos_read(RTC_MONTH), bin);
    year = cmos_value(cmos_read(RTC_YEAR), bin);
    century = cmos_value(cmos_read(RTC_CENTURY), bin);
    year += (century >= 19 && century <= 30) ? century * 100 : (year < 70 ? 2000 : 1900);
    if ( sec > 59 || min > 59 || hour > 23 || !day || day > 31 || !mon || mon > 12 )
        return 0;
    return mktime(year, mon, day, hour, min, sec);
}

void init_system_time(void)
{
    struct tm tm;

    set_time_scale(&tsc_scale, (uint64_t)cpu_khz * 1000);
    boot_tsc = rdtsc();
    wallclock_at_boot = get_cmos_time();
    tm = gmtime(wallclock_at_boot);
    printk(XENLOG_INFO "Time: TSC scale mul %#x shift %d\n",
           tsc_scale.mul_frac, tsc_scale.shift);
    printk(XENLOG_INFO "Wallclock: %04d-%02d-%02d %02d:%02d:%02d UTC (CMOS)\n",
           tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
           tm.tm_sec);
}

/* ---- guest time records -------------------------------------------------------- */

/* Xen's version protocol: odd while the record is being written. */
static void version_update_begin(volatile uint32_t *version)
{
    *version = (*version + 1) | 1;
    barrier();
}

static void version_update_end(volatile uint32_t *version)
{
    barrier();
    *version = *version + 1;
}

void update_vcpu_system_time(struct vcpu *v)
{
    volatile struct vcpu_time_info *t = &v->vcpu_info->time;
    uint64_t tsc = rdtsc();

    version_update_begin(&t->version);
    t->tsc_timestamp = tsc;
    t->system_time = tsc_to_stime(tsc);
    t->tsc_to_system_mul = tsc_scale.mul_frac;
    t->tsc_shift = tsc_scale.shift;
    /* One CPU, one TSC, no offsetting: guests' TSC reads agree with this. */
    t->flags = XEN_PVCLOCK_TSC_STABLE_BIT;
    version_update_end(&t->version);
    v->time_info_guest_stale = true;
}

/*
 * The guest area is a guest handle (a guest-virtual address): it is
 * written in the vCPU's own context, before it is entered.  Nothing else
 * runs meanwhile (one CPU), so one copy of the even-versioned record is
 * consistent.  Errors are ignored, as in Xen.
 */
void update_guest_time_area(struct vcpu *v)
{
    struct vcpu_time_info t;

    if ( !v->time_info_guest_stale )
        return;
    v->time_info_guest_stale = false;
    if ( guest_handle_is_null(v->time_info_guest) )
        return;
    t = v->vcpu_info->time;
    copy_to_guest(v->time_info_guest, &t, 1);
}

void update_domain_wallclock_time(struct domain *d)
{
    volatile struct shared_info *s = d->shared_info;

    version_update_begin(&s->wc_version);
    s->wc_sec = (uint32_t)wallclock_at_boot;
    s->wc_sec_hi = (uint32_t)((uint64_t)wallclock_at_boot >> 32);
    s->wc_nsec = 0;
    version_update_end(&s->wc_version);
}

/*
 * Saturating: a TSC value too far ahead for system time (a guest's TSC
 * deadline of 2^63 or 2^64-1, centuries away) is STIME_MAX, "never",
 * where the shift and the product in scale_delta() would wrap to a time
 * already past.
 */
s_time_t tsc_to_stime(uint64_t tsc)
{
    uint64_t delta, ns;

    if ( tsc <= boot_tsc )
        return 0;
    delta = tsc - boot_tsc;
    if ( tsc_scale.shift > 0 && (delta >> (64 - tsc_scale.shift)) )
        return STIME_MAX;
    /* The shift did not wrap; (x * mul_frac) >> 32 with mul_frac < 2^32 fits. */
    ns = scale_delta(delta, &tsc_scale);
    return ns >= (uint64_t)STIME_MAX ? STIME_MAX : (s_time_t)ns;
}

s_time_t get_s_time(void)
{
    return tsc_to_stime(rdtsc());
}

uint64_t stime_to_tsc(s_time_t t)
{
    uint64_t ns, ticks;

    if ( t <= 0 )
        return boot_tsc;
    ns = t;
    if ( ns > (1ULL << 60) )
        return ~0ULL;                   /* centuries away: never */
    /* ticks = ns * khz / 1e6, without a 128-bit division. */
    ticks = (ns / 1000000) * cpu_khz + (ns % 1000000) * cpu_khz / 1000000;
    return boot_tsc + ticks;
}

/* Seconds since the epoch now: the CMOS clock at boot plus system time. */
uint64_t get_wallclock_seconds(void)
{
    return wallclock_at_boot + NOW() / 1000000000LL;
}

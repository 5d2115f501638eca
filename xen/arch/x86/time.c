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
 */
#include <xen/lib.h>
#include <asm/io.h>
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

void calibrate_tsc(void)
{
    unsigned long pit_khz = pit_calibrate() / CALIBRATE_MS;
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

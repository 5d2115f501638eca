/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC calibration against PIT channel 2 (gate through port 0x61), the
 * way PC operating systems do it.  Under Bochs with clock sync=none the
 * TSC advances one tick per instruction and the PIT follows the
 * configured ips, so the result is exact and repeatable.
 *
 * The wallclock: the host's CMOS clock is read once at boot (Xen's
 * get_cmos_time), then advanced with the TSC.  Under Bochs the CMOS clock
 * starts at the bochsrc's clock time0.
 */
#include <xen/lib.h>
#include <xen/time.h>
#include <asm/io.h>
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

void calibrate_tsc(void)
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

    cpu_khz = (t1 - t0) / CALIBRATE_MS;
    if ( !cpu_khz )
        cpu_khz = 1000;
    printk(XENLOG_INFO "Detected %lu.%03lu MHz processor.\n",
           cpu_khz / 1000, cpu_khz % 1000);
}

static uint64_t boot_wallclock;     /* seconds since the epoch at boot_tsc */
static uint64_t boot_tsc;

static unsigned int bcd2bin(unsigned int v)
{
    return (v & 0xf) + (v >> 4) * 10;
}

static uint8_t cmos_read(unsigned int reg)
{
    outb(reg, RTC_PORT(0));
    return inb(RTC_PORT(1));
}

void init_wallclock(void)
{
    unsigned int sec, min, hour, day, mon, year, cent, b, tries;
    struct tm tm;

    /* Wait for an update to finish (at most ~2 ms on real hardware). */
    for ( tries = 0; tries < 1000000 && (cmos_read(RTC_REG_A) & RTC_UIP); tries++ )
        cpu_relax();
    /* Read twice until two reads agree: the clock may tick in between. */
    do {
        sec = cmos_read(RTC_SECONDS);
        min = cmos_read(RTC_MINUTES);
        hour = cmos_read(RTC_HOURS);
        day = cmos_read(RTC_DAY_OF_MONTH);
        mon = cmos_read(RTC_MONTH);
        year = cmos_read(RTC_YEAR);
        cent = cmos_read(RTC_CENTURY);
    } while ( sec != cmos_read(RTC_SECONDS) );
    b = cmos_read(RTC_REG_B);

    if ( !(b & RTC_DM_BINARY) )
    {
        sec = bcd2bin(sec);
        min = bcd2bin(min);
        hour = bcd2bin(hour & 0x7f) | (hour & 0x80);
        day = bcd2bin(day);
        mon = bcd2bin(mon);
        year = bcd2bin(year);
        cent = bcd2bin(cent);
    }
    if ( !(b & RTC_24H) && (hour & 0x80) )
        hour = (hour & 0x7f) % 12 + 12;             /* 12-hour clock, PM */
    else if ( !(b & RTC_24H) )
        hour %= 12;
    if ( cent < 19 || cent > 99 )
        cent = year < 70 ? 20 : 19;

    boot_tsc = rdtsc();
    boot_wallclock = mktime(cent * 100 + year, mon, day, hour, min, sec);
    tm = gmtime(boot_wallclock);
    printk(XENLOG_INFO "Wallclock: %04d-%02d-%02d %02d:%02d:%02d UTC (CMOS)\n",
           tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
           tm.tm_sec);
}

uint64_t get_wallclock_seconds(void)
{
    return boot_wallclock + (rdtsc() - boot_tsc) / (cpu_khz * 1000);
}

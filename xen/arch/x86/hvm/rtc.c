/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MC146818 RTC/CMOS at ports 0x70-0x71 (Xen's hvm/rtc.c, trimmed to
 * what a PVH guest reads at boot).  The time is the host's wallclock
 * (xen/time.h: the CMOS clock read at boot, advanced with the TSC), so
 * every domain sees the same date.
 *
 * - Port 0x70 selects a register (bit 7, the NMI mask, is ignored);
 *   reading it gives 0xff.  Port 0x71 reads or writes that register.
 * - Seconds, minutes, hours, weekday, day, month, year and century (0x32,
 *   the FADT's century register) are computed at each read, in BCD or
 *   binary and 12- or 24-hour form as status B says.
 * - Status A: UIP is never set (nothing updates behind the guest's back;
 *   a stuck UIP cost Linux a second at boot); the divider and rate bits
 *   are kept.  Status B: the guest's choice of format is kept (SET,
 *   interrupt enables and DST are kept too but have no effect: no
 *   interrupts are raised).  Status C reads 0, status D reads VRT.
 * - Writes to the time and date registers are ignored (the wallclock is
 *   the host's); the alarm registers and CMOS RAM (0x0e-0x7f) keep what
 *   the guest writes.
 * Accesses wider than a byte read as all ones and are ignored.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/time.h>
#include <asm/hvm/io.h>
#include <asm/hvm/rtc.h>

static uint8_t to_rtc(const struct hvm_rtc *s, unsigned int v)
{
    return (s->cmos[RTC_REG_B] & RTC_DM_BINARY) ? v : ((v / 10) << 4) | (v % 10);
}

static uint8_t rtc_hours(const struct hvm_rtc *s, unsigned int h)
{
    bool pm = h >= 12;

    if ( s->cmos[RTC_REG_B] & RTC_24H )
        return to_rtc(s, h);
    h %= 12;
    return to_rtc(s, h ? h : 12) | (pm ? 0x80 : 0);
}

static uint8_t rtc_read(const struct hvm_rtc *s, unsigned int reg)
{
    struct tm tm;

    switch ( reg )
    {
    case RTC_SECONDS:
    case RTC_MINUTES:
    case RTC_HOURS:
    case RTC_DAY_OF_WEEK:
    case RTC_DAY_OF_MONTH:
    case RTC_MONTH:
    case RTC_YEAR:
    case RTC_CENTURY:
        tm = gmtime(get_wallclock_seconds());
        switch ( reg )
        {
        case RTC_SECONDS:       return to_rtc(s, tm.tm_sec);
        case RTC_MINUTES:       return to_rtc(s, tm.tm_min);
        case RTC_HOURS:         return rtc_hours(s, tm.tm_hour);
        case RTC_DAY_OF_WEEK:   return to_rtc(s, tm.tm_wday + 1);
        case RTC_DAY_OF_MONTH:  return to_rtc(s, tm.tm_mday);
        case RTC_MONTH:         return to_rtc(s, tm.tm_mon + 1);
        case RTC_YEAR:          return to_rtc(s, tm.tm_year % 100);
        default:                return to_rtc(s, (tm.tm_year + 1900) / 100);
        }
    case RTC_REG_A:
        return s->cmos[RTC_REG_A] & ~RTC_UIP;
    case RTC_REG_C:
        return 0;                       /* no interrupt flags: none are raised */
    case RTC_REG_D:
        return RTC_VRT;
    default:
        return s->cmos[reg];
    }
}

static void rtc_write(struct hvm_rtc *s, unsigned int reg, uint8_t val)
{
    switch ( reg )
    {
    case RTC_SECONDS:
    case RTC_MINUTES:
    case RTC_HOURS:
    case RTC_DAY_OF_WEEK:
    case RTC_DAY_OF_MONTH:
    case RTC_MONTH:
    case RTC_YEAR:
    case RTC_CENTURY:
    case RTC_REG_C:
    case RTC_REG_D:
        break;                          /* the time is the host's; C, D read-only */
    case RTC_REG_A:
        s->cmos[RTC_REG_A] = val & ~RTC_UIP;
        break;
    default:
        s->cmos[reg] = val;
        break;
    }
}

static void rtc_portio(bool in, unsigned int port, unsigned int bytes, uint32_t *val)
{
    struct hvm_rtc *s = &current->domain->arch.hvm.rtc;

    if ( bytes != 1 )
    {
        if ( in )
            *val = ~0u;
        return;
    }
    if ( port == RTC_PORT(0) )
    {
        if ( in )
            *val = 0xff;
        else
            s->index = *val & (RTC_CMOS_SIZE - 1);
        return;
    }
    if ( in )
        *val = rtc_read(s, s->index);
    else
        rtc_write(s, s->index, *val);
}

void rtc_init(struct domain *d)
{
    struct hvm_rtc *s = &d->arch.hvm.rtc;

    memset(s, 0, sizeof(*s));
    s->cmos[RTC_REG_A] = RTC_REF_CLCK_32KHZ | RTC_RATE_1024HZ;
    s->cmos[RTC_REG_B] = RTC_24H;       /* BCD, 24-hour, as PC firmware leaves it */
    register_portio_handler(d, RTC_PORT(0), 2, rtc_portio);
}

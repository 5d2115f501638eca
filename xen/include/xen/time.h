/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * System time: nanoseconds since boot, derived from the TSC (Xen's
 * s_time_t and NOW()), the guest-visible time records, calendar time
 * (common/time.c) and the host's wallclock (arch/x86/time.c).
 */
#ifndef __XEN_TIME_H__
#define __XEN_TIME_H__

#include <xen/types.h>

typedef int64_t s_time_t;

#define STIME_MAX       ((s_time_t)(~0ULL >> 1))
#define SECONDS(s)      ((s_time_t)((s) * 1000000000ULL))
#define MILLISECS(ms)   ((s_time_t)((ms) * 1000000ULL))
#define MICROSECS(us)   ((s_time_t)((us) * 1000ULL))

/* ns = ((ticks << shift) * mul_frac) >> 32, a negative shift shifting right. */
struct time_scale {
    int      shift;
    uint32_t mul_frac;
};

struct vcpu;
struct domain;

/* Start the system-time clock (after TSC calibration). */
void init_system_time(void);
s_time_t get_s_time(void);
#define NOW() get_s_time()

/* Conversions between system time and the TSC, for deadlines. */
uint64_t stime_to_tsc(s_time_t t);
s_time_t tsc_to_stime(uint64_t tsc);

/* Refresh a vCPU's vcpu_time_info (version odd while writing, then even). */
void update_vcpu_system_time(struct vcpu *v);
/* Copy the time record to the guest's time area if it changed (v is current). */
void update_guest_time_area(struct vcpu *v);
/* Write the wallclock at system time 0 into the domain's shared_info. */
void update_domain_wallclock_time(struct domain *d);


/* A broken-down UTC time, as Xen's struct tm (months 0-11, years since 1900). */
struct tm {
    int tm_sec, tm_min, tm_hour;
    int tm_mday, tm_mon, tm_year;
    int tm_wday, tm_yday;
};

/* Seconds since 1970-01-01 00:00:00 UTC <-> calendar (Gregorian, UTC). */
struct tm gmtime(uint64_t t);
uint64_t mktime(unsigned int year, unsigned int mon, unsigned int day,
                unsigned int hour, unsigned int min, unsigned int sec);

/* Seconds since the epoch now, from the CMOS clock read at boot + the TSC. */
uint64_t get_wallclock_seconds(void);

#endif /* __XEN_TIME_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* The TSC as the hypervisor's clock. */
#ifndef __ASM_X86_TIME_H__
#define __ASM_X86_TIME_H__

/* TSC ticks per millisecond, measured at boot against the PIT. */
extern unsigned long cpu_khz;

void calibrate_tsc(void);

/*
 * XEN_DOMCTL_settscinfo's modes (Xen's numbers).  Every guest here reads
 * the host's TSC (TSC_OFFSET 0, no RDTSC exiting): DEFAULT at the host's
 * rate and NEVER_EMULATE are what it gets; ALWAYS_EMULATE, or DEFAULT at
 * another rate (which Xen emulates), is refused with -EOPNOTSUPP.
 */
#define TSC_MODE_DEFAULT          0
#define TSC_MODE_ALWAYS_EMULATE   1
#define TSC_MODE_NEVER_EMULATE    2

/* Spin for at least this long (delay.c; the TSC must be calibrated). */
void udelay(unsigned long usecs);
#define mdelay(ms) udelay((ms) * 1000UL)
/* Read the CMOS clock once: the wallclock from then on (xen/time.h). */

#endif /* __ASM_X86_TIME_H__ */

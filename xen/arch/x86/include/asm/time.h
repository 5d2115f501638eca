/* SPDX-License-Identifier: GPL-2.0-only */
/* The TSC as the hypervisor's clock. */
#ifndef __ASM_X86_TIME_H__
#define __ASM_X86_TIME_H__

/* TSC ticks per millisecond, measured at boot against the PIT. */
extern unsigned long cpu_khz;

void calibrate_tsc(void);

/* Spin for at least this long (delay.c; the TSC must be calibrated). */
void udelay(unsigned long usecs);
#define mdelay(ms) udelay((ms) * 1000UL)
/* Read the CMOS clock once: the wallclock from then on (xen/time.h). */

#endif /* __ASM_X86_TIME_H__ */

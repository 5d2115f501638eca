/* SPDX-License-Identifier: GPL-2.0-only */
/* The MC146818 real-time clock / CMOS at ports 0x70-0x71 (Xen's names). */
#ifndef __ASM_X86_MC146818RTC_H__
#define __ASM_X86_MC146818RTC_H__

#define RTC_PORT(x)             (0x70 + (x))

/* Registers */
#define RTC_SECONDS             0
#define RTC_SECONDS_ALARM       1
#define RTC_MINUTES             2
#define RTC_MINUTES_ALARM       3
#define RTC_HOURS               4
#define RTC_HOURS_ALARM         5
#define RTC_DAY_OF_WEEK         6
#define RTC_DAY_OF_MONTH        7
#define RTC_MONTH               8
#define RTC_YEAR                9
#define RTC_REG_A               10
#define RTC_REG_B               11
#define RTC_REG_C               12
#define RTC_REG_D               13
#define RTC_CENTURY             0x32    /* the ACPI FADT's century register */
#define RTC_CMOS_SIZE           128

/* Status A */
#define RTC_UIP                 0x80    /* update in progress */
#define RTC_DIV_CTL             0x70    /* divider: 010 = 32.768 kHz time base */
#define RTC_REF_CLCK_32KHZ      0x20
#define RTC_RATE_SELECT         0x0f
#define RTC_RATE_1024HZ         0x06

/* Status B */
#define RTC_SET                 0x80    /* updates stopped */
#define RTC_PIE                 0x40
#define RTC_AIE                 0x20
#define RTC_UIE                 0x10
#define RTC_SQWE                0x08
#define RTC_DM_BINARY           0x04    /* binary, else BCD */
#define RTC_24H                 0x02
#define RTC_DST_EN              0x01

/* Status D */
#define RTC_VRT                 0x80    /* valid RAM and time */

#endif /* __ASM_X86_MC146818RTC_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-domain state of the emulated RTC/CMOS (hvm/rtc.c). */
#ifndef __ASM_X86_HVM_RTC_H__
#define __ASM_X86_HVM_RTC_H__

#include <xen/types.h>
#include <asm/mc146818rtc.h>

struct hvm_rtc {
    uint8_t index;                  /* the register port 0x70 selected */
    uint8_t cmos[RTC_CMOS_SIZE];    /* status A/B and CMOS RAM; the time is computed */
};

#endif /* __ASM_X86_HVM_RTC_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* What the parts of the vLAPIC test share (tests/vlapic/). */
#ifndef VLAPIC_TEST_H
#define VLAPIC_TEST_H

#include "test.h"
#include "events.h"
#include "fault.h"
#include "smp.h"

#define APIC            0xfee00000UL
#define REG(off)        (*(volatile uint32_t *)(APIC + (off)))
#define MSR_APICBASE    0x1b
#define MSR_TSC_DEADLINE 0x6e0
#define X2(off)         (0x800 + ((off) >> 4))

/*
 * Quiet checks for the tables: counted, and only failures printed (the
 * first 40, then just counted).  table_summary() prints one line.
 */
void expect_eq(const char *what, unsigned int off, uint64_t got, uint64_t want);
void expect_true(const char *what, unsigned int off, bool cond);
void table_summary(const char *what);

/* ESR after a write to it (the errors since the last write), xAPIC mode. */
uint32_t esr_latch(void);

/* The parts (part=<name> on the command line). */
void part_basic(void);
void part_xapic(void);
void part_x2apic(void);
void part_ipi(void);
void part_nmi(void);
void part_sipi(void);
void part_timer(void);

#endif /* VLAPIC_TEST_H */

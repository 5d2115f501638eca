/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RDMSR, WRMSR and MOV to CR0/CR3/CR4/CR8 that may fault, for tests that check what
 * the hypervisor lets through: each returns the exinfo (extable.h), 0 if
 * the instruction completed.  And the checks such tests print.
 */
#ifndef GUEST_FAULT_H
#define GUEST_FAULT_H

#include <stdint.h>
#include "extable.h"
#include "x86.h"

static inline unsigned long rdmsr_ex(uint32_t msr, uint64_t *val)
{
    unsigned long ex = 0;
    uint32_t lo = 0, hi = 0;

    asm volatile ( "1: rdmsr; 2:" _ASM_EXTABLE(1b, 2b)
                   : "+D" (ex), "+a" (lo), "+d" (hi) : "c" (msr) );
    *val = ((uint64_t)hi << 32) | lo;
    return ex;
}

static inline unsigned long wrmsr_ex(uint32_t msr, uint64_t val)
{
    unsigned long ex = 0;

    asm volatile ( "1: wrmsr; 2:" _ASM_EXTABLE(1b, 2b)
                   : "+D" (ex)
                   : "c" (msr), "a" ((uint32_t)val), "d" ((uint32_t)(val >> 32))
                   : "memory" );
    return ex;
}

/* MOV to CR0, CR3, CR4, CR8 (x86.h has the reads). */
#define DEFINE_WRITE_CR_EX(n)                                           \
static inline unsigned long write_cr##n##_ex(unsigned long val)         \
{                                                                       \
    unsigned long ex = 0;                                               \
                                                                        \
    asm volatile ( "1: mov %1, %%cr" #n "; 2:" _ASM_EXTABLE(1b, 2b)     \
                   : "+D" (ex) : "r" (val) : "memory" );                \
    return ex;                                                          \
}
DEFINE_WRITE_CR_EX(0)
DEFINE_WRITE_CR_EX(3)
DEFINE_WRITE_CR_EX(4)
DEFINE_WRITE_CR_EX(8)
#undef DEFINE_WRITE_CR_EX

/* Checks that print "  ok   ..." or report a failure; they count both. */
void check_gp(const char *what, unsigned long ex);
void check_ok(const char *what, unsigned long ex);
void check_val(const char *what, uint64_t got, uint64_t want);
void check_true(const char *what, bool cond);
unsigned int checks_passed(void);

#endif /* GUEST_FAULT_H */

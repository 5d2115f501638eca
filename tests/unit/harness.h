/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal host unit-test harness.
 *
 * A test is one file test_<name>.c defining test_main(), compiled like
 * hypervisor code (freestanding, no libc headers, -DXEN_HOST_TEST).  The
 * checks below are implemented in harness.c, the only file that uses libc;
 * each one counts as one passed or failed check, and every failure prints
 * its file, line and the values seen.
 */
#ifndef __TESTS_UNIT_HARNESS_H__
#define __TESTS_UNIT_HARNESS_H__

#include <stddef.h>

void test_main(void);

void harness_check(const char *file, int line, const char *expr, int ok);
void harness_check_eq(const char *file, int line, const char *a_expr,
                      const char *b_expr, unsigned long long a,
                      unsigned long long b);
void harness_check_str(const char *file, int line, const char *a_expr,
                       const char *b_expr, const char *a, const char *b);
void harness_check_contains(const char *file, int line, const char *h_expr,
                            const char *haystack, const char *needle,
                            int expect);

/* Called by BUG() when set (it must not return: a test longjmps out). */
extern void (*harness_bug_hook)(void);

/*
 * Expected BUGs (the lock checks'): with harness_bug_hook set to
 * harness_catch_bug, BUGS(stmt) runs stmt and is true if it hit a BUG,
 * which jumps back here instead of ending the test; the lock checks, which
 * a BUG turns off, are on again afterwards (spin_debug_enable()).
 */
extern void *harness_bug_jmp[5];
extern unsigned int harness_bugs;
void harness_catch_bug(void);
#define BUGS(stmt) ({                                   \
    unsigned int b0_ = harness_bugs;                    \
    if ( !__builtin_setjmp(harness_bug_jmp) )           \
    {                                                   \
        stmt;                                           \
    }                                                   \
    spin_debug_enable();                                \
    harness_bugs != b0_; })

#define CHECK(cond) harness_check(__FILE__, __LINE__, #cond, !!(cond))
#define CHECK_EQ(a, b)                                                  \
    harness_check_eq(__FILE__, __LINE__, #a, #b,                        \
                     (unsigned long long)(a), (unsigned long long)(b))
#define CHECK_STR(a, b)                                                 \
    harness_check_str(__FILE__, __LINE__, #a, #b, (a), (b))
#define CHECK_CONTAINS(haystack, needle)                                \
    harness_check_contains(__FILE__, __LINE__, #haystack, (haystack),   \
                           (needle), 1)
#define CHECK_NOT_CONTAINS(haystack, needle)                            \
    harness_check_contains(__FILE__, __LINE__, #haystack, (haystack),   \
                           (needle), 0)

/* Host memory at a fixed address (identity-mapped "machine memory"), or NULL. */
void *harness_map_fixed(unsigned long addr, unsigned long size);
/* Print to the test's output (diagnostics beside a failed check). */
void harness_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One page, readable, writable and executable, below 2 GiB (MAP_32BIT). */
void *harness_exec_page(void);

/*
 * Run fn(cpu) on nr threads at once, each thread CPU cpu (0 .. nr-1) with
 * its own smp_processor_id(), current, interrupt flag and per-CPU area,
 * started together; returns when all have returned.  Checks may not be
 * made from fn (the counters are not shared safely): record, then check.
 */
void harness_run_cpus(unsigned int nr, void (*fn)(unsigned int cpu));
/*
 * An "interrupt" at every instruction: body runs single-stepped (TF), and
 * irq runs from the SIGTRAP after each of its instructions (irq decides
 * whether interrupts are on; TF is off while it runs).  Returns the
 * number of instructions stepped, 0 if the handler could not be set.
 */
unsigned long harness_irq_each_instruction(void (*body)(void), void (*irq)(void));
/* Zeroed host memory (calloc), never freed. */
void *harness_zalloc(size_t size);
/* stub_printk.c: make the calling thread CPU cpu. */
void host_test_cpu_enter(unsigned int cpu);

/* Messages printk()ed by the code under test (stub_printk.c), prefixes kept. */
extern char printk_log[];
void printk_reset(void);

#endif /* __TESTS_UNIT_HARNESS_H__ */

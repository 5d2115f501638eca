/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a guest test includes.  A test is tests/<name>/main.c defining
 *
 *     const char test_title[] = "...";
 *     void test_main(void);
 *
 * and reporting with xtf_success/skip/error/failure.  The worst status wins
 * (SUCCESS < SKIP < ERROR < FAILURE); after test_main() returns the library
 * prints exactly one "Test result: <STATUS>" line and powers the domain off.
 */
#ifndef GUEST_TEST_H
#define GUEST_TEST_H

#include "lib.h"
#include "atomic.h"
#include "hypercall.h"
#include "smp.h"
#include "x86.h"
#include "public/hvm/start_info.h"

extern const char test_title[];
void test_main(void);

enum test_status {
    STATUS_RUNNING,   /* nothing reported: counts as SUCCESS at the end */
    STATUS_SUCCESS,
    STATUS_SKIP,
    STATUS_ERROR,
    STATUS_FAILURE,
};

/*
 * Report a status; fmt (may be NULL) is printed as it is, e.g.
 * xtf_failure("Fail: expected %d, got %d\n", a, b).
 */
void xtf_success(const char *fmt, ...) __printf(1, 2);
void xtf_skip(const char *fmt, ...) __printf(1, 2);
void xtf_error(const char *fmt, ...) __printf(1, 2);
void xtf_failure(const char *fmt, ...) __printf(1, 2);

/* The worst status reported so far. */
enum test_status xtf_status(void);

/* Print the "Test result:" line now and power off (any vCPU, once). */
/* Print "Test result: ..." and shut down (poweroff; "shutdown=reboot|crash" on the command line). */
noreturn void xtf_exit(void);

#endif /* GUEST_TEST_H */

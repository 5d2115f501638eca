/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small test harness: each test case is a function; CHECK() records a
 * failed expectation (with file and line) without stopping the case.
 * The run prints PASS/FAIL per case and "N passed, N failed".
 */
#ifndef TOOLS_TESTS_CTRL_HARNESS_H
#define TOOLS_TESTS_CTRL_HARNESS_H

#include <stdbool.h>
#include <stdio.h>

#include <xenctrl.h>

#include "../fake/fake.h"

bool check_(bool ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* CHECK(cond, "what %d", x): evaluates to cond. */
#define CHECK(cond, ...) check_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* A call that must fail with -1 and errno e. */
#define CHECK_ERRNO(rc, e, what)                                              \
    CHECK((rc) == -1 && errno == (e), "%s: rc %lld errno %d, expected -1 "    \
          "errno %d", what, (long long)(rc), errno, (e))

/* A logger that keeps the last message (for checks) and counts them. */
struct capture_logger {
    xentoollog_logger vtable;
    char last[512];
    unsigned int count;
};
xentoollog_logger *capture_logger(void);
struct capture_logger *captured(void);

/*
 * Open an interface on the fake hypervisor with the capture logger and the
 * given handler; close it and check that every buffer was freed.
 */
xc_interface *open_xch(fake_handler_t h);
void close_xch(xc_interface *xch);

/* The i-th recorded call, checked to exist. */
struct fake_call *call_(unsigned int i, const char *file, int line);
#define CALL(i) call_(i, __FILE__, __LINE__)

/* Check the envelope of a domctl / sysctl call. */
void check_domctl_(const struct fake_call *c, uint32_t cmd, uint32_t domid,
                   const char *file, int line);
#define CHECK_DOMCTL(c, cmd, domid) \
    check_domctl_(c, cmd, domid, __FILE__, __LINE__)
void check_sysctl_(const struct fake_call *c, uint32_t cmd,
                   const char *file, int line);
#define CHECK_SYSCTL(c, cmd) check_sysctl_(c, cmd, __FILE__, __LINE__)

/* Every byte of [p, p + n) is zero. */
bool all_zero(const void *p, size_t n);

typedef void (*test_fn)(void);
struct test_case {
    const char *name;
    test_fn fn;
};

/* The test lists of each file. */
extern const struct test_case domain_tests[], logdirty_tests[], misc_tests[];

/* The path of the link-check program (argv[1]), or NULL. */
extern const char *link_check_path;

#endif /* TOOLS_TESTS_CTRL_HARNESS_H */

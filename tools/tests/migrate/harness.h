/* SPDX-License-Identifier: GPL-2.0-only */
/* The save/restore host tests: checks, the captured log, shared helpers. */
#ifndef TOOLS_TESTS_MIGRATE_HARNESS_H
#define TOOLS_TESTS_MIGRATE_HARNESS_H

#include <stdbool.h>
#include <stdio.h>

#include <xenctrl.h>
#include <xenguest.h>

#include "../fake/fake.h"

extern bool verbose, case_failed;
extern xc_interface *xch;
extern const char *checker;             /* the sr-check program */

bool check_(bool ok, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) check_(!!(cond), __LINE__, __VA_ARGS__)

/* Everything logged at XTL_DETAIL and above since the last log_clear(). */
void log_clear(void);
const char *log_text(void);
bool log_has(const char *needle);

/* A stream in memory. */
struct stream {
    unsigned char *data;
    size_t len;
};

/* Save domain 'dom' into s (flags XCFLAGS_*, params may be NULL). */
int save_to(struct stream *s, uint32_t dom, uint32_t flags,
            struct save_callbacks *cb, const struct xc_save_params *params);
/*
 * Restore s into a new domain of max_pages and vcpus; on failure the
 * domain is destroyed (as libxl does) and *out set to NULL.
 */
int restore_from(const struct stream *s, unsigned long max_pages,
                 unsigned int vcpus, struct fake_dom **out,
                 struct xc_restore_summary *sum);
/* sr-check's exit status on s (0 valid, 1 invalid). */
int run_checker(const struct stream *s);
void stream_free(struct stream *s);

/* The malformed-stream cases (streams.c). */
void test_malformed_streams(void);
void test_truncations(void);
void test_version2(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* <assert.h> for the guest test kernels: a failed assertion ends the test. */
#ifndef GUEST_LIBC_ASSERT_H
#define GUEST_LIBC_ASSERT_H

__attribute__((__noreturn__))
void __assert_fail(const char *expr, const char *file, unsigned int line,
                   const char *func);

#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) \
    ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif

#endif /* GUEST_LIBC_ASSERT_H */

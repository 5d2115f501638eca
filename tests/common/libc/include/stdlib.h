/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <stdlib.h> for the guest test kernels: a heap over a static arena
 * (tests/common/libc/malloc.c).  Safe to use from several vCPUs.
 */
#ifndef GUEST_LIBC_STDLIB_H
#define GUEST_LIBC_STDLIB_H

#include <stddef.h>

void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
/* C11: size need not be a multiple of alignment here; alignment a power of 2. */
void *aligned_alloc(size_t alignment, size_t size);
void free(void *ptr);

/* Heap statistics, for tests that look for leaks: bytes in use. */
size_t malloc_in_use(void);

/* Ends the test with ERROR (XTF's panic). */
__attribute__((__noreturn__)) void abort(void);

#endif /* GUEST_LIBC_STDLIB_H */

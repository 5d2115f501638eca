/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory and string functions (common/string.c).
 *
 * In the hypervisor these are the only implementations.  The host unit
 * tests (tests/unit) compile the same sources with -DXEN_HOST_TEST, which
 * renames every function below to xen_<name>, so the code under test never
 * collides with (or silently uses) the C library's functions of the same
 * names, while the test harness itself still links against libc.
 */
#ifndef __XEN_STRING_H__
#define __XEN_STRING_H__

#include "types.h"          /* beside it: the test kernels' libc includes it by path */

#ifdef XEN_HOST_TEST
#define memcpy      xen_memcpy
#define memmove     xen_memmove
#define memset      xen_memset
#define memcmp      xen_memcmp
#define memchr      xen_memchr
#define strlen      xen_strlen
#define strnlen     xen_strnlen
#define strcmp      xen_strcmp
#define strncmp     xen_strncmp
#define strcasecmp  xen_strcasecmp
#define strncasecmp xen_strncasecmp
#define strchr      xen_strchr
#define strrchr     xen_strrchr
#define strstr      xen_strstr
#define strpbrk     xen_strpbrk
#define strlcpy     xen_strlcpy
#define strlcat     xen_strlcat
#define strspn      xen_strspn
#define strcspn     xen_strcspn
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
char *strpbrk(const char *s, const char *accept);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);

/*
 * BSD semantics: copy/append at most size - 1 characters, always
 * NUL-terminate (if size > 0), return the length of the string they tried
 * to create; a result >= size means the output was truncated.
 */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);

#endif /* __XEN_STRING_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <stdio.h> for the guest test kernels: stdout and stderr both write to
 * the hypervisor console (console_io); formatting is the hypervisor's
 * vsnprintf (xen/common/vsprintf.c).  There are no files.
 */
#ifndef GUEST_LIBC_STDIO_H
#define GUEST_LIBC_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)

typedef struct guest_file FILE;

extern FILE *const stdin;
extern FILE *const stdout;
extern FILE *const stderr;

int vfprintf(FILE *f, const char *fmt, va_list args)
    __attribute__((format(printf, 2, 0)));
int fprintf(FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fputs(const char *s, FILE *f);
int puts(const char *s);
int fputc(int c, FILE *f);
#define putc(c, f) fputc(c, f)
int putchar(int c);
int fflush(FILE *f);
int fileno(FILE *f);

/* C99 semantics (xen/common/vsprintf.c). */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
    __attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* GUEST_LIBC_STDIO_H */

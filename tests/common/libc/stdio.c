/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stdio for the guest test kernels: stdout and stderr are the hypervisor
 * console.  Each call formats into a local buffer and writes it with one
 * console_io (the hypervisor joins a domain's output into lines).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib.h"

struct guest_file {
    int fd;
};

static struct guest_file files[3] = { { 0 }, { 1 }, { 2 } };

FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

static int file_write(FILE *f, const char *s, size_t len)
{
    if ( f != stdout && f != stderr )
        return EOF;
    console_write(s, len);
    return (int)len;
}

int vfprintf(FILE *f, const char *fmt, va_list args)
{
    char buf[512];
    int len = vsnprintf(buf, sizeof(buf), fmt, args);

    if ( len < 0 )
        return len;
    if ( (size_t)len >= sizeof(buf) )
    {
        /* Longer than the buffer: say so instead of cutting silently. */
        memcpy(buf + sizeof(buf) - 5, "...\n", 5);
        len = sizeof(buf) - 1;
    }

    return file_write(f, buf, len);
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list args;
    int rc;

    va_start(args, fmt);
    rc = vfprintf(f, fmt, args);
    va_end(args);

    return rc;
}

int printf(const char *fmt, ...)
{
    va_list args;
    int rc;

    va_start(args, fmt);
    rc = vfprintf(stdout, fmt, args);
    va_end(args);

    return rc;
}

int fputs(const char *s, FILE *f)
{
    return file_write(f, s, strlen(s)) < 0 ? EOF : 0;
}

int puts(const char *s)
{
    if ( fputs(s, stdout) < 0 )
        return EOF;
    return fputc('\n', stdout) < 0 ? EOF : 0;
}

int fputc(int c, FILE *f)
{
    char ch = c;

    return file_write(f, &ch, 1) < 0 ? EOF : (unsigned char)ch;
}

int putchar(int c)
{
    return fputc(c, stdout);
}

int fflush(FILE *f)
{
    (void)f;
    return 0;
}

int fileno(FILE *f)
{
    return f ? f->fd : -1;
}

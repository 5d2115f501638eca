/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory and string functions.  Plain C, no libc.
 *
 * gcc can turn a byte loop into a call to memset()/memcpy() ("loop
 * distribution"), which inside memset() itself would recurse forever;
 * switch that transformation off for this file.
 */
#pragma GCC optimize("no-tree-loop-distribute-patterns")

#include <xen/ctype.h>
#include <xen/string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
#ifdef __x86_64__
    void *ret = dst;
    size_t tail = n % 8;

    /*
     * Eight bytes an iteration, then the rest: fast on every CPU, and
     * under Bochs (which counts each iteration of a string instruction as
     * a tick) 8x fewer ticks than rep movsb for what a CLEAN copies out.
     */
    n /= 8;
    __asm__ __volatile__ ( "rep movsq"
                           : "+D" (dst), "+S" (src), "+c" (n)
                           : : "memory" );
    __asm__ __volatile__ ( "rep movsb"
                           : "+D" (dst), "+S" (src), "+c" (tail)
                           : : "memory" );
    return ret;
#else
    unsigned char *d = dst;
    const unsigned char *s = src;

    while ( n-- )
        *d++ = *s++;
    return dst;
#endif
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if ( d <= s || d >= s + n )
        return memcpy(dst, src, n);

    /* Overlapping with dst above src: copy backwards. */
    while ( n-- )
        d[n] = s[n];
    return dst;
}

void *memset(void *s, int c, size_t n)
{
#ifdef __x86_64__
    void *ret = s;

    __asm__ __volatile__ ( "rep stosb"
                           : "+D" (s), "+c" (n)
                           : "a" (c)
                           : "memory" );
    return ret;
#else
    unsigned char *p = s;

    while ( n-- )
        *p++ = (unsigned char)c;
    return s;
#endif
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    for ( ; n; n--, p++, q++ )
        if ( *p != *q )
            return *p < *q ? -1 : 1;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;

    for ( ; n; n--, p++ )
        if ( *p == (unsigned char)c )
            return (void *)p;
    return NULL;
}

size_t strlen(const char *s)
{
    const char *p = s;

    while ( *p )
        p++;
    return p - s;
}

size_t strnlen(const char *s, size_t maxlen)
{
    size_t n = 0;

    while ( n < maxlen && s[n] )
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    return strncmp(a, b, (size_t)-1);
}

int strncmp(const char *a, const char *b, size_t n)
{
    for ( ; n; n--, a++, b++ )
    {
        unsigned char x = *a, y = *b;

        if ( x != y )
            return x < y ? -1 : 1;
        if ( !x )
            break;
    }
    return 0;
}

int strcasecmp(const char *a, const char *b)
{
    return strncasecmp(a, b, (size_t)-1);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    for ( ; n; n--, a++, b++ )
    {
        int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);

        if ( x != y )
            return x < y ? -1 : 1;
        if ( !x )
            break;
    }
    return 0;
}

char *strchr(const char *s, int c)
{
    for ( ; ; s++ )
    {
        if ( *s == (char)c )
            return (char *)s;
        if ( !*s )
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    const char *last = NULL;

    for ( ; ; s++ )
    {
        if ( *s == (char)c )
            last = s;
        if ( !*s )
            return (char *)last;
    }
}

char *strstr(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);

    for ( ; *haystack; haystack++ )
        if ( !strncmp(haystack, needle, n) )
            return (char *)haystack;
    return n ? NULL : (char *)haystack;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s ? (char *)s : NULL;
}

size_t strspn(const char *s, const char *accept)
{
    size_t n = 0;

    while ( s[n] && strchr(accept, s[n]) )
        n++;
    return n;
}

size_t strcspn(const char *s, const char *reject)
{
    size_t n = 0;

    while ( s[n] && !strchr(reject, s[n]) )
        n++;
    return n;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if ( size )
    {
        size_t n = len < size - 1 ? len : size - 1;

        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

size_t strlcat(char *dst, const char *src, size_t size)
{
    size_t dlen = strnlen(dst, size);

    /* No NUL within size: nothing can be appended. */
    if ( dlen == size )
        return size + strlen(src);
    return dlen + strlcpy(dst + dlen, src, size - dlen);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* xen/common/vsprintf.c */
#include <xen/lib.h>
#include <xen/string.h>

#include "harness.h"

static char buf[128];

/* Format into buf and compare both the text and the return value. */
#define FMT(expect, ...) do {                                           \
    int n_ = snprintf(buf, sizeof(buf), __VA_ARGS__);                   \
    CHECK_STR(buf, expect);                                             \
    CHECK_EQ(n_, strlen(expect));                                       \
} while ( 0 )

static void test_conversions(void)
{
    FMT("x", "x");
    FMT("%", "%%");
    FMT("a--42-17", "a%c%d-%i", '-', -42, 17);
    FMT("4294967295", "%u", -1);
    FMT("ff FF 17", "%x %X %o", 255, 255, 15);
    FMT("-2147483648", "%d", -2147483647 - 1);
}

/* Formats gcc's format checker rightly complains about. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-overflow"
static void test_odd_formats(void)
{
    FMT("hi (null)", "%s %s", "hi", (char *)NULL);
    FMT("%y", "%y");            /* unknown conversion: copied */
    FMT("50%", "50%");          /* trailing '%' */
    FMT("0x0000000000001234", "%#p", (void *)0x1234);
}
#pragma GCC diagnostic pop

static void test_flags_width_precision(void)
{
    FMT("   42|42   |00042", "%5d|%-5d|%05d", 42, 42, 42);
    FMT("+42 -42| 42 -1", "%+d %+d|% d % d", 42, -42, 42, -1);
    FMT("-0042", "%05d", -42);
    FMT("0xff 0XFF 017 0 0", "%#x %#X %#o %#x %#o", 255, 255, 15, 0, 0);
    FMT("0x001f", "%#06x", 0x1f);
    FMT("007 | 00a|", "%.3d |%4.3x|", 7, 10);
    FMT("", "%.0d", 0);
    FMT("   ab|ab   |hel", "%5s|%-5s|%.3s", "ab", "ab", "hello");
    FMT("    x|y    |he", "%*s|%*s|%.*s", 5, "x", -5, "y", 2, "hello");
    FMT("  c|c  ", "%3c|%-3c", 'c', 'c');
    FMT("00042", "%0*d", 5, 42);
}

static void test_lengths(void)
{
    FMT("44 4464", "%hhd %hd", 300, 70000);
    FMT("44 4464", "%hhu %hu", 300, 70000);
    FMT("-1 ffffffffffffffff", "%ld %lx", -1L, -1UL);
    FMT("-9223372036854775808", "%lld", -9223372036854775807LL - 1);
    FMT("18446744073709551615", "%llu", ~0ULL);
    FMT("123456789abcdef", "%llx", 0x123456789abcdefULL);
    FMT("18446744073709551615 -3", "%zu %td", (size_t)-1, (long)-3);
}

static void test_pointer(void)
{
    FMT("0000000000001234", "%p", (void *)0x1234);
    FMT("ffff82d080200000", "%p", (void *)0xffff82d080200000UL);
    FMT("      abcd", "%10p", (void *)0xabcd);
    FMT("0000000000000000", "%p", NULL);
}

static void test_truncation(void)
{
    char small[8];
    int n;

    memset(small, 'Z', sizeof(small));
    n = snprintf(small, sizeof(small), "%s", "0123456789");
    CHECK_EQ(n, 10);                        /* C99: the full length */
    CHECK_STR(small, "0123456");

    n = snprintf(small, sizeof(small), "%d-%d", 1234, 5678);
    CHECK_EQ(n, 9);
    CHECK_STR(small, "1234-56");

    memset(small, 'Z', sizeof(small));
    CHECK_EQ(snprintf(small, 1, "abc"), 3);
    CHECK_EQ(small[0], '\0');
    CHECK_EQ(snprintf(NULL, 0, "%d", 12345), 5);
    small[0] = 'Z';
    CHECK_EQ(snprintf(small, 0, "abc"), 3);
    CHECK_EQ(small[0], 'Z');                /* size 0: nothing written */

    CHECK_EQ(scnprintf(small, sizeof(small), "%s", "0123456789"), 7);
    CHECK_STR(small, "0123456");
    CHECK_EQ(scnprintf(small, sizeof(small), "ab"), 2);
    CHECK_EQ(scnprintf(small, 0, "ab"), 0);
    CHECK_EQ(scnprintf(small, 1, "ab"), 0);
}

void test_main(void)
{
    test_conversions();
    test_flags_width_precision();
    test_lengths();
    test_pointer();
    test_odd_formats();
    test_truncation();
}

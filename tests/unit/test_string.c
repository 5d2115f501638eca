/* SPDX-License-Identifier: GPL-2.0-only */
/* xen/common/string.c */
#include <xen/string.h>

#include "harness.h"

static void test_mem(void)
{
    char buf[32], src[32];
    int i;

    for ( i = 0; i < 32; i++ )
        src[i] = 'a' + i % 26;

    CHECK(memset(buf, 'x', sizeof(buf)) == buf);
    CHECK_EQ(buf[0], 'x');
    CHECK_EQ(buf[31], 'x');
    memset(buf + 4, 0, 3);
    CHECK_EQ(buf[3], 'x');
    CHECK_EQ(buf[4], 0);
    CHECK_EQ(buf[6], 0);
    CHECK_EQ(buf[7], 'x');
    memset(buf, 0x1ff, 1);                  /* only the low byte counts */
    CHECK_EQ((unsigned char)buf[0], 0xff);

    CHECK(memcpy(buf, src, 10) == buf);
    CHECK_EQ(memcmp(buf, src, 10), 0);
    CHECK_EQ(buf[10], 'x');
    CHECK(memcpy(buf, src, 0) == buf);

    /* Eight bytes at a time, then the tail: every length and alignment. */
    {
        int len, off, j;

        for ( len = 0; len <= 24; len++ )
            for ( off = 0; off < 8; off++ )
            {
                memset(buf, 'x', sizeof(buf));
                CHECK(memcpy(buf + off, src + (7 - off), len) == buf + off);
                for ( j = 0; j < (int)sizeof(buf); j++ )
                    CHECK_EQ(buf[j], j >= off && j < off + len
                                     ? src[7 - off + j - off] : 'x');
            }
    }

    /* Overlap both ways. */
    memcpy(buf, "0123456789", 10);
    CHECK(memmove(buf + 2, buf, 6) == buf + 2);
    CHECK_EQ(memcmp(buf, "0101234589", 10), 0);
    memcpy(buf, "0123456789", 10);
    memmove(buf, buf + 3, 7);
    CHECK_EQ(memcmp(buf, "3456789789", 10), 0);

    CHECK_EQ(memcmp("abc", "abd", 3), -1);
    CHECK_EQ(memcmp("abd", "abc", 3), 1);
    CHECK_EQ(memcmp("ab\x80", "ab\x01", 3), 1);     /* unsigned bytes */
    CHECK_EQ(memcmp("abc", "xyz", 0), 0);

    CHECK(memchr("hello", 'l', 5) == (void *)&"hello"[2]);
    CHECK(memchr("hello", 'z', 5) == NULL);
    CHECK(memchr("hello", 'o', 4) == NULL);
}

static void test_str(void)
{
    static const char s[] = "hello world";
    char buf[8];

    CHECK_EQ(strlen(""), 0);
    CHECK_EQ(strlen(s), 11);
    CHECK_EQ(strnlen(s, 5), 5);
    CHECK_EQ(strnlen(s, 50), 11);

    CHECK_EQ(strcmp("abc", "abc"), 0);
    CHECK(strcmp("abc", "abd") < 0);
    CHECK(strcmp("abd", "abc") > 0);
    CHECK(strcmp("ab", "abc") < 0);
    CHECK(strcmp("abc", "ab") > 0);
    CHECK(strcmp("\x80", "a") > 0);
    CHECK_EQ(strncmp("abcX", "abcY", 3), 0);
    CHECK(strncmp("abcX", "abcY", 4) < 0);
    CHECK_EQ(strncmp("a", "b", 0), 0);
    CHECK_EQ(strcasecmp("HeLLo", "hello"), 0);
    CHECK(strcasecmp("a", "B") < 0);
    CHECK_EQ(strncasecmp("ABCd", "abcE", 3), 0);

    CHECK(strchr(s, 'o') == s + 4);
    CHECK(strrchr(s, 'o') == s + 7);
    CHECK(strchr(s, 'z') == NULL);
    CHECK(strrchr(s, 'z') == NULL);
    CHECK(strchr(s, '\0') == s + 11);
    CHECK(strstr(s, "world") == s + 6);
    CHECK(strstr(s, "o w") == s + 4);
    CHECK(strstr(s, "worlds") == NULL);
    CHECK(strstr(s, "") == s);
    CHECK(strpbrk(s, "wr") == s + 6);
    CHECK(strpbrk(s, "xyz") == NULL);
    CHECK_EQ(strspn("abcabcd", "abc"), 6);
    CHECK_EQ(strspn("xyz", "abc"), 0);
    CHECK_EQ(strcspn("abc,def", ",;"), 3);
    CHECK_EQ(strcspn("abcdef", ",;"), 6);

    CHECK_EQ(strlcpy(buf, "abc", sizeof(buf)), 3);
    CHECK_STR(buf, "abc");
    CHECK_EQ(strlcpy(buf, "0123456789", sizeof(buf)), 10);
    CHECK_STR(buf, "0123456");
    CHECK_EQ(strlcpy(buf, "zz", 0), 2);
    CHECK_STR(buf, "0123456");              /* size 0: untouched */

    strlcpy(buf, "ab", sizeof(buf));
    CHECK_EQ(strlcat(buf, "cd", sizeof(buf)), 4);
    CHECK_STR(buf, "abcd");
    CHECK_EQ(strlcat(buf, "efghij", sizeof(buf)), 10);
    CHECK_STR(buf, "abcdefg");
    CHECK_EQ(strlcat(buf, "x", 3), 3 + 1);  /* no NUL within size */
    CHECK_STR(buf, "abcdefg");
}

void test_main(void)
{
    test_mem();
    test_str();
}

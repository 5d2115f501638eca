/* SPDX-License-Identifier: GPL-2.0-only */
/* xen/common/lib.c: simple_strto*, sizes, parse_bool(ean), printk prefix. */
#include <xen/lib.h>

#include "harness.h"

static void test_strtoul(void)
{
    const char *s = "1234xyz", *end;

    CHECK_EQ(simple_strtoul(s, &end, 10), 1234);
    CHECK(end == s + 4);
    CHECK_EQ(simple_strtoul("0x1fG", &end, 0), 0x1f);
    CHECK_EQ(*end, 'G');
    CHECK_EQ(simple_strtoul("0X1F", &end, 0), 0x1f);
    CHECK_EQ(*end, '\0');
    CHECK_EQ(simple_strtoul("0755", &end, 0), 0755);
    CHECK_EQ(simple_strtoul("089", &end, 0), 0);       /* octal stops at 8 */
    CHECK_EQ(*end, '8');
    CHECK_EQ(simple_strtoul("ff", &end, 16), 0xff);
    CHECK_EQ(simple_strtoul("0xff", &end, 16), 0xff);
    CHECK_EQ(simple_strtoul("z", &end, 36), 35);
    CHECK_EQ(simple_strtoul("101", &end, 2), 5);

    /* "0x" not followed by a hex digit is a plain 0. */
    s = "0xg";
    CHECK_EQ(simple_strtoul(s, &end, 0), 0);
    CHECK(end == s + 1);

    /* No digits: endp is the start, value 0. */
    s = "abc";
    CHECK_EQ(simple_strtoul(s, &end, 10), 0);
    CHECK(end == s);
    s = "";
    CHECK_EQ(simple_strtoul(s, &end, 0), 0);
    CHECK(end == s);
    s = " 12";                                  /* no space skipping */
    CHECK_EQ(simple_strtoul(s, &end, 10), 0);
    CHECK(end == s);

    CHECK_EQ(simple_strtoul("42", NULL, 10), 42);   /* endp optional */
    CHECK_EQ(simple_strtoull("0xffffffffffffffff", &end, 0), ~0ULL);
    CHECK_EQ(simple_strtoull("18446744073709551615", &end, 10), ~0ULL);

    CHECK_EQ(simple_strtol("-42x", &end, 10), -42);
    CHECK_EQ(*end, 'x');
    CHECK_EQ(simple_strtoll("-0x10", &end, 0), -16);
    CHECK_EQ(simple_strtol("17", &end, 0), 17);
}

static void test_size(void)
{
    const char *end;

    CHECK_EQ(parse_size_and_unit("4K", &end), 4096);
    CHECK_EQ(*end, '\0');
    CHECK_EQ(parse_size_and_unit("2m", &end), 2 << 20);
    CHECK_EQ(parse_size_and_unit("1G", &end), 1ULL << 30);
    CHECK_EQ(parse_size_and_unit("3T", &end), 3ULL << 40);
    CHECK_EQ(parse_size_and_unit("100B", &end), 100);
    CHECK_EQ(parse_size_and_unit("8", &end), 8192);    /* default KiB */
    CHECK_EQ(parse_size_and_unit("0x10M", &end), 16 << 20);
    CHECK_EQ(parse_size_and_unit("5Mx", &end), 5 << 20);
    CHECK_EQ(*end, 'x');
}

static void test_parse_bool(void)
{
    static const char *const yes[] = { "1", "yes", "on", "true", "enable" };
    static const char *const no[] = { "0", "no", "off", "false", "disable" };
    static const char *const bad[] = {
        "", "2", "y", "n", "ON", "Yes", "enabled", "tru", "onn", "-1",
    };
    const char *s = "on,off";

    for ( unsigned int i = 0; i < ARRAY_SIZE(yes); i++ )
        CHECK_EQ(parse_bool(yes[i], NULL), 1);
    for ( unsigned int i = 0; i < ARRAY_SIZE(no); i++ )
        CHECK_EQ(parse_bool(no[i], NULL), 0);
    for ( unsigned int i = 0; i < ARRAY_SIZE(bad); i++ )
        CHECK_EQ(parse_bool(bad[i], NULL), -1);

    /* With an explicit end. */
    CHECK_EQ(parse_bool(s, s + 2), 1);
    CHECK_EQ(parse_bool(s + 3, s + 6), 0);
    CHECK_EQ(parse_bool(s, s + 1), -1);         /* "o" */
    CHECK_EQ(parse_bool(s, s + 3), -1);         /* "on," */
}

static void test_parse_boolean(void)
{
    const char *list = "pml=0,ad,no-pml,ad=off,pmlx,pml=maybe";
    const char *e;

    CHECK_EQ(parse_boolean("pml", "pml", NULL), 1);
    CHECK_EQ(parse_boolean("pml", "no-pml", NULL), 0);
    CHECK_EQ(parse_boolean("pml", "pml=0", NULL), 0);
    CHECK_EQ(parse_boolean("pml", "pml=1", NULL), 1);
    CHECK_EQ(parse_boolean("pml", "pml=yes", NULL), 1);
    CHECK_EQ(parse_boolean("pml", "pml=off", NULL), 0);
    CHECK_EQ(parse_boolean("ad", "ad", NULL), 1);
    CHECK_EQ(parse_boolean("ad", "ad=0", NULL), 0);

    /* Tokens about something else, or malformed. */
    CHECK_EQ(parse_boolean("pml", "ad=0", NULL), -1);
    CHECK_EQ(parse_boolean("pml", "pmlx", NULL), -1);
    CHECK_EQ(parse_boolean("pml", "pm", NULL), -1);
    CHECK_EQ(parse_boolean("pml", "pml=maybe", NULL), -1);
    CHECK_EQ(parse_boolean("pml", "no-pml=1", NULL), -1);
    CHECK_EQ(parse_boolean("pml", "", NULL), -1);

    /* Walking a comma-separated list as a custom_param handler does. */
    e = list + 5;                                       /* "pml=0" */
    CHECK_EQ(parse_boolean("pml", list, e), 0);
    CHECK_EQ(parse_boolean("ad", list, e), -1);
    CHECK_EQ(parse_boolean("ad", list + 6, list + 8), 1);       /* "ad" */
    CHECK_EQ(parse_boolean("pml", list + 9, list + 15), 0);     /* "no-pml" */
    CHECK_EQ(parse_boolean("ad", list + 16, list + 22), 0);     /* "ad=off" */
    CHECK_EQ(parse_boolean("pml", list + 23, list + 27), -1);   /* "pmlx" */
    CHECK_EQ(parse_boolean("pml", list + 28, NULL), -1);        /* maybe */
    CHECK_EQ(parse_boolean("pml", list, list + 3), 1);  /* "pml" only */
}

static void test_printk_prefix(void)
{
    unsigned int level = 99;
    bool guest = true;

    CHECK_STR(printk_prefix(XENLOG_ERR "x", &level, &guest), "x");
    CHECK_EQ(level, XENLOG_LVL_ERR);
    CHECK(!guest);
    CHECK_STR(printk_prefix(XENLOG_G_INFO "y", &level, &guest), "y");
    CHECK_EQ(level, XENLOG_LVL_INFO);
    CHECK(guest);
    CHECK_STR(printk_prefix(XENLOG_GUEST "z", &level, &guest), "z");
    CHECK_EQ(level, XENLOG_DEFAULT);
    CHECK(guest);
    CHECK_STR(printk_prefix("plain", &level, &guest), "plain");
    CHECK_EQ(level, XENLOG_DEFAULT);
    CHECK(!guest);
    CHECK_STR(printk_prefix("<9>odd", &level, NULL), "<9>odd");
    CHECK_STR(printk_prefix(XENLOG_DEBUG, NULL, NULL), "");
}

void test_main(void)
{
    test_strtoul();
    test_size();
    test_parse_bool();
    test_parse_boolean();
    test_printk_prefix();
}

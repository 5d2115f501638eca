/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/common/kernel.c: the parameter macros, the .init.setup section and
 * the command-line parser.  The parameters below are real registrations;
 * setup.ld collects them between __setup_start and __setup_end.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/string.h>

#include "harness.h"

static bool opt_pml = true;
boolean_param("pml", opt_pml);

static int opt_flag = 5;                /* a boolean held in an int */
boolean_param("flag_int", opt_flag);

static unsigned int ple_gap = 128;
integer_param("ple_gap", ple_gap);

static unsigned int ple_window = 4096;
integer_param("ple_window", ple_window);

static int signed_val;
integer_param("signed-val", signed_val);

static unsigned long long_val;
integer_param("long_val", long_val);

static unsigned char small_val;
integer_param("small", small_val);

static unsigned long mem_size;
size_param("mem-size", mem_size);

static char console[8] = "com1";
string_param("console", console);

ignore_param("placeholder");


/* One name, two handlers: both must run. */
static unsigned int dup_a, dup_b;
static char dup_arg[16];

static int dup_first(const char *s)
{
    dup_a++;
    strlcpy(dup_arg, s, sizeof(dup_arg));
    return 0;
}
custom_param("dup", dup_first);

static int dup_second(const char *s)
{
    (void)s;
    dup_b++;
    return 0;
}
custom_param("dup", dup_second);

static int always_fails(const char *s)
{
    (void)s;
    return -EOPNOTSUPP;
}
custom_param("fails", always_fails);

#define NR_REGISTERED 13

static int parse(const char *cmdline)
{
    printk_reset();
    return cmdline_parse(cmdline);
}

static void test_section(void)
{
    CHECK_EQ(__setup_end - __setup_start, NR_REGISTERED);
    CHECK_EQ(parse(""), 0);
    CHECK_EQ(parse("   \t "), 0);
    CHECK_STR(printk_log, "");
}

static void test_booleans(void)
{
    CHECK_EQ(parse("pml=0"), 0);
    CHECK_EQ(opt_pml, false);
    CHECK_EQ(parse("pml"), 0);
    CHECK_EQ(opt_pml, true);
    CHECK_EQ(parse("no-pml"), 0);
    CHECK_EQ(opt_pml, false);
    CHECK_EQ(parse("pml=enable"), 0);
    CHECK_EQ(opt_pml, true);
    CHECK_EQ(parse("pml=off"), 0);
    CHECK_EQ(opt_pml, false);
    CHECK_EQ(parse("pml=true"), 0);
    CHECK_EQ(opt_pml, true);
    CHECK_EQ(parse("no-pml=0"), 0);         /* double negative */
    CHECK_EQ(opt_pml, true);
    CHECK_STR(printk_log, "");

    CHECK_EQ(parse("no-flag_int"), 0);
    CHECK_EQ(opt_flag, 0);
    CHECK_EQ(parse("flag-int"), 0);
    CHECK_EQ(opt_flag, 1);

    /* A bad boolean leaves the value alone. */
    opt_pml = true;
    CHECK_EQ(parse("pml=maybe"), -EINVAL);
    CHECK_EQ(opt_pml, true);
    CHECK_CONTAINS(printk_log,
                   XENLOG_ERR "parameter \"pml\" has invalid value \"maybe\", rc=-22!\n");
    CHECK_EQ(parse("pml="), -EINVAL);
    CHECK_EQ(opt_pml, true);
}

static void test_integers(void)
{
    CHECK_EQ(parse("ple_gap=0 ple_window=0x2000"), 0);
    CHECK_EQ(ple_gap, 0);
    CHECK_EQ(ple_window, 0x2000);
    CHECK_EQ(parse("ple_gap=010"), 0);      /* base 0: octal */
    CHECK_EQ(ple_gap, 8);
    CHECK_STR(printk_log, "");

    /* '-' and '_' are interchangeable in names, both ways. */
    CHECK_EQ(parse("ple-gap=64 signed_val=-5 long-val=0xffffffffffffffff"), 0);
    CHECK_EQ(ple_gap, 64);
    CHECK_EQ(signed_val, -5);
    CHECK_EQ(long_val, ~0UL);

    /* Trailing garbage, empty or missing values: rejected, unchanged. */
    CHECK_EQ(parse("ple_gap=12abc"), -EINVAL);
    CHECK_EQ(ple_gap, 64);
    CHECK_STR(printk_log,
              XENLOG_ERR "parameter \"ple_gap\" has invalid value \"12abc\", rc=-22!\n");
    CHECK_EQ(parse("ple_gap="), -EINVAL);
    CHECK_EQ(parse("ple_gap"), -EINVAL);
    CHECK_EQ(ple_gap, 64);
    CHECK_CONTAINS(printk_log, "parameter \"ple_gap\" has invalid value \"\"");

    /* "no-X" of an integer is X=0. */
    CHECK_EQ(parse("no-ple_gap"), 0);
    CHECK_EQ(ple_gap, 0);
    CHECK_EQ(parse("no-ple_gap=5"), -EINVAL);
    CHECK_EQ(ple_gap, 0);

    /* Width of the variable is respected. */
    CHECK_EQ(parse("small=255"), 0);
    CHECK_EQ(small_val, 255);
    CHECK_EQ(parse("small=256"), -EOVERFLOW);
    CHECK_EQ(small_val, 255);
    CHECK_CONTAINS(printk_log, "\"small\" has invalid value \"256\", rc=-75!");
    CHECK_EQ(parse("small=-1 small=7"), 0);
    CHECK_EQ(small_val, 7);
}

static void test_size_and_string(void)
{
    CHECK_EQ(parse("mem_size=16M"), 0);
    CHECK_EQ(mem_size, 16UL << 20);
    CHECK_EQ(parse("mem-size=4"), 0);
    CHECK_EQ(mem_size, 4096);
    CHECK_EQ(parse("mem-size=4X"), -EINVAL);
    CHECK_EQ(mem_size, 4096);

    CHECK_EQ(parse("console=vga"), 0);
    CHECK_STR(console, "vga");
    CHECK_EQ(parse("console=\"a b\" ple_gap=3"), 0);    /* quoted value */
    CHECK_STR(console, "a b");
    CHECK_EQ(ple_gap, 3);
    CHECK_EQ(parse("console=12345678"), -E2BIG);       /* does not fit */
    CHECK_STR(console, "a b");
    CHECK_EQ(parse("console=1234567"), 0);
    CHECK_STR(console, "1234567");
    CHECK_EQ(parse("console="), 0);
    CHECK_STR(console, "");
}

static void test_unknown_and_separator(void)
{
    /* Unknown: warned about, and the next option is still parsed. */
    CHECK_EQ(parse("bogus=1 ple_gap=7"), -EINVAL);
    CHECK_EQ(ple_gap, 7);
    CHECK_STR(printk_log, XENLOG_WARNING "parameter \"bogus\" unknown!\n");
    CHECK_EQ(parse("no-bogus"), -EINVAL);
    CHECK_CONTAINS(printk_log, "parameter \"no-bogus\" unknown!");
    CHECK_EQ(parse("ple_gapx=1"), -EINVAL);
    CHECK_EQ(parse("placeholder=whatever placeholder"), 0);
    CHECK_STR(printk_log, "");

    /* The last error is returned; all options are still applied. */
    CHECK_EQ(parse("small=999 bogus ple_gap=9"), -EINVAL);
    CHECK_EQ(ple_gap, 9);
    CHECK_EQ(parse("bogus small=999 ple_gap=10"), -EOVERFLOW);
    CHECK_EQ(ple_gap, 10);

    /* A standalone "--" ends the hypervisor's options. */
    CHECK_EQ(parse("ple_gap=1 -- ple_gap=2 bogus"), 0);
    CHECK_EQ(ple_gap, 1);
    CHECK_STR(printk_log, "");
    CHECK_EQ(parse("ple_gap=5 --"), 0);
    CHECK_EQ(ple_gap, 5);
    CHECK_EQ(parse("--ple_gap=6"), -EINVAL);   /* not a separator */
    CHECK_EQ(ple_gap, 5);

    /* Several spaces and tabs between options. */
    CHECK_EQ(parse("  ple_gap=11 \t  ple_window=12  "), 0);
    CHECK_EQ(ple_gap, 11);
    CHECK_EQ(ple_window, 12);
    CHECK_STR(saved_cmdline, "  ple_gap=11 \t  ple_window=12  ");
}

static void test_custom(void)
{
    /* Sub-option lists (ept=pml=0,ad=1) are tested on the real parser in
     * test_vmx_params.c. */

    /* The handler's own error code is reported and returned. */
    CHECK_EQ(parse("fails=1"), -EOPNOTSUPP);
    CHECK_STR(printk_log,
              XENLOG_ERR "parameter \"fails\" has invalid value \"1\", rc=-95!\n");

    /* Both handlers of one name run; "no-X" passes "no", "X" passes "". */
    dup_a = dup_b = 0;
    CHECK_EQ(parse("dup=x"), 0);
    CHECK_EQ(dup_a, 1);
    CHECK_EQ(dup_b, 1);
    CHECK_STR(dup_arg, "x");
    CHECK_EQ(parse("no-dup"), 0);
    CHECK_STR(dup_arg, "no");
    CHECK_EQ(parse("dup"), 0);
    CHECK_STR(dup_arg, "");
    CHECK_EQ(dup_a, 3);
    CHECK_EQ(dup_b, 3);
    CHECK_EQ(parse("no-dup=1"), -EINVAL);
    CHECK_EQ(dup_a, 3);
}

static void test_explicit_table(void)
{
    static unsigned int alpha = 1;
    static bool beta;
    static const struct kernel_param table[] = {
        { .name = "alpha", .type = OPT_UINT, .len = sizeof(alpha),
          .par.var = &alpha },
        { .name = "beta", .type = OPT_BOOL, .len = sizeof(beta),
          .par.var = &beta },
    };
    char longopt[400];

    printk_reset();
    CHECK_EQ(parse_params("alpha=3 beta", table, table + 2), 0);
    CHECK_EQ(alpha, 3);
    CHECK_EQ(beta, true);
    CHECK_EQ(parse_params("pml=0 alpha=4", table, table + 2), -EINVAL);
    CHECK_EQ(alpha, 4);
    CHECK_CONTAINS(printk_log, "parameter \"pml\" unknown!");
    CHECK_EQ(parse_params("alpha=5", table, table), -EINVAL);
    CHECK_EQ(alpha, 4);

    /* An option too long for the parser's buffer is reported, skipped. */
    memset(longopt, 'a', sizeof(longopt));
    memcpy(longopt, "alpha=", 6);
    memcpy(longopt + 300, " alpha=6", 9);
    printk_reset();
    CHECK_EQ(parse_params(longopt, table, table + 2), -E2BIG);
    CHECK_EQ(alpha, 6);
    CHECK_CONTAINS(printk_log, "is too long");
}

void test_main(void)
{
    test_section();
    test_booleans();
    test_integers();
    test_size_and_string();
    test_unknown_and_separator();
    test_custom();
    test_explicit_table();
}

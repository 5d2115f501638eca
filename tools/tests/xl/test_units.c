/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the toolstack's pure code, compiled from the real sources:
 * the xl.cfg parser (libxlutil), xl's configuration mapping (xl_parse.c),
 * the generated types' _init/_dispose/_to_json, enum strings, and xl's
 * command table.  Prints one line per failure and, last,
 * "units: N passed, N failed".
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_json.h>
#include <libxl_utils.h>
#include <libxlutil.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_utils.h"

static int passed, failed;

#define CHECK(cond, ...) do {                                           \
    if (cond) {                                                         \
        passed++;                                                       \
    } else {                                                            \
        failed++;                                                       \
        printf("FAIL %s:%d: ", __FILE__, __LINE__);                     \
        printf(__VA_ARGS__);                                            \
        printf("\n");                                                   \
    }                                                                   \
} while (0)

#define CHECK_STR(got, want) do {                                       \
    const char *g_ = (got), *w_ = (want);                               \
    CHECK(g_ && !strcmp(g_, w_), "%s:\n--- got ---\n%s\n--- want ---\n%s", \
          #got, g_ ? g_ : "(null)", w_);                                \
} while (0)

/* ---- helpers ------------------------------------------------------------------ */

/* Parse 'text' as file "t.cfg"; messages into *report (malloc'd). */
static FILE *report_stream;
static char *report_buf;
static size_t report_len;

static XLU_Config *parse_text(const char *text, int *err, char **report)
{
    XLU_Config *cfg;

    report_stream = open_memstream(&report_buf, &report_len);
    cfg = xlu_cfg_init(report_stream, "t.cfg");
    *err = xlu_cfg_readdata(cfg, text, (int)strlen(text));
    fflush(report_stream);
    *report = strdup(report_buf ? report_buf : "");
    return cfg;
}

/* The config reports to the stream until destroyed: then close it. */
static void parse_done(XLU_Config *cfg, char *report)
{
    xlu_cfg_destroy(cfg);
    fclose(report_stream);
    free(report_buf);
    report_buf = NULL;
    free(report);
}

/* Run fn with stderr captured; returns what it wrote (malloc'd). */
static char *capture_stderr(int (*fn)(void *), void *arg, int *ret)
{
    char path[] = "/tmp/xltestXXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    char *out;
    long n;
    FILE *f;

    fflush(stderr);
    dup2(fd, 2);
    *ret = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    f = fdopen(fd, "r");
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    out = calloc(1, n + 1);
    if (n > 0 && fread(out, 1, n, f) != (size_t)n)
        out[0] = 0;
    fclose(f);
    unlink(path);
    return out;
}

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;

    for (size_t i = 0; i < n; i++)
        if (c[i])
            return false;
    return true;
}

/* ---- the xl.cfg parser ------------------------------------------------------------ */

static void test_cfg_good(void)
{
    static const char text[] =
        "# a comment line\n"
        "name = \"guest\\t1\"   # trailing comment\n"
        "kernel='/boot/x\\n.elf'\n"
        "memory = 512; vcpus = 0x4\n"
        "\n"
        "extra = [ 'a',\n"
        "          \"b\", # inside a list\n"
        "          3,\n"
        "        ]\n"
        "empty = []\n"
        "extra += [ 'c' ]\n"
        "cmdline = \"x\"\n"
        "cmdline += \"y\"\n"
        "memory = 1024\n"
        "nested = [ [1, 2], 'z' ]\n"
        "octal = \"\\101\\x42\"\n";
    XLU_ConfigList *list;
    XLU_ConfigValue *v;
    const char *s;
    char *report, *copy = NULL;
    long l;
    int e, n;
    XLU_Config *cfg = parse_text(text, &e, &report);

    CHECK(e == 0, "good file parses (error %d, report: %s)", e, report);
    CHECK_STR(report, "");
    CHECK(!xlu_cfg_get_string(cfg, "name", &s, 0) && !strcmp(s, "guest\t1"),
          "double-quoted string with escape");
    CHECK(!xlu_cfg_get_string(cfg, "kernel", &s, 0) &&
          !strcmp(s, "/boot/x\\n.elf"), "single-quoted string is literal");
    CHECK(!xlu_cfg_get_long(cfg, "memory", &l, 0) && l == 1024,
          "the last setting of a key counts (memory=%ld)", l);
    CHECK(!xlu_cfg_get_long(cfg, "vcpus", &l, 0) && l == 4,
          "hex number after ';'");
    CHECK(!xlu_cfg_get_string(cfg, "vcpus", &s, 0) && !strcmp(s, "0x4"),
          "a number read as a string is its text");
    CHECK(!xlu_cfg_get_list(cfg, "extra", &list, &n, 0) && n == 4,
          "multi-line list with trailing comma, += appends (%d entries)", n);
    CHECK(n == 4 && !strcmp(xlu_cfg_get_listitem(list, 0), "a") &&
          !strcmp(xlu_cfg_get_listitem(list, 1), "b") &&
          !strcmp(xlu_cfg_get_listitem(list, 2), "3") &&
          !strcmp(xlu_cfg_get_listitem(list, 3), "c"), "list items");
    CHECK(xlu_cfg_get_listitem(list, 4) == NULL, "item out of range is NULL");
    CHECK(!xlu_cfg_get_list(cfg, "empty", NULL, &n, 0) && n == 0,
          "empty list");
    CHECK(!xlu_cfg_get_string(cfg, "cmdline", &s, 0) && !strcmp(s, "xy"),
          "+= appends to a string");
    CHECK(!xlu_cfg_get_list(cfg, "nested", &list, &n, 0) && n == 2,
          "nested list");
    v = xlu_cfg_get_listitem2(list, 0);
    CHECK(v && xlu_cfg_value_type(v) == XLU_LIST, "nested list item type");
    CHECK(xlu_cfg_get_listitem(list, 0) == NULL,
          "a list item that is a list has no string");
    CHECK(!xlu_cfg_get_string(cfg, "octal", &s, 0) && !strcmp(s, "AB"),
          "octal and hex escapes");
    CHECK(xlu_cfg_get_string(cfg, "nosuch", &s, 0) == ESRCH,
          "missing key is ESRCH");
    CHECK(!xlu_cfg_replace_string(cfg, "name", &copy, 0) && copy &&
          !strcmp(copy, "guest\t1"), "replace_string copies");
    free(copy);
    CHECK(xlu_cfg_get_bounded_long(cfg, "memory", 1, 100, &l, 1) == ERANGE,
          "bounded long out of range");
    parse_done(cfg, report);
}

struct err_case {
    const char *text;
    const char *report;
};

static void test_cfg_errors(void)
{
    static const struct err_case cases[] = {
        { "name = \"a\"\nmemory = 5\nvcpus = = 3\n",
          "t.cfg:3: config parsing error near `=': syntax error\n" },
        { "name = \"a\nmemory = 5\n",
          "t.cfg:1: config parsing error near `\"a': unterminated string\n" },
        { "memory = 5\nname = 'abc\n",
          "t.cfg:2: config parsing error near `'abc': unterminated string\n" },
        { "mem@ory = 5\n",
          "t.cfg:1: config parsing error near `@': lexical error\n" },
        { "name = \"a\"\nmemory =\n",
          "t.cfg:2: config parsing error near <newline>: syntax error\n" },
        { "disk = [ 'a'\n",
          "t.cfg:2: config parsing error near end of file: syntax error\n" },
        { "\n\ndisk = [ 1 2 ]\n",
          "t.cfg:3: config parsing error near `2': syntax error\n" },
        { "memory 5\n",
          "t.cfg:1: config parsing error near `5': syntax error\n" },
        { "= 5\n",
          "t.cfg:1: config parsing error near `=': syntax error\n" },
        { "name = \"a\" \"b\"\n",
          "t.cfg:1: config parsing error near `\"b\"': syntax error\n" },
        { "x = [ 1 ]\nx += 'y'\n",
          "t.cfg:2: config parsing error near `+=': cannot append a string "
          "to the list `x'\n" },
        /* every bad line is reported, each with its number */
        { "a = 1\nb = = 2\nc = 3\nd = 'x\ne = 5\n",
          "t.cfg:2: config parsing error near `=': syntax error\n"
          "t.cfg:4: config parsing error near `'x': unterminated string\n" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *report;
        int e;
        XLU_Config *cfg = parse_text(cases[i].text, &e, &report);

        CHECK(e == EINVAL, "error case %zu fails with EINVAL (got %d)", i, e);
        CHECK(!strcmp(report, cases[i].report),
              "error case %zu report:\n--- got ---\n%s--- want ---\n%s", i,
              report, cases[i].report);
        parse_done(cfg, report);
    }
}

static void test_cfg_warnings(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    XLU_Config *cfg = xlu_cfg_init(f, "w.cfg");
    static const char text[] = "memory = 'lots'\nvcpus = [1]\ndisk = 'x'\n";
    const char *s;
    long l;

    CHECK(!xlu_cfg_readdata(cfg, text, sizeof(text) - 1), "warnings file");
    CHECK(xlu_cfg_get_long(cfg, "memory", &l, 0) == EINVAL, "not a number");
    CHECK(xlu_cfg_get_string(cfg, "vcpus", &s, 0) == EINVAL, "list as value");
    CHECK(xlu_cfg_get_list(cfg, "disk", NULL, NULL, 0) == EINVAL,
          "value as list");
    CHECK(xlu_cfg_get_long(cfg, "memory", &l, 1) == EINVAL,
          "dont_warn: no message");
    fflush(f);
    CHECK_STR(buf,
              "w.cfg:1: warning: parameter `memory' is not a valid number\n"
              "w.cfg:2: warning: parameter `vcpus' is a list but should be a "
              "single value\n"
              "w.cfg:3: warning: parameter `disk' is a single value but "
              "should be a list\n");
    xlu_cfg_destroy(cfg);
    fclose(f);
    free(buf);
}

struct unused_seen {
    char text[256];
};

static void note_unused(void *opaque, const char *source, int lineno,
                        const char *name)
{
    struct unused_seen *u = opaque;
    size_t n = strlen(u->text);

    snprintf(u->text + n, sizeof(u->text) - n, "%s:%d:%s;", source, lineno,
             name);
}

static void test_cfg_sources_and_unused(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    XLU_Config *cfg = xlu_cfg_init(f, "u.cfg");
    struct unused_seen seen = { "" };
    static const char file[] = "name='a'\nfoo=1\nmemory=5\nbar=2\nfoo=3\n";
    static const char cmdline[] = "memory=7\nbaz='q'\n";
    static const char bad[] = "memory=\n";
    long l;
    int n;

    CHECK(!xlu_cfg_readdata(cfg, file, sizeof(file) - 1), "file");
    CHECK(!xlu_cfg_readdata_named(cfg, "command line", cmdline,
                                  sizeof(cmdline) - 1), "command line");
    CHECK(!xlu_cfg_get_long(cfg, "memory", &l, 0) && l == 7,
          "command line overrides the file");
    n = xlu_cfg_unused(cfg, note_unused, &seen);
    CHECK(n == 4, "unused settings counted (%d)", n);
    CHECK_STR(seen.text, "u.cfg:1:name;u.cfg:4:bar;u.cfg:5:foo;"
              "command line:2:baz;");
    CHECK(xlu_cfg_readdata_named(cfg, "command line", bad, sizeof(bad) - 1)
          == EINVAL, "bad command-line setting");
    fflush(f);
    CHECK_STR(buf, "command line:1: config parsing error near <newline>: "
              "syntax error\n");
    xlu_cfg_destroy(cfg);
    fclose(f);
    free(buf);
}

/* ---- xl's configuration mapping --------------------------------------------------- */

struct parse_args {
    const char *text;
    const char *extra;
    libxl_domain_config *d_config;
};

static int do_parse(void *p)
{
    struct parse_args *a = p;

    return parse_config_data("g.cfg", a->text, (int)strlen(a->text), a->extra,
                             a->d_config);
}

static char *parse_cfg(const char *text, const char *extra,
                       libxl_domain_config *d, int *ret)
{
    struct parse_args a = { text, extra, d };

    return capture_stderr(do_parse, &a, ret);
}

static void test_xl_parse(void)
{
    static const char good[] =
        "name = 'guest1'\n"
        "type = 'pvh'\n"
        "uuid = '5a1e0000-0000-4000-8000-000000000001'\n"
        "memory = 256\n"
        "maxmem = 512\n"
        "vcpus = 2\n"
        "maxvcpus = 4\n"
        "kernel = '/boot/guest.elf'\n"
        "extra = 'console=hvc0'\n"
        "on_crash = 'rename-restart'\n"
        "on_reboot = 'destroy'\n"
        "disk = [ 'phy:/dev/x,xvda,w' ]\n"
        "colour = 'blue'\n";
    libxl_domain_config d;
    char *err, uuid[40];
    int ret;

    libxl_domain_config_init(&d);
    err = parse_cfg(good, NULL, &d, &ret);
    CHECK(ret == 0, "good config parses (%s)", err);
    CHECK_STR(err,
              "g.cfg:12: warning: `disk' is not supported by this toolstack "
              "yet, ignored\n"
              "g.cfg:13: warning: unknown setting `colour', ignored\n");
    CHECK_STR(d.c_info.name, "guest1");
    CHECK(d.c_info.type == LIBXL_DOMAIN_TYPE_PVH &&
          d.b_info.type == LIBXL_DOMAIN_TYPE_PVH, "type pvh");
    snprintf(uuid, sizeof(uuid), LIBXL_UUID_FMT,
             LIBXL_UUID_BYTES(d.c_info.uuid));
    CHECK_STR(uuid, "5a1e0000-0000-4000-8000-000000000001");
    CHECK(d.b_info.target_memkb == 256 * 1024, "memory in KiB");
    CHECK(d.b_info.max_memkb == 512 * 1024, "maxmem in KiB");
    CHECK(d.b_info.max_vcpus == 4, "maxvcpus");
    CHECK(libxl_bitmap_count_set(&d.b_info.avail_vcpus) == 2 &&
          libxl_bitmap_test(&d.b_info.avail_vcpus, 1) &&
          !libxl_bitmap_test(&d.b_info.avail_vcpus, 2), "vcpus online");
    CHECK_STR(d.b_info.kernel, "/boot/guest.elf");
    CHECK_STR(d.b_info.cmdline, "console=hvc0");
    CHECK(d.on_crash == LIBXL_ACTION_ON_SHUTDOWN_RESTART_RENAME &&
          d.on_reboot == LIBXL_ACTION_ON_SHUTDOWN_DESTROY &&
          d.on_poweroff == LIBXL_ACTION_ON_SHUTDOWN_DESTROY &&
          d.on_soft_reset == LIBXL_ACTION_ON_SHUTDOWN_SOFT_RESET,
          "actions on shutdown");
    libxl_domain_config_dispose(&d);
    free(err);

    /* command-line overrides; the default type */
    libxl_domain_config_init(&d);
    err = parse_cfg("name='g'\nmemory=64\nkernel='k'\n", "memory=128\nvcpus=3\n",
                    &d, &ret);
    CHECK(ret == 0 && d.b_info.target_memkb == 128 * 1024 &&
          d.b_info.max_vcpus == 3, "key=value overrides (%s)", err);
    CHECK(d.c_info.type == LIBXL_DOMAIN_TYPE_PVH, "no type means pvh");
    CHECK(!libxl_uuid_is_nil(&d.c_info.uuid), "no uuid: a random one");
    libxl_domain_config_dispose(&d);
    free(err);

    static const struct { const char *text, *extra, *msg; } bad[] = {
        { "memory = 5\n", NULL, "Domain name must be specified.\n" },
        { "name='g'\non_crash='explode'\n", NULL,
          "Unknown on_crash \"explode\" specified\n" },
        { "name='g'\nmemory=512\nmaxmem=256\n", NULL,
          "maxmem (256 MB) must not be less than memory (512 MB).\n" },
        { "name='g'\nvcpus=4\nmaxvcpus=2\n", NULL,
          "maxvcpus (2) must not be less than vcpus (4).\n" },
        { "name='g'\ntype='xen'\n", NULL, "Invalid domain type xen.\n" },
        { "name='g'\nuuid='nope'\n", NULL, "Failed to parse UUID: nope\n" },
        { "name='g'\nvcpus=0\n", NULL,
          "g.cfg:2: warning: parameter `vcpus' 0 is out of range [1, 4096]\n" },
        { "name='g'\nmemory='big'\n", NULL,
          "g.cfg:2: warning: parameter `memory' is not a valid number\n" },
        { "name='g'\nmemory=1\n\nkernel = = 'x'\n", NULL,
          "g.cfg:4: config parsing error near `=': syntax error\n" },
        { "name='g'\n", "memory=\n",
          "command line:1: config parsing error near <newline>: "
          "syntax error\n" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        libxl_domain_config_init(&d);
        err = parse_cfg(bad[i].text, bad[i].extra, &d, &ret);
        CHECK(ret != 0, "bad config %zu is refused", i);
        CHECK(!strcmp(err, bad[i].msg),
              "bad config %zu message:\n--- got ---\n%s--- want ---\n%s", i,
              err, bad[i].msg);
        libxl_domain_config_dispose(&d);
        free(err);
    }
}

/* ---- generated types --------------------------------------------------------------- */

static void fill_dominfo(libxl_dominfo *a, libxl_dominfo *b)
{
    libxl_dominfo_init(a);
    a->domid = 0;
    a->running = true;
    a->current_memkb = a->max_memkb = 1048576;
    a->outstanding_memkb = a->shared_memkb = a->paged_memkb = 0;
    a->cpu_time = 41200000000ULL;
    a->vcpu_max_id = 1;
    a->vcpu_online = 2;
    a->gpaddr_bits = 36;
    a->domain_type = LIBXL_DOMAIN_TYPE_PVH;

    libxl_dominfo_init(b);
    libxl_uuid_from_string(&b->uuid, "5a1e0000-0000-4000-8000-000000000005");
    b->domid = 5;
    b->paused = b->shutdown = true;
    b->shutdown_reason = LIBXL_SHUTDOWN_REASON_CRASH;
    b->ssid_label = strdup("system_u:system_r:domU_t");
    b->current_memkb = 131072;
    b->max_memkb = 18446744073709551614ULL;     /* > 2^63: unsigned */
    b->cpu_time = 900000000;
    b->vcpu_online = 1;
    b->domain_type = LIBXL_DOMAIN_TYPE_HVM;
}

static const char dominfo0_json[] =
    "{\n"
    "    \"running\": true,\n"
    "    \"outstanding_memkb\": 0,\n"
    "    \"current_memkb\": 1048576,\n"
    "    \"shared_memkb\": 0,\n"
    "    \"paged_memkb\": 0,\n"
    "    \"max_memkb\": 1048576,\n"
    "    \"cpu_time\": 41200000000,\n"
    "    \"vcpu_max_id\": 1,\n"
    "    \"vcpu_online\": 2,\n"
    "    \"gpaddr_bits\": 36,\n"
    "    \"domain_type\": \"pvh\"\n"
    "}\n";

static const char dominfo5_json[] =
    "{\n"
    "    \"uuid\": \"5a1e0000-0000-4000-8000-000000000005\",\n"
    "    \"domid\": 5,\n"
    "    \"ssid_label\": \"system_u:system_r:domU_t\",\n"
    "    \"paused\": true,\n"
    "    \"shutdown\": true,\n"
    "    \"shutdown_reason\": \"crash\",\n"
    "    \"current_memkb\": 131072,\n"
    "    \"max_memkb\": 18446744073709551614,\n"
    "    \"cpu_time\": 900000000,\n"
    "    \"vcpu_online\": 1,\n"
    "    \"domain_type\": \"hvm\"\n"
    "}\n";

static void test_json_dominfo(void)
{
    libxl_dominfo list[2];
    const unsigned char *buf;
    size_t len;
    char *s;
    yajl_gen hand;

    fill_dominfo(&list[0], &list[1]);
    s = libxl_dominfo_to_json(NULL, &list[0]);
    CHECK_STR(s, dominfo0_json);
    free(s);
    s = libxl_dominfo_to_json(NULL, &list[1]);
    CHECK_STR(s, dominfo5_json);
    free(s);

    /* a list of them, as one JSON array */
    hand = libxl_yajl_gen_alloc(NULL);
    yajl_gen_array_open(hand);
    for (int i = 0; i < 2; i++)
        CHECK(libxl_dominfo_gen_json(hand, &list[i]) == yajl_gen_status_ok,
              "gen_json %d", i);
    yajl_gen_array_close(hand);
    yajl_gen_get_buf(hand, &buf, &len);
    CHECK_STR((const char *)buf,
              "[\n"
              "    {\n"
              "        \"running\": true,\n"
              "        \"outstanding_memkb\": 0,\n"
              "        \"current_memkb\": 1048576,\n"
              "        \"shared_memkb\": 0,\n"
              "        \"paged_memkb\": 0,\n"
              "        \"max_memkb\": 1048576,\n"
              "        \"cpu_time\": 41200000000,\n"
              "        \"vcpu_max_id\": 1,\n"
              "        \"vcpu_online\": 2,\n"
              "        \"gpaddr_bits\": 36,\n"
              "        \"domain_type\": \"pvh\"\n"
              "    },\n"
              "    {\n"
              "        \"uuid\": \"5a1e0000-0000-4000-8000-000000000005\",\n"
              "        \"domid\": 5,\n"
              "        \"ssid_label\": \"system_u:system_r:domU_t\",\n"
              "        \"paused\": true,\n"
              "        \"shutdown\": true,\n"
              "        \"shutdown_reason\": \"crash\",\n"
              "        \"current_memkb\": 131072,\n"
              "        \"max_memkb\": 18446744073709551614,\n"
              "        \"cpu_time\": 900000000,\n"
              "        \"vcpu_online\": 1,\n"
              "        \"domain_type\": \"hvm\"\n"
              "    }\n"
              "]\n");
    yajl_gen_free(hand);

    /* a fresh dominfo has nothing but defaults: an empty object */
    libxl_dominfo_dispose(&list[0]);
    libxl_dominfo_init(&list[0]);
    s = libxl_dominfo_to_json(NULL, &list[0]);
    CHECK_STR(s, "{\n\n}\n");     /* yajl's empty object */
    free(s);
    libxl_dominfo_dispose(&list[0]);
    libxl_dominfo_dispose(&list[1]);
}

/*
 * _copy is deep: every array, string, bitmap and keyed-union member of
 * the copy is its own, and its JSON is the original's after the original
 * is gone (ASan, when the suite has it, sees any sharing or leak).
 */
static void test_copy_config(void)
{
    libxl_domain_config d, c;
    char *before, *after;

    libxl_domain_config_init(&d);
    d.c_info.type = LIBXL_DOMAIN_TYPE_PVH;
    d.c_info.name = strdup("g");
    libxl_domain_build_info_init_type(&d.b_info, LIBXL_DOMAIN_TYPE_PVH);
    d.b_info.u.pvh.pvshim_cmdline = strdup("loglvl=all");
    d.b_info.num_vcpu_hard_affinity = 2;
    d.b_info.vcpu_hard_affinity = calloc(2, sizeof(libxl_bitmap));
    for (int i = 0; i < 2; i++) {
        libxl_bitmap_init(&d.b_info.vcpu_hard_affinity[i]);
        libxl_bitmap_alloc(NULL, &d.b_info.vcpu_hard_affinity[i], 8);
        libxl_bitmap_set(&d.b_info.vcpu_hard_affinity[i], i + 3);
    }
    d.b_info.num_irqs = 1;
    d.b_info.irqs = calloc(1, sizeof(uint32_t));
    d.b_info.irqs[0] = 7;
    d.num_disks = 1;
    d.disks = calloc(1, sizeof(*d.disks));
    libxl_device_disk_init(&d.disks[0]);
    d.disks[0].vdev = strdup("xvda");
    d.disks[0].pdev_path = strdup("/dev/vg/g");
    d.num_nics = 1;
    d.nics = calloc(1, sizeof(*d.nics));
    libxl_device_nic_init(&d.nics[0]);
    CHECK(d.nics[0].devid == -1, "libxl_devid starts at -1 (Xen's)");
    d.nics[0].mac[0] = 0x00;
    d.nics[0].mac[1] = 0x16;
    d.nics[0].mac[2] = 0x3e;
    d.nics[0].mac[5] = 0x01;
    d.nics[0].bridge = strdup("xenbr0");
    d.num_channels = 1;
    d.channels = calloc(1, sizeof(*d.channels));
    libxl_device_channel_init(&d.channels[0]);
    libxl_device_channel_init_connection(&d.channels[0],
                                         LIBXL_CHANNEL_CONNECTION_SOCKET);
    d.channels[0].u.socket.path = strdup("/run/ch");

    before = libxl_domain_config_to_json(NULL, &d);

    /* _from_json reads back what _to_json wrote, every kind of field. */
    {
        libxl_domain_config r;
        char *again;

        libxl_domain_config_init(&r);
        CHECK(libxl_domain_config_from_json(NULL, &r, before) == 0,
              "from_json of to_json");
        again = libxl_domain_config_to_json(NULL, &r);
        CHECK(again && before, "round trip written");
        if (again && before)
            CHECK_STR(again, before);
        CHECK(r.nics && r.nics[0].mac[1] == 0x16 && r.nics[0].devid == -1 &&
              r.b_info.type == LIBXL_DOMAIN_TYPE_PVH &&
              r.channels[0].connection == LIBXL_CHANNEL_CONNECTION_SOCKET &&
              libxl_bitmap_test(&r.b_info.vcpu_hard_affinity[1], 4),
              "values read back");
        free(again);
        libxl_domain_config_dispose(&r);

        libxl_domain_config_init(&r);
        CHECK(libxl_domain_config_from_json(NULL, &r, "{\"b_info\": {"
              "\"type.pvh\": {}, \"type.hvm\": {}}}") == ERROR_FAIL,
              "two members of a keyed union");
        libxl_domain_config_dispose(&r);
        libxl_domain_config_init(&r);
        CHECK(libxl_domain_config_from_json(NULL, &r, "{\"c_info\": "
              "{\"name\": 5}}") == ERROR_FAIL, "a number for a string");
        CHECK(libxl_domain_config_from_json(NULL, &r, "{\"on_crash\": "
              "\"explode\"}") == ERROR_FAIL, "an unknown enum value");
        CHECK(libxl_domain_config_from_json(NULL, &r, "{\"b_info\": "
              "{\"max_memkb\": 18446744073709551615}}") == 0 &&
              r.b_info.max_memkb == UINT64_MAX, "a uint64 beyond LLONG_MAX");
        CHECK(libxl_domain_config_from_json(NULL, &r, "{") == ERROR_FAIL,
              "not JSON");
        libxl_domain_config_dispose(&r);
    }
    {
        libxl_action_on_shutdown a = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;

        CHECK(libxl_action_on_shutdown_from_json(NULL, &a, "\"preserve\"")
              == 0 && a == LIBXL_ACTION_ON_SHUTDOWN_PRESERVE, "enum from_json");
    }

    libxl_domain_config_copy(NULL, &c, &d);
    CHECK(c.disks != d.disks && c.disks[0].vdev != d.disks[0].vdev &&
          c.b_info.vcpu_hard_affinity[1].map !=
              d.b_info.vcpu_hard_affinity[1].map &&
          c.channels[0].u.socket.path != d.channels[0].u.socket.path,
          "the copy shares nothing");
    libxl_domain_config_dispose(&d);
    after = libxl_domain_config_to_json(NULL, &c);
    CHECK(before && after, "both written");
    if (before && after)
        CHECK_STR(after, before);
    CHECK(before && strstr(before, "\"mac\": \"00:16:3e:00:00:01\""),
          "a MAC as Xen writes it");
    free(before);
    free(after);
    libxl_domain_config_dispose(&c);
}

/* CPU and node maps as Xen's xl prints them (xl list -n, vcpu-list). */
static void test_print_bitmap(void)
{
    static const struct {
        uint8_t map[2];
        int len;
        const char *want;
    } cases[] = {
        { { 0x00, 0x00 }, 16, "none" },
        { { 0x01, 0x00 }, 1, "all" },
        { { 0xff, 0xff }, 16, "all" },
        { { 0x0f, 0x00 }, 16, "0-3" },
        { { 0x8f, 0x01 }, 16, "0-3,7-8" },
        { { 0x2a, 0x80 }, 16, "1,3,5,15" },
        { { 0xfe, 0xff }, 16, "1-15" },
        { { 0xff, 0x01 }, 12, "0-8" },
    };

    for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char buf[64] = "";
        FILE *f = fmemopen(buf, sizeof(buf), "w");

        print_bitmap(cases[i].map, cases[i].len, f);
        fclose(f);
        CHECK_STR(buf, cases[i].want);
    }
}

static void test_json_config(void)
{
    libxl_domain_config d;
    char *s;

    libxl_domain_config_init(&d);
    d.c_info.type = LIBXL_DOMAIN_TYPE_PVH;
    d.c_info.name = strdup("g");
    libxl_defbool_set(&d.c_info.hap, true);
    libxl_domain_build_info_init_type(&d.b_info, LIBXL_DOMAIN_TYPE_PVH);
    d.b_info.max_vcpus = 2;
    libxl_bitmap_alloc(NULL, &d.b_info.avail_vcpus, 2);
    libxl_bitmap_set(&d.b_info.avail_vcpus, 0);
    libxl_bitmap_set(&d.b_info.avail_vcpus, 1);
    d.b_info.target_memkb = d.b_info.max_memkb = 65536;
    d.b_info.kernel = strdup("/k");
    d.b_info.extra = calloc(3, sizeof(char *));
    d.b_info.extra[0] = strdup("x");
    d.b_info.extra[1] = strdup("y");
    d.on_reboot = LIBXL_ACTION_ON_SHUTDOWN_RESTART;
    s = libxl_domain_config_to_json(NULL, &d);
    CHECK_STR(s,
              "{\n"
              "    \"c_info\": {\n"
              "        \"type\": \"pvh\",\n"
              "        \"hap\": \"True\",\n"
              "        \"name\": \"g\"\n"
              "    },\n"
              "    \"b_info\": {\n"
              "        \"max_vcpus\": 2,\n"
              "        \"avail_vcpus\": [\n"
              "            0,\n"
              "            1\n"
              "        ],\n"
              "        \"max_memkb\": 65536,\n"
              "        \"target_memkb\": 65536,\n"
              "        \"extra\": [\n"
              "            \"x\",\n"
              "            \"y\"\n"
              "        ],\n"
              "        \"sched_params\": {\n"
              "\n"
              "        },\n"
              "        \"kernel\": \"/k\",\n"
              "        \"type.pvh\": {\n"
              "\n"
              "        },\n"
              "        \"arch_arm\": {\n"
              "\n"
              "        },\n"
              "        \"arch_x86\": {\n"
              "\n"
              "        }\n"
              "    },\n"
              "    \"on_reboot\": \"restart\"\n"
              "}\n");
    free(s);
    libxl_domain_config_dispose(&d);
}

/*
 * Defbools print as Xen's "<default>", "False", "True"; a field still at
 * its default is left out of a struct's JSON (test_json_config).
 */
static void test_json_defbool(void)
{
    libxl_defbool b;
    yajl_gen hand = libxl_yajl_gen_alloc(NULL);
    const unsigned char *buf;
    size_t len;

    libxl_defbool_unset(&b);
    yajl_gen_array_open(hand);
    libxl_defbool_gen_json(hand, &b);
    libxl_defbool_set(&b, false);
    libxl_defbool_gen_json(hand, &b);
    libxl_defbool_set(&b, true);
    libxl_defbool_gen_json(hand, &b);
    yajl_gen_array_close(hand);
    yajl_gen_get_buf(hand, &buf, &len);
    CHECK_STR((const char *)buf, "[\n    \"<default>\",\n    \"False\",\n"
              "    \"True\"\n]\n");
    yajl_gen_free(hand);
    CHECK(libxl_defbool_val(b), "defbool val");
    libxl_defbool_unset(&b);
    libxl_defbool_setdefault(&b, false);
    CHECK(!libxl_defbool_val(b) && !libxl_defbool_is_default(b),
          "setdefault on a default defbool sets it");
    libxl_defbool_setdefault(&b, true);
    CHECK(!libxl_defbool_val(b), "setdefault leaves a set defbool");
}

static void test_enums(void)
{
    libxl_shutdown_reason r;
    libxl_domain_type t;
    libxl_action_on_shutdown a;
    libxl_error e;
    char *s;

    CHECK_STR(libxl_shutdown_reason_to_string(LIBXL_SHUTDOWN_REASON_SOFT_RESET),
              "soft_reset");
    CHECK(libxl_shutdown_reason_to_string(42) == NULL, "unknown value");
    CHECK(!libxl_domain_type_from_string("PVH", &t) &&
          t == LIBXL_DOMAIN_TYPE_PVH, "from_string is case-insensitive");
    CHECK(libxl_domain_type_from_string("xen", &t) == ERROR_FAIL,
          "unknown string");
    CHECK(!libxl_action_on_shutdown_from_string("coredump_restart", &a) &&
          a == LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_RESTART, "action");
    CHECK(!libxl_shutdown_reason_from_string("watchdog", &r) &&
          r == LIBXL_SHUTDOWN_REASON_WATCHDOG, "reason");
    CHECK(ERROR_FAIL == -3 && ERROR_NI == -4 && ERROR_INVAL == -6 &&
          ERROR_DOMAIN_NOTFOUND == -21 && ERROR_QEMU_API == -32,
          "Xen's error values");
    CHECK(!libxl_error_from_string("domain_notfound", &e) &&
          e == ERROR_DOMAIN_NOTFOUND, "error from string");
    CHECK_STR(libxl_error_to_string(ERROR_NI), "ni");
    s = libxl_domain_type_to_json(NULL, LIBXL_DOMAIN_TYPE_HVM);
    CHECK_STR(s, "\"hvm\"\n");
    free(s);
    CHECK(!strcmp(libxl_domain_type_string_table[0].s, "invalid") &&
          libxl_domain_type_string_table[4].s == NULL &&
          libxl_domain_type_string_table[4].v == -1,
          "string table ends with { NULL, -1 }");
    CHECK_STR(libxl_dirty_mechanism_to_string(LIBXL_DIRTY_MECHANISM_PML),
              "pml");
}

static void test_init_dispose(void)
{
    libxl_domain_config d;
    libxl_dirty_stats st;
    libxl_physinfo pi;
    libxl_dominfo di;

    /* defaults */
    libxl_domain_config_init(&d);
    CHECK(d.c_info.type == LIBXL_DOMAIN_TYPE_INVALID &&
          d.b_info.type == LIBXL_DOMAIN_TYPE_INVALID, "types invalid");
    CHECK(d.b_info.max_memkb == LIBXL_MEMKB_DEFAULT &&
          d.b_info.target_memkb == LIBXL_MEMKB_DEFAULT &&
          d.b_info.max_grant_frames == LIBXL_MAX_GRANT_DEFAULT,
          "memkb and grant defaults");
    CHECK(d.on_poweroff == LIBXL_ACTION_ON_SHUTDOWN_DESTROY &&
          d.on_crash == LIBXL_ACTION_ON_SHUTDOWN_DESTROY, "action defaults");
    CHECK(libxl_defbool_is_default(d.c_info.hap), "defbool default");

    /* fill with owned memory, dispose, dispose again, init again */
    libxl_domain_build_info_init_type(&d.b_info, LIBXL_DOMAIN_TYPE_PV);
    CHECK(d.b_info.u.pv.slack_memkb == LIBXL_MEMKB_DEFAULT,
          "init_type initialises the union member");
    d.c_info.name = strdup("x");
    d.c_info.xsdata = calloc(3, sizeof(char *));
    d.c_info.xsdata[0] = strdup("k");
    d.c_info.xsdata[1] = strdup("v");
    d.b_info.kernel = strdup("k");
    d.b_info.u.pv.bootloader = strdup("pygrub");
    libxl_bitmap_alloc(NULL, &d.b_info.avail_vcpus, 64);
    libxl_domain_config_dispose(&d);
    CHECK(all_zero(&d, sizeof(d)), "dispose leaves the struct zeroed");
    libxl_domain_config_dispose(&d);
    CHECK(all_zero(&d, sizeof(d)), "dispose is idempotent");
    libxl_domain_config_init(&d);
    CHECK(d.b_info.max_memkb == LIBXL_MEMKB_DEFAULT, "init after dispose");
    libxl_domain_build_info_init_type(&d.b_info, LIBXL_DOMAIN_TYPE_PVH);
    d.b_info.u.pvh.pvshim_path = strdup("/shim");
    libxl_domain_config_dispose(&d);
    CHECK(all_zero(&d, sizeof(d)), "pvh member disposed");

    /* arrays of structs (this project's dirty stats) */
    libxl_dirty_stats_init(&st);
    CHECK(st.num_vcpus == 0 && !st.vcpus &&
          st.mechanism == LIBXL_DIRTY_MECHANISM_NONE, "dirty stats init");
    st.num_vcpus = 2;
    st.vcpus = calloc(2, sizeof(*st.vcpus));
    libxl_dirty_vcpu_stats_init(&st.vcpus[0]);
    libxl_dirty_vcpu_stats_init(&st.vcpus[1]);
    st.vcpus[1].vcpuid = 1;
    st.vcpus[1].pages_dirtied = 7;
    st.logdirty = true;
    st.mechanism = LIBXL_DIRTY_MECHANISM_WP;
    char *s = libxl_dirty_stats_to_json(NULL, &st);
    CHECK_STR(s, "{\n"
              "    \"logdirty\": true,\n"
              "    \"mechanism\": \"wp\",\n"
              "    \"vcpus\": [\n"
              "        {\n"
              "\n"
              "        },\n"
              "        {\n"
              "            \"vcpuid\": 1,\n"
              "            \"pages_dirtied\": 7\n"
              "        }\n"
              "    ]\n"
              "}\n");
    free(s);
    libxl_dirty_stats_dispose(&st);
    CHECK(all_zero(&st, sizeof(st)), "dirty stats disposed");

    libxl_physinfo_init(&pi);
    pi.hw_cap[7] = 1;
    pi.cap_hap = true;
    s = libxl_physinfo_to_json(NULL, &pi);
    CHECK_STR(s, "{\n    \"hw_cap\": [\n        0,\n        0,\n        0,\n"
              "        0,\n        0,\n        0,\n        0,\n        1\n"
              "    ],\n    \"cap_hap\": true\n}\n");
    free(s);
    libxl_physinfo_dispose(&pi);

    libxl_dominfo_init(&di);
    di.ssid_label = strdup("l");
    libxl_dominfo_dispose(&di);
    libxl_dominfo_list_free(NULL, 0);
    CHECK(!di.ssid_label, "dominfo disposed");
}

static void test_utils(void)
{
    libxl_uuid u, v;
    libxl_bitmap b;
    libxl_string_list sl = NULL, sl2 = NULL;
    char buf[40];

    CHECK(!libxl_uuid_from_string(&u, "00112233-4455-6677-8899-AABBCCDDEEFF"),
          "uuid parses");
    snprintf(buf, sizeof(buf), LIBXL_UUID_FMT, LIBXL_UUID_BYTES(u));
    CHECK_STR(buf, "00112233-4455-6677-8899-aabbccddeeff");
    CHECK(libxl_uuid_from_string(&v, "00112233-4455-6677-8899-AABBCCDDEEF") ==
          ERROR_INVAL, "short uuid");
    CHECK(libxl_uuid_from_string(&v, "0011223344-55-6677-8899-AABBCCDDEEFF") ==
          ERROR_INVAL, "misplaced dash");
    libxl_uuid_generate(&v);
    CHECK((v.uuid[6] >> 4) == 4 && (v.uuid[8] & 0xc0) == 0x80,
          "generated uuid is version 4");
    libxl_uuid_copy(NULL, &v, &u);
    CHECK(!libxl_uuid_compare(&u, &v), "copy");

    libxl_bitmap_init(&b);
    CHECK(libxl_bitmap_is_empty(&b), "empty bitmap");
    libxl_bitmap_alloc(NULL, &b, 20);
    CHECK(b.size == 3, "bitmap bytes");
    libxl_bitmap_set(&b, 19);
    libxl_bitmap_set(&b, 100);      /* out of range: ignored */
    CHECK(libxl_bitmap_test(&b, 19) && !libxl_bitmap_test(&b, 100) &&
          libxl_bitmap_count_set(&b) == 1, "bitmap set/test");
    libxl_bitmap_reset(&b, 19);
    CHECK(libxl_bitmap_is_empty(&b), "bitmap reset");
    libxl_bitmap_dispose(&b);

    sl = calloc(3, sizeof(char *));
    sl[0] = strdup("a");
    sl[1] = strdup("b");
    CHECK(libxl_string_list_length(&sl) == 2, "string list length");
    libxl_string_list_copy(NULL, &sl2, &sl);
    CHECK(libxl_string_list_length(&sl2) == 2 && !strcmp(sl2[1], "b"),
          "string list copy");
    libxl_string_list_dispose(&sl);
    libxl_string_list_dispose(&sl2);
    CHECK(!sl && !sl2, "string list dispose");
}

/* ---- xl's command table -------------------------------------------------------------- */

static void test_cmdtable(void)
{
    const struct cmd_spec *m[16];

    CHECK(cmdtable_lookup("list") &&
          !strcmp(cmdtable_lookup("list")->cmd_name, "list"), "exact");
    CHECK(cmdtable_lookup("li") &&
          !strcmp(cmdtable_lookup("li")->cmd_name, "list"), "xl li = list");
    CHECK(cmdtable_lookup("d") == NULL, "xl d is ambiguous");
    CHECK(cmdtable_matches("d", m, 16) == 6, "d matches six commands");
    CHECK(cmdtable_lookup("dom") == NULL, "dom is ambiguous");
    CHECK(cmdtable_lookup("domid") &&
          cmdtable_lookup("domid")->cmd_impl == main_domid, "domid exact");
    CHECK(cmdtable_lookup("l") == NULL, "l: list or log-dirty");
    CHECK(cmdtable_lookup("lo") &&
          cmdtable_lookup("lo")->cmd_impl == main_logdirty, "lo = log-dirty");
    CHECK(cmdtable_lookup("dir") &&
          cmdtable_lookup("dir")->cmd_impl == main_dirtyrate,
          "dir = dirty-rate");
    CHECK(cmdtable_lookup("v") == NULL, "v: vcpu-list or vram-track");
    CHECK(cmdtable_lookup("vr") &&
          cmdtable_lookup("vr")->cmd_impl == main_vramtrack, "vr = vram-track");
    CHECK(cmdtable_lookup("vc") &&
          cmdtable_lookup("vc")->cmd_impl == main_vcpulist, "vc = vcpu-list");
    CHECK(cmdtable_lookup("nosuch") == NULL, "unknown");
    CHECK(cmdtable_lookup("") == NULL, "empty");
    CHECK(cmdtable_lookup("listx") == NULL, "longer than a command");
    for (int i = 0; i < cmdtable_len; i++)
        CHECK(cmd_table[i].cmd_impl && cmd_table[i].cmd_desc &&
              cmd_table[i].cmd_usage, "entry %s complete",
              cmd_table[i].cmd_name);
    CHECK(cmdtable_lookup("create")->can_dryrun &&
          !cmdtable_lookup("list")->can_dryrun &&
          cmdtable_lookup("pause")->modifies &&
          !cmdtable_lookup("info")->modifies, "can_dryrun and modifies");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_cfg_good();
    test_cfg_errors();
    test_cfg_warnings();
    test_cfg_sources_and_unused();
    test_xl_parse();
    test_json_dominfo();
    test_json_config();
    test_copy_config();
    test_print_bitmap();
    test_json_defbool();
    test_enums();
    test_init_dispose();
    test_utils();
    test_cmdtable();
    printf("units: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

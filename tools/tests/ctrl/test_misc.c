/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening and closing, the host calls (version, physinfo, console ring),
 * hypercall buffers, libxencall itself, the stdio logger, error reporting,
 * and the Linux link check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xencall.h>

#include "harness.h"
#include <xen/sys/privcmd.h>

static void test_open_close(void)
{
    xc_interface *xch;

    /* No hypervisor interface: NULL, errno kept, the reason logged. */
    memset(captured(), 0, sizeof(*captured()));
    fake_fail("open", 0, ENOENT);
    errno = 0;
    xch = xc_interface_open(capture_logger(), NULL, 0);
    CHECK(!xch && errno == ENOENT, "open: %p errno %d, expected NULL ENOENT",
          (void *)xch, errno);
    CHECK(captured()->count >= 1 &&
          strstr(captured()->last, "xencall: error:") &&
          strstr(captured()->last, strerror(ENOENT)),
          "nothing useful logged: \"%s\"", captured()->last);
    fake_fail_clear();

    /* XC_OPENFLAG_DUMMY: a handle, but no hypercalls. */
    xch = xc_interface_open(capture_logger(), NULL, XC_OPENFLAG_DUMMY);
    CHECK(xch, "DUMMY open failed");
    if ( xch )
    {
        fake_answer(fake_answer_zero);
        CHECK_ERRNO(xc_domain_pause(xch, 1), EBADF, "pause on a DUMMY handle");
        CHECK(fake_nr_calls == 0, "DUMMY handle made a hypercall");
        CHECK(xc_interface_close(xch) == 0, "DUMMY close failed");
    }

    xch = open_xch(NULL);
    CHECK(xc_interface_xcall_handle(xch) && xc_interface_dmod_handle(xch),
          "no xencall / devicemodel handle");
    close_xch(xch);
    CHECK(xc_interface_close(NULL) == 0, "close(NULL)");
}

static long version_answer(struct fake_call *c, void *live)
{
    switch ( c->arg[0] )
    {
    case XENVER_version:
        return (4 << 16) | 17;
    case XENVER_extraversion:
        if ( !live || !c->arg_safe )
            return -EFAULT;
        strcpy(live, ".0-pml");
        return 0;
    case XENVER_get_features:
    {
        xen_feature_info_t *fi = live;

        fi->submap = fi->submap_idx == 0 ? 0x1234 : 0;
        return 0;
    }
    }
    return -ENOSYS;
}

static void test_version(void)
{
    xc_interface *xch = open_xch(version_answer);
    xen_extraversion_t extra;
    xen_feature_info_t fi = { .submap_idx = 0 };
    int v;

    v = xc_version(xch, XENVER_version, NULL);
    CHECK(v == ((4 << 16) | 17), "version %#x", v);
    CHECK(CALL(0)->op == __HYPERVISOR_xen_version &&
          CALL(0)->arg[0] == XENVER_version && CALL(0)->arg[1] == 0,
          "xen_version(%lu, %#lx)", (unsigned long)CALL(0)->arg[0],
          (unsigned long)CALL(0)->arg[1]);

    fake_answer(version_answer);
    CHECK(xc_version(xch, XENVER_extraversion, extra) == 0 &&
          !strcmp(extra, ".0-pml"), "extraversion \"%.16s\"", extra);
    CHECK(CALL(0)->arg[1] && (void *)(uintptr_t)CALL(0)->arg[1] != extra,
          "extraversion not bounced");

    fake_answer(version_answer);
    CHECK(xc_version(xch, XENVER_get_features, &fi) == 0 &&
          fi.submap == 0x1234, "get_features submap %#x", fi.submap);

    fake_answer(version_answer);
    CHECK_ERRNO(xc_version(xch, 12345, NULL), EINVAL, "unknown command");
    CHECK(fake_nr_calls == 0, "unknown command reached the hypervisor");
    CHECK(xc_get_last_error(xch)->code == XC_INTERNAL_ERROR &&
          strstr(xc_get_last_error(xch)->message, "12345"),
          "last error \"%s\"", xc_get_last_error(xch)->message);
    xc_clear_last_error(xch);
    CHECK(xc_get_last_error(xch)->code == XC_ERROR_NONE, "not cleared");
    close_xch(xch);
}

static long physinfo_answer(struct fake_call *c, void *live)
{
    struct xen_sysctl *s = live;

    (void)c;
    s->u.physinfo.nr_cpus = 2;
    s->u.physinfo.max_cpu_id = 1;
    s->u.physinfo.cpu_khz = 4000;
    s->u.physinfo.total_pages = 65536;
    s->u.physinfo.free_pages = 1000;
    s->u.physinfo.capabilities = XEN_SYSCTL_PHYSCAP_hvm;
    return 0;
}

static void test_physinfo(void)
{
    xc_interface *xch = open_xch(physinfo_answer);
    xc_physinfo_t pi;

    memset(&pi, 0, sizeof(pi));
    CHECK(xc_physinfo(xch, &pi) == 0, "failed");
    CHECK_SYSCTL(CALL(0), XEN_SYSCTL_physinfo);
    CHECK(all_zero(&CALL(0)->sysctl.u, sizeof(CALL(0)->sysctl.u)),
          "sysctl.u not zero");
    CHECK(pi.nr_cpus == 2 && pi.max_cpu_id == 1 && pi.cpu_khz == 4000 &&
          pi.total_pages == 65536 && pi.free_pages == 1000 &&
          pi.capabilities == XEN_SYSCTL_PHYSCAP_hvm, "physinfo not copied");
    close_xch(xch);
}

static long console_answer(struct fake_call *c, void *live)
{
    struct xen_sysctl *s = live;
    struct xen_sysctl_readconsole *rc = &s->u.readconsole;

    (void)c;
    if ( !fake_is_safe(rc->buffer.p, rc->count) )
        return -EFAULT;
    memcpy(rc->buffer.p, "(XEN) hello\n", 12);
    rc->count = 12;
    rc->index += 12;
    return 0;
}

static void test_readconsolering(void)
{
    xc_interface *xch = open_xch(console_answer);
    char buf[64];
    unsigned int nr = sizeof(buf);
    uint32_t index = 100;
    struct fake_call *c;

    CHECK(xc_readconsolering(xch, buf, &nr, 1, 1, NULL) == 0, "failed");
    c = CALL(0);
    CHECK_SYSCTL(c, XEN_SYSCTL_readconsole);
    /* Without pindex there is no incremental read. */
    CHECK(c->sysctl.u.readconsole.count == 64 &&
          c->sysctl.u.readconsole.clear == 1 &&
          c->sysctl.u.readconsole.incremental == 0 &&
          c->sysctl.u.readconsole.index == 0,
          "count %u clear %u incremental %u index %u",
          c->sysctl.u.readconsole.count, c->sysctl.u.readconsole.clear,
          c->sysctl.u.readconsole.incremental,
          c->sysctl.u.readconsole.index);
    CHECK(nr == 12 && !memcmp(buf, "(XEN) hello\n", 12), "read %u bytes", nr);

    fake_answer(console_answer);
    nr = sizeof(buf);
    CHECK(xc_readconsolering(xch, buf, &nr, 0, 1, &index) == 0, "failed");
    c = CALL(0);
    CHECK(c->sysctl.u.readconsole.incremental == 1 &&
          c->sysctl.u.readconsole.index == 100 &&
          c->sysctl.u.readconsole.clear == 0, "incremental request wrong");
    CHECK(index == 112 && nr == 12, "index %u nr %u", index, nr);
    close_xch(xch);
}

/* The public buffer macros, as a libxenctrl user writes them. */
static void test_hypercall_buffers(void)
{
    xc_interface *xch = open_xch(NULL);
    DECLARE_HYPERCALL_BUFFER(uint8_t, small);
    DECLARE_HYPERCALL_BUFFER(uint64_t, pages);
    struct xen_domctl d;

    small = xc_hypercall_buffer_alloc(xch, small, 100);
    pages = xc_hypercall_buffer_alloc_pages(xch, pages, 3);
    CHECK(small && pages, "allocation failed");
    if ( !small || !pages )
        return close_xch(xch);

    CHECK(fake_is_safe(small, 100) && all_zero(small, 100),
          "byte buffer not safe or not zeroed");
    CHECK(!((uintptr_t)pages & (XC_PAGE_SIZE - 1)) &&
          fake_is_safe(pages, 3 * XC_PAGE_SIZE) &&
          all_zero(pages, 3 * XC_PAGE_SIZE),
          "page buffer not aligned, safe or zeroed");
    CHECK(HYPERCALL_BUFFER_AS_ARG(small) == (unsigned long)small,
          "HYPERCALL_BUFFER_AS_ARG");

    set_xen_guest_handle(d.u.shadow_op.dirty_bitmap, small);
    CHECK((void *)d.u.shadow_op.dirty_bitmap.p == (void *)small,
          "set_xen_guest_handle");
    set_xen_guest_handle_offset(d.u.shadow_op.dirty_bitmap, pages, 2);
    CHECK((void *)d.u.shadow_op.dirty_bitmap.p == (void *)(pages + 2),
          "set_xen_guest_handle_offset");
    set_xen_guest_handle(d.u.shadow_op.dirty_bitmap, HYPERCALL_BUFFER_NULL);
    CHECK(!d.u.shadow_op.dirty_bitmap.p, "HYPERCALL_BUFFER_NULL");

    {
        /* A function receiving the buffer sees it through a shadow. */
        xc_hypercall_buffer_t *arg = HYPERCALL_BUFFER(pages);
        DECLARE_HYPERCALL_BUFFER_SHADOW(uint64_t, view, arg);

        CHECK(view == pages && HYPERCALL_BUFFER_AS_ARG(view) ==
              (unsigned long)pages, "shadow does not see the buffer");
    }

    xc_hypercall_buffer_free(xch, small);
    xc_hypercall_buffer_free_pages(xch, pages, 3);
    close_xch(xch);
}

/* libxencall directly: arguments, results beyond int, buffers. */
static long echo_answer(struct fake_call *c, void *live)
{
    (void)live;
    return c->op == 40 ? 0x123456789L : (long)(c->arg[4] + c->arg[0]);
}

static void test_xencall(void)
{
    xencall_handle *xcall;
    void *p;

    fake_fail_clear();
    xcall = xencall_open(capture_logger(), 0);
    CHECK(xcall, "xencall_open failed");
    if ( !xcall )
        return;

    fake_answer(echo_answer);
    CHECK(xencall5(xcall, 33, 1, 2, 3, 4, 5) == 6, "xencall5 result");
    CHECK(CALL(0)->op == 33 && CALL(0)->arg[0] == 1 && CALL(0)->arg[1] == 2 &&
          CALL(0)->arg[2] == 3 && CALL(0)->arg[3] == 4 &&
          CALL(0)->arg[4] == 5, "xencall5 arguments");
    CHECK(xencall0(xcall, 34) == 0 && CALL(1)->arg[0] == 0,
          "xencall0 arguments");
    CHECK(xencall2L(xcall, 40, 0, 0) == 0x123456789L, "xencall2L truncated");
    CHECK(xencall_buffers_never_fault(xcall) == 1, "never_fault");

    /* A buffer of a whole page needs two (the header): freed as such. */
    p = xencall_alloc_buffer(xcall, XC_PAGE_SIZE);
    CHECK(p && fake_is_safe(p, XC_PAGE_SIZE), "page-sized buffer");
    xencall_free_buffer(xcall, p);
    CHECK(!xencall_alloc_buffer_pages(xcall, 0) && errno == EINVAL,
          "0 pages");

    CHECK(xencall_close(xcall) == 0, "xencall_close");
    CHECK(fake_live_buffer_pages() == 0, "%lu page(s) leaked", fake_live_buffer_pages());
}

/* The stdio logger's format, and level filtering. */
static void test_stdio_logger(void)
{
    char out[512] = "";
    FILE *f = tmpfile();
    xentoollog_logger_stdiostream *lg;
    size_t n;

    CHECK(f, "tmpfile");
    if ( !f )
        return;
    lg = xtl_createlogger_stdiostream(f, XTL_WARN, 0);
    CHECK(lg, "xtl_createlogger_stdiostream");
    if ( !lg )
        return;

    xtl_log((xentoollog_logger *)lg, XTL_ERROR, ENOENT, "xc",
            "cannot open %s", "privcmd");
    xtl_log((xentoollog_logger *)lg, XTL_INFO, -1, "xc", "hidden");
    xtl_stdiostream_set_minlevel(lg, XTL_DEBUG);
    xtl_log((xentoollog_logger *)lg, XTL_DEBUG, -1, NULL, "shown");
    xtl_progress((xentoollog_logger *)lg, "xc", "saving", 50, 100);
    xtl_stdiostream_adjust_flags(lg, XTL_STDIOSTREAM_HIDE_PROGRESS, 0);
    xtl_progress((xentoollog_logger *)lg, "xc", "hidden", 0, 100);
    xtl_logger_destroy((xentoollog_logger *)lg);
    xtl_logger_destroy(NULL);

    rewind(f);
    n = fread(out, 1, sizeof(out) - 1, f);
    out[n] = '\0';
    fclose(f);

    CHECK(!strcmp(out, "xc: error: cannot open privcmd: "
                       "No such file or directory\n"
                       "debug: shown\n"
                       "xc: saving: 50%\n"),
          "logger wrote \"%s\"", out);
    CHECK(!strcmp(xtl_level_to_string(XTL_WARN), "warning") &&
          !strcmp(xtl_level_to_string(XTL_CRITICAL), "critical"),
          "level names");
    CHECK(!strcmp(xc_error_code_to_desc(XC_INTERNAL_ERROR), "Internal error"),
          "xc_error_code_to_desc");
}

/* The Linux build links and fails cleanly without /dev/xen/privcmd. */
static void test_link_check(void)
{
    char cmd[1024], out[1024] = "";
    FILE *p;
    size_t n;
    int status;

    if ( !link_check_path )
    {
        CHECK(false, "no link-check program given");
        return;
    }

    snprintf(cmd, sizeof(cmd), "%s 2>&1", link_check_path);
    p = popen(cmd, "r");
    CHECK(p, "popen");
    if ( !p )
        return;
    n = fread(out, 1, sizeof(out) - 1, p);
    out[n] = '\0';
    status = pclose(p);

    /* Exit 0 in a real control domain; 2 with a clear message here. */
    CHECK(WIFEXITED(status) &&
          (WEXITSTATUS(status) == 0 ||
           (WEXITSTATUS(status) == 2 &&
            strstr(out, "xencall: error: Could not obtain handle on "
                        "privileged command interface") &&
            strstr(out, "link-check: xc_interface_open failed"))),
          "link-check: status %#x, output:\n%s", status, out);
}

/*
 * compat-client.c compiles unchanged against our headers and Debian's
 * (skipped, and said so, when libxen-dev is not installed).
 */
static void test_compat_headers(void)
{
    static const char *const sides[][2] = {
        { "ours", "-I" XEN_ROOT "/tools/include -I" XEN_ROOT "/xen/include" },
        { "Debian's", "" },
    };
    char cmd[2048], out[2048];
    unsigned int i;
    FILE *p;
    size_t n;
    int status;

    for ( i = 0; i < 2; i++ )
    {
        if ( i == 1 && access("/usr/include/xenctrl.h", R_OK) )
        {
            printf("    (libxen-dev not installed: Debian's headers not "
                   "tried)\n");
            continue;
        }
        snprintf(cmd, sizeof(cmd), "%s -std=gnu11 -Wall -Wextra -Werror "
                 "-fsyntax-only %s %s/tools/tests/ctrl/compat-client.c 2>&1",
                 HOSTCC, sides[i][1], XEN_ROOT);
        p = popen(cmd, "r");
        if ( !CHECK(p, "popen") )
            return;
        n = fread(out, 1, sizeof(out) - 1, p);
        out[n] = '\0';
        status = pclose(p);
        CHECK(status == 0, "compat-client.c against %s headers:\n%s",
              sides[i][0], out);
    }
}

/* Our privcmd ioctl (linux.c) is the one Debian's header defines. */
#ifdef HAVE_DEBIAN_PRIVCMD
unsigned long debian_ioctl_privcmd_hypercall(size_t *size);
#endif

static void test_privcmd_abi(void)
{
    CHECK(IOCTL_PRIVCMD_HYPERCALL == 0x305000 &&
          sizeof(privcmd_hypercall_t) == 48,
          "IOCTL_PRIVCMD_HYPERCALL %#lx, struct %zu bytes",
          (unsigned long)IOCTL_PRIVCMD_HYPERCALL, sizeof(privcmd_hypercall_t));
#ifdef HAVE_DEBIAN_PRIVCMD
    {
        size_t size;
        unsigned long nr = debian_ioctl_privcmd_hypercall(&size);

        CHECK(nr == IOCTL_PRIVCMD_HYPERCALL &&
              size == sizeof(privcmd_hypercall_t),
              "Debian's IOCTL_PRIVCMD_HYPERCALL %#lx (%zu bytes)", nr, size);
    }
#else
    printf("    (no /usr/include/xen/sys/privcmd.h: not compared)\n");
#endif
}

const struct test_case misc_tests[] = {
    { "interface_open_close", test_open_close },
    { "version", test_version },
    { "physinfo", test_physinfo },
    { "readconsolering", test_readconsolering },
    { "hypercall_buffers", test_hypercall_buffers },
    { "xencall", test_xencall },
    { "stdio_logger", test_stdio_logger },
    { "link_check_linux", test_link_check },
    { "compat_headers", test_compat_headers },
    { "privcmd_abi", test_privcmd_abi },
    { NULL, NULL },
};

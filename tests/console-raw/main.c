/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The console as Xen's guest_console_write: the hardware domain's
 * console_io text reaches the serial line as it is (no prefix, no line
 * buffering, control characters intact: it may be a terminal); a domU's
 * becomes "(dN) " lines with non-printable characters shown as '?';
 * debug-port (0xE9) text becomes "(dN) " lines for every domain, dom0's
 * too (Xen's hvm_print_line).
 *
 * Every domain running this writes with console_io
 *     "RAW <ESC>[1mbold<ESC>[0m<TAB>tab|\n"
 * then "open line" with no newline, then prints a line through printk
 * (the debug port as dom0, console_io as a domU): the hypervisor must
 * start that "(dN) " line on a line of its own.  The test list's expect
 * and reject lines check the serial log (tests/unittests.cfg).
 *
 * dom0 then reads the console ring (XEN_SYSCTL_readconsole): the domU's
 * "(d1) RAW" line must be there; its own raw "RAW " line only when the
 * hypervisor was booted with console_to_ring (ring=1 on this kernel's
 * command line), as in Xen, where dom0's output is not logged by default.
 *
 * Guest command line: ring=0|1 (dom0 only), domu=<id> (default 1).
 */
#include "test.h"
#include "public/features.h"
#include "public/version.h"

#include <errno.h>
#include <string.h>
#include <xenctrl.h>

const char test_title[] = "the console: dom0 raw, domUs in lines";

#define RING_SIZE 16384
static char ring[RING_SIZE + 1];

static const char raw_line[] = "RAW \033[1mbold\033[0m\ttab|\n";

static bool is_dom0(void)
{
    struct xen_feature_info fi = { .submap_idx = 0 };

    return !hypercall_xen_version(XENVER_get_features, &fi) &&
           (fi.submap & (1u << XENFEAT_dom0));
}

/* A line of the ring starting with 'prefix' holds 'text' (after any timestamp). */
static bool ring_has_line(const char *prefix, const char *text)
{
    const char *p;

    for ( p = strstr(ring, text); p; p = strstr(p + 1, text) )
    {
        const char *line = p;

        while ( line > ring && line[-1] != '\n' )
            line--;
        if ( !strncmp(line, prefix, strlen(prefix)) )
            return true;
    }
    return false;
}

/* The ring as it is now, NUL-terminated; its length, or -1. */
static long read_ring(xc_interface *xch)
{
    unsigned int nr = RING_SIZE;

    if ( xc_readconsolering(xch, ring, &nr, 0, 0, NULL) )
        return -1;
    ring[nr] = '\0';
    return nr;
}

static void check_ring(void)
{
    unsigned long want_own = cmdline_ulong("ring", 0);
    unsigned long domu = cmdline_ulong("domu", 1);
    char domu_line[32];
    xc_interface *xch = xc_interface_open(NULL, NULL, 0);
    unsigned int tries;
    bool own, theirs = false;
    long n = -1;

    if ( !xch )
        return xtf_failure("Fail: xc_interface_open: errno %d\n", errno);
    snprintf(domu_line, sizeof(domu_line), "(d%lu) ", domu);
    /* The domU runs beside us: give it time to write its line. */
    for ( tries = 0; tries < 2000 && !theirs; tries++ )
    {
        if ( tries )
            hypercall_yield();
        n = read_ring(xch);
        theirs = n > 0 && ring_has_line(domu_line, "RAW ?[1mbold?[0m\ttab|");
    }
    if ( n < 0 )
    {
        xc_interface_close(xch);
        return xtf_failure("Fail: xc_readconsolering: errno %d\n", errno);
    }
    own = strstr(ring, raw_line);
    printk("ring: %ld bytes; d%lu's line %s, our raw line %s\n", n, domu,
           theirs ? "there" : "missing", own ? "there" : "absent");
    if ( !theirs )
        xtf_failure("Fail: the domU's \"(d%lu) RAW\" line is not in the ring\n", domu);
    if ( own != !!want_own )
        xtf_failure("Fail: dom0's raw text is %s the ring, console_to_ring is %s\n",
                    own ? "in" : "not in", want_own ? "on" : "off");
    xc_interface_close(xch);
}

void test_main(void)
{
    bool dom0 = is_dom0();

    hypercall_console_write(raw_line, sizeof(raw_line) - 1);
    hypercall_console_write("open line", 9);
    printk("%s: after the open line\n", dom0 ? "dom0" : "domU");

    if ( dom0 )
        check_ring();
    if ( xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: %s console written\n", dom0 ? "dom0's raw" : "the domU's");
}

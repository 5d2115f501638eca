/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jbb: the specjbb-like transaction loop of tests/jbb (the benchmarks'
 * domU) as a Linux program, for the Debian domU's initramfs (/bin/jbb).
 * The same source, tests/jbb/main.c, compiled against test.h here: its
 * control page, framebuffer and working set sit at the addresses the
 * kernel uses (bench.h), mapped here at the same virtual addresses (the
 * program itself is linked far above them).  There is no control domain
 * to drive it inside Linux, so it runs the kernel's standalone mode:
 *
 *   jbb standalone=N [seed=S] [ws=MIB] [fb_every=N] [fb_lines=N]
 *
 * runs N transactions over a working set of MIB MiB (default 8) from the
 * seed and prints "N transactions in T ticks: ...", the same transactions
 * and checksum as the kernel for the same seed.  Exit status 0 on
 * success.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"
#include "test.h"

const struct hvm_start_info *start_info;
bool hypercall_page_ready;
int jbb_result = 1;

static int jbb_argc;
static char **jbb_argv;

unsigned long cmdline_ulong(const char *key, unsigned long dflt)
{
    size_t n = strlen(key);

    for (int i = 1; i < jbb_argc; i++) {
        const char *a = jbb_argv[i];
        char *end;
        unsigned long v;

        if (strncmp(a, key, n) || a[n] != '=')
            continue;
        v = strtoul(a + n + 1, &end, 0);
        if (end == a + n + 1 || *end) {
            fprintf(stderr, "jbb: %s= takes a number, not '%s'\n", key, a + n + 1);
            exit(2);
        }
        return v;
    }
    return dflt;
}

void hypercall_yield(void)
{
    sched_yield();
}

void xtf_success(const char *msg)
{
    if (msg)
        fputs(msg, stdout);
    jbb_result = 0;
}

void xtf_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    jbb_result = 1;
}

void xtf_skip(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    jbb_result = 1;
}

/* Anonymous memory at exactly [addr, addr + len). */
static int map_at(unsigned long addr, unsigned long len, const char *what)
{
    void *p = mmap((void *)addr, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

    if (p == MAP_FAILED || p != (void *)addr) {
        fprintf(stderr, "jbb: cannot map the %s at %#lx (%lu KiB): %s\n", what, addr,
                len >> 10, p == MAP_FAILED ? strerror(errno) : "elsewhere");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct hvm_memmap_table_entry map;
    static struct hvm_start_info si;
    unsigned long ws;

    jbb_argc = argc;
    jbb_argv = argv;
    if (!cmdline_ulong("standalone", 0)) {
        fprintf(stderr, "usage: jbb standalone=N [seed=S] [ws=MIB] [fb_every=N] [fb_lines=N]\n");
        return 2;
    }
    ws = cmdline_ulong("ws", 8);
    if (!ws || ws > BENCH_MAX_WS_MIB) {
        fprintf(stderr, "jbb: ws= takes 1 to %lu MiB, not %lu\n", BENCH_MAX_WS_MIB, ws);
        return 2;
    }
    if (map_at(BENCH_CTRL_GFN << PAGE_SHIFT, 1UL << PAGE_SHIFT, "control page") ||
        map_at(BENCH_FB_GFN << PAGE_SHIFT, BENCH_FB_MAX_PAGES << PAGE_SHIFT, "framebuffer") ||
        map_at(BENCH_WS_GFN << PAGE_SHIFT, ws << 20, "working set"))
        return 1;
    map.addr = 0;
    map.size = (BENCH_WS_GFN << PAGE_SHIFT) + (ws << 20);
    map.type = XEN_HVM_MEMMAP_TYPE_RAM;
    si.memmap_paddr = (uint64_t)(unsigned long)&map;
    si.memmap_entries = 1;
    start_info = &si;
    hypercall_page_ready = true;
    test_main();
    return jbb_result;
}

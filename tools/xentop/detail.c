/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's detail of one domain: its exits by reason (one
 * xc_vcpu_exit_counts per vCPU, summed) and the heat map of its
 * guest-physical memory (one xc_dirty_blocks_counter: writes logged per
 * block, as the rows' dirty rate; with a consumer's CLEANs, or our own
 * re-arms, that is the pages written per block and interval).
 * Counters only, like the rows: no bitmap is cleaned or peeked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xentop.h"

#define ROOM_REASONS 80                     /* Intel defines ~70 basic reasons */

/*
 * The counters in a buffer of the size the domain needs (at most 1024
 * records, 8 KiB; a guest up to 1 GiB fits one page): a size query only
 * for a domain not seen last time, or when the hypervisor says ENOBUFS.
 */
static int read_blocks(xc_interface *xch, struct top_detail *s)
{
    static uint32_t last_dom = ~0u;
    static unsigned int room;
    xen_domctl_dirty_blocks_t info;
    unsigned int n;

    for (unsigned int tries = 0; tries < 3; tries++) {
        if (last_dom != s->domid || !room) {
            n = 0;
            if (xc_dirty_blocks_counter(xch, s->domid, XEN_DIRTY_BLOCKS_LOGGED, NULL, &n, &info))
                return -1;
            last_dom = s->domid;
            room = n;
            if (!n)
                break;                      /* never tracked: the query says all */
        }
        n = room;
        free(s->blocks);
        s->blocks = calloc(n, sizeof(*s->blocks));
        if (!s->blocks)
            return -1;
        if (!xc_dirty_blocks_counter(xch, s->domid, XEN_DIRTY_BLOCKS_LOGGED, s->blocks, &n, &info))
            break;
        if (errno != ENOBUFS)
            return -1;
        room = 0;                           /* it grew: ask again */
    }
    if (!info.nr_blocks || !s->blocks) {
        free(s->blocks);
        s->blocks = calloc(1, sizeof(*s->blocks));
        if (!s->blocks)
            return -1;
    }
    s->now = info.now;
    s->nr_blocks = info.nr_blocks;
    s->block_shift = info.block_shift;
    s->vram_first = info.vram_first_pfn;
    s->vram_nr = info.vram_nr;
    return 0;
}

int top_detail_sample(xc_interface *xch, uint32_t domid, unsigned int nr_vcpus,
                      struct top_detail *s)
{
    uint64_t *counts = NULL;

    memset(s, 0, sizeof(*s));
    s->domid = domid;
    s->exits = calloc(ROOM_REASONS, sizeof(*s->exits));
    counts = calloc(ROOM_REASONS, sizeof(*counts));
    if (!s->exits || !counts || read_blocks(xch, s))
        goto fail;
    for (unsigned int v = 0; v < nr_vcpus; v++) {
        unsigned int nr = ROOM_REASONS;

        if (xc_vcpu_exit_counts(xch, domid, v, counts, &nr))
            continue;                       /* a vCPU that is not there */
        if (nr > ROOM_REASONS)
            nr = ROOM_REASONS;
        if (nr > s->nr_reasons)
            s->nr_reasons = nr;
        for (unsigned int r = 0; r < nr; r++)
            s->exits[r] += counts[r];
    }
    free(counts);
    return 0;

 fail:
    free(counts);
    top_detail_free(s);
    return -1;
}

void top_detail_free(struct top_detail *s)
{
    free(s->blocks);
    free(s->exits);
    memset(s, 0, sizeof(*s));
}

static int cmp_exit(const void *pa, const void *pb)
{
    const struct top_exit_rate *a = pa, *b = pb;

    if (a->rate != b->rate)
        return a->rate < b->rate ? 1 : -1;
    return (a->reason > b->reason) - (a->reason < b->reason);
}

/*
 * Rates between two samples of the same domain: exits per second by
 * reason (those that moved, the most frequent first) and pages dirtied
 * per block in the interval.  Without a usable earlier sample (the first,
 * another domain, counters that went back) everything is 0.
 */
void top_detail_rates(const struct top_detail *prev, const struct top_detail *cur,
                      struct top_detail_rates *out)
{
    bool ok = prev && prev->domid == cur->domid && cur->now > prev->now &&
              prev->nr_blocks == cur->nr_blocks &&
              prev->block_shift == cur->block_shift;

    memset(out, 0, sizeof(*out));
    out->domid = cur->domid;
    out->interval = ok ? (cur->now - prev->now) / 1e9 : 0;
    out->nr_blocks = cur->nr_blocks;
    out->block_shift = cur->block_shift;
    out->vram_first = cur->vram_first;
    out->vram_nr = cur->vram_nr;
    out->dirtied = calloc(cur->nr_blocks ? cur->nr_blocks : 1, sizeof(*out->dirtied));
    out->exit = calloc(cur->nr_reasons ? cur->nr_reasons : 1, sizeof(*out->exit));
    if (!out->dirtied || !out->exit) {
        top_detail_rates_free(out);
        return;
    }
    for (unsigned int b = 0; ok && b < cur->nr_blocks; b++)
        out->dirtied[b] = cur->blocks[b] >= prev->blocks[b] ?
                          cur->blocks[b] - prev->blocks[b] : 0;
    for (unsigned int r = 0; prev && out->interval > 0 && r < cur->nr_reasons; r++) {
        uint64_t then = r < prev->nr_reasons ? prev->exits[r] : 0;

        if (cur->exits[r] > then) {
            out->exit[out->nr_exits].reason = r;
            out->exit[out->nr_exits].rate = (cur->exits[r] - then) / out->interval;
            out->nr_exits++;
        }
    }
    if (out->nr_exits)
        qsort(out->exit, out->nr_exits, sizeof(*out->exit), cmp_exit);
}

void top_detail_rates_free(struct top_detail_rates *r)
{
    free(r->dirtied);
    free(r->exit);
    memset(r, 0, sizeof(*r));
}

/*
 * How hot a block was: the pages newly dirtied in the interval against
 * the pages it holds.  0 none, 1 up to 1/64 of them, 2 up to 1/8, 3 up
 * to 1/2, 4 more (a page dirtied again after each CLEAN counts again).
 */
unsigned int top_heat_level(uint64_t dirtied, unsigned int block_shift)
{
    uint64_t pages = 1ULL << block_shift;

    if (!dirtied)
        return 0;
    if (dirtied * 64 <= pages)
        return 1;
    if (dirtied * 8 <= pages)
        return 2;
    if (dirtied * 2 <= pages)
        return 3;
    return 4;
}

bool top_block_vram(const struct top_detail_rates *r, unsigned int b)
{
    uint64_t first = (uint64_t)b << r->block_shift, end = first + (1ULL << r->block_shift);

    return r->vram_nr && first < r->vram_first + r->vram_nr && r->vram_first < end;
}

/* The block's character: its level; a quiet VRAM block is 'V'. */
char top_heat_char(const struct top_detail_rates *r, unsigned int b)
{
    static const char level[] = ".-+*#";
    unsigned int l = top_heat_level(r->dirtied[b], r->block_shift);

    return !l && top_block_vram(r, b) ? 'V' : level[l];
}

const char top_heat_legend[] =
    ". none  - up to 1/64  + up to 1/8  * up to 1/2  # more  V VRAM, quiet";

/* "<size> blocks": 2 MiB, 4 MiB, ... */
void top_block_size(unsigned int block_shift, char *buf, size_t len)
{
    uint64_t kib = 4ULL << block_shift;

    if (kib >= 1024 * 1024)
        snprintf(buf, len, "%llu GiB", (unsigned long long)(kib >> 20));
    else if (kib >= 1024)
        snprintf(buf, len, "%llu MiB", (unsigned long long)(kib >> 10));
    else
        snprintf(buf, len, "%llu KiB", (unsigned long long)kib);
}

/* One line of the map: the guest-physical address, then 'n' blocks. */
void top_format_heat_row(const struct top_detail_rates *r, unsigned int first,
                         unsigned int n, char *buf, size_t len)
{
    int pos = snprintf(buf, len, "0x%010llx ",
                       (unsigned long long)first << (r->block_shift + 12));

    for (unsigned int b = first; b < first + n && b < r->nr_blocks &&
         (size_t)pos + 1 < len; b++)
        buf[pos++] = top_heat_char(r, b);
    buf[pos < (int)len ? pos : (int)len - 1] = 0;
}

/* The VRAM line ("" without a VRAM range). */
void top_format_vram(const struct top_detail_rates *r, char *buf, size_t len)
{
    unsigned int first = ~0u, last = 0;

    buf[0] = 0;
    if (!r->vram_nr)
        return;
    for (unsigned int b = 0; b < r->nr_blocks; b++)
        if (top_block_vram(r, b)) {
            first = first == ~0u ? b : first;
            last = b;
        }
    snprintf(buf, len, "VRAM: pfn %#llx-%#llx, blocks %d-%d",
             (unsigned long long)r->vram_first,
             (unsigned long long)(r->vram_first + r->vram_nr - 1),
             first == ~0u ? -1 : (int)first, first == ~0u ? -1 : (int)last);
}

/* The basic VM-exit reasons (Intel SDM vol. 3 appendix C; Xen's names). */
static const char *const exit_names[] = {
    [0] = "EXCEPTION_NMI", [1] = "EXTERNAL_INTERRUPT", [2] = "TRIPLE_FAULT",
    [3] = "INIT", [4] = "SIPI", [5] = "IO_SMI", [6] = "OTHER_SMI",
    [7] = "PENDING_VIRT_INTR", [8] = "PENDING_VIRT_NMI", [9] = "TASK_SWITCH",
    [10] = "CPUID", [11] = "GETSEC", [12] = "HLT", [13] = "INVD",
    [14] = "INVLPG", [15] = "RDPMC", [16] = "RDTSC", [17] = "RSM",
    [18] = "VMCALL", [19] = "VMCLEAR", [20] = "VMLAUNCH", [21] = "VMPTRLD",
    [22] = "VMPTRST", [23] = "VMREAD", [24] = "VMRESUME", [25] = "VMWRITE",
    [26] = "VMXOFF", [27] = "VMXON", [28] = "CR_ACCESS", [29] = "DR_ACCESS",
    [30] = "IO_INSTRUCTION", [31] = "MSR_READ", [32] = "MSR_WRITE",
    [33] = "INVALID_GUEST_STATE", [34] = "MSR_LOADING",
    [36] = "MWAIT_INSTRUCTION", [37] = "MONITOR_TRAP_FLAG",
    [39] = "MONITOR_INSTRUCTION", [40] = "PAUSE_INSTRUCTION",
    [41] = "MCE_DURING_VMENTRY", [43] = "TPR_BELOW_THRESHOLD",
    [44] = "APIC_ACCESS", [45] = "EOI_INDUCED", [46] = "ACCESS_GDTR_OR_IDTR",
    [47] = "ACCESS_LDTR_OR_TR", [48] = "EPT_VIOLATION", [49] = "EPT_MISCONFIG",
    [50] = "INVEPT", [51] = "RDTSCP", [52] = "VMX_PREEMPTION_TIMER_EXPIRED",
    [53] = "INVVPID", [54] = "WBINVD", [55] = "XSETBV", [56] = "APIC_WRITE",
    [57] = "RDRAND", [58] = "INVPCID", [59] = "VMFUNC", [60] = "ENCLS",
    [61] = "RDSEED", [62] = "PML_FULL", [63] = "XSAVES", [64] = "XRSTORS",
};

const char *top_exit_name(unsigned int reason, char *buf, size_t len)
{
    if (reason < sizeof(exit_names) / sizeof(*exit_names) && exit_names[reason])
        return exit_names[reason];
    snprintf(buf, len, "reason %u", reason);
    return buf;
}

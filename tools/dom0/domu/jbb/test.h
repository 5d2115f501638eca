/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tests/jbb/main.c takes from the test kernels' test.h, for Linux
 * userspace (jbb.c builds it as the Debian domU's /bin/jbb): printing,
 * the command line as key=value words, the TSC, a yield, and a start
 * info whose memory map is the fixed mappings jbb.c made at the
 * guest-physical addresses the kernel uses (bench.h's layout).
 */
#ifndef DOMU_JBB_TEST_H
#define DOMU_JBB_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PAGE_SHIFT              12
#define XEN_EINVAL              22
#define XEN_HVM_MEMMAP_TYPE_RAM 1

struct hvm_memmap_table_entry {
    uint64_t addr, size;
    uint32_t type, reserved;
};

/* The two fields ram_end() reads. */
struct hvm_start_info {
    uint64_t memmap_paddr;
    uint32_t memmap_entries;
};

extern const struct hvm_start_info *start_info;
extern bool hypercall_page_ready;
extern int jbb_result;

#define printk(...) printf(__VA_ARGS__)

unsigned long cmdline_ulong(const char *key, unsigned long dflt);
void hypercall_yield(void);
void xtf_success(const char *msg);
void xtf_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void xtf_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

void test_main(void);

#endif /* DOMU_JBB_TEST_H */

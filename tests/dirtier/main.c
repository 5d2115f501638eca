/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The domU of the log-dirty tests: every vCPU writes pages picked by a
 * seeded pseudo-random sequence, publishing its progress in the control
 * page (see dirty-test.h), until the control domain says stop.  The checks
 * are made by the control domain (tests/logdirty); this guest only reports
 * that it ran.
 *
 * Guest command line: seed=<n> pages=<n> (default 2048; the domain needs
 * mem= large enough for 4 MiB + pages * 4 KiB + 4 KiB), work=<n> (a
 * computation of n iterations between two writes, default 0: it sets how
 * many pages one time slice dirties).
 */
#include "test.h"
#include "dirty-test.h"

const char test_title[] = "Log-dirty writer (domU)";

static struct dt_ctrl *const ctrl = (struct dt_ctrl *)(DT_CTRL_GFN << PAGE_SHIFT);
static atomic_t stopped = ATOMIC_INIT(0);
static unsigned long work;

static void writer(unsigned int v)
{
    struct dt_vcpu *me = &ctrl->vcpu[v];

    while ( ctrl->go == DT_GO_WAIT )
        cpu_relax();

    while ( ctrl->go != DT_GO_STOP )
    {
        uint64_t i = me->done;
        unsigned long pfn = dt_step_pfn(me->seed, i, ctrl->data_pages);
        volatile uint64_t *slot = (uint64_t *)(pfn << PAGE_SHIFT) + v;

        me->intent = i;
        *slot = i + 1;
        me->done = i + 1;

        for ( unsigned long k = 0; k < work; k++ )
            asm volatile ( "" ::: "memory" );
    }
    atomic_inc(&stopped);
}

static void ap_main(unsigned int id)
{
    writer(id);
}

void test_main(void)
{
    unsigned long seed = cmdline_ulong("seed", 1);
    unsigned long pages = cmdline_ulong("pages", 2048);

    work = cmdline_ulong("work", 0);
    unsigned long ram_end = 0;
    const struct hvm_start_info *si = start_info;
    unsigned int n = vcpu_count(), v;
    const struct hvm_memmap_table_entry *map;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    map = (const void *)si->memmap_paddr;
    for ( v = 0; v < si->memmap_entries; v++ )
        if ( map[v].type == XEN_HVM_MEMMAP_TYPE_RAM && map[v].addr + map[v].size > ram_end )
            ram_end = map[v].addr + map[v].size;
    if ( ((DT_DATA_GFN + pages) << PAGE_SHIFT) > ram_end || !pages )
        return xtf_error("Error: %lu data pages do not fit in %lu KiB of RAM\n",
                         pages, ram_end >> 10);
    if ( n > DT_MAX_VCPUS )
        n = DT_MAX_VCPUS;

    ctrl->nr_vcpus = n;
    ctrl->data_pages = pages;
    for ( v = 0; v < n; v++ )
        ctrl->vcpu[v].seed = seed * 1000 + v;
    __atomic_store_n(&ctrl->magic, DT_MAGIC, __ATOMIC_RELEASE);
    printk("%u vCPU(s) writing %lu pages from 0x%x, seed %lu\n",
           n, pages, DT_DATA_GFN << PAGE_SHIFT, seed);

    for ( v = 1; v < n; v++ )
        if ( vcpu_start(v, ap_main) )
            return xtf_error("Error: cannot start vCPU %u\n", v);

    writer(0);
    while ( (unsigned int)atomic_read(&stopped) < n )
        cpu_relax();
    ctrl->stopped = n;

    for ( v = 0; v < n; v++ )
        printk("vCPU %u: %lu steps\n", v, (unsigned long)ctrl->vcpu[v].done);
    xtf_success("Success: writer stopped when told\n");
}

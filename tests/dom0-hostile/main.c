/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A control domain handing the hypervisor values that once took it down
 * or aliased memory (docs/misc/security.md), against a running domU
 * (domain 1, tests/domctl-domu in "spin" mode, two vCPUs of which one is
 * up).  Each must fail with Xen's error and change nothing:
 *
 *   XEN_DOMCTL_sethvmcontext with a CPU record carrying reserved MXCSR
 *     bits, a non-canonical LSTAR/CSTAR/KERNEL_GS_BASE/SYSENTER_EIP,
 *     CR0 bits 63:32, reserved RFLAGS bits, a bad pending event: -EINVAL,
 *     and the vCPU's state is byte for byte what it was (once, the first
 *     such record was accepted and the next switch to the vCPU faulted in
 *     FXRSTOR or WRMSR: a host panic).  A context whose second CPU record
 *     is bad leaves the first vCPU untouched too.  The unchanged context
 *     is accepted and the domain runs on.
 *   Foreign mapping of gfns beyond the guest-physical address width
 *     (2^36 + 0x200, 2^40, ~0): refused per page (once, the EPT walk masked
 *     each level's index, so they aliased gfn 0x200 and 0).
 *   XEN_DMOP_track_dirty_vram with first_pfn + nr wrapping past 2^64 or
 *     ending past the domain's memory: -EINVAL (once: an all-ones bitmap).
 *
 * Then the domU is shut down and the machine powers off by itself.
 */
#include "test.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <xenctrl.h>
#include <xendevicemodel.h>
#include <xenforeignmemory.h>
#include <public/hvm/save.h>

const char test_title[] = "Control domain: hostile domctl/memory_op/dm_op values";

#define CTX_MAX 8192

static xc_interface *xch;
static xendevicemodel_handle *dmod;
static xenforeignmemory_handle *fmem;
static uint32_t domu = 1;
static void *dup_map;

static void expect_errno(const char *what, long rc, int err)
{
    if ( rc == -1 && errno == err )
        printk("  ok   %-48s errno %d\n", what, err);
    else
        xtf_failure("Fail: %s: returned %ld errno %d, expected -1 errno %d\n",
                    what, rc, errno, err);
}

/* The first CPU record of a context, or NULL. */
static struct hvm_hw_cpu *cpu_record(uint8_t *ctx, uint32_t size, unsigned int nth)
{
    uint32_t off = 0;

    while ( off + sizeof(struct hvm_save_descriptor) <= size )
    {
        struct hvm_save_descriptor *d = (void *)(ctx + off);

        off += sizeof(*d);
        if ( d->typecode == HVM_SAVE_CODE(CPU) && !nth-- )
            return (void *)(ctx + off);
        off += d->length;
    }
    return NULL;
}

static bool same_cpu(const struct hvm_hw_cpu *a, const struct hvm_hw_cpu *b)
{
    struct hvm_hw_cpu x = *a, y = *b;

    x.tsc = y.tsc = 0;              /* the only field that moves while paused */
    return !memcmp(&x, &y, sizeof(x));
}

typedef void (*spoil_fn)(struct hvm_hw_cpu *c);

static void spoil_mxcsr(struct hvm_hw_cpu *c)
{
    uint32_t mxcsr = 0x1f80 | (1u << 31);           /* reserved bit 31 */

    memcpy(c->fpu_regs + 24, &mxcsr, sizeof(mxcsr));
}
static void spoil_lstar(struct hvm_hw_cpu *c)   { c->msr_lstar = 0x0000800000000000UL; }
static void spoil_cstar(struct hvm_hw_cpu *c)   { c->msr_cstar = 0x8000000000000000UL; }
static void spoil_kgs(struct hvm_hw_cpu *c)     { c->shadow_gs = 0x0000800000001000UL; }
static void spoil_sysenter(struct hvm_hw_cpu *c) { c->sysenter_eip = 0x1234800000000000UL; }
static void spoil_cr0(struct hvm_hw_cpu *c)     { c->cr0 |= 1UL << 32; }
static void spoil_cr4(struct hvm_hw_cpu *c)     { c->cr4 |= 1UL << 22; }    /* PKE */
static void spoil_efer(struct hvm_hw_cpu *c)    { c->msr_efer |= 1UL << 2; }
static void spoil_rflags(struct hvm_hw_cpu *c)  { c->rflags |= 1UL << 3; }
static void spoil_rip(struct hvm_hw_cpu *c)     { c->rip = 0x0000900000000000UL; }
static void spoil_cr3(struct hvm_hw_cpu *c)     { c->cr3 |= 1UL << 60; }
static void spoil_event(struct hvm_hw_cpu *c)   { c->pending_event = 0x80000100u | 0xf0; }
static void spoil_fs(struct hvm_hw_cpu *c)      { c->fs_base = 0x8000000000000000UL; }
static void spoil_tsc_aux(struct hvm_hw_cpu *c) { c->msr_tsc_aux = 1UL << 33; }
static void spoil_pat_like_dr7(struct hvm_hw_cpu *c) { c->dr7 = 1UL << 40; }
static void spoil_dr6(struct hvm_hw_cpu *c)     { c->dr6 = 1UL << 32 | 0xffff0ff0UL; }

static const struct {
    const char *what;
    spoil_fn fn;
} spoils[] = {
    { "MXCSR reserved bit 31",          spoil_mxcsr },
    { "LSTAR non-canonical",            spoil_lstar },
    { "CSTAR non-canonical",            spoil_cstar },
    { "KERNEL_GS_BASE non-canonical",   spoil_kgs },
    { "SYSENTER_EIP non-canonical",     spoil_sysenter },
    { "CR0 bit 32",                     spoil_cr0 },
    { "CR4.PKE (not offered)",          spoil_cr4 },
    { "EFER reserved bit 2",            spoil_efer },
    { "RFLAGS reserved bit 3",          spoil_rflags },
    { "RIP non-canonical",              spoil_rip },
    { "CR3 beyond the address width",   spoil_cr3 },
    { "pending event of reserved type", spoil_event },
    { "FS base non-canonical",          spoil_fs },
    { "TSC_AUX bits 63:32",             spoil_tsc_aux },
    { "DR7 bits 63:32",                 spoil_pat_like_dr7 },
    { "DR6 bits 63:32",                 spoil_dr6 },
};

static void test_hvmcontext(void)
{
    static uint8_t orig[CTX_MAX], ctx[CTX_MAX], back[CTX_MAX], two[2 * CTX_MAX];
    struct hvm_hw_cpu *c;
    struct hvm_save_descriptor *d;
    int size, n;
    unsigned int i;

    printk("sethvmcontext with bad CPU records:\n");
    if ( xc_domain_pause(xch, domu) )
        return xtf_failure("Fail: pause d%u: errno %d\n", domu, errno);
    size = xc_domain_hvm_getcontext(xch, domu, orig, sizeof(orig));
    if ( size <= 0 || !cpu_record(orig, size, 0) )
        return xtf_failure("Fail: gethvmcontext: %d errno %d\n", size, errno);

    for ( i = 0; i < ARRAY_SIZE(spoils); i++ )
    {
        char what[80];

        memcpy(ctx, orig, size);
        spoils[i].fn(cpu_record(ctx, size, 0));
        snprintf(what, sizeof(what), "record with %s", spoils[i].what);
        expect_errno(what, xc_domain_hvm_setcontext(xch, domu, ctx, size), EINVAL);
    }

    /*
     * Two CPU records, the first good but different, the second bad: the
     * whole context is refused before the first vCPU changes.
     */
    c = cpu_record(orig, size, 0);
    n = (uint8_t *)c - orig + sizeof(*c);               /* up to the first record's end */
    memcpy(two, orig, n);
    cpu_record(two, n, 0)->rax ^= 0x5a5a;
    d = (void *)(two + n);
    *d = (struct hvm_save_descriptor){ HVM_SAVE_CODE(CPU), 1, sizeof(*c) };
    memcpy(two + n + sizeof(*d), c, sizeof(*c));
    spoil_mxcsr((void *)(two + n + sizeof(*d)));
    n += sizeof(*d) + sizeof(*c);
    memcpy(two + n, orig + ((uint8_t *)c - orig) + sizeof(*c), size - ((uint8_t *)c - orig) - sizeof(*c));
    n += size - ((uint8_t *)c - orig) - sizeof(*c);
    expect_errno("good vCPU0 record, bad vCPU1 record",
                 xc_domain_hvm_setcontext(xch, domu, two, n), EINVAL);

    n = xc_domain_hvm_getcontext(xch, domu, back, sizeof(back));
    if ( n != size || !same_cpu(cpu_record(back, n, 0), cpu_record(orig, size, 0)) )
        xtf_failure("Fail: a refused context changed the vCPU\n");
    else
        printk("  ok   the vCPU's state is unchanged\n");

    if ( xc_domain_hvm_setcontext(xch, domu, orig, size) )
        xtf_failure("Fail: the unchanged context was refused: errno %d\n", errno);
    else
        printk("  ok   the unchanged context is accepted\n");
    xc_domain_unpause(xch, domu);
}

static void test_foreign_width(void)
{
    static const xen_pfn_t bad[] = { (1UL << 36) + 0x200, 1UL << 40, 1UL << 52, ~0UL };
    xen_pfn_t good = 0x200;
    unsigned int i;
    int err = 0;
    void *p;

    printk("foreign mappings beyond the guest-physical address width:\n");
    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        p = xenforeignmemory_map(fmem, domu, PROT_READ, 1, &bad[i], &err);
        if ( p && !err )
        {
            xtf_failure("Fail: gfn %#lx was mapped\n", (unsigned long)bad[i]);
            xenforeignmemory_unmap(fmem, p, 1);
            continue;
        }
        printk("  ok   gfn %#-18lx refused (%d)\n", (unsigned long)bad[i], err);
        if ( p )
            xenforeignmemory_unmap(fmem, p, 1);
    }
    p = xenforeignmemory_map(fmem, domu, PROT_READ, 1, &good, &err);
    if ( !p || err )
        xtf_failure("Fail: gfn 0x200 could not be mapped: %d\n", err);
    else
    {
        printk("  ok   gfn 0x200 maps\n");
        xenforeignmemory_unmap(fmem, p, 1);
    }
}

static void test_vram_range(void)
{
    static unsigned long bitmap[64];
    xc_domaininfo_t info;
    uint64_t pages;

    printk("track_dirty_vram ranges:\n");
    if ( xc_domain_getinfolist(xch, domu, 1, &info) != 1 )
        return xtf_failure("Fail: getinfolist d%u\n", domu);
    pages = info.tot_pages;
    expect_errno("first_pfn + nr wraps past 2^64",
                 xendevicemodel_track_dirty_vram(dmod, domu, ~0ULL - 5, 10, bitmap), EINVAL);
    expect_errno("first_pfn = 2^64 - 1, nr 1",
                 xendevicemodel_track_dirty_vram(dmod, domu, ~0ULL, 1, bitmap), EINVAL);
    expect_errno("range ending one past the domain's memory",
                 xendevicemodel_track_dirty_vram(dmod, domu, pages - 15, 16, bitmap), EINVAL);
    if ( xendevicemodel_track_dirty_vram(dmod, domu, pages - 16, 16, bitmap) )
        xtf_failure("Fail: the last 16 frames could not be tracked: errno %d\n", errno);
    else
        printk("  ok   the last 16 frames are tracked\n");
    xendevicemodel_track_dirty_vram(dmod, domu, 0, 0, NULL);
}

void test_main(void)
{
    xc_domaininfo_t before, after;

    xch = xc_interface_open(NULL, NULL, 0);
    dmod = xendevicemodel_open(NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !dmod || !fmem )
        return xtf_error("Error: cannot open the control interface\n");
    domu = cmdline_ulong("domu", 1);

    if ( xc_domain_getinfolist(xch, domu, 1, &before) != 1 || before.domain != domu )
        return xtf_error("Error: no d%u\n", domu);

    test_hvmcontext();
    test_foreign_width();
    test_vram_range();

    /* The domU still runs: its CPU time moves. */
    hypercall_yield();
    if ( xc_domain_getinfolist(xch, domu, 1, &after) != 1 ||
         after.cpu_time <= before.cpu_time || (after.flags & XEN_DOMINF_shutdown) )
        xtf_failure("Fail: d%u stopped running\n", domu);
    else
        printk("d%u still runs\n", domu);

    /*
     * Two mappings of one frame of the domU kept across its death: the
     * frame outlives it until both are gone, and is freed once (the
     * fuzzer found a double free here when this domain was torn down).
     */
    {
        static const xen_pfn_t same[2] = { 0x300, 0x300 };
        int errs[2] = { -1, -1 };

        dup_map = xenforeignmemory_map(fmem, domu, PROT_READ, 2, same, errs);
        if ( !dup_map || errs[0] || errs[1] )
            xtf_failure("Fail: two mappings of one frame: %d %d\n", errs[0], errs[1]);
    }

    if ( xc_domain_shutdown(xch, domu, SHUTDOWN_poweroff) )
        xtf_failure("Fail: shutdown d%u: errno %d\n", domu, errno);
    /* Until it is destroyed, so that this domain's teardown comes after. */
    while ( xc_domain_getinfolist(xch, domu, 1, &after) == 1 && after.domain == domu )
        hypercall_yield();
    printk("d%u destroyed; leaving with its frame mapped twice\n", domu);
}

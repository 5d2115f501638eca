/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building a domain from the control domain, with libxenctrl as a domain
 * builder (and a migration receiver) uses it: XEN_DOMCTL_createdomain,
 * max_mem, XENMEM_populate_physmap (a 2 MiB extent and 4 KiB ones), a
 * foreign mapping to write its kernel, XEN_DOMCTL_sethvmcontext (Xen's save
 * format: HEADER, CPU, END) to set its registers, unpause -- the new domain
 * prints a line and powers itself off.  Also: bad requests are refused and
 * change nothing, and gethvmcontext returns what was set.
 */
#include "test.h"
#include <xenctrl.h>
#include <xenforeignmemory.h>
#include <sys/mman.h>
#include <errno.h>
#include <string.h>
#include "public/hvm/save.h"
#include "xc-domain.h"

const char test_title[] = "Building a domain: createdomain, populate_physmap, sethvmcontext";

#define BUILT_MEM_KB        4096
#define BUILT_LOAD_GFN      0x100

extern const uint8_t built_payload_start[], built_payload_end[];

static xc_interface *xch;
static xenforeignmemory_handle *fmem;

static void expect_fail(const char *what, int rc, int want)
{
    if ( rc < 0 && errno == want )
        printk("%s: refused with errno %d, as expected\n", what, want);
    else
        xtf_failure("Fail: %s: rc %d errno %d, expected errno %d\n", what, rc, errno, want);
}

/* A context for vCPU 0: flat 32-bit protected mode at 'rip'. */
static size_t build_context(uint8_t *buf, uint32_t magic, uint64_t rip)
{
    struct hvm_save_descriptor d;
    struct hvm_save_header h = { .magic = magic, .version = HVM_FILE_VERSION };
    struct hvm_hw_cpu c;
    uint16_t fcw = 0x37f;
    uint32_t mxcsr = 0x1f80;
    size_t off = 0;

    d = (struct hvm_save_descriptor){ HVM_SAVE_CODE(HEADER), 0, sizeof(h) };
    memcpy(buf + off, &d, sizeof(d)); off += sizeof(d);
    memcpy(buf + off, &h, sizeof(h)); off += sizeof(h);

    memset(&c, 0, sizeof(c));
    memcpy(c.fpu_regs, &fcw, sizeof(fcw));
    memcpy(c.fpu_regs + 24, &mxcsr, sizeof(mxcsr));
    c.flags = XEN_X86_FPU_INITIALISED;
    c.rip = rip;
    c.rflags = 0x2;
    c.cr0 = 0x11;                       /* PE | ET */
    c.cs_sel = 0x08; c.cs_limit = ~0u; c.cs_arbytes = 0xc9b;
    c.ds_sel = c.es_sel = c.ss_sel = 0x10;
    c.ds_limit = c.es_limit = c.ss_limit = c.fs_limit = c.gs_limit = ~0u;
    c.ds_arbytes = c.es_arbytes = c.ss_arbytes = c.fs_arbytes = c.gs_arbytes = 0xc93;
    c.tr_limit = 0x67; c.tr_arbytes = 0x8b;
    c.ldtr_arbytes = 0;                 /* not present: unusable */
    d = (struct hvm_save_descriptor){ HVM_SAVE_CODE(CPU), 0, sizeof(c) };
    memcpy(buf + off, &d, sizeof(d)); off += sizeof(d);
    memcpy(buf + off, &c, sizeof(c)); off += sizeof(c);

    d = (struct hvm_save_descriptor){ HVM_SAVE_CODE(END), 0, 0 };
    memcpy(buf + off, &d, sizeof(d)); off += sizeof(d);
    return off;
}

void test_main(void)
{
    static uint8_t ctx[8192], back[8192];
    struct xen_domctl_createdomain cfg = {
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap,
        .max_vcpus = 1,
        .max_evtchn_port = 1023,              /* libxl's default */
        .max_grant_frames = -1,
        .max_maptrack_frames = -1,
        .grant_opts = XEN_DOMCTL_GRANT_version(2),   /* as Xen's libxl */
    };
    struct xen_domctl_createdomain bad = cfg;
    xen_pfn_t gfns[512], big = 0, over = BUILT_MEM_KB / 4, load_gfn = BUILT_LOAD_GFN;
    size_t len = built_payload_end - built_payload_start, n;
    uint32_t domid = 0, bad_id = 0;
    xc_domaininfo_t info;
    unsigned long i;
    int reason;
    uint8_t *p;
    int rc;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    xch = xc_interface_open(NULL, NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !fmem )
        return xtf_error("Error: cannot open the control interface\n");

    bad.flags = 0;
    expect_fail("createdomain of a PV domain", xc_domain_create(xch, &bad_id, &bad), EINVAL);
    bad = cfg;
    bad.max_vcpus = 0;
    expect_fail("createdomain with no vCPU", xc_domain_create(xch, &bad_id, &bad), EINVAL);

    /* The toolstack's UUID for it (Xen's domain handle), as libxl passes it. */
    for ( i = 0; i < sizeof(cfg.handle); i++ )
        cfg.handle[i] = (uint8_t)(0xa0 + i);
    if ( xc_domain_create(xch, &domid, &cfg) )
        return xtf_failure("Fail: createdomain: errno %d\n", errno);
    printk("created d%u\n", domid);
    if ( xc_domain_getinfolist(xch, domid, 1, &info) != 1 ||
         !(info.flags & XEN_DOMINF_paused) || info.tot_pages )
        xtf_failure("Fail: d%u should exist, paused and empty\n", domid);
    if ( memcmp(info.handle, cfg.handle, sizeof(cfg.handle)) )
        xtf_failure("Fail: d%u's handle %02x%02x..%02x, not the one created with\n", domid,
                    info.handle[0], info.handle[1], info.handle[15]);
    cfg.handle[15] ^= 0xff;
    if ( xc_domain_sethandle(xch, domid, cfg.handle) ||
         xc_domain_getinfolist(xch, domid, 1, &info) != 1 ||
         memcmp(info.handle, cfg.handle, sizeof(cfg.handle)) )
        xtf_failure("Fail: d%u's handle not the one set (setdomainhandle)\n", domid);

    if ( xc_domain_setmaxmem(xch, domid, BUILT_MEM_KB) )
        xtf_failure("Fail: max_mem: errno %d\n", errno);

    /* 2 MiB as one superpage extent, 2 MiB as 4 KiB extents. */
    if ( xc_domain_populate_physmap_exact(xch, domid, 1, 9, 0, &big) )
        xtf_failure("Fail: populate 2 MiB extent: errno %d\n", errno);
    for ( i = 0; i < 512; i++ )
        gfns[i] = 512 + i;
    if ( xc_domain_populate_physmap_exact(xch, domid, 512, 0, 0, gfns) )
        xtf_failure("Fail: populate 4 KiB extents: errno %d\n", errno);
    expect_fail("populate past max_mem",
                xc_domain_populate_physmap_exact(xch, domid, 1, 0, 0, &over), EBUSY);
    if ( xc_domain_getinfolist(xch, domid, 1, &info) != 1 ||
         info.tot_pages != BUILT_MEM_KB / 4 )
        xtf_failure("Fail: d%u has %lu pages, expected %u\n", domid,
                    (unsigned long)info.tot_pages, BUILT_MEM_KB / 4);

    /* Its kernel, through a foreign mapping. */
    p = xenforeignmemory_map(fmem, domid, PROT_READ | PROT_WRITE, 1, &load_gfn, NULL);
    if ( !p )
        return xtf_failure("Fail: cannot map d%u's frame: %d\n", domid, -errno);
    memcpy(p, built_payload_start, len);
    xenforeignmemory_unmap(fmem, p, 1);

    /* A context with a bad header is refused; the vCPU stays down. */
    n = build_context(ctx, 0xdeadbeef, BUILT_LOAD_GFN << 12);
    expect_fail("sethvmcontext with a bad header",
                xc_domain_hvm_setcontext(xch, domid, ctx, n), EINVAL);
    n = build_context(ctx, HVM_FILE_MAGIC, BUILT_LOAD_GFN << 12);
    expect_fail("sethvmcontext cut short",
                xc_domain_hvm_setcontext(xch, domid, ctx, n - 8), EINVAL);
    if ( xc_domain_getinfolist(xch, domid, 1, &info) != 1 || info.nr_online_vcpus )
        xtf_failure("Fail: a refused context brought a vCPU up\n");

    if ( xc_domain_hvm_setcontext(xch, domid, ctx, n) )
        xtf_failure("Fail: sethvmcontext: errno %d\n", errno);

    /* Read it back: the size query, then the context itself. */
    rc = xc_domain_hvm_getcontext(xch, domid, NULL, 0);
    if ( rc <= 0 || rc > (int)sizeof(back) )
        xtf_failure("Fail: gethvmcontext size: %d\n", rc);
    else
    {
        /*
         * What was set, and the vCPU's LAPIC, LAPIC_REGS and MTRR records
         * (one of each per vCPU, as Xen).
         */
        const unsigned long want = n + 3 * sizeof(struct hvm_save_descriptor) +
                                   sizeof(struct hvm_hw_lapic) +
                                   sizeof(struct hvm_hw_lapic_regs) +
                                   sizeof(struct hvm_hw_mtrr);

        rc = xc_domain_hvm_getcontext(xch, domid, back, sizeof(back));
        if ( rc != (int)want )
            xtf_failure("Fail: gethvmcontext returned %d bytes, expected %lu\n",
                        rc, want);
        else
        {
            const struct hvm_hw_cpu *c = (const void *)(back + 2 * sizeof(struct hvm_save_descriptor) +
                                                        sizeof(struct hvm_save_header));

            if ( c->rip != BUILT_LOAD_GFN << 12 || c->cs_arbytes != 0xc9b )
                xtf_failure("Fail: gethvmcontext: rip %#lx cs ar %#x\n",
                            (unsigned long)c->rip, c->cs_arbytes);
            else
                printk("gethvmcontext: %d bytes, rip %#lx\n", rc, (unsigned long)c->rip);
        }
    }

    /* Keep one of its frames mapped while it runs and dies. */
    p = xenforeignmemory_map(fmem, domid, PROT_READ, 1, &load_gfn, NULL);
    if ( !p )
        return xtf_failure("Fail: cannot map d%u's frame again: %d\n", domid, -errno);

    /*
     * Run it: it prints and powers itself off, and stays (shut down, as
     * in Xen) until this toolstack destroys it.
     */
    if ( xc_domain_unpause(xch, domid) )
        xtf_failure("Fail: unpause: errno %d\n", errno);
    reason = xc_wait_shutdown(xch, domid, 100000);
    if ( reason != SHUTDOWN_poweroff )
    {
        xc_domain_destroy(xch, domid);
        return xtf_failure("Fail: the built domain did not power itself off (%d)\n", reason);
    }
    printk("d%u ran and powered itself off; it stays until destroyed\n", domid);
    if ( !xc_destroy_wait(xch, domid, 1000) )
        return xtf_failure("Fail: d%u still there after xc_domain_destroy\n", domid);
    printk("d%u destroyed\n", domid);

    /* The mapped frame outlived its domain (as a page reference does in Xen). */
    if ( memcmp(p, built_payload_start, len) )
        xtf_failure("Fail: the frame mapped from d%u changed after it died\n", domid);
    else
        printk("the frame mapped from d%u is still readable after it died\n", domid);
    if ( xenforeignmemory_unmap(fmem, p, 1) )
        xtf_failure("Fail: unmapping the orphaned frame\n");

    xc_interface_close(xch);
    xtf_success("Success: the built domain ran\n");
}

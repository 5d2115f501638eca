/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host unit tests of libxenguest (the PVH builder) and of
 * libxenforeignmemory's core, built from the real sources (with the real
 * libxenctrl and libxencall) over the fake hypervisor (tools/tests/fake).
 *
 *   test-guest [-v] [link-check-program]
 *
 * A good image is built and everything it wrote is checked: the kernel's
 * bytes and zeroed bss, the module, the start info, the memory map, the
 * command lines, the vCPU context, the extents populated.  Malformed
 * images and impossible layouts must each fail with their own message,
 * errno EINVAL (E2BIG for sizes) and XC_INVALID_KERNEL, before any
 * hypercall where the image alone is at fault.  Failures of the
 * hypervisor's side must be reported.  Prints "PASS <case>" or "FAIL
 * <case>" with the failed checks, and ends with "N passed, N failed".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xenctrl.h>
#include <xenforeignmemory.h>
#include <xenguest.h>

#include "../fake/fake.h"
#include "image.h"
#include <xen/grant_table.h>
#include <xen/hvm/start_info.h>

/* The one domain built here, and the bytes of its fresh pages. */
#define FAKE_DOMID          7
#define FAKE_FILL           0xcc
static struct fake_dom *guest;

/* A fresh fake hypervisor with an empty FAKE_DOMID of max_pages. */
static void guest_reset(unsigned long max_pages)
{
    fake_reset();
    guest = fake_new_domain_id(FAKE_DOMID, max_pages, 0, 1);
    guest->fill = FAKE_FILL;
}

#define MiB(x)          ((unsigned long)(x) << 20)
#define PAGES(mb)       (MiB(mb) >> 12)
#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
/* What libxl lets a domain hold beyond its RAM: LIBXL_MAXMEM_CONSTANT. */
#define SLACK           PAGES(1)
/* Xen's special pages: 0xfeff8-0xfefff. */
#define SPECIAL(x)      (0xfeff8UL + (x))

static bool verbose, case_failed;
static xc_interface *xch;
static xentoollog_logger *logger;

static bool check_(bool ok, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool check_(bool ok, int line, const char *fmt, ...)
{
    va_list args;

    if ( ok )
        return true;
    case_failed = true;
    printf("    line %d: ", line);
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');
    return false;
}
#define CHECK(cond, ...) check_(!!(cond), __LINE__, __VA_ARGS__)

/* ---- building ------------------------------------------------------------ */

static uint8_t image[64 * 1024];
static size_t image_size;
static struct image_opts opts;

static const char module_blob[] = "initrd bytes: 0123456789";

struct build {
    unsigned int mem_mb;
    const char *cmdline;
    const void *module;
    size_t module_size;
    const char *module_cmdline;
    uint32_t console_evtchn, xenstore_evtchn;
    uint32_t console_domid, xenstore_domid;
    const struct xc_hvm_firmware_module *acpi;  /* MAX_ACPI_MODULES, or NULL */
};

/* Which step failed (0: none), as the ordered list below. */
enum step {
    STEP_NONE, STEP_ALLOCATE, STEP_KERNEL, STEP_MODULE, STEP_XEN_INIT,
    STEP_PARSE, STEP_MEM_INIT, STEP_BOOT_MEM_INIT, STEP_BUILD, STEP_BOOT,
    STEP_GNTTAB,
};

static const char *const step_names[] = {
    "none", "xc_dom_allocate", "xc_dom_kernel_mem", "xc_dom_module_mem",
    "xc_dom_boot_xen_init", "xc_dom_parse_image", "xc_dom_mem_init",
    "xc_dom_boot_mem_init", "xc_dom_build_image", "xc_dom_boot_image",
    "xc_dom_gnttab_init",
};

/* The builder's decisions, kept before release. */
static struct {
    uint64_t entry, start_info, module_paddr;
    xen_pfn_t console_pfn, xenstore_pfn;
} got;

/* The whole sequence, as libxl does it; errno kept from the failed step. */
static enum step build(const struct build *b)
{
    struct xc_dom_image *dom;
    enum step failed = STEP_NONE;
    int saved_errno;

    guest_reset(PAGES(b->mem_mb) + SLACK);
    dom = xc_dom_allocate(xch, b->cmdline, NULL);
    if ( !dom )
        return STEP_ALLOCATE;
    dom->console_evtchn = b->console_evtchn;
    dom->xenstore_evtchn = b->xenstore_evtchn;
    dom->console_domid = b->console_domid;
    dom->xenstore_domid = b->xenstore_domid;
    if ( b->acpi )
        memcpy(dom->acpi_modules, b->acpi, sizeof(dom->acpi_modules));

    if ( xc_dom_kernel_mem(dom, image, image_size) )
        failed = STEP_KERNEL;
    else if ( b->module &&
              xc_dom_module_mem(dom, b->module, b->module_size, b->module_cmdline) )
        failed = STEP_MODULE;
    else if ( xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) )
        failed = STEP_XEN_INIT;
    else if ( xc_dom_parse_image(dom) )
        failed = STEP_PARSE;
    else if ( xc_dom_mem_init(dom, b->mem_mb) )
        failed = STEP_MEM_INIT;
    else if ( xc_dom_boot_mem_init(dom) )
        failed = STEP_BOOT_MEM_INIT;
    else if ( xc_dom_build_image(dom) )
        failed = STEP_BUILD;
    else if ( xc_dom_boot_image(dom) )
        failed = STEP_BOOT;
    else if ( xc_dom_gnttab_init(dom) )
        failed = STEP_GNTTAB;

    got.entry = dom->phys_entry;
    got.console_pfn = dom->console_pfn;
    got.xenstore_pfn = dom->xenstore_pfn;
    got.start_info = dom->start_info_seg.vstart;
    got.module_paddr = dom->num_modules ? dom->modules[0].seg.vstart : 0;
    saved_errno = errno;
    xc_dom_release(dom);
    errno = saved_errno;
    return failed;
}

static void remake_image(void)
{
    image_size = image_build(image, sizeof(image), &opts);
}

/* The class default_image() builds. */
static unsigned int image_class = IMAGE_ELF64;

static void default_image(void)
{
    image_default_opts(&opts);
    opts.elf_class = image_class;
    remake_image();
}

static const struct build default_build = {
    .mem_mb = 8,
    .cmdline = "console=hvc0 root=/dev/xvda",
    .module = module_blob,
    .module_size = sizeof(module_blob),
    .module_cmdline = "initrd=yes",
};

/* Nothing may stay mapped or allocated behind the builder. */
static void check_clean(void)
{
    CHECK(!fake.live_maps, "%u mappings left", fake.live_maps);
    CHECK(!guest || !guest->live_resource_maps, "%u resource mappings left",
          guest->live_resource_maps);
    CHECK(!fake_live_buffer_pages() || fake_live_buffer_pages() <= 4,
          "%lu hypercall buffer pages left", fake_live_buffer_pages());
}

/* ---- the good image ------------------------------------------------------- */

static void check_kernel_bytes(void)
{
    uint8_t buf[0x2345];
    size_t i;
    bool text_ok = true, bss_ok = true;

    CHECK(fake_read(guest, 0x100000, buf, opts.text), "kernel pages not populated");
    for ( i = 0; i < opts.text; i++ )
        text_ok &= buf[i] == image_text_byte(i);
    CHECK(text_ok, "the kernel's bytes differ from the image");
    for ( i = 0; i < opts.bss; i++ )
        bss_ok &= fake_byte(guest, 0x100000 + opts.text + i) == 0;
    CHECK(bss_ok, "the bss is not zeroed");
    CHECK(fake_byte(guest, 0x100000 + opts.text + opts.bss) == FAKE_FILL,
          "bytes past the segment were written");
}

static void check_start_info(const struct build *b, unsigned int nr_modules)
{
    const uint64_t ram = MiB(b->mem_mb), si_pa = ram - 4096;
    uint8_t page[4096];
    struct hvm_start_info si;
    struct hvm_memmap_table_entry mm[4];
    struct hvm_modlist_entry ml;
    const struct hvm_memmap_table_entry want[4] = {
        { 0, 0xa0000, XEN_HVM_MEMMAP_TYPE_RAM, 0 },
        { 0xa0000, 0x60000, XEN_HVM_MEMMAP_TYPE_RESERVED, 0 },
        { 0x100000, si_pa - 0x100000, XEN_HVM_MEMMAP_TYPE_RAM, 0 },
        { si_pa, 4096, XEN_HVM_MEMMAP_TYPE_RESERVED, 0 },
    };
    const char *cmdline = b->cmdline ? b->cmdline : "";

    CHECK(got.start_info == si_pa, "start info at %#lx, want %#lx",
          (unsigned long)got.start_info, (unsigned long)si_pa);
    if ( !CHECK(fake_read(guest, si_pa, page, sizeof(page)), "start info page missing") )
        return;
    memcpy(&si, page, sizeof(si));
    CHECK(si.magic == XEN_HVM_START_MAGIC_VALUE, "magic %#x", si.magic);
    CHECK(si.version == 1, "version %u", si.version);
    CHECK(si.flags == 0, "flags %#x", si.flags);
    CHECK(si.rsdp_paddr == 0 && si.reserved == 0, "rsdp/reserved set");
    CHECK(si.cmdline_paddr == si_pa + 0x400, "cmdline at %#lx",
          (unsigned long)si.cmdline_paddr);
    CHECK(!strcmp((char *)page + 0x400, cmdline), "cmdline \"%s\"",
          (char *)page + 0x400);
    CHECK(si.memmap_paddr == si_pa + 0x100 && si.memmap_entries == 4,
          "memmap %#lx, %u entries", (unsigned long)si.memmap_paddr,
          si.memmap_entries);
    memcpy(mm, page + 0x100, sizeof(mm));
    CHECK(!memcmp(mm, want, sizeof(mm)), "the memory map differs");
    CHECK(si.nr_modules == nr_modules, "%u modules", si.nr_modules);
    if ( !nr_modules )
    {
        CHECK(!si.modlist_paddr, "modlist at %#lx", (unsigned long)si.modlist_paddr);
        return;
    }

    CHECK(si.modlist_paddr == si_pa + 0x200, "modlist at %#lx",
          (unsigned long)si.modlist_paddr);
    memcpy(&ml, page + 0x200, sizeof(ml));
    /* After the kernel's last byte (0x103b45), page aligned. */
    CHECK(ml.paddr == 0x104000 && ml.paddr == got.module_paddr,
          "module at %#lx", (unsigned long)ml.paddr);
    CHECK(ml.size == b->module_size, "module size %lu", (unsigned long)ml.size);
    CHECK(ml.reserved == 0, "modlist reserved field set");
    if ( b->module_cmdline )
        CHECK(ml.cmdline_paddr == si.cmdline_paddr + strlen(cmdline) + 1 &&
              !strcmp((char *)page + (ml.cmdline_paddr - si_pa), b->module_cmdline),
              "module cmdline at %#lx", (unsigned long)ml.cmdline_paddr);
    else
        CHECK(!ml.cmdline_paddr, "module cmdline at %#lx",
              (unsigned long)ml.cmdline_paddr);

    {
        uint8_t mod[sizeof(module_blob)];

        CHECK(fake_read(guest, ml.paddr, mod, b->module_size) &&
              !memcmp(mod, b->module, b->module_size), "the module's bytes differ");
    }
}

static void check_context(uint64_t entry, uint64_t start_info)
{
    struct hvm_save_descriptor d[3];
    struct hvm_save_header hdr;
    struct hvm_hw_cpu c;
    const uint8_t *p = guest->context;
    uint16_t fcw;
    uint32_t mxcsr;

    if ( !CHECK(guest->context_size == 3 * sizeof(d[0]) + sizeof(hdr) + sizeof(c),
                "context of %u bytes", guest->context_size) )
        return;
    memcpy(&d[0], p, sizeof(d[0]));
    memcpy(&hdr, p + sizeof(d[0]), sizeof(hdr));
    memcpy(&d[1], p + sizeof(d[0]) + sizeof(hdr), sizeof(d[1]));
    memcpy(&c, p + 2 * sizeof(d[0]) + sizeof(hdr), sizeof(c));
    memcpy(&d[2], p + 2 * sizeof(d[0]) + sizeof(hdr) + sizeof(c), sizeof(d[2]));

    CHECK(d[0].typecode == HVM_SAVE_CODE(HEADER) && d[0].length == sizeof(hdr),
          "first record %u", d[0].typecode);
    CHECK(hdr.magic == HVM_FILE_MAGIC && hdr.version == HVM_FILE_VERSION &&
          hdr.cpuid == FAKE_CPUID && hdr.changeset == 0x1234,
          "the header is not the hypervisor's");
    CHECK(d[1].typecode == HVM_SAVE_CODE(CPU) && d[1].instance == 0 &&
          d[1].length == sizeof(c), "second record %u/%u", d[1].typecode,
          d[1].instance);
    CHECK(d[2].typecode == HVM_SAVE_CODE(END) && d[2].length == 0,
          "third record %u", d[2].typecode);

    CHECK(c.rip == entry, "rip %#lx", (unsigned long)c.rip);
    CHECK(c.rbx == start_info, "rbx %#lx", (unsigned long)c.rbx);
    CHECK(c.cr0 == 0x11 && !c.cr3 && !c.cr4 && !c.msr_efer,
          "cr0 %#lx cr4 %#lx efer %#lx", (unsigned long)c.cr0,
          (unsigned long)c.cr4, (unsigned long)c.msr_efer);
    CHECK(c.rflags == 0x2, "rflags %#lx", (unsigned long)c.rflags);
    CHECK(c.cs_base == 0 && c.cs_limit == ~0u && c.cs_arbytes == 0xc9b,
          "cs %#lx/%#x/%#x", (unsigned long)c.cs_base, c.cs_limit, c.cs_arbytes);
    CHECK(c.ds_limit == ~0u && c.ds_arbytes == 0xc93 &&
          c.es_limit == ~0u && c.es_arbytes == 0xc93 &&
          c.ss_limit == ~0u && c.ss_arbytes == 0xc93, "data segments");
    CHECK(c.tr_limit == 0x67 && c.tr_arbytes == 0x8b, "tr %#x/%#x",
          c.tr_limit, c.tr_arbytes);
    CHECK(c.ldtr_arbytes == 0, "ldtr ar %#x", c.ldtr_arbytes);
    CHECK(!c.rax && !c.rcx && !c.rdx && !c.rsp && !c.rsi && !c.rdi,
          "other registers set");
    memcpy(&fcw, c.fpu_regs, sizeof(fcw));
    memcpy(&mxcsr, c.fpu_regs + 24, sizeof(mxcsr));
    CHECK(fcw == 0x37f && mxcsr == 0x1f80 && c.flags == XEN_X86_FPU_INITIALISED,
          "fpu fcw %#x mxcsr %#x flags %#lx", fcw, mxcsr, (unsigned long)c.flags);
}

static void test_good_image(void)
{
    enum step s;

    default_image();
    s = build(&default_build);
    if ( !CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
                xc_get_last_error(xch)->message) )
        return;
    CHECK(guest->tot_pages == PAGES(8) + 8, "%lu pages populated", guest->tot_pages);
    CHECK(guest->extents_2m == 4 && guest->extents_4k == 8,
          "%u 2 MiB and %u 4 KiB extents", guest->extents_2m, guest->extents_4k);
    CHECK(!fake.bad_map, "a frame outside RAM was mapped");
    CHECK(got.entry == 0x100040, "entry %#lx", (unsigned long)got.entry);
    check_kernel_bytes();
    check_start_info(&default_build, 1);
    check_context(0x100040, MiB(8) - 4096);
    check_clean();
}

/* The same image in the other class, or with the other x86 machine. */
static void good_variant(unsigned int elf_class, uint16_t machine)
{
    enum step s;

    image_default_opts(&opts);
    opts.elf_class = elf_class;
    opts.machine = machine;
    remake_image();
    CHECK(image[4] == elf_class, "the image's class byte is %u", image[4]);
    s = build(&default_build);
    if ( !CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
                xc_get_last_error(xch)->message) )
        return;
    CHECK(got.entry == 0x100040, "entry %#lx", (unsigned long)got.entry);
    check_kernel_bytes();
    check_start_info(&default_build, 1);
    check_context(0x100040, MiB(8) - 4096);
    check_clean();
}

static void test_good_elf32(void) { good_variant(IMAGE_ELF32, 62); }
static void test_good_elf32_i386(void) { good_variant(IMAGE_ELF32, 3); }
static void test_good_elf64_i386(void) { good_variant(IMAGE_ELF64, 3); }

/* Linux's vmlinux gives the entry as an 8-byte value. */
static void test_entry_8_bytes(void)
{
    enum step s;

    image_default_opts(&opts);
    opts.entry_size = 8;
    opts.entry = 0x100100;
    remake_image();
    s = build(&default_build);
    CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
          xc_get_last_error(xch)->message);
    check_context(0x100100, MiB(8) - 4096);
    check_clean();
}

static void test_no_module_no_cmdline(void)
{
    const struct build b = { .mem_mb = 4 };
    enum step s;

    default_image();
    s = build(&b);
    CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
          xc_get_last_error(xch)->message);
    check_start_info(&b, 0);
    check_context(0x100040, MiB(4) - 4096);
    check_clean();
}

/* 5 MiB: two 2 MiB extents, then 256 pages of 4 KiB. */
static void test_odd_memory_size(void)
{
    const struct build b = { .mem_mb = 5, .cmdline = "x" };
    enum step s;

    default_image();
    s = build(&b);
    CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
          xc_get_last_error(xch)->message);
    CHECK(guest->tot_pages == PAGES(5) + 8, "%lu pages populated", guest->tot_pages);
    CHECK(guest->extents_2m == 2 && guest->extents_4k == 256 + 8,
          "%u 2 MiB and %u 4 KiB extents", guest->extents_2m, guest->extents_4k);
    check_start_info(&b, 0);
    check_clean();
}

/* No 2 MiB of host memory in one piece: 4 KiB pages instead. */
static void test_superpage_fallback(void)
{
    enum step s;

    default_image();
    guest_reset(PAGES(8));
    fake.refuse_2m = true;
    {
        struct xc_dom_image *dom = xc_dom_allocate(xch, "", NULL);

        s = STEP_NONE;
        if ( xc_dom_kernel_mem(dom, image, image_size) ||
             xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
             xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
             xc_dom_boot_mem_init(dom) )
            s = STEP_BOOT_MEM_INIT;
        xc_dom_release(dom);
    }
    CHECK(s == STEP_NONE, "failed: %s", xc_get_last_error(xch)->message);
    CHECK(guest->tot_pages == PAGES(8) && guest->extents_2m == 0 &&
          guest->extents_4k == PAGES(8), "%lu pages, %u/%u extents",
          guest->tot_pages, guest->extents_2m, guest->extents_4k);
    check_clean();
}

/* ---- Xen's special pages, the rings' grants, ACPI --------------------------- */

/*
 * The special pages: populated, zeroed but for the identity map, their
 * HVM parameters Xen's; the ports in STORE_/CONSOLE_EVTCHN; grant
 * entries 0 and 1 granting the rings to their backends, nothing else of
 * the table written.
 */
static void test_special_pages(void)
{
    struct build b = default_build;
    static const struct { uint32_t param; uint64_t value; } want[] = {
        { HVM_PARAM_PAGING_RING_PFN, SPECIAL(0) },
        { HVM_PARAM_MONITOR_RING_PFN, SPECIAL(1) },
        { HVM_PARAM_SHARING_RING_PFN, SPECIAL(2) },
        { HVM_PARAM_BUFIOREQ_PFN, SPECIAL(3) },
        { HVM_PARAM_STORE_PFN, SPECIAL(4) },
        { HVM_PARAM_IOREQ_PFN, SPECIAL(5) },
        { HVM_PARAM_IDENT_PT, SPECIAL(6) << 12 },
        { HVM_PARAM_CONSOLE_PFN, SPECIAL(7) },
        { HVM_PARAM_STORE_EVTCHN, 3 },
        { HVM_PARAM_CONSOLE_EVTCHN, 2 },
    };
    uint8_t page[4096];
    grant_entry_v1_t g[2];
    bool zero = true, pt = true;
    unsigned int i, j;
    enum step s;

    b.console_evtchn = 2;
    b.xenstore_evtchn = 3;
    b.console_domid = 0;
    b.xenstore_domid = 5;
    default_image();
    s = build(&b);
    if ( !CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
                xc_get_last_error(xch)->message) )
        return;
    for ( i = 0; i < ARRAY_SIZE(want); i++ )
        CHECK(guest->param_set[want[i].param] &&
              guest->params[want[i].param] == want[i].value,
              "HVM parameter %u: %#lx (set %d), want %#lx", want[i].param,
              (unsigned long)guest->params[want[i].param],
              guest->param_set[want[i].param], (unsigned long)want[i].value);
    CHECK(got.xenstore_pfn == SPECIAL(4) && got.console_pfn == SPECIAL(7),
          "xenstore_pfn %#lx console_pfn %#lx", (unsigned long)got.xenstore_pfn,
          (unsigned long)got.console_pfn);
    for ( i = 0; i < 8; i++ )
    {
        if ( !CHECK(fake_populated(guest, SPECIAL(i)), "special page %u not populated", i) )
            return;
        fake_page_read(guest, SPECIAL(i), page);
        for ( j = 0; j < sizeof(page); j++ )
        {
            if ( i == 6 )
            {
                uint32_t pde, want_pde = ((j / 4) << 22) | 0xe7;

                if ( j % 4 == 0 )
                {
                    memcpy(&pde, page + j, 4);
                    pt &= pde == want_pde;
                }
            }
            else
                zero &= page[j] == 0;
        }
    }
    CHECK(zero, "a special page is not zeroed");
    CHECK(pt, "the identity-map page table is not 4 MiB pages of the low 4 GiB");
    CHECK(!fake_populated(guest, SPECIAL(8)) && !fake_populated(guest, SPECIAL(0) - 1),
          "pages around the special ones populated");

    memcpy(g, guest->gnttab, sizeof(g));
    CHECK(guest->resource_maps == 1, "%u resource mappings", guest->resource_maps);
    CHECK(g[GNTTAB_RESERVED_CONSOLE].flags == GTF_permit_access &&
          g[GNTTAB_RESERVED_CONSOLE].domid == 0 &&
          g[GNTTAB_RESERVED_CONSOLE].frame == SPECIAL(7),
          "console grant %#x/%u/%#x", g[0].flags, g[0].domid, g[0].frame);
    CHECK(g[GNTTAB_RESERVED_XENSTORE].flags == GTF_permit_access &&
          g[GNTTAB_RESERVED_XENSTORE].domid == 5 &&
          g[GNTTAB_RESERVED_XENSTORE].frame == SPECIAL(4),
          "xenstore grant %#x/%u/%#x", g[1].flags, g[1].domid, g[1].frame);
    for ( i = 2 * sizeof(g[0]); i < sizeof(guest->gnttab); i++ )
        if ( guest->gnttab[i] )
            break;
    CHECK(i == sizeof(guest->gnttab), "grant table byte %u written", i);
    check_clean();
}

/* No room for the special pages beyond RAM (max_mem without libxl's slack). */
static void test_special_pages_no_room(void)
{
    struct xc_dom_image *dom;
    int rc;

    default_image();
    guest_reset(PAGES(8) + 7);
    dom = xc_dom_allocate(xch, "", NULL);
    rc = xc_dom_kernel_mem(dom, image, image_size) ||
         xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
         xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
         xc_dom_boot_mem_init(dom);
    CHECK(!rc, "setup failed");
    CHECK(xc_dom_build_image(dom) == -1, "build_image succeeded");
    CHECK(strstr(xc_get_last_error(xch)->message, "cannot populate d7's special pages"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    xc_dom_release(dom);
    check_clean();
}

/* acquire_resource refused: the seeding fails and says so, nothing written. */
static void test_gnttab_seed_fails(void)
{
    struct xc_dom_image *dom;
    enum step s = STEP_NONE;

    default_image();
    guest_reset(PAGES(8) + SLACK);
    fake_fail("acquire_resource", 0, EOPNOTSUPP);
    dom = xc_dom_allocate(xch, default_build.cmdline, NULL);
    if ( xc_dom_kernel_mem(dom, image, image_size) ||
         xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
         xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
         xc_dom_boot_mem_init(dom) || xc_dom_build_image(dom) ||
         xc_dom_boot_image(dom) )
        s = STEP_BOOT;
    else if ( xc_dom_gnttab_init(dom) )
        s = STEP_GNTTAB;
    xc_dom_release(dom);
    CHECK(s == STEP_GNTTAB, "step %s", step_names[s]);
    CHECK(strstr(xc_get_last_error(xch)->message, "failed to acquire d7's grant table") &&
          strstr(xc_get_last_error(xch)->message, "compat path"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    CHECK(!guest->gnttab[0] && !guest->gnttab[8], "entries written");
    check_clean();
}

/* ACPI modules: populated and copied, in the memory map, RSDP in the start info. */
static void test_acpi_modules(void)
{
    static uint8_t tables[5000], rsdp[64];
    struct xc_hvm_firmware_module acpi[MAX_ACPI_MODULES] = {
        { rsdp, sizeof(rsdp), 0xfc003000 },
        { tables, sizeof(tables), 0xfc001000 },
    };
    struct build b = default_build;
    struct hvm_start_info si;
    struct hvm_memmap_table_entry mm[6];
    uint8_t buf[sizeof(tables)];
    const uint64_t si_pa = MiB(8) - 4096;
    enum step s;
    unsigned int i;

    for ( i = 0; i < sizeof(tables); i++ )
        tables[i] = (uint8_t)(i * 7 + 1);
    memcpy(rsdp, "RSD PTR ", 8);
    b.acpi = acpi;
    default_image();
    s = build(&b);
    if ( !CHECK(s == STEP_NONE, "%s failed: %s", step_names[s],
                xc_get_last_error(xch)->message) )
        return;
    CHECK(guest->tot_pages == PAGES(8) + 8 + 3, "%lu pages populated", guest->tot_pages);
    CHECK(fake_read(guest, 0xfc001000, buf, sizeof(tables)) &&
          !memcmp(buf, tables, sizeof(tables)), "the tables' bytes differ");
    CHECK(fake_byte(guest, 0xfc001000 + sizeof(tables)) == 0,
          "the rest of the page is not zeroed");
    CHECK(fake_read(guest, 0xfc003000, buf, 64) && !memcmp(buf, rsdp, 64),
          "the RSDP differs");
    CHECK(!fake_populated(guest, 0xfc000) && !fake_populated(guest, 0xfc004),
          "pages around the tables populated");
    if ( !CHECK(fake_read(guest, si_pa, &si, sizeof(si)), "no start info") )
        return;
    CHECK(si.rsdp_paddr == 0xfc003000, "rsdp_paddr %#lx", (unsigned long)si.rsdp_paddr);
    CHECK(si.memmap_entries == 6, "%u memory map entries", si.memmap_entries);
    fake_read(guest, si.memmap_paddr, mm, sizeof(mm));
    CHECK(mm[4].addr == 0xfc003000 && mm[4].size == 64 &&
          mm[4].type == XEN_HVM_MEMMAP_TYPE_ACPI, "entry 4 %#lx+%#lx type %u",
          (unsigned long)mm[4].addr, (unsigned long)mm[4].size, mm[4].type);
    CHECK(mm[5].addr == 0xfc001000 && mm[5].size == sizeof(tables) &&
          mm[5].type == XEN_HVM_MEMMAP_TYPE_ACPI, "entry 5 %#lx+%#lx type %u",
          (unsigned long)mm[5].addr, (unsigned long)mm[5].size, mm[5].type);
    check_clean();
}

static void test_acpi_over_ram(void)
{
    static uint8_t rsdp[64];
    struct xc_hvm_firmware_module acpi[MAX_ACPI_MODULES] = {
        { rsdp, sizeof(rsdp), 0x200000 },
    };
    struct build b = default_build;
    enum step s;

    b.acpi = acpi;
    default_image();
    s = build(&b);
    CHECK(s == STEP_BUILD, "step %s", step_names[s]);
    CHECK(strstr(xc_get_last_error(xch)->message, "ACPI module 0 at 0x200000 overlaps RAM"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    check_clean();
}

/* ---- bad images and layouts ----------------------------------------------- */

struct bad_case {
    const char *name;
    void (*corrupt)(void);
    struct build b;
    enum step step;             /* where it must fail */
    int err;                    /* errno */
    enum xc_error_code code;    /* xc_get_last_error code */
    const char *message;        /* in the error message */
};

static void set_u16(size_t off, uint16_t v) { memcpy(image + off, &v, sizeof(v)); }
static void set_u32(size_t off, uint32_t v) { memcpy(image + off, &v, sizeof(v)); }

/* Where the fields are in each class (the System V ABI's layouts). */
static const struct elf_layout {
    unsigned int word;                      /* bytes in an address or offset */
    size_t phoff, shoff, phentsize, phnum, shentsize, shnum;
    size_t phdr_size, shdr_size;
    size_t p_type, p_offset, p_paddr, p_filesz, p_memsz;
} layout64 = { 8, 32, 40, 54, 56, 58, 60, 56, 64, 0, 8, 24, 32, 40 },
  layout32 = { 4, 28, 32, 42, 44, 46, 48, 32, 40, 0, 4, 12, 16, 20 };
static const struct elf_layout *L = &layout64;

/* An address or offset field: 8 bytes in ELF64, the low 4 in ELF32. */
static void set_word(size_t off, uint64_t v)
{
    if ( L->word == 8 )
        memcpy(image + off, &v, sizeof(v));
    else
        set_u32(off, (uint32_t)v);
}

#define PH(i, field)    (IMAGE_PHDR_OFFSET + (i) * L->phdr_size + L->field)
#define EH_MACHINE      18
#define EH_TYPE         16

static void bad_magic(void) { image[1] ^= 0xff; }
static void truncated(void) { image_size = 40; }
static void class_unknown(void) { image[4] = 3; }
static void class_swapped(void) { image[4] ^= 3; /* ELF32 <-> ELF64 */ }
static void big_endian(void) { image[5] = 2; }
static void not_x86(void) { set_u16(EH_MACHINE, 40); /* EM_ARM */ }
static void not_exec(void) { set_u16(EH_TYPE, 1); /* ET_REL */ }
static void no_phdrs(void) { set_u16(L->phnum, 0); }
static void bad_phentsize(void) { set_u16(L->phentsize, 40); }
static void phdrs_past_end(void) { set_word(L->phoff, image_size - 60); }
static void phoff_huge(void) { set_word(L->phoff, ~0ULL - 8); }
static void phnum_huge(void) { set_u16(L->phnum, 0xffff); }
static void shdrs_past_end(void)
{
    set_word(L->shoff, image_size - L->shdr_size);
    set_u16(L->shentsize, L->shdr_size);
    set_u16(L->shnum, 3);
}
static void offset_past_end(void) { set_word(PH(0, p_offset), image_size + 0x1000); }
static void filesz_past_end(void) { set_word(PH(0, p_filesz), opts.text + 1); set_word(PH(0, p_memsz), 0x10000); }
static void offset_wraps(void) { set_word(PH(0, p_offset), ~0ULL - 16); }
static void filesz_over_memsz(void) { set_word(PH(0, p_memsz), opts.text - 1); }
static void no_load(void) { set_u32(PH(0, p_type), 6); /* PT_PHDR */ }
static void no_note(void) { opts.entry_size = 0; remake_image(); }
static void note_segment_past_end(void) { set_word(PH(1, p_offset), image_size + 16); }
static void note_overruns(void) { set_u32(IMAGE_NOTE_OFFSET, 0x1000); }
static void note_descsz_huge(void) { set_u32(IMAGE_NOTE_OFFSET + 4, 0xfffffffd); }
static void note_name_unpadded(void) { set_u32(IMAGE_NOTE_OFFSET, 5); }
static void note_2_bytes(void) { set_u32(IMAGE_NOTE_OFFSET + 4, 2); set_word(PH(1, p_filesz), 12 + 4 + 4); }
static void entry_outside(void) { opts.entry = 0x200000; remake_image(); }
static void entry_in_bss_end(void) { opts.entry = 0x100000 + opts.text + opts.bss; remake_image(); }
static void paddr_wraps(void) { set_word(PH(0, p_paddr), ~0ULL - 0x100); }
static void top_of_4g(void) { opts.paddr = 0xffffa000; opts.entry = opts.paddr + 0x40; remake_image(); }
static void below_1mib(void) { opts.paddr = 0x80000; opts.entry = 0x80040; remake_image(); }
static void beyond_ram(void) { set_word(PH(0, p_memsz), MiB(8)); }
static void over_start_info(void) { opts.paddr = MiB(8) - 0x2000; opts.entry = opts.paddr; remake_image(); }
static void none(void) { }

static char long_cmdline[4000];
static const uint8_t big_module[1];

static const struct bad_case bad_cases[] = {
    { "bad magic", bad_magic, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "not an ELF file (bad magic)" },
    { "truncated header", truncated, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "truncated (40 bytes" },
    { "unknown class byte", class_unknown, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "unknown ELF class 3" },
    { "the other class's byte", class_swapped, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "header claims 0 bytes" },
    { "big-endian", big_endian, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "not a little-endian ELF file (data 2)" },
    { "wrong machine", not_x86, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "not an x86 executable (type 2, machine 40" },
    { "not an executable", not_exec, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "not an x86 executable (type 1," },
    { "no program headers", no_phdrs, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "has no program headers" },
    { "wrong program header size", bad_phentsize, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "program headers (2 of 40 bytes at offset 0x40) are not" },
    { "program headers past the end", phdrs_past_end, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "lie outside the image" },
    { "program header offset wraps", phoff_huge, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "lie outside the image" },
    { "65535 program headers", phnum_huge, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "program headers (65535 of" },
    { "section headers past the end", shdrs_past_end, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "section headers (3 of" },
    { "segment offset past the end", offset_past_end, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "segment 0 (0x2345 bytes at offset" },
    { "segment runs past the end", filesz_past_end, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "lies outside the image" },
    { "segment offset wraps", offset_wraps, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "lies outside the image" },
    { "file size over memory size", filesz_over_memsz, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "more bytes in the file" },
    { "no loadable segment", no_load, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "no loadable segment" },
    { "no entry note", no_note, { .mem_mb = 8 }, STEP_PARSE, EINVAL, XC_INVALID_KERNEL,
      "no PVH entry point (no XEN_ELFNOTE_PHYS32_ENTRY note)" },
    { "note segment past the end", note_segment_past_end, { .mem_mb = 8 }, STEP_PARSE,
      EINVAL, XC_INVALID_KERNEL, "segment 1 (0x14 bytes at offset" },
    { "note name runs past its segment", note_overruns, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "(name 4096 bytes, descriptor 4 bytes) runs past the end of segment 1" },
    { "note descriptor size wraps", note_descsz_huge, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "descriptor 4294967293 bytes) runs past the end of segment 1" },
    { "note name padding past its segment", note_name_unpadded, { .mem_mb = 8 }, STEP_PARSE,
      EINVAL, XC_INVALID_KERNEL, "(name 5 bytes, descriptor 4 bytes) runs past" },
    { "entry note of 2 bytes", note_2_bytes, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "2-byte value" },
    { "entry outside the segments", entry_outside, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "PVH entry point 0x200000 lies outside" },
    { "entry just past the segment", entry_in_bss_end, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
      XC_INVALID_KERNEL, "lies outside the loaded segments" },
    { "segment at the top of 4 GiB", top_of_4g, { .mem_mb = 8 }, STEP_MEM_INIT, EINVAL,
      XC_INVALID_KERNEL, "segment 0 at 0xffffa000+0x3b45 does not fit in guest RAM" },
    { "segment below 1 MiB", below_1mib, { .mem_mb = 8 }, STEP_MEM_INIT, EINVAL,
      XC_INVALID_KERNEL, "segment 0 at 0x80000+0x3b45 does not fit in guest RAM" },
    { "segment beyond RAM", beyond_ram, { .mem_mb = 8 }, STEP_MEM_INIT, EINVAL,
      XC_INVALID_KERNEL, "does not fit in guest RAM (0x100000-0x7ff000)" },
    { "segment over the start info", over_start_info, { .mem_mb = 8 }, STEP_MEM_INIT, EINVAL,
      XC_INVALID_KERNEL, "does not fit in guest RAM" },
    { "memory too small", none, { .mem_mb = 1 }, STEP_MEM_INIT, EINVAL, XC_INVALID_PARAM,
      "memory size 1 MiB out of range" },
    { "memory too large", none, { .mem_mb = 4096 }, STEP_MEM_INIT, EINVAL, XC_INVALID_PARAM,
      "memory size 4096 MiB out of range" },
    { "module larger than RAM", none,
      { .mem_mb = 4, .module = big_module, .module_size = MiB(4) }, STEP_MEM_INIT, EINVAL,
      XC_INVALID_PARAM, "module 0 (4194304 bytes) does not fit" },
    { "command line too long", none, { .mem_mb = 8, .cmdline = long_cmdline }, STEP_MEM_INIT, E2BIG,
      XC_INVALID_PARAM, "command lines too long" },
};

/* Only ELF64's 64-bit fields can wrap around. */
static const struct bad_case bad_case_wrap64 = {
    "segment wraps around", paddr_wraps, { .mem_mb = 8 }, STEP_PARSE, EINVAL,
    XC_INVALID_KERNEL, "wraps around: it does not fit in guest RAM",
};

static void check_bad_image(const struct bad_case *c)
{
    const xc_error *e;
    enum step s;

    default_image();
    c->corrupt();
    xc_clear_last_error(xch);
    s = build(&c->b);
    e = xc_get_last_error(xch);
    if ( verbose )
        printf("    %-32s %s: %s\n", c->name, step_names[s], e->message);
    CHECK(s == c->step, "%s: failed at %s, expected %s (%s)", c->name,
          step_names[s], step_names[c->step], e->message);
    CHECK(errno == c->err, "%s: errno %d, expected %d", c->name, errno,
          c->err);
    CHECK(e->code == c->code, "%s: error code %d, expected %d", c->name,
          e->code, c->code);
    CHECK(strstr(e->message, c->message), "%s: message \"%s\" lacks \"%s\"",
          c->name, e->message, c->message);
    /* The image alone is at fault: nothing was asked of the hypervisor. */
    CHECK(!fake.hypercalls && !fake.maps, "%s: %u hypercalls, %u maps",
          c->name, fake.hypercalls, fake.maps);
    check_clean();
}

/* Every case in both classes (the layouts differ, the checks may not). */
static void bad_images_of_class(unsigned int elf_class)
{
    unsigned int i;

    image_class = elf_class;
    L = elf_class == IMAGE_ELF32 ? &layout32 : &layout64;
    memset(long_cmdline, 'x', sizeof(long_cmdline) - 1);
    for ( i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++ )
        check_bad_image(&bad_cases[i]);
    if ( elf_class == IMAGE_ELF64 )
        check_bad_image(&bad_case_wrap64);
    image_class = IMAGE_ELF64;
    L = &layout64;
}

static void test_bad_images_elf64(void) { bad_images_of_class(IMAGE_ELF64); }
static void test_bad_images_elf32(void) { bad_images_of_class(IMAGE_ELF32); }

/* The four failures the toolstack's users see most, told apart. */
static void test_distinct_messages(void)
{
    void (*const corrupt[])(void) = { bad_magic, offset_past_end, beyond_ram, no_note };
    char msgs[4][XC_MAX_ERROR_MSG_LEN];
    unsigned int i, j;

    for ( i = 0; i < 4; i++ )
    {
        default_image();
        corrupt[i]();
        build(&default_build);
        snprintf(msgs[i], sizeof(msgs[i]), "%s", xc_get_last_error(xch)->message);
    }
    for ( i = 0; i < 4; i++ )
        for ( j = i + 1; j < 4; j++ )
            CHECK(strcmp(msgs[i], msgs[j]), "same message: %s", msgs[i]);
}

/* ---- the hypervisor's side failing ---------------------------------------- */

static void test_populate_fails(void)
{
    struct xc_dom_image *dom;
    int rc;

    default_image();
    guest_reset(PAGES(8) - 1);           /* max_mem one page short */
    dom = xc_dom_allocate(xch, "", NULL);
    rc = xc_dom_kernel_mem(dom, image, image_size) ||
         xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
         xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8);
    CHECK(!rc, "setup failed: %s", xc_get_last_error(xch)->message);
    rc = xc_dom_boot_mem_init(dom);
    CHECK(rc == -1, "boot_mem_init returned %d", rc);
    CHECK(strstr(xc_get_last_error(xch)->message, "cannot populate d7's RAM"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    xc_dom_release(dom);
    check_clean();
}

static void test_setcontext_fails(void)
{
    enum step s;

    default_image();
    guest_reset(PAGES(8) + SLACK);
    fake_fail("setcontext", 1, EINVAL);
    {
        struct xc_dom_image *dom = xc_dom_allocate(xch, "", NULL);

        s = STEP_NONE;
        if ( xc_dom_kernel_mem(dom, image, image_size) ||
             xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
             xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
             xc_dom_boot_mem_init(dom) || xc_dom_build_image(dom) )
            s = STEP_BUILD;
        else if ( xc_dom_boot_image(dom) )
            s = STEP_BOOT;
        xc_dom_release(dom);
    }
    CHECK(s == STEP_BOOT && errno == EINVAL, "step %s errno %d", step_names[s], errno);
    CHECK(strstr(xc_get_last_error(xch)->message, "cannot set d7's vCPU 0 context"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    check_clean();
}

static void test_context_without_header(void)
{
    struct xc_dom_image *dom;
    int rc;

    default_image();
    guest_reset(PAGES(8) + SLACK);
    fake.context_no_header = true;
    dom = xc_dom_allocate(xch, "", NULL);
    rc = xc_dom_kernel_mem(dom, image, image_size) ||
         xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
         xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
         xc_dom_boot_mem_init(dom) || xc_dom_build_image(dom);
    CHECK(!rc, "setup failed");
    CHECK(xc_dom_boot_image(dom) == -1, "boot_image succeeded");
    CHECK(strstr(xc_get_last_error(xch)->message, "does not start with a header"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    CHECK(!guest->context_size, "a context was set");
    xc_dom_release(dom);
    check_clean();
}

static void test_map_fails(void)
{
    struct xc_dom_image *dom;
    int rc;

    default_image();
    guest_reset(PAGES(8) + SLACK);
    dom = xc_dom_allocate(xch, "", NULL);
    rc = xc_dom_kernel_mem(dom, image, image_size) ||
         xc_dom_boot_xen_init(dom, xch, FAKE_DOMID) ||
         xc_dom_parse_image(dom) || xc_dom_mem_init(dom, 8) ||
         xc_dom_boot_mem_init(dom);
    CHECK(!rc, "setup failed");
    fake_fail("map", 0, EPERM);
    CHECK(xc_dom_build_image(dom) == -1 && errno == EPERM, "build_image: errno %d",
          errno);
    CHECK(strstr(xc_get_last_error(xch)->message, "cannot map d7's frames 0x100-"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    xc_dom_release(dom);
    check_clean();
}

/* Steps out of order fail cleanly. */
static void test_out_of_order(void)
{
    struct xc_dom_image *dom;

    default_image();
    guest_reset(PAGES(8));
    dom = xc_dom_allocate(xch, NULL, NULL);
    CHECK(xc_dom_mem_init(dom, 8) == -1 && errno == EINVAL, "mem_init before parse");
    CHECK(xc_dom_parse_image(dom) == -1 && errno == EINVAL, "parse without a kernel");
    CHECK(xc_dom_build_image(dom) == -1 && errno == EINVAL, "build before mem_init");
    CHECK(xc_dom_boot_mem_init(dom) == -1 && errno == EINVAL, "boot_mem before mem_init");
    CHECK(xc_dom_boot_image(dom) == -1 && errno == EINVAL, "boot before build");
    CHECK(xc_dom_kernel_mem(dom, image, image_size) == 0 &&
          xc_dom_parse_image(dom) == 0 && xc_dom_mem_init(dom, 8) == 0,
          "parse and mem_init");
    CHECK(xc_dom_build_image(dom) == -1 && errno == EINVAL,
          "build before boot_xen_init");
    CHECK(!fake.hypercalls, "%u hypercalls", fake.hypercalls);
    CHECK(xc_dom_allocate(NULL, "", NULL) == NULL && errno == EINVAL,
          "allocate without an interface");
    CHECK(xc_dom_translated(dom), "a PVH guest is translated");
    xc_dom_release(dom);
    xc_dom_release(NULL);
}

static void test_modules_and_sizes(void)
{
    struct xc_dom_image *dom = xc_dom_allocate(xch, "", NULL);

    default_image();
    CHECK(!xc_dom_module_mem(dom, module_blob, 4, NULL) &&
          !xc_dom_module_mem(dom, module_blob, 4, "two"),
          "two modules refused");
    CHECK(xc_dom_module_mem(dom, module_blob, 4, NULL) == -1 && errno == E2BIG,
          "a third module: errno %d", errno);
    xc_dom_kernel_max_size(dom, 100);
    CHECK(xc_dom_kernel_mem(dom, image, image_size) == -1 && errno == E2BIG,
          "a kernel over max_kernel_size: errno %d", errno);
    CHECK(xc_dom_kernel_check_size(dom, 100) == 0, "100 bytes refused");
    xc_dom_release(dom);
}

static void test_files(void)
{
    char path[] = "/tmp/test-guest-XXXXXX";
    struct xc_dom_image *dom;
    int fd = mkstemp(path);

    default_image();
    if ( !CHECK(fd >= 0, "mkstemp") )
        return;
    CHECK(write(fd, image, image_size) == (ssize_t)image_size, "write");
    close(fd);

    dom = xc_dom_allocate(xch, "", NULL);
    CHECK(xc_dom_kernel_file(dom, path) == 0, "kernel_file: %s",
          xc_get_last_error(xch)->message);
    CHECK(dom->kernel_size == image_size &&
          !memcmp(dom->kernel_blob, image, image_size), "the file's bytes");
    CHECK(xc_dom_parse_image(dom) == 0, "parse");
    CHECK(xc_dom_module_file(dom, path, "m") == 0 && dom->num_modules == 1 &&
          dom->modules[0].size == image_size, "module_file");
    CHECK(xc_dom_kernel_file(dom, "/nonexistent/kernel") == -1 && errno == ENOENT,
          "a missing file: errno %d", errno);
    CHECK(strstr(xc_get_last_error(xch)->message, "cannot open /nonexistent/kernel"),
          "message \"%s\"", xc_get_last_error(xch)->message);
    CHECK(xc_dom_kernel_file(dom, "/tmp") == -1 && errno == EINVAL,
          "a directory: errno %d", errno);
    xc_dom_kernel_max_size(dom, 16);
    CHECK(xc_dom_kernel_file(dom, path) == -1 && errno == E2BIG,
          "a file over max_kernel_size: errno %d", errno);
    xc_dom_release(dom);
    unlink(path);
}

/* ---- libxenforeignmemory's core ------------------------------------------- */

static void test_foreignmemory(void)
{
    xenforeignmemory_handle *fmem = xenforeignmemory_open(logger, 0);
    xen_pfn_t pfns[3] = { 0, 5, FAKE_MAX_PFNS + 1 };
    int err[3] = { 1, 1, 1 };
    uint8_t *p;

    guest_reset(16);
    fake_populate(guest, 0);
    fake_populate(guest, 5);
    if ( !CHECK(fmem, "open") )
        return;
    CHECK(xenforeignmemory_open(logger, 1) == NULL && errno == EINVAL,
          "open flags must be 0");

    /* With err[]: partly mapped. */
    p = xenforeignmemory_map(fmem, FAKE_DOMID, 3, 3, pfns, err);
    CHECK(p && !err[0] && !err[1] && err[2] == -EINVAL, "map: %p err %d %d %d",
          (void *)p, err[0], err[1], err[2]);
    if ( p )
    {
        p[4096 + 10] = 0x5a;
        CHECK(xenforeignmemory_unmap(fmem, p, 3) == 0, "unmap");
        CHECK(fake_page(guest, 5)[10] == 0x5a, "a write through the mapping was lost");
    }

    /* Without err[]: all or nothing. */
    errno = 0;
    p = xenforeignmemory_map(fmem, FAKE_DOMID, 3, 3, pfns, NULL);
    CHECK(!p && errno == EINVAL, "all-or-nothing map: %p errno %d", (void *)p, errno);
    CHECK(!fake.live_maps, "the partial mapping was not undone");
    p = xenforeignmemory_map(fmem, FAKE_DOMID, 3, 2, pfns, NULL);
    CHECK(p, "map of two good frames");
    if ( p )
        xenforeignmemory_unmap(fmem, p, 2);

    CHECK(!xenforeignmemory_map(fmem, FAKE_DOMID + 1, 3, 1, pfns, NULL) &&
          errno == ESRCH, "another domain: errno %d", errno);
    CHECK(!xenforeignmemory_map(fmem, FAKE_DOMID, 3, 0, pfns, NULL) &&
          errno == EINVAL, "no pages: errno %d", errno);
    CHECK(xenforeignmemory_unmap(fmem, (void *)0x1001, 1) == -1 && errno == EINVAL,
          "misaligned unmap: errno %d", errno);
    CHECK(!fake.live_maps, "%u mappings left", fake.live_maps);
    CHECK(xenforeignmemory_close(fmem) == 0 && xenforeignmemory_close(NULL) == 0,
          "close");
}

/* ---- the Linux ABI ---------------------------------------------------------- */

/* privcmd-debian.c: Debian's view, or 0 without its header. */
int debian_mmapbatch_v2(unsigned long *ioctl_nr, size_t *size, size_t *off_addr,
                        size_t *off_arr, size_t *off_err);

#include <xen/sys/privcmd.h>

static void test_privcmd_abi(void)
{
    unsigned long nr;
    size_t size, off_addr, off_arr, off_err;

    if ( !debian_mmapbatch_v2(&nr, &size, &off_addr, &off_arr, &off_err) )
    {
        printf("    (no /usr/include/xen/sys/privcmd.h: not compared)\n");
        return;
    }
    CHECK(nr == IOCTL_PRIVCMD_MMAPBATCH_V2, "ioctl %#lx, Debian's %#lx",
          (unsigned long)IOCTL_PRIVCMD_MMAPBATCH_V2, nr);
    CHECK(size == sizeof(privcmd_mmapbatch_v2_t), "size %zu, Debian's %zu",
          sizeof(privcmd_mmapbatch_v2_t), size);
    CHECK(off_addr == offsetof(privcmd_mmapbatch_v2_t, addr) &&
          off_arr == offsetof(privcmd_mmapbatch_v2_t, arr) &&
          off_err == offsetof(privcmd_mmapbatch_v2_t, err), "field offsets");
}

/* The Linux build (link-check.c, its path given on the command line). */
static const char *link_check_path;

static void test_link_check(void)
{
    int rc;

    if ( !link_check_path )
    {
        printf("    (no link-check program given)\n");
        return;
    }
    fflush(stdout);
    rc = system(link_check_path);
    CHECK(rc == 0, "%s: exit status %d", link_check_path, rc);
}

/* ---- main ------------------------------------------------------------------ */

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    { "good image: kernel, module, start info, context", test_good_image },
    { "8-byte PVH entry note", test_entry_8_bytes },
    { "no module, no command line", test_no_module_no_cmdline },
    { "5 MiB: 2 MiB and 4 KiB extents", test_odd_memory_size },
    { "2 MiB extents refused: 4 KiB instead", test_superpage_fallback },
    { "special pages, their HVM parameters, the rings' grants", test_special_pages },
    { "no room for the special pages", test_special_pages_no_room },
    { "grant seeding without acquire_resource", test_gnttab_seed_fails },
    { "ACPI modules: placed, in the memory map, the RSDP", test_acpi_modules },
    { "an ACPI module over RAM refused", test_acpi_over_ram },
    { "ELF32 x86-64 image", test_good_elf32 },
    { "ELF32 i386 image", test_good_elf32_i386 },
    { "ELF64 image with machine EM_386", test_good_elf64_i386 },
    { "malformed ELF64 images and layouts refused", test_bad_images_elf64 },
    { "malformed ELF32 images and layouts refused", test_bad_images_elf32 },
    { "bad magic, segment outside file/RAM, no note: distinct", test_distinct_messages },
    { "populate_physmap fails", test_populate_fails },
    { "sethvmcontext fails", test_setcontext_fails },
    { "gethvmcontext without a header", test_context_without_header },
    { "foreign mapping fails", test_map_fails },
    { "steps out of order", test_out_of_order },
    { "modules and size limits", test_modules_and_sizes },
    { "kernel and module files", test_files },
    { "libxenforeignmemory: per-page errors, all or nothing", test_foreignmemory },
    { "privcmd mmapbatch_v2 as Debian's header", test_privcmd_abi },
    { "Linux build: links, fails cleanly without privcmd", test_link_check },
};

int main(int argc, char **argv)
{
    unsigned int i, passed = 0, failed = 0;

    for ( i = 1; i < (unsigned int)argc; i++ )
    {
        if ( !strcmp(argv[i], "-v") )
            verbose = true;
        else
            link_check_path = argv[i];
    }
    logger = (xentoollog_logger *)
        xtl_createlogger_stdiostream(stderr, verbose ? XTL_DETAIL : XTL_CRITICAL, 0);
    xch = xc_interface_open(logger, logger, 0);
    if ( !xch )
    {
        printf("cannot open the interface\n0 passed, 1 failed\n");
        return 1;
    }

    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        case_failed = false;
        cases[i].fn();
        printf("%s %s\n", case_failed ? "FAIL" : "PASS", cases[i].name);
        if ( case_failed )
            failed++;
        else
            passed++;
    }

    guest_reset(0);
    xc_interface_close(xch);
    xtl_logger_destroy(logger);
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

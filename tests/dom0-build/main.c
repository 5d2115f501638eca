/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building a PVH guest with libxenguest, as libxl does: the control
 * domain receives a guest kernel image as its start-info module (a boot
 * module marked "initrd"), creates a domain (xc_domain_create, max_mem),
 * builds it with xc_dom_* over libxenforeignmemory's direct backend,
 * checks what the builder wrote (start info, memory map, command line,
 * module, vCPU context) and unpauses it: the new domain 1 runs the image
 * and reports its own "Test result".  The image may be ELF64 or ELF32
 * (the case dom0-build-elf32).  Then the same image, corrupted in
 * several ways, must be refused with a clear error, EINVAL, and no domain
 * left behind; and the builder must not leak memory.
 */
#include "test.h"
#include <xenctrl.h>
#include <xenforeignmemory.h>
#include <xenguest.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <xen/elfstructs.h>
#include "public/elfnote.h"
#include "public/hvm/save.h"
#include "xc-domain.h"

const char test_title[] = "Building a PVH domain with libxenguest";

#define BUILT_MEM_MB        16
#define BUILT_CMDLINE       "built by d0 with libxenguest"
#define BUILT_MODULE_CMD    "the module's command line"
#define MAX_WAITS           200000

static const char module_data[] = "a module for the built domain";

static xc_interface *xch;
static xenforeignmemory_handle *fmem;

/* What the builder decided, kept before xc_dom_release. */
static struct {
    uint64_t entry, start_info, module_paddr;
} built;

struct build_req {
    const void *image;
    size_t size;
    unsigned int mem_mb;
    const char *cmdline;
    const void *module;
    size_t module_size;
    const char *module_cmdline;
};

/*
 * Create and build a domain from r, as libxl_domain_create_new does; on
 * failure destroy it again.  Returns 0, or -1 with errno and *step set.
 */
static int build_domain(const struct build_req *r, uint32_t *pdomid,
                        const char **step)
{
    struct xen_domctl_createdomain cfg = {
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap,
        .max_vcpus = 1,
        .max_evtchn_port = 1023,              /* libxl's default */
        .max_grant_frames = -1,
        .max_maptrack_frames = -1,
        .grant_opts = XEN_DOMCTL_GRANT_version(2),   /* as Xen's libxl */
    };
    struct xc_dom_image *dom = NULL;
    uint32_t domid = 0;
    int rc = -1, saved_errno;

#define STEP(call) do { *step = #call; if ( (call) ) goto out; } while ( 0 )
    *step = "xc_domain_create";
    if ( xc_domain_create(xch, &domid, &cfg) )
        return -1;
    *pdomid = domid;

    /* Its RAM and Xen's eight special pages (X86_HVM_NR_SPECIAL_PAGES). */
    STEP(xc_domain_setmaxmem(xch, domid, r->mem_mb * 1024 + X86_HVM_NR_SPECIAL_PAGES * 4));
    *step = "xc_dom_allocate";
    if ( !(dom = xc_dom_allocate(xch, r->cmdline, NULL)) )
        goto out;
    STEP(xc_dom_kernel_mem(dom, r->image, r->size));
    if ( r->module )
        STEP(xc_dom_module_mem(dom, r->module, r->module_size, r->module_cmdline));
    STEP(xc_dom_boot_xen_init(dom, xch, domid));
    STEP(xc_dom_parse_image(dom));
    STEP(xc_dom_mem_init(dom, r->mem_mb));
    STEP(xc_dom_boot_mem_init(dom));
    STEP(xc_dom_build_image(dom));
    STEP(xc_dom_boot_image(dom));
#undef STEP
    built.entry = dom->phys_entry;
    built.start_info = dom->start_info_seg.vstart;
    built.module_paddr = dom->num_modules ? dom->modules[0].seg.vstart : 0;
    rc = 0;

 out:
    saved_errno = errno;
    xc_dom_release(dom);
    if ( rc )
        xc_domain_destroy(xch, domid);
    errno = saved_errno;
    return rc;
}

/* Destroyed: gone, or dying until the hypervisor reaps it. */
static bool domain_destroyed(uint32_t domid)
{
    xc_domaininfo_t info;

    return xc_domain_getinfolist(xch, domid, 1, &info) != 1 ||
           info.domain != domid || (info.flags & XEN_DOMINF_dying);
}

/* ---- what the builder wrote ---------------------------------------------- */

static void check_start_info(uint32_t domid)
{
    xen_pfn_t pfn = built.start_info >> XC_PAGE_SHIFT;
    const struct hvm_memmap_table_entry *mm;
    const struct hvm_modlist_entry *ml;
    const struct hvm_start_info *si;
    const uint64_t ram = (uint64_t)BUILT_MEM_MB << 20;
    const uint8_t *page;
    int err = 0;

    page = xenforeignmemory_map(fmem, domid, PROT_READ, 1, &pfn, &err);
    if ( !page || err )
        return xtf_failure("Fail: cannot map d%u's start info: errno %d err %d\n",
                           domid, errno, err);
    si = (const void *)page;
    mm = (const void *)(page + (si->memmap_paddr - built.start_info));
    ml = (const void *)(page + (si->modlist_paddr - built.start_info));

    if ( built.start_info != ram - XC_PAGE_SIZE )
        xtf_failure("Fail: start info at %#lx, expected the last page\n",
                    (unsigned long)built.start_info);
    if ( si->magic != XEN_HVM_START_MAGIC_VALUE || si->version != 1 || si->flags )
        xtf_failure("Fail: start info magic %#x version %u flags %#x\n",
                    si->magic, si->version, si->flags);
    if ( si->cmdline_paddr - built.start_info >= XC_PAGE_SIZE ||
         strcmp((const char *)page + (si->cmdline_paddr - built.start_info),
                BUILT_CMDLINE) )
        xtf_failure("Fail: command line at %#lx is not \"%s\"\n",
                    (unsigned long)si->cmdline_paddr, BUILT_CMDLINE);
    if ( si->memmap_entries != 4 ||
         mm[0].addr != 0 || mm[0].size != 0xa0000 || mm[0].type != XEN_HVM_MEMMAP_TYPE_RAM ||
         mm[1].addr != 0xa0000 || mm[1].size != 0x60000 ||
         mm[1].type != XEN_HVM_MEMMAP_TYPE_RESERVED ||
         mm[2].addr != 0x100000 || mm[2].addr + mm[2].size != ram - XC_PAGE_SIZE ||
         mm[2].type != XEN_HVM_MEMMAP_TYPE_RAM ||
         mm[3].addr != ram - XC_PAGE_SIZE || mm[3].size != XC_PAGE_SIZE ||
         mm[3].type != XEN_HVM_MEMMAP_TYPE_RESERVED )
        xtf_failure("Fail: the memory map is not the hypervisor's layout\n");
    if ( si->nr_modules != 1 || ml->paddr != built.module_paddr ||
         ml->size != sizeof(module_data) ||
         strcmp((const char *)page + (ml->cmdline_paddr - built.start_info),
                BUILT_MODULE_CMD) )
        xtf_failure("Fail: modlist: %u module(s), %#lx+%#lx\n", si->nr_modules,
                    (unsigned long)ml->paddr, (unsigned long)ml->size);
    else
        printk("start info: cmdline \"%s\", 4 memmap entries, module at %#lx "
               "(%lu bytes, \"%s\")\n", BUILT_CMDLINE, (unsigned long)ml->paddr,
               (unsigned long)ml->size, BUILT_MODULE_CMD);
    xenforeignmemory_unmap(fmem, (void *)page, 1);

    /* The module's bytes. */
    pfn = built.module_paddr >> XC_PAGE_SHIFT;
    page = xenforeignmemory_map(fmem, domid, PROT_READ, 1, &pfn, NULL);
    if ( !page )
        return xtf_failure("Fail: cannot map the module: errno %d\n", errno);
    if ( memcmp(page + (built.module_paddr & ~XC_PAGE_MASK), module_data,
                sizeof(module_data)) )
        xtf_failure("Fail: the module's bytes differ\n");
    xenforeignmemory_unmap(fmem, (void *)page, 1);
}

/* ---- the image's headers, either class -------------------------------------- */

static bool is_elf32(const uint8_t *image)
{
    return image[EI_CLASS] == ELFCLASS32;
}

static unsigned int image_phnum(const uint8_t *image)
{
    return is_elf32(image) ? ((const Elf32_Ehdr *)image)->e_phnum
                           : ((const Elf64_Ehdr *)image)->e_phnum;
}

/* Program header i, widened to ELF64's layout. */
static Elf64_Phdr get_phdr(const uint8_t *image, unsigned int i)
{
    Elf64_Phdr ph;

    if ( is_elf32(image) )
    {
        const Elf32_Ehdr *eh = (const void *)image;
        const Elf32_Phdr *p = (const Elf32_Phdr *)(image + eh->e_phoff) + i;

        ph = (Elf64_Phdr){
            .p_type = p->p_type, .p_flags = p->p_flags, .p_offset = p->p_offset,
            .p_vaddr = p->p_vaddr, .p_paddr = p->p_paddr,
            .p_filesz = p->p_filesz, .p_memsz = p->p_memsz, .p_align = p->p_align,
        };
    }
    else
    {
        const Elf64_Ehdr *eh = (const void *)image;

        memcpy(&ph, image + eh->e_phoff + i * sizeof(ph), sizeof(ph));
    }
    return ph;
}

static void put_phdr(uint8_t *image, unsigned int i, const Elf64_Phdr *ph)
{
    if ( is_elf32(image) )
    {
        const Elf32_Ehdr *eh = (const void *)image;
        Elf32_Phdr *p = (Elf32_Phdr *)(image + eh->e_phoff) + i;

        p->p_type = ph->p_type;
        p->p_offset = ph->p_offset;
        p->p_paddr = ph->p_paddr;
        p->p_filesz = ph->p_filesz;
        p->p_memsz = ph->p_memsz;
    }
    else
    {
        const Elf64_Ehdr *eh = (const void *)image;

        memcpy(image + eh->e_phoff + i * sizeof(*ph), ph, sizeof(*ph));
    }
}

/* The index of the first program header of this type, or -1. */
static int find_phdr(const uint8_t *image, uint32_t type)
{
    unsigned int i;

    for ( i = 0; i < image_phnum(image); i++ )
        if ( get_phdr(image, i).p_type == type )
            return i;
    return -1;
}

/* The first loaded segment's first page is the image's bytes. */
static void check_kernel(uint32_t domid, const uint8_t *image)
{
    int i = find_phdr(image, PT_LOAD);
    Elf64_Phdr ph;
    const uint8_t *p;
    xen_pfn_t pfn;
    size_t off, n;

    if ( i < 0 )
        return xtf_failure("Fail: the image has no PT_LOAD\n");
    ph = get_phdr(image, i);

    pfn = ph.p_paddr >> XC_PAGE_SHIFT;
    off = ph.p_paddr & ~XC_PAGE_MASK;
    n = XC_PAGE_SIZE - off < ph.p_filesz ? XC_PAGE_SIZE - off : ph.p_filesz;
    p = xenforeignmemory_map(fmem, domid, PROT_READ, 1, &pfn, NULL);
    if ( !p )
        return xtf_failure("Fail: cannot map the kernel's first page: errno %d\n", errno);
    if ( memcmp(p + off, image + ph.p_offset, n) )
        xtf_failure("Fail: the kernel's first page differs from the image\n");
    else
        printk("kernel: segment %d at %#lx matches the image\n", i,
               (unsigned long)ph.p_paddr);
    xenforeignmemory_unmap(fmem, (void *)p, 1);
}

static void check_context(uint32_t domid)
{
    static uint8_t ctx[8192];
    const struct hvm_save_descriptor *d;
    const struct hvm_hw_cpu *c = NULL;
    int size, off;

    size = xc_domain_hvm_getcontext(xch, domid, ctx, sizeof(ctx));
    if ( size <= 0 )
        return xtf_failure("Fail: gethvmcontext: %d errno %d\n", size, errno);
    for ( off = 0; off + (int)sizeof(*d) <= size; off += sizeof(*d) + d->length )
    {
        d = (const void *)(ctx + off);
        if ( d->typecode == HVM_SAVE_CODE(CPU) && d->instance == 0 )
            c = (const void *)(d + 1);
    }
    if ( !c )
        return xtf_failure("Fail: no CPU record for vCPU 0\n");
    if ( c->rip != built.entry || c->rbx != built.start_info ||
         (c->cr0 & 0x80000011) != 0x11 || c->cs_arbytes != 0xc9b ||
         c->cs_limit != ~0u )
        xtf_failure("Fail: vCPU 0: rip %#lx rbx %#lx cr0 %#lx cs ar %#x\n",
                    (unsigned long)c->rip, (unsigned long)c->rbx,
                    (unsigned long)c->cr0, c->cs_arbytes);
    else
        printk("vCPU 0: flat 32-bit, eip %#lx (PVH entry), ebx %#lx (start info)\n",
               (unsigned long)c->rip, (unsigned long)c->rbx);
}

/* Per-page errors, and the all-or-nothing rule without an error array. */
static void check_foreign_errors(uint32_t domid)
{
    xen_pfn_t pfns[2] = { built.start_info >> XC_PAGE_SHIFT, 0x7ffff };
    int err[2] = { 1, 1 };
    void *p;

    p = xenforeignmemory_map(fmem, domid, PROT_READ | PROT_WRITE, 2, pfns, err);
    if ( !p || err[0] || err[1] != -EINVAL )
        xtf_failure("Fail: partial map: %p err %d %d\n", p, err[0], err[1]);
    if ( p )
        xenforeignmemory_unmap(fmem, p, 2);

    errno = 0;
    p = xenforeignmemory_map(fmem, domid, PROT_READ, 2, pfns, NULL);
    if ( p || errno != EINVAL )
        xtf_failure("Fail: map without err[] of a missing frame: %p errno %d\n",
                    p, errno);

    p = xenforeignmemory_map(fmem, DOMID_FIRST_RESERVED - 1, PROT_READ, 1, pfns, NULL);
    if ( p || errno != ESRCH )
        xtf_failure("Fail: map of a domain that does not exist: %p errno %d\n",
                    p, errno);
    else
        printk("foreign mapping: per-page errors, all or nothing, ESRCH: as expected\n");
}

/* ---- bad images ---------------------------------------------------------- */

enum corruption {
    BAD_MAGIC, TRUNCATED, PHDRS_OUTSIDE, SEGMENT_OUTSIDE_FILE,
    SEGMENT_OUTSIDE_RAM, NO_ENTRY_NOTE,
};

static const struct {
    const char *what, *message;
} bad_cases[] = {
    [BAD_MAGIC] = { "flipped ELF magic", "bad magic" },
    [TRUNCATED] = { "cut to 32 bytes", "truncated" },
    [PHDRS_OUTSIDE] = { "program headers past the end", "program headers" },
    [SEGMENT_OUTSIDE_FILE] = { "segment offset past the end", "lies outside the image" },
    [SEGMENT_OUTSIDE_RAM] = { "segment larger than RAM", "does not fit in guest RAM" },
    [NO_ENTRY_NOTE] = { "no PVH entry note", "no PVH entry point" },
};

/*
 * Turn the PVH entry note of the first PT_NOTE segment into another type:
 * the entry is gone from the segments and from the sections (Xen's loaders
 * fall back to the SHT_NOTE sections, which hold the same bytes).
 */
static bool hide_entry_note(uint8_t *image, size_t size)
{
    int i = find_phdr(image, PT_NOTE);
    uint64_t off, end;

    if ( i < 0 )
        return false;
    off = get_phdr(image, i).p_offset;
    end = off + get_phdr(image, i).p_filesz;
    while ( end <= size && off + sizeof(Elf_Note) <= end )
    {
        Elf_Note *n = (void *)(image + off);

        if ( n->n_type == XEN_ELFNOTE_PHYS32_ENTRY )
        {
            n->n_type = 0x7f00;
            return true;
        }
        off += sizeof(*n) + ((n->n_namesz + 3) & ~3u) + ((n->n_descsz + 3) & ~3u);
    }
    return false;
}

static void check_bad_image(enum corruption how, const uint8_t *image, size_t size)
{
    uint8_t *copy = malloc(size);
    struct build_req r = {
        .image = copy, .size = size, .mem_mb = BUILT_MEM_MB, .cmdline = "bad",
    };
    const xc_error *e;
    const char *step;
    uint32_t domid = 0;
    Elf64_Phdr ph;
    int i, rc;

    if ( !copy )
        return xtf_error("Error: no memory for a copy of the image\n");
    memcpy(copy, image, size);
    switch ( how )
    {
    case BAD_MAGIC:
        copy[1] ^= 0xff;
        break;
    case TRUNCATED:
        r.size = 32;
        break;
    case PHDRS_OUTSIDE:
        if ( is_elf32(copy) )
            ((Elf32_Ehdr *)copy)->e_phoff = size;
        else
            ((Elf64_Ehdr *)copy)->e_phoff = size;
        break;
    case SEGMENT_OUTSIDE_FILE:
    case SEGMENT_OUTSIDE_RAM:
        if ( (i = find_phdr(copy, PT_LOAD)) < 0 )
            break;
        ph = get_phdr(copy, i);
        if ( how == SEGMENT_OUTSIDE_FILE )
            ph.p_offset = size + 0x1000;
        else
            ph.p_memsz = (uint64_t)(BUILT_MEM_MB + 1) << 20;
        put_phdr(copy, i, &ph);
        break;
    case NO_ENTRY_NOTE:
        if ( !hide_entry_note(copy, size) )
            xtf_error("Error: the image has no PVH entry note to hide\n");
        break;
    }

    rc = build_domain(&r, &domid, &step);
    e = xc_get_last_error(xch);
    if ( rc != -1 || errno != EINVAL )
        xtf_failure("Fail: %s: %s returned %d errno %d, expected EINVAL\n",
                    bad_cases[how].what, step, rc, errno);
    else if ( !strstr(e->message, bad_cases[how].message) )
        xtf_failure("Fail: %s: message \"%s\" lacks \"%s\"\n",
                    bad_cases[how].what, e->message, bad_cases[how].message);
    else if ( domid && !domain_destroyed(domid) )
        xtf_failure("Fail: %s: d%u was left behind\n", bad_cases[how].what, domid);
    else
        printk("bad image (%s): %s refused it: %s; d%u destroyed\n",
               bad_cases[how].what, step, e->message, domid);
    free(copy);
}

/* ---- the test -------------------------------------------------------------- */

void test_main(void)
{
    const struct hvm_modlist_entry *mod;
    const uint8_t *image;
    struct build_req r;
    xc_domaininfo_t info;
    size_t size, heap;
    const char *step;
    uint32_t domid = 0;
    unsigned long waits;
    unsigned int i;
    int rc;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    if ( !start_info || !start_info->nr_modules )
        return xtf_error("Error: no guest image (a boot module marked initrd)\n");
    mod = (const void *)(uintptr_t)start_info->modlist_paddr;
    image = (const void *)(uintptr_t)mod->paddr;
    size = mod->size;
    printk("guest image: %s, %lu bytes at %#lx\n",
           is_elf32(image) ? "ELF32" : "ELF64", (unsigned long)size,
           (unsigned long)mod->paddr);

    xch = xc_interface_open(NULL, NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !fmem )
        return xtf_error("Error: cannot open the control interfaces\n");

    /* The good image, with a module: domain 1. */
    r = (struct build_req){
        .image = image, .size = size, .mem_mb = BUILT_MEM_MB,
        .cmdline = BUILT_CMDLINE,
        .module = module_data, .module_size = sizeof(module_data),
        .module_cmdline = BUILT_MODULE_CMD,
    };
    if ( build_domain(&r, &domid, &step) )
        return xtf_failure("Fail: building d%u: %s: errno %d: %s\n", domid, step,
                           errno, xc_get_last_error(xch)->message);
    printk("built d%u: %u MiB, entry %#lx, start info %#lx\n", domid,
           BUILT_MEM_MB, (unsigned long)built.entry, (unsigned long)built.start_info);

    if ( xc_domain_getinfolist(xch, domid, 1, &info) != 1 ||
         !(info.flags & XEN_DOMINF_paused) ||
         info.tot_pages != ((BUILT_MEM_MB << 20) >> XC_PAGE_SHIFT) + X86_HVM_NR_SPECIAL_PAGES ||
         info.nr_online_vcpus != 1 )
        xtf_failure("Fail: d%u: flags %#x, %lu pages, %u vCPUs up\n", domid,
                    info.flags, (unsigned long)info.tot_pages, info.nr_online_vcpus);
    check_start_info(domid);
    check_kernel(domid, image);
    check_context(domid);
    check_foreign_errors(domid);

    /*
     * Run it: it reports its own result and powers itself off, then stays
     * (as in Xen) until destroyed.
     */
    if ( xc_domain_unpause(xch, domid) )
        xtf_failure("Fail: unpause d%u: errno %d\n", domid, errno);
    if ( (rc = xc_wait_shutdown(xch, domid, MAX_WAITS)) != SHUTDOWN_poweroff )
    {
        xc_domain_destroy(xch, domid);
        return xtf_failure("Fail: d%u did not finish (%d)\n", domid, rc);
    }
    if ( !xc_destroy_wait(xch, domid, MAX_WAITS) )
        return xtf_failure("Fail: d%u still there after xc_domain_destroy\n", domid);
    printk("d%u ran and powered itself off\n", domid);

    /* Corrupted copies: refused, nothing left behind, nothing leaked. */
    heap = malloc_in_use();
    for ( i = 0; i < ARRAY_SIZE(bad_cases); i++ )
        check_bad_image(i, image, size);
    if ( malloc_in_use() != heap )
        xtf_failure("Fail: the failed builds leaked %ld bytes\n",
                    (long)(malloc_in_use() - heap));
    for ( waits = 0; waits < MAX_WAITS &&
                     xc_domain_getinfolist(xch, 1, 1, &info) > 0; waits++ )
        hypercall_yield();
    if ( xc_domain_getinfolist(xch, 1, 1, &info) > 0 )
        xtf_failure("Fail: d%u is still there\n", info.domain);
    else
        printk("no domain left but d0\n");

    xenforeignmemory_close(fmem);
    xc_interface_close(xch);
    xtf_success("Success: built, ran, and refused bad images\n");
}

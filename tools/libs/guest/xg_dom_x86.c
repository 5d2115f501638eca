/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: booting a PVH guest on x86 -- the start-info page and
 * vCPU 0's registers (Xen's xg_dom_x86.c, bootlate_hvm and vcpu_hvm).
 *
 * The start-info page is the last page of RAM, laid out as the
 * hypervisor's own builder lays it out for boot modules
 * (xen/arch/x86/hvm/dom_build.c), plus the modlist:
 *
 *     0x000  struct hvm_start_info (magic, version 1)
 *     0x100  the memory map, 4 entries and one per ACPI module
 *     0x200  struct hvm_modlist_entry[nr_modules]
 *     0x400  the guest's command line, then each module's
 *
 * vCPU 0 gets Xen's PVH entry state through XEN_DOMCTL_sethvmcontext: the
 * HEADER record the hypervisor itself gave (gethvmcontext), one CPU
 * record -- flat 32-bit protected mode, paging off, EIP the PVH entry,
 * EBX the start info -- and END.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "xg_private.h"

/*
 * Segment access rights as Xen's HVM save records carry them: the packed
 * form (type, S, DPL, P in bits 0-7; AVL, L, D/B, G in bits 8-11; not
 * present = unusable), see public/arch-x86/hvm/save.h.
 */
#define XG_AR_CODE32            0xc9bU      /* code, read/exec, accessed, P, D, G */
#define XG_AR_DATA32            0xc93U      /* data, read/write, accessed, P, D, G */
#define XG_AR_TSS32_BUSY        0x08bU
#define XG_AR_UNUSABLE          0U          /* not present */

#define XG_SEL_CODE             0x08
#define XG_SEL_DATA             0x10
#define XG_TSS_LIMIT            0x67

#define XG_CR0_PE               (1U << 0)
#define XG_CR0_ET               (1U << 4)
#define XG_EFLAGS_MBS           (1U << 1)   /* bit 1 always set */

/* The FXSAVE image of a reset x87/SSE unit: FCW and MXCSR. */
#define XG_FXSAVE_FCW_OFFSET    0
#define XG_FXSAVE_MXCSR_OFFSET  24
#define XG_FCW_DEFAULT          0x037f
#define XG_MXCSR_DEFAULT        0x1f80

int xg_dom_pvh_start_info(struct xc_dom_image *dom, void *page)
{
    uint8_t *p = page;
    xen_paddr_t base = dom->start_info_seg.vstart, ram = dom->lowmem_end;
    const char *cmdline = dom->cmdline ? dom->cmdline : "";
    struct hvm_memmap_table_entry map[XG_PVH_MEMMAP_ENTRIES] = {
        { .addr = 0, .size = XG_PVH_LOW_RAM_END,
          .type = XEN_HVM_MEMMAP_TYPE_RAM },
        { .addr = XG_PVH_LOW_RAM_END,
          .size = XG_PVH_HIGH_RAM_START - XG_PVH_LOW_RAM_END,
          .type = XEN_HVM_MEMMAP_TYPE_RESERVED },
        { .addr = XG_PVH_HIGH_RAM_START, .size = base - XG_PVH_HIGH_RAM_START,
          .type = XEN_HVM_MEMMAP_TYPE_RAM },
        { .addr = base, .size = ram - base,
          .type = XEN_HVM_MEMMAP_TYPE_RESERVED },
    };
    struct hvm_memmap_table_entry acpi[MAX_ACPI_MODULES];
    struct hvm_start_info si;
    size_t off = XG_PVH_SI_CMDLINE, len;
    unsigned int i, nr_acpi = 0;

    if ( !dom->total_pages || base + XG_PAGE_SIZE != ram )
    {
        xc_dom_panic(dom->xch, XC_INVALID_PARAM, EINVAL,
                     "no memory layout (xc_dom_mem_init first)");
        return -1;
    }

    memset(p, 0, XG_PAGE_SIZE);
    memset(&si, 0, sizeof(si));
    si.magic = XEN_HVM_START_MAGIC_VALUE;
    si.version = 1;
    si.flags = 0;                       /* neither privileged nor dom0 */

    len = strlen(cmdline) + 1;
    if ( len > XG_PAGE_SIZE - off )
        goto too_long;
    memcpy(p + off, cmdline, len);
    si.cmdline_paddr = base + off;
    off += len;

    /*
     * Each ACPI module an ACPI entry (Xen's libxl__arch_domain_construct_memmap:
     * from its page, for its length and the offset into that page).
     */
    for ( i = 0; i < MAX_ACPI_MODULES; i++ )
    {
        const struct xc_hvm_firmware_module *m = &dom->acpi_modules[i];

        if ( !m->length )
            continue;
        acpi[nr_acpi].addr = m->guest_addr_out & ~(uint64_t)(XG_PAGE_SIZE - 1);
        acpi[nr_acpi].size = m->length + (m->guest_addr_out & (XG_PAGE_SIZE - 1));
        acpi[nr_acpi].type = XEN_HVM_MEMMAP_TYPE_ACPI;
        acpi[nr_acpi].reserved = 0;
        nr_acpi++;
    }
    memcpy(p + XG_PVH_SI_MEMMAP, map, sizeof(map));
    memcpy(p + XG_PVH_SI_MEMMAP + sizeof(map), acpi, nr_acpi * sizeof(acpi[0]));
    si.memmap_paddr = base + XG_PVH_SI_MEMMAP;
    si.memmap_entries = XG_PVH_MEMMAP_ENTRIES + nr_acpi;
    /* ACPI module 0 is the RSDP (Xen's bootlate_hvm). */
    si.rsdp_paddr = dom->acpi_modules[0].length ? dom->acpi_modules[0].guest_addr_out : 0;

    for ( i = 0; i < dom->num_modules; i++ )
    {
        const struct xc_dom_module *mod = &dom->modules[i];
        struct hvm_modlist_entry e = {
            .paddr = mod->seg.vstart,
            .size = mod->size,
        };

        if ( mod->cmdline )
        {
            len = strlen(mod->cmdline) + 1;
            if ( len > XG_PAGE_SIZE - off )
                goto too_long;
            memcpy(p + off, mod->cmdline, len);
            e.cmdline_paddr = base + off;
            off += len;
        }
        memcpy(p + XG_PVH_SI_MODLIST + i * sizeof(e), &e, sizeof(e));
    }
    si.nr_modules = dom->num_modules;
    si.modlist_paddr = dom->num_modules ? base + XG_PVH_SI_MODLIST : 0;

    memcpy(p, &si, sizeof(si));
    return 0;

 too_long:
    xc_dom_panic(dom->xch, XC_INVALID_PARAM, E2BIG,
                 "command lines do not fit in the start-info page");
    return -1;
}

static size_t put_record(uint8_t *buf, size_t off, uint16_t code,
                         uint16_t instance, const void *data, uint32_t len)
{
    struct hvm_save_descriptor d = {
        .typecode = code,
        .instance = instance,
        .length = len,
    };

    memcpy(buf + off, &d, sizeof(d));
    if ( len )
        memcpy(buf + off + sizeof(d), data, len);
    return off + sizeof(d) + len;
}

size_t xg_dom_pvh_vcpu_context(const struct xc_dom_image *dom,
                               const struct hvm_save_header *hdr,
                               uint8_t *buf, size_t room)
{
    const size_t need = 3 * sizeof(struct hvm_save_descriptor) +
                        sizeof(*hdr) + sizeof(struct hvm_hw_cpu);
    uint16_t fcw = XG_FCW_DEFAULT;
    uint32_t mxcsr = XG_MXCSR_DEFAULT;
    struct hvm_hw_cpu *c;
    size_t off;

    if ( room < need || !(c = calloc(1, sizeof(*c))) )
        return 0;

    memcpy(c->fpu_regs + XG_FXSAVE_FCW_OFFSET, &fcw, sizeof(fcw));
    memcpy(c->fpu_regs + XG_FXSAVE_MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
    c->flags = XEN_X86_FPU_INITIALISED;

    c->rip = dom->phys_entry;
    c->rbx = dom->start_info_seg.vstart;
    c->rflags = XG_EFLAGS_MBS;
    c->cr0 = XG_CR0_PE | XG_CR0_ET;

    c->cs_sel = XG_SEL_CODE;
    c->cs_limit = ~0U;
    c->cs_arbytes = XG_AR_CODE32;
    c->ds_sel = c->es_sel = c->ss_sel = XG_SEL_DATA;
    c->ds_limit = c->es_limit = c->ss_limit = ~0U;
    c->fs_limit = c->gs_limit = ~0U;
    c->ds_arbytes = c->es_arbytes = c->ss_arbytes = XG_AR_DATA32;
    c->fs_arbytes = c->gs_arbytes = XG_AR_DATA32;
    c->tr_limit = XG_TSS_LIMIT;
    c->tr_arbytes = XG_AR_TSS32_BUSY;
    c->ldtr_arbytes = XG_AR_UNUSABLE;

    off = put_record(buf, 0, HVM_SAVE_CODE(HEADER), 0, hdr, sizeof(*hdr));
    off = put_record(buf, off, HVM_SAVE_CODE(CPU), 0, c, sizeof(*c));
    off = put_record(buf, off, HVM_SAVE_CODE(END), 0, NULL, 0);
    free(c);
    return off;
}

/* ---- Xen's special pages (alloc_magic_pages_hvm) --------------------------- */

#define SPECIALPAGE_PAGING      0
#define SPECIALPAGE_ACCESS      1
#define SPECIALPAGE_SHARING     2
#define SPECIALPAGE_BUFIOREQ    3
#define SPECIALPAGE_XENSTORE    4
#define SPECIALPAGE_IOREQ       5
#define SPECIALPAGE_IDENT_PT    6
#define SPECIALPAGE_CONSOLE     7
#define special_pfn(x) \
    ((xen_pfn_t)X86_HVM_END_SPECIAL_REGION - X86_HVM_NR_SPECIAL_PAGES + (x))

/* A 32-bit non-PAE page directory's 4 MiB entries (the identity map). */
#define XG_PDE_PRESENT          (1U << 0)
#define XG_PDE_RW               (1U << 1)
#define XG_PDE_USER             (1U << 2)
#define XG_PDE_ACCESSED         (1U << 5)
#define XG_PDE_DIRTY            (1U << 6)
#define XG_PDE_PSE              (1U << 7)

static int set_param(struct xc_dom_image *dom, uint32_t param, uint64_t value)
{
    if ( xc_hvm_param_set(dom->xch, dom->guest_domid, param, value) )
    {
        xc_dom_panic(dom->xch, XC_INTERNAL_ERROR, errno,
                     "cannot set d%u's HVM parameter %u to %#"PRIx64": %s",
                     dom->guest_domid, param, value, strerror(errno));
        return -1;
    }
    return 0;
}

/*
 * Xen's layout for HVM and PVH guests: the eight pages below 0xff000,
 * outside the memory map (the guest finds the rings through its HVM
 * parameters), populated and zeroed; the identity-map page table a
 * 32-bit guest with paging off runs on under EPT.
 */
int xg_dom_alloc_magic_pages(struct xc_dom_image *dom)
{
    static const struct { uint32_t param; unsigned int page; } rings[] = {
        { HVM_PARAM_STORE_PFN,          SPECIALPAGE_XENSTORE },
        { HVM_PARAM_BUFIOREQ_PFN,       SPECIALPAGE_BUFIOREQ },
        { HVM_PARAM_IOREQ_PFN,          SPECIALPAGE_IOREQ },
        { HVM_PARAM_CONSOLE_PFN,        SPECIALPAGE_CONSOLE },
        { HVM_PARAM_PAGING_RING_PFN,    SPECIALPAGE_PAGING },
        { HVM_PARAM_MONITOR_RING_PFN,   SPECIALPAGE_ACCESS },
        { HVM_PARAM_SHARING_RING_PFN,   SPECIALPAGE_SHARING },
    };
    xen_pfn_t pfns[X86_HVM_NR_SPECIAL_PAGES];
    uint32_t ident_pt[XG_PAGE_SIZE / sizeof(uint32_t)];
    unsigned int i;

    for ( i = 0; i < X86_HVM_NR_SPECIAL_PAGES; i++ )
        pfns[i] = special_pfn(i);
    if ( xc_domain_populate_physmap_exact(dom->xch, dom->guest_domid,
                                          X86_HVM_NR_SPECIAL_PAGES, 0, 0, pfns) )
    {
        xc_dom_panic(dom->xch, XC_OUT_OF_MEMORY, errno,
                     "cannot populate d%u's special pages: %s",
                     dom->guest_domid, strerror(errno));
        return -1;
    }
    if ( xg_dom_write_frames(dom, (xen_paddr_t)special_pfn(0) << XG_PAGE_SHIFT,
                             NULL, X86_HVM_NR_SPECIAL_PAGES * XG_PAGE_SIZE) )
        return -1;

    for ( i = 0; i < ARRAY_SIZE(rings); i++ )
        if ( set_param(dom, rings[i].param, special_pfn(rings[i].page)) )
            return -1;

    for ( i = 0; i < ARRAY_SIZE(ident_pt); i++ )
        ident_pt[i] = (i << 22) | XG_PDE_PRESENT | XG_PDE_RW | XG_PDE_USER |
                      XG_PDE_ACCESSED | XG_PDE_DIRTY | XG_PDE_PSE;
    if ( xg_dom_write_frames(dom, (xen_paddr_t)special_pfn(SPECIALPAGE_IDENT_PT)
                                  << XG_PAGE_SHIFT, ident_pt, sizeof(ident_pt)) ||
         set_param(dom, HVM_PARAM_IDENT_PT,
                   (uint64_t)special_pfn(SPECIALPAGE_IDENT_PT) << XG_PAGE_SHIFT) )
        return -1;

    dom->console_pfn = special_pfn(SPECIALPAGE_CONSOLE);
    dom->xenstore_pfn = special_pfn(SPECIALPAGE_XENSTORE);
    DOMPRINTF("d%u: special pages %#"PRIpfn"-%#"PRIpfn", xenstore %#"PRIpfn
              ", console %#"PRIpfn, dom->guest_domid, special_pfn(0),
              special_pfn(X86_HVM_NR_SPECIAL_PAGES - 1), dom->xenstore_pfn,
              dom->console_pfn);
    return 0;
}

/* The caller's ACPI modules: their pages populated, their bytes copied. */
int xg_dom_load_acpi(struct xc_dom_image *dom)
{
    unsigned int i;

    for ( i = 0; i < MAX_ACPI_MODULES; i++ )
    {
        const struct xc_hvm_firmware_module *m = &dom->acpi_modules[i];
        xen_pfn_t first, pages, j, *pfns;
        int rc;

        if ( !m->length )
            continue;
        first = m->guest_addr_out >> XG_PAGE_SHIFT;
        pages = ((m->guest_addr_out & (XG_PAGE_SIZE - 1)) + m->length +
                 XG_PAGE_SIZE - 1) >> XG_PAGE_SHIFT;
        if ( !m->data || m->guest_addr_out < ((xen_paddr_t)dom->total_pages << XG_PAGE_SHIFT) )
        {
            xc_dom_panic(dom->xch, XC_INVALID_PARAM, EINVAL,
                         "ACPI module %u at %#"PRIx64" overlaps RAM or has no data",
                         i, m->guest_addr_out);
            return -1;
        }
        pfns = malloc(pages * sizeof(*pfns));
        if ( !pfns )
        {
            xc_dom_panic(dom->xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory for ACPI");
            return -1;
        }
        for ( j = 0; j < pages; j++ )
            pfns[j] = first + j;
        rc = xc_domain_populate_physmap_exact(dom->xch, dom->guest_domid,
                                              pages, 0, 0, pfns);
        free(pfns);
        if ( rc )
        {
            xc_dom_panic(dom->xch, XC_OUT_OF_MEMORY, errno,
                         "cannot populate d%u's ACPI pages at %#"PRIx64": %s",
                         dom->guest_domid, m->guest_addr_out, strerror(errno));
            return -1;
        }
        if ( xg_dom_write_frames(dom, first << XG_PAGE_SHIFT, NULL,
                                 pages << XG_PAGE_SHIFT) ||
             xg_dom_write_frames(dom, m->guest_addr_out, m->data, m->length) )
            return -1;
        DOMPRINTF("d%u: ACPI module %u, %u bytes at %#"PRIx64, dom->guest_domid,
                  i, m->length, m->guest_addr_out);
    }
    return 0;
}

/* The HEADER record of the domain's current context (the hypervisor's). */
static int get_header(struct xc_dom_image *dom, struct hvm_save_header *hdr)
{
    xc_interface *xch = dom->xch;
    struct hvm_save_descriptor d;
    uint8_t *full;
    int size, rc = -1;

    size = xc_domain_hvm_getcontext(xch, dom->guest_domid, NULL, 0);
    if ( size <= 0 )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, size ? errno : EINVAL,
                     "cannot get the size of d%u's HVM context: %s",
                     dom->guest_domid, size ? strerror(errno) : "empty");
        return -1;
    }
    full = calloc(1, size);
    if ( !full )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory for the HVM context");
        return -1;
    }
    size = xc_domain_hvm_getcontext(xch, dom->guest_domid, full, size);
    if ( size < 0 )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                     "cannot get d%u's HVM context: %s", dom->guest_domid,
                     strerror(errno));
        goto out;
    }
    memset(&d, 0, sizeof(d));
    if ( (size_t)size >= sizeof(d) + sizeof(*hdr) )
        memcpy(&d, full, sizeof(d));
    if ( d.typecode != HVM_SAVE_CODE(HEADER) || d.length != sizeof(*hdr) )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, EINVAL,
                     "d%u's HVM context does not start with a header",
                     dom->guest_domid);
        goto out;
    }
    memcpy(hdr, full + sizeof(d), sizeof(*hdr));
    rc = 0;

 out:
    free(full);
    return rc;
}

int xg_dom_pvh_boot(struct xc_dom_image *dom)
{
    xc_interface *xch = dom->xch;
    struct hvm_save_header hdr;
    uint8_t *page, *ctx;
    size_t room = 3 * sizeof(struct hvm_save_descriptor) + sizeof(hdr) +
                  sizeof(struct hvm_hw_cpu), size;
    int rc = -1;

    page = malloc(XG_PAGE_SIZE);
    ctx = malloc(room);
    if ( !page || !ctx )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory to boot d%u",
                     dom->guest_domid);
        goto out;
    }

    if ( xg_dom_pvh_start_info(dom, page) ||
         xg_dom_copy_to_guest(dom, dom->start_info_seg.vstart, page,
                              XG_PAGE_SIZE) )
        goto out;

    /* The rings' ports (Xen's bootlate_hvm). */
    if ( set_param(dom, HVM_PARAM_CONSOLE_EVTCHN, dom->console_evtchn) ||
         set_param(dom, HVM_PARAM_STORE_EVTCHN, dom->xenstore_evtchn) )
        goto out;

    if ( get_header(dom, &hdr) )
        goto out;
    size = xg_dom_pvh_vcpu_context(dom, &hdr, ctx, room);
    if ( !size )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM, "no memory for a vCPU context");
        goto out;
    }
    if ( xc_domain_hvm_setcontext(xch, dom->guest_domid, ctx, size) )
    {
        xc_dom_panic(xch, XC_INTERNAL_ERROR, errno,
                     "cannot set d%u's vCPU 0 context: %s", dom->guest_domid,
                     strerror(errno));
        goto out;
    }

    DOMPRINTF("d%u: start info at %#"PRIx64", entry %#"PRIx64,
              dom->guest_domid, dom->start_info_seg.vstart, dom->phys_entry);
    rc = 0;

 out:
    free(ctx);
    free(page);
    return rc;
}

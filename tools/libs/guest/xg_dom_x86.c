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
 *     0x100  the memory map, 4 entries
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
    struct hvm_start_info si;
    size_t off = XG_PVH_SI_CMDLINE, len;
    unsigned int i;

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

    memcpy(p + XG_PVH_SI_MEMMAP, map, sizeof(map));
    si.memmap_paddr = base + XG_PVH_SI_MEMMAP;
    si.memmap_entries = XG_PVH_MEMMAP_ENTRIES;

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

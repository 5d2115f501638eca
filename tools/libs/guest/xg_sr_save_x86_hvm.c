/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save, x86 HVM: the records after the memory.
 *
 *   X86_TSC_INFO   (xg_sr_common_x86.c)
 *   HVM_PARAMS     Xen's list (write_hvm_params): the ring and special
 *                  page gfns, the identity-map page table and the other
 *                  parameters a guest or its builder set, those that are
 *                  not 0 (HVMOP_get_param); the event channels are not
 *                  carried: the destination has its own
 *   HVM_CONTEXT    XEN_DOMCTL_gethvmcontext as it comes: HEADER, a CPU
 *                  record per initialised vCPU, LAPIC, LAPIC_REGS and
 *                  MTRR records per vCPU, END
 */
#include <stdlib.h>

#include "xg_sr_common.h"

/* Xen's write_hvm_params: these, when not 0. */
static const uint32_t saved_params[] = {
    HVM_PARAM_STORE_PFN,
    HVM_PARAM_IOREQ_PFN,
    HVM_PARAM_BUFIOREQ_PFN,
    HVM_PARAM_PAGING_RING_PFN,
    HVM_PARAM_MONITOR_RING_PFN,
    HVM_PARAM_SHARING_RING_PFN,
    HVM_PARAM_VM86_TSS_SIZED,
    HVM_PARAM_CONSOLE_PFN,
    HVM_PARAM_ACPI_IOPORTS_LOCATION,
    HVM_PARAM_VIRIDIAN,
    HVM_PARAM_IDENT_PT,
    HVM_PARAM_VM_GENERATION_ID_ADDR,
    HVM_PARAM_IOREQ_SERVER_PFN,
    HVM_PARAM_NR_IOREQ_SERVER_PAGES,
    HVM_PARAM_X87_FIP_WIDTH,
    HVM_PARAM_MCA_CAP,
};
#define NR_SAVED_PARAMS (sizeof(saved_params) / sizeof(saved_params[0]))

static int write_hvm_params(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    struct {
        struct xc_sr_rec_hvm_params hdr;
        struct xc_sr_rec_hvm_params_entry entry[NR_SAVED_PARAMS];
    } rec = { .hdr.count = 0 };
    unsigned int i;

    for ( i = 0; i < NR_SAVED_PARAMS; i++ )
    {
        uint64_t value = 0;

        if ( xc_hvm_param_get(xch, ctx->domid, saved_params[i], &value) )
        {
            PERROR("save: cannot get d%u's HVM parameter %u", ctx->domid,
                   saved_params[i]);
            return -1;
        }
        if ( !value )
            continue;
        rec.entry[rec.hdr.count].index = saved_params[i];
        rec.entry[rec.hdr.count].value = value;
        rec.hdr.count++;
    }
    return write_record(ctx, REC_TYPE_HVM_PARAMS, &rec,
                        sizeof(rec.hdr) + rec.hdr.count * sizeof(rec.entry[0]));
}

int x86_hvm_end_of_checkpoint(struct xc_sr_context *ctx)
{
    xc_interface *xch = ctx->xch;
    uint8_t *buf = NULL;
    int len, rc = -1;

    len = xc_domain_hvm_getcontext(xch, ctx->domid, NULL, 0);
    if ( len <= 0 )
    {
        PERROR("save: cannot get the size of d%u's HVM context", ctx->domid);
        return -1;
    }
    buf = malloc((size_t)len);
    if ( !buf )
    {
        ERROR("save: cannot allocate %d octets for the HVM context", len);
        errno = ENOMEM;
        return -1;
    }
    len = xc_domain_hvm_getcontext(xch, ctx->domid, buf, (uint32_t)len);
    if ( len <= 0 )
    {
        PERROR("save: cannot get d%u's HVM context", ctx->domid);
        goto out;
    }

    if ( write_x86_tsc_info(ctx) ||
         write_hvm_params(ctx) ||
         write_record(ctx, REC_TYPE_HVM_CONTEXT, buf, (size_t)len) )
        goto out;
    rc = 0;

 out:
    free(buf);
    return rc;
}

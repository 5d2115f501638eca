/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest save/restore: records in and out of the stream, their
 * names, and the clock the live policy measures (and sleeps) with.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "xg_sr_common.h"

static const char *const mandatory_names[] = {
    [REC_TYPE_END]                       = "END",
    [REC_TYPE_PAGE_DATA]                 = "PAGE_DATA",
    [REC_TYPE_X86_PV_INFO]               = "X86_PV_INFO",
    [REC_TYPE_X86_PV_P2M_FRAMES]         = "X86_PV_P2M_FRAMES",
    [REC_TYPE_X86_PV_VCPU_BASIC]         = "X86_PV_VCPU_BASIC",
    [REC_TYPE_X86_PV_VCPU_EXTENDED]      = "X86_PV_VCPU_EXTENDED",
    [REC_TYPE_X86_PV_VCPU_XSAVE]         = "X86_PV_VCPU_XSAVE",
    [REC_TYPE_SHARED_INFO]               = "SHARED_INFO",
    [REC_TYPE_X86_TSC_INFO]              = "X86_TSC_INFO",
    [REC_TYPE_HVM_CONTEXT]               = "HVM_CONTEXT",
    [REC_TYPE_HVM_PARAMS]                = "HVM_PARAMS",
    [REC_TYPE_TOOLSTACK]                 = "TOOLSTACK",
    [REC_TYPE_X86_PV_VCPU_MSRS]          = "X86_PV_VCPU_MSRS",
    [REC_TYPE_VERIFY]                    = "VERIFY",
    [REC_TYPE_CHECKPOINT]                = "CHECKPOINT",
    [REC_TYPE_CHECKPOINT_DIRTY_PFN_LIST] = "CHECKPOINT_DIRTY_PFN_LIST",
    [REC_TYPE_STATIC_DATA_END]           = "STATIC_DATA_END",
    [REC_TYPE_X86_CPUID_POLICY]          = "X86_CPUID_POLICY",
    [REC_TYPE_X86_MSR_POLICY]            = "X86_MSR_POLICY",
};

const char *rec_type_to_str(uint32_t type)
{
    if ( type & REC_TYPE_OPTIONAL )
        return "unknown optional";
    if ( type < sizeof(mandatory_names) / sizeof(mandatory_names[0]) &&
         mandatory_names[type] )
        return mandatory_names[type];
    return "unknown";
}

uint64_t xg_sr_now_ns(void)
{
    struct timespec ts;

    if ( clock_gettime(CLOCK_MONOTONIC, &ts) )
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void xg_sr_sleep_ns(uint64_t ns)
{
    struct timespec ts = {
        .tv_sec = (time_t)(ns / 1000000000ULL),
        .tv_nsec = (long)(ns % 1000000000ULL),
    };

    while ( nanosleep(&ts, &ts) && errno == EINTR )
        ;
}

int write_exact(struct xc_sr_context *ctx, const void *data, size_t len)
{
    xc_interface *xch = ctx->xch;
    const uint8_t *p = data;

    while ( len )
    {
        ssize_t n = write(ctx->fd, p, len);

        if ( n < 0 && errno == EINTR )
            continue;
        if ( n <= 0 )
        {
            if ( n == 0 )
                errno = EIO;
            PERROR("save: cannot write to the stream at offset %#" PRIx64,
                   ctx->offset);
            return -1;
        }
        p += n;
        len -= (size_t)n;
        ctx->offset += (uint64_t)n;
    }
    return 0;
}

int write_split_record(struct xc_sr_context *ctx, uint32_t type,
                       const void *const parts[], const size_t lens[],
                       unsigned int nr)
{
    static const uint8_t zeroes[7];
    struct xc_sr_rhdr rhdr = { .type = type };
    uint64_t total = 0;
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        total += lens[i];
    if ( total > UINT32_MAX )
    {
        errno = E2BIG;
        return -1;
    }
    rhdr.length = (uint32_t)total;

    if ( write_exact(ctx, &rhdr, sizeof(rhdr)) )
        return -1;
    for ( i = 0; i < nr; i++ )
        if ( lens[i] && write_exact(ctx, parts[i], lens[i]) )
            return -1;
    if ( total & 7 )
        return write_exact(ctx, zeroes, 8 - (total & 7));
    return 0;
}

int write_record(struct xc_sr_context *ctx, uint32_t type,
                 const void *body, size_t len)
{
    const void *parts[] = { body };
    size_t lens[] = { len };

    return write_split_record(ctx, type, parts, lens, 1);
}

int read_exact(struct xc_sr_context *ctx, void *data, size_t len,
               const char *what)
{
    xc_interface *xch = ctx->xch;
    uint8_t *p = data;
    size_t got = 0;

    while ( got < len )
    {
        ssize_t n = read(ctx->fd, p + got, len - got);

        if ( n < 0 && errno == EINTR )
            continue;
        if ( n < 0 )
        {
            PERROR("restore: offset %#" PRIx64 ": cannot read %s",
                   ctx->offset, what);
            return -1;
        }
        if ( n == 0 )
        {
            ERROR("restore: offset %#" PRIx64 ": stream truncated in %s "
                  "(%zu of %zu octets)", ctx->offset, what, got, len);
            errno = EIO;
            return -1;
        }
        got += (size_t)n;
        ctx->offset += (uint64_t)n;
    }
    return 0;
}

int read_record(struct xc_sr_context *ctx, struct xc_sr_record *rec)
{
    struct xc_sr_rhdr rhdr;
    uint8_t pad[8];
    char what[64];
    size_t padlen;
    unsigned int i;

    rec->data = NULL;
    rec->offset = ctx->offset;
    if ( read_exact(ctx, &rhdr, sizeof(rhdr), "a record header") )
        return -1;
    rec->type = rhdr.type;
    rec->length = rhdr.length;

    if ( rhdr.length > REC_LENGTH_MAX )
    {
        REC_ERROR(ctx, rec, "body longer than the %u octets any record may have",
                  REC_LENGTH_MAX);
        errno = EINVAL;
        return -1;
    }

    snprintf(what, sizeof(what), "the body of a %s record",
             rec_type_to_str(rec->type));
    if ( rhdr.length )
    {
        rec->data = malloc(rhdr.length);
        if ( !rec->data )
        {
            REC_ERROR(ctx, rec, "cannot allocate its body");
            errno = ENOMEM;
            return -1;
        }
        if ( read_exact(ctx, rec->data, rhdr.length, what) )
            goto fail;
    }

    padlen = (8 - (rhdr.length & 7)) & 7;
    snprintf(what, sizeof(what), "the padding of a %s record",
             rec_type_to_str(rec->type));
    if ( padlen && read_exact(ctx, pad, padlen, what) )
        goto fail;
    for ( i = 0; i < padlen; i++ )
        if ( pad[i] )
        {
            REC_ERROR(ctx, rec, "padding octet %u is %#x, not zero", i, pad[i]);
            errno = EINVAL;
            goto fail;
        }
    return 0;

 fail:
    free(rec->data);
    rec->data = NULL;
    return -1;
}

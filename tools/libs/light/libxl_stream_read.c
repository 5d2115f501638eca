/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: reading a domain's image (libxl_stream_write.c describes the
 * stream).  Checked: the header (ident, version 2, little-endian, not a
 * legacy conversion, reserved bits), each record's padding, the order
 * (LIBXC_CONTEXT once, END last and after it); optional records are
 * skipped; emulator records (no device model for PVH here) and
 * checkpoint records are refused; unknown mandatory records too.
 */
#include <unistd.h>
#include <xenguest.h>

#include "libxl_internal.h"
#include "libxl_stream.h"

static int read_all(libxl_ctx *ctx, int fd, void *p, size_t len,
                    uint64_t *off, const char *what)
{
    uint8_t *b = p;
    size_t got = 0;

    while (got < len) {
        ssize_t n = read(fd, b + got, len - got);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            LOGE(ERROR, "libxl stream: offset %#"PRIx64": cannot read %s",
                 *off, what);
            return ERROR_FAIL;
        }
        if (n == 0) {
            LOG(ERROR, "libxl stream: offset %#"PRIx64": truncated in %s "
                "(%zu of %zu octets)", *off, what, got, len);
            return ERROR_FAIL;
        }
        got += (size_t)n;
        *off += (uint64_t)n;
    }
    return 0;
}

/* Skip an optional record's body and check its padding. */
static int skip_body(libxl_ctx *ctx, int fd, uint32_t len, uint64_t *off)
{
    uint8_t buf[256];
    uint64_t left = len + ((8 - (len & 7)) & 7);
    uint32_t pos = 0;

    while (left) {
        size_t n = left < sizeof(buf) ? (size_t)left : sizeof(buf);

        if (read_all(ctx, fd, buf, n, off, "an optional record"))
            return ERROR_FAIL;
        for (size_t i = 0; i < n; i++, pos++)
            if (pos >= len && buf[i]) {
                LOG(ERROR, "libxl stream: offset %#"PRIx64": padding is "
                    "not zero", *off - n + i);
                return ERROR_FAIL;
            }
        left -= n;
    }
    return 0;
}

int libxl__stream_read(libxl_ctx *ctx, uint32_t domid, int fd,
                       struct xc_restore_rings *rings)
{
    struct libxl__sr_hdr hdr;
    struct libxl__sr_rec_hdr rec;
    struct xc_restore_summary sum;
    uint64_t off = 0, at;
    uint32_t options;
    bool libxc = false;

    if (read_all(ctx, fd, &hdr, sizeof(hdr), &off, "the libxl header"))
        return ERROR_FAIL;
    if (__builtin_bswap64(hdr.ident) != LIBXL_SR_IDENT) {
        LOG(ERROR, "libxl stream: offset 0: not a libxl stream (ident "
            "%#"PRIx64", not \"LibxlFmt\")", __builtin_bswap64(hdr.ident));
        return ERROR_INVAL;
    }
    if (__builtin_bswap32(hdr.version) != LIBXL_SR_VERSION) {
        LOG(ERROR, "libxl stream: offset 0x8: version %u, not %u",
            __builtin_bswap32(hdr.version), LIBXL_SR_VERSION);
        return ERROR_INVAL;
    }
    options = __builtin_bswap32(hdr.options);
    if (options & LIBXL_SR_OPT_BIG_ENDIAN) {
        LOG(ERROR, "libxl stream: offset 0xc: a big-endian stream");
        return ERROR_INVAL;
    }
    if (options & LIBXL_SR_OPT_LEGACY) {
        LOG(ERROR, "libxl stream: offset 0xc: a legacy-format conversion, "
            "not supported");
        return ERROR_INVAL;
    }
    if (options) {
        LOG(ERROR, "libxl stream: offset 0xc: reserved options %#x", options);
        return ERROR_INVAL;
    }

    for (;;) {
        at = off;
        if (read_all(ctx, fd, &rec, sizeof(rec), &off, "a record header"))
            return ERROR_FAIL;
        switch (rec.type) {
        case LIBXL_SR_REC_END:
            if (rec.length || !libxc) {
                LOG(ERROR, "libxl stream: offset %#"PRIx64": END %s", at,
                    rec.length ? "with a body" : "before LIBXC_CONTEXT");
                return ERROR_INVAL;
            }
            return 0;
        case LIBXL_SR_REC_LIBXC_CONTEXT:
            if (rec.length || libxc) {
                LOG(ERROR, "libxl stream: offset %#"PRIx64": LIBXC_CONTEXT "
                    "%s", at, rec.length ? "with a body" : "twice");
                return ERROR_INVAL;
            }
            libxc = true;
            if (xc_domain_restore_rings(ctx->xch, fd, domid, rings, NULL, &sum)) {
                LOGED(ERROR, domid, "restoring the libxc stream at offset "
                      "%#"PRIx64" failed", off);
                return ERROR_FAIL;
            }
            off += sum.octets;
            break;
        case LIBXL_SR_REC_EMULATOR_XENSTORE_DATA:
        case LIBXL_SR_REC_EMULATOR_CONTEXT:
            LOG(ERROR, "libxl stream: offset %#"PRIx64": emulator record "
                "(type %u): PVH guests here have no device model", at,
                rec.type);
            return ERROR_INVAL;
        case LIBXL_SR_REC_CHECKPOINT_END:
        case LIBXL_SR_REC_CHECKPOINT_STATE:
            LOG(ERROR, "libxl stream: offset %#"PRIx64": checkpoint record "
                "(type %u): checkpointed streams are not supported", at,
                rec.type);
            return ERROR_INVAL;
        default:
            if (!(rec.type & LIBXL_SR_REC_OPTIONAL)) {
                LOG(ERROR, "libxl stream: offset %#"PRIx64": unknown "
                    "mandatory record type %#x", at, rec.type);
                return ERROR_INVAL;
            }
            if (skip_body(ctx, fd, rec.length, &off))
                return ERROR_FAIL;
        }
    }
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl's migration stream (Xen's docs/specs/libxl-migration-stream.pandoc,
 * revision 2): the header and record layouts, and the two directions.
 */
#ifndef LIBXL_STREAM_H
#define LIBXL_STREAM_H

#include <stdint.h>

#include "libxl.h"

/* The header: all fields big-endian. */
struct libxl__sr_hdr {
    uint64_t ident;
    uint32_t version;
    uint32_t options;
};

#define LIBXL_SR_IDENT              0x4c6962786c466d74ULL  /* "LibxlFmt" */
#define LIBXL_SR_VERSION            2
#define LIBXL_SR_OPT_BIG_ENDIAN     (1U << 0)
#define LIBXL_SR_OPT_LEGACY         (1U << 1)

/* A record: type, body length, body, zero padding to 8 octets. */
struct libxl__sr_rec_hdr {
    uint32_t type;
    uint32_t length;
};

#define LIBXL_SR_REC_END                    0x00000000U
#define LIBXL_SR_REC_LIBXC_CONTEXT          0x00000001U
#define LIBXL_SR_REC_EMULATOR_XENSTORE_DATA 0x00000002U
#define LIBXL_SR_REC_EMULATOR_CONTEXT       0x00000003U
#define LIBXL_SR_REC_CHECKPOINT_END         0x00000004U
#define LIBXL_SR_REC_CHECKPOINT_STATE       0x00000005U
#define LIBXL_SR_REC_OPTIONAL               0x80000000U

_Static_assert(sizeof(struct libxl__sr_hdr) == 16, "libxl header");
_Static_assert(sizeof(struct libxl__sr_rec_hdr) == 8, "libxl record header");

/* Save domid to fd (the domain is left suspended on success). */
int libxl__stream_write(libxl_ctx *ctx, uint32_t domid, int fd, int flags,
                        const libxl_suspend_params *params);
/* Restore fd's stream into domid (created paused, max_mem set). */
struct xc_restore_rings;
/* The new domain's ring ports in rings; the rings' gfns come back in it. */
int libxl__stream_read(libxl_ctx *ctx, uint32_t domid, int fd,
                       struct xc_restore_rings *rings);

#endif /* LIBXL_STREAM_H */

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxendevicemodel: the calls a device model makes about the HVM domain
 * it serves, over the dm_op hypercall (__HYPERVISOR_dm_op, 41).
 *
 * Xen's names and signatures (tools/include/xendevicemodel.h); only the
 * subset implemented here is declared.  Functions return 0 on success, or
 * -1 with errno set (the positive error the hypervisor returned).
 */
#ifndef XENDEVICEMODEL_H
#define XENDEVICEMODEL_H

#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1
#endif

#include <stdint.h>

#include <xen/xen.h>
#include <xen/hvm/dm_op.h>

/* Callers that do not log need not include xentoollog.h. */
struct xentoollog_logger;

typedef struct xendevicemodel_handle xendevicemodel_handle;

/*
 * Open / close a handle.  A NULL logger means stderr; open returns NULL
 * (errno set, reason logged) when the hypercall interface is missing.
 */
xendevicemodel_handle *xendevicemodel_open(struct xentoollog_logger *logger,
                                           unsigned int open_flags);
int xendevicemodel_close(xendevicemodel_handle *dmod);

/*
 * Video-RAM dirty tracking (XEN_DMOP_track_dirty_vram): track the nr
 * frames from first_pfn.  Atomically: report the frames written since the
 * previous call into dirty_bitmap (one bit per frame, (nr + 7) / 8 bytes
 * used), re-arm them, and keep tracking until the next call.  The first
 * call for a range, or a call for a different range, reports every frame
 * dirty; nr == 0 stops tracking.
 */
int xendevicemodel_track_dirty_vram(xendevicemodel_handle *dmod,
                                    domid_t domid, uint64_t first_pfn,
                                    uint32_t nr, unsigned long *dirty_bitmap);

#endif /* XENDEVICEMODEL_H */

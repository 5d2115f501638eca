/* SPDX-License-Identifier: MIT */
/*
 * The PV console ring (Xen's public/io/console.h): one page shared by a
 * guest and its console backend (xenconsoled), named by the guest's
 * HVM_PARAM_CONSOLE_PFN (and grant GNTTAB_RESERVED_CONSOLE) with
 * HVM_PARAM_CONSOLE_EVTCHN the port either side notifies the other on.
 *
 * out[] carries what the guest writes (it advances out_prod, the backend
 * out_cons), in[] what is typed to it (the backend advances in_prod, the
 * guest in_cons).  Indexes run freely; MASK_XENCONS_IDX gives the byte.
 * A writer fills the bytes, then (after a write barrier) moves its
 * producer index, then notifies.
 */
#ifndef __XEN_PUBLIC_IO_CONSOLE_H__
#define __XEN_PUBLIC_IO_CONSOLE_H__

#include "../xen.h"

#ifndef __ASSEMBLY__

typedef uint32_t XENCONS_RING_IDX;

#define MASK_XENCONS_IDX(idx, ring) ((idx) & (sizeof(ring) - 1))

struct xencons_interface {
    char in[1024];
    char out[2048];
    XENCONS_RING_IDX in_cons, in_prod;
    XENCONS_RING_IDX out_cons, out_prod;
};

#endif /* __ASSEMBLY__ */

#endif /* __XEN_PUBLIC_IO_CONSOLE_H__ */

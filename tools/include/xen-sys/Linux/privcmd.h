/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Linux's privcmd driver interface (/dev/xen/privcmd), the part the tool
 * libraries use.  Layouts and ioctl numbers are Linux's
 * (include/uapi/xen/privcmd.h); the kernel runs the hypercall with the
 * caller's arguments and returns its result, or -1 with errno set to the
 * negated (negative) result.
 */
#ifndef XEN_SYS_LINUX_PRIVCMD_H
#define XEN_SYS_LINUX_PRIVCMD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

/* IOCTL_PRIVCMD_HYPERCALL: hypercall 'op' with up to five arguments. */
typedef struct privcmd_hypercall {
    uint64_t op;
    uint64_t arg[5];
} privcmd_hypercall_t;

#define IOCTL_PRIVCMD_HYPERCALL \
    _IOC(_IOC_NONE, 'P', 0, sizeof(privcmd_hypercall_t))

/*
 * IOCTL_PRIVCMD_MMAPBATCH_V2: fill 'num' pages of a range mmap()ed from
 * privcmd, starting at 'addr', with frames arr[] of domain 'dom'; err[]
 * gets 0 or a negated errno per page.  The ioctl fails with ENOENT when
 * a frame is paged out (err[] then says which), else only when nothing
 * could be tried.
 */
typedef struct privcmd_mmapbatch_v2 {
    unsigned int num;
    uint16_t dom;                       /* domid_t */
    uint64_t addr;
    const uint64_t *arr;                /* xen_pfn_t[num] */
    int *err;                           /* int[num] */
} privcmd_mmapbatch_v2_t;

#define IOCTL_PRIVCMD_MMAPBATCH_V2 \
    _IOC(_IOC_NONE, 'P', 4, sizeof(privcmd_mmapbatch_v2_t))

/*
 * IOCTL_PRIVCMD_MMAP_RESOURCE: map frames [idx, idx + num) of resource
 * 'type'/'id' of domain 'dom' (XENMEM_acquire_resource) at 'addr', a range
 * the caller mmap()ed from privcmd.
 */
typedef struct privcmd_mmap_resource {
    uint16_t dom;                       /* domid_t */
    uint32_t type;
    uint32_t id;
    uint32_t idx;
    uint64_t num;
    uint64_t addr;
} privcmd_mmap_resource_t;

#define IOCTL_PRIVCMD_MMAP_RESOURCE \
    _IOC(_IOC_NONE, 'P', 7, sizeof(privcmd_mmap_resource_t))

#endif /* XEN_SYS_LINUX_PRIVCMD_H */

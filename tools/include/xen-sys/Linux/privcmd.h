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

#endif /* XEN_SYS_LINUX_PRIVCMD_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/* <sys/types.h> for the guest test kernels. */
#ifndef GUEST_LIBC_SYS_TYPES_H
#define GUEST_LIBC_SYS_TYPES_H

#include <stddef.h>

typedef int pid_t;
typedef long time_t;
typedef signed long ssize_t;        /* the same as xen/types.h's */

#endif /* GUEST_LIBC_SYS_TYPES_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <errno.h> for code built into the guest test kernels (the toolstack
 * libraries): the hypervisor's error numbers, which are Linux's, and one
 * global errno (the libraries run on one vCPU at a time).
 */
#ifndef GUEST_LIBC_ERRNO_H
#define GUEST_LIBC_ERRNO_H

/* By path: the toolstack built in here sees tools/include, where <xen/...>
 * is the public ABI only (tools/include/Makefile). */
#include "../../../../xen/include/xen/errno.h"

extern int errno;

#endif /* GUEST_LIBC_ERRNO_H */

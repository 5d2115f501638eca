/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <string.h> for the guest test kernels: the hypervisor's own string
 * functions (xen/common/string.c, linked into every test kernel) plus
 * strerror().
 */
#ifndef GUEST_LIBC_STRING_H
#define GUEST_LIBC_STRING_H

/* By path: the toolstack built in here sees tools/include, where <xen/...>
 * is the public ABI only (tools/include/Makefile). */
#include "../../../../xen/include/xen/string.h"

/* A description of an errno value; never NULL. */
char *strerror(int errnum);

#endif /* GUEST_LIBC_STRING_H */

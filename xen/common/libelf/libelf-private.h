/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * What libelf needs from its surroundings.  The same sources build in the
 * hypervisor (and the host unit tests of it, tests/unit) on Xen's own
 * string and formatting functions, and in the tools (__XEN_TOOLS__:
 * libxenguest on Linux's libc, or on tests/common/libc in the control
 * domain's test kernels).
 */
#ifndef __LIBELF_PRIVATE_H__
#define __LIBELF_PRIVATE_H__

#ifdef __XEN_TOOLS__
/* The tools see only their own headers, as Xen's (tools/include/xen/). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <xen/libelf/libelf.h>
#include <xen/elfnote.h>
#else
#include <xen/lib.h>
#include <xen/string.h>
#include <xen/libelf.h>
#include <public/elfnote.h>
#endif

#define ELF_ROUNDUP4(x)     (((uint64_t)(x) + 3) & ~(uint64_t)3)

/* Record why the image is refused (elf->err); always returns -1. */
int elf_err(struct elf_binary *elf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* true if [off, off + len) lies inside the image (no wrap-around). */
static inline bool elf_range_ok(const struct elf_binary *elf, uint64_t off,
                                uint64_t len)
{
    return off <= elf->size && len <= elf->size - off;
}

#endif /* __LIBELF_PRIVATE_H__ */

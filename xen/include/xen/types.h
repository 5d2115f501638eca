/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic integer types of the hypervisor.  Built on the compiler's own
 * freestanding headers, so it works with -nostdinc and on the host alike.
 */
#ifndef __XEN_TYPES_H__
#define __XEN_TYPES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef int64_t  s64;

typedef signed long ssize_t;

/* Physical addresses, and machine / guest frame numbers. */
typedef u64 paddr_t;
#define PRIpaddr "016" PRIx64

typedef unsigned long mfn_t;
typedef unsigned long gfn_t;

#define INVALID_MFN (~0UL)
#define INVALID_GFN (~0UL)
#define INVALID_PADDR (~(paddr_t)0)

/* printf length modifiers for the fixed-size types (x86-64: long is 64 bit). */
#ifndef PRIx64
#define PRIx64 "lx"
#define PRIu64 "lu"
#define PRId64 "ld"
#endif

#endif /* __XEN_TYPES_H__ */

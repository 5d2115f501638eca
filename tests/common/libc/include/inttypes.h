/* SPDX-License-Identifier: GPL-2.0-only */
/* <inttypes.h> for the guest test kernels (x86-64: long is 64 bits). */
#ifndef GUEST_LIBC_INTTYPES_H
#define GUEST_LIBC_INTTYPES_H

#include <stdint.h>

#ifndef PRIx64
#define PRIx64 "lx"
#define PRIu64 "lu"
#define PRId64 "ld"
#endif
#define PRIx32 "x"
#define PRIu32 "u"
#define PRId32 "d"

#endif /* GUEST_LIBC_INTTYPES_H */

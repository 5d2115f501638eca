/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl_uuid: 16-byte UUIDs, big-endian byte order (Xen's layout since
 * 4.7, LIBXL_HAVE_BYTEARRAY_UUID).  Included by libxl.h.
 */
#ifndef __LIBXL_UUID_H__
#define __LIBXL_UUID_H__

#include <stdint.h>

#define LIBXL_UUID_FMT "%02hhx%02hhx%02hhx%02hhx-%02hhx%02hhx-%02hhx%02hhx-%02hhx%02hhx-%02hhx%02hhx%02hhx%02hhx%02hhx%02hhx"
#define LIBXL_UUID_FMTLEN ((2*16)+4) /* 16 hex bytes plus 4 hyphens */
#define LIBXL__UUID_BYTES(uuid) uuid[0], uuid[1], uuid[2], uuid[3], \
                                uuid[4], uuid[5], uuid[6], uuid[7], \
                                uuid[8], uuid[9], uuid[10], uuid[11], \
                                uuid[12], uuid[13], uuid[14], uuid[15]
#define LIBXL_UUID_BYTES(arg) LIBXL__UUID_BYTES((arg).uuid)

typedef struct {
    /* UUID as an octet stream in big-endian byte-order. */
    unsigned char uuid[16];
} libxl_uuid;

int libxl_uuid_is_nil(const libxl_uuid *uuid);
/* A random (version 4) UUID. */
void libxl_uuid_generate(libxl_uuid *uuid);
/* 0, or ERROR_INVAL if 'in' is not 8-4-4-4-12 hex digits. */
int libxl_uuid_from_string(libxl_uuid *uuid, const char *in);
void libxl_uuid_copy(libxl_ctx *ctx_opt, libxl_uuid *dst,
                     const libxl_uuid *src);
void libxl_uuid_clear(libxl_uuid *uuid);
int libxl_uuid_compare(const libxl_uuid *uuid1, const libxl_uuid *uuid2);
const uint8_t *libxl_uuid_bytearray_const(const libxl_uuid *uuid);
uint8_t *libxl_uuid_bytearray(libxl_uuid *uuid);

#endif /* __LIBXL_UUID_H__ */

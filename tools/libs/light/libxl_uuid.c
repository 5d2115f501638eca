/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl_uuid.h's functions through libuuid (util-linux's, Debian's
 * uuid-dev), as Xen's libxl does on Linux: random UUIDs from
 * uuid_generate(), parsing with uuid_parse().  libxl_uuid holds the 16
 * octets in big-endian order, which is uuid_t's.
 */
#include <uuid/uuid.h>

#include "libxl_internal.h"

_Static_assert(sizeof(((libxl_uuid *)0)->uuid) == sizeof(uuid_t), "libxl_uuid is a uuid_t");

int libxl_uuid_is_nil(const libxl_uuid *uuid)
{
    return uuid_is_null(uuid->uuid);
}

void libxl_uuid_generate(libxl_uuid *uuid)
{
    uuid_generate(uuid->uuid);
}

/* 0, or ERROR_INVAL (Xen's returns uuid_parse's -1) for a malformed one. */
int libxl_uuid_from_string(libxl_uuid *uuid, const char *in)
{
    uuid_t u;

    if (!in || strlen(in) != LIBXL_UUID_FMTLEN || uuid_parse(in, u))
        return ERROR_INVAL;
    uuid_copy(uuid->uuid, u);
    return 0;
}

void libxl_uuid_copy(libxl_ctx *ctx_opt, libxl_uuid *dst,
                     const libxl_uuid *src)
{
    (void)ctx_opt;
    uuid_copy(dst->uuid, src->uuid);
}

void libxl_uuid_clear(libxl_uuid *uuid)
{
    uuid_clear(uuid->uuid);
}

int libxl_uuid_compare(const libxl_uuid *uuid1, const libxl_uuid *uuid2)
{
    return uuid_compare(uuid1->uuid, uuid2->uuid);
}

const uint8_t *libxl_uuid_bytearray_const(const libxl_uuid *uuid)
{
    return uuid->uuid;
}

uint8_t *libxl_uuid_bytearray(libxl_uuid *uuid)
{
    return uuid->uuid;
}

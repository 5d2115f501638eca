/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * JSON for libxl's builtin types, and the glue the generated
 * libxl_<type>_gen_json / _to_json functions use.  Output matches Xen's:
 * defbools as "<default>"/"True"/"False", UUIDs and MACs as strings,
 * bitmaps as the list of set bits, 64-bit numbers unsigned.
 */
#include "libxl_internal.h"

yajl_gen_status libxl__yajl_gen_asciiz(yajl_gen hand, const char *str)
{
    return yajl_gen_string(hand, (const unsigned char *)str, strlen(str));
}

yajl_gen_status libxl__yajl_gen_enum(yajl_gen hand, const char *str)
{
    return str ? libxl__yajl_gen_asciiz(hand, str) : yajl_gen_null(hand);
}

yajl_gen_status libxl__string_gen_json(yajl_gen hand, const char *p)
{
    return p ? libxl__yajl_gen_asciiz(hand, p) : yajl_gen_null(hand);
}

yajl_gen_status libxl__uint64_gen_json(yajl_gen hand, uint64_t val)
{
    char buf[24];
    int len = snprintf(buf, sizeof(buf), "%"PRIu64, val);

    return yajl_gen_number(hand, buf, len);
}

yajl_gen_status libxl_defbool_gen_json(yajl_gen hand, libxl_defbool *db)
{
    return libxl__yajl_gen_asciiz(hand, libxl_defbool_to_string(*db));
}

yajl_gen_status libxl_uuid_gen_json(yajl_gen hand, libxl_uuid *uuid)
{
    char buf[LIBXL_UUID_FMTLEN + 1];

    snprintf(buf, sizeof(buf), LIBXL_UUID_FMT, LIBXL_UUID_BYTES(*uuid));
    return yajl_gen_string(hand, (const unsigned char *)buf,
                           LIBXL_UUID_FMTLEN);
}

yajl_gen_status libxl_bitmap_gen_json(yajl_gen hand, libxl_bitmap *bitmap)
{
    yajl_gen_status s;
    int i;

    s = yajl_gen_array_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    libxl_for_each_set_bit(i, *bitmap) {
        s = yajl_gen_integer(hand, i);
        if (s != yajl_gen_status_ok)
            return s;
    }
    return yajl_gen_array_close(hand);
}

yajl_gen_status libxl_string_list_gen_json(yajl_gen hand, libxl_string_list *pl)
{
    libxl_string_list l = *pl;
    yajl_gen_status s;

    s = yajl_gen_array_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    for (int i = 0; l && l[i]; i++) {
        s = libxl__yajl_gen_asciiz(hand, l[i]);
        if (s != yajl_gen_status_ok)
            return s;
    }
    return yajl_gen_array_close(hand);
}

yajl_gen_status libxl_key_value_list_gen_json(yajl_gen hand,
                                              libxl_key_value_list *pkvl)
{
    libxl_key_value_list kvl = *pkvl;
    yajl_gen_status s;

    s = yajl_gen_map_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    for (int i = 0; kvl && kvl[i]; i += 2) {
        s = libxl__yajl_gen_asciiz(hand, kvl[i]);
        if (s != yajl_gen_status_ok)
            return s;
        s = libxl__string_gen_json(hand, kvl[i + 1]);
        if (s != yajl_gen_status_ok)
            return s;
    }
    return yajl_gen_map_close(hand);
}

/* All eight words (Xen 4.17 writes only the first four: an old bug). */
yajl_gen_status libxl_hwcap_gen_json(yajl_gen hand, libxl_hwcap *p)
{
    yajl_gen_status s;

    s = yajl_gen_array_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    for (unsigned int i = 0; i < sizeof(*p) / sizeof((*p)[0]); i++) {
        s = yajl_gen_integer(hand, (*p)[i]);
        if (s != yajl_gen_status_ok)
            return s;
    }
    return yajl_gen_array_close(hand);
}

/* "00:16:3e:12:34:56", as Xen */
yajl_gen_status libxl_mac_gen_json(yajl_gen hand, libxl_mac *p)
{
    char buf[LIBXL_MAC_FMTLEN + 1];

    snprintf(buf, sizeof(buf), LIBXL_MAC_FMT, LIBXL_MAC_BYTES((*p)));
    return yajl_gen_string(hand, (const unsigned char *)buf, strlen(buf));
}

/* A policy list is always empty here (libxl.h): the empty list. */
yajl_gen_status libxl_cpuid_policy_list_gen_json(yajl_gen hand,
                                                 libxl_cpuid_policy_list *p)
{
    yajl_gen_status s;

    (void)p;
    s = yajl_gen_array_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    return yajl_gen_array_close(hand);
}

/* The sixteen bytes, as a list of numbers. */
yajl_gen_status libxl_ms_vm_genid_gen_json(yajl_gen hand, libxl_ms_vm_genid *p)
{
    yajl_gen_status s;

    s = yajl_gen_array_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    for (unsigned int i = 0; i < LIBXL_MS_VM_GENID_LEN; i++) {
        s = yajl_gen_integer(hand, p->bytes[i]);
        if (s != yajl_gen_status_ok)
            return s;
    }
    return yajl_gen_array_close(hand);
}

int libxl__mac_is_default(const libxl_mac *mac)
{
    for (unsigned int i = 0; i < sizeof(*mac); i++)
        if ((*mac)[i])
            return 0;
    return 1;
}

int libxl__cpuid_policy_is_empty(const libxl_cpuid_policy_list *pl)
{
    return !*pl;
}

int libxl__string_list_is_empty(const libxl_string_list *psl)
{
    return !*psl || !(*psl)[0];
}

int libxl__key_value_list_is_empty(const libxl_key_value_list *pkvl)
{
    return !*pkvl || !(*pkvl)[0];
}

int libxl__hwcap_is_default(const libxl_hwcap *hwcap)
{
    for (unsigned int i = 0; i < sizeof(*hwcap) / sizeof((*hwcap)[0]); i++)
        if ((*hwcap)[i])
            return 0;
    return 1;
}

char *libxl__object_to_json(libxl_ctx *ctx, const char *type,
                            libxl__gen_json_callback gen, void *p)
{
    const unsigned char *buf;
    libxl_yajl_length len;
    yajl_gen_status s;
    yajl_gen hand;
    char *ret = NULL;

    hand = libxl_yajl_gen_alloc(NULL);
    if (!hand)
        return NULL;

    s = gen(hand, p);
    if (s == yajl_gen_status_ok)
        s = yajl_gen_get_buf(hand, &buf, &len);
    if (s == yajl_gen_status_ok)
        ret = strdup((const char *)buf);
    else if (ctx)
        LOG(ERROR, "unable to convert %s to JSON (yajl status %d)", type, s);
    yajl_gen_free(hand);
    return ret;
}

int libxl__enum_from_string(const libxl_enum_string_table *t,
                            const char *s, int *e)
{
    if (!t || !s)
        return ERROR_INVAL;
    for (; t->s; t++) {
        if (!strcasecmp(t->s, s)) {
            *e = t->v;
            return 0;
        }
    }
    return ERROR_FAIL;
}

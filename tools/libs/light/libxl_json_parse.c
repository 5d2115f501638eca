/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl_<type>_from_json: the builtin types read back from the JSON
 * libxl_<type>_to_json writes (libxl_json.c), over yajl's tree parser.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libxl_json_parse.h"

#include <libxl_utils.h>

yajl_val libxl__json_map_get(yajl_val o, const char *key)
{
    if (!YAJL_IS_OBJECT(o))
        return NULL;
    for (size_t i = 0; i < o->u.object.len; i++)
        if (!strcmp(o->u.object.keys[i], key))
            return o->u.object.values[i];
    return NULL;
}

static void *xcalloc(size_t n, size_t sz)
{
    void *r = calloc(n ? n : 1, sz);

    if (!r) {
        fprintf(stderr, "libxl: out of memory\n");
        exit(255);                  /* as Xen's libxl on allocation failure */
    }
    return r;
}

static char *xstrdup(const char *s)
{
    char *r = strdup(s);

    if (!r) {
        fprintf(stderr, "libxl: out of memory\n");
        exit(255);
    }
    return r;
}

int libxl__bool_parse_json(yajl_val v, bool *p)
{
    if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
        return ERROR_FAIL;
    *p = YAJL_IS_TRUE(v);
    return 0;
}

/* An integer in [min, max] (as long long; uint64 has its own). */
static int integer(yajl_val v, long long min, long long max, long long *r)
{
    if (!YAJL_IS_INTEGER(v) || YAJL_GET_INTEGER(v) < min ||
        YAJL_GET_INTEGER(v) > max)
        return ERROR_FAIL;
    *r = YAJL_GET_INTEGER(v);
    return 0;
}

int libxl__int_parse_json(yajl_val v, int *p)
{
    long long r;
    int rc = integer(v, INT_MIN, INT_MAX, &r);

    if (!rc)
        *p = (int)r;
    return rc;
}

#define UINT_PARSER(bits)                                                   \
int libxl__uint##bits##_parse_json(yajl_val v, uint##bits##_t *p)           \
{                                                                           \
    long long r;                                                            \
    int rc = integer(v, 0, UINT##bits##_MAX, &r);                           \
                                                                            \
    if (!rc)                                                                \
        *p = (uint##bits##_t)r;                                             \
    return rc;                                                              \
}
UINT_PARSER(8)
UINT_PARSER(16)
UINT_PARSER(32)

/* Beyond LLONG_MAX yajl keeps only the text: read that. */
int libxl__uint64_parse_json(yajl_val v, uint64_t *p)
{
    const char *s;
    char *end;
    unsigned long long r;

    if (!YAJL_IS_NUMBER(v))
        return ERROR_FAIL;
    if (YAJL_IS_INTEGER(v)) {
        if (YAJL_GET_INTEGER(v) < 0)
            return ERROR_FAIL;
        *p = YAJL_GET_INTEGER(v);
        return 0;
    }
    s = YAJL_GET_NUMBER(v);
    errno = 0;
    r = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-')
        return ERROR_FAIL;
    *p = r;
    return 0;
}

int libxl__string_parse_json(yajl_val v, char **p)
{
    if (YAJL_IS_NULL(v)) {
        free(*p);
        *p = NULL;
        return 0;
    }
    if (!YAJL_IS_STRING(v))
        return ERROR_FAIL;
    free(*p);
    *p = xstrdup(YAJL_GET_STRING(v));
    return 0;
}

int libxl__enum_parse_json(yajl_val v, const libxl_enum_string_table *t,
                           int *e)
{
    if (!YAJL_IS_STRING(v))
        return ERROR_FAIL;
    return libxl__enum_from_string(t, YAJL_GET_STRING(v), e) ? ERROR_FAIL : 0;
}

/* "<default>", "False", "True" (libxl_defbool_to_string) */
int libxl__defbool_parse_json(yajl_val v, libxl_defbool *p)
{
    const char *s = YAJL_GET_STRING(v);

    if (!s)
        return ERROR_FAIL;
    if (!strcmp(s, "<default>"))
        libxl_defbool_unset(p);
    else if (!strcasecmp(s, "True"))
        libxl_defbool_set(p, true);
    else if (!strcasecmp(s, "False"))
        libxl_defbool_set(p, false);
    else
        return ERROR_FAIL;
    return 0;
}

int libxl__domid_parse_json(yajl_val v, libxl_domid *p)
{
    return libxl__uint32_parse_json(v, p);
}

int libxl__devid_parse_json(yajl_val v, libxl_devid *p)
{
    return libxl__int_parse_json(v, p);
}

int libxl__uuid_parse_json(yajl_val v, libxl_uuid *p)
{
    const char *s = YAJL_GET_STRING(v);

    return s && !libxl_uuid_from_string(p, s) ? 0 : ERROR_FAIL;
}

int libxl__mac_parse_json(yajl_val v, libxl_mac *p)
{
    const char *s = YAJL_GET_STRING(v);
    unsigned int b[6];
    char end;

    if (!s || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
                     &b[3], &b[4], &b[5], &end) != 6)
        return ERROR_FAIL;
    for (int i = 0; i < 6; i++)
        (*p)[i] = b[i];
    return 0;
}

/* The list of set bits (libxl_bitmap_gen_json). */
int libxl__bitmap_parse_json(yajl_val v, libxl_bitmap *p)
{
    uint32_t bit, max = 0;

    if (!YAJL_IS_ARRAY(v))
        return ERROR_FAIL;
    for (size_t i = 0; i < v->u.array.len; i++) {
        if (libxl__uint32_parse_json(v->u.array.values[i], &bit) ||
            bit >= (1u << 20))
            return ERROR_FAIL;
        if (bit + 1 > max)
            max = bit + 1;
    }
    libxl_bitmap_dispose(p);
    if (libxl_bitmap_alloc(NULL, p, max ? (int)max : 1))
        return ERROR_FAIL;
    for (size_t i = 0; i < v->u.array.len; i++) {
        libxl__uint32_parse_json(v->u.array.values[i], &bit);
        libxl_bitmap_set(p, bit);
    }
    return 0;
}

/* Always empty here (libxl.h): only the empty list is read. */
int libxl__cpuid_policy_list_parse_json(yajl_val v,
                                        libxl_cpuid_policy_list *p)
{
    if (!YAJL_IS_ARRAY(v) || v->u.array.len)
        return ERROR_FAIL;
    *p = NULL;
    return 0;
}

int libxl__string_list_parse_json(yajl_val v, libxl_string_list *p)
{
    size_t n;

    if (!YAJL_IS_ARRAY(v))
        return ERROR_FAIL;
    n = v->u.array.len;
    for (size_t i = 0; i < n; i++)
        if (!YAJL_IS_STRING(v->u.array.values[i]))
            return ERROR_FAIL;
    libxl_string_list_dispose(p);
    *p = xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        (*p)[i] = xstrdup(YAJL_GET_STRING(v->u.array.values[i]));
    return 0;
}

/* An object of strings (or nulls): key, value, ..., NULL. */
int libxl__key_value_list_parse_json(yajl_val v, libxl_key_value_list *p)
{
    size_t n;

    if (!YAJL_IS_OBJECT(v))
        return ERROR_FAIL;
    n = v->u.object.len;
    for (size_t i = 0; i < n; i++)
        if (!YAJL_IS_STRING(v->u.object.values[i]) &&
            !YAJL_IS_NULL(v->u.object.values[i]))
            return ERROR_FAIL;
    libxl_key_value_list_dispose(p);
    *p = xcalloc(2 * n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        const char *val = YAJL_GET_STRING(v->u.object.values[i]);

        (*p)[2 * i] = xstrdup(v->u.object.keys[i]);
        (*p)[2 * i + 1] = val ? xstrdup(val) : NULL;
    }
    return 0;
}

static int byte_array(yajl_val v, uint32_t *out, size_t n)
{
    if (!YAJL_IS_ARRAY(v) || v->u.array.len > n)
        return ERROR_FAIL;
    for (size_t i = 0; i < v->u.array.len; i++)
        if (libxl__uint32_parse_json(v->u.array.values[i], &out[i]))
            return ERROR_FAIL;
    return 0;
}

int libxl__hwcap_parse_json(yajl_val v, libxl_hwcap *p)
{
    uint32_t w[8] = { 0 };
    int rc = byte_array(v, w, 8);

    if (!rc)
        memcpy(*p, w, sizeof(*p));
    return rc;
}

int libxl__ms_vm_genid_parse_json(yajl_val v, libxl_ms_vm_genid *p)
{
    uint32_t b[LIBXL_MS_VM_GENID_LEN] = { 0 };
    int rc = byte_array(v, b, LIBXL_MS_VM_GENID_LEN);

    for (int i = 0; !rc && i < LIBXL_MS_VM_GENID_LEN; i++) {
        if (b[i] > 0xff)
            return ERROR_FAIL;
        p->bytes[i] = b[i];
    }
    return rc;
}

int libxl__object_from_json(libxl_ctx *ctx, const char *type, const char *s,
                            int (*parse)(yajl_val, void *), void *p)
{
    char err[256] = "";
    yajl_val tree;
    int rc;

    tree = s ? yajl_tree_parse(s, err, sizeof(err)) : NULL;
    if (!tree) {
        if (ctx)
            LOG(ERROR, "unable to parse JSON for %s: %s", type, err);
        return ERROR_FAIL;
    }
    rc = parse(tree, p);
    if (rc && ctx)
        LOG(ERROR, "JSON is not a valid %s", type);
    yajl_tree_free(tree);
    return rc;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * Reading libxl's types back from JSON (libxl_<type>_from_json): the
 * parsers of the builtin types, for the generated code (_libxl_types.c).
 * Each takes a yajl tree value and returns 0 or ERROR_FAIL (a value of the
 * wrong kind); what it allocates comes from malloc, as everything a type
 * owns, and the type's _dispose frees it.
 */
#ifndef LIBXL_JSON_PARSE_H
#define LIBXL_JSON_PARSE_H

#include <yajl/yajl_tree.h>

#include "libxl_internal.h"

/* The member of JSON object o named key, or NULL. */
yajl_val libxl__json_map_get(yajl_val o, const char *key);

int libxl__bool_parse_json(yajl_val v, bool *p);
int libxl__int_parse_json(yajl_val v, int *p);
int libxl__uint8_parse_json(yajl_val v, uint8_t *p);
int libxl__uint16_parse_json(yajl_val v, uint16_t *p);
int libxl__uint32_parse_json(yajl_val v, uint32_t *p);
int libxl__uint64_parse_json(yajl_val v, uint64_t *p);
int libxl__string_parse_json(yajl_val v, char **p);
int libxl__enum_parse_json(yajl_val v, const libxl_enum_string_table *t,
                           int *e);

int libxl__defbool_parse_json(yajl_val v, libxl_defbool *p);
int libxl__domid_parse_json(yajl_val v, libxl_domid *p);
int libxl__devid_parse_json(yajl_val v, libxl_devid *p);
int libxl__uuid_parse_json(yajl_val v, libxl_uuid *p);
int libxl__mac_parse_json(yajl_val v, libxl_mac *p);
int libxl__bitmap_parse_json(yajl_val v, libxl_bitmap *p);
int libxl__cpuid_policy_list_parse_json(yajl_val v,
                                        libxl_cpuid_policy_list *p);
int libxl__string_list_parse_json(yajl_val v, libxl_string_list *p);
int libxl__key_value_list_parse_json(yajl_val v, libxl_key_value_list *p);
int libxl__hwcap_parse_json(yajl_val v, libxl_hwcap *p);
int libxl__ms_vm_genid_parse_json(yajl_val v, libxl_ms_vm_genid *p);

/* Parse s and hand its tree to parse(tree, p); the tree is freed. */
int libxl__object_from_json(libxl_ctx *ctx, const char *type, const char *s,
                            int (*parse)(yajl_val, void *), void *p);

#endif /* LIBXL_JSON_PARSE_H */

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl_json: libxl's types as JSON through yajl 2 (Debian's libyajl-dev).
 *
 * libxl_<type>_gen_json(hand, p) writes one value into an open yajl
 * generator (see _libxl_types_json.h, generated); libxl_<type>_to_json
 * (in _libxl_types.h) returns it as a malloc'd string.  Generators from
 * libxl_yajl_gen_alloc() pretty-print with four-space indents, as Xen's.
 */
#ifndef LIBXL_JSON_H
#define LIBXL_JSON_H

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

#include "libxl.h"

yajl_gen_status libxl__uint64_gen_json(yajl_gen hand, uint64_t val);
yajl_gen_status libxl_defbool_gen_json(yajl_gen hand, libxl_defbool *p);
yajl_gen_status libxl_uuid_gen_json(yajl_gen hand, libxl_uuid *p);
yajl_gen_status libxl_mac_gen_json(yajl_gen hand, libxl_mac *p);
yajl_gen_status libxl_bitmap_gen_json(yajl_gen hand, libxl_bitmap *p);
yajl_gen_status libxl_cpuid_policy_list_gen_json(yajl_gen hand,
                                                 libxl_cpuid_policy_list *p);
yajl_gen_status libxl_string_list_gen_json(yajl_gen hand, libxl_string_list *p);
yajl_gen_status libxl_key_value_list_gen_json(yajl_gen hand,
                                              libxl_key_value_list *p);
yajl_gen_status libxl_hwcap_gen_json(yajl_gen hand, libxl_hwcap *p);
yajl_gen_status libxl_ms_vm_genid_gen_json(yajl_gen hand, libxl_ms_vm_genid *p);

#include "_libxl_types_json.h"

#if defined(YAJL_MAJOR) && (YAJL_MAJOR > 1)
#  define HAVE_YAJL_V2 1
#endif

typedef size_t libxl_yajl_length;

static inline yajl_gen libxl_yajl_gen_alloc(const yajl_alloc_funcs *allocFuncs)
{
    yajl_gen g;
    g = yajl_gen_alloc(allocFuncs);
    if (g)
        yajl_gen_config(g, yajl_gen_beautify, 1);
    return g;
}

yajl_gen_status libxl_domain_config_gen_json(yajl_gen hand,
                                             libxl_domain_config *p);

#endif /* LIBXL_JSON_H */

/* SPDX-License-Identifier: MIT */
/*
 * __HYPERVISOR_xen_version(cmd, arg): version strings, build details
 * and the XENFEAT_* feature map.
 */

#ifndef __LOCAL_PUBLIC_VERSION_H__
#define __LOCAL_PUBLIC_VERSION_H__

#include "xen.h"

/* Returns major << 16 | minor; arg is NULL. */
#define XENVER_version 0

/* arg: xen_extraversion_t, e.g. ".0" or "-rc". */
#define XENVER_extraversion 1
#define XENVER_compile_info 2
#define XENVER_capabilities 3
#define XENVER_changeset 4
#define XENVER_platform_parameters 5
#define XENVER_get_features 6
/* Returns the page size; arg is NULL. */
#define XENVER_pagesize 7
/* arg: xen_domain_handle_t of the caller. */
#define XENVER_guest_handle 8
#define XENVER_commandline 9
/* Returns the length written, or -ENOBUFS if buf[] is too small. */
#define XENVER_build_id 10

#ifndef __ASSEMBLY__

typedef char xen_extraversion_t[16];
#define XEN_EXTRAVERSION_LEN (sizeof(xen_extraversion_t))

struct xen_compile_info {
    char compiler[64];
    char compile_by[16];
    char compile_domain[32];
    char compile_date[32];
};
typedef struct xen_compile_info xen_compile_info_t;

/* Space-separated guest types, e.g. "hvm-3.0-x86_64". */
typedef char xen_capabilities_info_t[1024];
#define XEN_CAPABILITIES_INFO_LEN (sizeof(xen_capabilities_info_t))

typedef char xen_changeset_info_t[64];
#define XEN_CHANGESET_INFO_LEN (sizeof(xen_changeset_info_t))

struct xen_platform_parameters {
    xen_ulong_t virt_start;             /* start of the hypervisor's hole */
};
typedef struct xen_platform_parameters xen_platform_parameters_t;

struct xen_feature_info {
    unsigned int submap_idx;            /* IN: which 32-bit submap */
    uint32_t submap;                    /* OUT: its bits, XENFEAT_* */
};
typedef struct xen_feature_info xen_feature_info_t;

typedef char xen_commandline_t[1024];

struct xen_build_id {
    uint32_t len;                       /* IN: size of buf[] */
    unsigned char buf[XEN_FLEX_ARRAY_DIM];
};
typedef struct xen_build_id xen_build_id_t;

#endif /* !__ASSEMBLY__ */

#include "features.h"

#endif /* __LOCAL_PUBLIC_VERSION_H__ */

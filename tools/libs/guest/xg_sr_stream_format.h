/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The libxc migration stream, as Xen's docs/specs/libxc-migration-stream.pandoc
 * (revision 3) defines it: the structures on the wire, with Xen's names and
 * numbers.  Every structure is a multiple of 8 octets; records are padded
 * with zeroes to 8 octets.
 *
 *   image header   (big-endian)          24 octets
 *   domain header  (stream byte order)   16 octets
 *   records: { u32 type; u32 body_length; body; zero padding }
 */
#ifndef XG_SR_STREAM_FORMAT_H
#define XG_SR_STREAM_FORMAT_H

#include <stdint.h>

/* ---- image header (all fields big-endian) ---- */
struct xc_sr_ihdr {
    uint64_t marker;
    uint32_t id;
    uint32_t version;
    uint16_t options;
    uint16_t _res1;
    uint32_t _res2;
};

#define IHDR_MARKER             0xffffffffffffffffULL
#define IHDR_ID                 0x58454E46U         /* "XENF" */
#define IHDR_VERSION            3

#define _IHDR_OPT_ENDIAN        0
#define IHDR_OPT_LITTLE_ENDIAN  (0 << _IHDR_OPT_ENDIAN)
#define IHDR_OPT_BIG_ENDIAN     (1 << _IHDR_OPT_ENDIAN)

/* ---- domain header ---- */
struct xc_sr_dhdr {
    uint32_t type;
    uint16_t page_shift;
    uint16_t _res1;
    uint32_t xen_major;
    uint32_t xen_minor;
};

#define DHDR_TYPE_X86_PV        0x00000001U
#define DHDR_TYPE_X86_HVM       0x00000002U

/* ---- record header ---- */
struct xc_sr_rhdr {
    uint32_t type;
    uint32_t length;
};

#define REC_ALIGN_ORDER         3                   /* 8 octets */

#define REC_TYPE_END                        0x00000000U
#define REC_TYPE_PAGE_DATA                  0x00000001U
#define REC_TYPE_X86_PV_INFO                0x00000002U
#define REC_TYPE_X86_PV_P2M_FRAMES          0x00000003U
#define REC_TYPE_X86_PV_VCPU_BASIC          0x00000004U
#define REC_TYPE_X86_PV_VCPU_EXTENDED       0x00000005U
#define REC_TYPE_X86_PV_VCPU_XSAVE          0x00000006U
#define REC_TYPE_SHARED_INFO                0x00000007U
#define REC_TYPE_X86_TSC_INFO               0x00000008U
#define REC_TYPE_HVM_CONTEXT                0x00000009U
#define REC_TYPE_HVM_PARAMS                 0x0000000AU
#define REC_TYPE_TOOLSTACK                  0x0000000BU
#define REC_TYPE_X86_PV_VCPU_MSRS           0x0000000CU
#define REC_TYPE_VERIFY                     0x0000000DU
#define REC_TYPE_CHECKPOINT                 0x0000000EU
#define REC_TYPE_CHECKPOINT_DIRTY_PFN_LIST  0x0000000FU
#define REC_TYPE_STATIC_DATA_END            0x00000010U
#define REC_TYPE_X86_CPUID_POLICY           0x00000011U
#define REC_TYPE_X86_MSR_POLICY             0x00000012U

#define REC_TYPE_OPTIONAL                   0x80000000U

/* ---- PAGE_DATA: header, then count pfn words, then the pages ---- */
struct xc_sr_rec_page_data_header {
    uint32_t count;
    uint32_t _res1;
    /* uint64_t pfn[count]; */
};

#define PAGE_DATA_PFN_MASK      0x000fffffffffffffULL   /* bits 51-0 */
#define PAGE_DATA_RES_MASK      0x0ff0000000000000ULL   /* bits 59-52 */
#define PAGE_DATA_TYPE_MASK     0xf000000000000000ULL   /* bits 63-60 */
#define PAGE_DATA_TYPE_SHIFT    60

/*
 * The types are public/domctl.h's XEN_DOMCTL_PFINFO_* (bits 31-28 there)
 * shifted up by 32 bits: their value here, 0x0-0xf.
 */
#define SR_PFINFO_NOTAB         0x0
#define SR_PFINFO_L1TAB         0x1
#define SR_PFINFO_L4TAB         0x4
#define SR_PFINFO_L1TAB_PIN     0x9
#define SR_PFINFO_L4TAB_PIN     0xc
#define SR_PFINFO_BROKEN        0xd
#define SR_PFINFO_XALLOC        0xe
#define SR_PFINFO_XTAB          0xf

/* ---- X86_TSC_INFO ---- */
struct xc_sr_rec_x86_tsc_info {
    uint32_t mode;
    uint32_t khz;
    uint64_t nsec;
    uint32_t incarnation;
    uint32_t _res1;
};

/* TSC_MODE_* (Xen's public/arch-x86/xen.h values) */
#define SR_TSC_MODE_DEFAULT         0
#define SR_TSC_MODE_ALWAYS_EMULATE  1
#define SR_TSC_MODE_NEVER_EMULATE   2

/* ---- HVM_PARAMS ---- */
struct xc_sr_rec_hvm_params_entry {
    uint64_t index;
    uint64_t value;
};

struct xc_sr_rec_hvm_params {
    uint32_t count;
    uint32_t _res1;
    /* struct xc_sr_rec_hvm_params_entry param[count]; */
};

/* The layouts, as the spec draws them. */
#define XG_SR_BUILD_BUG_ON(c) _Static_assert(!(c), #c)
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_ihdr) != 24);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_dhdr) != 16);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_rhdr) != 8);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_rec_page_data_header) != 8);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_rec_x86_tsc_info) != 24);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_rec_hvm_params_entry) != 16);
XG_SR_BUILD_BUG_ON(sizeof(struct xc_sr_rec_hvm_params) != 8);

#endif /* XG_SR_STREAM_FORMAT_H */

/* SPDX-License-Identifier: MIT */
/*
 * The HVM save format: a sequence of records, each a hvm_save_descriptor
 * (type code, instance, length) followed by that many bytes, ending with
 * an END record.  XEN_DOMCTL_{get,set}hvmcontext move whole sequences;
 * migration carries one in its HVM_CONTEXT record.
 *
 * Each record type is bound to its code and payload type by
 * DECLARE_HVM_SAVE_TYPE(name, code, type), so that HVM_SAVE_CODE(name),
 * HVM_SAVE_TYPE(name) and HVM_SAVE_LENGTH(name) can be used, as in Xen.
 * This project implements the HEADER, CPU and END records (arch-x86/hvm/save.h).
 */
#ifndef __LOCAL_PUBLIC_HVM_SAVE_H__
#define __LOCAL_PUBLIC_HVM_SAVE_H__

#include "../xen.h"

#ifndef __ASSEMBLY__

struct hvm_save_descriptor {
    uint16_t typecode;                  /* HVM_SAVE_CODE(...) */
    uint16_t instance;                  /* e.g. the vCPU */
    uint32_t length;                    /* payload bytes, descriptor excluded */
};

/*
 * The code is carried in the size of an array, so it is a compile-time
 * constant with no storage; 'cpt' says whether a compat layout exists
 * (1: no, 2: yes).
 */
#define DECLARE_HVM_SAVE_TYPE(_x, _code, _type)                            \
    __extension__ struct __HVM_SAVE_TYPE_##_x {                            \
        _type t; char c[_code]; char cpt[1];                               \
    }
#define DECLARE_HVM_SAVE_TYPE_COMPAT(_x, _code, _type, _ctype, _fix)       \
    __extension__ struct __HVM_SAVE_TYPE_##_x {                            \
        _type t; char c[_code]; char cpt[2];                               \
    }

#define HVM_SAVE_TYPE(_x)   __typeof__(((struct __HVM_SAVE_TYPE_##_x *)0)->t)
#define HVM_SAVE_LENGTH(_x) (sizeof(HVM_SAVE_TYPE(_x)))
#define HVM_SAVE_CODE(_x)   (sizeof(((struct __HVM_SAVE_TYPE_##_x *)0)->c))

/* Empty (a GNU C extension, as in Xen). */
__extension__ struct hvm_save_end {
};
DECLARE_HVM_SAVE_TYPE(END, 0, struct hvm_save_end);

#endif /* !__ASSEMBLY__ */

#include "../arch-x86/hvm/save.h"

#endif /* __LOCAL_PUBLIC_HVM_SAVE_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libxl ABI table: the rows gen-libxl.py made from libxl_types.idl,
 * evaluated against one <libxl.h>.  Compiled twice: with -DABI_SIDE_OURS
 * (-I tools/include, this tree's) and without (Debian's libxen-dev).
 */
#include <stddef.h>

#include <libxl.h>

#include "abi.h"

#define TYPE(t)                                                               \
    { "sizeof(" #t ")", sizeof(t), 1 },                                      \
    { "_Alignof(" #t ")", _Alignof(t), 1 },
#define TFIELD(t, m)                                                          \
    { "offsetof(" #t ", " #m ")", offsetof(t, m), 1 },                       \
    { "sizeof(" #t "." #m ")", sizeof(((t *)0)->m), 1 },
#define ENUM(name) { #name, (unsigned long long)(name), 1 },

static const struct abi_entry entries[] = {
#include "libxl-layout.inc"
};

#ifdef ABI_SIDE_OURS
const struct abi_table abi_libxl_ours = {
    "ours", entries, sizeof(entries) / sizeof(entries[0]),
};
#else
const struct abi_table abi_libxl_xen = {
    "xen", entries, sizeof(entries) / sizeof(entries[0]),
};
#endif

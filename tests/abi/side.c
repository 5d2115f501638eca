/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Build one ABI table from one set of public headers.  Compiled twice:
 * with -DABI_SIDE_OURS (this tree) and without (Debian's libxen-dev).
 */
#include <stddef.h>

#include "headers.h"
#include "abi.h"

#define TYPE(t)                                                               \
    { "sizeof(" #t ")", sizeof(t), 1 },                                      \
    { "_Alignof(" #t ")", _Alignof(t), 1 },
#define STRUCT(tag)                                                           \
    { "sizeof(struct " #tag ")", sizeof(struct tag), 1 },                    \
    { "_Alignof(struct " #tag ")", _Alignof(struct tag), 1 },
#define FIELD(tag, m)                                                         \
    { "offsetof(struct " #tag ", " #m ")", offsetof(struct tag, m), 1 },     \
    { "sizeof(struct " #tag "." #m ")", sizeof(((struct tag *)0)->m), 1 },
#define TFIELD(t, m)                                                          \
    { "offsetof(" #t ", " #m ")", offsetof(t, m), 1 },                       \
    { "sizeof(" #t "." #m ")", sizeof(((t *)0)->m), 1 },
#define OFFSET(tag, m)                                                        \
    { "offsetof(struct " #tag ", " #m ")", offsetof(struct tag, m), 1 },
#define ENUM(name) { #name, (unsigned long long)(name), 1 },

static const struct abi_entry entries[] = {
#include "layout.h"
#include "consts.inc"
};

#ifdef ABI_SIDE_OURS
const struct abi_table abi_ours = {
    "ours", entries, sizeof(entries) / sizeof(entries[0]),
};
#else
const struct abi_table abi_xen = {
    "xen", entries, sizeof(entries) / sizeof(entries[0]),
};
#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One row of an ABI table: a name (a constant, or a sizeof / offsetof /
 * _Alignof expression) and its value as one set of headers sees it.
 * side.c is compiled twice, once against our xen/include/public and once
 * against Debian's /usr/include/xen; main.c compares the two tables.
 */
#ifndef TESTS_ABI_ABI_H
#define TESTS_ABI_ABI_H

struct abi_entry {
    const char *name;
    unsigned long long value;
    int present;                        /* 0: constant not defined here */
};

struct abi_table {
    const char *label;
    const struct abi_entry *entries;
    unsigned int nr;
};

extern const struct abi_table abi_ours;
extern const struct abi_table abi_xen;

/* libxl's types (side-libxl.c, rows from libxl_types.idl). */
extern const struct abi_table abi_libxl_ours;
extern const struct abi_table abi_libxl_xen;

#endif /* TESTS_ABI_ABI_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Boot parameters, declared next to the variable they set:
 *
 *     static unsigned int __read_mostly ple_gap = 128;
 *     integer_param("ple_gap", ple_gap);
 *
 * Each macro emits one struct kernel_param into the section .init.setup,
 * which the linker script collects between __setup_start and __setup_end;
 * cmdline_parse() walks that array once at boot.  The syntax accepted is
 * described in docs/misc/xen-command-line.md.
 */
#ifndef __XEN_PARAM_H__
#define __XEN_PARAM_H__

#include <xen/compiler.h>
#include <xen/types.h>

struct kernel_param {
    const char *name;
    enum {
        OPT_STR,        /* char array, len = its size */
        OPT_UINT,       /* integer of len bytes (1, 2, 4 or 8) */
        OPT_BOOL,       /* bool or integer of len bytes, set to 0/1 */
        OPT_SIZE,       /* integer of len bytes, with K/M/G/T/B suffix */
        OPT_CUSTOM,     /* par.func(value) parses it */
        OPT_IGNORE,     /* known but handled elsewhere: accept silently */
    } type;
    unsigned int len;
    union {
        void *var;
        int (*func)(const char *);
    } par;
};

extern const struct kernel_param __setup_start[], __setup_end[];

#define __kparam(name_, type_, len_, member_, val_)                     \
    static const struct kernel_param __PASTE(__kparam_, __LINE__)       \
    __used_section(".init.setup") __aligned(sizeof(void *)) = {         \
        .name = (name_), .type = (type_), .len = (len_),                \
        .par.member_ = (val_) }

#define __kparam_check_int(v)                                           \
    _Static_assert(sizeof(v) == 1 || sizeof(v) == 2 ||                  \
                   sizeof(v) == 4 || sizeof(v) == 8,                    \
                   "parameter " #v " is not an integer")

/* "name", "no-name", "name=<bool>"; var is a bool or an integer. */
#define boolean_param(name, v)                                          \
    __kparam_check_int(v);                                              \
    __kparam(name, OPT_BOOL, sizeof(v), var, &(v))

/* "name=<int>": decimal, 0x hex or 0 octal; var is 1-8 bytes wide. */
#define integer_param(name, v)                                          \
    __kparam_check_int(v);                                              \
    __kparam(name, OPT_UINT, sizeof(v), var, &(v))

/* "name=<size>": an integer with an optional B/K/M/G/T suffix. */
#define size_param(name, v)                                             \
    __kparam_check_int(v);                                              \
    __kparam(name, OPT_SIZE, sizeof(v), var, &(v))

/* "name=<string>": var is a char array; longer values are rejected. */
#define string_param(name, v)                                           \
    __kparam(name, OPT_STR, sizeof(v), var, (v))

/*
 * "name=<anything>": fn(value) returns 0 or -errno.  "name" alone passes
 * "", "no-name" passes "no".
 */
#define custom_param(name, fn)                                          \
    __kparam(name, OPT_CUSTOM, 0, func, (fn))

/* A name that is valid but consumed elsewhere (e.g. by the boot code). */
#define ignore_param(name)                                              \
    __kparam(name, OPT_IGNORE, 0, var, NULL)

/* Size of the copy of the command line kept in saved_cmdline. */
#define COMMAND_LINE_SIZE 1024
extern char saved_cmdline[COMMAND_LINE_SIZE];

/*
 * Parse a command line against the parameters in [start, end).
 * Returns 0, or the error of the last option that failed (-EINVAL for an
 * unknown one); every option is tried regardless.
 */
int parse_params(const char *cmdline, const struct kernel_param *start,
                 const struct kernel_param *end);

/* Save and parse the boot command line against .init.setup. */
int cmdline_parse(const char *cmdline);

#endif /* __XEN_PARAM_H__ */

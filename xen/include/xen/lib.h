/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers used everywhere: arithmetic macros, printk, parsing. */
#ifndef __XEN_LIB_H__
#define __XEN_LIB_H__

#include <stdarg.h>
#include <xen/compiler.h>
#include <xen/types.h>

#define ARRAY_SIZE(a)       (sizeof(a) / sizeof((a)[0]))

#define min(x, y) ({                        \
    __typeof__(x) _x = (x);                 \
    __typeof__(y) _y = (y);                 \
    (void)(&_x == &_y); /* same types */    \
    _x < _y ? _x : _y; })
#define max(x, y) ({                        \
    __typeof__(x) _x = (x);                 \
    __typeof__(y) _y = (y);                 \
    (void)(&_x == &_y);                     \
    _x > _y ? _x : _y; })
/* min/max of differently typed values, both converted to 'type'. */
#define min_t(type, x, y)   min((type)(x), (type)(y))
#define max_t(type, x, y)   max((type)(x), (type)(y))
#define clamp(v, lo, hi)    min(max(v, lo), hi)
/* Exchange two lvalues of one type (Xen's swap()). */
#define swap(a, b) do {                     \
    __typeof__(a) t_ = (a);                 \
    (a) = (b);                              \
    (b) = t_;                               \
} while ( 0 )

/* 'a' must be a power of two for ROUNDUP/ROUNDDOWN/IS_ALIGNED. */
#define ROUNDUP(x, a)       (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ROUNDDOWN(x, a)     ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)    (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)  (((n) + (d) - 1) / (d))

#define BIT(n)              (1UL << (n))
#define BIT_ULL(n)          (1ULL << (n))

#define KB(x)               ((unsigned long)(x) << 10)
#define MB(x)               ((unsigned long)(x) << 20)
#define GB(x)               ((unsigned long)(x) << 30)

#define container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

/*
 * Log levels.  A printk() format may start with an optional guest marker
 * "<G>" followed by an optional level "<0>".."<3>":
 *
 *   [<G>][<N>]text          N: 0 error, 1 warning, 2 info, 3 debug
 *
 * "<G>" marks a message a guest caused (rate limited separately by the
 * console).  Without "<N>" the level is XENLOG_DEFAULT (warning).  The
 * console strips the prefix before output; printk_prefix() below parses it
 * so that there is exactly one definition of the scheme.
 */
#define XENLOG_ERR          "<0>"
#define XENLOG_WARNING      "<1>"
#define XENLOG_INFO         "<2>"
#define XENLOG_DEBUG        "<3>"

#define XENLOG_GUEST        "<G>"
#define XENLOG_G_ERR        XENLOG_GUEST XENLOG_ERR
#define XENLOG_G_WARNING    XENLOG_GUEST XENLOG_WARNING
#define XENLOG_G_INFO       XENLOG_GUEST XENLOG_INFO
#define XENLOG_G_DEBUG      XENLOG_GUEST XENLOG_DEBUG

/* Numeric levels: lower is more severe. */
#define XENLOG_LVL_ERR      0
#define XENLOG_LVL_WARNING  1
#define XENLOG_LVL_INFO     2
#define XENLOG_LVL_DEBUG    3
#define XENLOG_DEFAULT      XENLOG_LVL_WARNING

/*
 * Parse the prefix of a printk() message: returns the text after it, sets
 * *level (XENLOG_LVL_*) and *guest.  Either output pointer may be NULL.
 */
const char *printk_prefix(const char *msg, unsigned int *level, bool *guest);

/*
 * A message about what the running vCPU's guest did (Xen's gprintk),
 * prefixed "dNvM"; the caller includes xen/sched.h for 'current'.
 */
#define gprintk(lvl, fmt, ...)                                          \
    printk(XENLOG_GUEST lvl "d%uv%u " fmt, current->domain->domain_id,  \
           current->vcpu_id, ##__VA_ARGS__)

/* Implemented by the console (drivers/char/console.c). */
void printk(const char *fmt, ...) __printf(1, 2);
void vprintk(const char *fmt, va_list args) __printf(1, 0);

/* Implemented elsewhere: stop the machine with a message. */
noreturn void panic(const char *fmt, ...) __printf(1, 2);

/*
 * Hypervisor invariants.  BUG_ON() is always checked.  ASSERT() is checked
 * only in debug builds (CONFIG_DEBUG defined); otherwise it still type
 * checks its argument but generates no code.
 */
noreturn void __bug(const char *file, int line);

#define BUG()               __bug(__FILE__, __LINE__)
#define BUG_ON(cond)        do { if ( unlikely(cond) ) BUG(); } while ( 0 )

#ifdef CONFIG_DEBUG
#define ASSERT(p)           BUG_ON(!(p))
#define ASSERT_UNREACHABLE() BUG()
#else
#define ASSERT(p)           do { if ( 0 && (p) ) {} } while ( 0 )
#define ASSERT_UNREACHABLE() do { } while ( 0 )
#endif

/*
 * Formatted output (common/vsprintf.c).  The host unit tests rename them so
 * they cannot clash with the C library's functions of the same name.
 */
#ifdef XEN_HOST_TEST
#define vsnprintf   xen_vsnprintf
#define snprintf    xen_snprintf
#define vscnprintf  xen_vscnprintf
#define scnprintf   xen_scnprintf
#endif

/* C99 semantics: returns the length the full output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
    __printf(3, 0);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
/* Return the number of characters actually stored (excluding the NUL). */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
    __printf(3, 0);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * Number parsing (common/lib.c), Linux/Xen style: no leading white space
 * is skipped; base 0 picks 16 for "0x", 8 for a leading "0", else 10;
 * base 16 also accepts a "0x" prefix.  *endp (if endp is not NULL) is set
 * to the first character not used; to cp when there were no digits.
 * Overflow is not detected (the value wraps).
 */
unsigned long simple_strtoul(const char *cp, const char **endp,
                             unsigned int base);
unsigned long long simple_strtoull(const char *cp, const char **endp,
                                   unsigned int base);
long simple_strtol(const char *cp, const char **endp, unsigned int base);
long long simple_strtoll(const char *cp, const char **endp,
                         unsigned int base);

/*
 * A size with an optional unit suffix: B (bytes), K, M, G, T (either case).
 * As in Xen, a number without a suffix is in KiB.
 */
unsigned long long parse_size_and_unit(const char *s, const char **ps);

/*
 * parse_bool(): 1 for "1", "yes", "on", "true", "enable"; 0 for "0", "no",
 * "off", "false", "disable"; -1 otherwise.  The word is [s, e), or
 * NUL-terminated when e is NULL.
 */
int parse_bool(const char *s, const char *e);

/*
 * parse_boolean(): one token [s, e) of a sub-option list (e.g. "pml=0" in
 * "ept=pml=0,ad=1").  Returns -1 if the token is not about 'name' (or
 * 'no-name=...', or a bad value); otherwise 1 for "name", 0 for "no-name",
 * and parse_bool() of the value for "name=<bool>".
 */
int parse_boolean(const char *name, const char *s, const char *e);

#endif /* __XEN_LIB_H__ */

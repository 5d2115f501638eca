/* SPDX-License-Identifier: GPL-2.0-only */
/* Compiler attributes and helpers (gcc / clang). */
#ifndef __XEN_COMPILER_H__
#define __XEN_COMPILER_H__

#define likely(x)           __builtin_expect(!!(x), 1)
#define unlikely(x)         __builtin_expect(!!(x), 0)

#define __used              __attribute__((__used__))
#define __unused            __attribute__((__unused__))
#define __maybe_unused      __attribute__((__unused__))
#define __packed            __attribute__((__packed__))
#define __aligned(x)        __attribute__((__aligned__(x)))
#define __section(s)        __attribute__((__section__(s)))
#define __used_section(s)   __used __section(s)
#define __printf(a, b)      __attribute__((__format__(__printf__, a, b)))
#define __must_check        __attribute__((__warn_unused_result__))
#define __always_inline     inline __attribute__((__always_inline__))
#define noinline            __attribute__((__noinline__))
#define noreturn            __attribute__((__noreturn__))

/*
 * Boot-only code and data.  The image is never partly freed, so these are
 * plain markers (no section): the linker script need not know about them.
 */
#define __init
#define __initdata
#define __initconst

/* Compiler-only memory barrier. */
#define barrier()           __asm__ __volatile__ ("" ::: "memory")

/* Exactly one access of the given size, never torn, merged or cached. */
#define ACCESS_ONCE(x)      (*(volatile __typeof__(x) *)&(x))
#define READ_ONCE(x)        ACCESS_ONCE(x)
#define WRITE_ONCE(x, v)    (ACCESS_ONCE(x) = (v))

/* Build-time assertions: a statement, and an expression evaluating to 0. */
#define BUILD_BUG_ON(cond)  _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)
#define BUILD_BUG_ON_ZERO(cond) \
    ((int)sizeof(struct { int _ : (cond) ? -1 : 1; }) * 0)

#define __stringify_1(x)    #x
#define __stringify(x)      __stringify_1(x)

#define __PASTE_1(a, b)     a##b
#define __PASTE(a, b)       __PASTE_1(a, b)

#endif /* __XEN_COMPILER_H__ */

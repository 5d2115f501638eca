/* SPDX-License-Identifier: MIT */
/*
 * Interface-version plumbing shared by every public header.
 *
 * These headers describe only the newest interface: unlike upstream they
 * carry no #if blocks for older __XEN_INTERFACE_VERSION__ values.  The
 * macros still exist so that code written against Xen (Linux, XTF,
 * libxc-style tools) which tests or sets them keeps compiling.
 *
 * LOCAL_XEN_PUBLIC_HEADERS tells this tree's headers apart from a system
 * copy (e.g. Debian's /usr/include/xen): it is defined only here.
 */

#ifndef __LOCAL_PUBLIC_XEN_COMPAT_H__
#define __LOCAL_PUBLIC_XEN_COMPAT_H__

#define LOCAL_XEN_PUBLIC_HEADERS 1

/* Same value as the Xen 4.17 headers that Debian ships. */
#define __XEN_LATEST_INTERFACE_VERSION__ 0x00040e00

#if defined(__XEN__) || defined(__XEN_TOOLS__)
#undef __XEN_INTERFACE_VERSION__
#define __XEN_INTERFACE_VERSION__ __XEN_LATEST_INTERFACE_VERSION__
#elif !defined(__XEN_INTERFACE_VERSION__)
#define __XEN_INTERFACE_VERSION__ __XEN_LATEST_INTERFACE_VERSION__
#endif

#if __XEN_INTERFACE_VERSION__ > __XEN_LATEST_INTERFACE_VERSION__
#error "public/xen-compat.h: requested interface version is newer than these headers"
#endif

/*
 * Fixed-width integer types come from the compiler's <stdint.h>, which
 * exists in freestanding (-ffreestanding, -nostdinc -isystem <gcc dir>)
 * builds too, so public headers can be included first and stand alone.
 * Define XEN_PUBLIC_NO_STDINT if you provide uint*_t yourself.
 */
#if !defined(__ASSEMBLY__) && !defined(XEN_PUBLIC_NO_STDINT)
#include <stdint.h>
#endif

#endif /* __LOCAL_PUBLIC_XEN_COMPAT_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor heap: small objects from per-size free lists, large ones from pages. */
#ifndef __XEN_XMALLOC_H__
#define __XEN_XMALLOC_H__

#include <xen/types.h>

void *_xmalloc(size_t size, size_t align);
void *_xzalloc(size_t size, size_t align);
void xfree(void *p);

#define xmalloc(type)  ((type *)_xmalloc(sizeof(type), __alignof__(type)))
#define xzalloc(type)  ((type *)_xzalloc(sizeof(type), __alignof__(type)))
#define xzalloc_array(type, n) ((type *)_xzalloc(sizeof(type) * (n), __alignof__(type)))
#define xmalloc_bytes(n) _xmalloc(n, sizeof(long))
#define xzalloc_bytes(n) _xzalloc(n, sizeof(long))

#endif /* __XEN_XMALLOC_H__ */

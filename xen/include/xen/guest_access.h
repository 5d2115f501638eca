/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copying to and from the current guest.  Hypercall arguments are guest
 * virtual addresses: they are translated through the guest's own page
 * tables and then through the p2m, page by page.  Both return the number
 * of bytes NOT copied (0 on success), as Xen's copy_{to,from}_guest do.
 */
#ifndef __XEN_GUEST_ACCESS_H__
#define __XEN_GUEST_ACCESS_H__

#include <xen/types.h>

unsigned long copy_from_guest(void *dst, unsigned long gva, size_t len);
unsigned long copy_to_guest(unsigned long gva, const void *src, size_t len);

/*
 * Is [gva, gva + len) writable RAM of the current guest?  For calls that
 * must refuse a bad buffer before they change anything.
 */
bool guest_range_writable(unsigned long gva, unsigned long len);

#define copy_field_to_guest(gva, ptr, field) \
    copy_to_guest((gva) + __builtin_offsetof(typeof(*(ptr)), field), \
                  &(ptr)->field, sizeof((ptr)->field))

#endif /* __XEN_GUEST_ACCESS_H__ */

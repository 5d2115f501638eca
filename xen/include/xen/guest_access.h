/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Typed access to the current guest's memory through guest handles, with
 * Xen's names and argument orders.  A handle (XEN_GUEST_HANDLE(type),
 * public/arch-x86/xen.h) wraps a guest virtual address of the caller in a
 * one-member struct, so it cannot be dereferenced by accident, and carries
 * the type it points to:
 *
 *   copy_from_guest(ptr, hnd, nr)            nr objects of *ptr's type
 *   copy_to_guest(hnd, ptr, nr)              likewise, the other way
 *   copy_{to,from}_guest_offset(...)         at element 'off' of the array
 *   copy_field_{to,from}_guest(hnd, ptr, f)  one member of a structure
 *   guest_handle_okay(hnd, nr)               may nr elements be written now?
 *
 * Counts are in ELEMENTS: bytes are nr * sizeof(*ptr).  The pointer and the
 * handle must agree in type (a void handle goes with any pointer), and a
 * handle to const cannot be copied to; a mismatch does not compile (the
 * hypervisor builds with -Werror).  The copies return the number of bytes
 * NOT copied, 0 on success, as Xen's do.
 *
 * Guest address arithmetic is done in unsigned long, so an offset that
 * wraps is well defined and then refused by the byte-level copies
 * (asm/guest_access.h), which stay untyped and are not for direct use.
 */
#ifndef __XEN_GUEST_ACCESS_H__
#define __XEN_GUEST_ACCESS_H__

#include <xen/types.h>
#include <public/xen.h>
#include <asm/guest_access.h>

/* A guest address 'bytes' past 'p' (no C pointer arithmetic on guest addresses). */
#define __guest_ptr_add(p, bytes) \
    ((void *)((unsigned long)(p) + (unsigned long)(bytes)))

/* Is the guest handle a NULL reference? */
#define guest_handle_is_null(hnd)  ((hnd).p == NULL)

/* Move the handle nr elements along (or back along) the array it refers to. */
#define guest_handle_add_offset(hnd, nr)                                      \
    ((void)((hnd).p = (typeof((hnd).p))                                       \
            __guest_ptr_add((hnd).p, (nr) * sizeof(*(hnd).p))))
#define guest_handle_subtract_offset(hnd, nr)                                 \
    guest_handle_add_offset(hnd, -(unsigned long)(nr))

/*
 * The same guest address as a handle to 'type'.  Only void and 'type'
 * convert without a complaint from the compiler.
 */
#define guest_handle_cast(hnd, type) ({                                       \
    type *_x = (hnd).p;                                                       \
    (XEN_GUEST_HANDLE_PARAM(type)) { _x };                                    \
})

/*
 * Between a hypercall parameter and a handle kept in a structure (the same
 * representation on x86; the types must match exactly).
 */
#define guest_handle_from_param(hnd, type) ({                                 \
    typeof((hnd).p) _x = (hnd).p;                                             \
    XEN_GUEST_HANDLE(type) _y = { _x };                                       \
    (void)(&_x == &_y.p);                                                     \
    _y;                                                                       \
})
#define guest_handle_to_param(hnd, type) ({                                   \
    typeof((hnd).p) _x = (hnd).p;                                             \
    XEN_GUEST_HANDLE_PARAM(type) _y = { _x };                                 \
    (void)(&_x == &_y.p);                                                     \
    _y;                                                                       \
})

/* A handle made from a guest address (hypercall entry, continuations). */
#define guest_handle_from_ptr(ptr, type)                                      \
    ((XEN_GUEST_HANDLE_PARAM(type)) { (type *)(ptr) })
#define const_guest_handle_from_ptr(ptr, type)                                \
    ((XEN_GUEST_HANDLE_PARAM(const_##type)) { (const type *)(ptr) })

/* A handle to member 'fld' of the structure hnd refers to ('type': its handle's name). */
#define guest_handle_for_field(hnd, type, fld) ({                             \
    typeof(&(hnd).p->fld) _f =                                                \
        __guest_ptr_add((hnd).p, __builtin_offsetof(typeof(*(hnd).p), fld));  \
    (XEN_GUEST_HANDLE(type)) { _f };                                          \
})

/* nr objects from ptr to element 'off' of the guest array. */
#define copy_to_guest_offset(hnd, off, ptr, nr) ({                            \
    const typeof(*(ptr)) *_s = (ptr);                                         \
    void *_d = (hnd).p;             /* not a handle to const */               \
    (void)((hnd).p == _s);          /* of the same type (or void) */          \
    raw_copy_to_guest(__guest_ptr_add(_d, (off) * sizeof(*_s)), _s,          \
                      (nr) * sizeof(*_s));                                    \
})

/* nr objects from element 'off' of the guest array to ptr. */
#define copy_from_guest_offset(ptr, hnd, off, nr) ({                          \
    const typeof(*(ptr)) *_s = (hnd).p;     /* same type (or void) */         \
    typeof(*(ptr)) *_d = (ptr);                                               \
    raw_copy_from_guest(_d, __guest_ptr_add(_s, (off) * sizeof(*_d)),         \
                        (nr) * sizeof(*_d));                                  \
})

#define copy_to_guest(hnd, ptr, nr)    copy_to_guest_offset(hnd, 0, ptr, nr)
#define copy_from_guest(ptr, hnd, nr)  copy_from_guest_offset(ptr, hnd, 0, nr)

/* One member of a structure, to or from the same member in the guest. */
#define copy_field_to_guest(hnd, ptr, field) ({                               \
    const typeof((ptr)->field) *_s = &(ptr)->field;                           \
    void *_d = __guest_ptr_add((hnd).p,                                       \
                               __builtin_offsetof(typeof(*(hnd).p), field));  \
    (void)(&(hnd).p->field == _s);  /* the same member type */                \
    raw_copy_to_guest(_d, _s, sizeof(*_s));                                   \
})

#define copy_field_from_guest(ptr, hnd, field) ({                             \
    typeof((ptr)->field) *_d = &(ptr)->field;                                 \
    const void *_s = __guest_ptr_add((hnd).p,                                 \
                               __builtin_offsetof(typeof(*(hnd).p), field));  \
    (void)(&(hnd).p->field == _d);                                            \
    raw_copy_from_guest(_d, _s, sizeof(*_d));                                 \
})

/*
 * May nr elements at hnd be written now?  Xen's name; on x86 HVM Xen's
 * answer is always yes (the copies check).  Ours looks: every page of the
 * range must be writable RAM of the caller, and the range must not wrap,
 * so that a call can refuse a bad buffer (-EFAULT) before it changes
 * anything.  (Pages can still go away before the copy; the copies check
 * again.)
 */
#define guest_handle_okay(hnd, nr)                                            \
    raw_guest_array_writable((hnd).p, (nr), sizeof(*(hnd).p))

#endif /* __XEN_GUEST_ACCESS_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compile-time checks of xen/guest_access.h, run by
 * test_guest_access_types.sh: compiled as it is (CASE_none) this file must
 * build; with -DCASE_<name> for each case below it must NOT, because that
 * case's copy does not match the handle's type.  Each case is one line.
 */
#include <xen/guest_access.h>

struct rec_a { uint32_t x; uint64_t y; };
struct rec_b { uint64_t x; uint64_t y; };
typedef struct rec_a rec_a_t;
DEFINE_XEN_GUEST_HANDLE(rec_a_t);

unsigned long type_checks(XEN_GUEST_HANDLE(uint32) h32, XEN_GUEST_HANDLE(const_uint32) hc,
                          XEN_GUEST_HANDLE(rec_a_t) ha, XEN_GUEST_HANDLE(void) hv,
                          XEN_GUEST_HANDLE(uint8) h8);

unsigned long type_checks(XEN_GUEST_HANDLE(uint32) h32, XEN_GUEST_HANDLE(const_uint32) hc,
                          XEN_GUEST_HANDLE(rec_a_t) ha, XEN_GUEST_HANDLE(void) hv,
                          XEN_GUEST_HANDLE(uint8) h8)
{
    uint32_t w = 0;
    const uint32_t cw = 0;
    uint64_t q = 0;
    char c = 0;
    uint8_t b = 0;
    struct rec_a a = { 0 };
    struct rec_b rb = { 0 };
    unsigned long n = 0;

    /* What is allowed: matching types, a void handle, reading from const. */
    n += copy_to_guest(h32, &w, 1) + copy_from_guest(&w, h32, 1);
    n += copy_to_guest(h32, &cw, 1) + copy_from_guest(&w, hc, 1);
    n += copy_to_guest(hv, &q, 1) + copy_from_guest(&a, hv, 1);
    n += copy_to_guest(h8, &b, 1);
    n += copy_field_to_guest(ha, &a, x) + copy_field_from_guest(&a, ha, y);
    n += guest_handle_okay(h32, 4);
    n += guest_handle_is_null(guest_handle_from_param(ha, rec_a_t));
    n += guest_handle_is_null(guest_handle_cast(hv, rec_a_t));

#ifdef CASE_to_wrong_type
    n += copy_to_guest(h32, &q, 1);
#endif
#ifdef CASE_from_wrong_type
    n += copy_from_guest(&q, h32, 1);
#endif
#ifdef CASE_to_wrong_struct
    n += copy_to_guest(ha, &rb, 1);
#endif
#ifdef CASE_from_wrong_struct
    n += copy_from_guest_offset(&rb, ha, 1, 1);
#endif
#ifdef CASE_to_const_handle
    n += copy_to_guest(hc, &w, 1);
#endif
#ifdef CASE_from_into_const
    n += copy_from_guest(&cw, h32, 1);
#endif
#ifdef CASE_char_to_uint8
    n += copy_to_guest(h8, &c, 1);
#endif
#ifdef CASE_field_wrong_type
    n += copy_field_to_guest(ha, &rb, x);
#endif
#ifdef CASE_field_from_wrong_type
    n += copy_field_from_guest(&rb, ha, x);
#endif
#ifdef CASE_from_param_other_type
    n += guest_handle_is_null(guest_handle_from_param(h32, uint64));
#endif
#ifdef CASE_cast_between_types
    n += guest_handle_is_null(guest_handle_cast(h32, rec_a_t));
#endif
    (void)c; (void)rb;
    return n;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/include/xen/guest_access.h: the typed handle macros.  The byte-level
 * layer under them (raw_copy_{to,from}_guest, raw_guest_array_writable)
 * is replaced here by a fake guest: GUEST_SIZE bytes of memory at guest
 * address GUEST_BASE, everything else unmapped.  Each raw call records the
 * guest address and byte count it was given, so the checks see what the
 * macros computed: counts in elements, offsets scaled by the element size.
 * That a wrongly typed copy does not compile is checked by
 * test_guest_access_types.sh (guest_access_types.c).
 */
#include <xen/guest_access.h>
#include <xen/string.h>

#include "harness.h"

#define GUEST_BASE 0x7f0000001000UL
#define GUEST_SIZE 4096UL

static uint8_t guest_mem[GUEST_SIZE];
static unsigned long last_addr, last_len, last_nr, last_size;
static unsigned int raw_calls;

/* Where [addr, addr + len) lies in guest_mem, or NULL if not all of it does. */
static uint8_t *guest_bytes(unsigned long addr, unsigned long len)
{
    if ( addr < GUEST_BASE || len > GUEST_SIZE || addr - GUEST_BASE > GUEST_SIZE - len )
        return NULL;
    return &guest_mem[addr - GUEST_BASE];
}

unsigned long raw_copy_to_guest(void *to, const void *from, size_t len)
{
    uint8_t *g = guest_bytes((unsigned long)to, len);

    raw_calls++;
    last_addr = (unsigned long)to;
    last_len = len;
    if ( !g )
        return len;
    memcpy(g, from, len);
    return 0;
}

unsigned long raw_copy_from_guest(void *to, const void *from, size_t len)
{
    const uint8_t *g = guest_bytes((unsigned long)from, len);

    raw_calls++;
    last_addr = (unsigned long)from;
    last_len = len;
    if ( !g )
        return len;
    memcpy(to, g, len);
    return 0;
}

bool raw_guest_array_writable(const void *p, unsigned long nr, size_t size)
{
    raw_calls++;
    last_addr = (unsigned long)p;
    last_nr = nr;
    last_size = size;
    return guest_bytes((unsigned long)p, nr * size) != NULL;
}

/* A structure with a handle of its own, as the public ABI has them. */
struct test_rec {
    uint16_t a;
    uint64_t b;
    uint8_t c[3];
};
typedef struct test_rec test_rec_t;
DEFINE_XEN_GUEST_HANDLE(test_rec_t);

/* A handle named 'name' (public/xen.h) to 'ctype' at GUEST_BASE + off. */
#define HANDLE_AT(name, ctype, off) \
    ((XEN_GUEST_HANDLE(name)) { (ctype *)(GUEST_BASE + (off)) })

static void test_element_counts(void)
{
    XEN_GUEST_HANDLE(uint32) h32 = HANDLE_AT(uint32, uint32_t, 0);
    XEN_GUEST_HANDLE(test_rec_t) hr = HANDLE_AT(test_rec_t, test_rec_t, 0);
    XEN_GUEST_HANDLE(void) hv = HANDLE_AT(void, void, 0);
    uint32_t w[4] = { 1, 2, 3, 4 }, r[4] = { 0 };
    struct test_rec rec = { .a = 7, .b = 0x1122334455667788ULL, .c = { 9, 8, 7 } }, back;

    /* nr counts elements of the pointer's type. */
    CHECK_EQ(copy_to_guest(h32, w, 3), 0);
    CHECK_EQ(last_addr, GUEST_BASE);
    CHECK_EQ(last_len, 3 * sizeof(uint32_t));
    CHECK_EQ(copy_from_guest(r, h32, 3), 0);
    CHECK_EQ(last_len, 12);
    CHECK(!memcmp(r, w, 12) && r[3] == 0);

    CHECK_EQ(copy_to_guest(hr, &rec, 1), 0);
    CHECK_EQ(last_len, sizeof(struct test_rec));
    CHECK_EQ(copy_to_guest(hr, &rec, 2), 0);
    CHECK_EQ(last_len, 2 * sizeof(struct test_rec));

    /* A void handle takes the size from the pointer. */
    CHECK_EQ(copy_from_guest(&back, hv, 1), 0);
    CHECK_EQ(last_len, sizeof(back));
    CHECK(back.a == 7 && back.b == rec.b && back.c[2] == 7);
    CHECK_EQ(copy_from_guest(r, hv, 2), 0);
    CHECK_EQ(last_len, 2 * sizeof(uint32_t));
}

static void test_offsets(void)
{
    XEN_GUEST_HANDLE(uint64) h64 = HANDLE_AT(uint64, uint64_t, 0x100);
    XEN_GUEST_HANDLE(test_rec_t) hr = HANDLE_AT(test_rec_t, test_rec_t, 0x200);
    XEN_GUEST_HANDLE(void) hv = HANDLE_AT(void, void, 0x300);
    uint64_t v = 0xabcdef, got = 0;
    struct test_rec rec = { .a = 3 }, back = { 0 };
    uint8_t byte = 0x5a;

    /* Offsets are in elements too. */
    CHECK_EQ(copy_to_guest_offset(h64, 5, &v, 1), 0);
    CHECK_EQ(last_addr, GUEST_BASE + 0x100 + 5 * 8);
    CHECK_EQ(last_len, 8);
    CHECK_EQ(copy_from_guest_offset(&got, h64, 5, 1), 0);
    CHECK_EQ(got, 0xabcdef);

    CHECK_EQ(copy_to_guest_offset(hr, 3, &rec, 1), 0);
    CHECK_EQ(last_addr, GUEST_BASE + 0x200 + 3 * sizeof(struct test_rec));
    CHECK_EQ(copy_from_guest_offset(&back, hr, 3, 1), 0);
    CHECK_EQ(back.a, 3);

    /* Through a void handle, in units of what is copied. */
    CHECK_EQ(copy_to_guest_offset(hv, 7, &byte, 1), 0);
    CHECK_EQ(last_addr, GUEST_BASE + 0x300 + 7);
    CHECK_EQ(copy_to_guest_offset(hv, 2, &rec, 1), 0);
    CHECK_EQ(last_addr, GUEST_BASE + 0x300 + 2 * sizeof(struct test_rec));

    /* Moving a handle: by elements of its own type; void by bytes. */
    guest_handle_add_offset(h64, 3);
    CHECK_EQ((unsigned long)h64.p, GUEST_BASE + 0x100 + 24);
    guest_handle_subtract_offset(h64, 1);
    CHECK_EQ((unsigned long)h64.p, GUEST_BASE + 0x100 + 16);
    CHECK_EQ(copy_from_guest_offset(&got, h64, 3, 1), 0);
    CHECK_EQ(got, 0xabcdef);
    guest_handle_add_offset(hv, 5);
    CHECK_EQ((unsigned long)hv.p, GUEST_BASE + 0x305);
}

static void test_fields(void)
{
    XEN_GUEST_HANDLE(test_rec_t) hr = HANDLE_AT(test_rec_t, test_rec_t, 0x400);
    struct test_rec rec = { .a = 1, .b = 42, .c = { 1, 2, 3 } }, back = { 0 };
    XEN_GUEST_HANDLE(uint64) hb;

    memset(&guest_mem[0x400], 0xee, sizeof(rec));
    CHECK_EQ(copy_field_to_guest(hr, &rec, b), 0);
    CHECK_EQ(last_addr, GUEST_BASE + 0x400 + __builtin_offsetof(struct test_rec, b));
    CHECK_EQ(last_len, sizeof(uint64_t));
    CHECK_EQ(guest_mem[0x400], 0xee);       /* only that member written */
    CHECK_EQ(copy_field_to_guest(hr, &rec, c), 0);
    CHECK_EQ(last_len, 3);
    CHECK_EQ(copy_field_from_guest(&back, hr, b), 0);
    CHECK_EQ(back.b, 42);
    CHECK_EQ(back.a, 0);
    CHECK_EQ(copy_field_from_guest(&back, hr, c), 0);
    CHECK_EQ(back.c[2], 3);

    hb = guest_handle_for_field(hr, uint64, b);
    CHECK_EQ((unsigned long)hb.p, GUEST_BASE + 0x400 + __builtin_offsetof(struct test_rec, b));
}

static void test_handles(void)
{
    XEN_GUEST_HANDLE_PARAM(void) pv = HANDLE_AT(void, void, 0x20);
    XEN_GUEST_HANDLE_PARAM(test_rec_t) pr = guest_handle_cast(pv, test_rec_t);
    XEN_GUEST_HANDLE(test_rec_t) hr = guest_handle_from_param(pr, test_rec_t);
    XEN_GUEST_HANDLE(void) back = guest_handle_cast(hr, void);
    XEN_GUEST_HANDLE(test_rec_t) null = guest_handle_from_ptr(NULL, test_rec_t);

    CHECK_EQ((unsigned long)pr.p, GUEST_BASE + 0x20);
    CHECK_EQ((unsigned long)hr.p, GUEST_BASE + 0x20);
    CHECK_EQ((unsigned long)guest_handle_to_param(hr, test_rec_t).p, GUEST_BASE + 0x20);
    CHECK_EQ((unsigned long)back.p, GUEST_BASE + 0x20);
    CHECK(guest_handle_is_null(null));
    CHECK(!guest_handle_is_null(hr));
}

static void test_okay_and_faults(void)
{
    XEN_GUEST_HANDLE(test_rec_t) hr = HANDLE_AT(test_rec_t, test_rec_t, 0);
    XEN_GUEST_HANDLE(uint32) end = HANDLE_AT(uint32, uint32_t, GUEST_SIZE - 8);
    uint32_t w[4] = { 0 };

    /* guest_handle_okay: nr elements of the handle's type. */
    CHECK(guest_handle_okay(hr, 10));
    CHECK_EQ(last_nr, 10);
    CHECK_EQ(last_size, sizeof(struct test_rec));
    CHECK(!guest_handle_okay(hr, GUEST_SIZE / sizeof(struct test_rec) + 1));
    CHECK(guest_handle_okay(end, 2));
    CHECK(!guest_handle_okay(end, 3));

    /* The bytes not copied come back as they are. */
    CHECK_EQ(copy_to_guest(end, w, 2), 0);
    CHECK_EQ(copy_to_guest(end, w, 3), 12);
    CHECK_EQ(copy_from_guest(w, end, 4), 16);
    CHECK_EQ(copy_to_guest_offset(end, 1, w, 1), 0);
    CHECK_EQ(copy_to_guest_offset(end, 2, w, 1), 4);

    /* An offset that wraps: defined arithmetic, an address the raw layer refuses. */
    CHECK_EQ(copy_to_guest_offset(end, -(GUEST_BASE / 4 + 1), w, 1), 4);
    CHECK_EQ(last_addr, GUEST_BASE + GUEST_SIZE - 8 - GUEST_BASE - 4);
}

void test_main(void)
{
    raw_calls = 0;
    test_element_counts();
    test_offsets();
    test_fields();
    test_handles();
    test_okay_and_faults();
    CHECK(raw_calls > 20);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sr-check: validate a saved domain, record by record, from the specs
 * alone (Xen's docs/specs/libxc-migration-stream.pandoc, revision 3, and
 * libxl-migration-stream.pandoc, revision 2, and xl's save-file header).
 * Independent of libxenguest's code on purpose: it checks what the saver
 * writes, not what the restorer accepts.
 *
 *   sr-check [-v] FILE      exit 0 if valid, 1 if not (the first problem
 *                           printed with its offset), 2 on usage errors
 *
 * FILE may be an xl save file ("Xen saved domain, xl format\n \0 \r"
 * header), a libxl stream ("LibxlFmt") or a bare libxc stream.  For an
 * x86 HVM libxc stream it checks: the image and domain headers; every
 * record's padding; known types only (unknown optional ones skipped);
 * STATIC_DATA_END first and once (version 3); PAGE_DATA bodies (count,
 * reserved bits, types, length = header + pfns + pages with data);
 * X86_TSC_INFO's size and reserved field; HVM_PARAMS' count and length;
 * HVM_CONTEXT's descriptors (HEADER first, END last, lengths inside);
 * HVM_PARAMS before HVM_CONTEXT, no memory after it, END last, nothing
 * after END.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *buf;
static size_t size, pos;
static bool verbose;
static const char *file;

static void fail(size_t off, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void fail(size_t off, const char *fmt, ...)
{
    va_list ap;

    printf("%s: offset 0x%zx: ", file, off);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    exit(1);
}

static void need(size_t n, const char *what)
{
    if ( size - pos < n )
        fail(pos, "truncated in %s (%zu of %zu octets)", what, size - pos, n);
}

static uint64_t le(size_t off, unsigned int n)
{
    uint64_t v = 0;

    for ( unsigned int i = 0; i < n; i++ )
        v |= (uint64_t)buf[off + i] << (8 * i);
    return v;
}

static uint64_t be(size_t off, unsigned int n)
{
    uint64_t v = 0;

    for ( unsigned int i = 0; i < n; i++ )
        v = (v << 8) | buf[off + i];
    return v;
}

/* A record header and body, padding checked; returns the body offset. */
static size_t record(const char *layer, uint32_t *type, uint32_t *len)
{
    size_t start = pos, body, pad;

    need(8, "a record header");
    *type = (uint32_t)le(pos, 4);
    *len = (uint32_t)le(pos + 4, 4);
    pos += 8;
    body = pos;
    pad = (8 - (*len & 7)) & 7;
    if ( size - pos < (uint64_t)*len + pad )
        fail(start, "%s record type %#x: truncated (body %u + padding %zu "
             "octets, %zu left)", layer, *type, *len, pad, size - pos);
    pos += *len;
    for ( size_t i = 0; i < pad; i++ )
        if ( buf[pos + i] )
            fail(start, "%s record type %#x: padding octet %zu is %#x",
                 layer, *type, i, buf[pos + i]);
    pos += pad;
    return body;
}

/* ---- libxc ---- */

static unsigned long nr_records, nr_pages, nr_data_pages;

static void check_page_data(size_t rec, size_t b, uint32_t len)
{
    uint32_t count, i, data = 0;

    if ( len < 8 )
        fail(rec, "PAGE_DATA: %u octets, shorter than its header", len);
    count = (uint32_t)le(b, 4);
    if ( !count || count > 1024 )
        fail(rec, "PAGE_DATA: count %u", count);
    if ( le(b + 4, 4) )
        fail(rec, "PAGE_DATA: reserved field not zero");
    if ( len < 8 + 8ULL * count )
        fail(rec, "PAGE_DATA: %u octets for %u pfns", len, count);
    for ( i = 0; i < count; i++ )
    {
        uint64_t w = le(b + 8 + 8 * i, 8);
        unsigned int type = (unsigned int)(w >> 60);

        if ( w & 0x0ff0000000000000ULL )
            fail(rec, "PAGE_DATA: pfn[%u] %#llx: reserved bits", i,
                 (unsigned long long)w);
        if ( type != 0x0 && type != 0xd && type != 0xe && type != 0xf )
            fail(rec, "PAGE_DATA: pfn[%u]: type %#x in an HVM stream", i, type);
        if ( type == 0x0 )
            data++;
    }
    if ( len != 8 + 8ULL * count + 4096ULL * data )
        fail(rec, "PAGE_DATA: %u octets, but %u pfns with %u pages need %llu",
             len, count, data, 8 + 8ULL * count + 4096ULL * data);
    nr_pages += count;
    nr_data_pages += data;
}

static void check_hvm_context(size_t rec, size_t b, uint32_t len)
{
    uint32_t off = 0;
    unsigned int n = 0;

    while ( off + 8 <= len )
    {
        uint16_t code = (uint16_t)le(b + off, 2);
        uint32_t l = (uint32_t)le(b + off + 4, 4);

        if ( l > len - off - 8 )
            fail(rec, "HVM_CONTEXT: descriptor %u at %#x: length %u past the end",
                 n, off, l);
        if ( n == 0 && (code != 1 || l != 24) )
            fail(rec, "HVM_CONTEXT: first descriptor type %u length %u, not "
                 "HEADER (1, 24)", code, l);
        if ( n == 0 && le(b + 8, 4) != 0x54381286 )
            fail(rec, "HVM_CONTEXT: HEADER magic %#llx",
                 (unsigned long long)le(b + 8, 4));
        if ( code == 0 )
        {
            if ( l || off + 8 != len )
                fail(rec, "HVM_CONTEXT: END at %#x is not the last descriptor",
                     off);
            return;
        }
        off += 8 + l;
        n++;
    }
    fail(rec, "HVM_CONTEXT: no END descriptor");
}

static void check_libxc(void)
{
    size_t start = pos;
    uint32_t version, type, len;
    bool sde = false, tsc = false, params = false, ctx = false;

    need(24, "the image header");
    if ( be(pos, 8) != 0xffffffffffffffffULL )
        fail(pos, "image header: bad marker");
    if ( be(pos + 8, 4) != 0x58454E46 )
        fail(pos + 8, "image header: id is not XENF");
    version = (uint32_t)be(pos + 12, 4);
    if ( version != 2 && version != 3 )
        fail(pos + 12, "image header: version %u", version);
    if ( be(pos + 16, 2) != 0 )
        fail(pos + 16, "image header: options %#llx (big-endian or reserved)",
             (unsigned long long)be(pos + 16, 2));
    if ( be(pos + 18, 2) || be(pos + 20, 4) )
        fail(pos + 18, "image header: reserved bits set");
    pos += 24;
    need(16, "the domain header");
    if ( le(pos, 4) != 2 )
        fail(pos, "domain header: type %llu is not x86 HVM (2)",
             (unsigned long long)le(pos, 4));
    if ( le(pos + 4, 2) != 12 )
        fail(pos + 4, "domain header: page_shift %llu",
             (unsigned long long)le(pos + 4, 2));
    if ( le(pos + 6, 2) )
        fail(pos + 6, "domain header: reserved field not zero");
    if ( verbose )
        printf("libxc stream v%u at 0x%zx, saved on Xen %llu.%llu\n", version,
               start, (unsigned long long)le(pos + 8, 4),
               (unsigned long long)le(pos + 12, 4));
    pos += 16;
    if ( version == 2 )
        sde = true;                     /* inferred */

    for ( ;; )
    {
        size_t rec = pos, b = record("libxc", &type, &len);

        nr_records++;
        if ( verbose )
            printf("  0x%08zx type %#x length %u\n", rec, type, len);
        if ( type != 0x10 && type != 0 && !(type & 0x80000000U) && !sde )
            fail(rec, "record type %#x before STATIC_DATA_END", type);
        switch ( type )
        {
        case 0x0:                       /* END */
            if ( len )
                fail(rec, "END with a body");
            if ( !ctx )
                fail(rec, "END without HVM_CONTEXT");
            return;
        case 0x1:
            if ( ctx )
                fail(rec, "PAGE_DATA after HVM_CONTEXT");
            check_page_data(rec, b, len);
            break;
        case 0x8:
            if ( tsc || ctx )
                fail(rec, "X86_TSC_INFO twice or after HVM_CONTEXT");
            if ( len != 24 || le(b + 20, 4) || le(b, 4) > 2 )
                fail(rec, "X86_TSC_INFO: length %u, mode %llu", len,
                     (unsigned long long)(len >= 4 ? le(b, 4) : 0));
            tsc = true;
            break;
        case 0xa:
            if ( params || ctx )
                fail(rec, "HVM_PARAMS twice or after HVM_CONTEXT");
            if ( len && (len < 8 || le(b + 4, 4) ||
                         len != 8 + 16 * le(b, 4)) )
                fail(rec, "HVM_PARAMS: length %u for its count", len);
            params = true;
            break;
        case 0x9:
            if ( ctx )
                fail(rec, "a second HVM_CONTEXT");
            if ( !len )
                fail(rec, "empty HVM_CONTEXT");
            check_hvm_context(rec, b, len);
            ctx = true;
            break;
        case 0x10:
            if ( sde )
                fail(rec, "STATIC_DATA_END twice (or in a v2 stream)");
            if ( len )
                fail(rec, "STATIC_DATA_END with a body");
            sde = true;
            break;
        default:
            if ( !(type & 0x80000000U) )
                fail(rec, "record type %#x is not valid in an x86 HVM stream",
                     type);
        }
    }
}

/* ---- libxl and xl ---- */

static void check_libxl(void)
{
    uint32_t type, len;
    bool libxc = false;

    need(16, "the libxl header");
    if ( memcmp(buf + pos, "LibxlFmt", 8) )
        fail(pos, "libxl header: ident is not LibxlFmt");
    if ( be(pos + 8, 4) != 2 )
        fail(pos + 8, "libxl header: version %llu",
             (unsigned long long)be(pos + 8, 4));
    if ( be(pos + 12, 4) & ~1ULL )
        fail(pos + 12, "libxl header: options %#llx",
             (unsigned long long)be(pos + 12, 4));
    if ( be(pos + 12, 4) & 1 )
        fail(pos + 12, "libxl header: big-endian");
    pos += 16;
    for ( ;; )
    {
        size_t rec = pos;

        record("libxl", &type, &len);
        if ( verbose )
            printf("libxl 0x%08zx type %#x length %u\n", rec, type, len);
        if ( type == 0 )
        {
            if ( len )
                fail(rec, "libxl END with a body");
            if ( !libxc )
                fail(rec, "libxl END without LIBXC_CONTEXT");
            return;
        }
        if ( type == 1 )
        {
            if ( len || libxc )
                fail(rec, "LIBXC_CONTEXT with a body, or twice");
            libxc = true;
            check_libxc();
            continue;
        }
        if ( !(type & 0x80000000U) )
            fail(rec, "libxl record type %#x not valid here", type);
    }
}

static void check_xl(void)
{
    static const char magic[32] = "Xen saved domain, xl format\n \0 \r";
    uint32_t mandatory, optional, optlen;

    need(48, "the xl header");
    if ( memcmp(buf, magic, 32) )
        fail(0, "xl header: bad magic");
    if ( le(32, 4) != 0x01020304 )
        fail(32, "xl header: byte order %#llx", (unsigned long long)le(32, 4));
    mandatory = (uint32_t)le(36, 4);
    optional = (uint32_t)le(40, 4);
    optlen = (uint32_t)le(44, 4);
    if ( mandatory & ~3U || !(mandatory & 2) )
        fail(36, "xl header: mandatory flags %#x (STREAMv2 required)", mandatory);
    if ( optional )
        fail(40, "xl header: optional flags %#x", optional);
    pos = 48;
    need(optlen, "the xl optional data");
    if ( optlen )
    {
        uint32_t clen;

        if ( optlen < 4 || (clen = (uint32_t)le(48, 4)) > optlen - 4 )
            fail(48, "xl header: config length inside %u octets", optlen);
        if ( clen && buf[48 + 4 + clen - 1] )
            fail(52, "xl header: config not NUL-terminated");
        if ( verbose )
            printf("xl header: flags %#x, %u octets of config\n", mandatory, clen);
    }
    pos += optlen;
    check_libxl();
}

int main(int argc, char **argv)
{
    static uint8_t *data;
    size_t cap = 0;
    FILE *f;

    if ( argc == 3 && !strcmp(argv[1], "-v") )
    {
        verbose = true;
        file = argv[2];
    }
    else if ( argc == 2 )
        file = argv[1];
    else
    {
        fprintf(stderr, "usage: sr-check [-v] FILE\n");
        return 2;
    }
    f = fopen(file, "rb");
    if ( !f )
    {
        perror(file);
        return 2;
    }
    for ( ;; )
    {
        size_t n;

        if ( size == cap )
        {
            cap = cap ? 2 * cap : 1 << 20;
            data = realloc(data, cap);
            if ( !data )
                return 2;
        }
        n = fread(data + size, 1, cap - size, f);
        if ( !n )
            break;
        size += n;
    }
    fclose(f);
    buf = data;

    if ( size >= 32 && !memcmp(buf, "Xen saved domain, xl format\n", 28) )
        check_xl();
    else if ( size >= 8 && !memcmp(buf, "LibxlFmt", 8) )
        check_libxl();
    else
        check_libxc();
    if ( pos != size )
        fail(pos, "%zu octets after the end of the stream", size - pos);
    printf("%s: OK: %lu libxc records, %lu pfns, %lu pages of data, %zu octets\n",
           file, nr_records, nr_pages, nr_data_pages, size);
    free(data);
    return 0;
}

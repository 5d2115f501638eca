/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Malformed streams: a good stream of a small domain, changed one way at a
 * time, must be refused by xc_domain_restore with a message naming the
 * offset and the record, the half-built domain destroyed (restore_from
 * does it as libxl would), and refused by sr-check too.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "xg_sr_stream_format.h"

#define PAGES 64

struct rec {
    size_t off;         /* of the header */
    uint32_t type, len;
    size_t total;       /* header + body + padding */
};

static struct stream base;
static struct rec recs[32];
static unsigned int nr_recs;

static void index_stream(const struct stream *s)
{
    size_t off = sizeof(struct xc_sr_ihdr) + sizeof(struct xc_sr_dhdr);

    nr_recs = 0;
    while ( off + 8 <= s->len && nr_recs < 32 )
    {
        struct rec *r = &recs[nr_recs++];

        r->off = off;
        memcpy(&r->type, s->data + off, 4);
        memcpy(&r->len, s->data + off + 4, 4);
        r->total = 8 + ((r->len + 7) & ~7U);
        off += r->total;
    }
}

static int find(uint32_t type, unsigned int nth)
{
    for ( unsigned int i = 0; i < nr_recs; i++ )
        if ( recs[i].type == type && nth-- == 0 )
            return (int)i;
    return -1;
}

static bool make_base(void)
{
    struct fake_dom *src = fake_new_domain(PAGES, PAGES, 1);

    fake_fill(src, 7);
    if ( save_to(&base, src->id, 0, NULL, NULL) )
        return false;
    index_stream(&base);
    return find(REC_TYPE_PAGE_DATA, 0) >= 0 && find(REC_TYPE_END, 0) >= 0 &&
           find(REC_TYPE_HVM_CONTEXT, 0) >= 0;
}

/* A copy of base with [off, off + cut) replaced by ins (ilen octets). */
static struct stream splice(size_t off, size_t cut, const void *ins, size_t ilen)
{
    struct stream s;

    s.len = base.len - cut + ilen;
    s.data = malloc(s.len + 1);
    memcpy(s.data, base.data, off);
    if ( ilen )
        memcpy(s.data + off, ins, ilen);
    memcpy(s.data + off + ilen, base.data + off + cut, base.len - off - cut);
    return s;
}

static struct stream copy_base(void)
{
    return splice(0, 0, NULL, 0);
}

/* A record of type/len with body (or zeroes) and padding pad_byte. */
static size_t make_rec(uint8_t *out, uint32_t type, uint32_t len,
                       const void *body, uint8_t pad_byte)
{
    size_t total = 8 + ((len + 7) & ~7U);

    memset(out, 0, total);
    memcpy(out, &type, 4);
    memcpy(out + 4, &len, 4);
    if ( body )
        memcpy(out + 8, body, len);
    if ( len & 7 )
        out[8 + len] = pad_byte;
    return total;
}

/* Restore must fail with 'expect' (and, if off >= 0, the record's offset). */
/* Valid by the spec, refused by this restorer only: sr-check accepts. */
static bool spec_valid;

static void refused(const char *what, struct stream *s, long off,
                    const char *expect)
{
    struct fake_dom *dst;
    char where[64];
    int rc;

    log_clear();
    rc = restore_from(s, PAGES, 1, &dst, NULL);
    CHECK(rc == -1, "%s: restored", what);
    CHECK(log_has(expect), "%s: no \"%s\" in: %s", what, expect, log_text());
    if ( off >= 0 )
    {
        snprintf(where, sizeof(where), "offset %#lx", off);
        CHECK(log_has(where), "%s: no \"%s\" in: %s", what, where, log_text());
    }
    if ( spec_valid )
        CHECK(run_checker(s) == 0, "%s: sr-check refuses it", what);
    else
        CHECK(run_checker(s) == 1, "%s: sr-check accepts it", what);
    spec_valid = false;
    stream_free(s);
}

static void put32(struct stream *s, size_t off, uint32_t v)
{
    memcpy(s->data + off, &v, 4);
}

static void put64(struct stream *s, size_t off, uint64_t v)
{
    memcpy(s->data + off, &v, 8);
}

static void test_headers(void)
{
    struct stream s;

    s = copy_base(); s.data[0] = 0;
    refused("bad marker", &s, -1, "offset 0: image header: marker");
    s = copy_base(); s.data[11] ^= 1;
    refused("bad id", &s, -1, "offset 0x8: image header: id");
    s = copy_base(); s.data[15] = 4;
    refused("version 4", &s, -1, "version 4 is not 2 or 3");
    s = copy_base(); s.data[17] = 1;
    refused("big-endian", &s, -1, "big-endian stream");
    s = copy_base(); s.data[17] = 2;
    refused("reserved option", &s, -1, "reserved bits set");
    s = copy_base(); put32(&s, 24, DHDR_TYPE_X86_PV);
    refused("PV domain", &s, -1, "PV guests are not supported");
    s = copy_base(); s.data[28] = 13;
    refused("page shift", &s, -1, "page_shift 13 is not 12");
    s = copy_base(); s.data[31] = 1;
    refused("domain header reserved", &s, -1, "domain header: reserved");
    s.data = NULL; s.len = 0;
    refused("empty stream", &s, -1, "truncated in the image header (0 of 24");
}

static void test_page_data(void)
{
    int i = find(REC_TYPE_PAGE_DATA, 0);
    size_t o = recs[i].off, b = o + 8;
    struct stream s;

    s = copy_base(); put32(&s, o + 4, recs[i].len + 8);
    refused("PAGE_DATA length + 8", &s, (long)o, "pages of data need");
    s = copy_base(); put32(&s, o + 4, 0xffffff00U);
    refused("PAGE_DATA length huge", &s, (long)o, "body longer than");
    s = copy_base(); put32(&s, b, 0);
    refused("PAGE_DATA count 0", &s, (long)o, "count 0 is not within");
    s = copy_base(); put32(&s, b, 2000);
    refused("PAGE_DATA count 2000", &s, (long)o, "count 2000 is not within");
    s = copy_base(); put32(&s, b + 4, 1);
    refused("PAGE_DATA reserved", &s, (long)o, "reserved field is 0x1");
    s = copy_base(); put64(&s, b + 8, 0x1000000);
    spec_valid = true;
    refused("pfn beyond max", &s, (long)o, "pfn[0] 0x1000000 is beyond the 0x1000000 pfns");
    s = copy_base(); put64(&s, b + 16, 1 | (1ULL << 55));
    refused("pfn reserved bits", &s, (long)o, "pfn[1] 0x80000000000001 has reserved");
    s = copy_base(); put64(&s, b + 8, 1ULL << 60);
    refused("L1TAB page", &s, (long)o, "a page-table type");
    s = copy_base(); put64(&s, b + 8, 5ULL << 60);
    refused("type 5", &s, (long)o, "which is reserved");
    s = copy_base(); put64(&s, b + 8, 0xdULL << 60);
    refused("BROKEN page", &s, (long)o, "is BROKEN");
    /* An XTAB page has no data: the length no longer matches. */
    s = copy_base(); put64(&s, b + 8, 0xfULL << 60);
    refused("XTAB with data", &s, (long)o, "pages of data need");
}

static void test_records(void)
{
    int end = find(REC_TYPE_END, 0), ctx = find(REC_TYPE_HVM_CONTEXT, 0);
    int sde = find(REC_TYPE_STATIC_DATA_END, 0), tsc = find(REC_TYPE_X86_TSC_INFO, 0);
    int par = find(REC_TYPE_HVM_PARAMS, 0), pd = find(REC_TYPE_PAGE_DATA, 0);
    size_t eo = recs[end].off;
    uint8_t r[64], *tmp;
    struct stream s;
    struct fake_dom *dst;
    size_t n;
    int rc;

    /* END with a body */
    n = make_rec(r, REC_TYPE_END, 8, NULL, 0);
    s = splice(eo, recs[end].total, r, n);
    refused("END with a body", &s, (long)eo, "END record (type 0, length 8): END has a body");

    n = make_rec(r, 0x13, 0, NULL, 0);
    s = splice(eo, 0, r, n);
    refused("unknown mandatory", &s, (long)eo, "an unknown mandatory record");

    n = make_rec(r, REC_TYPE_OPTIONAL | 0x13, 3, "abc", 0);
    s = splice(eo, 0, r, n);
    log_clear();
    rc = restore_from(&s, PAGES, 1, &dst, NULL);
    CHECK(rc == 0, "unknown optional record refused: %s", log_text());
    CHECK(run_checker(&s) == 0, "sr-check refuses an unknown optional record");
    if ( dst )
        xc_domain_destroy(xch, dst->id);
    stream_free(&s);

    n = make_rec(r, REC_TYPE_OPTIONAL | 0x13, 3, "abc", 0x55);
    s = splice(eo, 0, r, n);
    refused("non-zero padding", &s, (long)eo, "padding octet 0 is 0x55");

    n = make_rec(r, REC_TYPE_X86_PV_INFO, 8, NULL, 0);
    s = splice(eo, 0, r, n);
    refused("PV record", &s, (long)eo, "a PV record in an x86 HVM stream");
    n = make_rec(r, REC_TYPE_CHECKPOINT, 0, NULL, 0);
    s = splice(eo, 0, r, n);
    refused("CHECKPOINT", &s, (long)eo, "checkpointed");
    n = make_rec(r, REC_TYPE_X86_CPUID_POLICY, 8, NULL, 0);
    s = splice(recs[sde].off, 0, r, n);
    refused("CPUID policy", &s, (long)recs[sde].off, "CPUID/MSR policies cannot be set");

    /* Order. */
    s = splice(recs[sde].off, recs[sde].total, NULL, 0);
    refused("no STATIC_DATA_END", &s, (long)recs[sde].off,
            "PAGE_DATA record (type 0x1, length");
    s = splice(recs[sde].off, 0, base.data + recs[sde].off, recs[sde].total);
    refused("two STATIC_DATA_END", &s, (long)(recs[sde].off + 8),
            "a second STATIC_DATA_END");
    s = splice(eo, 0, base.data + recs[tsc].off, recs[tsc].total);
    refused("X86_TSC_INFO after HVM_CONTEXT", &s, (long)eo, "after HVM_CONTEXT");
    s = splice(recs[ctx].off + recs[ctx].total, 0, base.data + recs[tsc].off,
               recs[tsc].total);
    refused("two X86_TSC_INFO", &s, -1, "after HVM_CONTEXT");
    s = splice(recs[par].off, 0, base.data + recs[tsc].off, recs[tsc].total);
    refused("X86_TSC_INFO twice", &s, (long)recs[par].off,
            "a second X86_TSC_INFO");
    s = splice(eo, 0, base.data + recs[pd].off, recs[pd].total);
    refused("PAGE_DATA after HVM_CONTEXT", &s, (long)eo,
            "PAGE_DATA record (type 0x1, length 262664): after HVM_CONTEXT");
    s = splice(recs[ctx].off, recs[ctx].total, NULL, 0);
    refused("no HVM_CONTEXT", &s, (long)recs[ctx].off,
            "the stream ends without an HVM_CONTEXT record");
    /* HVM_PARAMS moved after HVM_CONTEXT */
    tmp = malloc(recs[par].total);
    memcpy(tmp, base.data + recs[par].off, recs[par].total);
    s = splice(recs[par].off, recs[par].total, NULL, 0);
    {
        struct stream t = base;

        base = s;
        s = splice(recs[ctx].off - recs[par].total + recs[ctx].total, 0, tmp,
                   recs[par].total);
        stream_free(&base);
        base = t;
    }
    free(tmp);
    refused("HVM_PARAMS after HVM_CONTEXT", &s, (long)(recs[ctx].off + recs[ctx].total - recs[par].total),
            "HVM_PARAMS record (type 0xa, length 8): after HVM_CONTEXT");

    /* Contents. */
    s = copy_base(); put32(&s, recs[tsc].off + 8, 7);
    refused("TSC mode 7", &s, (long)recs[tsc].off, "unknown TSC mode 7");
    s = copy_base(); put32(&s, recs[tsc].off + 8 + 4, 1000000);
    spec_valid = true;
    refused("TSC at another rate", &s, (long)recs[tsc].off,
            "TSC mode 0 at 1000000 kHz refused by the hypervisor");
    s = copy_base(); put32(&s, recs[tsc].off + 8, 1);
    spec_valid = true;
    refused("TSC always emulated", &s, (long)recs[tsc].off,
            "it would need RDTSC emulation");
    s = copy_base(); put32(&s, recs[tsc].off + 4, 16);
    refused("TSC length 16", &s, (long)recs[tsc].off, "length is not 24");
    s = copy_base(); put32(&s, recs[par].off + 8, 1);
    refused("HVM_PARAMS count 1", &s, (long)recs[par].off, "count 1 needs 24 octets");
    {
        uint64_t body[3] = { 1, 2, 7 };

        n = make_rec(r, REC_TYPE_HVM_PARAMS, 24, body, 0);
        s = splice(recs[par].off, recs[par].total, r, n);
        spec_valid = true;
        refused("HVM param STORE_EVTCHN", &s, (long)recs[par].off,
                "index 2 is an event channel of the source");
    }
    s = copy_base(); s.data[recs[ctx].off + 8] = 2;
    refused("context without HEADER", &s, (long)recs[ctx].off,
            "does not start with a HEADER");
    s = copy_base(); put32(&s, recs[ctx].off + 8 + 4, 0x10000);
    refused("context length past the end", &s, (long)recs[ctx].off,
            "runs past the end");
    s = copy_base(); s.data[recs[ctx].off + 8 + 8 + 24] = 7;
    spec_valid = true;
    refused("context record type 7", &s, (long)recs[ctx].off,
            "context record type 7 is not supported");
    s = copy_base(); put32(&s, recs[ctx].off + 4, 0);
    refused("context length 0", &s, (long)recs[ctx].off, "length is not within");
}

void test_malformed_streams(void)
{
    if ( !CHECK(make_base(), "cannot save the base stream: %s", log_text()) )
        return;
    test_headers();
    test_page_data();
    test_records();
    stream_free(&base);
}

void test_truncations(void)
{
    unsigned int i, tried = 0;

    if ( !CHECK(make_base(), "cannot save the base stream: %s", log_text()) )
        return;
    for ( i = 0; i < nr_recs; i++ )
    {
        size_t cuts[4] = { recs[i].off, recs[i].off + 4, recs[i].off + 8 + recs[i].len / 2,
                           recs[i].off + recs[i].total - 1 };

        for ( unsigned int c = 0; c < 4; c++ )
        {
            struct stream s;
            char what[64];

            if ( cuts[c] >= base.len || (c && cuts[c] <= cuts[c - 1]) )
                continue;
            s = splice(cuts[c], base.len - cuts[c], NULL, 0);
            snprintf(what, sizeof(what), "cut at %#zx (record %u)", cuts[c], i);
            refused(what, &s, -1, "truncated in");
            tried++;
        }
    }
    {
        struct stream s = splice(20, base.len - 20, NULL, 0);

        refused("cut in the image header", &s, -1, "truncated in the image header (20 of 24");
        s = splice(30, base.len - 30, NULL, 0);
        refused("cut in the domain header", &s, -1, "truncated in the domain header (6 of 16");
    }
    CHECK(tried >= 3 * nr_recs, "only %u cuts", tried);
    stream_free(&base);
}

void test_version2(void)
{
    int sde;
    struct stream s;
    struct fake_dom *dst;
    int rc;

    if ( !CHECK(make_base(), "cannot save the base stream: %s", log_text()) )
        return;
    sde = find(REC_TYPE_STATIC_DATA_END, 0);
    s = splice(recs[sde].off, recs[sde].total, NULL, 0);
    s.data[15] = 2;
    rc = restore_from(&s, PAGES, 1, &dst, NULL);
    CHECK(rc == 0, "a version 2 stream is refused: %s", log_text());
    if ( dst )
        CHECK(fake_compare(fake_find(1), dst, NULL) == 0, "v2 copy differs");
    CHECK(run_checker(&s) == 0, "sr-check refuses the v2 stream");
    stream_free(&s);
    stream_free(&base);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-hcall-buffer-check: hypercall buffers that span several pages, start
 * inside a page, or sit on pages the control domain's kernel has not made
 * present, checked from a control domain (the Linux dom0's system test,
 * tools/dom0/checks-hcall-buffer.sh).  Under Linux the hypervisor reaches
 * such a buffer through dom0's own page tables, one 4 KiB page at a time
 * (xen/arch/x86/hvm/guest_access.c), and the pages of one buffer are not
 * contiguous in guest-physical memory.
 *
 * DOMID is a domain whose dirty pages have been tracked (it has heat-map
 * counters) and that may be paused for a while.  With it paused:
 *
 *   blocks    XEN_DOMCTL_get_dirty_blocks through xc_dirty_blocks with room
 *             for 1024 blocks (an 8 KiB + header bounce buffer: 3 pages)
 *             reads what an exactly-sized call reads; their sum is the
 *             domain's pages_dirtied (XEN_SYSCTL_get_dirty_stats_all), > 0
 *   place     the same domctl made by hand, its envelope straddling a page
 *             boundary and the counts at offsets that cross one (aligned
 *             and not): the counts land exactly there, no other byte of
 *             the buffer changes
 *   hvmctx    XEN_DOMCTL_gethvmcontext into buffers inside one page and
 *             across one boundary: the size and bytes of the library's
 *             read (the TSC aside: it runs while paused), nothing written
 *             past the size returned (the size query's answer is an upper
 *             bound, as Xen's); XEN_DOMCTL_sethvmcontext from a straddling
 *             buffer, read back unchanged
 *   dominfo   XEN_SYSCTL_getdomaininfolist straddling: the library's domains
 *   console   CONSOLEIO_write of 6,000 bytes crossing two page boundaries,
 *             read back through XEN_SYSCTL_readconsole into a 3-page buffer
 *             at an odd offset: every line, in order, byte for byte; the
 *             whole 16 KiB ring read at an offset equals the ring read at 0
 *   fault     counts aimed across into a page of an anonymous mapping that
 *             user space never touched (no PTE), then into one it only
 *             read (the shared zero page, read-only): -EFAULT, nothing
 *             written; once written to, the same call works.  A context
 *             read from an untouched page: -EFAULT, the domain unchanged.
 *
 * Prints "PASS <check>" or "FAIL <check>: <why>" per check and
 * "hcall-buffer-check: N passed, N failed"; exits 0 only if none failed.
 * Not in Xen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xenctrl.h>
#include <xencall.h>
#include <xen/hvm/save.h>

#define PG              4096UL
#define POISON          0xa5
#define TAG             "hcall-buffer-check pattern"

static xc_interface *xch;
static xencall_handle *xcall;
static uint32_t dom;
static unsigned int passed, failed;

static void result(bool ok, const char *name, const char *fmt, ...)
{
    va_list ap;

    if ( ok )
    {
        passed++;
        printf("PASS %s", name);
    }
    else
    {
        failed++;
        printf("FAIL %s", name);
    }
    if ( fmt )
    {
        printf(ok ? " (" : ": ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(ok ? ")" : "");
    }
    printf("\n");
}

static void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fprintf(stderr, "xen-hcall-buffer-check: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    exit(2);
}

/* 'pages' pages of hypercall buffer (libxencall's), every byte POISON. */
static uint8_t *hbuf(size_t pages)
{
    uint8_t *p = xencall_alloc_buffer_pages(xcall, pages);

    if ( !p )
        die("no %zu-page hypercall buffer: %s\n", pages, strerror(errno));
    memset(p, POISON, pages * PG);
    return p;
}

/* First byte of b[0, size) outside [off, off + len) that is not POISON, or -1. */
static long poison_broken(const uint8_t *b, size_t size, size_t off, size_t len)
{
    size_t i;

    for ( i = 0; i < size; i++ )
        if ( (i < off || i >= off + len) && b[i] != POISON )
            return i;
    return -1;
}

/* A domctl whose envelope starts 'at' bytes into its own 2-page buffer. */
static struct xen_domctl *domctl_at(uint8_t **buf, size_t at, uint32_t cmd)
{
    struct xen_domctl *d;

    *buf = hbuf(2);
    d = (struct xen_domctl *)(*buf + at);
    memset(d, 0, sizeof(*d));
    d->cmd = cmd;
    d->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d->domain = dom;
    return d;
}

static int raw_domctl(struct xen_domctl *d)
{
    return xencall1(xcall, __HYPERVISOR_domctl, (uintptr_t)d);
}

static int raw_sysctl(struct xen_sysctl *s)
{
    s->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    return xencall1(xcall, __HYPERVISOR_sysctl, (uintptr_t)s);
}

/* ---- XEN_DOMCTL_get_dirty_blocks ----------------------------------------- */

static uint64_t *ref_blocks;
static unsigned int nr_blocks;

/* get_dirty_blocks by hand into counts (room n); returns 0 or errno. */
static int blocks_raw(void *counts, unsigned int n, size_t at, unsigned int *out_n)
{
    uint8_t *eb;
    struct xen_domctl *d = domctl_at(&eb, at, XEN_DOMCTL_get_dirty_blocks);
    xen_domctl_dirty_blocks_t *db = (void *)&d->u;
    int rc;

    db->nr_blocks = n;
    set_xen_guest_handle_raw(db->counts, counts);
    rc = raw_domctl(d) ? errno : 0;
    if ( out_n )
        *out_n = db->nr_blocks;
    xencall_free_buffer_pages(xcall, eb, 2);
    return rc;
}

static void check_blocks(void)
{
    uint64_t *big = calloc(XEN_DIRTY_BLOCKS_MAX, sizeof(*big)), sum = 0;
    unsigned int n = 0, room = XEN_DIRTY_BLOCKS_MAX, i, nd = 0, nv = 0;
    xen_dirty_sysctl_domain_t *doms = NULL;
    xen_dirty_sysctl_vcpu_t *vcpus = NULL;
    uint64_t dirtied = ~0ULL;

    if ( xc_dirty_blocks(xch, dom, NULL, &n, NULL) || !n )
        die("d%u has no heat-map counters (n %u, errno %d): track it first\n",
            dom, n, errno);
    nr_blocks = n;
    ref_blocks = calloc(n, sizeof(*ref_blocks));
    if ( !big || !ref_blocks )
        die("no memory\n");
    if ( xc_dirty_blocks(xch, dom, ref_blocks, &n, NULL) )
        die("xc_dirty_blocks (room %u): %s\n", n, strerror(errno));
    for ( i = 0; i < n; i++ )
        sum += ref_blocks[i];

    if ( xc_dirty_blocks(xch, dom, big, &room, NULL) )
        result(false, "blocks: room for 1024 (3-page bounce buffer)", "errno %d", errno);
    else
        result(room == n && !memcmp(big, ref_blocks, n * sizeof(*big)) &&
               !memcmp(big + n, (uint64_t[XEN_DIRTY_BLOCKS_MAX]){ 0 },
                       (XEN_DIRTY_BLOCKS_MAX - n) * sizeof(*big)),
               "blocks: room for 1024 (3-page bounce buffer) reads the exact call's counts",
               "%u blocks, %" PRIu64 " pages", n, sum);

    /* The domain's own total, from the sysctl the rows use. */
    if ( !xc_dirty_stats_all(xch, NULL, &nd, NULL, &nv, NULL) &&
         (doms = calloc(nd, sizeof(*doms))) && (vcpus = calloc(nv, sizeof(*vcpus))) &&
         !xc_dirty_stats_all(xch, doms, &nd, vcpus, &nv, NULL) )
        for ( i = 0; i < nd; i++ )
            if ( doms[i].domid == dom )
                dirtied = doms[i].pages_dirtied;
    result(sum == dirtied && sum > 0, "blocks: they add up to pages_dirtied",
           "%" PRIu64 " vs %" PRIu64, sum, dirtied);
    free(doms);
    free(vcpus);
    free(big);
}

static void check_placement(void)
{
    /* Where the counts start in a 4-page buffer, and the envelope in its own. */
    const size_t len = nr_blocks * sizeof(uint64_t);
    const size_t offs[] = { 16, PG - len / 2, PG - len / 2 - 3, 2 * PG - 8,
                            3 * PG - 1 };
    const size_t envs[] = { 0, PG - 100, PG - 1, PG - 200, PG - 37 };
    unsigned int i, n;
    char name[96];

    for ( i = 0; i < sizeof(offs) / sizeof(offs[0]); i++ )
    {
        uint8_t *b = hbuf(4);
        size_t off = offs[i];
        long bad;
        int rc;

        if ( off + len > 4 * PG )
        {
            xencall_free_buffer_pages(xcall, b, 4);
            continue;
        }
        snprintf(name, sizeof(name), "place: counts at +%#zx, domctl at +%#zx",
                 off, envs[i]);
        rc = blocks_raw(b + off, nr_blocks, envs[i], &n);
        bad = poison_broken(b, 4 * PG, off, len);
        if ( rc )
            result(false, name, "errno %d", rc);
        else if ( n != nr_blocks || memcmp(b + off, ref_blocks, len) )
            result(false, name, "%u blocks, not the %u counts read before", n,
                   nr_blocks);
        else
            result(bad < 0, name, bad < 0 ? "%zu bytes over %zu page(s)" :
                   "byte +%#lx outside them changed", bad < 0 ? len : (size_t)bad,
                   (off + len - 1) / PG - off / PG + 1);
        xencall_free_buffer_pages(xcall, b, 4);
    }
}

/* ---- HVM context --------------------------------------------------------- */

static uint8_t *ref_ctx;
static uint32_t ctx_size;              /* what a read returns */
static uint32_t ctx_room;              /* what the size query asks for: more */

/*
 * Is the context well formed (header first, END last)?  Clears the TSC of
 * every CPU record in 'mask_tsc', so that two reads compare.
 */
static bool ctx_walk(uint8_t *c, uint32_t size, bool mask_tsc)
{
    uint32_t off = 0;
    bool first = true;

    while ( off + sizeof(struct hvm_save_descriptor) <= size )
    {
        struct hvm_save_descriptor desc;

        memcpy(&desc, c + off, sizeof(desc));
        off += sizeof(desc);
        if ( off + desc.length > size )
            return false;
        if ( first && (desc.typecode != HVM_SAVE_CODE(HEADER) ||
                       ((struct hvm_save_header *)(c + off))->magic != HVM_FILE_MAGIC) )
            return false;
        first = false;
        if ( desc.typecode == HVM_SAVE_CODE(CPU) && mask_tsc &&
             desc.length >= offsetof(struct hvm_hw_cpu, tsc) + 8 )
            memset(c + off + offsetof(struct hvm_hw_cpu, tsc), 0, 8);
        if ( desc.typecode == HVM_SAVE_CODE(END) )
            return desc.length == 0;
        off += desc.length;
    }
    return false;
}

static int ctx_raw(uint32_t cmd, void *buf, uint32_t size, size_t at, uint32_t *out)
{
    uint8_t *eb;
    struct xen_domctl *d = domctl_at(&eb, at, cmd);
    int rc;

    d->u.hvmcontext.size = size;
    set_xen_guest_handle_raw(d->u.hvmcontext.buffer, buf);
    rc = raw_domctl(d) ? errno : 0;
    if ( out )
        *out = d->u.hvmcontext.size;
    xencall_free_buffer_pages(xcall, eb, 2);
    return rc;
}

/* Where two contexts differ: the first few runs of bytes, by record offset. */
static void show_diff(const uint8_t *got, const uint8_t *want, uint32_t size)
{
    uint32_t i, runs = 0;

    for ( i = 0; i < size && runs < 6; i++ )
    {
        uint32_t j;

        if ( got[i] == want[i] )
            continue;
        for ( j = i; j < size && got[j] != want[j]; j++ )
            ;
        printf("  bytes %#x-%#x differ: got", i, j - 1);
        for ( uint32_t k = i; k < j && k < i + 8; k++ )
            printf(" %02x", got[k]);
        printf(", want");
        for ( uint32_t k = i; k < j && k < i + 8; k++ )
            printf(" %02x", want[k]);
        printf("\n");
        runs++;
        i = j;
    }
}

static void check_hvmctx(void)
{
    uint8_t *b, *cmp = NULL;
    int sz = xc_domain_hvm_getcontext(xch, dom, NULL, 0);
    size_t off, offs[4];
    unsigned int i;
    uint32_t n;
    long bad;
    int rc;

    if ( sz <= 0 )
        die("gethvmcontext size of d%u: %s\n", dom, strerror(errno));
    /* The size query is an upper bound (as Xen's); a read returns the size. */
    ctx_room = sz;
    ref_ctx = malloc(ctx_room);
    cmp = malloc(ctx_room);
    if ( !ref_ctx || !cmp )
        die("no memory\n");
    sz = xc_domain_hvm_getcontext(xch, dom, ref_ctx, ctx_room);
    if ( sz <= 0 )
        die("gethvmcontext of d%u: %s\n", dom, strerror(errno));
    ctx_size = sz;
    result(ctx_walk(ref_ctx, ctx_size, true), "hvmctx: the library's read is well formed",
           "%u bytes, room asked %u", ctx_size, ctx_room);
    offs[0] = 16;
    offs[1] = PG - ctx_size / 2;
    offs[2] = 2 * PG - ctx_size / 2 - 5;
    offs[3] = 3 * PG - ctx_room - 1;

    /* Into buffers that cross a page boundary, and one that does not. */
    for ( i = 0; i < sizeof(offs) / sizeof(offs[0]); i++ )
    {
        char name[96];

        b = hbuf(3);
        off = offs[i];
        snprintf(name, sizeof(name), "hvmctx: gethvmcontext into +%#zx (%zu page(s))",
                 off, (off + ctx_size - 1) / PG - off / PG + 1);
        n = 0;
        rc = ctx_raw(XEN_DOMCTL_gethvmcontext, b + off, ctx_room, PG - 50, &n);
        bad = poison_broken(b, 3 * PG, off, ctx_size);
        if ( !rc )
        {
            memcpy(cmp, b + off, ctx_size);
            ctx_walk(cmp, ctx_size, true);
        }
        if ( rc || bad >= 0 )
            result(false, name, rc ? "errno %ld" : "byte +%#lx outside it changed",
                   rc ? (long)rc : bad);
        else if ( n != ctx_size )
            result(false, name, "%u bytes, the library read %u", n, ctx_size);
        else if ( memcmp(cmp, ref_ctx, ctx_size) )
        {
            result(false, name, "differs from the library's read");
            show_diff(cmp, ref_ctx, ctx_size);
        }
        else
            result(true, name, "%u bytes", ctx_size);
        xencall_free_buffer_pages(xcall, b, 3);
    }
    b = hbuf(3);
    off = 2 * PG - ctx_size / 2 - 5;

    /* Put the library's copy back from a straddling buffer, read it again. */
    memset(b, POISON, 3 * PG);
    if ( xc_domain_hvm_getcontext(xch, dom, cmp, ctx_room) < 0 )
        die("gethvmcontext of d%u: %s\n", dom, strerror(errno));
    memcpy(b + off, cmp, ctx_size);
    rc = ctx_raw(XEN_DOMCTL_sethvmcontext, b + off, ctx_size, PG - 8, NULL);
    if ( !rc && xc_domain_hvm_getcontext(xch, dom, cmp, ctx_room) >= 0 )
        ctx_walk(cmp, ctx_size, true);
    result(!rc && !memcmp(cmp, ref_ctx, ctx_size),
           "hvmctx: sethvmcontext from across a page boundary, read back",
           rc ? "errno %d" : NULL, rc);
    xencall_free_buffer_pages(xcall, b, 3);
    free(cmp);
}

/* ---- XEN_SYSCTL_getdomaininfolist ---------------------------------------- */

static void check_dominfo(void)
{
    xc_domaininfo_t ref[16];
    int n = xc_domain_getinfolist(xch, 0, 16, ref), i;
    size_t len = 16 * sizeof(ref[0]), off = PG - sizeof(ref[0]) - 20;
    uint8_t *b = hbuf(3);
    struct xen_sysctl *s = (struct xen_sysctl *)(b + 2 * PG - 30);
    xc_domaininfo_t got[16];
    bool same = true;
    int rc;

    memset(s, 0, sizeof(*s));
    s->cmd = XEN_SYSCTL_getdomaininfolist;
    s->u.getdomaininfolist.first_domain = 0;
    s->u.getdomaininfolist.max_domains = 16;
    set_xen_guest_handle_raw(s->u.getdomaininfolist.buffer,
                             (xc_domaininfo_t *)(b + off));
    rc = raw_sysctl(s) ? errno : 0;
    memcpy(got, b + off, len);
    if ( !rc && (int)s->u.getdomaininfolist.num_domains == n )
        for ( i = 0; i < n; i++ )
            same &= got[i].domain == ref[i].domain &&
                    got[i].max_pages == ref[i].max_pages &&
                    got[i].shared_info_frame == ref[i].shared_info_frame;
    result(n > 0 && !rc && (int)s->u.getdomaininfolist.num_domains == n && same,
           "dominfo: getdomaininfolist across page boundaries",
           rc ? "errno %d" : "%d domains", rc ? rc : n);
    xencall_free_buffer_pages(xcall, b, 3);
}

/* ---- the console, both ways ---------------------------------------------- */

/* readconsole by hand into buf (room count) from *index; returns bytes or -errno. */
static long readcon(char *buf, uint32_t count, uint32_t *index, bool incremental)
{
    uint8_t *eb = hbuf(2);
    struct xen_sysctl *s = (struct xen_sysctl *)(eb + PG - 24);
    long rc;

    memset(s, 0, sizeof(*s));
    s->cmd = XEN_SYSCTL_readconsole;
    s->u.readconsole.incremental = incremental;
    s->u.readconsole.index = *index;
    s->u.readconsole.count = count;
    set_xen_guest_handle_raw(s->u.readconsole.buffer, buf);
    rc = raw_sysctl(s) ? -errno : (long)s->u.readconsole.count;
    *index = s->u.readconsole.index;
    xencall_free_buffer_pages(xcall, eb, 2);
    return rc;
}

static void check_console(void)
{
    enum { LINES = 60, LINE = 100 };
    uint8_t *w = hbuf(3), *r = hbuf(5), *r0 = hbuf(4);
    char *text = (char *)w + 3000, *rd = (char *)r + 50, *p, *line;
    uint32_t pos = 0, pos2, idx;
    unsigned int i, found = 0, wrong = 0;
    long n, n0 = 0;
    int tries;

    /* The whole ring at an offset crossing four boundaries vs at 0. */
    for ( tries = 0; tries < 3; tries++ )
    {
        idx = 0;
        n0 = readcon((char *)r0, 16384, &idx, false);
        pos2 = 0;
        n = readcon((char *)r + 2001, 16384, &pos2, false);
        if ( n0 >= 0 && n == n0 && pos2 == idx )
            break;
    }
    result(n0 > 0 && n == n0 && !memcmp(r + 2001, r0, n0) &&
           poison_broken(r, 5 * PG, 2001, n0) < 0,
           "console: the ring read at +2001 (16 KiB room) is the ring read at 0",
           "%ld bytes", n0);

    /* Where the ring ends now. */
    if ( readcon((char *)r0, 16384, &pos, true) < 0 )
        die("readconsole: %s\n", strerror(errno));

    for ( i = 0; i < LINES; i++ )
    {
        int k = snprintf(text + i * LINE, LINE + 1, "%s %02u ", TAG, i);

        for ( ; k < LINE - 1; k++ )
            text[i * LINE + k] = 'a' + (i * 7 + k) % 26;
        text[i * LINE + LINE - 1] = '\n';
    }
    if ( xencall3(xcall, __HYPERVISOR_console_io, CONSOLEIO_write, LINES * LINE,
                  (uintptr_t)text) )
    {
        result(false, "console: CONSOLEIO_write across two page boundaries",
               "errno %d", errno);
        goto out;
    }
    memset(r, POISON, 5 * PG);
    n = readcon(rd, 3 * PG - 100, &pos, true);
    if ( n < 0 )
    {
        result(false, "console: read back across page boundaries", "errno %ld", -n);
        goto out;
    }
    rd[n] = '\0';
    /* Each of our lines comes back as "(d0) <line>", in order. */
    for ( line = rd; line && *line; line = p ? p + 1 : NULL )
    {
        char *t;

        p = strchr(line, '\n');
        if ( p )
            *p = '\0';
        t = strstr(line, TAG);
        if ( !t )
            continue;
        if ( found < LINES && strlen(t) == LINE - 1 &&
             !memcmp(t, text + found * LINE, LINE - 1) )
            found++;
        else
            wrong++;
    }
    result(found == LINES && !wrong,
           "console: CONSOLEIO_write of 6000 bytes from +3000, read back at +50",
           "%u of %u lines back intact, %u wrong", found, LINES, wrong);
 out:
    xencall_free_buffer_pages(xcall, w, 3);
    xencall_free_buffer_pages(xcall, r, 5);
    xencall_free_buffer_pages(xcall, r0, 4);
}

/* ---- pages the kernel has not made present or writable ------------------- */

static void check_faults(void)
{
    const size_t len = nr_blocks * sizeof(uint64_t);
    uint8_t *m = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    volatile uint8_t sink;
    size_t off = PG - len / 2;
    long bad;
    uint8_t *c;
    int rc;

    if ( m == MAP_FAILED )
        die("mmap: %s\n", strerror(errno));

    /* Page 0 written (present, writable), page 1 never touched. */
    memset(m, POISON, PG);
    rc = blocks_raw(m + off, nr_blocks, 0, NULL);
    bad = poison_broken(m, PG, PG, 0);
    result(rc == EFAULT && bad < 0,
           "fault: counts running into a never-touched page: EFAULT, nothing written",
           rc == EFAULT ? NULL : "errno %d", rc);

    /* Page 1 read only: the shared zero page, mapped read-only. */
    sink = m[PG];
    (void)sink;
    rc = blocks_raw(m + off, nr_blocks, 0, NULL);
    bad = poison_broken(m, PG, PG, 0);
    result(rc == EFAULT && bad < 0 && !m[PG],
           "fault: counts running into a read-only page: EFAULT, nothing written",
           rc == EFAULT ? NULL : "errno %d", rc);

    /* Written: now present and writable. */
    memset(m + PG, POISON, PG);
    rc = blocks_raw(m + off, nr_blocks, 0, NULL);
    result(!rc && !memcmp(m + off, ref_blocks, len) &&
           poison_broken(m, 2 * PG, off, len) < 0,
           "fault: the same call once the page is written", rc ? "errno %d" : NULL, rc);

    /* A context read from a page never touched (page 2): EFAULT, domain unchanged. */
    c = m + 2 * PG - ctx_size / 2;
    memcpy(c, ref_ctx, ctx_size / 2);       /* the first half only: page 1 */
    rc = ctx_raw(XEN_DOMCTL_sethvmcontext, c, ctx_size, 0, NULL);
    {
        uint8_t *now = malloc(ctx_room);
        bool same = now && xc_domain_hvm_getcontext(xch, dom, now, ctx_room) >= 0 &&
                    ctx_walk(now, ctx_size, true) && !memcmp(now, ref_ctx, ctx_size);

        result(rc == EFAULT && same,
               "fault: a context read from a never-touched page: EFAULT, domain unchanged",
               rc == EFAULT ? NULL : "errno %d", rc);
        free(now);
    }
    munmap(m, 3 * PG);
}

int main(int argc, char **argv)
{
    xc_domaininfo_t info;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if ( argc != 2 )
    {
        fprintf(stderr, "usage: xen-hcall-buffer-check DOMID\n");
        return 2;
    }
    dom = strtoul(argv[1], NULL, 0);
    xch = xc_interface_open(NULL, NULL, 0);
    if ( !xch )
        die("cannot open the control interface: %s\n", strerror(errno));
    xcall = xc_interface_xcall_handle(xch);
    if ( xc_domain_getinfolist(xch, dom, 1, &info) != 1 || info.domain != dom )
        die("no domain %u\n", dom);
    printf("hypercall buffers from %s\n", xencall_buffers_never_fault(xcall)
           ? "the kernel's buffer device (/dev/xen/hypercall)"
           : "locked anonymous memory");

    if ( xc_domain_pause(xch, dom) )
        die("pause d%u: %s\n", dom, strerror(errno));
    check_blocks();
    check_placement();
    check_hvmctx();
    check_dominfo();
    check_faults();
    if ( xc_domain_unpause(xch, dom) )
        die("unpause d%u: %s\n", dom, strerror(errno));
    check_console();

    printf("hcall-buffer-check: %u passed, %u failed\n", passed, failed);
    xc_interface_close(xch);
    return failed ? 1 : 0;
}

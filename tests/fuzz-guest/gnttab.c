/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The grant-table class (gnttab): operations on our own grant table
 * against a model of it, each result checked exactly.  We grant some of
 * our pages to ourselves (a domain may map its own grants, as in Xen),
 * map, unmap, copy, revoke and switch versions at random, with good and
 * bad arguments, and hold the hypervisor to:
 *
 *   - every status the one Xen gives for that model state (okay,
 *     general_error, bad_gntref, bad_domain, bad_handle, bad_copy_arg,
 *     permission_denied; -EBUSY for a version switch while mapped);
 *   - a mapping shows the granted page, and writes through it land there;
 *   - a copy moves exactly the bytes asked, nothing else changes;
 *   - GTF_reading/GTF_writing are set while (and only while) a grant is
 *     mapped, so revoking succeeds exactly when it is not;
 *   - at the end, with everything unmapped, nothing is pinned.
 *
 * The unstructured hypercall class (hcall.c) also calls grant_table_op
 * with random arguments, kept off this model's grants (gnttab_sanitize).
 */
#include "fuzz.h"
#include "events.h"
#include "gnttab.h"

#define NREFS   8
#define REF0    16                      /* our grants: refs 16..23 */
#define SLOT(i) (GNT_MAP_GFN + (i))     /* where ref REF0 + i is mapped */

static uint8_t pages[NREFS][PAGE_SIZE] __aligned(PAGE_SIZE);
static uint8_t model[NREFS][PAGE_SIZE];

static struct {
    bool granted, ro;                   /* the entry, as we wrote it */
    bool mapped, map_ro;                /* our one mapping of it */
    grant_handle_t handle;
} refs[NREFS];

static domid_t self;
static bool ready;
static unsigned long checks, maps, copies, busy_switches, switches;

#define expect(what, got, want) do {                                          \
    long g_ = (got), w_ = (want);                                             \
    checks++;                                                                 \
    if ( g_ != w_ )                                                           \
        fuzz_fail("gnttab: %s: %ld, expected %ld\n", what, g_, w_);          \
} while ( 0 )

bool gnttab_slot_gfn(unsigned long gfn)
{
    return gfn >= SLOT(0) && gfn < SLOT(NREFS);
}

bool gnttab_model_handle(grant_handle_t h)
{
    unsigned int i;

    for ( i = 0; i < NREFS; i++ )
        if ( refs[i].mapped && refs[i].handle == h )
            return true;
    return false;
}

static void set_up(void)
{
    unsigned int i, k;

    self = cpuid_domid();
    expect("gnttab_setup(1, 1)", gnttab_setup(1, 1), 0);
    for ( i = 0; i < NREFS; i++ )
    {
        for ( k = 0; k < PAGE_SIZE / 8; k++ )
            ((uint64_t *)pages[i])[k] = fuzz_rand();
        memcpy(model[i], pages[i], PAGE_SIZE);
    }
    ready = true;
}

static void check_pages(const char *after)
{
    unsigned int i;

    for ( i = 0; i < NREFS; i++ )
        if ( memcmp(pages[i], model[i], PAGE_SIZE) )
            fuzz_fail("gnttab: page %u changed unexpectedly after %s\n", i, after);
}

/* What Xen says about mapping ref i (we map each ref at most once). */
static int16_t expected_map(unsigned int i, bool ro)
{
    if ( !refs[i].granted || (refs[i].ro && !ro) )
        return GNTST_general_error;
    return GNTST_okay;
}

static void mapped_now(unsigned int i, bool ro, grant_handle_t h)
{
    volatile uint8_t *p = gfn_va(SLOT(i));
    unsigned int off;

    maps++;
    refs[i].mapped = true;
    refs[i].map_ro = ro;
    refs[i].handle = h;
    expect("flags of a mapped grant", gnttab_in_use(REF0 + i),
           GTF_reading | (ro ? 0 : GTF_writing));
    if ( memcmp((const void *)p, model[i], PAGE_SIZE) )
        fuzz_fail("gnttab: the mapping of ref %u does not show its page\n", REF0 + i);
    if ( !ro )
    {
        off = fuzz_below(PAGE_SIZE);
        p[off] = model[i][off] = (uint8_t)fuzz_rand();
        if ( pages[i][off] != model[i][off] )
            fuzz_fail("gnttab: a write through ref %u's mapping did not land\n", REF0 + i);
    }
}

static void op_grant(unsigned int i)
{
    if ( refs[i].granted || refs[i].mapped )
        return;
    refs[i].granted = true;
    refs[i].ro = fuzz_chance(30);
    gnttab_grant(REF0 + i, fuzz_chance(95) ? self : 0, va_gfn(pages[i]),
                 refs[i].ro ? GTF_readonly : 0);
    if ( gnttab_version == 1 ? gnttab_v1[REF0 + i].domid != self
                             : gnttab_v2[REF0 + i].hdr.domid != self )
        refs[i].granted = false;        /* granted to d0: not ours to map */
}

static void op_revoke(unsigned int i)
{
    bool ok = gnttab_end_access(REF0 + i);

    expect("revoke succeeds exactly when not mapped", ok, !refs[i].mapped);
    if ( ok )
        refs[i].granted = false;
    else if ( gnttab_version == 2 )
        gnttab_v2[REF0 + i].hdr.flags =     /* undo the v2 attempt */
            GTF_permit_access | (refs[i].ro ? GTF_readonly : 0);
}

static void op_map(unsigned int i)
{
    bool ro = fuzz_chance(40);
    grant_handle_t h = ~0u;
    int16_t rc;

    if ( refs[i].mapped )
        return;
    trace("gnttab: map ref %u%s\n", REF0 + i, ro ? " ro" : "");
    rc = gnttab_map(self, REF0 + i, SLOT(i), GNTMAP_host_map | (ro ? GNTMAP_readonly : 0), &h);
    expect("map status", rc, expected_map(i, ro));
    if ( rc == GNTST_okay )
        mapped_now(i, ro, h);
    else
        expect("flags after a failed map", gnttab_in_use(REF0 + i), 0);
}

static void op_unmap(unsigned int i)
{
    grant_handle_t h;

    if ( !refs[i].mapped )
    {
        /* A handle that maps nothing of ours. */
        do
            h = fuzz_chance(50) ? fuzz_below(300) : (grant_handle_t)fuzz_rand();
        while ( gnttab_model_handle(h) );
        expect("unmap of a stale handle", gnttab_unmap(SLOT(i), h), GNTST_bad_handle);
        return;
    }
    if ( fuzz_chance(20) )
    {
        expect("unmap at the wrong gfn",
               gnttab_unmap(SLOT((i + 1) % NREFS) + NREFS, refs[i].handle), GNTST_general_error);
        return;
    }
    expect("unmap", gnttab_unmap(SLOT(i), refs[i].handle), GNTST_okay);
    refs[i].mapped = false;
    expect("flags after unmap", gnttab_in_use(REF0 + i), 0);
}

static void op_copy(void)
{
    unsigned int s = fuzz_below(NREFS), d = fuzz_below(NREFS);
    bool sg = fuzz_chance(50), dg = fuzz_chance(50);
    uint16_t soff = fuzz_chance(80) ? fuzz_below(PAGE_SIZE) : fuzz_below(0x10000);
    uint16_t doff = fuzz_chance(80) ? fuzz_below(PAGE_SIZE) : fuzz_below(0x10000);
    uint16_t len = fuzz_chance(80) ? fuzz_below(PAGE_SIZE - max(soff, doff) % PAGE_SIZE + 1)
                                   : fuzz_below(0x2000);
    bool numeric_self = !sg && fuzz_chance(5);
    struct gnttab_copy c = {
        .source = { .domid = numeric_self ? self : DOMID_SELF, .offset = soff },
        .dest = { .domid = DOMID_SELF, .offset = doff },
        .len = len,
        .flags = (sg ? GNTCOPY_source_gref : 0) | (dg ? GNTCOPY_dest_gref : 0),
    };
    int16_t want;

    if ( sg )
        c.source.u.ref = REF0 + s;
    else
        c.source.u.gmfn = va_gfn(pages[s]);
    if ( dg )
        c.dest.u.ref = REF0 + d;
    else
        c.dest.u.gmfn = va_gfn(pages[d]);

    if ( numeric_self )
        want = GNTST_permission_denied;
    else if ( sg && !refs[s].granted )
        want = GNTST_general_error;
    else if ( dg && (!refs[d].granted || refs[d].ro) )
        want = GNTST_general_error;
    else if ( soff + len > PAGE_SIZE || doff + len > PAGE_SIZE )
        want = GNTST_bad_copy_arg;
    else
        want = GNTST_okay;

    trace("gnttab: copy %u%s+%u -> %u%s+%u, %u bytes\n", s, sg ? "g" : "", soff,
          d, dg ? "g" : "", doff, len);
    expect("copy status", gnttab_copy_one(&c), want);
    if ( want == GNTST_okay )
    {
        memmove(model[d] + doff, model[s] + soff, len);
        copies++;
    }
    expect("source flags after a copy", gnttab_in_use(REF0 + s),
           refs[s].mapped ? GTF_reading | (refs[s].map_ro ? 0 : GTF_writing) : 0);
    expect("dest flags after a copy", gnttab_in_use(REF0 + d),
           refs[d].mapped ? GTF_reading | (refs[d].map_ro ? 0 : GTF_writing) : 0);
    check_pages("a copy");
}

static void op_version(void)
{
    struct gnttab_set_version sv = { .version = 1 + fuzz_below(2) };
    unsigned int i, want = sv.version;
    bool busy = false;
    long rc;

    for ( i = 0; i < NREFS; i++ )
        busy |= refs[i].mapped;
    if ( sv.version == gnttab_version )
        busy = false;
    trace("gnttab: set_version %u\n", sv.version);
    rc = hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1);
    expect("set_version", rc, busy ? -XEN_EBUSY : 0);
    busy_switches += busy;
    switches += !rc && want != gnttab_version;
    if ( busy )
        want = gnttab_version;
    expect("version reported", sv.version, want);
    if ( rc || want == gnttab_version )
        return;
    /* Everything past the reserved entries is gone with the old layout. */
    for ( i = 0; i < NREFS; i++ )
        refs[i].granted = false;
    gnttab_version = want;
    if ( want == 2 )
    {
        expect("status frame 0 mapped",
               gnttab_map_frame(DOMID_SELF, XENMAPIDX_grant_table_status, GNT_STATUS_GFN), 0);
        gnttab_status = gfn_va(GNT_STATUS_GFN);
    }
}

/* Several maps in one call, some of them bad: each its own status. */
static void op_batch(void)
{
    struct gnttab_map_grant_ref ops[6];
    unsigned int n = 2 + fuzz_below(5), k, i;
    unsigned int which[6];
    int16_t want[6];
    bool used[NREFS] = { false };

    for ( k = 0; k < n; k++ )
    {
        i = fuzz_below(NREFS);
        which[k] = i;
        ops[k] = (struct gnttab_map_grant_ref){
            .host_addr = (uint64_t)SLOT(i) << PAGE_SHIFT, .ref = REF0 + i, .dom = self,
            .flags = GNTMAP_host_map | (fuzz_chance(40) ? GNTMAP_readonly : 0),
            .status = 0x7777,
        };
        if ( refs[i].mapped || used[i] )
        {
            /* Not twice: make it a bad one instead. */
            switch ( fuzz_below(3) )
            {
            case 0: ops[k].ref = 0x10000000; want[k] = GNTST_bad_gntref; break;
            case 1: ops[k].dom = DOMID_SELF; want[k] = GNTST_bad_domain; break;
            default: ops[k].flags = 0; want[k] = GNTST_bad_gntref; break;
            }
            which[k] = NREFS;
            continue;
        }
        used[i] = true;
        want[k] = expected_map(i, ops[k].flags & GNTMAP_readonly);
    }
    expect("a batch of maps", hypercall_grant_table_op(GNTTABOP_map_grant_ref, ops, n), 0);
    for ( k = 0; k < n; k++ )
    {
        expect("a batch entry's status", ops[k].status, want[k]);
        if ( which[k] < NREFS && ops[k].status == GNTST_okay )
            mapped_now(which[k], ops[k].flags & GNTMAP_readonly, ops[k].handle);
    }
}

static void op_query(void)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    struct gnttab_get_version gv = { .dom = DOMID_SELF };

    expect("query_size", hypercall_grant_table_op(GNTTABOP_query_size, &q, 1), 0);
    expect("query_size status", q.status, GNTST_okay);
    expect("nr_frames", q.nr_frames, 1);
    expect("get_version", hypercall_grant_table_op(GNTTABOP_get_version, &gv, 1), 0);
    expect("version", gv.version, gnttab_version);
}

void fuzz_gnttab(void)
{
    unsigned int i = fuzz_below(NREFS);

    if ( !ready )
        set_up();
    switch ( fuzz_below(12) )
    {
    case 0: case 1: op_grant(i); break;
    case 2:         op_revoke(i); break;
    case 3: case 4: op_map(i); break;
    case 5: case 6: op_unmap(i); break;
    case 7: case 8: op_copy(); break;
    case 9:         op_version(); break;
    case 10:        op_batch(); break;
    default:        op_query(); break;
    }
    check_pages("a grant operation");
}

/* The end of a run: everything undone, nothing pinned, a switch allowed. */
void fuzz_gnttab_finish(void)
{
    struct gnttab_set_version sv = { .version = gnttab_version == 1 ? 2 : 1 };
    unsigned int i;

    if ( !ready )
        return;
    for ( i = 0; i < NREFS; i++ )
    {
        if ( refs[i].mapped )
            expect("final unmap", gnttab_unmap(SLOT(i), refs[i].handle), GNTST_okay);
        refs[i].mapped = false;
        expect("final flags", gnttab_in_use(REF0 + i), 0);
        if ( refs[i].granted )
            expect("final revoke", gnttab_end_access(REF0 + i), true);
    }
    expect("a version switch with nothing mapped",
           hypercall_grant_table_op(GNTTABOP_set_version, &sv, 1), 0);
    printk("summary: gnttab: %lu checks; %lu maps, %lu copies, %lu version switches, "
           "%lu refused while mapped\n", checks, maps, copies, switches, busy_switches);
}

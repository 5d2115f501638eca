/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hostile guest, in the shape of XTF's fuzzing tests: from a seed, a
 * pseudo-random sequence of hypercalls (every number 0..63 and beyond,
 * random sub-ops, boundary arguments), MSR reads and writes, control
 * register writes, port I/O, deliberate exceptions, FIFO event channel
 * control-block operations, and operations on its own grant table checked
 * against a model (gnttab.c).  Every fault it
 * provokes is caught through the exception table, counted, and execution
 * goes on; every hypercall result must be a success or one of Xen's error
 * numbers (and a domU's control calls -EPERM), every fault the one the
 * architecture says, and the guest's own state (code, control registers,
 * EFER) must survive.  A summary of counts ends the run.
 *
 * Guest command line:
 *   seed=<n>     the seed (default 1); the same seed repeats the same run
 *   iters=<n>    operations (default 2000)
 *   ops=<list>   classes, comma-separated: hcall msr cr io exc apic fifo gnttab (the
 *                default set); msr-bad cr0-high cr0-pg invd hlt io-string
 *                (off by default: see fuzz.h) widen the operations of their
 *                base class (msr, cr, exc, exc and hcall, io);
 *                "default", "all"; a leading '-' removes one, e.g.
 *                ops=all,-hlt
 *   trace=1      print every operation before it is made
 *
 * Run it as a domU (domain 1 or later) with one vCPU: as the control
 * domain its control calls would succeed, and a second vCPU could be
 * started on a random register state.
 */
#include "fuzz.h"
#include "public/arch-x86/cpuid.h"

const char test_title[] = "Hostile guest: seeded hypercall/MSR/CR/I/O/exception fuzzer";

const char *const fuzz_class_names[FC_NR] = {
    [FC_HCALL] = "hcall", [FC_MSR] = "msr", [FC_CR] = "cr", [FC_IO] = "io",
    [FC_EXC] = "exc", [FC_APIC] = "apic", [FC_FIFO] = "fifo",
    [FC_GNTTAB] = "gnttab", [FC_MSR_BAD] = "msr-bad",
    [FC_CR0_HIGH] = "cr0-high",
    [FC_CR0_PG] = "cr0-pg", [FC_INVD] = "invd", [FC_HLT] = "hlt",
    [FC_IO_STRING] = "io-string",
};

/*
 * msr-bad, cr0-high, cr0-pg and invd once took the host down or hung it;
 * fixed (docs/misc/security.md), they are in the default set.
 */
#define FC_DEFAULT ((1u << FC_HCALL) | (1u << FC_MSR) | (1u << FC_CR) | \
                    (1u << FC_IO) | (1u << FC_EXC) | (1u << FC_APIC) | (1u << FC_FIFO) | \
                    (1u << FC_GNTTAB) | \
                    (1u << FC_MSR_BAD) | (1u << FC_CR0_HIGH) | (1u << FC_CR0_PG) | \
                    (1u << FC_INVD))
#define FC_ALL     ((1u << FC_NR) - 1)

unsigned int fuzz_classes = FC_DEFAULT;
bool fuzz_trace;
uint8_t *scratch;
unsigned long scratch_size;

static uint64_t rng_state;
static unsigned long image_lo, image_hi;        /* never hand these out */

uint64_t fuzz_rand(void)
{
    uint64_t x = (rng_state += 0x9e3779b97f4a7c15ULL);

    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t fuzz_pointer(void)
{
    static const uint64_t bad[] = {
        0, 8, 0xff8, UNMAPPED_VA, NOT_RAM_VA, 0xfffff000UL,
        0x00007ffffffff000UL, 0x0000800000000000UL,     /* last canonical page, first non- */
        0x8000000000000000UL, 0xdead000000000000UL,
        0xffff800000000000UL, 0xfffffffffffff000UL, ~0UL,
    };
    unsigned long r = fuzz_below(8);

    if ( r < 3 )                                 /* in the scratch area */
        return (unsigned long)scratch + fuzz_below(scratch_size);
    if ( r == 3 )                                /* its last bytes */
        return (unsigned long)scratch + scratch_size - 1 - fuzz_below(64);
    return bad[fuzz_below(ARRAY_SIZE(bad))];
}

uint64_t fuzz_value(void)
{
    static const uint64_t edge[] = {
        0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7ff0, 0x7ff4,
        0x7fffffff, 0x80000000, 0xffffffff, 0x100000000UL,
        0x7fffffffffffffffUL, 0x8000000000000000UL, ~0UL - 1, ~0UL,
    };
    uint64_t v;

    switch ( fuzz_below(6) )
    {
    case 0: v = edge[fuzz_below(ARRAY_SIZE(edge))]; break;
    case 1: v = fuzz_below(64); break;
    case 2: v = fuzz_pointer(); break;
    case 3: v = (uint32_t)fuzz_rand(); break;
    case 4: v = 1UL << fuzz_below(64); break;
    default: v = fuzz_rand(); break;
    }

    /*
     * An address inside this kernel would let the hypervisor write over our
     * code or stacks, which is the guest shooting itself, not a finding:
     * move it above RAM (not guest memory: the copy fails).
     */
    if ( v >= image_lo && v < image_hi )
        v |= 0x40000000UL;
    return v;
}

void fuzz_fill_scratch(unsigned long bytes)
{
    uint64_t *p = (uint64_t *)scratch;
    unsigned long i;

    for ( i = 0; i < bytes / 8 && i < scratch_size / 8; i++ )
        p[i] = fuzz_value();
}

/* ---- counting -------------------------------------------------------------- */

/* Xen's error names by number (aliases such as EWOULDBLOCK: the last wins). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const char *const xen_errno_names[] = {
#define XEN_ERRNO(name, value) [value] = #name,
#include "public/errno.h"
};
#pragma GCC diagnostic pop

static unsigned long ops_by_class[FC_NR], hc_ok, hc_err[ARRAY_SIZE(xen_errno_names)];
static unsigned long faults[X86_NR_EXCEPTIONS], failures;

void count_hcall(long rc)
{
    if ( rc >= 0 )
        hc_ok++;
    else if ( -rc < (long)ARRAY_SIZE(xen_errno_names) && xen_errno_names[-rc] )
        hc_err[-rc]++;
    else
        fuzz_fail("hypercall returned %ld: neither a result nor a Xen errno\n", rc);
}

void count_fault(unsigned long ex)
{
    faults[EXINFO_VECTOR(ex) % X86_NR_EXCEPTIONS]++;
}

void fuzz_fail(const char *fmt, ...)
{
    va_list args;

    failures++;
    printk("FAIL: ");
    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
    xtf_failure(NULL);
}

/* ---- set-up -------------------------------------------------------------- */

static void parse_ops(const char *s)
{
    while ( *s )
    {
        size_t n = strcspn(s, ",");
        bool del = *s == '-';
        unsigned int bits = 0, c;

        if ( n - del == 7 && !strncmp(s + del, "default", 7) )
            bits = FC_DEFAULT;
        else if ( n - del == 3 && !strncmp(s + del, "all", 3) )
            bits = FC_ALL;
        for ( c = 0; c < FC_NR && !bits; c++ )
            if ( strlen(fuzz_class_names[c]) == n - del &&
                 !strncmp(s + del, fuzz_class_names[c], n - del) )
                bits = 1u << c;
        if ( !bits )
            printk("ops: unknown class \"%.*s\" ignored\n", (int)n, s);
        fuzz_classes = del ? fuzz_classes & ~bits : fuzz_classes | bits;
        s += n + (s[n] == ',');
    }
}

extern const char _image_start[], _image_end[];
extern const char __stop_ex_table[];

/* The constant part of our image: code, read-only data, exception table. */
static uint64_t image_checksum(void)
{
    const uint64_t *p = (const uint64_t *)_image_start;
    uint64_t sum = 0;

    for ( ; p < (const uint64_t *)__stop_ex_table; p++ )
        sum = (sum ^ *p) * 0x100000001b3ULL;
    return sum;
}

/* Scratch = the last 16 KiB of RAM below the start-info page; then wipe both. */
static bool scratch_init(void)
{
    const struct hvm_memmap_table_entry *mm;
    unsigned long top = 0, i;

    if ( !start_info || !start_info->memmap_paddr )
        return false;
    mm = (const void *)(uintptr_t)start_info->memmap_paddr;
    for ( i = 0; i < start_info->memmap_entries; i++ )
        if ( mm[i].type == XEN_HVM_MEMMAP_TYPE_RAM && mm[i].addr + mm[i].size > top )
            top = mm[i].addr + mm[i].size;

    scratch_size = 16 * 1024;
    scratch = (uint8_t *)(top - scratch_size);
    image_lo = (unsigned long)_image_start;
    image_hi = (unsigned long)scratch;
    if ( (unsigned long)scratch < (unsigned long)_image_end + 64 * 1024 )
        return false;
    /* The start info is read: nothing of ours is left above the scratch. */
    start_info = NULL;
    cmdline = "";
    memset(scratch, 0, scratch_size + PAGE_SIZE);
    return true;
}

static void summary(unsigned long done)
{
    unsigned int c, i;

    printk("summary: %lu operations:", done);
    for ( c = 0; c < FC_NR; c++ )
        if ( ops_by_class[c] )
            printk(" %s=%lu", fuzz_class_names[c], ops_by_class[c]);
    printk("\nsummary: hypercalls: %lu succeeded, errors:", hc_ok);
    for ( i = 0; i < ARRAY_SIZE(hc_err); i++ )
        if ( hc_err[i] )
            printk(" %s=%lu", xen_errno_names[i], hc_err[i]);
    printk("\nsummary: faults by vector:");
    for ( i = 0; i < X86_NR_EXCEPTIONS; i++ )
        if ( faults[i] )
            printk(" %u=%lu", i, faults[i]);
    printk("\n");
    fuzz_apic_summary();
    printk("summary: %lu failures\n", failures);
}

void test_main(void)
{
    unsigned long seed = cmdline_ulong("seed", 1), iters = cmdline_ulong("iters", 2000);
    unsigned long i;
    char ops[128];
    uint64_t sum;
    struct cpuid_leaf l;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    cpuid(xen_cpuid_base + 4, &l);
    if ( (l.a & XEN_HVM_CPUID_DOMID_PRESENT) && l.c == 0 )
        return xtf_error("Error: run this as a domU, not as the control domain\n");
    if ( vcpu_count() != 1 )
        return xtf_error("Error: run this with one vCPU\n");
    if ( cmdline_get_str("ops", ops, sizeof(ops)) )
    {
        fuzz_classes = 0;
        parse_ops(ops);
    }
    fuzz_trace = cmdline_ulong("trace", 0);
    if ( !scratch_init() )
        return xtf_error("Error: no room for the scratch area\n");

    rng_state = seed;
    printk("fuzz: seed %lu, %lu operations, classes", seed, iters);
    for ( i = 0; i < FC_NR; i++ )
        if ( fuzz_enabled(i) )
            printk(" %s", fuzz_class_names[i]);
    printk("\nfuzz: scratch [%#lx, %#lx)\n", (unsigned long)scratch,
           (unsigned long)scratch + scratch_size);

    fuzz_apic_init();
    sum = image_checksum();
    cpu_state_save();

    for ( i = 0; i < iters; i++ )
    {
        enum fuzz_class c;
        unsigned int tries = 0;

        do
            c = fuzz_below(FC_BASE_NR);
        while ( !fuzz_enabled(c) && ++tries < 1000 );
        if ( !fuzz_enabled(c) )
            break;

        switch ( c )
        {
        case FC_HCALL:  fuzz_hcall(); break;
        case FC_MSR:    fuzz_msr(); break;
        case FC_CR:     fuzz_cr(); break;
        case FC_IO:     fuzz_io(); break;
        case FC_APIC:   fuzz_apic(); break;
        case FC_FIFO:   fuzz_fifo(); break;
        case FC_GNTTAB: fuzz_gnttab(); break;
        default:        fuzz_exc(); break;
        }
        ops_by_class[c]++;
        cpu_state_check(fuzz_class_names[c]);

        if ( (i & 63) == 63 && image_checksum() != sum )
        {
            fuzz_fail("our code or read-only data changed (before op %lu)\n", i + 1);
            break;
        }
        if ( (i + 1) % 500 == 0 )
            printk("fuzz: %lu operations\n", i + 1);
        if ( failures > 20 )
            break;
    }

    fifo_final_check();
    fuzz_gnttab_finish();
    summary(i);
    if ( !failures )
        xtf_success("Success: %lu operations, every one failed or faulted as it should\n", i);
}

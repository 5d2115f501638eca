/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake libxenctrl and libxendevicemodel for testing libxl and xl on the
 * host: the functions libxl calls, with xenctrl.h's signatures, serving a
 * canned set of domains and recording every call.
 *
 * State lives in the text file $MOCK_XC_STATE (re-read by each process,
 * rewritten after each change, so a sequence of xl commands sees one
 * machine); without it, a built-in machine of three domains is used and
 * nothing is saved.  Each call is appended to $MOCK_XC_LOG, one line:
 * "pause 1", "shadow_op 5 enable_logdirty", "logdirty 5 clean pages=32768".
 *
 * State file lines (key=value fields, any order; '#' comments):
 *   domain <id> uuid=<uuid> flags=<running,blocked,paused,shutdown,dying>
 *          reason=<SHUTDOWN_*> tot=<pages> max=<pages> vcpus=<online>
 *          maxvcpu=<id> cpu=<ns> type=<pv|pvh|hvm> logdirty=<0|1>
 *          vram=<first>+<nr> mech=<none|pml|wp> maxpfn=<pfn>
 *          dirty=<pfn ranges> write=<pfn ranges> vdirtied=<n,n,...>
 *          calls=<clean>,<peek>,<vram> faults=<n>
 *          vrate=<dirtied>:<pml>:<wp>:<ple>,... (per vCPU, per sample of
 *          xc_dirty_stats_all, see there)
 *          brate=<n>,<n>,... bshift=<log2 pfns> (pages dirtied per block
 *          per sample of xc_dirty_blocks; at most 64 blocks)
 *          erate=<reason>:<n>,... (exits per vCPU per sample, see
 *          xc_vcpu_exit_counts)
 *          saturate=1 (writes_logged grows only in samples after an
 *          xc_dirty_rearm: a guest whose working set is all dirty)
 * Domains made by xc_domain_create start paused with no memory; the
 * builder's calls are logged ("create 2 vcpus=2", "setmaxmem 2 65536",
 * "populate 2 nr=32 order=9", "setcontext 2 rip=0x100040 rbx=0x3fff000");
 * foreign mappings (libxenforeignmemory, also faked here) must stay
 * within the pages populated, i.e. [0, tot).
 *   console <one line of the hypervisor's console ring>
 *   fail <function> <errno>        make that function fail (xc_domain_create,
 *                                  setmaxmem, populate, setcontext, map, ...)
 *          seed=<n> memhash=<hex>
 * Pfn ranges are "a-b,c,...", hex with 0x or decimal.  Memory: a page of
 * a domain with a seed reads as a pattern of (seed, pfn), other pages as
 * zeroes, until written through a writable foreign mapping (kept for the
 * process); 'memhash' is a digest of pages [0, tot), rewritten whenever
 * the contents are known (a seeded domain, or one this process wrote):
 * a restored domain has its source's memhash.  'write' is what
 * the guest keeps writing: after ENABLE_LOGDIRTY and after a CLEAN those
 * pages are dirty (again) (and
 * counted to the vCPUs round-robin in vdirtied).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xenctrl.h>
#include <xendevicemodel.h>
#include <xenforeignmemory.h>

#include "xc_private.h"         /* the handle the real libxenguest reads */
#include <xen/hvm/save.h>

#define MAX_DOMS 16
#define MAX_PFNS 65536                  /* pfn space of a fake domain */
#define MAX_VCPUS 8
#define MAX_LINES 64
#define MAX_BLOCKS 64
#define MAX_ERATES 8

struct fake_dom {
    uint32_t id;
    uint8_t uuid[16];
    unsigned int flags;                 /* XEN_DOMINF_* */
    unsigned int reason;
    uint64_t tot, max, cpu;
    unsigned int vcpus, maxvcpu;
    char type[8];
    int logdirty;
    uint64_t vram_first;
    uint32_t vram_nr;
    int mech;                           /* XEN_DIRTY_MECH_* */
    uint64_t maxpfn;
    uint8_t dirty[MAX_PFNS / 8];
    uint8_t write[MAX_PFNS / 8];
    uint64_t vdirtied[MAX_VCPUS];
    uint64_t vrate[MAX_VCPUS][4];       /* per sample: dirtied, pml, wp, ple */
    uint64_t brate[MAX_BLOCKS];         /* per sample of xc_dirty_blocks */
    unsigned int nr_brate, bshift;
    unsigned int erate[MAX_ERATES][2];  /* reason, exits per sample */
    unsigned int nr_erate;
    int saturate;                       /* logged writes need a re-arm */
    uint64_t clean_calls, peek_calls, vram_calls, faults, dirty_total;
    uint64_t seed;                      /* page contents: pattern of seed */
    uint64_t memhash;                   /* digest of the contents */
    uint8_t **mem;                      /* pages written by this process */
    bool touched;                       /* changed since the last save */
};

static struct {
    bool loaded;
    ino_t ino;                          /* of the state file we read */
    uint32_t destroyed[MAX_DOMS];       /* since the last save */
    int ndestroyed;
    bool console_touched;
    struct fake_dom dom[MAX_DOMS];
    int ndom;
    char *console[MAX_LINES];
    int nconsole;
    char fail_fn[MAX_LINES][48];
    int fail_errno[MAX_LINES];
    int nfail;
} m;

struct xendevicemodel_handle { int dummy; };
struct xenforeignmemory_handle { int dummy; };
static struct xc_interface_core the_xch;
static struct xendevicemodel_handle the_dmod;
static struct xenforeignmemory_handle the_fmem;

xc_hypercall_buffer_t XC__HYPERCALL_BUFFER_NAME(HYPERCALL_BUFFER_NULL) = {
    .hbuf = NULL, .param_shadow = NULL, HYPERCALL_BUFFER_INIT_NO_BOUNCE
};

/* ---- logging of calls ---------------------------------------------------- */

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...)
{
    const char *path = getenv("MOCK_XC_LOG");
    va_list ap;
    FILE *f;

    if (!path || !(f = fopen(path, "a")))
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* ---- state ------------------------------------------------------------------ */

static void bit_set(uint8_t *bm, uint64_t p) { bm[p / 8] |= 1 << (p % 8); }
static bool bit_test(const uint8_t *bm, uint64_t p)
{
    return (bm[p / 8] >> (p % 8)) & 1;
}

static void parse_ranges(uint8_t *bm, const char *s)
{
    char *copy = strdup(s), *save = NULL;

    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(tok + 1, '-');
        uint64_t a = strtoull(tok, NULL, 0), b = a;

        if (dash)
            b = strtoull(dash + 1, NULL, 0);
        for (uint64_t p = a; p <= b && p < MAX_PFNS; p++)
            bit_set(bm, p);
    }
    free(copy);
}

static void print_ranges(FILE *f, const uint8_t *bm)
{
    bool first = true;

    for (uint64_t p = 0; p < MAX_PFNS; ) {
        if (!bit_test(bm, p)) {
            p++;
            continue;
        }
        uint64_t a = p;

        while (p < MAX_PFNS && bit_test(bm, p))
            p++;
        fprintf(f, "%s%#"PRIx64, first ? "" : ",", a);
        if (p - 1 > a)
            fprintf(f, "-%#"PRIx64, p - 1);
        first = false;
    }
    if (first)
        fprintf(f, "none");
}

static void parse_uuid(uint8_t *u, const char *s)
{
    int n = 0;

    for (; *s && n < 16; s++) {
        if (*s == '-')
            continue;
        unsigned int v;

        if (sscanf(s, "%2x", &v) != 1)
            break;
        u[n++] = (uint8_t)v;
        s++;
    }
}

static const struct { const char *name; unsigned int bit; } flag_names[] = {
    { "running", XEN_DOMINF_running }, { "blocked", XEN_DOMINF_blocked },
    { "paused", XEN_DOMINF_paused }, { "shutdown", XEN_DOMINF_shutdown },
    { "dying", XEN_DOMINF_dying },
};

static void parse_field(struct fake_dom *d, const char *key, const char *val)
{
    if (!strcmp(key, "uuid")) {
        parse_uuid(d->uuid, val);
    } else if (!strcmp(key, "flags")) {
        for (size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++)
            if (strstr(val, flag_names[i].name))
                d->flags |= flag_names[i].bit;
    } else if (!strcmp(key, "reason")) {
        d->reason = strtoul(val, NULL, 0);
    } else if (!strcmp(key, "tot")) {
        d->tot = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "max")) {
        d->max = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "cpu")) {
        d->cpu = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "vcpus")) {
        d->vcpus = strtoul(val, NULL, 0);
    } else if (!strcmp(key, "maxvcpu")) {
        d->maxvcpu = strtoul(val, NULL, 0);
    } else if (!strcmp(key, "type")) {
        snprintf(d->type, sizeof(d->type), "%s", val);
    } else if (!strcmp(key, "logdirty")) {
        d->logdirty = atoi(val);
    } else if (!strcmp(key, "vram")) {
        d->vram_first = strtoull(val, NULL, 0);
        const char *plus = strchr(val, '+');
        d->vram_nr = plus ? strtoul(plus + 1, NULL, 0) : 0;
    } else if (!strcmp(key, "mech")) {
        d->mech = !strcmp(val, "pml") ? XEN_DIRTY_MECH_PML :
                  !strcmp(val, "wp") ? XEN_DIRTY_MECH_WP : XEN_DIRTY_MECH_NONE;
    } else if (!strcmp(key, "maxpfn")) {
        d->maxpfn = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "dirty")) {
        if (strcmp(val, "none"))
            parse_ranges(d->dirty, val);
    } else if (!strcmp(key, "write")) {
        if (strcmp(val, "none"))
            parse_ranges(d->write, val);
    } else if (!strcmp(key, "vdirtied")) {
        char *copy = strdup(val), *save = NULL;
        int i = 0;

        for (char *t = strtok_r(copy, ",", &save); t && i < MAX_VCPUS;
             t = strtok_r(NULL, ",", &save))
            d->vdirtied[i++] = strtoull(t, NULL, 0);
        free(copy);
    } else if (!strcmp(key, "vrate")) {
        char *copy = strdup(val), *save = NULL;
        int i = 0;

        for (char *t = strtok_r(copy, ",", &save); t && i < MAX_VCPUS;
             t = strtok_r(NULL, ",", &save), i++)
            sscanf(t, "%"SCNu64":%"SCNu64":%"SCNu64":%"SCNu64, &d->vrate[i][0],
                   &d->vrate[i][1], &d->vrate[i][2], &d->vrate[i][3]);
        free(copy);
    } else if (!strcmp(key, "brate")) {
        char *copy = strdup(val), *save = NULL;

        d->nr_brate = 0;
        for (char *t = strtok_r(copy, ",", &save); t && d->nr_brate < MAX_BLOCKS;
             t = strtok_r(NULL, ",", &save))
            d->brate[d->nr_brate++] = strtoull(t, NULL, 0);
        free(copy);
    } else if (!strcmp(key, "bshift")) {
        d->bshift = strtoul(val, NULL, 0);
    } else if (!strcmp(key, "erate")) {
        char *copy = strdup(val), *save = NULL;

        d->nr_erate = 0;
        for (char *t = strtok_r(copy, ",", &save); t && d->nr_erate < MAX_ERATES;
             t = strtok_r(NULL, ",", &save), d->nr_erate++)
            sscanf(t, "%u:%u", &d->erate[d->nr_erate][0], &d->erate[d->nr_erate][1]);
        free(copy);
    } else if (!strcmp(key, "calls")) {
        sscanf(val, "%"SCNu64",%"SCNu64",%"SCNu64, &d->clean_calls,
               &d->peek_calls, &d->vram_calls);
    } else if (!strcmp(key, "saturate")) {
        d->saturate = atoi(val);
    } else if (!strcmp(key, "faults")) {
        d->faults = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "total")) {
        d->dirty_total = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "seed")) {
        d->seed = strtoull(val, NULL, 0);
    } else if (!strcmp(key, "memhash")) {
        d->memhash = strtoull(val, NULL, 16);
    }
}

static struct fake_dom *new_dom(uint32_t id)
{
    struct fake_dom *d = &m.dom[m.ndom++];

    memset(d, 0, sizeof(*d));
    d->id = id;
    d->tot = d->max = 32768;
    d->vcpus = 1;
    d->maxpfn = 0x7fff;
    d->mech = XEN_DIRTY_MECH_PML;
    d->bshift = 9;
    strcpy(d->type, "pvh");
    return d;
}

static void load_line(char *line)
{
    char *save = NULL, *word;

    line[strcspn(line, "\n")] = 0;
    if (!strncmp(line, "console ", 8)) {
        if (m.nconsole < MAX_LINES)
            m.console[m.nconsole++] = strdup(line + 8);
        return;
    }
    word = strtok_r(line, " \t", &save);
    if (!word || word[0] == '#')
        return;
    if (!strcmp(word, "fail")) {
        char *fn = strtok_r(NULL, " \t", &save);
        char *e = strtok_r(NULL, " \t", &save);

        if (fn && e && m.nfail < MAX_LINES) {
            snprintf(m.fail_fn[m.nfail], sizeof(m.fail_fn[0]), "%s", fn);
            m.fail_errno[m.nfail++] = atoi(e);
        }
        return;
    }
    if (!strcmp(word, "domain") && m.ndom < MAX_DOMS) {
        struct fake_dom *d = new_dom(strtoul(strtok_r(NULL, " \t", &save),
                                             NULL, 0));

        while ((word = strtok_r(NULL, " \t", &save))) {
            char *eq = strchr(word, '=');

            if (eq) {
                *eq = 0;
                parse_field(d, word, eq + 1);
            }
        }
    }
}

static const char default_state[] =
    "domain 0 flags=running tot=262144 max=262144 vcpus=2 maxvcpu=1 "
        "cpu=41200000000 type=pvh\n"
    "domain 1 uuid=5a1e0000-0000-4000-8000-000000000001 flags=blocked "
        "tot=65536 max=65536 vcpus=1 cpu=3500000000 type=pvh\n"
    "domain 5 uuid=5a1e0000-0000-4000-8000-000000000005 flags=running "
        "tot=32768 max=32768 vcpus=2 maxvcpu=1 cpu=900000000 type=pvh "
        "write=0x100-0x13f\n"
    "console (XEN) Xen version 4.17 (mock)\n"
    "console (XEN) VMX: PML enabled\n";

/* Pages this process wrote, by domain: they outlive reloads of the state. */
static struct {
    uint32_t id;
    uint8_t **mem;
} stores[MAX_DOMS];

static void attach_stores(void)
{
    for (int i = 0; i < m.ndom; i++) {
        m.dom[i].mem = NULL;
        for (int k = 0; k < MAX_DOMS; k++)
            if (stores[k].mem && stores[k].id == m.dom[i].id)
                m.dom[i].mem = stores[k].mem;
    }
}

static uint8_t **store_of(struct fake_dom *d)
{
    int k, free_slot = -1;

    for (k = 0; k < MAX_DOMS; k++) {
        if (stores[k].mem && stores[k].id == d->id)
            return d->mem = stores[k].mem;
        if (!stores[k].mem && free_slot < 0)
            free_slot = k;
    }
    if (free_slot < 0)
        return NULL;
    stores[free_slot].id = d->id;
    stores[free_slot].mem = calloc(MAX_PFNS, sizeof(uint8_t *));
    return d->mem = stores[free_slot].mem;
}

static void drop_store(uint32_t id)
{
    for (int k = 0; k < MAX_DOMS; k++)
        if (stores[k].mem && stores[k].id == id) {
            for (uint64_t p = 0; p < MAX_PFNS; p++)
                free(stores[k].mem[p]);
            free(stores[k].mem);
            stores[k].mem = NULL;
        }
}

/* (Re-)read the state file into m; other processes may have changed it. */
static void read_state(const char *path)
{
    char line[4096];
    struct stat st;
    FILE *f;

    for (int i = 0; i < m.nconsole; i++)
        free(m.console[i]);
    m.nconsole = m.ndom = m.nfail = 0;
    f = fopen(path, "r");
    if (!f)
        return;
    if (!fstat(fileno(f), &st))
        m.ino = st.st_ino;
    while (fgets(line, sizeof(line), f))
        load_line(line);
    fclose(f);
    attach_stores();
}

static void load(void)
{
    const char *path = getenv("MOCK_XC_STATE");
    char line[4096];
    struct stat st;

    if (m.loaded) {
        /* Another process (xl migrate-receive) may have saved since. */
        if (path && !stat(path, &st) && st.st_ino != m.ino)
            read_state(path);
        return;
    }
    m.loaded = true;
    if (path) {
        read_state(path);
    } else {
        char *copy = strdup(default_state), *save = NULL;

        for (char *l = strtok_r(copy, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
            snprintf(line, sizeof(line), "%s", l);
            load_line(line);
        }
        free(copy);
    }
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Page pfn of d as the guest would see it. */
static void page_contents(const struct fake_dom *d, uint64_t pfn, uint8_t *buf)
{
    if (d->mem && pfn < MAX_PFNS && d->mem[pfn]) {
        memcpy(buf, d->mem[pfn], XC_PAGE_SIZE);
    } else if (d->seed) {
        for (unsigned int k = 0; k < XC_PAGE_SIZE / 8; k++) {
            uint64_t w = mix64(d->seed * 0x100000001b3ULL + (pfn << 12) + k);

            memcpy(buf + 8 * k, &w, 8);
        }
    } else {
        memset(buf, 0, XC_PAGE_SIZE);
    }
}

static void update_memhash(struct fake_dom *d)
{
    static uint8_t buf[XC_PAGE_SIZE];
    uint64_t h = 0;

    if (!d->seed && !d->mem)
        return;
    for (uint64_t pfn = 0; pfn < d->tot && pfn < MAX_PFNS; pfn++) {
        uint64_t ph = 0xcbf29ce484222325ULL;

        page_contents(d, pfn, buf);
        for (unsigned int i = 0; i < XC_PAGE_SIZE; i++)
            ph = (ph ^ buf[i]) * 0x100000001b3ULL;
        h ^= mix64(ph + pfn);
    }
    d->memhash = h;
}

/*
 * Merge this process's changes (domains touched, destroyed, the console)
 * into the file as it is now, under a lock: xl migrate and its receiver
 * run at the same time on one state file.
 */
static void merge_into_file_view(const char *path)
{
    static struct fake_dom mine[MAX_DOMS];
    uint32_t gone[MAX_DOMS];
    char *console[MAX_LINES];
    int nmine = 0, ngone = m.ndestroyed, ncons = m.nconsole;
    bool cons = m.console_touched;

    for (int i = 0; i < m.ndom; i++)
        if (m.dom[i].touched)
            mine[nmine++] = m.dom[i];
    memcpy(gone, m.destroyed, sizeof(gone));
    if (cons) {
        memcpy(console, m.console, sizeof(console));
        m.nconsole = 0;                 /* keep ours from being freed */
    }
    read_state(path);
    for (int g = 0; g < ngone; g++)
        for (int i = 0; i < m.ndom; i++)
            if (m.dom[i].id == gone[g]) {
                m.dom[i] = m.dom[--m.ndom];
                break;
            }
    for (int k = 0; k < nmine; k++) {
        int i;

        mine[k].touched = false;
        for (i = 0; i < m.ndom && m.dom[i].id != mine[k].id; i++)
            ;
        if (i == m.ndom) {
            if (m.ndom == MAX_DOMS)
                continue;
            m.ndom++;
        }
        m.dom[i] = mine[k];
    }
    if (cons) {
        for (int i = 0; i < m.nconsole; i++)
            free(m.console[i]);
        memcpy(m.console, console, sizeof(console));
        m.nconsole = ncons;
    }
    m.ndestroyed = 0;
    m.console_touched = false;
}

static void save(void)
{
    const char *path = getenv("MOCK_XC_STATE");
    char tmp[4200], lock[4200];
    struct stat st;
    int lockfd;
    FILE *f;

    if (!path)
        return;
    snprintf(lock, sizeof(lock), "%s.lock", path);
    lockfd = open(lock, O_RDWR | O_CREAT, 0644);
    if (lockfd >= 0)
        flock(lockfd, LOCK_EX);
    merge_into_file_view(path);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
        if (lockfd >= 0)
            close(lockfd);
        return;
    }
    for (int i = 0; i < m.ndom; i++) {
        struct fake_dom *d = &m.dom[i];
        bool first = true;

        fprintf(f, "domain %u uuid=" "%02x%02x%02x%02x-%02x%02x-%02x%02x-"
                "%02x%02x-%02x%02x%02x%02x%02x%02x", d->id,
                d->uuid[0], d->uuid[1], d->uuid[2], d->uuid[3], d->uuid[4],
                d->uuid[5], d->uuid[6], d->uuid[7], d->uuid[8], d->uuid[9],
                d->uuid[10], d->uuid[11], d->uuid[12], d->uuid[13],
                d->uuid[14], d->uuid[15]);
        fprintf(f, " flags=");
        for (size_t k = 0; k < sizeof(flag_names) / sizeof(*flag_names); k++)
            if (d->flags & flag_names[k].bit) {
                fprintf(f, "%s%s", first ? "" : ",", flag_names[k].name);
                first = false;
            }
        if (first)
            fprintf(f, "none");
        fprintf(f, " reason=%u tot=%"PRIu64" max=%"PRIu64" vcpus=%u "
                "maxvcpu=%u cpu=%"PRIu64" type=%s logdirty=%d vram=%#"PRIx64
                "+%u mech=%s maxpfn=%#"PRIx64" dirty=", d->reason, d->tot,
                d->max, d->vcpus, d->maxvcpu, d->cpu, d->type, d->logdirty,
                d->vram_first, d->vram_nr,
                d->mech == XEN_DIRTY_MECH_PML ? "pml" :
                d->mech == XEN_DIRTY_MECH_WP ? "wp" : "none", d->maxpfn);
        print_ranges(f, d->dirty);
        fprintf(f, " write=");
        print_ranges(f, d->write);
        fprintf(f, " vdirtied=");
        for (unsigned int v = 0; v <= d->maxvcpu && v < MAX_VCPUS; v++)
            fprintf(f, "%s%"PRIu64, v ? "," : "", d->vdirtied[v]);
        fprintf(f, " vrate=");
        for (unsigned int v = 0; v <= d->maxvcpu && v < MAX_VCPUS; v++)
            fprintf(f, "%s%"PRIu64":%"PRIu64":%"PRIu64":%"PRIu64, v ? "," : "",
                    d->vrate[v][0], d->vrate[v][1], d->vrate[v][2], d->vrate[v][3]);
        if (d->nr_brate) {
            fprintf(f, " bshift=%u brate=", d->bshift);
            for (unsigned int b = 0; b < d->nr_brate; b++)
                fprintf(f, "%s%"PRIu64, b ? "," : "", d->brate[b]);
        }
        if (d->nr_erate) {
            fprintf(f, " erate=");
            for (unsigned int e = 0; e < d->nr_erate; e++)
                fprintf(f, "%s%u:%u", e ? "," : "", d->erate[e][0], d->erate[e][1]);
        }
        if (d->saturate)
            fprintf(f, " saturate=%d", d->saturate);
        fprintf(f, " calls=%"PRIu64",%"PRIu64",%"PRIu64" faults=%"PRIu64
                " total=%"PRIu64, d->clean_calls, d->peek_calls,
                d->vram_calls, d->faults, d->dirty_total);
        update_memhash(d);
        if (d->seed)
            fprintf(f, " seed=%"PRIu64, d->seed);
        if (d->seed || d->mem || d->memhash)
            fprintf(f, " memhash=%016"PRIx64, d->memhash);
        fprintf(f, "\n");
    }
    for (int i = 0; i < m.nconsole; i++)
        fprintf(f, "console %s\n", m.console[i]);
    for (int i = 0; i < m.nfail; i++)
        fprintf(f, "fail %s %d\n", m.fail_fn[i], m.fail_errno[i]);
    fclose(f);
    rename(tmp, path);
    if (!stat(path, &st))
        m.ino = st.st_ino;
    if (lockfd >= 0)
        close(lockfd);
}

/* 0, or -1 with errno set if the state file asks fn to fail. */
static int injected(const char *fn)
{
    for (int i = 0; i < m.nfail; i++)
        if (!strcmp(m.fail_fn[i], fn)) {
            errno = m.fail_errno[i];
            return -1;
        }
    return 0;
}

static struct fake_dom *find(uint32_t domid)
{
    load();
    for (int i = 0; i < m.ndom; i++)
        if (m.dom[i].id == domid) {
            m.dom[i].touched = true;
            return &m.dom[i];
        }
    errno = ESRCH;
    return NULL;
}

/* ---- libxenctrl ----------------------------------------------------------------- */

xc_interface *xc_interface_open(xentoollog_logger *logger,
                                xentoollog_logger *dombuild_logger,
                                unsigned open_flags)
{
    (void)open_flags;
    load();
    if (injected("xc_interface_open"))
        return NULL;
    if (!logger) {
        if (!the_xch.error_handler_tofree)
            the_xch.error_handler_tofree = (xentoollog_logger *)
                xtl_createlogger_stdiostream(stderr, XTL_PROGRESS, 0);
        logger = the_xch.error_handler_tofree;
    }
    the_xch.error_handler = logger;
    the_xch.dombuild_logger = dombuild_logger ? dombuild_logger : logger;
    return &the_xch;
}

/* As libxenctrl's: log, and keep errors as the last error. */
void xc_report(xc_interface *xch, xentoollog_logger *lg,
               xentoollog_level level, int code, const char *fmt, ...)
{
    int saved_errno = errno;
    va_list args;

    if (level >= XTL_ERROR) {
        va_start(args, fmt);
        xch->last_error.code = code;
        vsnprintf(xch->last_error.message, sizeof(xch->last_error.message),
                  fmt, args);
        va_end(args);
    }
    va_start(args, fmt);
    xtl_logv(lg, level, -1, "xc", fmt, args);
    va_end(args);
    errno = saved_errno;
}

int xc_interface_close(xc_interface *xch)
{
    (void)xch;
    return 0;
}

int xc_domain_getinfolist(xc_interface *xch, uint32_t first_domain,
                          unsigned int max_domains, xc_domaininfo_t *info)
{
    int n = 0;

    (void)xch;
    load();
    if (injected("xc_domain_getinfolist"))
        return -1;
    /* in id order */
    for (uint32_t id = first_domain; id < DOMID_FIRST_RESERVED &&
         (unsigned int)n < max_domains; id++) {
        struct fake_dom *d = NULL;

        for (int i = 0; i < m.ndom; i++)
            if (m.dom[i].id == id)
                d = &m.dom[i];
        if (!d)
            continue;
        memset(&info[n], 0, sizeof(info[n]));
        info[n].domain = (domid_t)d->id;
        info[n].flags = d->flags;
        if (d->flags & XEN_DOMINF_shutdown)
            info[n].flags |= (d->reason & XEN_DOMINF_shutdownmask)
                             << XEN_DOMINF_shutdownshift;
        if (strcmp(d->type, "pv"))
            info[n].flags |= XEN_DOMINF_hvm_guest | XEN_DOMINF_hap;
        if (!strcmp(d->type, "hvm"))
            info[n].arch_config.emulation_flags = XEN_X86_EMU_LAPIC;
        info[n].tot_pages = d->tot;
        info[n].max_pages = d->max;
        info[n].cpu_time = d->cpu;
        info[n].nr_online_vcpus = d->vcpus;
        info[n].max_vcpu_id = d->maxvcpu;
        memcpy(info[n].handle, d->uuid, 16);
        info[n].gpaddr_bits = 36;
        n++;
    }
    return n;
}

/* xc_dominfo_t of the first domain from first_domid on, as Xen's. */
int xc_domain_getinfo(xc_interface *xch, uint32_t first_domid,
                      unsigned int max_doms, xc_dominfo_t *info)
{
    xc_domaininfo_t di;
    unsigned int n = 0;

    while (n < max_doms && xc_domain_getinfolist(xch, first_domid, 1, &di) == 1) {
        memset(&info[n], 0, sizeof(info[n]));
        info[n].domid = di.domain;
        info[n].dying = !!(di.flags & XEN_DOMINF_dying);
        info[n].shutdown = !!(di.flags & XEN_DOMINF_shutdown);
        info[n].paused = !!(di.flags & XEN_DOMINF_paused);
        info[n].running = !!(di.flags & XEN_DOMINF_running);
        info[n].hvm = !!(di.flags & XEN_DOMINF_hvm_guest);
        info[n].hap = !!(di.flags & XEN_DOMINF_hap);
        info[n].nr_pages = di.tot_pages;
        info[n].max_memkb = di.max_pages << 2;
        info[n].nr_online_vcpus = di.nr_online_vcpus;
        info[n].max_vcpu_id = di.max_vcpu_id;
        memcpy(info[n].handle, di.handle, sizeof(info[n].handle));
        first_domid = di.domain + 1;
        n++;
    }
    return (int)n;
}

const char *xc_strerror(xc_interface *xch, int errcode)
{
    (void)xch;
    return strerror(errcode);
}

static int set_flag(uint32_t domid, const char *op, unsigned int set,
                    unsigned int clear)
{
    struct fake_dom *d = find(domid);

    record("%s %u", op, domid);
    if (!d)
        return -1;
    if (injected(op))
        return -1;
    d->flags = (d->flags | set) & ~clear;
    save();
    return 0;
}

int xc_domain_pause(xc_interface *xch, uint32_t domid)
{
    (void)xch;
    return set_flag(domid, "pause", XEN_DOMINF_paused, 0);
}

int xc_domain_unpause(xc_interface *xch, uint32_t domid)
{
    (void)xch;
    return set_flag(domid, "unpause", 0, XEN_DOMINF_paused);
}

int xc_domain_shutdown(xc_interface *xch, uint32_t domid, int reason)
{
    struct fake_dom *d = find(domid);

    (void)xch;
    record("shutdown %u %d", domid, reason);
    if (!d || injected("shutdown"))
        return -1;
    d->flags |= XEN_DOMINF_shutdown;
    d->reason = (unsigned int)reason;
    save();
    return 0;
}

int xc_domain_destroy(xc_interface *xch, uint32_t domid)
{
    struct fake_dom *d = find(domid);

    (void)xch;
    record("destroy %u", domid);
    if (!d || injected("destroy"))
        return -1;
    drop_store(d->id);
    if (m.ndestroyed < MAX_DOMS)
        m.destroyed[m.ndestroyed++] = d->id;
    *d = m.dom[--m.ndom];
    save();
    return 0;
}

int xc_physinfo(xc_interface *xch, xc_physinfo_t *info)
{
    (void)xch;
    load();
    if (injected("xc_physinfo"))
        return -1;
    memset(info, 0, sizeof(*info));
    info->threads_per_core = 1;
    info->cores_per_socket = 1;
    info->nr_cpus = 1;
    info->max_cpu_id = 0;
    info->nr_nodes = 1;
    info->cpu_khz = 2400000;
    info->capabilities = XEN_SYSCTL_PHYSCAP_hvm | XEN_SYSCTL_PHYSCAP_hap;
    info->total_pages = 524288;         /* 2 GiB */
    info->free_pages = 131072;
    info->max_mfn = 0x7ffff;
    info->hw_cap[0] = 0x178bfbff;
    info->hw_cap[1] = 0x80002001;
    return 0;
}

int xc_version(xc_interface *xch, int cmd, void *arg)
{
    (void)xch;
    load();
    switch (cmd) {
    case XENVER_version:
        return 4 << 16 | 17;
    case XENVER_extraversion:
        strcpy(arg, ".0-mock");
        return 0;
    case XENVER_compile_info: {
        xen_compile_info_t *ci = arg;

        strcpy(ci->compiler, "gcc (mock) 12.2.0");
        strcpy(ci->compile_by, "tester");
        strcpy(ci->compile_domain, "example.org");
        strcpy(ci->compile_date, "Thu Jan  1 00:00:00 UTC 1970");
        return 0;
    }
    case XENVER_capabilities:
        strcpy(arg, "hvm-3.0-x86_32 hvm-3.0-x86_32p hvm-3.0-x86_64");
        return 0;
    case XENVER_changeset:
        strcpy(arg, "mock");
        return 0;
    case XENVER_platform_parameters:
        ((xen_platform_parameters_t *)arg)->virt_start = 0xffff800000000000UL;
        return 0;
    case XENVER_pagesize:
        return 4096;
    case XENVER_commandline:
        strcpy(arg, "pml=1 ple_gap=64 ple_window=4096");
        return 0;
    case XENVER_build_id: {
        xen_build_id_t *b = arg;
        static const unsigned char id[] = { 0xde, 0xad, 0xbe, 0xef };

        if (b->len < sizeof(id)) {
            errno = ENOBUFS;
            return -1;
        }
        memcpy(b->buf, id, sizeof(id));
        return sizeof(id);
    }
    default:
        errno = ENOSYS;
        return -1;
    }
}

int xc_readconsolering(xc_interface *xch, char *buffer,
                       unsigned int *pnr_chars, int clear, int incremental,
                       uint32_t *pindex)
{
    size_t total = 0, pos = incremental && pindex ? *pindex : 0, done = 0;
    char *all;

    (void)xch;
    load();
    record("readconsolering clear=%d", clear);
    for (int i = 0; i < m.nconsole; i++)
        total += strlen(m.console[i]) + 1;
    all = malloc(total + 1);
    all[0] = 0;
    for (int i = 0; i < m.nconsole; i++) {
        strcat(all, m.console[i]);
        strcat(all, "\n");
    }
    while (pos < total && done < *pnr_chars)
        buffer[done++] = all[pos++];
    free(all);
    *pnr_chars = (unsigned int)done;
    if (pindex)
        *pindex = (uint32_t)pos;
    if (clear) {
        for (int i = 0; i < m.nconsole; i++)
            free(m.console[i]);
        m.nconsole = 0;
        m.console_touched = true;
        save();
    }
    return 0;
}

static void guest_writes(struct fake_dom *d);

int xc_shadow_control(xc_interface *xch, uint32_t domid, unsigned int sop,
                      unsigned int *mb, unsigned int mode)
{
    struct fake_dom *d = find(domid);

    (void)xch; (void)mb; (void)mode;
    record("shadow_op %u %s", domid,
           sop == XEN_DOMCTL_SHADOW_OP_OFF ? "off" :
           sop == XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY ? "enable_logdirty" :
           "other");
    if (!d || injected("xc_shadow_control"))
        return -1;
    switch (sop) {
    case XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY:
        if (d->logdirty || d->vram_nr) {
            errno = EINVAL;
            return -1;
        }
        d->logdirty = 1;
        memset(d->dirty, 0, sizeof(d->dirty));
        guest_writes(d);                /* it writes on while tracked */
        break;
    case XEN_DOMCTL_SHADOW_OP_OFF:
        d->logdirty = 0;
        d->vram_nr = 0;
        d->vram_first = 0;
        memset(d->dirty, 0, sizeof(d->dirty));
        break;
    default:
        errno = EINVAL;
        return -1;
    }
    save();
    return 0;
}

/* The guest "writes" its write set again (after a CLEAN). */
static void guest_writes(struct fake_dom *d)
{
    unsigned int nv = d->maxvcpu + 1, k = 0;

    for (uint64_t p = 0; p <= d->maxpfn && p < MAX_PFNS; p++) {
        if (!bit_test(d->write, p))
            continue;
        if (!bit_test(d->dirty, p)) {
            bit_set(d->dirty, p);
            d->dirty_total++;
            if (nv <= MAX_VCPUS)
                d->vdirtied[k++ % nv]++;
        }
    }
}

long long xc_logdirty_control(xc_interface *xch, uint32_t domid,
                              unsigned int sop,
                              xc_hypercall_buffer_t *dirty_bitmap,
                              unsigned long pages, unsigned int mode,
                              xc_shadow_op_stats_t *stats)
{
    struct fake_dom *d = find(domid);
    uint8_t *bm = dirty_bitmap ? dirty_bitmap->hbuf : NULL;
    bool clean = sop == XEN_DOMCTL_SHADOW_OP_CLEAN;
    uint64_t covered;

    (void)xch; (void)mode;
    record("logdirty %u %s pages=%lu", domid, clean ? "clean" : "peek", pages);
    if (!d || injected("xc_logdirty_control"))
        return -1;
    if (!d->logdirty || (sop != XEN_DOMCTL_SHADOW_OP_CLEAN &&
                         sop != XEN_DOMCTL_SHADOW_OP_PEEK)) {
        errno = EINVAL;
        return -1;
    }
    covered = pages < d->maxpfn + 1 ? pages : d->maxpfn + 1;
    if (covered && !bm) {
        errno = EFAULT;
        return -1;
    }
    for (uint64_t p = 0; p < covered && p < MAX_PFNS; p++)
        if (bit_test(d->dirty, p))
            bit_set(bm, p);
    if (stats) {
        stats->fault_count = (uint32_t)d->faults;
        stats->dirty_count = (uint32_t)d->dirty_total;
    }
    if (clean) {
        d->clean_calls++;
        for (uint64_t p = 0; p < covered && p < MAX_PFNS; p++)
            d->dirty[p / 8] &= ~(1 << (p % 8));
        guest_writes(d);
    } else {
        d->peek_calls++;
    }
    save();
    return (long long)covered;
}

void *xc__hypercall_buffer_alloc_pages(xc_interface *xch,
                                       xc_hypercall_buffer_t *b, int nr_pages)
{
    (void)xch;
    b->hbuf = calloc(nr_pages ? nr_pages : 1, XC_PAGE_SIZE);
    b->sz = (size_t)nr_pages * XC_PAGE_SIZE;
    return b->hbuf;
}

void xc__hypercall_buffer_free_pages(xc_interface *xch,
                                     xc_hypercall_buffer_t *b, int nr_pages)
{
    (void)xch; (void)nr_pages;
    free(b->hbuf);
    b->hbuf = NULL;
}

void *xc__hypercall_buffer_alloc(xc_interface *xch, xc_hypercall_buffer_t *b,
                                 size_t size)
{
    (void)xch;
    b->hbuf = calloc(1, size ? size : 1);
    b->sz = size;
    return b->hbuf;
}

void xc__hypercall_buffer_free(xc_interface *xch, xc_hypercall_buffer_t *b)
{
    (void)xch;
    free(b->hbuf);
    b->hbuf = NULL;
}

int xc_dirty_stats(xc_interface *xch, uint32_t domid,
                   xen_domctl_dirty_stats_t *stats,
                   xen_dirty_vcpu_stats_t *vcpus, unsigned int *nr_vcpus)
{
    struct fake_dom *d = find(domid);
    unsigned int nv;

    (void)xch;
    record("dirty_stats %u", domid);
    if (!d || injected("xc_dirty_stats"))
        return -1;
    nv = d->maxvcpu + 1;
    memset(stats, 0, sizeof(*stats));
    stats->mode = (d->logdirty ? XEN_DIRTY_MODE_LOGDIRTY : 0) |
                  (d->vram_nr ? XEN_DIRTY_MODE_VRAM : 0);
    stats->mechanism = d->logdirty || d->vram_nr ? (uint32_t)d->mech
                                                 : XEN_DIRTY_MECH_NONE;
    stats->nr_vcpus = nv;
    stats->dirty_pages = d->dirty_total;
    stats->writes_logged = d->dirty_total;
    stats->fault_count = d->faults;
    stats->clean_calls = d->clean_calls;
    stats->peek_calls = d->peek_calls;
    stats->vram_calls = d->vram_calls;
    for (unsigned int i = 0; vcpus && i < nv && i < *nr_vcpus; i++) {
        memset(&vcpus[i], 0, sizeof(vcpus[i]));
        vcpus[i].pages_dirtied = i < MAX_VCPUS ? d->vdirtied[i] : 0;
        vcpus[i].writes_logged = vcpus[i].pages_dirtied;
        if (d->mech == XEN_DIRTY_MECH_PML)
            vcpus[i].pml_entries = vcpus[i].pages_dirtied;
        else
            vcpus[i].wp_faults = vcpus[i].pages_dirtied;
        vcpus[i].exits_total = 1000 + i;
        stats->pml_full_exits += vcpus[i].pml_full_exits;
    }
    *nr_vcpus = nv;
    return 0;
}

/*
 * XEN_SYSCTL_get_dirty_stats_all, deterministic: at this process's k-th
 * call (k = 1, 2, ...) vCPU v's counters are k * vrate[v] and the clock
 * reads k * $MOCK_XC_CLOCK_NS (default 1 s), so that two samples give
 * exactly vrate per clock step.  The hypervisor's checks: a size query
 * with both arrays NULL, EINVAL for half a request, ENOBUFS with the
 * sizes when there is not room.
 */
static uint64_t stats_samples;          /* xc_dirty_stats_all calls that filled */

/*
 * writes_logged of the 'saturate' domains, kept by this process: it grows
 * by vrate's dirtied in a sample only if xc_dirty_rearm was called for the
 * domain since the last sample (otherwise every page the guest writes is
 * dirty already and nothing is logged).  Other domains: k * vrate.
 */
static struct {
    uint32_t id;
    bool used, rearmed;
    uint64_t logged[MAX_VCPUS];
} lacc[MAX_DOMS];

static typeof(lacc[0]) *logged_of(uint32_t domid)
{
    for (int i = 0; i < MAX_DOMS; i++)
        if (!lacc[i].used || lacc[i].id == domid) {
            lacc[i].used = true;
            lacc[i].id = domid;
            return &lacc[i];
        }
    return NULL;
}

int xc_dirty_stats_all(xc_interface *xch,
                       xen_dirty_sysctl_domain_t *domains, unsigned int *nr_domains,
                       xen_dirty_sysctl_vcpu_t *vcpus, unsigned int *nr_vcpus,
                       uint64_t *now)
{
    uint64_t k;
    const char *step = getenv("MOCK_XC_CLOCK_NS");
    unsigned int nd = 0, nv = 0;

    (void)xch;
    load();
    record("dirty_stats_all");
    if (injected("xc_dirty_stats_all"))
        return -1;
    if (!nr_domains || !nr_vcpus || (!domains != !vcpus)) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < m.ndom; i++) {
        nd++;
        nv += m.dom[i].maxvcpu + 1;
    }
    if (domains && (nd > *nr_domains || nv > *nr_vcpus)) {
        *nr_domains = nd;
        *nr_vcpus = nv;
        errno = ENOBUFS;
        return -1;
    }
    *nr_domains = nd;
    *nr_vcpus = nv;
    if (!domains)
        return 0;
    k = ++stats_samples;
    if (now)
        *now = k * (step ? strtoull(step, NULL, 0) : 1000000000ULL);
    nv = 0;
    for (int i = 0; i < m.ndom; i++) {
        const struct fake_dom *d = &m.dom[i];
        xen_dirty_sysctl_domain_t *r = &domains[i];

        memset(r, 0, sizeof(*r));
        r->domid = d->id;
        r->flags = d->flags;
        if (d->flags & XEN_DOMINF_shutdown)
            r->flags |= (d->reason & XEN_DOMINF_shutdownmask) << XEN_DOMINF_shutdownshift;
        r->nr_vcpus = d->maxvcpu + 1;
        r->first_vcpu = nv;
        r->mode = (d->logdirty ? XEN_DIRTY_MODE_LOGDIRTY : 0) |
                  (d->vram_nr ? XEN_DIRTY_MODE_VRAM : 0);
        r->mechanism = r->mode ? (uint32_t)d->mech : XEN_DIRTY_MECH_NONE;
        r->tot_pages = d->tot;
        typeof(lacc[0]) *la = logged_of(d->id);
        for (unsigned int v = 0; v < r->nr_vcpus; v++, nv++) {
            const uint64_t *rate = v < MAX_VCPUS ? d->vrate[v] : d->vrate[0];

            if (!d->saturate)
                vcpus[nv].writes_logged = k * rate[0];
            else if (la && v < MAX_VCPUS) {
                if (la->rearmed)
                    la->logged[v] += rate[0];
                vcpus[nv].writes_logged = la->logged[v];
            }
            r->writes_logged += vcpus[nv].writes_logged;
            vcpus[nv].pages_dirtied = k * rate[0];
            vcpus[nv].pml_full_exits = k * rate[1];
            vcpus[nv].wp_faults = k * rate[2];
            vcpus[nv].ple_exits = k * rate[3];
            r->pages_dirtied += k * rate[0];
            r->pml_full_exits += k * rate[1];
            r->wp_faults += k * rate[2];
            r->ple_exits += k * rate[3];
        }
        r->exits_total = r->pml_full_exits + r->wp_faults + r->ple_exits + k * 100;
        if (la)
            la->rearmed = false;
    }
    return 0;
}

/* XEN_DOMCTL_dirty_rearm: -EINVAL if nothing tracks the domain. */
int xc_dirty_rearm(xc_interface *xch, uint32_t domid, uint64_t *pages)
{
    struct fake_dom *d = find(domid);
    typeof(lacc[0]) *la;

    (void)xch;
    record("dirty_rearm %u", domid);
    if (!d || injected("xc_dirty_rearm"))
        return -1;
    if (!d->logdirty && !d->vram_nr) {
        errno = EINVAL;
        return -1;
    }
    if ((la = logged_of(domid)))
        la->rearmed = true;
    if (pages)
        *pages = 0;
    return 0;
}

int xc_vcpu_exit_counts(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                        uint64_t *counts, unsigned int *nr_reasons)
{
    struct fake_dom *d = find(domid);
    const unsigned int nr = 65;             /* EXIT_REASON_NR */

    (void)xch;
    record("exit_counts %u %u", domid, vcpu);
    if (!d || injected("xc_vcpu_exit_counts"))
        return -1;
    if (vcpu > d->maxvcpu) {
        errno = EINVAL;
        return -1;
    }
    if (!d->nr_erate) {
        for (unsigned int r = 0; r < nr && r < *nr_reasons; r++)
            counts[r] = r * 10 + vcpu;
    } else {
        /* erate: they grow with the samples of xc_dirty_stats_all. */
        for (unsigned int r = 0; r < nr && r < *nr_reasons; r++)
            counts[r] = 0;
        for (unsigned int e = 0; e < d->nr_erate; e++)
            if (d->erate[e][0] < nr && d->erate[e][0] < *nr_reasons)
                counts[d->erate[e][0]] = stats_samples * (vcpu + 1) * d->erate[e][1];
    }
    *nr_reasons = nr;
    return 0;
}

/*
 * XEN_DOMCTL_get_dirty_blocks: each call of this process that fills
 * counts adds brate[b] to block b's counter if the domain is tracked
 * (they stand still otherwise), and at the k-th call (k = 1, 2, ...,
 * size queries included) the clock reads k * $MOCK_XC_CLOCK_NS.  The
 * hypervisor's checks: EINVAL for room without a buffer or the reverse
 * or room over the limit, ENOBUFS with the size.
 */
int xc_dirty_blocks(xc_interface *xch, uint32_t domid,
                    uint64_t *counts, unsigned int *nr_blocks,
                    xen_domctl_dirty_blocks_t *info)
{
    return xc_dirty_blocks_counter(xch, domid, XEN_DIRTY_BLOCKS_NEWLY, counts,
                                   nr_blocks, info);
}

/* Either counter: the same blocks, counted apart (both grow by brate). */
int xc_dirty_blocks_counter(xc_interface *xch, uint32_t domid, uint32_t counter,
                            uint64_t *counts, unsigned int *nr_blocks,
                            xen_domctl_dirty_blocks_t *info)
{
    static uint64_t k;
    static struct { uint32_t id; bool used; uint64_t n[MAX_BLOCKS]; } accs[2][MAX_DOMS];
    typeof(accs[0][0]) *acc;
    const char *step = getenv("MOCK_XC_CLOCK_NS");
    struct fake_dom *d = find(domid);
    uint64_t *sum = NULL;

    (void)xch;
    record("dirty_blocks %u%s", domid, counter == XEN_DIRTY_BLOCKS_LOGGED ? " logged" : "");
    if (!d || injected("xc_dirty_blocks"))
        return -1;
    if (counter > XEN_DIRTY_BLOCKS_LOGGED) {
        errno = EINVAL;
        return -1;
    }
    acc = accs[counter];
    if (!nr_blocks || (counts && !*nr_blocks) || (counts && *nr_blocks > XEN_DIRTY_BLOCKS_MAX)) {
        errno = EINVAL;
        return -1;
    }
    if (counts && *nr_blocks < d->nr_brate) {
        *nr_blocks = d->nr_brate;
        errno = ENOBUFS;
        return -1;
    }
    *nr_blocks = d->nr_brate;
    k++;
    if (info) {
        memset(info, 0, sizeof(*info));
        info->nr_blocks = d->nr_brate;
        info->block_shift = d->nr_brate ? d->bshift : 0;
        info->vram_first_pfn = d->vram_first;
        info->vram_nr = d->vram_nr;
        info->now = k * (step ? strtoull(step, NULL, 0) : 1000000000ULL);
    }
    if (!counts)
        return 0;
    for (int i = 0; i < MAX_DOMS && !sum; i++)
        if (!acc[i].used || acc[i].id == domid) {
            acc[i].used = true;
            acc[i].id = domid;
            sum = acc[i].n;
        }
    for (unsigned int b = 0; b < d->nr_brate; b++) {
        if (sum && (d->logdirty || d->vram_nr))
            sum[b] += d->brate[b];
        counts[b] = sum ? sum[b] : 0;
    }
    return 0;
}

/* ---- building domains ------------------------------------------------------------- */

int xc_domain_create(xc_interface *xch, uint32_t *pdomid,
                     struct xen_domctl_createdomain *config)
{
    struct fake_dom *d;
    uint32_t id = *pdomid;

    (void)xch;
    load();
    if (injected("xc_domain_create"))
        return -1;
    if (!(config->flags & XEN_DOMCTL_CDF_hvm) ||
        !(config->flags & XEN_DOMCTL_CDF_hap) || !config->max_vcpus ||
        m.ndom == MAX_DOMS) {
        errno = EINVAL;
        return -1;
    }
    if (!id) {
        /* The lowest free id, as the hypervisor's rover finds on a fresh boot. */
        for (id = 1; id < DOMID_FIRST_RESERVED; id++) {
            bool used = false;

            for (int i = 0; i < m.ndom; i++)
                used |= m.dom[i].id == id;
            if (!used)
                break;
        }
    } else {
        for (int i = 0; i < m.ndom; i++)
            if (m.dom[i].id == id) {
                errno = EEXIST;
                return -1;
            }
    }
    d = new_dom(id);
    d->touched = true;
    memcpy(d->uuid, config->handle, sizeof(d->uuid));
    d->flags = XEN_DOMINF_paused;
    d->tot = d->max = 0;
    d->vcpus = 0;
    d->maxvcpu = config->max_vcpus - 1;
    d->maxpfn = 0;
    *pdomid = id;
    record("create %u vcpus=%u", id, config->max_vcpus);
    save();
    return 0;
}

int xc_domain_setmaxmem(xc_interface *xch, uint32_t domid, uint64_t max_memkb)
{
    struct fake_dom *d = find(domid);

    (void)xch;
    record("setmaxmem %u %"PRIu64, domid, max_memkb);
    if (!d || injected("setmaxmem"))
        return -1;
    d->max = max_memkb / 4;
    save();
    return 0;
}

int xc_set_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t size)
{
    struct fake_dom *d = find(domid);

    (void)xch;
    record("paging_mempool %u %"PRIu64, domid, size);
    if (!d || injected("paging_mempool"))
        return -1;
    if (size & (XC_PAGE_SIZE - 1)) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int xc_get_paging_mempool_size(xc_interface *xch, uint32_t domid, uint64_t *size)
{
    (void)xch; (void)domid;
    *size = 0;
    errno = ENOSYS;
    return -1;
}

/* Extents are placed from gfn 0 up (as the builder does): tot grows. */
int xc_domain_populate_physmap(xc_interface *xch, uint32_t domid,
                               unsigned long nr_extents,
                               unsigned int extent_order,
                               unsigned int mem_flags,
                               xen_pfn_t *extent_start)
{
    struct fake_dom *d = find(domid);
    unsigned long i, n = 1UL << extent_order;

    (void)xch; (void)mem_flags;
    record("populate %u nr=%lu order=%u", domid, nr_extents, extent_order);
    if (!d || injected("populate"))
        return -1;
    for (i = 0; i < nr_extents; i++) {
        if (extent_start[i] != d->tot || d->tot + n > d->max)
            break;
        d->tot += n;
    }
    d->maxpfn = d->tot ? d->tot - 1 : 0;
    save();
    return (int)i;
}

int xc_domain_populate_physmap_exact(xc_interface *xch, uint32_t domid,
                                     unsigned long nr_extents,
                                     unsigned int extent_order,
                                     unsigned int mem_flags,
                                     xen_pfn_t *extent_start)
{
    int rc = xc_domain_populate_physmap(xch, domid, nr_extents, extent_order,
                                        mem_flags, extent_start);

    if (rc < 0)
        return rc;
    if ((unsigned long)rc != nr_extents) {
        errno = EBUSY;
        return -1;
    }
    return 0;
}

/* A fresh domain's context: the header and END (no vCPU initialised). */
int xc_domain_hvm_getcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *ctxt_buf, uint32_t size)
{
    struct fake_dom *d = find(domid);
    struct hvm_save_descriptor desc = { HVM_SAVE_CODE(HEADER), 0,
                                        sizeof(struct hvm_save_header) };
    struct hvm_save_header hdr = { .magic = HVM_FILE_MAGIC,
                                   .version = HVM_FILE_VERSION };
    uint32_t need = 2 * sizeof(desc) + sizeof(hdr);

    (void)xch;
    if (!d || injected("getcontext"))
        return -1;
    if (!ctxt_buf)
        return (int)need;
    if (size < need) {
        errno = ENOSPC;
        return -1;
    }
    memcpy(ctxt_buf, &desc, sizeof(desc));
    memcpy(ctxt_buf + sizeof(desc), &hdr, sizeof(hdr));
    desc = (struct hvm_save_descriptor){ HVM_SAVE_CODE(END), 0, 0 };
    memcpy(ctxt_buf + sizeof(desc) + sizeof(hdr), &desc, sizeof(desc));
    return (int)need;
}

int xc_domain_hvm_setcontext(xc_interface *xch, uint32_t domid,
                             uint8_t *hvm_ctxt, uint32_t size)
{
    struct fake_dom *d = find(domid);
    struct hvm_save_descriptor desc;
    struct hvm_hw_cpu cpu;
    uint32_t off = 0;

    (void)xch;
    if (!d)
        return -1;
    memset(&cpu, 0, sizeof(cpu));
    while (off + sizeof(desc) <= size) {
        memcpy(&desc, hvm_ctxt + off, sizeof(desc));
        off += sizeof(desc);
        if (desc.typecode == HVM_SAVE_CODE(CPU) && desc.length == sizeof(cpu) &&
            off + sizeof(cpu) <= size)
            memcpy(&cpu, hvm_ctxt + off, sizeof(cpu));
        off += desc.length;
    }
    record("setcontext %u rip=%#"PRIx64" rbx=%#"PRIx64, domid, cpu.rip, cpu.rbx);
    if (injected("setcontext"))
        return -1;
    d->vcpus = 1;
    save();
    return 0;
}

/* ---- libxenforeignmemory ---------------------------------------------------------- */

xenforeignmemory_handle *xenforeignmemory_open(struct xentoollog_logger *logger,
                                               unsigned open_flags)
{
    (void)logger; (void)open_flags;
    load();
    if (injected("xenforeignmemory_open"))
        return NULL;
    return &the_fmem;
}

int xenforeignmemory_close(xenforeignmemory_handle *fmem)
{
    (void)fmem;
    return 0;
}

/*
 * Copies of the frames, which must be populated (see "Memory" above);
 * a writable mapping is written back at unmap.
 */
#define MAX_MAPS 16
static struct {
    void *addr;
    uint32_t dom;
    size_t pages;
    xen_pfn_t *pfns;
    bool writable;
} maps[MAX_MAPS];

void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                           int prot, size_t pages,
                           const xen_pfn_t arr[], int err[])
{
    struct fake_dom *d = find(dom);
    bool bad = false;
    uint8_t *p;
    int slot;

    (void)fmem;
    if (!d || injected("map"))
        return NULL;
    for (size_t i = 0; i < pages; i++) {
        bool ok = arr[i] < d->tot;

        if (err)
            err[i] = ok ? 0 : -EINVAL;
        bad |= !ok;
    }
    if (bad && !err) {
        errno = EINVAL;
        return NULL;
    }
    for (slot = 0; slot < MAX_MAPS && maps[slot].addr; slot++)
        ;
    if (slot == MAX_MAPS) {
        errno = ENOMEM;
        return NULL;
    }
    p = aligned_alloc(XC_PAGE_SIZE, pages * XC_PAGE_SIZE);
    if (!p)
        return NULL;
    for (size_t i = 0; i < pages; i++) {
        if (arr[i] < d->tot)
            page_contents(d, arr[i], p + i * XC_PAGE_SIZE);
        else
            memset(p + i * XC_PAGE_SIZE, 0, XC_PAGE_SIZE);
    }
    maps[slot].addr = p;
    maps[slot].dom = dom;
    maps[slot].pages = pages;
    maps[slot].writable = prot & 2;                 /* PROT_WRITE */
    maps[slot].pfns = malloc(pages * sizeof(*arr));
    memcpy(maps[slot].pfns, arr, pages * sizeof(*arr));
    return p;
}

int xenforeignmemory_unmap(xenforeignmemory_handle *fmem,
                           void *addr, size_t pages)
{
    struct fake_dom *d;
    int slot;

    (void)fmem;
    for (slot = 0; slot < MAX_MAPS && maps[slot].addr != addr; slot++)
        ;
    if (slot == MAX_MAPS || maps[slot].pages != pages) {
        errno = EINVAL;
        return -1;
    }
    d = find(maps[slot].dom);
    if (d && maps[slot].writable) {
        store_of(d);
        for (size_t i = 0; d->mem && i < pages; i++) {
            xen_pfn_t pfn = maps[slot].pfns[i];

            if (pfn >= d->tot || pfn >= MAX_PFNS)
                continue;
            if (!d->mem[pfn])
                d->mem[pfn] = malloc(XC_PAGE_SIZE);
            if (d->mem[pfn])
                memcpy(d->mem[pfn], (uint8_t *)addr + i * XC_PAGE_SIZE,
                       XC_PAGE_SIZE);
        }
        save();
    }
    free(maps[slot].pfns);
    free(addr);
    memset(&maps[slot], 0, sizeof(maps[slot]));
    return 0;
}

/* ---- libxendevicemodel ---------------------------------------------------------- */

xendevicemodel_handle *xendevicemodel_open(struct xentoollog_logger *logger,
                                           unsigned int open_flags)
{
    (void)logger; (void)open_flags;
    load();
    return &the_dmod;
}

int xendevicemodel_close(xendevicemodel_handle *dmod)
{
    (void)dmod;
    return 0;
}

int xendevicemodel_track_dirty_vram(xendevicemodel_handle *dmod,
                                    domid_t domid, uint64_t first_pfn,
                                    uint32_t nr, unsigned long *dirty_bitmap)
{
    struct fake_dom *d = find(domid);
    uint8_t *bm = (uint8_t *)dirty_bitmap;

    (void)dmod;
    record("track_dirty_vram %u first=%#"PRIx64" nr=%u", domid, first_pfn, nr);
    if (!d || injected("xendevicemodel_track_dirty_vram"))
        return -1;
    if (d->logdirty) {
        errno = EINVAL;
        return -1;
    }
    if (nr == 0) {
        d->vram_nr = 0;
        d->vram_first = 0;
        save();
        return 0;
    }
    if (first_pfn + nr > d->maxpfn + 1) {
        errno = EINVAL;
        return -1;
    }
    d->vram_calls++;
    if (first_pfn != d->vram_first || nr != d->vram_nr) {
        /* a new range: every page is reported */
        memset(bm, 0xff, (nr + 7) / 8);
        if (nr % 8)
            bm[nr / 8] &= (1 << (nr % 8)) - 1;
        d->vram_first = first_pfn;
        d->vram_nr = nr;
    } else {
        memset(bm, 0, (nr + 7) / 8);
        for (uint32_t i = 0; i < nr; i++) {
            uint64_t p = first_pfn + i;

            if (p < MAX_PFNS && bit_test(d->dirty, p)) {
                bm[i / 8] |= 1 << (i % 8);
                d->dirty[p / 8] &= ~(1 << (p % 8));
            }
        }
    }
    guest_writes(d);
    save();
    return 0;
}

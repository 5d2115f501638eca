/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's state file, $FAKE_XEN_STATE (see fake.h): re-read
 * by each process (and again when another process replaced it), rewritten
 * after each change, under a lock, merged with what other processes wrote
 * meanwhile (xl migrate and its receiver run at once on one file).
 *
 * Lines (key=value fields, any order; '#' comments):
 *   domain <id> uuid=<uuid> flags=<running,blocked,paused,shutdown,dying>
 *          reason=<SHUTDOWN_*> tot=<pages> max=<pages> vcpus=<online>
 *          maxvcpu=<id> cpu=<ns> type=<pv|pvh|hvm> logdirty=<0|1>
 *          vram=<first>+<nr> mech=<none|pml|wp> maxpfn=<pfn>
 *          dirty=<pfn ranges> write=<pfn ranges> vdirtied=<n,n,...>
 *          calls=<clean>,<peek>,<vram> faults=<n> total=<dirtied>
 *          vrate=<dirtied>:<pml>:<wp>:<ple>,... (per vCPU, per sample of
 *          the dirty-stats sysctl: fake_sysctl.c)
 *          brate=<n>,<n>,... bshift=<log2 pfns> (pages dirtied per block
 *          per sample of get_dirty_blocks; at most 64 blocks)
 *          erate=<reason>:<n>,... (exits per vCPU per sample)
 *          saturate=1 (logged writes grow only in samples after a re-arm:
 *          a guest whose working set is all dirty)
 *          seed=<n> memhash=<hex> pause=<count, if more than 1>
 *          suspend=<ack|late|noack|nosuspend|crash> (PV drivers and how
 *          the guest answers a suspend request: fake_suspend.c)
 *   console <one line of the hypervisor's console ring>
 *   fail <operation> <errno>       every call of it fails (fake_fail)
 * Pfn ranges are "a-b,c,...", hex with 0x or decimal.  A domain's pages
 * [0, tot) are populated; a page of a domain with a seed reads as a pattern
 * of (seed, pfn), other pages as zeroes, until written through a writable
 * foreign mapping (kept for the process); memhash is a digest of [0, tot),
 * rewritten whenever the contents are known (a seeded domain, or one this
 * process wrote): a restored domain has its source's memhash.  'write' is
 * what the guest keeps writing: after log-dirty is switched on and after
 * each CLEAN those pages are dirty (again), counted to the vCPUs in turn.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_private.h"

static struct {
    bool loaded;                        /* from the file, the default, or fake_reset */
    bool file_less;                     /* fake_reset: no file, ever */
    ino_t ino;                          /* of the state file read */
    uint32_t destroyed[FAKE_MAX_DOMS];  /* since the last save */
    int ndestroyed;
    bool console_touched;
    char *console[FAKE_MAX_LINES];
    int nconsole;
    char fail_op[FAKE_MAX_LINES][48];
    int fail_errno[FAKE_MAX_LINES];
    int nfail;
} st;

static const char default_state[] =
    "domain 0 flags=running tot=262144 max=262144 vcpus=2 maxvcpu=1 "
        "cpu=41200000000 type=pvh\n"
    "domain 1 uuid=5a1e0000-0000-4000-8000-000000000001 flags=blocked "
        "tot=65536 max=65536 vcpus=1 cpu=3500000000 type=pvh\n"
    "domain 5 uuid=5a1e0000-0000-4000-8000-000000000005 flags=running "
        "tot=32768 max=32768 vcpus=2 maxvcpu=1 cpu=900000000 type=pvh "
        "write=0x100-0x13f\n"
    "console (XEN) Xen version 4.17 (fake)\n"
    "console (XEN) VMX: PML enabled\n";

bool fake_state_loaded(void)
{
    return st.loaded;
}

void fake_state_reset(void)
{
    for ( int i = 0; i < st.nconsole; i++ )
        free(st.console[i]);
    memset(&st, 0, sizeof(st));
    st.loaded = st.file_less = true;
}

void fake_state_forget(uint32_t id)
{
    if ( st.ndestroyed < FAKE_MAX_DOMS )
        st.destroyed[st.ndestroyed++] = id;
}

/* ---- reading ---------------------------------------------------------------------- */

static void parse_ranges(uint8_t *bm, const char *s)
{
    char *copy = strdup(s), *save = NULL;

    for ( char *tok = strtok_r(copy, ",", &save); tok;
          tok = strtok_r(NULL, ",", &save) )
    {
        char *dash = strchr(tok + 1, '-');
        uint64_t a = strtoull(tok, NULL, 0), b = dash ? strtoull(dash + 1, NULL, 0) : a;

        for ( uint64_t p = a; p <= b && p < FAKE_MAX_PFNS; p++ )
            fake_bit_set(bm, p);
    }
    free(copy);
}

static void parse_uuid(uint8_t *u, const char *s)
{
    int n = 0;

    for ( ; *s && n < 16; s++ )
    {
        unsigned int v;

        if ( *s == '-' )
            continue;
        if ( sscanf(s, "%2x", &v) != 1 )
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

/* The items of a comma-separated list (at most max, each cut at 31 bytes). */
static unsigned int split(const char *val, char (*items)[32], unsigned int max)
{
    unsigned int n = 0;

    while ( *val && n < max )
    {
        size_t len = strcspn(val, ",");

        snprintf(items[n++], 32, "%.*s", (int)(len < 31 ? len : 31), val);
        val += len + (val[len] == ',');
    }
    return n;
}

static void parse_field(struct fake_dom *d, const char *key, const char *val)
{
    char t[FAKE_MAX_BLOCKS][32];
    unsigned int n;

    if ( !strcmp(key, "uuid") )
        parse_uuid(d->handle, val);
    else if ( !strcmp(key, "flags") )
    {
        for ( size_t i = 0; i < sizeof(flag_names) / sizeof(*flag_names); i++ )
            if ( strstr(val, flag_names[i].name) )
                d->flags |= flag_names[i].bit;
        if ( d->flags & XEN_DOMINF_paused )
        {
            d->flags &= ~XEN_DOMINF_paused;
            if ( !d->pause_count )
                d->pause_count = 1;
        }
    }
    else if ( !strcmp(key, "pause") )
        d->pause_count = strtoul(val, NULL, 0);
    else if ( !strcmp(key, "reason") )
        d->reason = strtoul(val, NULL, 0);
    else if ( !strcmp(key, "suspend") )
    {
        /* PV drivers: HVM_PARAM_CALLBACK_IRQ set, as Linux does. */
        int m = fake_suspend_mode(val);

        d->suspend_mode = m < 0 ? FAKE_SUSPEND_NONE : m;
        if ( d->suspend_mode )
        {
            d->params[HVM_PARAM_CALLBACK_IRQ] = 1;
            d->param_set[HVM_PARAM_CALLBACK_IRQ] = true;
        }
    }
    else if ( !strcmp(key, "tot") )
        d->tot_pages = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "max") )
        d->max_pages = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "cpu") )
        d->cpu_time = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "vcpus") )
        d->nr_cpus = strtoul(val, NULL, 0);
    else if ( !strcmp(key, "maxvcpu") )
        d->max_vcpus = strtoul(val, NULL, 0) + 1;
    else if ( !strcmp(key, "type") )
        snprintf(d->type, sizeof(d->type), "%s", val);
    else if ( !strcmp(key, "logdirty") )
        d->logdirty = atoi(val);
    else if ( !strcmp(key, "vram") )
    {
        const char *plus = strchr(val, '+');

        d->vram_first = strtoull(val, NULL, 0);
        d->vram_nr = plus ? strtoul(plus + 1, NULL, 0) : 0;
    }
    else if ( !strcmp(key, "mech") )
        d->mech = !strcmp(val, "pml") ? XEN_DIRTY_MECH_PML :
                  !strcmp(val, "wp") ? XEN_DIRTY_MECH_WP : XEN_DIRTY_MECH_NONE;
    else if ( !strcmp(key, "maxpfn") )
        d->max_gpfn = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "dirty") || !strcmp(key, "write") )
    {
        if ( strcmp(val, "none") )
            parse_ranges(key[0] == 'd' ? d->dirty : d->write, val);
    }
    else if ( !strcmp(key, "vdirtied") )
    {
        n = split(val, t, FAKE_MAX_VCPUS);
        for ( unsigned int i = 0; i < n; i++ )
            d->vdirtied[i] = strtoull(t[i], NULL, 0);
    }
    else if ( !strcmp(key, "vrate") )
    {
        n = split(val, t, FAKE_MAX_VCPUS);
        for ( unsigned int i = 0; i < n; i++ )
            sscanf(t[i], "%" SCNu64 ":%" SCNu64 ":%" SCNu64 ":%" SCNu64,
                   &d->vrate[i][0], &d->vrate[i][1], &d->vrate[i][2], &d->vrate[i][3]);
    }
    else if ( !strcmp(key, "brate") )
    {
        d->nr_brate = split(val, t, FAKE_MAX_BLOCKS);
        for ( unsigned int i = 0; i < d->nr_brate; i++ )
            d->brate[i] = strtoull(t[i], NULL, 0);
    }
    else if ( !strcmp(key, "bshift") )
        d->bshift = strtoul(val, NULL, 0);
    else if ( !strcmp(key, "erate") )
    {
        d->nr_erate = split(val, t, FAKE_MAX_ERATES);
        for ( unsigned int i = 0; i < d->nr_erate; i++ )
            sscanf(t[i], "%u:%u", &d->erate[i][0], &d->erate[i][1]);
    }
    else if ( !strcmp(key, "calls") )
        sscanf(val, "%" SCNu64 ",%" SCNu64 ",%" SCNu64, &d->clean_calls,
               &d->peek_calls, &d->vram_calls);
    else if ( !strcmp(key, "saturate") )
        d->saturate = atoi(val);
    else if ( !strcmp(key, "faults") )
        d->faults = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "total") )
        d->dirty_total = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "params") )
    {
        /* HVM parameters set: index:value,... */
        n = split(val, t, HVM_NR_PARAMS);
        for ( unsigned int i = 0; i < n; i++ )
        {
            unsigned int idx;
            uint64_t v;

            if ( sscanf(t[i], "%u:%" SCNx64, &idx, &v) == 2 && idx < HVM_NR_PARAMS )
            {
                d->params[idx] = v;
                d->param_set[idx] = true;
            }
        }
    }
    else if ( !strcmp(key, "seed") )
        d->seed = strtoull(val, NULL, 0);
    else if ( !strcmp(key, "memhash") )
        d->memhash = strtoull(val, NULL, 16);
}

/* A domain line's defaults: 128 MiB, one vCPU, running free. */
static struct fake_dom *state_dom(uint32_t id)
{
    struct fake_dom *d = fake_dom_alloc(id);

    if ( !d )
        return NULL;
    d->pause_count = 0;
    d->explicit_map = false;
    d->touched = false;
    d->tot_pages = d->max_pages = 32768;
    d->nr_cpus = d->max_vcpus = 1;
    d->max_gpfn = 0x7fff;
    fake_mem_attach(d);
    return d;
}

static void load_line(char *line)
{
    char *save = NULL, *word;

    line[strcspn(line, "\n")] = 0;
    if ( !strncmp(line, "console ", 8) )
    {
        if ( st.nconsole < FAKE_MAX_LINES )
            st.console[st.nconsole++] = strdup(line + 8);
        return;
    }
    word = strtok_r(line, " \t", &save);
    if ( !word || word[0] == '#' )
        return;
    if ( !strcmp(word, "fail") )
    {
        char *op = strtok_r(NULL, " \t", &save), *e = strtok_r(NULL, " \t", &save);

        if ( op && e && st.nfail < FAKE_MAX_LINES )
        {
            snprintf(st.fail_op[st.nfail], sizeof(st.fail_op[0]), "%s", op);
            st.fail_errno[st.nfail++] = atoi(e);
            fake_fail(op, 0, atoi(e));
        }
        return;
    }
    if ( !strcmp(word, "domain") && (word = strtok_r(NULL, " \t", &save)) )
    {
        struct fake_dom *d = state_dom(strtoul(word, NULL, 0));

        while ( d && (word = strtok_r(NULL, " \t", &save)) )
        {
            char *eq = strchr(word, '=');

            if ( eq )
            {
                *eq = 0;
                parse_field(d, word, eq + 1);
            }
        }
    }
}

/* (Re-)read the machine; other processes may have changed it. */
static void read_text(FILE *f)
{
    char line[4096];

    for ( int i = 0; i < st.nconsole; i++ )
        free(st.console[i]);
    st.nconsole = st.nfail = 0;
    fake_fail_clear();
    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        fake.dom[i].exists = false;
    while ( fgets(line, sizeof(line), f) )
        load_line(line);
}

static void read_state(const char *path)
{
    struct stat sb;
    FILE *f = fopen(path, "r");

    if ( !f )
    {
        FILE *empty = fmemopen((void *)"", 1, "r");

        read_text(empty);
        fclose(empty);
        return;
    }
    if ( !fstat(fileno(f), &sb) )
        st.ino = sb.st_ino;
    read_text(f);
    fclose(f);
}

void fake_state_load(void)
{
    const char *path = getenv("FAKE_XEN_STATE");
    struct stat sb;

    if ( st.loaded )
    {
        /* Another process (xl migrate-receive) may have saved since. */
        if ( !st.file_less && path && !stat(path, &sb) && sb.st_ino != st.ino )
            read_state(path);
        return;
    }
    st.loaded = true;
    fake.next_id = 1;
    fake.now_ns = 1000000000ULL;
    if ( path )
        read_state(path);
    else
    {
        FILE *f = fmemopen((void *)default_state, sizeof(default_state) - 1, "r");

        read_text(f);
        fclose(f);
    }
}

/* ---- writing ------------------------------------------------------------------------- */

static void print_ranges(FILE *f, const uint8_t *bm)
{
    bool first = true;

    for ( uint64_t p = 0; p < FAKE_MAX_PFNS; )
    {
        uint64_t a = p;

        if ( !fake_bit_test(bm, p) )
        {
            p++;
            continue;
        }
        while ( p < FAKE_MAX_PFNS && fake_bit_test(bm, p) )
            p++;
        fprintf(f, "%s%#" PRIx64, first ? "" : ",", a);
        if ( p - 1 > a )
            fprintf(f, "-%#" PRIx64, p - 1);
        first = false;
    }
    if ( first )
        fprintf(f, "none");
}

static void print_dom(FILE *f, struct fake_dom *d)
{
    const uint8_t *u = d->handle;
    unsigned int flags = d->flags | (d->pause_count ? XEN_DOMINF_paused : 0);
    unsigned int nv = d->max_vcpus ? d->max_vcpus : 1;
    bool first = true;

    fprintf(f, "domain %u uuid=%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
            "%02x%02x%02x%02x%02x%02x flags=", d->id, u[0], u[1], u[2], u[3],
            u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
            u[14], u[15]);
    for ( size_t k = 0; k < sizeof(flag_names) / sizeof(*flag_names); k++ )
        if ( flags & flag_names[k].bit )
        {
            fprintf(f, "%s%s", first ? "" : ",", flag_names[k].name);
            first = false;
        }
    fprintf(f, "%s reason=%u tot=%lu max=%lu vcpus=%u maxvcpu=%u cpu=%" PRIu64
            " type=%s logdirty=%d vram=%#" PRIx64 "+%u mech=%s maxpfn=%#" PRIx64
            " dirty=", first ? "none" : "", d->reason, d->tot_pages,
            d->max_pages, d->nr_cpus, nv - 1, d->cpu_time, d->type, d->logdirty,
            d->vram_first, d->vram_nr,
            d->mech == XEN_DIRTY_MECH_PML ? "pml" :
            d->mech == XEN_DIRTY_MECH_WP ? "wp" : "none", d->max_gpfn);
    print_ranges(f, d->dirty);
    fprintf(f, " write=");
    print_ranges(f, d->write);
    fprintf(f, " vdirtied=");
    for ( unsigned int v = 0; v < nv && v < FAKE_MAX_VCPUS; v++ )
        fprintf(f, "%s%" PRIu64, v ? "," : "", d->vdirtied[v]);
    fprintf(f, " vrate=");
    for ( unsigned int v = 0; v < nv && v < FAKE_MAX_VCPUS; v++ )
        fprintf(f, "%s%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64, v ? "," : "",
                d->vrate[v][0], d->vrate[v][1], d->vrate[v][2], d->vrate[v][3]);
    if ( d->nr_brate )
    {
        fprintf(f, " bshift=%u brate=", d->bshift);
        for ( unsigned int b = 0; b < d->nr_brate; b++ )
            fprintf(f, "%s%" PRIu64, b ? "," : "", d->brate[b]);
    }
    if ( d->nr_erate )
    {
        fprintf(f, " erate=");
        for ( unsigned int e = 0; e < d->nr_erate; e++ )
            fprintf(f, "%s%u:%u", e ? "," : "", d->erate[e][0], d->erate[e][1]);
    }
    if ( d->saturate )
        fprintf(f, " saturate=%d", d->saturate);
    fprintf(f, " calls=%" PRIu64 ",%" PRIu64 ",%" PRIu64 " faults=%" PRIu64
            " total=%" PRIu64, d->clean_calls, d->peek_calls, d->vram_calls,
            d->faults, d->dirty_total);
    if ( d->pause_count > 1 )
        fprintf(f, " pause=%u", d->pause_count);
    if ( d->suspend_mode )
        fprintf(f, " suspend=%s", fake_suspend_mode_name(d->suspend_mode));
    fake_update_memhash(d);
    for ( unsigned int i = 0, first = 1; i < HVM_NR_PARAMS; i++ )
        if ( d->param_set[i] )
        {
            fprintf(f, "%s%u:%#" PRIx64, first ? " params=" : ",", i, d->params[i]);
            first = 0;
        }
    if ( d->seed )
        fprintf(f, " seed=%" PRIu64, d->seed);
    if ( d->seed || (d->mem && d->mem->stored) || d->memhash )
        fprintf(f, " memhash=%016" PRIx64, d->memhash);
    fprintf(f, "\n");
}

/* This process's changes (domains touched, destroyed, the console) over the file. */
static void merge_into_file_view(const char *path)
{
    static struct fake_dom mine[FAKE_MAX_DOMS];
    uint32_t gone[FAKE_MAX_DOMS];
    char *console[FAKE_MAX_LINES];
    int nmine = 0, ngone = st.ndestroyed, ncons = st.nconsole;
    bool cons = st.console_touched;

    for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
        if ( fake.dom[i].exists && fake.dom[i].touched )
            mine[nmine++] = fake.dom[i];
    memcpy(gone, st.destroyed, sizeof(gone));
    if ( cons )
    {
        memcpy(console, st.console, sizeof(console));
        st.nconsole = 0;                /* keep ours from being freed */
    }
    read_state(path);
    for ( int g = 0; g < ngone; g++ )
    {
        struct fake_dom *d = fake_find(gone[g]);

        if ( d )
            d->exists = false;          /* its memory went with the destroy */
    }
    for ( int k = 0; k < nmine; k++ )
    {
        struct fake_dom *d = fake_find(mine[k].id);
        unsigned int i;

        for ( i = 0; !d && i < FAKE_MAX_DOMS; i++ )
            if ( !fake.dom[i].exists )
                d = &fake.dom[i];
        if ( !d )
            continue;
        *d = mine[k];
        d->touched = false;
        fake_mem_attach(d);
    }
    if ( cons )
    {
        for ( int i = 0; i < st.nconsole; i++ )
            free(st.console[i]);
        memcpy(st.console, console, sizeof(console));
        st.nconsole = ncons;
    }
    st.ndestroyed = 0;
    st.console_touched = false;
}

void fake_state_save(void)
{
    const char *path = getenv("FAKE_XEN_STATE");
    char tmp[4200], lock[4200];
    struct stat sb;
    int lockfd;
    FILE *f;

    if ( st.file_less || !path )
        return;
    snprintf(lock, sizeof(lock), "%s.lock", path);
    lockfd = open(lock, O_RDWR | O_CREAT, 0644);
    if ( lockfd >= 0 )
        flock(lockfd, LOCK_EX);
    merge_into_file_view(path);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if ( f )
    {
        for ( unsigned int i = 0; i < FAKE_MAX_DOMS; i++ )
            if ( fake.dom[i].exists )
                print_dom(f, &fake.dom[i]);
        for ( int i = 0; i < st.nconsole; i++ )
            fprintf(f, "console %s\n", st.console[i]);
        for ( int i = 0; i < st.nfail; i++ )
            fprintf(f, "fail %s %d\n", st.fail_op[i], st.fail_errno[i]);
        fclose(f);
        rename(tmp, path);
        if ( !stat(path, &sb) )
            st.ino = sb.st_ino;
    }
    if ( lockfd >= 0 )
        close(lockfd);
}

/* ---- the console ring -------------------------------------------------------------- */

long fake_console_read(char *buf, uint32_t *count, uint32_t *index,
                       bool incremental, bool clear)
{
    size_t total = 0, pos = incremental ? *index : 0, done = 0;
    char *all;

    for ( int i = 0; i < st.nconsole; i++ )
        total += strlen(st.console[i]) + 1;
    all = malloc(total + 1);
    if ( !all )
        return -ENOMEM;
    all[0] = 0;
    for ( int i = 0; i < st.nconsole; i++ )
    {
        strcat(all, st.console[i]);
        strcat(all, "\n");
    }
    while ( pos < total && done < *count )
        buf[done++] = all[pos++];
    free(all);
    *count = (uint32_t)done;
    *index = (uint32_t)pos;
    if ( clear )
    {
        for ( int i = 0; i < st.nconsole; i++ )
            free(st.console[i]);
        st.nconsole = 0;
        st.console_touched = true;
        fake_state_save();
    }
    return 0;
}

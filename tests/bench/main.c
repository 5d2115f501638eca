/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark driver (control domain) of `make bench`.
 *
 * Domain 0 (this kernel) runs the specjbb-like domU (tests/jbb) through
 * cells: for every seed, working-set size and mode -- log-dirty off,
 * dirty-VRAM tracking of the framebuffer (read at a fixed period), global
 * log-dirty (CLEAN at a fixed period) -- it has the domU rebuild its
 * working set from the seed, turns the mode on, lets the domU run for a
 * warm-up and then for a fixed budget of the domU's own CPU time, and
 * prints one line per cell (at most 255 characters, the hypervisor's console
 * line, hence the short keys):
 *
 *   BENCH mech=PML cost=0 mode=global seed=3 ws=8 period=16000000 tx=107009
 *         ticks=384178398 score=278540.9 wpct=28 acts=24 dirty=38561
 *         pmlfull=72 wpfault=0 d0ticks=9790561 exits=311:PREEMPT=239,PML_FULL=72
 *
 *   mech, cost  the boot's mechanism (PML, WP) and vmexit_cost_ticks
 *   ws, period  working set (MiB); CLEAN or VRAM-read period (domU ticks)
 *   tx, ticks   transactions, and the domU's CPU time they took
 *   score       tx per 10^9 ticks of the domU's CPU time
 *   wpct        stores among the transactions' working-set accesses, %
 *   acts        CLEANs or VRAM reads made
 *   dirty, pmlfull, wpfault   xc_dirty_stats: pages dirtied, PML-full
 *               exits, write-protection faults
 *   d0ticks     this driver's own CPU time meanwhile
 *   exits       the domU's VM exits, then by reason (xc_vcpu_exit_counts)
 *
 * and a second line for the same cell with what the guest would feel on a
 * shared CPU and what each log-dirty operation cost the control domain:
 *
 *   BENCHW mode=global seed=3 ws=8 period=16000000 wall=402211004
 *          wscore=266050.1 cln=24 clt=1234567 clmax=60000 clpre=0 en=12345
 *          pages=262144
 *
 *   wall        TSC ticks that passed while the budget ran: the domU's CPU
 *               time plus everything else the one physical CPU did
 *               meanwhile (this driver's polling, its CLEANs, the
 *               hypervisor's scheduling)
 *   wscore      tx per 10^9 ticks of that wall time
 *   cln, clt, clmax   CLEANs made while measuring, the ticks of this
 *               driver's CPU time they took in all, and the longest
 *   clpre       how many of them were preempted and continued
 *   en          ticks of this driver's CPU time that turning the mode on
 *               took (SHADOW_OP_ENABLE_LOGDIRTY for global)
 *   pages       the domU's RAM, pages
 *
 * The domU's CPU time (xc_domain_getinfolist's cpu_time, converted back to
 * TSC ticks with physinfo's cpu_khz) includes the hypervisor's work in the
 * domU's VM exits but not this driver's execution, nor the hypercalls it
 * makes (a CLEAN's copy and re-arm run in dom0's time, as they do on a
 * control domain running on other CPUs).  The periods are in the domU's CPU
 * ticks too.  The driver acts when the domU's time slice ends
 * (sched_credit_tslice_ms), so periods should be multiples of the slice.
 *
 * The mechanism (PML or write protection) is the boot's, found by turning
 * log-dirty on once at the start (which splits the domU's superpages for
 * every cell alike); the per-exit cost is the hypervisor's
 * vmexit_cost_ticks, read from its command line.
 *
 * Guest command line (lists are "a,b,c"; seeds also "first-last"):
 *   domu=<id>            the jbb domain (default 1)
 *   seeds=<list>         default 1
 *   ws=<list of MiB>     working sets (default 8)
 *   modes=<list>         of off, vram, global (default all three)
 *   clean=<list>         global log-dirty CLEAN periods, ticks (default 16000000)
 *   vram=<ticks>         VRAM read period (default 48000000)
 *   budget=<ticks>       measured domU CPU time per cell (default 480000000)
 *   warmup=<ticks>       domU CPU time before measuring (default 48000000)
 *   fb_every=<n> fb_lines=<n>   framebuffer drawing (default 256, 4)
 *   fb_pages=<n>         framebuffer lines of 4 KiB, tracked by the vram
 *                        mode (default 256: 1 MiB; 768: 1024x768x32)
 *   fb_scroll=<0|1>      1: the domU draws as a text console (scrolls the
 *                        screen up by fb_lines and draws a new row)
 *   bound=<ticks>        TSC ticks a cell (or the domU's start, or its stop)
 *                        may take before the driver gives up on it with a
 *                        failure (default 10 x (warmup + budget)): runs end
 *                        in a bounded number of emulated ticks, whatever
 *                        the host's speed, even if the domU stops running
 */
#include "test.h"
#include "bench.h"
#include <xenctrl.h>
#include <xendevicemodel.h>
#include <xenforeignmemory.h>
#include <sys/mman.h>
#include <errno.h>
#include <string.h>

const char test_title[] = "Benchmark driver: specjbb-like domU under log-dirty modes";

#define MAX_LIST        16
#define MAX_VCPUS       8
#define NR_REASONS      65

enum mode { MODE_OFF, MODE_VRAM, MODE_GLOBAL };
static const char *const mode_names[] = { "off", "vram", "global" };

/*
 * VM exit reasons (Intel SDM vol. 3, appendix C), with short names to keep a
 * BENCH line within the hypervisor's console line (255 characters).
 */
static const char *const reason_names[NR_REASONS] = {
    [0] = "EXC_NMI",        [1] = "EXTINT",         [2] = "TRIPLE",
    [3] = "INIT",           [4] = "SIPI",           [10] = "CPUID",
    [12] = "HLT",           [18] = "VMCALL",        [28] = "CR",
    [30] = "IO",            [31] = "RDMSR",         [32] = "WRMSR",
    [33] = "BAD_STATE",     [40] = "PAUSE",         [48] = "EPT_VIOL",
    [49] = "EPT_MISC",      [52] = "PREEMPT",       [54] = "WBINVD",
    [62] = "PML_FULL",
};

static xc_interface *xch;
static xendevicemodel_handle *dmod;
static xenforeignmemory_handle *fmem;
static uint32_t domu;
static struct bench_ctrl *ctrl;
static unsigned long domu_pages, cpu_khz;
static unsigned int nr_vcpus;
static const char *mech_name = "?";
static unsigned long exit_cost, slice_ticks;
static unsigned long failures;

/* CLEANs: how many, their cost in all and the longest (this driver's time). */
static uint64_t clean_n, clean_ticks, clean_max;

/* ---- parsing ------------------------------------------------------------ */

/* "a,b,c-d" into list[]; returns the number of values (0 on a bad list). */
static unsigned int parse_list(const char *s, unsigned long *list, unsigned int max)
{
    unsigned int n = 0;

    while ( *s )
    {
        const char *e;
        unsigned long a = simple_strtoul(s, &e, 0), b = a;

        if ( e == s )
            return 0;
        if ( *e == '-' )
        {
            s = e + 1;
            b = simple_strtoul(s, &e, 0);
            if ( e == s || b < a )
                return 0;
        }
        for ( ; a <= b; a++ )
        {
            if ( n == max )
                return 0;
            list[n++] = a;
        }
        if ( *e == ',' )
            e++;
        else if ( *e )
            return 0;
        s = e;
    }
    return n;
}

static unsigned int cmdline_list(const char *key, unsigned long *list,
                                 unsigned int max, unsigned long def)
{
    char buf[128];
    unsigned int n;

    if ( !cmdline_get_str(key, buf, sizeof(buf)) )
    {
        list[0] = def;
        return 1;
    }
    n = parse_list(buf, list, max);
    if ( !n )
        panic("bad list for %s: \"%s\"\n", key, buf);
    return n;
}

/*
 * The value of option 'name' on the hypervisor's command line ('-' and '_'
 * alike, the last one wins, as the hypervisor parses it), or 'def'.
 */
static unsigned long xen_option(const char *xen_cmdline, const char *name,
                                unsigned long def)
{
    const char *p = xen_cmdline;
    size_t len = strlen(name);
    unsigned long val = def;

    while ( *p )
    {
        size_t i;

        while ( *p == ' ' )
            p++;
        if ( p[0] == '-' && p[1] == '-' && (p[2] == ' ' || !p[2]) )
            break;
        for ( i = 0; i < len; i++ )
        {
            char a = p[i] == '-' ? '_' : p[i], b = name[i] == '-' ? '_' : name[i];

            if ( a != b )
                break;
        }
        if ( i == len && p[len] == '=' )
            val = simple_strtoul(p + len + 1, NULL, 0);
        while ( *p && *p != ' ' )
            p++;
    }
    return val;
}

/* ---- measurements -------------------------------------------------------- */

/* A domain's CPU time in TSC ticks. */
static uint64_t cpu_ticks(uint32_t dom)
{
    xc_domaininfo_t info;

    if ( xc_domain_getinfolist(xch, dom, 1, &info) != 1 || info.domain != dom )
        panic("cannot read d%u's info: %d\n", dom, -errno);
    return (uint64_t)info.cpu_time * cpu_khz / 1000000;
}

struct snapshot {
    uint64_t wall, cpu, dom0_cpu, tx, reads, writes, fb_draws;
    uint64_t exits[NR_REASONS], exits_total;
    uint64_t pml_full, pml_entries, wp_faults, pages_dirtied;
    uint64_t clean_calls, vram_calls, clean_preempted;
    uint64_t clean_n, clean_ticks;
};

static void snapshot(struct snapshot *s)
{
    xen_domctl_dirty_stats_t st;
    xen_dirty_vcpu_stats_t vs[MAX_VCPUS];
    unsigned int n = MAX_VCPUS, v, r;

    memset(s, 0, sizeof(*s));
    s->wall = rdtsc();
    s->cpu = cpu_ticks(domu);
    s->dom0_cpu = cpu_ticks(0);
    s->tx = ctrl->tx;
    s->reads = ctrl->reads;
    s->writes = ctrl->writes;
    s->fb_draws = ctrl->fb_draws;

    for ( v = 0; v < nr_vcpus; v++ )
    {
        uint64_t counts[NR_REASONS];
        unsigned int nr = NR_REASONS;

        memset(counts, 0, sizeof(counts));
        if ( xc_vcpu_exit_counts(xch, domu, v, counts, &nr) )
            panic("xc_vcpu_exit_counts(d%u, %u): %d\n", domu, v, -errno);
        for ( r = 0; r < NR_REASONS; r++ )
        {
            s->exits[r] += counts[r];
            s->exits_total += counts[r];
        }
    }

    if ( xc_dirty_stats(xch, domu, &st, vs, &n) )
        panic("xc_dirty_stats(d%u): %d\n", domu, -errno);
    for ( v = 0; v < n && v < MAX_VCPUS; v++ )
    {
        s->pml_full += vs[v].pml_full_exits;
        s->pml_entries += vs[v].pml_entries;
        s->wp_faults += vs[v].wp_faults;
        s->pages_dirtied += vs[v].pages_dirtied;
    }
    s->clean_calls = st.clean_calls;
    s->vram_calls = st.vram_calls;
    s->clean_preempted = st.clean_preempted;
    s->clean_n = clean_n;
    s->clean_ticks = clean_ticks;
}

/* ---- the domU ------------------------------------------------------------ */

static void command(uint32_t cmd)
{
    ctrl->cmd = cmd;
    __atomic_store_n(&ctrl->cmd_seq, ctrl->cmd_seq + 1, __ATOMIC_RELEASE);
}

/*
 * Every wait of this driver is bounded in TSC ticks (emulated instructions
 * under Bochs), never in host seconds: past the deadline it fails.
 */
static unsigned long tick_bound;

static bool past(uint64_t deadline)
{
    return rdtsc() > deadline;
}

static bool wait_ack(uint64_t deadline)
{
    while ( __atomic_load_n(&ctrl->ack_seq, __ATOMIC_ACQUIRE) != ctrl->cmd_seq )
    {
        if ( past(deadline) )
            return false;
        hypercall_yield();
    }
    return true;
}

/* ---- the modes ------------------------------------------------------------ */

static DECLARE_HYPERCALL_BUFFER(unsigned long, bitmap);

/*
 * The cost of an operation in this driver's own CPU time: cpu_ticks(0)
 * before and after, less what one cpu_ticks(0) adds between two readings
 * (measured at start).  Unlike TSC ticks, this leaves out the slices the
 * domU runs if the operation is preempted and continued.
 */
static uint64_t d0_read_overhead;

static uint64_t d0_cost(uint64_t before)
{
    uint64_t d = cpu_ticks(0) - before;

    return d > d0_read_overhead ? d - d0_read_overhead : 0;
}

static unsigned long vram_bits[BENCH_FB_MAX_PAGES / (8 * sizeof(unsigned long))];
static unsigned long fb_pages, fb_scroll;

static void mode_on(enum mode m)
{
    int rc = 0;

    switch ( m )
    {
    case MODE_OFF:
        break;
    case MODE_VRAM:
        rc = xendevicemodel_track_dirty_vram(dmod, domu, BENCH_FB_GFN,
                                             fb_pages, vram_bits);
        break;
    case MODE_GLOBAL:
        rc = xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_ENABLE_LOGDIRTY, NULL, 0);
        break;
    }
    if ( rc )
        panic("turning %s on: %d\n", mode_names[m], -errno);
}

/* What a display model or a migration loop does every period. */
static void mode_tick(enum mode m)
{
    long long rc = 0;

    switch ( m )
    {
    case MODE_OFF:
        break;
    case MODE_VRAM:
        rc = xendevicemodel_track_dirty_vram(dmod, domu, BENCH_FB_GFN,
                                             fb_pages, vram_bits);
        break;
    case MODE_GLOBAL:
    {
        uint64_t t0 = cpu_ticks(0), t;

        rc = xc_logdirty_control(xch, domu, XEN_DOMCTL_SHADOW_OP_CLEAN,
                                 HYPERCALL_BUFFER(bitmap), domu_pages, 0, NULL);
        t = d0_cost(t0);
        clean_n++;
        clean_ticks += t;
        if ( t > clean_max )
            clean_max = t;
        break;
    }
    }
    if ( rc < 0 )
        panic("%s period: %d\n", mode_names[m], -errno);
}

static void mode_off(enum mode m)
{
    int rc = 0;

    switch ( m )
    {
    case MODE_OFF:
        break;
    case MODE_VRAM:
        rc = xendevicemodel_track_dirty_vram(dmod, domu, 0, 0, NULL);
        break;
    case MODE_GLOBAL:
        rc = xc_shadow_control(xch, domu, XEN_DOMCTL_SHADOW_OP_OFF, NULL, 0);
        break;
    }
    if ( rc )
        panic("turning %s off: %d\n", mode_names[m], -errno);
}

/* Turn global log-dirty on and off once: which mechanism does this boot use? */
static void probe_mechanism(void)
{
    xen_domctl_dirty_stats_t st;
    unsigned int n = 0;

    mode_on(MODE_GLOBAL);
    if ( xc_dirty_stats(xch, domu, &st, NULL, &n) )
        panic("xc_dirty_stats: %d\n", -errno);
    mode_off(MODE_GLOBAL);
    mech_name = st.mechanism == XEN_DIRTY_MECH_PML ? "PML" :
                st.mechanism == XEN_DIRTY_MECH_WP ? "WP" : "none";
}

/* ---- one cell --------------------------------------------------------------- */

struct cell {
    unsigned long seed, ws_mib, period;     /* period 0: no periodic action */
    enum mode mode;
};

static unsigned long fb_every, fb_lines, budget, warmup;
static uint64_t enable_ticks;

static void print_cell(const struct cell *c, const struct snapshot *a,
                       const struct snapshot *b)
{
    uint64_t tx = b->tx - a->tx, cpu = b->cpu - a->cpu;
    uint64_t reads = b->reads - a->reads, writes = b->writes - a->writes;
    uint64_t score10 = cpu ? tx * 10000000000ULL / cpu : 0;
    char line[400];
    unsigned int n, r;
    const char *sep = ":";

    n = snprintf(line, sizeof(line),
                 "BENCH mech=%s cost=%lu mode=%s seed=%lu ws=%lu period=%lu tx=%lu "
                 "ticks=%lu score=%lu.%lu wpct=%lu acts=%lu dirty=%lu pmlfull=%lu "
                 "wpfault=%lu d0ticks=%lu exits=%lu",
                 mech_name, exit_cost, mode_names[c->mode], c->seed, c->ws_mib,
                 c->period, (unsigned long)tx, (unsigned long)cpu,
                 (unsigned long)(score10 / 10), (unsigned long)(score10 % 10),
                 (unsigned long)(reads + writes ? writes * 100 / (reads + writes) : 0),
                 (unsigned long)(b->clean_calls - a->clean_calls +
                                 b->vram_calls - a->vram_calls),
                 (unsigned long)(b->pages_dirtied - a->pages_dirtied),
                 (unsigned long)(b->pml_full - a->pml_full),
                 (unsigned long)(b->wp_faults - a->wp_faults),
                 (unsigned long)(b->dom0_cpu - a->dom0_cpu),
                 (unsigned long)(b->exits_total - a->exits_total));
    for ( r = 0; r < NR_REASONS && n < sizeof(line); r++ )
    {
        if ( b->exits[r] == a->exits[r] )
            continue;
        if ( reason_names[r] )
            n += snprintf(line + n, sizeof(line) - n, "%s%s=%lu", sep, reason_names[r],
                          (unsigned long)(b->exits[r] - a->exits[r]));
        else
            n += snprintf(line + n, sizeof(line) - n, "%sR%u=%lu", sep, r,
                          (unsigned long)(b->exits[r] - a->exits[r]));
        sep = ",";
    }
    if ( n > 240 )
        printk("warning: the next BENCH line is %u characters long and may be split\n", n);
    printk("%s\n", line);

    {
        uint64_t wall = b->wall - a->wall;
        uint64_t wscore10 = wall ? tx * 10000000000ULL / wall : 0;

        printk("BENCHW mode=%s seed=%lu ws=%lu period=%lu wall=%lu wscore=%lu.%lu "
               "cln=%lu clt=%lu clmax=%lu clpre=%lu en=%lu pages=%lu\n",
               mode_names[c->mode], c->seed, c->ws_mib, c->period,
               (unsigned long)wall, (unsigned long)(wscore10 / 10),
               (unsigned long)(wscore10 % 10),
               (unsigned long)(b->clean_n - a->clean_n),
               (unsigned long)(b->clean_ticks - a->clean_ticks),
               (unsigned long)clean_max,
               (unsigned long)(b->clean_preempted - a->clean_preempted),
               (unsigned long)enable_ticks, domu_pages);
    }

    if ( !tx )
    {
        failures++;
        xtf_failure("Fail: no transactions in cell %s seed %lu\n",
                    mode_names[c->mode], c->seed);
    }
}

/*
 * Run the domU for the warm-up and then the budget (its CPU time), acting
 * every period.  We run only when its slice ends: a deadline counts as
 * reached within half a slice, so that a period of one slice acts every
 * slice although slices differ by a few ticks.
 */
static bool cell_overran(const struct cell *c, const char *what, uint64_t ran)
{
    xtf_failure("Fail: cell %s seed %lu ws %lu period %lu: %s not done within "
                "the bound of %lu ticks (domU ran %lu of its %lu)\n",
                mode_names[c->mode], c->seed, c->ws_mib, c->period, what,
                tick_bound, (unsigned long)ran, warmup + budget);
    return false;
}

static bool run_cell(const struct cell *c)
{
    struct snapshot before, after;
    uint64_t start, now, next, begin_at, end_at = 0, t0;
    uint64_t slack = slice_ticks / 2;
    uint64_t deadline = rdtsc() + tick_bound;
    bool measuring = false;

    ctrl->seed = c->seed;
    ctrl->ws_mib = c->ws_mib;
    ctrl->fb_every = fb_every;
    ctrl->fb_lines = fb_lines;
    ctrl->fb_pages = fb_pages;
    ctrl->fb_scroll = fb_scroll;
    command(BENCH_CMD_INIT);
    if ( !wait_ack(deadline) )
        return cell_overran(c, "building the working set", 0);
    if ( ctrl->error )
        panic("domU cannot set up %lu MiB: %d\n", c->ws_mib, ctrl->error);

    t0 = cpu_ticks(0);
    mode_on(c->mode);
    enable_ticks = d0_cost(t0);
    command(BENCH_CMD_RUN);
    if ( !wait_ack(deadline) )
        return cell_overran(c, "starting", 0);

    start = cpu_ticks(domu);
    next = start + c->period;
    begin_at = start + warmup;
    for ( ;; )
    {
        hypercall_yield();              /* the domU runs a slice */
        now = cpu_ticks(domu);
        if ( past(deadline) )
        {
            mode_off(c->mode);
            return cell_overran(c, "the budget", now - start);
        }
        if ( c->period && now + slack >= next )
        {
            mode_tick(c->mode);
            next += c->period;
        }
        if ( !measuring && now + slack >= begin_at )
        {
            clean_max = 0;
            snapshot(&before);
            end_at = before.cpu + budget;
            measuring = true;
        }
        else if ( measuring && now + slack >= end_at )
        {
            snapshot(&after);
            break;
        }
    }
    mode_off(c->mode);
    print_cell(c, &before, &after);
    return true;
}

/* ---- main -------------------------------------------------------------------- */

void test_main(void)
{
    static xen_commandline_t xen_cmdline;
    unsigned long seeds[MAX_LIST], ws[MAX_LIST], periods[MAX_LIST], modes[3];
    unsigned int nseeds, nws, nperiods, nmodes = 0, i, j, k, p;
    unsigned long vram_period, max_ws = 0, cells = 0;
    uint64_t deadline;
    xc_physinfo_t phys;
    xc_domaininfo_t info;
    char buf[64], *s;
    xen_pfn_t ctrl_gfn = BENCH_CTRL_GFN;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");

    domu = cmdline_ulong("domu", 1);
    nseeds = cmdline_list("seeds", seeds, MAX_LIST, 1);
    nws = cmdline_list("ws", ws, MAX_LIST, 8);
    nperiods = cmdline_list("clean", periods, MAX_LIST, 16000000);
    vram_period = cmdline_ulong("vram", 48000000);
    budget = cmdline_ulong("budget", 480000000);
    warmup = cmdline_ulong("warmup", 48000000);
    fb_every = cmdline_ulong("fb_every", 256);
    fb_lines = cmdline_ulong("fb_lines", 4);
    fb_pages = cmdline_ulong("fb_pages", BENCH_FB_PAGES);
    fb_scroll = cmdline_ulong("fb_scroll", 0);
    if ( !fb_pages || fb_pages > BENCH_FB_MAX_PAGES || fb_lines > fb_pages )
        return xtf_error("Error: fb_pages=%lu fb_lines=%lu (at most %lu pages)\n",
                         fb_pages, fb_lines, BENCH_FB_MAX_PAGES);
    tick_bound = cmdline_ulong("bound", 10 * (warmup + budget));
    if ( !cmdline_get_str("modes", buf, sizeof(buf)) )
        snprintf(buf, sizeof(buf), "off,vram,global");
    for ( s = buf; *s; )
    {
        char *e = strchr(s, ',');
        unsigned int m;

        if ( e )
            *e = '\0';
        for ( m = 0; m < 3 && strcmp(s, mode_names[m]); m++ )
            ;
        if ( m == 3 || nmodes == 3 )
            return xtf_error("Error: bad mode \"%s\"\n", s);
        modes[nmodes++] = m;
        s = e ? e + 1 : s + strlen(s);
    }
    for ( i = 0; i < nws; i++ )
        max_ws = ws[i] > max_ws ? ws[i] : max_ws;

    xch = xc_interface_open(NULL, NULL, 0);
    dmod = xendevicemodel_open(NULL, 0);
    fmem = xenforeignmemory_open(NULL, 0);
    if ( !xch || !dmod || !fmem )
        return xtf_error("Error: cannot open the control interfaces\n");
    if ( xc_physinfo(xch, &phys) || !phys.cpu_khz )
        return xtf_error("Error: physinfo: %d\n", -errno);
    cpu_khz = phys.cpu_khz;
    if ( xc_version(xch, XENVER_commandline, xen_cmdline) < 0 )
        return xtf_error("Error: cannot read the hypervisor's command line: %d\n", -errno);
    xen_cmdline[sizeof(xen_cmdline) - 1] = '\0';
    exit_cost = xen_option(xen_cmdline, "vmexit_cost_ticks", 0);
    slice_ticks = xen_option(xen_cmdline, "sched_credit_tslice_ms", 30) * cpu_khz;

    if ( xc_domain_getinfolist(xch, domu, 1, &info) != 1 || info.domain != domu )
        return xtf_error("Error: no domain %u\n", domu);
    domu_pages = info.max_pages;
    nr_vcpus = info.max_vcpu_id + 1;
    if ( nr_vcpus > MAX_VCPUS )
        return xtf_error("Error: d%u has too many vCPUs\n", domu);

    ctrl = xenforeignmemory_map(fmem, domu, PROT_READ | PROT_WRITE, 1, &ctrl_gfn, NULL);
    if ( !ctrl )
        return xtf_error("Error: cannot map d%u's control page: %d\n", domu, -errno);
    for ( deadline = rdtsc() + tick_bound;
          __atomic_load_n(&ctrl->magic, __ATOMIC_ACQUIRE) != BENCH_MAGIC; )
    {
        if ( past(deadline) )
            return xtf_failure("Fail: d%u did not start within %lu ticks\n",
                               domu, tick_bound);
        hypercall_yield();
    }
    if ( (BENCH_WS_GFN << PAGE_SHIFT) + (max_ws << 20) > ctrl->ram_bytes )
        return xtf_error("Error: a %lu MiB working set does not fit d%u's %lu KiB\n",
                         max_ws, domu, (unsigned long)(ctrl->ram_bytes >> 10));

    bitmap = xc_hypercall_buffer_alloc(xch, bitmap, DIV_ROUND_UP(domu_pages, 8));
    if ( !bitmap )
        return xtf_error("Error: no hypercall buffer\n");

    {
        uint64_t a = cpu_ticks(0), b = cpu_ticks(0);

        d0_read_overhead = b - a;
    }
    probe_mechanism();
    printk("BENCHXEN %s\n", xen_cmdline);
    printk("BENCHCFG mech=%s cost=%lu cpu_khz=%lu slice_ticks=%lu budget=%lu "
           "warmup=%lu vram_period=%lu fb_every=%lu fb_lines=%lu fb_pages=%lu "
           "fb_scroll=%lu domu_pages=%lu\n",
           mech_name, exit_cost, cpu_khz, slice_ticks, budget, warmup,
           vram_period, fb_every, fb_lines, fb_pages, fb_scroll, domu_pages);

    for ( i = 0; i < nseeds; i++ )
        for ( j = 0; j < nws; j++ )
            for ( k = 0; k < nmodes; k++ )
            {
                struct cell c = {
                    .seed = seeds[i], .ws_mib = ws[j], .mode = modes[k],
                };

                if ( c.mode == MODE_VRAM )
                    c.period = vram_period;
                if ( c.mode != MODE_GLOBAL )
                {
                    if ( !run_cell(&c) )
                        goto stop;
                    cells++;
                    continue;
                }
                for ( p = 0; p < nperiods; p++ )
                {
                    c.period = periods[p];
                    if ( !run_cell(&c) )
                        goto stop;
                    cells++;
                }
            }

    /*
     * Stop the domU (also after a cell overran: it may still run).  Its
     * control page goes when it does: unmap it first,
     * then wait for the domain to shut down.
     */
 stop:
    command(BENCH_CMD_STOP);
    xenforeignmemory_unmap(fmem, (void *)ctrl, 1);
    ctrl = NULL;
    for ( deadline = rdtsc() + tick_bound;
          xc_domain_getinfolist(xch, domu, 1, &info) == 1 && info.domain == domu &&
          !(info.flags & (XEN_DOMINF_shutdown | XEN_DOMINF_dying)); )
    {
        if ( past(deadline) )
        {
            xtf_failure("Fail: d%u did not stop within %lu ticks\n", domu, tick_bound);
            break;
        }
        hypercall_yield();
    }
    xc_hypercall_buffer_free(xch, bitmap);

    if ( !failures && xtf_status() <= STATUS_SUCCESS )
        xtf_success("Success: %lu cells measured\n", cells);
}

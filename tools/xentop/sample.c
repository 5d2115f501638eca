/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's samples: one xc_dirty_stats_all for every domain, and rates
 * from two of them over the hypervisor's own clock.  The dirty rate is
 * that of writes_logged (every write the mechanism logged): the pages a
 * domain wrote per interval, whoever re-arms its tracking (a consumer's
 * CLEAN, a VRAM read, or our own re-arm, track.c).  Where nothing re-arms,
 * it is the rate of pages_dirtied (first writes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xentop.h"

const char *const top_col_names[NR_COLS] = {
    [COL_NAME] = "NAME", [COL_ID] = "ID", [COL_STATE] = "STATE",
    [COL_VCPUS] = "VCPUS", [COL_MEM] = "MEM(k)", [COL_TRACK] = "TRACK",
    [COL_MECH] = "MECH", [COL_DIRTY] = "DIRTY/s", [COL_MIBS] = "MiB/s",
    [COL_PML] = "PMLFULL/s", [COL_WP] = "WPFAULT/s", [COL_PLE] = "PLE/s",
};

/* Negative: left-aligned. */
const int top_col_width[NR_COLS] = {
    [COL_NAME] = -16, [COL_ID] = 5, [COL_STATE] = 6, [COL_VCPUS] = 5,
    [COL_MEM] = 9, [COL_TRACK] = -14, [COL_MECH] = -4, [COL_DIRTY] = 10,
    [COL_MIBS] = 8, [COL_PML] = 9, [COL_WP] = 9, [COL_PLE] = 8,
};

/*
 * One sysctl per sample: the room is what the last sample needed and a
 * little more; a size query only at the first, and a retry only when the
 * hypervisor says ENOBUFS (more domains or vCPUs than room).
 */
static unsigned int room_d, room_v;

static void set_room(unsigned int nd, unsigned int nv)
{
    room_d = nd + 2 < XEN_DIRTY_SYSCTL_MAX_DOMAINS ? nd + 2 : XEN_DIRTY_SYSCTL_MAX_DOMAINS;
    room_v = nv + 8 < XEN_DIRTY_SYSCTL_MAX_VCPUS ? nv + 8 : XEN_DIRTY_SYSCTL_MAX_VCPUS;
}

int top_sample(xc_interface *xch, struct top_sample *s)
{
    unsigned int nd = 0, nv = 0;

    memset(s, 0, sizeof(*s));
    if (!room_d) {
        if (xc_dirty_stats_all(xch, NULL, &nd, NULL, &nv, NULL))
            return -1;
        set_room(nd, nv);
    }
    for (unsigned int tries = 0; tries < 4; tries++) {
        s->doms = calloc(room_d, sizeof(*s->doms));
        s->vcpus = calloc(room_v, sizeof(*s->vcpus));
        if (!s->doms || !s->vcpus)
            break;
        nd = room_d;
        nv = room_v;
        if (!xc_dirty_stats_all(xch, s->doms, &nd, s->vcpus, &nv, &s->now)) {
            s->nr_doms = nd;
            s->nr_vcpus = nv;
            return 0;
        }
        if (errno != ENOBUFS)
            break;
        set_room(nd, nv);
        top_sample_free(s);
    }
    top_sample_free(s);
    return -1;
}

void top_sample_free(struct top_sample *s)
{
    free(s->doms);
    free(s->vcpus);
    memset(s, 0, sizeof(*s));
}

static const xen_dirty_sysctl_domain_t *find(const struct top_sample *s, uint32_t domid)
{
    for (unsigned int i = 0; s && i < s->nr_doms; i++)
        if (s->doms[i].domid == domid)
            return &s->doms[i];
    return NULL;
}

/* A record that points outside the sample's vCPU array is not trusted. */
static bool vcpus_ok(const struct top_sample *s, const xen_dirty_sysctl_domain_t *d)
{
    return d->first_vcpu <= s->nr_vcpus && d->nr_vcpus <= s->nr_vcpus - d->first_vcpu;
}

static double rate(uint64_t now, uint64_t then, double interval)
{
    /* A counter that went back: a new domain with an old id. */
    return interval > 0 && now >= then ? (double)(now - then) / interval : 0;
}

static void state_string(uint32_t flags, char *st)
{
    unsigned int reason = (flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;

    strcpy(st, "------");
    if (flags & XEN_DOMINF_running)
        st[0] = 'r';
    if (flags & XEN_DOMINF_blocked)
        st[1] = 'b';
    if (flags & XEN_DOMINF_paused)
        st[2] = 'p';
    if (flags & XEN_DOMINF_shutdown) {
        st[3] = 's';
        if (reason == SHUTDOWN_crash)
            st[4] = 'c';
    }
    if (flags & XEN_DOMINF_dying)
        st[5] = 'd';
}

void top_make_rows(const struct top_sample *prev, const struct top_sample *cur,
                   top_name_fn name, struct top_rows *out)
{
    double iv = prev && cur->now > prev->now ? (cur->now - prev->now) / 1e9 : 0;

    memset(out, 0, sizeof(*out));
    out->interval = iv;
    out->row = calloc(cur->nr_doms ? cur->nr_doms : 1, sizeof(*out->row));
    if (!out->row)
        return;
    for (unsigned int i = 0; i < cur->nr_doms; i++) {
        const xen_dirty_sysctl_domain_t *d = &cur->doms[i], *p = find(prev, d->domid);
        struct top_row *r = &out->row[out->n];
        double piv = p ? iv : 0;

        if (!vcpus_ok(cur, d) || (p && !vcpus_ok(prev, p)))
            continue;
        r->domid = d->domid;
        r->flags = d->flags;
        r->nr_vcpus = d->nr_vcpus;
        r->mode = d->mode;
        r->mechanism = d->mechanism;
        r->mem_kib = d->tot_pages * 4;
        state_string(d->flags, r->state);
        if (!name || !name(d->domid, r->name, sizeof(r->name)))
            snprintf(r->name, sizeof(r->name), "(d%u)", d->domid);
        r->dirty = rate(d->writes_logged, p ? p->writes_logged : 0, piv);
        r->mibs = r->dirty * 4096 / (1024 * 1024);
        r->pml = rate(d->pml_full_exits, p ? p->pml_full_exits : 0, piv);
        r->wp = rate(d->wp_faults, p ? p->wp_faults : 0, piv);
        r->ple = rate(d->ple_exits, p ? p->ple_exits : 0, piv);
        r->exits = rate(d->exits_total, p ? p->exits_total : 0, piv);
        r->vcpu = calloc(d->nr_vcpus ? d->nr_vcpus : 1, sizeof(*r->vcpu));
        if (!r->vcpu)
            continue;
        for (unsigned int v = 0; v < d->nr_vcpus; v++) {
            const xen_dirty_sysctl_vcpu_t *c = &cur->vcpus[d->first_vcpu + v];
            const xen_dirty_sysctl_vcpu_t *o =
                p && v < p->nr_vcpus ? &prev->vcpus[p->first_vcpu + v] : NULL;
            double viv = o ? iv : 0;

            r->vcpu[v].dirty = rate(c->writes_logged, o ? o->writes_logged : 0, viv);
            r->vcpu[v].pml = rate(c->pml_full_exits, o ? o->pml_full_exits : 0, viv);
            r->vcpu[v].wp = rate(c->wp_faults, o ? o->wp_faults : 0, viv);
            r->vcpu[v].ple = rate(c->ple_exits, o ? o->ple_exits : 0, viv);
        }
        out->n++;
    }
}

void top_rows_free(struct top_rows *r)
{
    for (unsigned int i = 0; r->row && i < r->n; i++)
        free(r->row[i].vcpu);
    free(r->row);
    memset(r, 0, sizeof(*r));
}

static enum top_col sort_col;

static int cmp_num(double a, double b)
{
    return a < b ? 1 : a > b ? -1 : 0;     /* the largest first */
}

static int cmp_row(const void *pa, const void *pb)
{
    const struct top_row *a = pa, *b = pb;
    int c = 0;

    switch (sort_col) {
    case COL_NAME:  c = strcmp(a->name, b->name); break;
    case COL_ID:    break;
    case COL_STATE: c = strcmp(a->state, b->state); break;
    case COL_VCPUS: c = cmp_num(a->nr_vcpus, b->nr_vcpus); break;
    case COL_MEM:   c = cmp_num(a->mem_kib, b->mem_kib); break;
    case COL_TRACK: c = strcmp(top_mode_name(a->mode), top_mode_name(b->mode)); break;
    case COL_MECH:  c = strcmp(top_mech_name(a->mechanism), top_mech_name(b->mechanism)); break;
    case COL_DIRTY:
    case COL_MIBS:  c = cmp_num(a->dirty, b->dirty); break;
    case COL_PML:   c = cmp_num(a->pml, b->pml); break;
    case COL_WP:    c = cmp_num(a->wp, b->wp); break;
    case COL_PLE:   c = cmp_num(a->ple, b->ple); break;
    case NR_COLS:   break;
    }
    return c ? c : (a->domid > b->domid) - (a->domid < b->domid);
}

void top_sort(struct top_rows *r, enum top_col col)
{
    sort_col = col < NR_COLS ? col : COL_ID;
    if (r->n)
        qsort(r->row, r->n, sizeof(*r->row), cmp_row);
}

const char *top_mode_name(uint32_t mode)
{
    switch (mode & (XEN_DIRTY_MODE_LOGDIRTY | XEN_DIRTY_MODE_VRAM)) {
    case 0:                         return "off";
    case XEN_DIRTY_MODE_LOGDIRTY:   return "log-dirty";
    case XEN_DIRTY_MODE_VRAM:       return "vram";
    default:                        return "log-dirty+vram";
    }
}

const char *top_mech_name(uint32_t mech)
{
    return mech == XEN_DIRTY_MECH_PML ? "PML" : mech == XEN_DIRTY_MECH_WP ? "WP" : "-";
}

void top_cell(const struct top_row *r, enum top_col col, char *buf, size_t len)
{
    switch (col) {
    case COL_NAME:  snprintf(buf, len, "%s", r->name); break;
    case COL_ID:    snprintf(buf, len, "%u", r->domid); break;
    case COL_STATE: snprintf(buf, len, "%s", r->state); break;
    case COL_VCPUS: snprintf(buf, len, "%u", r->nr_vcpus); break;
    case COL_MEM:   snprintf(buf, len, "%llu", (unsigned long long)r->mem_kib); break;
    case COL_TRACK: snprintf(buf, len, "%s", top_mode_name(r->mode)); break;
    case COL_MECH:  snprintf(buf, len, "%s", top_mech_name(r->mechanism)); break;
    case COL_DIRTY: snprintf(buf, len, "%.1f", r->dirty); break;
    case COL_MIBS:  snprintf(buf, len, "%.2f", r->mibs); break;
    case COL_PML:   snprintf(buf, len, "%.1f", r->pml); break;
    case COL_WP:    snprintf(buf, len, "%.1f", r->wp); break;
    case COL_PLE:   snprintf(buf, len, "%.1f", r->ple); break;
    default:        snprintf(buf, len, "?"); break;
    }
}

static void append(char *buf, size_t len, size_t *pos, enum top_col c, const char *text)
{
    int w = top_col_width[c];
    int n = snprintf(buf + *pos, len - *pos, "%s%*.*s", c ? " " : "", w,
                     w < 0 ? -w : w, text);

    if (n > 0)
        *pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

void top_format_row(const struct top_row *r, char *buf, size_t len)
{
    size_t pos = 0;
    char cell[64];

    buf[0] = 0;
    for (enum top_col c = 0; c < NR_COLS; c++) {
        top_cell(r, c, cell, sizeof(cell));
        append(buf, len, &pos, c, cell);
    }
}

void top_format_header(char *buf, size_t len)
{
    size_t pos = 0;

    buf[0] = 0;
    for (enum top_col c = 0; c < NR_COLS; c++)
        append(buf, len, &pos, c, top_col_names[c]);
}

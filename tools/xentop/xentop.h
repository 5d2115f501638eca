/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop: every domain's dirty-page tracking and exit rates, from two
 * samples of XEN_SYSCTL_get_dirty_stats_all (xc_dirty_stats_all; this
 * project's sysctl, NOT in Xen).  sample.c takes samples and turns two
 * into rows, text.c prints them (batch mode, JSON), screen.c is the
 * curses view.
 */
#ifndef XENTOP_H
#define XENTOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <xenctrl.h>

/* The columns, in display order (also the sort keys). */
enum top_col {
    COL_NAME, COL_ID, COL_STATE, COL_VCPUS, COL_MEM, COL_TRACK, COL_MECH,
    COL_DIRTY, COL_MIBS, COL_PML, COL_WP, COL_PLE, NR_COLS
};
extern const char *const top_col_names[NR_COLS];

/* One sample: every domain, the hypervisor's time. */
struct top_sample {
    uint64_t now;                           /* ns */
    unsigned int nr_doms, nr_vcpus;
    xen_dirty_sysctl_domain_t *doms;
    xen_dirty_sysctl_vcpu_t *vcpus;
};

struct top_vcpu_rates {
    double dirty, pml, wp, ple;             /* per second */
};

/* One domain's row: identity from the newer sample, rates over both. */
struct top_row {
    uint32_t domid, flags, nr_vcpus, mode, mechanism;
    uint64_t mem_kib;
    char name[64];
    char state[7];
    double dirty, mibs, pml, wp, ple, exits;      /* per second */
    struct top_vcpu_rates *vcpu;            /* nr_vcpus of them */
};

struct top_rows {
    double interval;                        /* s between the two samples */
    unsigned int n;
    struct top_row *row;
};

/* sample.c */
int top_sample(xc_interface *xch, struct top_sample *s);
void top_sample_free(struct top_sample *s);
typedef const char *(*top_name_fn)(uint32_t domid, char *buf, size_t len);
void top_make_rows(const struct top_sample *prev, const struct top_sample *cur,
                   top_name_fn name, struct top_rows *out);
void top_rows_free(struct top_rows *r);
void top_sort(struct top_rows *r, enum top_col col);
const char *top_mode_name(uint32_t mode);
const char *top_mech_name(uint32_t mech);
/* The column as text (width-less), for the table and the tests. */
void top_cell(const struct top_row *row, enum top_col col, char *buf, size_t len);
extern const int top_col_width[NR_COLS];
void top_format_row(const struct top_row *row, char *buf, size_t len);
void top_format_header(char *buf, size_t len);

/* text.c */
void top_print_text(FILE *f, const struct top_rows *r, bool vcpus);
int top_print_json(FILE *f, const struct top_rows *r, unsigned int iteration);

/* screen.c */
struct top_opts {
    double delay;                           /* s */
    unsigned int iterations;                /* 0: until q */
    bool vcpus, batch, json;
};
int top_screen(xc_interface *xch, top_name_fn name, struct top_opts *o);
/* The parsed delay, or < 0 when it is not one (0.1 .. 3600 s). */
double top_parse_delay(const char *s);

#endif /* XENTOP_H */

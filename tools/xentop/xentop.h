/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop: every domain's dirty-page tracking and exit rates, from two
 * samples of XEN_SYSCTL_get_dirty_stats_all (xc_dirty_stats_all; this
 * project's sysctl, NOT in Xen).  sample.c takes samples and turns two
 * into rows, detail.c samples one domain's exits by reason and heat map
 * (xc_dirty_blocks, NOT in Xen), text.c prints them (batch mode, JSON),
 * screen.c is the curses view, track.c switches log-dirty on for a
 * watched domain when asked, and off again.
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

/* One domain's detail, one sample: cumulative counters. */
struct top_detail {
    uint32_t domid;
    uint64_t now;                           /* ns, the hypervisor's */
    unsigned int nr_blocks, block_shift;    /* block: 2^block_shift pfns */
    uint64_t vram_first, vram_nr;
    uint64_t *blocks;                       /* pages newly dirtied, per block */
    unsigned int nr_reasons;
    uint64_t *exits;                        /* by reason, summed over vCPUs */
};

struct top_exit_rate {
    unsigned int reason;
    double rate;                            /* per second */
};

/* Two samples of a domain's detail, as rates. */
struct top_detail_rates {
    uint32_t domid;
    double interval;                        /* s; 0: the first sample */
    unsigned int nr_blocks, block_shift;
    uint64_t vram_first, vram_nr;
    uint64_t *dirtied;                      /* per block, in the interval */
    unsigned int nr_exits;                  /* reasons that moved */
    struct top_exit_rate *exit;             /* the most frequent first */
};

/* detail.c */
int top_detail_sample(xc_interface *xch, uint32_t domid, unsigned int nr_vcpus,
                      struct top_detail *s);
void top_detail_free(struct top_detail *s);
void top_detail_rates(const struct top_detail *prev, const struct top_detail *cur,
                      struct top_detail_rates *out);
void top_detail_rates_free(struct top_detail_rates *r);
unsigned int top_heat_level(uint64_t dirtied, unsigned int block_shift);
bool top_block_vram(const struct top_detail_rates *r, unsigned int b);
char top_heat_char(const struct top_detail_rates *r, unsigned int b);
extern const char top_heat_legend[];
void top_block_size(unsigned int block_shift, char *buf, size_t len);
void top_format_heat_row(const struct top_detail_rates *r, unsigned int first,
                         unsigned int n, char *buf, size_t len);
void top_format_vram(const struct top_detail_rates *r, char *buf, size_t len);
const char *top_exit_name(unsigned int reason, char *buf, size_t len);

/* track.c: log-dirty switched on by xentop for a watched domain. */
struct top_track {
    uint32_t domid;                         /* ~0: none */
    uint64_t clean_calls, peek_calls, vram_calls;   /* when we switched it on */
};
int top_track_on(xc_interface *xch, struct top_track *t, uint32_t domid);
/* At each refresh: re-arm it if still ours; < 0 with errno, 1 if not ours. */
int top_track_rearm(xc_interface *xch, struct top_track *t);
/* Off again if it is still ours; < 0 with errno, 1 if left to another consumer. */
int top_track_off(xc_interface *xch, struct top_track *t);

/* text.c */
void top_print_text(FILE *f, const struct top_rows *r, bool vcpus);
void top_print_detail_text(FILE *f, const struct top_row *row,
                           const struct top_detail_rates *d);
/* 'd' (may be NULL): the detail of the domain it names. */
int top_print_json(FILE *f, const struct top_rows *r, unsigned int iteration,
                   const struct top_detail_rates *d);

/* screen.c */
struct top_opts {
    double delay;                           /* s */
    unsigned int iterations;                /* 0: until q */
    bool vcpus, batch, json;
    uint32_t detail;                        /* batch: --detail=DOMID, or ~0 */
};
int top_screen(xc_interface *xch, top_name_fn name, struct top_opts *o);
/* The parsed delay, or < 0 when it is not one (0.1 .. 3600 s). */
double top_parse_delay(const char *s);

#endif /* XENTOP_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's batch output (-b): the table as text, or (--json) one JSON
 * object per iteration, one line each; with --detail=DOMID that domain's
 * vCPUs, exits by reason and heat map after it.
 */
#include <string.h>

#include <yajl/yajl_gen.h>

#include "xentop.h"

void top_print_text(FILE *f, const struct top_rows *r, bool vcpus)
{
    char line[256];

    top_format_header(line, sizeof(line));
    fprintf(f, "%s\n", line);
    for (unsigned int i = 0; i < r->n; i++) {
        const struct top_row *row = &r->row[i];

        top_format_row(row, line, sizeof(line));
        fprintf(f, "%s\n", line);
        for (unsigned int v = 0; vcpus && v < row->nr_vcpus; v++)
            fprintf(f, "  VCPU %3u %10.1f %8.2f %9.1f %9.1f %8.1f\n", v,
                    row->vcpu[v].dirty, row->vcpu[v].dirty / 256,
                    row->vcpu[v].pml, row->vcpu[v].wp, row->vcpu[v].ple);
    }
}

#define MAP_PER_LINE 64

/*
 * The detail of one domain, after the table:
 *   DETAIL web (id 5): log-dirty by PML, interval 1.00s
 *     VCPU   0      256.0     1.00       1.0       0.0      3.0
 *     EXIT PML_FULL                        3.0
 *     MAP 8 blocks of 2 MiB: . none  - up to 1/64 ...
 *     MAP 0x0000000000 ..++##..
 *     VRAM: pfn 0x400-0x5ff, blocks 2-2
 */
void top_print_detail_text(FILE *f, const struct top_row *row,
                           const struct top_detail_rates *d)
{
    char line[256], size[16], name[32];

    fprintf(f, "DETAIL %s (id %u): %s by %s, interval %.2fs\n", row->name, row->domid,
            top_mode_name(row->mode), top_mech_name(row->mechanism), d->interval);
    if (!row->mode)
        fprintf(f, "  tracking is off: no dirty counter moves\n");
    for (unsigned int v = 0; v < row->nr_vcpus; v++)
        fprintf(f, "  VCPU %3u %10.1f %8.2f %9.1f %9.1f %8.1f\n", v,
                row->vcpu[v].dirty, row->vcpu[v].dirty / 256,
                row->vcpu[v].pml, row->vcpu[v].wp, row->vcpu[v].ple);
    for (unsigned int e = 0; e < d->nr_exits; e++)
        fprintf(f, "  EXIT %-28s %10.1f\n",
                top_exit_name(d->exit[e].reason, name, sizeof(name)), d->exit[e].rate);
    if (!d->nr_blocks) {
        fprintf(f, "  MAP none: never tracked\n");
        return;
    }
    top_block_size(d->block_shift, size, sizeof(size));
    fprintf(f, "  MAP %u blocks of %s: %s\n", d->nr_blocks, size, top_heat_legend);
    for (unsigned int b = 0; b < d->nr_blocks; b += MAP_PER_LINE) {
        top_format_heat_row(d, b, MAP_PER_LINE, line, sizeof(line));
        fprintf(f, "  MAP %s\n", line);
    }
    top_format_vram(d, line, sizeof(line));
    if (line[0])
        fprintf(f, "  %s\n", line);
}

static void key(yajl_gen g, const char *k)
{
    yajl_gen_string(g, (const unsigned char *)k, strlen(k));
}

static void str(yajl_gen g, const char *k, const char *v)
{
    key(g, k);
    yajl_gen_string(g, (const unsigned char *)v, strlen(v));
}

static void num(yajl_gen g, const char *k, double v, int decimals)
{
    char buf[64];
    int n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);

    key(g, k);
    yajl_gen_number(g, buf, n);
}

static void rates(yajl_gen g, double dirty, double pml, double wp, double ple)
{
    num(g, "dirty_pages_per_s", dirty, 1);
    num(g, "dirty_mib_per_s", dirty / 256, 2);
    num(g, "pml_full_exits_per_s", pml, 1);
    num(g, "wp_faults_per_s", wp, 1);
    num(g, "ple_exits_per_s", ple, 1);
}

static void detail_json(yajl_gen g, const struct top_detail_rates *d)
{
    char name[32];

    key(g, "exits");
    yajl_gen_array_open(g);
    for (unsigned int e = 0; e < d->nr_exits; e++) {
        yajl_gen_map_open(g);
        num(g, "reason", d->exit[e].reason, 0);
        str(g, "name", top_exit_name(d->exit[e].reason, name, sizeof(name)));
        num(g, "per_s", d->exit[e].rate, 1);
        yajl_gen_map_close(g);
    }
    yajl_gen_array_close(g);
    key(g, "heat_map");
    yajl_gen_map_open(g);
    num(g, "interval_s", d->interval, 3);
    num(g, "block_pages", d->nr_blocks ? 1u << d->block_shift : 0, 0);
    num(g, "vram_first_pfn", (double)d->vram_first, 0);
    num(g, "vram_nr", (double)d->vram_nr, 0);
    key(g, "dirtied");
    yajl_gen_array_open(g);
    for (unsigned int b = 0; b < d->nr_blocks; b++) {
        char buf[24];
        int n = snprintf(buf, sizeof(buf), "%llu", (unsigned long long)d->dirtied[b]);

        yajl_gen_number(g, buf, n);
    }
    yajl_gen_array_close(g);
    yajl_gen_map_close(g);
}

int top_print_json(FILE *f, const struct top_rows *r, unsigned int iteration,
                   const struct top_detail_rates *d)
{
    yajl_gen g = yajl_gen_alloc(NULL);
    const unsigned char *buf;
    size_t len;

    if (!g)
        return -1;
    yajl_gen_map_open(g);
    num(g, "iteration", iteration, 0);
    num(g, "interval_s", r->interval, 3);
    key(g, "domains");
    yajl_gen_array_open(g);
    for (unsigned int i = 0; i < r->n; i++) {
        const struct top_row *row = &r->row[i];

        yajl_gen_map_open(g);
        str(g, "name", row->name);
        num(g, "domid", row->domid, 0);
        str(g, "state", row->state);
        num(g, "vcpus", row->nr_vcpus, 0);
        num(g, "memory_kib", (double)row->mem_kib, 0);
        str(g, "tracking", top_mode_name(row->mode));
        str(g, "mechanism", top_mech_name(row->mechanism));
        rates(g, row->dirty, row->pml, row->wp, row->ple);
        num(g, "exits_per_s", row->exits, 1);
        key(g, "vcpu");
        yajl_gen_array_open(g);
        for (unsigned int v = 0; v < row->nr_vcpus; v++) {
            yajl_gen_map_open(g);
            num(g, "id", v, 0);
            rates(g, row->vcpu[v].dirty, row->vcpu[v].pml, row->vcpu[v].wp,
                  row->vcpu[v].ple);
            yajl_gen_map_close(g);
        }
        yajl_gen_array_close(g);
        if (d && d->domid == row->domid)
            detail_json(g, d);
        yajl_gen_map_close(g);
    }
    yajl_gen_array_close(g);
    yajl_gen_map_close(g);
    if (yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok)
        fprintf(f, "%.*s\n", (int)len, (const char *)buf);
    yajl_gen_free(g);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's batch output (-b): the table as text, or (--json) one JSON
 * object per iteration, one line each.
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

int top_print_json(FILE *f, const struct top_rows *r, unsigned int iteration)
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
        yajl_gen_map_close(g);
    }
    yajl_gen_array_close(g);
    yajl_gen_map_close(g);
    if (yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok)
        fprintf(f, "%.*s\n", (int)len, (const char *)buf);
    yajl_gen_free(g);
    return 0;
}

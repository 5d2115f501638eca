/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's curses view: one row per domain, refreshed every 'delay'
 * seconds from a new sample.  Keys as Xen's xentop where it has them:
 *   q Q Esc   quit               d D   delay (prompt)
 *   s S       sort by the next column; Left/Right the previous/next
 *   Up/Down   select a domain;  Enter  its vCPUs (any key back)
 *   h H ?     help               the window may be resized at any time
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xentop.h"

enum { PAIR_HEAD = 1, PAIR_PML, PAIR_WP, PAIR_SEL };

struct view {
    xc_interface *xch;
    top_name_fn name;
    struct top_opts *o;
    struct top_sample prev, cur;
    struct top_rows rows;
    enum top_col sort;
    unsigned int sel;                       /* selected row */
    uint32_t detail;                        /* domid shown, or ~0 */
    bool help, colour;
    char msg[80];
};

static void refresh_rows(struct view *w)
{
    top_rows_free(&w->rows);
    top_make_rows(w->prev.doms ? &w->prev : NULL, &w->cur, w->name, &w->rows);
    top_sort(&w->rows, w->sort);
    if (w->sel >= w->rows.n)
        w->sel = w->rows.n ? w->rows.n - 1 : 0;
}

static int resample(struct view *w)
{
    struct top_sample s;

    if (top_sample(w->xch, &s))
        return -1;
    top_sample_free(&w->prev);
    w->prev = w->cur;
    w->cur = s;
    refresh_rows(w);
    return 0;
}

static void line(int y, int attr, const char *text)
{
    if (y >= LINES)
        return;
    attron(attr);
    mvaddnstr(y, 0, text, COLS);
    for (int x = (int)strlen(text); x < COLS; x++)
        addch(' ');
    attroff(attr);
}

static void draw_table(struct view *w)
{
    char buf[256], t[16];
    time_t now = time(NULL);
    int y = 3, x = 0;

    strftime(t, sizeof(t), "%H:%M:%S", localtime(&now));
    snprintf(buf, sizeof(buf), "xentop - %s   %u domains, interval %.2fs, delay %.2fs, sort %s",
             t, w->rows.n, w->rows.interval, w->o->delay, top_col_names[w->sort]);
    line(0, A_BOLD, buf);
    line(1, 0, w->msg);
    top_format_header(buf, sizeof(buf));
    line(2, w->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE, buf);
    /* The sort column, underlined in the header. */
    for (enum top_col c = 0; c < NR_COLS; c++) {
        int wd = abs(top_col_width[c]);

        if (c == w->sort && x < COLS) {
            mvchgat(2, x, wd < COLS - x ? wd : COLS - x, A_BOLD | A_UNDERLINE,
                    w->colour ? PAIR_HEAD : 0, NULL);
        }
        x += wd + 1;
    }
    for (unsigned int i = 0; i < w->rows.n && y < LINES - 1; i++, y++) {
        const struct top_row *r = &w->rows.row[i];
        int attr = 0;

        top_format_row(r, buf, sizeof(buf));
        if (w->colour && r->mode)
            attr = COLOR_PAIR(r->mechanism == XEN_DIRTY_MECH_PML ? PAIR_PML : PAIR_WP);
        if (i == w->sel)
            attr = w->colour ? COLOR_PAIR(PAIR_SEL) : A_REVERSE;
        line(y, attr, buf);
    }
    line(LINES - 1, A_REVERSE,
         "Q Quit  D Delay  S Sort  <-/-> Sort column  Up/Down Select  Enter vCPUs  H Help");
}

static void draw_detail(struct view *w)
{
    const struct top_row *r = NULL;
    char buf[256];
    int y = 4;

    for (unsigned int i = 0; i < w->rows.n; i++)
        if (w->rows.row[i].domid == w->detail)
            r = &w->rows.row[i];
    if (!r) {
        line(0, A_BOLD, "The domain is gone; any key: back");
        return;
    }
    snprintf(buf, sizeof(buf), "Domain %s (id %u): %s by %s, %.1f exits/s", r->name,
             r->domid, top_mode_name(r->mode), top_mech_name(r->mechanism), r->exits);
    line(0, A_BOLD, buf);
    snprintf(buf, sizeof(buf), "%.1f pages/s dirtied (%.2f MiB/s), %.1f PML-full exits/s, "
             "%.1f WP faults/s, %.1f PLE exits/s", r->dirty, r->mibs, r->pml, r->wp, r->ple);
    line(1, 0, buf);
    snprintf(buf, sizeof(buf), "%5s %10s %8s %9s %9s %8s", "VCPU", "DIRTY/s", "MiB/s",
             "PMLFULL/s", "WPFAULT/s", "PLE/s");
    line(3, w->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE, buf);
    for (unsigned int v = 0; v < r->nr_vcpus && y < LINES - 1; v++, y++) {
        snprintf(buf, sizeof(buf), "%5u %10.1f %8.2f %9.1f %9.1f %8.1f", v,
                 r->vcpu[v].dirty, r->vcpu[v].dirty / 256, r->vcpu[v].pml,
                 r->vcpu[v].wp, r->vcpu[v].ple);
        line(y, 0, buf);
    }
    line(LINES - 1, A_REVERSE, "Any key: back to the domains  Q Quit");
}

static const char *const help_text[] = {
    "xentop: dirty-page tracking and exit rates of every domain",
    "",
    "  Q, q, Esc      quit",
    "  D, d           set the delay between updates (seconds)",
    "  S, s           sort by the next column",
    "  Left, Right    sort by the previous / next column",
    "  Up, Down       select a domain",
    "  Enter          the selected domain's vCPUs",
    "  H, h, ?        this help",
    "",
    "Rates are per second of the hypervisor's clock between two samples",
    "of one sysctl for all domains; it only reads counters.",
    "",
    "Any key: back",
};

static void draw(struct view *w)
{
    erase();
    if (w->help) {
        for (size_t i = 0; i < sizeof(help_text) / sizeof(*help_text); i++)
            line((int)i, i ? 0 : A_BOLD, help_text[i]);
    } else if (w->detail != ~0u) {
        draw_detail(w);
    } else {
        draw_table(w);
    }
    refresh();
}

static void ask_delay(struct view *w)
{
    char in[32] = "";
    double d;

    line(1, A_BOLD, "Delay(sec): ");
    move(1, 12);
    echo();
    curs_set(1);
    timeout(-1);
    getnstr(in, sizeof(in) - 1);
    noecho();
    curs_set(0);
    d = top_parse_delay(in);
    if (d < 0)
        snprintf(w->msg, sizeof(w->msg), "Bad delay '%.20s' (0.1 to 3600 seconds)", in);
    else {
        w->o->delay = d;
        snprintf(w->msg, sizeof(w->msg), "Delay %.2f seconds", d);
    }
}

int top_screen(xc_interface *xch, top_name_fn name, struct top_opts *o)
{
    struct view w = { .xch = xch, .name = name, .o = o, .sort = COL_NAME, .detail = ~0u };
    unsigned int done = 0;
    int rc = 0;

    if (resample(&w))
        return -1;
    if (!initscr())
        return -1;
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    if (has_colors() && start_color() == OK) {
        use_default_colors();
        init_pair(PAIR_HEAD, COLOR_BLACK, COLOR_CYAN);
        init_pair(PAIR_PML, COLOR_GREEN, -1);
        init_pair(PAIR_WP, COLOR_YELLOW, -1);
        init_pair(PAIR_SEL, COLOR_BLACK, COLOR_WHITE);
        w.colour = true;
    }
    for (;;) {
        int ch;

        draw(&w);
        timeout((int)(o->delay * 1000));
        ch = getch();
        if (ch == ERR) {                    /* the delay passed */
            if (resample(&w)) {
                rc = -1;
                break;
            }
            if (o->iterations && ++done >= o->iterations)
                break;
            continue;
        }
        if (ch == KEY_RESIZE)
            continue;                       /* LINES and COLS are new: redraw */
        if (ch == 'q' || ch == 'Q' || ch == 27)
            break;
        if (w.help || w.detail != ~0u) {    /* any key: back */
            w.help = false;
            w.detail = ~0u;
            continue;
        }
        w.msg[0] = 0;
        switch (ch) {
        case 'd': case 'D':
            ask_delay(&w);
            break;
        case 's': case 'S': case KEY_RIGHT:
            w.sort = (w.sort + 1) % NR_COLS;
            top_sort(&w.rows, w.sort);
            break;
        case KEY_LEFT:
            w.sort = (w.sort + NR_COLS - 1) % NR_COLS;
            top_sort(&w.rows, w.sort);
            break;
        case KEY_UP:
            if (w.sel)
                w.sel--;
            break;
        case KEY_DOWN:
            if (w.sel + 1 < w.rows.n)
                w.sel++;
            break;
        case '\n': case '\r': case KEY_ENTER:
            if (w.sel < w.rows.n)
                w.detail = w.rows.row[w.sel].domid;
            break;
        case 'h': case 'H': case '?':
            w.help = true;
            break;
        default:
            snprintf(w.msg, sizeof(w.msg), "Unknown key (h: help)");
            break;
        }
    }
    endwin();
    top_rows_free(&w.rows);
    top_sample_free(&w.prev);
    top_sample_free(&w.cur);
    return rc;
}

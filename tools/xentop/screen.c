/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xentop's curses view: one row per domain, refreshed every 'delay'
 * seconds from a new sample.  Keys as Xen's xentop where it has them:
 *   q Q Esc   quit               d D   delay (prompt)
 *   s S       sort by the next column; Left/Right the previous/next
 *   Up/Down   select a domain;  Enter  its detail
 *   h H ?     help               the window may be resized at any time
 * The detail of a domain: its vCPUs, exits by reason and the heat map of
 * its memory; Esc or Enter back, t switches log-dirty on for it when
 * nothing tracks it (and off again when we leave; track.c).
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xentop.h"

enum { PAIR_HEAD = 1, PAIR_PML, PAIR_WP, PAIR_SEL, PAIR_HEAT /* + level - 1 */ };

struct view {
    xc_interface *xch;
    top_name_fn name;
    struct top_opts *o;
    struct top_sample prev, cur;
    struct top_rows rows;
    enum top_col sort;
    unsigned int sel;                       /* selected row */
    uint32_t detail;                        /* domid shown, or ~0 */
    struct top_detail dprev, dcur;          /* its samples (dcur.blocks NULL: none) */
    struct top_detail_rates drates;
    struct top_track track;                 /* log-dirty we switched on */
    bool help, colour;
    char msg[120];
};

static const xen_dirty_sysctl_domain_t *find_dom(const struct top_sample *s, uint32_t domid)
{
    for (unsigned int i = 0; i < s->nr_doms; i++)
        if (s->doms[i].domid == domid)
            return &s->doms[i];
    return NULL;
}

/* A new sample of the detail domain, and the rates since the last. */
static void resample_detail(struct view *w)
{
    const xen_dirty_sysctl_domain_t *r = find_dom(&w->cur, w->detail);
    struct top_detail s;

    if (!r || top_detail_sample(w->xch, w->detail, r->nr_vcpus, &s))
        return;                             /* gone, or keep the last rates */
    top_detail_free(&w->dprev);
    w->dprev = w->dcur;
    w->dcur = s;
    top_detail_rates_free(&w->drates);
    top_detail_rates(w->dprev.blocks ? &w->dprev : NULL, &w->dcur, &w->drates);
}

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

    /*
     * Our own log-dirty session: re-arm it first (that also drains the PML
     * buffers, so the sample is current).  A failure is shown, not fatal.
     */
    if (top_track_rearm(w->xch, &w->track) < 0)
        snprintf(w->msg, sizeof(w->msg), "Could not re-arm d%u: %s", w->track.domid,
                 strerror(errno));
    if (top_sample(w->xch, &s))
        return -1;
    top_sample_free(&w->prev);
    w->prev = w->cur;
    w->cur = s;
    refresh_rows(w);
    if (w->detail != ~0u)
        resample_detail(w);
    return 0;
}

/* Select the row of domid (it stays selected across the detail view). */
static void select_dom(struct view *w, uint32_t domid)
{
    for (unsigned int i = 0; i < w->rows.n; i++)
        if (w->rows.row[i].domid == domid)
            w->sel = i;
}

static void enter_detail(struct view *w, uint32_t domid)
{
    select_dom(w, domid);
    w->detail = domid;
    w->msg[0] = 0;
    resample_detail(w);
}

static void leave_detail(struct view *w)
{
    int rc = top_track_off(w->xch, &w->track);

    if (rc < 0)
        snprintf(w->msg, sizeof(w->msg), "Could not switch log-dirty off for d%u: %s",
                 w->detail, strerror(errno));
    else if (rc > 0)
        snprintf(w->msg, sizeof(w->msg), "d%u: log-dirty is another consumer's now: left on",
                 w->detail);
    else
        w->msg[0] = 0;
    select_dom(w, w->detail);
    w->detail = ~0u;
    top_detail_free(&w->dprev);
    top_detail_free(&w->dcur);
    top_detail_rates_free(&w->drates);
}

/* t in the detail view. */
static void toggle_tracking(struct view *w, const struct top_row *r)
{
    if (w->track.domid == w->detail) {
        uint32_t domid = w->detail;
        int rc = top_track_off(w->xch, &w->track);

        if (rc < 0)
            snprintf(w->msg, sizeof(w->msg), "Could not switch log-dirty off: %s",
                     strerror(errno));
        else if (rc)
            snprintf(w->msg, sizeof(w->msg), "d%u: log-dirty is another consumer's now: left on",
                     domid);
        else
            snprintf(w->msg, sizeof(w->msg), "Log-dirty off again for d%u", domid);
    } else if (r && r->mode) {
        snprintf(w->msg, sizeof(w->msg), "d%u is tracked already (%s): nothing to switch",
                 w->detail, top_mode_name(r->mode));
    } else if (top_track_on(w->xch, &w->track, w->detail)) {
        snprintf(w->msg, sizeof(w->msg), "Could not switch log-dirty on: %s", strerror(errno));
    } else {
        snprintf(w->msg, sizeof(w->msg),
                 "Log-dirty on for d%u while you watch (t or leaving: off); "
                 "re-armed at each refresh", w->detail);
    }
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
         "Q Quit  D Delay  S Sort  <-/-> Sort column  Up/Down Select  Enter Detail  H Help");
}

/* The map's blocks per line: a power of two that fits, at most 64. */
static unsigned int map_width(void)
{
    unsigned int n = 64;

    while (n > 1 && (int)n > COLS - 13)
        n /= 2;
    return n;
}

static void draw_map(struct view *w, int y, int last)
{
    const struct top_detail_rates *d = &w->drates;
    unsigned int per = map_width(), rows, shown;
    char buf[256], size[16];
    int room;

    if (!d->dirtied)
        return;
    if (!d->nr_blocks) {
        line(y, 0, "Heat map: none (the domain was never tracked)");
        return;
    }
    top_block_size(d->block_shift, size, sizeof(size));
    if (d->interval > 0)
        snprintf(buf, sizeof(buf), "Heat map: %u blocks of %s, pages newly dirtied in %.2fs",
                 d->nr_blocks, size, d->interval);
    else
        snprintf(buf, sizeof(buf), "Heat map: %u blocks of %s, pages newly dirtied: "
                 "after the next refresh", d->nr_blocks, size);
    line(y++, w->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE, buf);
    line(y++, 0, top_heat_legend);
    rows = (d->nr_blocks + per - 1) / per;
    room = last - y - (d->vram_nr ? 1 : 0);
    shown = room < 0 ? 0 : (unsigned int)room;
    if (shown > rows)
        shown = rows;
    if (shown < rows && shown)
        shown--;                            /* room for the "more" line */
    for (unsigned int i = 0; i < shown; i++, y++) {
        unsigned int first = i * per;

        top_format_heat_row(d, first, per, buf, sizeof(buf));
        line(y, 0, buf);
        /* The blocks again, in colour (VRAM underlined). */
        for (unsigned int b = first; b < first + per && b < d->nr_blocks; b++) {
            unsigned int l = top_heat_level(d->dirtied[b], d->block_shift);
            int x = 13 + (int)(b - first);
            attr_t a = top_block_vram(d, b) ? A_UNDERLINE : 0;

            if (x >= COLS || y >= LINES)
                break;
            if (w->colour && l)
                a |= COLOR_PAIR(PAIR_HEAT + l - 1) | A_BOLD;
            if (a)
                mvaddch(y, x, (chtype)(unsigned char)top_heat_char(d, b) | a);
        }
    }
    if (shown < rows) {
        snprintf(buf, sizeof(buf), "... %u more lines of the map (enlarge the window)",
                 rows - shown);
        line(y++, 0, buf);
    }
    top_format_vram(d, buf, sizeof(buf));
    if (buf[0])
        line(y, 0, buf);
}

static void draw_detail(struct view *w)
{
    const struct top_row *r = NULL;
    char buf[256], name[32];
    int y = 4;
    unsigned int nex;

    for (unsigned int i = 0; i < w->rows.n; i++)
        if (w->rows.row[i].domid == w->detail)
            r = &w->rows.row[i];
    if (!r) {
        line(0, A_BOLD, "The domain is gone; Esc or Enter: back");
        return;
    }
    snprintf(buf, sizeof(buf), "Domain %s (id %u): %s by %s, %.1f exits/s", r->name,
             r->domid, top_mode_name(r->mode), top_mech_name(r->mechanism), r->exits);
    line(0, A_BOLD, buf);
    snprintf(buf, sizeof(buf), "%.1f pages/s dirtied (%.2f MiB/s), %.1f PML-full exits/s, "
             "%.1f WP faults/s, %.1f PLE exits/s", r->dirty, r->mibs, r->pml, r->wp, r->ple);
    line(1, 0, buf);
    if (w->msg[0])
        line(2, A_BOLD, w->msg);
    else if (!r->mode)
        line(2, A_BOLD, "Tracking is off: no dirty counter moves. "
             "t: switch log-dirty on while watching");
    snprintf(buf, sizeof(buf), "%5s %10s %8s %9s %9s %8s", "VCPU", "DIRTY/s", "MiB/s",
             "PMLFULL/s", "WPFAULT/s", "PLE/s");
    line(3, w->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE, buf);
    for (unsigned int v = 0; v < r->nr_vcpus && y < LINES / 3 + 4; v++, y++) {
        snprintf(buf, sizeof(buf), "%5u %10.1f %8.2f %9.1f %9.1f %8.1f", v,
                 r->vcpu[v].dirty, r->vcpu[v].dirty / 256, r->vcpu[v].pml,
                 r->vcpu[v].wp, r->vcpu[v].ple);
        line(y, 0, buf);
    }
    y++;
    snprintf(buf, sizeof(buf), "%-28s %10s", "EXIT REASON", "EXITS/s");
    line(y++, w->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE, buf);
    nex = w->drates.exit ? w->drates.nr_exits : 0;
    if (!nex)
        line(y++, 0, w->drates.interval > 0 ? "(none)" : "(after the next refresh)");
    for (unsigned int e = 0; e < nex && e < 5; e++, y++) {
        snprintf(buf, sizeof(buf), "%-28s %10.1f",
                 top_exit_name(w->drates.exit[e].reason, name, sizeof(name)),
                 w->drates.exit[e].rate);
        line(y, 0, buf);
    }
    y++;
    draw_map(w, y, LINES - 1);
    line(LINES - 1, A_REVERSE, "Esc/Enter Back  T Tracking on/off  Q Quit");
}

static const char *const help_text[] = {
    "xentop: dirty-page tracking and exit rates of every domain",
    "",
    "  Q, q, Esc      quit",
    "  D, d           set the delay between updates (seconds)",
    "  S, s           sort by the next column",
    "  Left, Right    sort by the previous / next column",
    "  Up, Down       select a domain",
    "  Enter          the selected domain's detail: vCPUs, exits, heat map",
    "                 (Esc or Enter: back; t: log-dirty on/off for it)",
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
    struct view w = { .xch = xch, .name = name, .o = o, .sort = COL_NAME, .detail = ~0u,
                      .track = { .domid = ~0u } };
    unsigned int done = 0;
    int rc = 0;

    if (resample(&w))
        return -1;
    if (o->detail != ~0u)
        enter_detail(&w, o->detail);
    if (!initscr())
        return -1;
    set_escdelay(50);
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
        init_pair(PAIR_HEAT, COLOR_BLUE, -1);
        init_pair(PAIR_HEAT + 1, COLOR_GREEN, -1);
        init_pair(PAIR_HEAT + 2, COLOR_YELLOW, -1);
        init_pair(PAIR_HEAT + 3, COLOR_RED, -1);
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
        if (ch == 'q' || ch == 'Q')
            break;
        if (w.help) {                       /* any key: back */
            w.help = false;
            continue;
        }
        if (w.detail != ~0u) {
            const struct top_row *r = NULL;

            for (unsigned int i = 0; i < w.rows.n; i++)
                if (w.rows.row[i].domid == w.detail)
                    r = &w.rows.row[i];
            if (ch == 't' || ch == 'T')
                toggle_tracking(&w, r);
            else if (ch == 27 || ch == '\n' || ch == '\r' || ch == KEY_ENTER ||
                     ch == KEY_BACKSPACE || ch == KEY_LEFT)
                leave_detail(&w);
            else
                snprintf(w.msg, sizeof(w.msg), "Esc or Enter: back, t: tracking, q: quit");
            continue;
        }
        if (ch == 27)
            break;
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
                enter_detail(&w, w.rows.row[w.sel].domid);
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
    if (w.detail != ~0u) {
        leave_detail(&w);                   /* log-dirty off if we switched it on */
        if (w.msg[0])
            fprintf(stderr, "xentop: %s\n", w.msg);
    }
    top_rows_free(&w.rows);
    top_sample_free(&w.prev);
    top_sample_free(&w.cur);
    return rc;
}

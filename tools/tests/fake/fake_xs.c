/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's xenstored (see fake.h): a libxenstore with the
 * functions of Debian's xenstore.h that libxl calls, over a tree kept in
 * the text file $FAKE_XS_STATE (re-read by each process and rewritten
 * after each change, so that a sequence of xl commands sees one store, as
 * $FAKE_XEN_STATE is one machine).  Without the variable the store lives
 * in memory, holding what xen-init-dom0 and libxl would have written for
 * the fake's built-in machine: the names Domain-0, guest1 (1) and web (5).
 * $FAKE_XS_DOWN set: there is no xenstored (xs_open fails with ENOENT);
 * $FAKE_XS_REFUSE_INTRODUCE set: xs_introduce_domain fails (EINVAL).
 *
 * What xenstored does that matters to libxl is done here: writing a node
 * makes its missing parents (with the parent's permissions, as xenstored
 * does), removing one removes its subtree, a node's permissions are a list
 * whose first entry is its owner and everyone's access.  Not modelled:
 * permission checks (libxl is dom0, which may do anything), quotas,
 * transactions' conflicts (one writer at a time here; an aborted
 * transaction is undone).
 *
 * State file: one node a line, "<path> <perms> <value>", the permissions in
 * xenstore's string form ("n0,r2": owner 0 with no access for others, read
 * for domain 2), the value with \\, \n, \t and \s (a space) escaped and "-"
 * for an empty one.  "introduced <domid> <gfn> <port>" lines are the
 * domains xs_introduce_domain was told about.  Calls that change the
 * domains' set (introduce, release) are appended to $FAKE_XEN_LOG
 * ("xs_introduce 2 1044476 3").  A watch fires (xs_read_watch) for every
 * watched path each time $FAKE_XEN_STATE or the store's file changes, which
 * is when a domain comes or goes.  xs_fileno's descriptor (an epoll set of
 * a pipe and an inotify watch on the two files' directories) becomes
 * readable then, and when a watch is set (its first firing), so that an
 * event loop polls it as libxenstore's; xs_check_watch never blocks.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xenstore.h>

/*
 * fake_suspend.c (fake.h): a guest answers control/shutdown.  Weak: this
 * file is also built alone, as a libxenstore.so (tools/tests/libs).
 */
bool fake_guest_control(const char *path, const char *value) __attribute__((weak));

#define MAX_NODES   1024
#define MAX_PERMS   8
#define MAX_WATCHES 16
#define MAX_INTRO   16

struct node {
    char *path;
    char *value;
    unsigned int len;
    struct xs_permissions perms[MAX_PERMS];
    unsigned int nperms;
};

struct xs_handle {
    int pipe[2];                        /* written when a watch is set */
    int ino;                            /* inotify on the files' directories */
    int ep;                             /* xs_fileno's: both of the above */
    struct { char *path, *token; } watch[MAX_WATCHES];
    unsigned int nwatch;
    struct timespec seen[2];            /* the files' mtimes last fired on */
    bool pending_first;                 /* a new watch fires once at once */
};

static struct node nodes[MAX_NODES];
static unsigned int nnodes;
static struct { unsigned int domid, port; unsigned long gfn; } intro[MAX_INTRO];
static unsigned int nintro;
static bool loaded, in_transaction;

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...)
{
    const char *path = getenv("FAKE_XEN_LOG");
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

/* ---- the state file ---------------------------------------------------------- */

static void escape(FILE *f, const char *v, unsigned int len)
{
    if (!len) {
        fputc('-', f);
        return;
    }
    for (unsigned int i = 0; i < len; i++) {
        switch (v[i]) {
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case ' ':  fputs("\\s", f); break;
        case '-':  fputs(i || len > 1 ? "-" : "\\-", f); break;
        default:   fputc(v[i], f); break;
        }
    }
}

static char *unescape(const char *s, unsigned int *len)
{
    char *r = malloc(strlen(s) + 1);
    unsigned int n = 0;

    if (!strcmp(s, "-")) {
        r[0] = 0;
        *len = 0;
        return r;
    }
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            r[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == 's' ? ' ' : *s;
        } else
            r[n++] = *s;
    }
    r[n] = 0;
    *len = n;
    return r;
}

static void perms_to_string(const struct node *nd, char *buf, size_t len)
{
    size_t off = 0;

    for (unsigned int i = 0; i < nd->nperms && off < len; i++) {
        unsigned int p = nd->perms[i].perms & (XS_PERM_READ | XS_PERM_WRITE);
        char c = p == (XS_PERM_READ | XS_PERM_WRITE) ? 'b' :
                 p == XS_PERM_READ ? 'r' : p == XS_PERM_WRITE ? 'w' : 'n';

        off += snprintf(buf + off, len - off, "%s%c%u", i ? "," : "", c,
                        nd->perms[i].id);
    }
}

static unsigned int perms_from_string(struct xs_permissions *p, const char *s)
{
    unsigned int n = 0;

    while (*s && n < MAX_PERMS) {
        p[n].perms = *s == 'b' ? XS_PERM_READ | XS_PERM_WRITE :
                     *s == 'r' ? XS_PERM_READ : *s == 'w' ? XS_PERM_WRITE : XS_PERM_NONE;
        p[n].id = strtoul(s + 1, (char **)&s, 10);
        n++;
        if (*s == ',')
            s++;
        else
            break;
    }
    return n;
}

static void clear(void)
{
    for (unsigned int i = 0; i < nnodes; i++) {
        free(nodes[i].path);
        free(nodes[i].value);
    }
    nnodes = nintro = 0;
}

static struct node *add_node(const char *path);
static void builtin_tree(void);

/*
 * (Re-)read the state file before every access outside a transaction:
 * another process may have saved since.  Not keyed on the file's inode:
 * save() replaces the file by rename(), and tmpfs hands a freed inode
 * number to the next file, so another process's save could look like
 * none and this one would write a stale tree over it (seen in xl migrate:
 * the receiver's whole tree lost to the sender's destroy).
 */
static void load(void)
{
    const char *path = getenv("FAKE_XS_STATE");
    char line[8192];
    FILE *f;

    if (loaded && (in_transaction || !path))
        return;
    loaded = true;
    clear();
    if (!path) {
        builtin_tree();
        return;
    }
    if (!(f = fopen(path, "r")))
        return;
    while (fgets(line, sizeof(line), f)) {
        char *p = strtok(line, " \n"), *perms, *val;
        struct node *nd;

        if (!p || *p == '#')
            continue;
        if (!strcmp(p, "introduced")) {
            char *d = strtok(NULL, " \n"), *g = strtok(NULL, " \n"),
                 *port = strtok(NULL, " \n");

            if (d && g && port && nintro < MAX_INTRO) {
                intro[nintro].domid = strtoul(d, NULL, 0);
                intro[nintro].gfn = strtoul(g, NULL, 0);
                intro[nintro].port = strtoul(port, NULL, 0);
                nintro++;
            }
            continue;
        }
        perms = strtok(NULL, " \n");
        val = strtok(NULL, "\n");
        if (!perms || !(nd = add_node(p)))
            continue;
        nd->nperms = perms_from_string(nd->perms, perms);
        free(nd->value);
        nd->value = unescape(val ? val : "-", &nd->len);
    }
    fclose(f);
}

static int cmp_nodes(const void *a, const void *b)
{
    return strcmp(((const struct node *)a)->path, ((const struct node *)b)->path);
}

static void save(void)
{
    const char *path = getenv("FAKE_XS_STATE");
    char tmp[4200], perms[128];
    FILE *f;

    if (!path)
        return;
    qsort(nodes, nnodes, sizeof(nodes[0]), cmp_nodes);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    if (!(f = fopen(tmp, "w")))
        return;
    for (unsigned int i = 0; i < nnodes; i++) {
        perms_to_string(&nodes[i], perms, sizeof(perms));
        fprintf(f, "%s %s ", nodes[i].path, perms);
        escape(f, nodes[i].value, nodes[i].len);
        fputc('\n', f);
    }
    for (unsigned int i = 0; i < nintro; i++)
        fprintf(f, "introduced %u %#lx %u\n", intro[i].domid, intro[i].gfn,
                intro[i].port);
    fclose(f);
    rename(tmp, path);
}

/* A change outside a transaction is saved at once. */
static void changed(void)
{
    if (!in_transaction)
        save();
}

/* ---- the tree ------------------------------------------------------------------ */

static bool valid_path(const char *path)
{
    size_t n = strlen(path);

    if (path[0] == '@')
        return n > 1;
    return path[0] == '/' && (n == 1 || path[n - 1] != '/') && !strstr(path, "//") &&
           n < 3072;
}

static struct node *find(const char *path)
{
    for (unsigned int i = 0; i < nnodes; i++)
        if (!strcmp(nodes[i].path, path))
            return &nodes[i];
    return NULL;
}

static char *parent_of(const char *path)
{
    char *p = strdup(path), *slash = strrchr(p, '/');

    if (slash == p)
        slash[1] = 0;
    else
        *slash = 0;
    return p;
}

/* The node at path, made with its missing parents (inheriting permissions). */
static struct node *add_node(const char *path)
{
    struct node *nd = find(path), *parent = NULL;

    if (nd)
        return nd;
    if (strcmp(path, "/")) {
        char *pp = parent_of(path);

        parent = add_node(pp);
        free(pp);
        if (!parent)
            return NULL;
    }
    if (nnodes == MAX_NODES) {
        errno = ENOSPC;
        return NULL;
    }
    nd = &nodes[nnodes++];
    memset(nd, 0, sizeof(*nd));
    nd->path = strdup(path);
    nd->value = strdup("");
    if (parent) {
        memcpy(nd->perms, parent->perms, sizeof(nd->perms));
        nd->nperms = parent->nperms;
    } else {
        nd->nperms = 1;                 /* "/": dom0's, no one else's */
    }
    return nd;
}

static bool under(const char *path, const char *top)
{
    size_t n = strlen(top);

    if (!strcmp(top, "/"))
        return true;
    return !strncmp(path, top, n) && (path[n] == 0 || path[n] == '/');
}

/* The built-in machine's names (fake_state.c's default domains). */
static void builtin_tree(void)
{
    static const struct { const char *path, *value; } tree[] = {
        { "/local/domain/0/name", "Domain-0" },
        { "/local/domain/0/domid", "0" },
        { "/local/domain/1/name", "guest1" },
        { "/vm/5a1e0000-0000-4000-8000-000000000001/name", "guest1" },
        { "/local/domain/5/name", "web" },
        { "/vm/5a1e0000-0000-4000-8000-000000000005/name", "web" },
    };

    for (unsigned int i = 0; i < sizeof(tree) / sizeof(tree[0]); i++) {
        struct node *nd = add_node(tree[i].path);

        if (!nd)
            abort();
        free(nd->value);
        nd->value = strdup(tree[i].value);
        nd->len = strlen(tree[i].value);
    }
}

/* ---- xenstore.h ----------------------------------------------------------------- */

struct xs_handle *xs_open(unsigned long flags)
{
    struct xs_handle *h;

    (void)flags;
    if (getenv("FAKE_XS_DOWN")) {
        errno = ENOENT;                 /* no xenstored */
        return NULL;
    }
    h = calloc(1, sizeof(*h));
    if (!h || pipe2(h->pipe, O_NONBLOCK | O_CLOEXEC)) {
        free(h);
        return NULL;
    }
    h->ino = h->ep = -1;
    load();
    return h;
}

struct xs_handle *xs_daemon_open(void)
{
    return xs_open(0);
}

void xs_close(struct xs_handle *h)
{
    if (!h)
        return;
    for (unsigned int i = 0; i < h->nwatch; i++) {
        free(h->watch[i].path);
        free(h->watch[i].token);
    }
    close(h->pipe[0]);
    close(h->pipe[1]);
    if (h->ino >= 0)
        close(h->ino);
    if (h->ep >= 0)
        close(h->ep);
    free(h);
}

void xs_daemon_close(struct xs_handle *h)
{
    xs_close(h);
}

void *xs_read(struct xs_handle *h, xs_transaction_t t, const char *path,
              unsigned int *len)
{
    load();
    struct node *nd;
    char *r;

    (void)h; (void)t;
    if (!valid_path(path)) {
        errno = EINVAL;
        return NULL;
    }
    if (!(nd = find(path))) {
        errno = ENOENT;
        return NULL;
    }
    r = malloc(nd->len + 1);
    memcpy(r, nd->value, nd->len);
    r[nd->len] = 0;
    if (len)
        *len = nd->len;
    return r;
}

bool xs_write(struct xs_handle *h, xs_transaction_t t, const char *path,
              const void *data, unsigned int len)
{
    load();
    struct node *nd;

    (void)h; (void)t;
    if (!valid_path(path) || path[0] == '@') {
        errno = EINVAL;
        return false;
    }
    if (!(nd = add_node(path)))
        return false;
    free(nd->value);
    nd->value = malloc(len + 1);
    memcpy(nd->value, data, len);
    nd->value[len] = 0;
    nd->len = len;
    /* A guest's answer to control/shutdown (fake_suspend.c): it clears the node. */
    if (fake_guest_control && fake_guest_control(path, nd->value)) {
        nd->value[0] = 0;
        nd->len = 0;
    }
    changed();
    return true;
}

bool xs_mkdir(struct xs_handle *h, xs_transaction_t t, const char *path)
{
    load();
    (void)h; (void)t;
    if (!valid_path(path) || path[0] == '@') {
        errno = EINVAL;
        return false;
    }
    if (!add_node(path))
        return false;
    changed();
    return true;
}

bool xs_rm(struct xs_handle *h, xs_transaction_t t, const char *path)
{
    load();
    unsigned int i, j;
    bool any = false;

    (void)h; (void)t;
    if (!valid_path(path)) {
        errno = EINVAL;
        return false;
    }
    for (i = j = 0; i < nnodes; i++) {
        if (under(nodes[i].path, path) && strcmp(nodes[i].path, "/")) {
            free(nodes[i].path);
            free(nodes[i].value);
            any = true;
            continue;
        }
        nodes[j++] = nodes[i];
    }
    nnodes = j;
    if (!any) {
        /* xenstored: ENOENT unless the parent exists (then nothing to do). */
        char *pp = parent_of(path);
        bool parent = find(pp) != NULL;

        free(pp);
        if (!parent) {
            errno = ENOENT;
            return false;
        }
        return true;
    }
    changed();
    return true;
}

char **xs_directory(struct xs_handle *h, xs_transaction_t t, const char *path,
                    unsigned int *num)
{
    load();
    size_t plen = strlen(path), bytes = 0;
    unsigned int n = 0, i;
    char **list, *p;

    (void)h; (void)t;
    if (!find(path)) {
        errno = ENOENT;
        return NULL;
    }
    if (!strcmp(path, "/"))
        plen = 0;
    for (i = 0; i < nnodes; i++) {
        const char *c = nodes[i].path;

        if (strncmp(c, path, plen) || c[plen] != '/' || !c[plen + 1] ||
            strchr(c + plen + 1, '/'))
            continue;
        n++;
        bytes += strlen(c + plen + 1) + 1;
    }
    list = malloc((n ? n : 1) * sizeof(char *) + bytes);
    p = (char *)(list + (n ? n : 1));
    n = 0;
    for (i = 0; i < nnodes; i++) {
        const char *c = nodes[i].path;

        if (strncmp(c, path, plen) || c[plen] != '/' || !c[plen + 1] ||
            strchr(c + plen + 1, '/'))
            continue;
        strcpy(p, c + plen + 1);
        list[n++] = p;
        p += strlen(p) + 1;
    }
    *num = n;
    return list;
}

struct xs_permissions *xs_get_permissions(struct xs_handle *h, xs_transaction_t t,
                                          const char *path, unsigned int *num)
{
    load();
    struct node *nd = find(path);
    struct xs_permissions *p;

    (void)h; (void)t;
    if (!nd) {
        errno = ENOENT;
        return NULL;
    }
    p = malloc(nd->nperms * sizeof(*p));
    memcpy(p, nd->perms, nd->nperms * sizeof(*p));
    *num = nd->nperms;
    return p;
}

bool xs_set_permissions(struct xs_handle *h, xs_transaction_t t, const char *path,
                        struct xs_permissions *perms, unsigned int num_perms)
{
    load();
    struct node *nd = find(path);

    (void)h; (void)t;
    if (!nd) {
        errno = ENOENT;
        return false;
    }
    if (!num_perms || num_perms > MAX_PERMS) {
        errno = EINVAL;
        return false;
    }
    memcpy(nd->perms, perms, num_perms * sizeof(*perms));
    nd->nperms = num_perms;
    changed();
    return true;
}

xs_transaction_t xs_transaction_start(struct xs_handle *h)
{
    (void)h;
    if (in_transaction) {
        errno = EBUSY;
        return XBT_NULL;
    }
    load();                             /* the latest tree; an abort re-reads it */
    in_transaction = true;
    return 1;
}

bool xs_transaction_end(struct xs_handle *h, xs_transaction_t t, bool abort)
{
    (void)h;
    if (t != 1 || !in_transaction) {
        errno = EINVAL;
        return false;
    }
    in_transaction = false;
    if (abort) {
        if (getenv("FAKE_XS_STATE")) {
            loaded = false;
            load();
        }
        return true;
    }
    save();
    return true;
}

bool xs_introduce_domain(struct xs_handle *h, unsigned int domid, unsigned long mfn,
                         unsigned int eventchn)
{
    load();
    unsigned int i;

    (void)h;
    record("xs_introduce %u %lu %u", domid, mfn, eventchn);
    if (getenv("FAKE_XS_REFUSE_INTRODUCE")) {
        errno = EINVAL;                 /* xenstored could not map the ring */
        return false;
    }
    if (!eventchn) {
        errno = EINVAL;                 /* xenstored: port 0 is refused */
        return false;
    }
    for (i = 0; i < nintro && intro[i].domid != domid; i++)
        ;
    if (i == nintro) {
        if (nintro == MAX_INTRO) {
            errno = ENOSPC;
            return false;
        }
        nintro++;
    }
    intro[i].domid = domid;
    intro[i].gfn = mfn;
    intro[i].port = eventchn;
    save();
    return true;
}

/* XS_RESUME: xenstored forgets that the domain had shut down. */
bool xs_resume_domain(struct xs_handle *h, unsigned int domid)
{
    (void)h;
    record("xs_resume %u", domid);
    return true;
}

bool xs_release_domain(struct xs_handle *h, unsigned int domid)
{
    load();
    unsigned int i;

    (void)h;
    record("xs_release %u", domid);
    for (i = 0; i < nintro && intro[i].domid != domid; i++)
        ;
    if (i == nintro) {
        errno = ENOENT;
        return false;
    }
    intro[i] = intro[--nintro];
    save();
    return true;
}

bool xs_is_domain_introduced(struct xs_handle *h, unsigned int domid)
{
    load();
    (void)h;
    for (unsigned int i = 0; i < nintro; i++)
        if (intro[i].domid == domid)
            return true;
    return false;
}

char *xs_get_domain_path(struct xs_handle *h, unsigned int domid)
{
    char *p;

    (void)h;
    if (asprintf(&p, "/local/domain/%u", domid) < 0)
        return NULL;
    return p;
}

/* ---- watches: they fire when the fake machine changes ---------------------------- */

static void mtimes(struct timespec t[2])
{
    const char *f[2] = { getenv("FAKE_XEN_STATE"), getenv("FAKE_XS_STATE") };
    struct stat st;

    for (int i = 0; i < 2; i++) {
        memset(&t[i], 0, sizeof(t[i]));
        if (f[i] && !stat(f[i], &st))
            t[i] = st.st_mtim;
    }
}

bool xs_watch(struct xs_handle *h, const char *path, const char *token)
{
    if (!valid_path(path) || h->nwatch == MAX_WATCHES) {
        errno = EINVAL;
        return false;
    }
    h->watch[h->nwatch].path = strdup(path);
    h->watch[h->nwatch].token = strdup(token);
    h->nwatch++;
    mtimes(h->seen);
    h->pending_first = true;            /* xenstored fires a new watch once */
    if (write(h->pipe[1], "w", 1) < 0 && errno != EAGAIN)
        return false;
    return true;
}

bool xs_unwatch(struct xs_handle *h, const char *path, const char *token)
{
    for (unsigned int i = 0; i < h->nwatch; i++)
        if (!strcmp(h->watch[i].path, path) && !strcmp(h->watch[i].token, token)) {
            free(h->watch[i].path);
            free(h->watch[i].token);
            h->watch[i] = h->watch[--h->nwatch];
            return true;
        }
    errno = ENOENT;
    return false;
}

int xs_fileno(struct xs_handle *h)
{
    const char *f[2] = { getenv("FAKE_XEN_STATE"), getenv("FAKE_XS_STATE") };
    struct epoll_event e = { .events = EPOLLIN };

    if (h->ep >= 0)
        return h->ep;
    h->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    h->ep = epoll_create1(EPOLL_CLOEXEC);
    if (h->ino < 0 || h->ep < 0)
        return -1;
    for (int i = 0; i < 2; i++)
        if (f[i]) {
            char *copy = strdup(f[i]);

            if (copy)
                inotify_add_watch(h->ino, dirname(copy),
                                  IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB);
            free(copy);
        }
    e.data.fd = h->ino;
    epoll_ctl(h->ep, EPOLL_CTL_ADD, h->ino, &e);
    e.data.fd = h->pipe[0];
    epoll_ctl(h->ep, EPOLL_CTL_ADD, h->pipe[0], &e);
    return h->ep;
}

/* Empty the pipe and the inotify queue (both non-blocking). */
static void drain(struct xs_handle *h)
{
    char buf[4096];

    while (read(h->pipe[0], buf, sizeof(buf)) > 0)
        continue;
    if (h->ino >= 0)
        while (read(h->ino, buf, sizeof(buf)) > 0)
            continue;
}

/* The watch event, if the machine changed (or a watch was set); else EAGAIN. */
static char **fire(struct xs_handle *h, const struct timespec now[2])
{
    char **r;
    size_t a, b;

    h->pending_first = false;
    memcpy(h->seen, now, 2 * sizeof(now[0]));
    load();
    a = strlen(h->watch[0].path) + 1;
    b = strlen(h->watch[0].token) + 1;
    r = malloc(2 * sizeof(char *) + a + b);
    if (!r)
        return NULL;
    r[0] = (char *)(r + 2);
    r[1] = r[0] + a;
    memcpy(r[0], h->watch[0].path, a);
    memcpy(r[1], h->watch[0].token, b);
    return r;
}

char **xs_check_watch(struct xs_handle *h)
{
    struct timespec now[2];

    drain(h);
    if (!h->nwatch) {
        errno = EAGAIN;
        return NULL;
    }
    mtimes(now);
    if (h->pending_first || memcmp(now, h->seen, sizeof(now)))
        return fire(h, now);
    errno = EAGAIN;
    return NULL;
}

/* The first watch's path and token, once each time the machine changed. */
char **xs_read_watch(struct xs_handle *h, unsigned int *num)
{
    struct timespec now[2];
    char **r;

    if (!h->nwatch) {
        errno = EINVAL;
        return NULL;
    }
    for (;;) {
        mtimes(now);
        if (h->pending_first || memcmp(now, h->seen, sizeof(now)))
            break;
        poll(NULL, 0, 20);
    }
    drain(h);
    r = fire(h, now);
    if (r)
        *num = 2;
    return r;
}

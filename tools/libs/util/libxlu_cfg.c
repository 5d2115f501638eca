/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxlutil: the xl.cfg(5) parser.  A hand-written scanner and
 * recursive-descent parser for Xen's configuration grammar:
 *
 *   file     := { setting | ';' | NEWLINE }
 *   setting  := IDENT ( '=' | '+=' ) value ( ';' | NEWLINE | EOF )
 *   value    := STRING | NUMBER | list
 *   list     := '[' NL* [ value NL* { ',' NL* value NL* } [ ',' NL* ] ] ']'
 *
 * IDENT is [A-Za-z_][A-Za-z0-9_.]*; NUMBER a digit followed by letters,
 * digits or dots (kept as text: xlu_cfg_get_long converts it); strings are
 * "..." with C escapes or '...' taken literally; '#' comments run to the
 * end of the line.  A syntax error is reported with its line and the
 * parser resumes at the next line, so one run reports every bad line.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libxlutil.h"

struct XLU_ConfigList {
    int avalues;                    /* room in values */
    int nvalues;
    XLU_ConfigValue **values;
};

struct XLU_ConfigValue {
    enum XLU_ConfigValueType type;
    union {
        char *string;
        XLU_ConfigList list;
    } u;
    int lineno;
};

typedef struct XLU_ConfigSetting {
    struct XLU_ConfigSetting *next;     /* newest first */
    char *name;
    XLU_ConfigValue *value;
    enum XLU_Operation op;
    const char *source;                 /* in cfg->sources */
    int lineno;
    int order;                          /* for reporting in file order */
    bool used;                          /* looked up (xlu_cfg_unused) */
} XLU_ConfigSetting;

struct XLU_Config {
    XLU_ConfigSetting *settings;
    FILE *report;
    char *config_source;
    char **sources;                     /* names of everything read */
    int nsources;
    int nsettings;
};

/* ---- values --------------------------------------------------------------- */

static void value_free(XLU_ConfigValue *v)
{
    if (!v)
        return;
    if (v->type == XLU_STRING) {
        free(v->u.string);
    } else {
        for (int i = 0; i < v->u.list.nvalues; i++)
            value_free(v->u.list.values[i]);
        free(v->u.list.values);
    }
    free(v);
}

static XLU_ConfigValue *value_string(char *s, int lineno)
{
    XLU_ConfigValue *v = calloc(1, sizeof(*v));

    if (!v) {
        free(s);
        return NULL;
    }
    v->type = XLU_STRING;
    v->u.string = s;
    v->lineno = lineno;
    return v;
}

static int list_append(XLU_ConfigList *l, XLU_ConfigValue *item)
{
    if (l->nvalues == l->avalues) {
        int n = l->avalues ? 2 * l->avalues : 4;
        XLU_ConfigValue **more = realloc(l->values, n * sizeof(*more));

        if (!more)
            return ENOMEM;
        l->values = more;
        l->avalues = n;
    }
    l->values[l->nvalues++] = item;
    return 0;
}

/* ---- the scanner ----------------------------------------------------------- */

enum tok {
    T_EOF, T_NEWLINE, T_SEMI, T_ASSIGN, T_APPEND, T_LBRACKET, T_RBRACKET,
    T_COMMA, T_IDENT, T_NUMBER, T_STRING, T_ERROR,
};

typedef struct {
    XLU_Config *cfg;
    const char *source;
    const char *p, *end;
    int lineno;
    /* the current token */
    enum tok tok;
    int tok_line;
    const char *tok_start;              /* its text, for messages */
    int tok_len;
    char *text;                         /* IDENT/NUMBER/STRING value */
    const char *lex_error;              /* why T_ERROR */
    int err;                            /* first error, errno value */
} Parser;

static void report_error(Parser *ps, const char *msg)
{
    const char *text = ps->tok_start;
    int len = ps->tok_len;

    while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (ps->tok == T_NEWLINE || ps->tok == T_EOF || len <= 0)
        fprintf(ps->cfg->report, "%s:%d: config parsing error near %s: %s\n",
                ps->source, ps->tok_line,
                ps->tok == T_EOF ? "end of file" : "<newline>", msg);
    else
        fprintf(ps->cfg->report,
                "%s:%d: config parsing error near `%.*s': %s\n",
                ps->source, ps->tok_line, len, text, msg);
    if (!ps->err)
        ps->err = EINVAL;
}

static int hexdigit(int c)
{
    return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* A "double-quoted" string starting at ps->p (after the quote). */
static bool scan_dquoted(Parser *ps)
{
    size_t cap = 16, n = 0;
    char *s = malloc(cap);

    if (!s)
        return false;
    while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\n') {
        int c = (unsigned char)*ps->p++;

        if (c == '\\' && ps->p < ps->end && *ps->p != '\n') {
            c = (unsigned char)*ps->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'v': c = '\v'; break;
            case 'x':
                if (ps->p < ps->end && isxdigit((unsigned char)*ps->p)) {
                    c = 0;
                    for (int i = 0; i < 2 && ps->p < ps->end &&
                         isxdigit((unsigned char)*ps->p); i++)
                        c = c * 16 + hexdigit((unsigned char)*ps->p++);
                } else {
                    free(s);
                    ps->lex_error = "invalid \\x escape in string";
                    return false;
                }
                break;
            default:
                if (c >= '0' && c <= '7') {
                    c -= '0';
                    for (int i = 0; i < 2 && ps->p < ps->end &&
                         *ps->p >= '0' && *ps->p <= '7'; i++)
                        c = c * 8 + (*ps->p++ - '0');
                }
                /* \\ \" \' and any other character stand for themselves */
                break;
            }
        }
        if (c == 0) {
            free(s);
            ps->lex_error = "NUL character in string";
            return false;
        }
        if (n + 2 > cap) {
            char *more = realloc(s, cap *= 2);

            if (!more) {
                free(s);
                return false;
            }
            s = more;
        }
        s[n++] = (char)c;
    }
    if (ps->p >= ps->end || *ps->p != '"') {
        free(s);
        ps->lex_error = "unterminated string";
        return false;
    }
    ps->p++;
    s[n] = 0;
    ps->text = s;
    return true;
}

static bool scan_squoted(Parser *ps)
{
    const char *start = ps->p;

    while (ps->p < ps->end && *ps->p != '\'' && *ps->p != '\n')
        ps->p++;
    if (ps->p >= ps->end || *ps->p != '\'') {
        ps->lex_error = "unterminated string";
        return false;
    }
    ps->text = strndup(start, ps->p - start);
    ps->p++;
    return ps->text != NULL;
}

static void next(Parser *ps)
{
    free(ps->text);
    ps->text = NULL;

    for (;;) {
        while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
                                   *ps->p == '\r'))
            ps->p++;
        if (ps->p < ps->end && *ps->p == '#') {
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        }
        break;
    }

    ps->tok_start = ps->p;
    ps->tok_line = ps->lineno;
    if (ps->p >= ps->end) {
        ps->tok = T_EOF;
        ps->tok_len = 0;
        return;
    }

    char c = *ps->p++;

    switch (c) {
    case '\n':
        ps->tok = T_NEWLINE;
        ps->lineno++;
        break;
    case ';':
        ps->tok = T_SEMI;
        break;
    case '=':
        ps->tok = T_ASSIGN;
        break;
    case '[':
        ps->tok = T_LBRACKET;
        break;
    case ']':
        ps->tok = T_RBRACKET;
        break;
    case ',':
        ps->tok = T_COMMA;
        break;
    case '+':
        if (ps->p < ps->end && *ps->p == '=') {
            ps->p++;
            ps->tok = T_APPEND;
        } else {
            ps->tok = T_ERROR;
            ps->lex_error = "lexical error";
        }
        break;
    case '"':
        ps->tok = scan_dquoted(ps) ? T_STRING : T_ERROR;
        break;
    case '\'':
        ps->tok = scan_squoted(ps) ? T_STRING : T_ERROR;
        break;
    default:
        if (isalpha((unsigned char)c) || c == '_') {
            while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) ||
                                       *ps->p == '_' || *ps->p == '.'))
                ps->p++;
            ps->tok = T_IDENT;
        } else if (isdigit((unsigned char)c)) {
            while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) ||
                                       *ps->p == '.' || *ps->p == '_'))
                ps->p++;
            ps->tok = T_NUMBER;
        } else {
            ps->tok = T_ERROR;
            ps->lex_error = "lexical error";
        }
        if (ps->tok != T_ERROR) {
            ps->text = strndup(ps->tok_start, ps->p - ps->tok_start);
            if (!ps->text)
                ps->err = ENOMEM;
        }
        break;
    }
    ps->tok_len = (int)(ps->p - ps->tok_start);
    if (ps->tok == T_STRING || ps->tok == T_ERROR) {
        /* for messages: the token's text up to the end of its line */
        const char *e = ps->tok_start;

        while (e < ps->end && *e != '\n' && e < ps->p)
            e++;
        ps->tok_len = (int)(e - ps->tok_start);
        if (ps->tok == T_ERROR && c != '"' && c != '\'')
            ps->tok_len = 1;
    }
}

/* Skip to the end of the current line (error recovery). */
static void skip_line(Parser *ps)
{
    while (ps->tok != T_NEWLINE && ps->tok != T_EOF)
        next(ps);
}

/* ---- the parser ------------------------------------------------------------- */

static void skip_newlines(Parser *ps)
{
    while (ps->tok == T_NEWLINE)
        next(ps);
}

static void syntax_error(Parser *ps)
{
    report_error(ps, ps->tok == T_ERROR ? ps->lex_error : "syntax error");
}

static XLU_ConfigValue *parse_value(Parser *ps)
{
    XLU_ConfigValue *v;

    if (ps->tok == T_STRING || ps->tok == T_NUMBER) {
        char *s = ps->text;

        ps->text = NULL;
        v = value_string(s, ps->tok_line);
        if (!v)
            ps->err = ENOMEM;
        next(ps);
        return v;
    }
    if (ps->tok != T_LBRACKET) {
        syntax_error(ps);
        return NULL;
    }

    v = calloc(1, sizeof(*v));
    if (!v) {
        ps->err = ENOMEM;
        return NULL;
    }
    v->type = XLU_LIST;
    v->lineno = ps->tok_line;
    next(ps);
    skip_newlines(ps);
    while (ps->tok != T_RBRACKET) {
        XLU_ConfigValue *item = parse_value(ps);

        if (!item || list_append(&v->u.list, item)) {
            value_free(item);
            value_free(v);
            return NULL;
        }
        skip_newlines(ps);
        if (ps->tok == T_COMMA) {
            next(ps);
            skip_newlines(ps);
        } else if (ps->tok != T_RBRACKET) {
            syntax_error(ps);
            value_free(v);
            return NULL;
        }
    }
    next(ps);
    return v;
}

static XLU_ConfigSetting *find_setting(const XLU_Config *cfg, const char *n)
{
    for (XLU_ConfigSetting *s = cfg->settings; s; s = s->next)
        if (!strcmp(s->name, n))
            return s;
    return NULL;
}

/* name += value: append to the setting so far (lists and strings). */
static bool append_value(Parser *ps, XLU_ConfigSetting *old,
                         XLU_ConfigValue *v)
{
    XLU_ConfigValue *ov = old->value;

    if (ov->type == XLU_LIST && v->type == XLU_LIST) {
        for (int i = 0; i < v->u.list.nvalues; i++) {
            if (list_append(&ov->u.list, v->u.list.values[i]))
                return false;
            v->u.list.values[i] = NULL;
        }
        v->u.list.nvalues = 0;
        value_free(v);
        return true;
    }
    if (ov->type == XLU_STRING && v->type == XLU_STRING) {
        size_t a = strlen(ov->u.string), b = strlen(v->u.string);
        char *s = realloc(ov->u.string, a + b + 1);

        if (!s)
            return false;
        memcpy(s + a, v->u.string, b + 1);
        ov->u.string = s;
        value_free(v);
        return true;
    }
    fprintf(ps->cfg->report, "%s:%d: config parsing error near `+=': "
            "cannot append a %s to the %s `%s'\n", ps->source, v->lineno,
            v->type == XLU_LIST ? "list" : "string",
            ov->type == XLU_LIST ? "list" : "string", old->name);
    if (!ps->err)
        ps->err = EINVAL;
    value_free(v);
    return true;
}

static void parse_setting(Parser *ps)
{
    XLU_Config *cfg = ps->cfg;
    char *name = ps->text;
    int lineno = ps->tok_line;
    enum XLU_Operation op;
    XLU_ConfigValue *v;

    ps->text = NULL;
    next(ps);
    if (ps->tok != T_ASSIGN && ps->tok != T_APPEND) {
        syntax_error(ps);
        free(name);
        skip_line(ps);
        return;
    }
    op = ps->tok == T_APPEND ? XLU_OP_ADDITION : XLU_OP_ASSIGNMENT;
    next(ps);
    v = parse_value(ps);
    if (!v) {
        free(name);
        skip_line(ps);
        return;
    }
    if (ps->tok != T_NEWLINE && ps->tok != T_SEMI && ps->tok != T_EOF) {
        syntax_error(ps);
        free(name);
        value_free(v);
        skip_line(ps);
        return;
    }

    if (op == XLU_OP_ADDITION) {
        XLU_ConfigSetting *old = find_setting(cfg, name);

        if (old) {
            if (!append_value(ps, old, v))
                ps->err = ENOMEM;
            old->source = ps->source;
            old->lineno = lineno;
            free(name);
            return;
        }
    }

    XLU_ConfigSetting *s = calloc(1, sizeof(*s));

    if (!s) {
        ps->err = ENOMEM;
        free(name);
        value_free(v);
        return;
    }
    s->name = name;
    s->value = v;
    s->op = op;
    s->source = ps->source;
    s->lineno = lineno;
    s->order = cfg->nsettings++;
    s->next = cfg->settings;
    cfg->settings = s;
}

static int parse(XLU_Config *cfg, const char *source, const char *data,
                 int length)
{
    char **more;
    Parser ps = {
        .cfg = cfg,
        .p = data,
        .end = data + length,
        .lineno = 1,
    };

    /* Keep the source's name for the settings' lifetime. */
    more = realloc(cfg->sources, (cfg->nsources + 1) * sizeof(*more));
    if (!more)
        return ENOMEM;
    cfg->sources = more;
    cfg->sources[cfg->nsources] = strdup(source);
    if (!cfg->sources[cfg->nsources])
        return ENOMEM;
    ps.source = cfg->sources[cfg->nsources++];

    next(&ps);
    while (ps.tok != T_EOF && ps.err != ENOMEM) {
        switch (ps.tok) {
        case T_NEWLINE:
        case T_SEMI:
            next(&ps);
            break;
        case T_IDENT:
            parse_setting(&ps);
            if (ps.tok == T_NEWLINE || ps.tok == T_SEMI)
                next(&ps);
            break;
        default:
            syntax_error(&ps);
            skip_line(&ps);
            break;
        }
    }
    free(ps.text);
    return ps.err;
}

/* ---- the public interface --------------------------------------------------- */

XLU_Config *xlu_cfg_init(FILE *report, const char *report_filename)
{
    XLU_Config *cfg = calloc(1, sizeof(*cfg));

    if (!cfg)
        return NULL;
    cfg->report = report;
    cfg->config_source = strdup(report_filename);
    if (!cfg->config_source) {
        free(cfg);
        return NULL;
    }
    return cfg;
}

int xlu_cfg_readfile(XLU_Config *cfg, const char *real_filename)
{
    FILE *f = fopen(real_filename, "r");
    char *data = NULL;
    size_t len = 0, cap = 0;
    int e;

    if (!f) {
        e = errno;
        fprintf(cfg->report, "%s: unable to open configuration file: %s\n",
                real_filename, strerror(e));
        return e;
    }
    for (;;) {
        if (len + 4096 > cap) {
            char *more = realloc(data, cap = cap ? 2 * cap : 8192);

            if (!more) {
                free(data);
                fclose(f);
                return ENOMEM;
            }
            data = more;
        }
        size_t got = fread(data + len, 1, cap - len, f);

        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        e = errno ? errno : EIO;
        fprintf(cfg->report, "%s: unable to read configuration file: %s\n",
                real_filename, strerror(e));
        free(data);
        fclose(f);
        return e;
    }
    fclose(f);
    if (len > INT_MAX) {
        free(data);
        return EFBIG;
    }
    e = parse(cfg, cfg->config_source, data ? data : "", (int)len);
    free(data);
    return e;
}

int xlu_cfg_readdata(XLU_Config *cfg, const char *data, int length)
{
    return parse(cfg, cfg->config_source, data, length);
}

int xlu_cfg_readdata_named(XLU_Config *cfg, const char *source,
                           const char *data, int length)
{
    return parse(cfg, source, data, length);
}

void xlu_cfg_destroy(XLU_Config *cfg)
{
    XLU_ConfigSetting *s, *n;

    if (!cfg)
        return;
    for (s = cfg->settings; s; s = n) {
        n = s->next;
        free(s->name);
        value_free(s->value);
        free(s);
    }
    for (int i = 0; i < cfg->nsources; i++)
        free(cfg->sources[i]);
    free(cfg->sources);
    free(cfg->config_source);
    free(cfg);
}

/* The setting 'n', marked as used; NULL if absent. */
static XLU_ConfigSetting *lookup(const XLU_Config *cfg, const char *n)
{
    XLU_ConfigSetting *s = find_setting(cfg, n);

    if (s)
        s->used = true;
    return s;
}

static int find_atom(const XLU_Config *cfg, const char *n,
                     XLU_ConfigSetting **set_r, int dont_warn)
{
    XLU_ConfigSetting *set = lookup(cfg, n);

    if (!set)
        return ESRCH;
    if (set->value->type != XLU_STRING) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: parameter `%s' is a list"
                    " but should be a single value\n", set->source,
                    set->lineno, n);
        return EINVAL;
    }
    *set_r = set;
    return 0;
}

enum XLU_ConfigValueType xlu_cfg_value_type(const XLU_ConfigValue *value)
{
    return value->type;
}

int xlu_cfg_value_get_string(const XLU_Config *cfg, XLU_ConfigValue *value,
                             char **value_r, int dont_warn)
{
    if (value->type != XLU_STRING) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: value is not a string\n",
                    cfg->config_source, value->lineno);
        *value_r = NULL;
        return EINVAL;
    }
    *value_r = value->u.string;
    return 0;
}

int xlu_cfg_value_get_list(const XLU_Config *cfg, XLU_ConfigValue *value,
                           XLU_ConfigList **value_r, int dont_warn)
{
    if (value->type != XLU_LIST) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: value is not a list\n",
                    cfg->config_source, value->lineno);
        *value_r = NULL;
        return EINVAL;
    }
    *value_r = &value->u.list;
    return 0;
}

int xlu_cfg_get_string(const XLU_Config *cfg, const char *n,
                       const char **value_r, int dont_warn)
{
    XLU_ConfigSetting *set;
    int e = find_atom(cfg, n, &set, dont_warn);

    if (e)
        return e;
    *value_r = set->value->u.string;
    return 0;
}

int xlu_cfg_replace_string(const XLU_Config *cfg, const char *n,
                           char **value_r, int dont_warn)
{
    XLU_ConfigSetting *set;
    char *s;
    int e = find_atom(cfg, n, &set, dont_warn);

    if (e)
        return e;
    s = strdup(set->value->u.string);
    if (!s)
        return ENOMEM;
    free(*value_r);
    *value_r = s;
    return 0;
}

int xlu_cfg_get_long(const XLU_Config *cfg, const char *n, long *value_r,
                     int dont_warn)
{
    XLU_ConfigSetting *set;
    char *end;
    long l;
    int e = find_atom(cfg, n, &set, dont_warn);

    if (e)
        return e;
    if (!set->value->u.string[0]) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: parameter `%s' is"
                    " not a valid number\n", set->source, set->lineno, n);
        return EINVAL;
    }
    errno = 0;
    l = strtol(set->value->u.string, &end, 0);
    if (errno) {
        e = errno;
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: parameter `%s' could not"
                    " be parsed as a number: %s\n", set->source, set->lineno,
                    n, strerror(e));
        return e;
    }
    if (*end) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: parameter `%s' is"
                    " not a valid number\n", set->source, set->lineno, n);
        return EINVAL;
    }
    *value_r = l;
    return 0;
}

int xlu_cfg_get_bounded_long(const XLU_Config *cfg, const char *n, long min,
                             long max, long *value_r, int dont_warn)
{
    long l;
    int e = xlu_cfg_get_long(cfg, n, &l, dont_warn);

    if (e)
        return e;
    if (l < min || l > max) {
        if (!dont_warn) {
            XLU_ConfigSetting *set = find_setting(cfg, n);

            fprintf(cfg->report, "%s:%d: warning: parameter `%s' %ld is out"
                    " of range [%ld, %ld]\n", set->source, set->lineno, n,
                    l, min, max);
        }
        return ERANGE;
    }
    *value_r = l;
    return 0;
}

int xlu_cfg_get_defbool(const XLU_Config *cfg, const char *n,
                        libxl_defbool *b, int dont_warn)
{
    long l;
    int e = xlu_cfg_get_long(cfg, n, &l, dont_warn);

    if (e)
        return e;
    libxl_defbool_set(b, !!l);
    return 0;
}

int xlu_cfg_get_list(const XLU_Config *cfg, const char *n,
                     XLU_ConfigList **list_r, int *entries_r, int dont_warn)
{
    XLU_ConfigSetting *set = lookup(cfg, n);

    if (!set)
        return ESRCH;
    if (set->value->type != XLU_LIST) {
        if (!dont_warn)
            fprintf(cfg->report, "%s:%d: warning: parameter `%s' is a single"
                    " value but should be a list\n", set->source, set->lineno,
                    n);
        return EINVAL;
    }
    if (list_r)
        *list_r = &set->value->u.list;
    if (entries_r)
        *entries_r = set->value->u.list.nvalues;
    return 0;
}

int xlu_cfg_get_list_as_string_list(const XLU_Config *cfg, const char *n,
                                    libxl_string_list *psl, int dont_warn)
{
    XLU_ConfigList *list;
    libxl_string_list sl;
    int nr, e;

    e = xlu_cfg_get_list(cfg, n, &list, &nr, dont_warn);
    if (e)
        return e;
    sl = calloc(nr + 1, sizeof(char *));
    if (!sl)
        return ENOMEM;
    for (int i = 0; i < nr; i++) {
        const char *s = xlu_cfg_get_listitem(list, i);

        sl[i] = s ? strdup(s) : NULL;
        if (s && !sl[i]) {
            libxl_string_list_dispose(&sl);
            return ENOMEM;
        }
    }
    *psl = sl;
    return 0;
}

const char *xlu_cfg_get_listitem(const XLU_ConfigList *list, int entry)
{
    if (entry < 0 || entry >= list->nvalues)
        return NULL;
    if (list->values[entry]->type != XLU_STRING)
        return NULL;
    return list->values[entry]->u.string;
}

XLU_ConfigValue *xlu_cfg_get_listitem2(const XLU_ConfigList *list, int entry)
{
    if (entry < 0 || entry >= list->nvalues)
        return NULL;
    return list->values[entry];
}

static int by_order(const void *a, const void *b)
{
    const XLU_ConfigSetting *x = *(XLU_ConfigSetting * const *)a;
    const XLU_ConfigSetting *y = *(XLU_ConfigSetting * const *)b;

    return x->order - y->order;
}

int xlu_cfg_unused(const XLU_Config *cfg,
                   void (*fn)(void *opaque, const char *source, int lineno,
                              const char *name),
                   void *opaque)
{
    XLU_ConfigSetting **v;
    int n = 0;

    v = calloc(cfg->nsettings + 1, sizeof(*v));
    if (!v)
        return -ENOMEM;
    for (XLU_ConfigSetting *s = cfg->settings; s; s = s->next) {
        /* only the newest setting of a name counts */
        if (s->used || find_setting(cfg, s->name) != s)
            continue;
        v[n++] = s;
    }
    qsort(v, n, sizeof(*v), by_order);
    for (int i = 0; i < n; i++)
        fn(opaque, v[i]->source, v[i]->lineno, v[i]->name);
    free(v);
    return n;
}

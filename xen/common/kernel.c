/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The boot command line: "opt1 opt2=val no-opt3 -- rest".
 *
 * Options are separated by white space; parsing stops at a standalone
 * "--".  Double quotes group a value containing spaces (name="a b") and are
 * removed.  In names '-' and '_' are the same character.  An unknown
 * option or a bad value prints a message, leaves the variable alone and
 * parsing goes on with the next option.
 */

#include <xen/ctype.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/string.h>

/* Longest single option (name=value) accepted. */
#define MAX_OPT_LEN 256

char saved_cmdline[COMMAND_LINE_SIZE];

/* Does the parameter name match 'key', treating '-' and '_' alike? */
static bool param_name_eq(const char *name, const char *key)
{
    for ( ; *name && *key; name++, key++ )
    {
        char a = *name == '-' ? '_' : *name;
        char b = *key == '-' ? '_' : *key;

        if ( a != b )
            return false;
    }
    return *name == *key;
}

/* Store val into an integer of p->len bytes, if it fits. */
static int assign_integer(const struct kernel_param *p, unsigned long long val)
{
    long long sval = val;

    if ( p->len < 8 )
    {
        unsigned int bits = p->len * 8;
        bool fits_unsigned = !(val >> bits);
        bool fits_negative = sval < 0 && sval >= -(1LL << (bits - 1));

        /* Accept any value representable as unsigned or as signed. */
        if ( !fits_unsigned && !fits_negative )
            return -EOVERFLOW;
    }

    switch ( p->len )
    {
    case 1: *(u8 *)p->par.var = val; break;
    case 2: *(u16 *)p->par.var = val; break;
    case 4: *(u32 *)p->par.var = val; break;
    case 8: *(u64 *)p->par.var = val; break;
    default: return -EINVAL;
    }
    return 0;
}

/*
 * Apply one option to one parameter.  'value' is NULL when the option had
 * no '='; 'negated' when it was spelled "no-name".
 */
static int apply_param(const struct kernel_param *p, const char *value,
                       bool negated)
{
    unsigned long long val;
    const char *end;
    int b;

    switch ( p->type )
    {
    case OPT_BOOL:
        b = value ? parse_bool(value, NULL) : 1;
        if ( b < 0 )
            return -EINVAL;
        return assign_integer(p, negated ? !b : b);

    case OPT_UINT:
    case OPT_SIZE:
        if ( negated || !value )       /* "no-name" alone means 0 */
            return negated && !value ? assign_integer(p, 0) : -EINVAL;
        if ( p->type == OPT_UINT )
            val = simple_strtoll(value, &end, 0);
        else
            val = parse_size_and_unit(value, &end);
        if ( end == value || *end )
            return -EINVAL;
        return assign_integer(p, val);

    case OPT_STR:
        if ( negated || !value )
            return -EINVAL;
        if ( strlen(value) >= p->len )
            return -E2BIG;
        strlcpy(p->par.var, value, p->len);
        return 0;

    case OPT_CUSTOM:
        if ( negated )
            return value ? -EINVAL : p->par.func("no");
        return p->par.func(value ? value : "");

    case OPT_IGNORE:
        return 0;
    }

    return -EINVAL;
}

/* A standalone "--" ends the hypervisor's part of the command line. */
static bool is_separator(const char *p)
{
    return p[0] == '-' && p[1] == '-' &&
           (!p[2] || isspace((unsigned char)p[2]));
}

/*
 * Copy the next option from *pp into opt (quotes removed) and advance *pp.
 * Returns the option's length, or -E2BIG if it did not fit.
 */
static int next_option(const char **pp, char *opt)
{
    const char *p = *pp;
    bool quoted = false;
    int len = 0, rc = 0;

    for ( ; *p && (quoted || !isspace((unsigned char)*p)); p++ )
    {
        if ( *p == '"' )
            quoted = !quoted;
        else if ( len < MAX_OPT_LEN - 1 )
            opt[len++] = *p;
        else
            rc = -E2BIG;
    }
    opt[len] = '\0';
    *pp = p;
    return rc ? rc : len;
}

int parse_params(const char *cmdline, const struct kernel_param *start,
                 const struct kernel_param *end)
{
    char opt[MAX_OPT_LEN];
    int final_rc = 0;

    for ( ; ; )
    {
        const char *name, *value;
        const struct kernel_param *p;
        bool negated, found = false;
        char *eq;
        int rc = 0;

        while ( isspace((unsigned char)*cmdline) )
            cmdline++;
        if ( !*cmdline || is_separator(cmdline) )
            break;

        if ( next_option(&cmdline, opt) < 0 )
        {
            printk(XENLOG_ERR "parameter \"%s...\" is too long, ignored!\n",
                   opt);
            final_rc = -E2BIG;
            continue;
        }

        eq = strchr(opt, '=');
        if ( eq )
            *eq = '\0';
        value = eq ? eq + 1 : NULL;

        negated = !strncmp(opt, "no-", 3);
        name = negated ? opt + 3 : opt;

        for ( p = start; p < end; p++ )
        {
            int rctmp;

            if ( !param_name_eq(p->name, name) )
                continue;
            found = true;
            rctmp = apply_param(p, value, negated);
            if ( !rc )
                rc = rctmp;
        }

        if ( rc )
        {
            printk(XENLOG_ERR
                   "parameter \"%s\" has invalid value \"%s\", rc=%d!\n",
                   opt, value ? value : "", rc);
            final_rc = rc;
        }
        if ( !found )
        {
            printk(XENLOG_WARNING "parameter \"%s\" unknown!\n", opt);
            final_rc = -EINVAL;
        }
    }

    return final_rc;
}

int cmdline_parse(const char *cmdline)
{
    if ( !cmdline )
        return 0;
    strlcpy(saved_cmdline, cmdline, sizeof(saved_cmdline));
    return parse_params(cmdline, __setup_start, __setup_end);
}

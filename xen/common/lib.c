/* SPDX-License-Identifier: GPL-2.0-only */
/* Number and boolean parsing, and the printk() prefix scheme. */

#include <xen/ctype.h>
#include <xen/lib.h>
#include <xen/string.h>

unsigned long long simple_strtoull(const char *cp, const char **endp,
                                   unsigned int base)
{
    unsigned long long val = 0;

    if ( base == 0 || base == 16 )
    {
        /* "0x" counts as a prefix only if a hex digit follows it. */
        if ( cp[0] == '0' && tolower((unsigned char)cp[1]) == 'x' &&
             isxdigit((unsigned char)cp[2]) )
        {
            cp += 2;
            base = 16;
        }
        else if ( base == 0 )
            base = cp[0] == '0' ? 8 : 10;
    }

    for ( ; ; cp++ )
    {
        int c = tolower((unsigned char)*cp);
        unsigned int digit;

        if ( isdigit(c) )
            digit = c - '0';
        else if ( c >= 'a' && c <= 'z' )
            digit = c - 'a' + 10;
        else
            break;
        if ( digit >= base )
            break;
        val = val * base + digit;
    }

    if ( endp )
        *endp = cp;
    return val;
}

unsigned long simple_strtoul(const char *cp, const char **endp,
                             unsigned int base)
{
    return simple_strtoull(cp, endp, base);
}

long long simple_strtoll(const char *cp, const char **endp, unsigned int base)
{
    if ( *cp == '-' )
        return -(long long)simple_strtoull(cp + 1, endp, base);
    return simple_strtoull(cp, endp, base);
}

long simple_strtol(const char *cp, const char **endp, unsigned int base)
{
    return simple_strtoll(cp, endp, base);
}

unsigned long long parse_size_and_unit(const char *s, const char **ps)
{
    const char *end;
    unsigned long long val = simple_strtoull(s, &end, 0);
    unsigned int shift;

    switch ( toupper((unsigned char)*end) )
    {
    case 'T': shift = 40; end++; break;
    case 'G': shift = 30; end++; break;
    case 'M': shift = 20; end++; break;
    case 'K': shift = 10; end++; break;
    case 'B': shift = 0;  end++; break;
    default:  shift = 10; break;    /* no unit: KiB, as in Xen */
    }

    if ( ps )
        *ps = end;
    return val << shift;
}

int parse_bool(const char *s, const char *e)
{
    static const struct {
        const char *word;
        int val;
    } words[] = {
        { "1", 1 }, { "yes", 1 }, { "on", 1 }, { "true", 1 },
        { "enable", 1 },
        { "0", 0 }, { "no", 0 }, { "off", 0 }, { "false", 0 },
        { "disable", 0 },
    };
    size_t len = e ? (size_t)(e - s) : strlen(s);

    for ( size_t i = 0; i < ARRAY_SIZE(words); i++ )
        if ( strlen(words[i].word) == len && !strncmp(s, words[i].word, len) )
            return words[i].val;
    return -1;
}

int parse_boolean(const char *name, const char *s, const char *e)
{
    size_t nlen = strlen(name), slen;
    bool negated = !strncmp(s, "no-", 3);

    if ( negated )
        s += 3;
    if ( e && e < s )
        return -1;
    slen = e ? (size_t)(e - s) : strlen(s);

    if ( slen < nlen || strncmp(s, name, nlen) )
        return -1;
    if ( slen == nlen )
        return !negated;            /* "name" or "no-name" */
    if ( negated || s[nlen] != '=' )
        return -1;                  /* "no-name=..." or "namefoo" */
    return parse_bool(s + nlen + 1, e);
}

const char *printk_prefix(const char *msg, unsigned int *level, bool *guest)
{
    bool g = false;
    unsigned int lvl = XENLOG_DEFAULT;

    if ( msg[0] == '<' && msg[1] == 'G' && msg[2] == '>' )
    {
        g = true;
        msg += 3;
    }
    if ( msg[0] == '<' && msg[1] >= '0' && msg[1] <= '3' && msg[2] == '>' )
    {
        lvl = msg[1] - '0';
        msg += 3;
    }

    if ( level )
        *level = lvl;
    if ( guest )
        *guest = g;
    return msg;
}

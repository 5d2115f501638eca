/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Formatted output into a buffer: vsnprintf() and friends.
 *
 * Conversions: %c %s %d %i %u %x %X %o %p %%.
 * Flags: '-' '0' '+' ' ' '#'.  Width and precision, either may be '*'.
 * Length modifiers: hh h l ll (also q) z t j.
 * %s of NULL prints "(null)".
 * %p prints the pointer value as lowercase hex, zero-padded to 16 digits
 * and without "0x" (as Xen does), e.g. "ffff82d080200000"; an explicit
 * width replaces the padding and '#' adds the "0x" prefix.  Xen's %p
 * extensions (%pd, %pv, %pS, ...) are not implemented: the letter after
 * %p is printed as ordinary text.
 * An unknown conversion is copied to the output as it is.
 * No floating point.
 */

#include <xen/ctype.h>
#include <xen/lib.h>
#include <xen/string.h>

#define F_LEFT   (1u << 0)  /* '-' */
#define F_ZERO   (1u << 1)  /* '0' */
#define F_PLUS   (1u << 2)  /* '+' */
#define F_SPACE  (1u << 3)  /* ' ' */
#define F_ALT    (1u << 4)  /* '#' */
#define F_SIGNED (1u << 5)
#define F_UPPER  (1u << 6)
#define F_PTR    (1u << 7)  /* %p: '#' always gives "0x" */

/* The output: characters past 'end' are counted but not stored. */
struct outbuf {
    char *pos;
    char *end;   /* last usable byte, reserved for the NUL */
    size_t len;  /* characters produced so far */
};

static void put(struct outbuf *o, char c)
{
    if ( o->pos < o->end )
        *o->pos++ = c;
    o->len++;
}

static void pad(struct outbuf *o, char c, int n)
{
    while ( n-- > 0 )
        put(o, c);
}

struct spec {
    unsigned int flags;
    int width;      /* -1: none */
    int precision;  /* -1: none */
};

static void emit_string(struct outbuf *o, const char *s,
                        const struct spec *sp)
{
    int len;

    if ( !s )
        s = "(null)";
    len = sp->precision < 0 ? (int)strlen(s)
                            : (int)strnlen(s, sp->precision);
    if ( !(sp->flags & F_LEFT) )
        pad(o, ' ', sp->width - len);
    for ( int i = 0; i < len; i++ )
        put(o, s[i]);
    if ( sp->flags & F_LEFT )
        pad(o, ' ', sp->width - len);
}

static void emit_number(struct outbuf *o, unsigned long long val,
                        bool negative, unsigned int base,
                        const struct spec *sp)
{
    const char *digits = (sp->flags & F_UPPER) ? "0123456789ABCDEF"
                                               : "0123456789abcdef";
    char tmp[24];   /* 22 octal digits are enough for 64 bits */
    const char *prefix = "";
    int ndigits = 0, nzeros, total;
    char sign = 0;

    if ( negative )
        sign = '-';
    else if ( sp->flags & F_SIGNED )
        sign = (sp->flags & F_PLUS) ? '+' : (sp->flags & F_SPACE) ? ' ' : 0;

    /* A zero with precision 0 prints no digits. */
    while ( val || (ndigits == 0 && sp->precision != 0) )
    {
        tmp[ndigits++] = digits[val % base];
        val /= base;
        if ( !val )
            break;
    }

    if ( sp->flags & F_ALT )
    {
        bool zero = ndigits == 0 || (ndigits == 1 && tmp[0] == '0');

        if ( base == 16 && (!zero || (sp->flags & F_PTR)) )
            prefix = (sp->flags & F_UPPER) ? "0X" : "0x";
        else if ( base == 8 && (ndigits == 0 || tmp[ndigits - 1] != '0') &&
                  sp->precision <= ndigits )
            prefix = "0";
    }

    nzeros = sp->precision > ndigits ? sp->precision - ndigits : 0;
    total = ndigits + nzeros + (sign ? 1 : 0) + (int)strlen(prefix);

    /* '0' pads with zeros after sign/prefix, unless '-' or a precision. */
    if ( (sp->flags & (F_ZERO | F_LEFT)) == F_ZERO && sp->precision < 0 &&
         sp->width > total )
    {
        nzeros += sp->width - total;
        total = sp->width;
    }

    if ( !(sp->flags & F_LEFT) )
        pad(o, ' ', sp->width - total);
    if ( sign )
        put(o, sign);
    for ( ; *prefix; prefix++ )
        put(o, *prefix);
    pad(o, '0', nzeros);
    while ( ndigits-- )
        put(o, tmp[ndigits]);
    if ( sp->flags & F_LEFT )
        pad(o, ' ', sp->width - total);
}

/* Parse a decimal number or '*' (taken from the arguments). */
static int parse_width(const char **fmt, va_list *args)
{
    int n = 0;

    if ( **fmt == '*' )
    {
        (*fmt)++;
        return va_arg(*args, int);
    }
    while ( isdigit((unsigned char)**fmt) )
        n = n * 10 + (*(*fmt)++ - '0');
    return n;
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE };

static enum length parse_length(const char **fmt)
{
    switch ( **fmt )
    {
    case 'h':
        (*fmt)++;
        if ( **fmt == 'h' )
        {
            (*fmt)++;
            return LEN_CHAR;
        }
        return LEN_SHORT;
    case 'l':
        (*fmt)++;
        if ( **fmt == 'l' )
        {
            (*fmt)++;
            return LEN_LLONG;
        }
        return LEN_LONG;
    case 'q': case 'j':
        (*fmt)++;
        return LEN_LLONG;
    case 'z': case 't':
        (*fmt)++;
        return LEN_SIZE;
    default:
        return LEN_INT;
    }
}

static unsigned long long get_unsigned(va_list *args, enum length len)
{
    switch ( len )
    {
    case LEN_CHAR:  return (unsigned char)va_arg(*args, unsigned int);
    case LEN_SHORT: return (unsigned short)va_arg(*args, unsigned int);
    case LEN_LONG:  return va_arg(*args, unsigned long);
    case LEN_LLONG: return va_arg(*args, unsigned long long);
    case LEN_SIZE:  return va_arg(*args, size_t);
    default:        return va_arg(*args, unsigned int);
    }
}

static long long get_signed(va_list *args, enum length len)
{
    switch ( len )
    {
    case LEN_CHAR:  return (signed char)va_arg(*args, int);
    case LEN_SHORT: return (short)va_arg(*args, int);
    case LEN_LONG:  return va_arg(*args, long);
    case LEN_LLONG: return va_arg(*args, long long);
    case LEN_SIZE:  return va_arg(*args, ssize_t);
    default:        return va_arg(*args, int);
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct outbuf o = { .pos = buf, .end = size ? buf + size - 1 : buf };
    va_list args;

    va_copy(args, ap);

    while ( *fmt )
    {
        const char *start = fmt;
        struct spec sp = { .width = -1, .precision = -1 };
        enum length len;
        unsigned int base = 10;
        char c;

        if ( *fmt != '%' )
        {
            put(&o, *fmt++);
            continue;
        }
        fmt++;

        for ( ; ; fmt++ )
        {
            if ( *fmt == '-' )      sp.flags |= F_LEFT;
            else if ( *fmt == '0' ) sp.flags |= F_ZERO;
            else if ( *fmt == '+' ) sp.flags |= F_PLUS;
            else if ( *fmt == ' ' ) sp.flags |= F_SPACE;
            else if ( *fmt == '#' ) sp.flags |= F_ALT;
            else break;
        }

        if ( *fmt == '*' || isdigit((unsigned char)*fmt) )
        {
            sp.width = parse_width(&fmt, &args);
            if ( sp.width < 0 )   /* a negative '*' width means '-' */
            {
                sp.flags |= F_LEFT;
                sp.width = -sp.width;
            }
        }
        if ( *fmt == '.' )
        {
            fmt++;
            sp.precision = parse_width(&fmt, &args);
            if ( sp.precision < 0 )
                sp.precision = -1;
        }

        len = parse_length(&fmt);

        switch ( c = *fmt++ )
        {
        case '%':
            put(&o, '%');
            break;

        case 'c':
        {
            char ch = (char)va_arg(args, int);

            if ( !(sp.flags & F_LEFT) )
                pad(&o, ' ', sp.width - 1);
            put(&o, ch);
            if ( sp.flags & F_LEFT )
                pad(&o, ' ', sp.width - 1);
            break;
        }

        case 's':
            emit_string(&o, va_arg(args, const char *), &sp);
            break;

        case 'p':
            if ( sp.width < 0 )
            {
                sp.width = 2 * sizeof(void *) + ((sp.flags & F_ALT) ? 2 : 0);
                sp.flags |= F_ZERO;
            }
            sp.flags |= F_PTR;
            emit_number(&o, (unsigned long)va_arg(args, void *), false, 16,
                        &sp);
            break;

        case 'd': case 'i':
        {
            long long v = get_signed(&args, len);
            unsigned long long mag = v;

            if ( v < 0 )
                mag = 0ULL - mag;
            sp.flags |= F_SIGNED;
            emit_number(&o, mag, v < 0, 10, &sp);
            break;
        }

        case 'X':
            sp.flags |= F_UPPER;
            /* fall through */
        case 'x':
            base = 16;
            /* fall through */
        case 'u': case 'o':
            if ( c == 'o' )
                base = 8;
            emit_number(&o, get_unsigned(&args, len), false, base, &sp);
            break;

        default:
            /* Unknown (or truncated) conversion: print it literally. */
            if ( !c )
                fmt--;
            for ( ; start < fmt; start++ )
                put(&o, *start);
            break;
        }
    }

    if ( size )
        *o.pos = '\0';
    va_end(args);

    return o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    int n;

    va_start(args, fmt);
    n = vsnprintf(buf, size, fmt, args);
    va_end(args);
    return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int n = vsnprintf(buf, size, fmt, args);

    if ( !size )
        return 0;
    return (size_t)n < size ? n : (int)size - 1;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    int n;

    va_start(args, fmt);
    n = vscnprintf(buf, size, fmt, args);
    va_end(args);
    return n;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* Character classes of the "C" locale, ASCII only.  No table needed. */
#ifndef __XEN_CTYPE_H__
#define __XEN_CTYPE_H__

/* The host test build renames these so they never meet libc's macros. */
#ifdef XEN_HOST_TEST
#define isdigit  xen_isdigit
#define isspace  xen_isspace
#define isxdigit xen_isxdigit
#define isupper  xen_isupper
#define islower  xen_islower
#define isalpha  xen_isalpha
#define isalnum  xen_isalnum
#define isprint  xen_isprint
#define tolower  xen_tolower
#define toupper  xen_toupper
#endif

static inline int isdigit(int c)  { return c >= '0' && c <= '9'; }
static inline int isupper(int c)  { return c >= 'A' && c <= 'Z'; }
static inline int islower(int c)  { return c >= 'a' && c <= 'z'; }
static inline int isalpha(int c)  { return isupper(c) || islower(c); }
static inline int isalnum(int c)  { return isalpha(c) || isdigit(c); }
static inline int isprint(int c)  { return c >= 0x20 && c < 0x7f; }

static inline int isspace(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int isxdigit(int c)
{
    return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline int tolower(int c)  { return isupper(c) ? c - 'A' + 'a' : c; }
static inline int toupper(int c)  { return islower(c) ? c - 'a' + 'A' : c; }

#endif /* __XEN_CTYPE_H__ */

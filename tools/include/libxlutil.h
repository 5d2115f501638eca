/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxlutil: the xl.cfg(5) configuration file parser (Xen 4.17's names and
 * signatures for the part implemented), plus two extensions of this
 * project marked below.
 *
 * Syntax: one "name = value" (or "name += value", appending to a list or
 * string) per line or separated by ';'; values are "double-quoted"
 * strings (C escapes), 'single-quoted' strings (no escapes), numbers, or
 * [ lists, of, values ] which may span lines and end with a comma; '#'
 * starts a comment.  A setting given twice: the last one counts.
 *
 * Errors are reported to the 'report' stream as
 *     <file>:<line>: config parsing error near `<text>': <what>
 * and warnings (a value of the wrong kind) as
 *     <file>:<line>: warning: parameter `<name>' ...
 */
#ifndef LIBXLUTIL_H
#define LIBXLUTIL_H

#include <stdio.h>

#include "libxl.h"

enum XLU_ConfigValueType {
    XLU_STRING,
    XLU_LIST,
};

enum XLU_Operation {
    XLU_OP_ASSIGNMENT = 0,
    XLU_OP_ADDITION,
};

/* Unless otherwise stated, all functions return an errno value. */
typedef struct XLU_Config XLU_Config;
typedef struct XLU_ConfigList XLU_ConfigList;
typedef struct XLU_ConfigValue XLU_ConfigValue;

XLU_Config *xlu_cfg_init(FILE *report, const char *report_filename);
  /* 0 means we got ENOMEM. */
  /* report_filename is copied; report is saved and must remain valid
   *  until the Config is destroyed. */

int xlu_cfg_readfile(XLU_Config*, const char *real_filename);
int xlu_cfg_readdata(XLU_Config*, const char *data, int length);
  /* If these fail, then it is undefined behaviour to call xlu_cfg_get_...
   * functions.  You have to just xlu_cfg_destroy. */

void xlu_cfg_destroy(XLU_Config*);

/* All of the following print warnings to "report" if there is a problem.
 * Return values are:
 *   0        OK
 *   ESRCH    not defined
 *   EINVAL   value found but wrong format for request (prints warning unless dont_warn=true)
 *   ERANGE   value out of range (from strtol)
 */

int xlu_cfg_get_string(const XLU_Config*, const char *n, const char **value_r,
                       int dont_warn);
/* free/strdup version */
int xlu_cfg_replace_string(const XLU_Config *cfg, const char *n,
                           char **value_r, int dont_warn);
int xlu_cfg_get_long(const XLU_Config*, const char *n, long *value_r,
                     int dont_warn);
int xlu_cfg_get_bounded_long(const XLU_Config*, const char *n, long min,
                             long max, long *value_r, int dont_warn);
int xlu_cfg_get_defbool(const XLU_Config*, const char *n, libxl_defbool *b,
                        int dont_warn);

int xlu_cfg_get_list(const XLU_Config*, const char *n,
                     XLU_ConfigList **list_r /* may be 0 */,
                     int *entries_r /* may be 0 */,
                     int dont_warn);
  /* there is no need to free *list_r; lifetime is that of the XLU_Config */
int xlu_cfg_get_list_as_string_list(const XLU_Config *cfg, const char *n,
                                    libxl_string_list *sl, int dont_warn);
const char *xlu_cfg_get_listitem(const XLU_ConfigList*, int entry);
  /* xlu_cfg_get_listitem cannot fail, except that if entry is
   * out of range it returns 0 (not setting errno) */

enum XLU_ConfigValueType xlu_cfg_value_type(const XLU_ConfigValue *value);
int xlu_cfg_value_get_string(const XLU_Config *cfg, XLU_ConfigValue *value,
                             char **value_r, int dont_warn);
int xlu_cfg_value_get_list(const XLU_Config *cfg, XLU_ConfigValue *value,
                           XLU_ConfigList **value_r, int dont_warn);
XLU_ConfigValue *xlu_cfg_get_listitem2(const XLU_ConfigList *list,
                                       int entry);

/*
 * EXTENSIONS (this project, NOT in Xen's libxlutil):
 *
 * xlu_cfg_readdata_named: like xlu_cfg_readdata, but errors and
 * warnings about these settings name 'source' (e.g. "command line")
 * instead of the file; later settings override earlier ones as usual.
 * xl create uses it for its key=value arguments.
 *
 * xlu_cfg_unused: after the caller has looked up every key it knows,
 * call fn for each setting never looked up (the last one of a name),
 * in file order, with where it was set.  Returns how many there were.
 */
int xlu_cfg_readdata_named(XLU_Config *cfg, const char *source,
                           const char *data, int length);
int xlu_cfg_unused(const XLU_Config *cfg,
                   void (*fn)(void *opaque, const char *source, int lineno,
                              const char *name),
                   void *opaque);

#endif /* LIBXLUTIL_H */

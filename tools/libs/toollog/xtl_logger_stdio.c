/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xentoollog's stdio logger: one line per message,
 *
 *     [[pid] ][date ]context: level: message[: strerror(errno)]
 *
 * and progress reports either rewritten in place with \r (terminals, or
 * XTL_STDIOSTREAM_PROGRESS_USE_CR) or as a line every 10%.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xentoollog.h"

struct xentoollog_logger_stdiostream {
    xentoollog_logger vtable;           /* first: the logger itself */
    FILE *f;
    xentoollog_level min_level;
    unsigned flags;
    int progress_erase_len;             /* a \r progress line is showing */
    int progress_last_percent;          /* -1: none yet */
};

static int use_cr(const struct xentoollog_logger_stdiostream *lg)
{
    if ( lg->flags & XTL_STDIOSTREAM_PROGRESS_USE_CR )
        return 1;
    if ( lg->flags & XTL_STDIOSTREAM_PROGRESS_NO_CR )
        return 0;
    return isatty(fileno(lg->f)) > 0;
}

/* Remove a progress line left on the terminal. */
static void progress_erase(struct xentoollog_logger_stdiostream *lg)
{
    if ( !lg->progress_erase_len )
        return;
    fprintf(lg->f, "\r%*s\r", lg->progress_erase_len, "");
    lg->progress_erase_len = 0;
}

static void stamp(struct xentoollog_logger_stdiostream *lg)
{
    if ( lg->flags & XTL_STDIOSTREAM_SHOW_PID )
        fprintf(lg->f, "[%lu] ", (unsigned long)getpid());

    if ( lg->flags & XTL_STDIOSTREAM_SHOW_DATE )
    {
        time_t now = time(NULL);
        struct tm tm;
        char buf[64];

        if ( now != (time_t)-1 && localtime_r(&now, &tm) &&
             strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %Z", &tm) )
            fprintf(lg->f, "%s ", buf);
    }
}

static void stdiostream_vmessage(xentoollog_logger *logger,
                                 xentoollog_level level, int errnoval,
                                 const char *context, const char *format,
                                 va_list al)
{
    struct xentoollog_logger_stdiostream *lg = (void *)logger;
    int saved_errno = errno;

    if ( level < lg->min_level )
        return;

    progress_erase(lg);
    stamp(lg);
    if ( context )
        fprintf(lg->f, "%s: ", context);
    fprintf(lg->f, "%s: ", xtl_level_to_string(level));
    vfprintf(lg->f, format, al);
    if ( errnoval >= 0 )
        fprintf(lg->f, ": %s", strerror(errnoval));
    fputc('\n', lg->f);
    fflush(lg->f);

    errno = saved_errno;
}

static void stdiostream_progress(xentoollog_logger *logger,
                                 const char *context, const char *doing_what,
                                 int percent, unsigned long done,
                                 unsigned long total)
{
    struct xentoollog_logger_stdiostream *lg = (void *)logger;
    int saved_errno = errno;
    int len;

    (void)total;

    if ( (lg->flags & XTL_STDIOSTREAM_HIDE_PROGRESS) ||
         XTL_PROGRESS < lg->min_level )
        return;

    /* A new task starts at done == 0. */
    if ( done == 0 )
        lg->progress_last_percent = -1;
    if ( percent == lg->progress_last_percent )
        return;

    if ( use_cr(lg) )
    {
        progress_erase(lg);
        len = fprintf(lg->f, "%s%s%s: %d%%", context ? context : "",
                      context ? ": " : "", doing_what, percent);
        if ( percent == 100 )
        {
            fputc('\n', lg->f);
            len = 0;
        }
        lg->progress_erase_len = len > 0 ? len : 0;
    }
    else
    {
        /* A line at 0%, at every 10% step crossed, and at 100%. */
        if ( lg->progress_last_percent >= 0 && percent != 100 &&
             percent / 10 == lg->progress_last_percent / 10 )
            return;
        stamp(lg);
        fprintf(lg->f, "%s%s%s: %d%%\n", context ? context : "",
                context ? ": " : "", doing_what, percent);
    }
    lg->progress_last_percent = percent;
    fflush(lg->f);

    errno = saved_errno;
}

static void stdiostream_destroy(xentoollog_logger *logger)
{
    struct xentoollog_logger_stdiostream *lg = (void *)logger;

    progress_erase(lg);
    free(lg);
}

xentoollog_logger_stdiostream *xtl_createlogger_stdiostream(
    FILE *f, xentoollog_level min_level, unsigned flags)
{
    xentoollog_logger_stdiostream newlogger = {
        .f = f,
        .min_level = min_level,
        .flags = flags,
        .progress_last_percent = -1,
    };

    return XTL_NEW_LOGGER(stdiostream, newlogger);
}

void xtl_stdiostream_set_minlevel(xentoollog_logger_stdiostream *lg,
                                  xentoollog_level min_level)
{
    lg->min_level = min_level;
}

void xtl_stdiostream_adjust_flags(xentoollog_logger_stdiostream *lg,
                                  unsigned set_flags, unsigned clear_flags)
{
    lg->flags = (lg->flags & ~clear_flags) | set_flags;
}

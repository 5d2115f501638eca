/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xentoollog: dispatching messages to a logger, and level names.
 */
#include <stdarg.h>
#include <stddef.h>

#include "xentoollog.h"

static const char *const level_names[XTL_NUM_LEVELS] = {
    [XTL_NONE]     = "none",
    [XTL_DEBUG]    = "debug",
    [XTL_VERBOSE]  = "verbose",
    [XTL_DETAIL]   = "detail",
    [XTL_PROGRESS] = "progress",
    [XTL_INFO]     = "info",
    [XTL_NOTICE]   = "notice",
    [XTL_WARN]     = "warning",
    [XTL_ERROR]    = "error",
    [XTL_CRITICAL] = "critical",
};

const char *xtl_level_to_string(xentoollog_level level)
{
    if ( (unsigned int)level >= XTL_NUM_LEVELS )
        return "unknown";
    return level_names[level];
}

void xtl_logv(struct xentoollog_logger *logger, xentoollog_level level,
              int errnoval, const char *context, const char *format,
              va_list al)
{
    if ( !logger || !logger->vmessage )
        return;
    logger->vmessage(logger, level, errnoval, context, format, al);
}

void xtl_log(struct xentoollog_logger *logger, xentoollog_level level,
             int errnoval, const char *context, const char *format, ...)
{
    va_list al;

    va_start(al, format);
    xtl_logv(logger, level, errnoval, context, format, al);
    va_end(al);
}

void xtl_progress(struct xentoollog_logger *logger, const char *context,
                  const char *doing_what, unsigned long done,
                  unsigned long total)
{
    int percent = 0;

    if ( !logger || !logger->progress )
        return;

    if ( total )
    {
        /* Avoid overflowing done * 100 for large counts. */
        percent = done >= total ? 100
            : total > 100000UL ? (int)(done / (total / 100))
            : (int)(done * 100 / total);
        if ( percent > 100 )
            percent = 100;
    }

    logger->progress(logger, context, doing_what, percent, done, total);
}

void xtl_logger_destroy(struct xentoollog_logger *logger)
{
    if ( !logger || !logger->destroy )
        return;
    logger->destroy(logger);
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xentoollog: how the Xen tool libraries report messages and progress.
 *
 * A logger is a small table of functions the caller provides (or one of
 * the ready-made ones below); libxencall, libxenctrl, libxendevicemodel and
 * libxl all take one when they are opened.  Names, levels and signatures
 * are Xen's (tools/include/xentoollog.h), so code written for Xen's
 * libraries builds unchanged.
 */
#ifndef XENTOOLLOG_H
#define XENTOOLLOG_H

#include <stdarg.h>
#include <stdio.h>

/* Message levels, least to most severe. */
typedef enum xentoollog_level {
    XTL_NONE,       /* never used for a message: "log nothing" as a minimum */
    XTL_DEBUG,
    XTL_VERBOSE,
    XTL_DETAIL,
    XTL_PROGRESS,   /* also the level of progress reports */
    XTL_INFO,
    XTL_NOTICE,
    XTL_WARN,
    XTL_ERROR,
    XTL_CRITICAL,
    XTL_NUM_LEVELS
} xentoollog_level;

typedef struct xentoollog_logger xentoollog_logger;

/*
 * The logger interface.  A particular logger embeds this as its first
 * member ("vtable") and keeps its own state after it.
 *
 * vmessage: one message; errnoval is an errno value to append, or -1;
 *           context names the library ("xc", "xencall", "xl"...), may be
 *           NULL; format has no trailing newline.
 * progress: may be NULL; called with done == 0 first for each new
 *           (context, doing_what).
 * destroy:  free the logger (not the stream it writes to).
 */
struct xentoollog_logger {
    void (*vmessage)(struct xentoollog_logger *logger,
                     xentoollog_level level, int errnoval,
                     const char *context, const char *format, va_list al)
        __attribute__((format(printf, 5, 0)));
    void (*progress)(struct xentoollog_logger *logger,
                     const char *context, const char *doing_what,
                     int percent, unsigned long done, unsigned long total);
    void (*destroy)(struct xentoollog_logger *logger);
};

/* ---- the stdio logger ---------------------------------------------------- */

/* Flags of xtl_createlogger_stdiostream (Xen's values). */
#define XTL_STDIOSTREAM_SHOW_PID            001u
#define XTL_STDIOSTREAM_SHOW_DATE           002u
#define XTL_STDIOSTREAM_HIDE_PROGRESS       004u
#define XTL_STDIOSTREAM_PROGRESS_USE_CR     010u  /* else: \r only to ttys */
#define XTL_STDIOSTREAM_PROGRESS_NO_CR      020u

typedef struct xentoollog_logger_stdiostream xentoollog_logger_stdiostream;

/*
 * A logger writing "context: level: message[: strerror]" lines to f,
 * dropping messages below min_level.  Returns NULL if out of memory.
 * Destroying it does not close f.
 */
xentoollog_logger_stdiostream *xtl_createlogger_stdiostream(
    FILE *f, xentoollog_level min_level, unsigned flags);

void xtl_stdiostream_set_minlevel(xentoollog_logger_stdiostream *lg,
                                  xentoollog_level min_level);
/* set_flags wins where the two overlap. */
void xtl_stdiostream_adjust_flags(xentoollog_logger_stdiostream *lg,
                                  unsigned set_flags, unsigned clear_flags);

/* Destroy any logger; NULL is accepted and ignored. */
void xtl_logger_destroy(struct xentoollog_logger *logger);

/* ---- emitting messages ---------------------------------------------------- */

void xtl_logv(struct xentoollog_logger *logger, xentoollog_level level,
              int errnoval, const char *context, const char *format,
              va_list al) __attribute__((format(printf, 5, 0)));
void xtl_log(struct xentoollog_logger *logger, xentoollog_level level,
             int errnoval, const char *context, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
void xtl_progress(struct xentoollog_logger *logger, const char *context,
                  const char *doing_what, unsigned long done,
                  unsigned long total);

/* "debug", "verbose", ... "critical"; never NULL. */
const char *xtl_level_to_string(xentoollog_level level);

/*
 * Build a new logger of type xentoollog_logger_LOGGER from a stack copy
 * 'buffer' whose vtable this fills with LOGGER_vmessage, LOGGER_progress
 * and LOGGER_destroy; evaluates to a malloc'd copy, or NULL (after logging
 * through 'buffer' itself) when out of memory.  As in Xen.
 */
#define XTL_NEW_LOGGER(LOGGER, buffer) ({                                     \
    xentoollog_logger_##LOGGER *xtl_new_;                                     \
                                                                              \
    (buffer).vtable.vmessage = LOGGER##_vmessage;                             \
    (buffer).vtable.progress = LOGGER##_progress;                             \
    (buffer).vtable.destroy = LOGGER##_destroy;                               \
    xtl_new_ = malloc(sizeof(*xtl_new_));                                     \
    if ( xtl_new_ )                                                           \
        *xtl_new_ = (buffer);                                                 \
    else                                                                      \
        xtl_log(&(buffer).vtable, XTL_CRITICAL, errno, "xtl",                 \
                "failed to allocate memory for new message logger");          \
    xtl_new_;                                                                 \
})

#endif /* XENTOOLLOG_H */

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest's save/restore (the migration stream, xg_sr_stream_format.h):
 * the state both directions share and the helpers between the files.
 *
 *   xg_sr_common.c            records in and out, names, the clock
 *   xg_sr_common_x86.c        X86_TSC_INFO
 *   xg_sr_save.c              xc_domain_save: headers, pages, the live loop
 *   xg_sr_save_policy.c       when to stop pre-copying; throttling; the
 *                             bandwidth cap
 *   xg_sr_save_x86_hvm.c      HVM_PARAMS, HVM_CONTEXT
 *   xg_sr_restore.c           xc_domain_restore: checks, order, pages
 *   xg_sr_restore_x86_hvm.c   HVM_PARAMS, HVM_CONTEXT, the end of the stream
 */
#ifndef XG_SR_COMMON_H
#define XG_SR_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "xg_private.h"
#include "xg_sr_stream_format.h"

#ifndef ECANCELED
#define ECANCELED 125           /* Linux's; not in every libc here */
#endif

/* Pages in one PAGE_DATA record (Xen's MAX_BATCH_SIZE). */
#define MAX_BATCH_SIZE          1024
/* Pages the saver puts in one record. */
#define SAVE_BATCH_SIZE         512
/* The largest HVM context accepted (the hypervisor's own limit). */
#define HVM_CONTEXT_MAX         (64U * 1024)
/* The largest record body accepted before looking at its type. */
#define REC_LENGTH_MAX          (8U + MAX_BATCH_SIZE * (8U + 4096U))
/* A pfn space larger than this (64 GiB) is not believed. */
#define SR_MAX_P2M_SIZE         (1UL << 24)

/* A record read from the stream: header, and the body (malloc'd). */
struct xc_sr_record {
    uint32_t type;
    uint32_t length;
    void *data;
    uint64_t offset;            /* of the record header in the stream */
};

struct xc_sr_context {
    xc_interface *xch;
    uint32_t domid;
    int fd;
    uint64_t offset;            /* octets written / read so far */
    xenforeignmemory_handle *fmem;
    xc_dominfo_t dominfo;

    union {
        struct {
            uint32_t flags;
            struct save_callbacks *callbacks;
            struct xc_save_params params;
            unsigned long p2m_size;         /* pfns [0, p2m_size) */
            xen_pfn_t *batch_pfns;
            xen_pfn_t *batch_types;         /* getpageframeinfo3's copy */
            unsigned int nr_batch;
            uint64_t holes;                 /* pfns left out as XTAB */
            bool paused;                    /* by us: undo on failure */
            bool logdirty;                  /* enabled by us */
            bool live;
            unsigned int throttle;          /* percent of the time paused */
            unsigned int batch_limit;       /* pages in the next record */
            uint64_t bandwidth;             /* of the last round (or cap) */
            uint64_t slice_ns;              /* the throttle slice's length */
            uint64_t slice_t0;              /* and when it began */
            bool throttled;                 /* paused for throttling now */
            uint64_t throttle_t0;           /* since then */
            uint64_t round_paused_ns;       /* this round's pauses: total */
            uint64_t round_max_pause_ns;    /* and longest */
            uint64_t acct_t0;               /* paused in this round since */
            bool slicing;                   /* slices run across rounds */
            uint64_t round_end_t;           /* the last round's end */
            uint64_t boundary_ns;           /* the longest end to begin */
            uint64_t round_bytes;
            uint64_t rate_start_ns;         /* the max_bandwidth window: */
            uint64_t rate_octets;           /* opened then, octets since */
            struct xc_save_summary summary;
        } save;
        struct {
            struct restore_callbacks *callbacks;
            uint32_t format_version;        /* 2 or 3 */
            unsigned long max_pages;        /* pfns [0, max_pages) */
            unsigned long *populated;       /* bitmap, grown as needed */
            unsigned long populated_pfns;   /* pfns it covers */
            bool seen_static_data_end;
            bool seen_tsc_info, seen_params, seen_context;
            void *context;                  /* HVM_CONTEXT body, applied at END */
            uint32_t context_len;
            struct xc_sr_rec_x86_tsc_info tsc;
            struct xc_restore_summary summary;
            struct xc_restore_rings *rings; /* NULL: none to set up */
            uint64_t store_gfn, console_gfn;    /* from HVM_PARAMS */
        } restore;
    };
};

/* ---- xg_sr_common.c ---- */

/* "PAGE_DATA", "X86_TSC_INFO" ... or "unknown" (the optional bit ignored). */
const char *rec_type_to_str(uint32_t type);

/* Monotonic time in ns (in the test kernels: TSC ticks, 1 tick = 1 ns). */
uint64_t xg_sr_now_ns(void);
/* Sleep ns of that clock (nanosleep; the test kernels yield meanwhile). */
void xg_sr_sleep_ns(uint64_t ns);

/* Write len octets to the stream; -1 with errno on failure (logged). */
int write_exact(struct xc_sr_context *ctx, const void *data, size_t len);
/*
 * Write a record: header, the body as parts (parts[i] of lens[i] octets,
 * their total is the body length), zero padding to 8 octets.
 */
int write_split_record(struct xc_sr_context *ctx, uint32_t type,
                       const void *const parts[], const size_t lens[],
                       unsigned int nr);
int write_record(struct xc_sr_context *ctx, uint32_t type,
                 const void *body, size_t len);

/*
 * Read exactly len octets, 'what' naming them for the message.  Returns 0,
 * or -1 (logged, errno EIO for a truncated stream).
 */
int read_exact(struct xc_sr_context *ctx, void *data, size_t len,
               const char *what);
/*
 * Read one record: header, body (malloc'd; at most REC_LENGTH_MAX octets,
 * the type's own limits are the handler's), padding (must be zero).
 * 0 or -1 (logged).
 */
int read_record(struct xc_sr_context *ctx, struct xc_sr_record *rec);

/* Logging a problem with a record, naming its offset and type. */
#define REC_ERROR(ctx, rec, fmt, ...)                                         \
    xc_report((ctx)->xch, (ctx)->xch->error_handler, XTL_ERROR,               \
              XC_INTERNAL_ERROR,                                              \
              "restore: offset %#" PRIx64 ": %s record (type %#x, "           \
              "length %u): " fmt, (rec)->offset,                              \
              rec_type_to_str((rec)->type), (rec)->type, (rec)->length,       \
              ##__VA_ARGS__)

#define SR_DPRINTF(ctx, fmt, ...)                                             \
    xc_report((ctx)->xch, (ctx)->xch->error_handler, XTL_DETAIL, 0,           \
              fmt, ##__VA_ARGS__)

/* ---- xg_sr_common_x86.c ---- */
int write_x86_tsc_info(struct xc_sr_context *ctx);
int handle_x86_tsc_info(struct xc_sr_context *ctx, struct xc_sr_record *rec);

/* ---- xg_sr_save_policy.c ---- */
/*
 * After round 'iteration' of the live phase: decide whether to go on
 * (XGS_POLICY_CONTINUE_PRECOPY), stop (XGS_POLICY_STOP_AND_COPY) or give
 * up (XGS_POLICY_ABORT), fill in the round's statistics, and adjust the
 * throttle.
 */
int save_precopy_decide(struct xc_sr_context *ctx,
                        struct xc_save_round_stats *st);
/*
 * After a PAGE_DATA record of 'octets', begun at t0, is written: sleep as
 * long as max_bandwidth requires (nothing without a cap).
 */
void save_rate_limit(struct xc_sr_context *ctx, uint64_t octets, uint64_t t0);
/*
 * Pre-copy stopped at its round limit, target not met: warn with the
 * figures of the last round; -1 (ETIMEDOUT) if abort_unconverged.
 */
int save_not_converged(struct xc_sr_context *ctx,
                       const struct xc_save_round_stats *st);
/*
 * Auto-converge in a live round: save_throttle_begin before its first
 * record, save_throttle_step after each record (pauses or unpauses the
 * guest for its share of the slice and sets batch_limit, the pages of the
 * next record), save_throttle_end after its last: the slices run on
 * across rounds, so the guest stays paused over CLEAN if the pause phase
 * has room for it (the longest round boundary seen so far).
 * save_throttle_release ends a throttle pause for good (before or after
 * the suspend).  -1 if a pause or unpause failed (logged).
 */
int save_throttle_begin(struct xc_sr_context *ctx);
int save_throttle_step(struct xc_sr_context *ctx);
int save_throttle_end(struct xc_sr_context *ctx);
int save_throttle_release(struct xc_sr_context *ctx);
void save_report_round(struct xc_sr_context *ctx,
                       const struct xc_save_round_stats *st);

/* ---- xg_sr_save_x86_hvm.c ---- */
int x86_hvm_end_of_checkpoint(struct xc_sr_context *ctx);

/* ---- xg_sr_restore_x86_hvm.c ---- */
int handle_hvm_params(struct xc_sr_context *ctx, struct xc_sr_record *rec);
int handle_hvm_context(struct xc_sr_context *ctx, struct xc_sr_record *rec);
int x86_hvm_stream_complete(struct xc_sr_context *ctx);

#endif /* XG_SR_COMMON_H */

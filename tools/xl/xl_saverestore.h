/* SPDX-License-Identifier: LGPL-2.1-only */
/* xl's save file (Xen's layout and names) and the helpers xl_migrate.c shares. */
#ifndef XL_SAVERESTORE_H
#define XL_SAVERESTORE_H

#include <stdbool.h>
#include <stdint.h>

extern const char savefileheader_magic[32];

#define XL_MANDATORY_FLAG_JSON      (1U << 0)   /* config data is in JSON format */
#define XL_MANDATORY_FLAG_STREAMv2  (1U << 1)   /* stream is v2 */
#define XL_MANDATORY_FLAG_ALL       (XL_MANDATORY_FLAG_JSON | \
                                     XL_MANDATORY_FLAG_STREAMv2)

struct save_file_header {
    char magic[32];             /* savefileheader_magic */
    uint32_t byteorder;         /* SAVEFILE_BYTEORDER_VALUE */
    uint32_t mandatory_flags;   /* unknown flags => reject restore */
    uint32_t optional_flags;    /* unknown flags => reject restore */
    uint32_t optional_data_len; /* skip, or skip tail, if not understood */
};

#define SAVEFILE_BYTEORDER_VALUE ((uint32_t)0x01020304UL)

_Static_assert(sizeof(struct save_file_header) == 48, "xl save header");

/* The config to store (malloc'd, NUL included in *config_len), or NULL. */
char *save_domain_config(uint32_t domid, const char *override_config_file,
                         int *config_len);
/* The header and the config; 0 or -1 (reported). */
int save_domain_core_writeconfig(int fd, const char *source,
                                 const char *config_data, int config_len);
/*
 * Read a save file's header from fd and restore the domain that follows
 * (named with rename_suffix appended, if not NULL); unpaused unless
 * paused.  d_config (initialised by the caller, disposed by it) gets the
 * domain's configuration, for its monitor (xl_monitor.c).  0 or -1
 * (reported).
 */
int restore_domain(int fd, const char *source, const char *config_file,
                   const char *rename_suffix, bool paused, uint32_t *domid_r,
                   libxl_domain_config *d_config);
/*
 * A saved domain runs on in place (a checkpoint, a migration that failed
 * after the stream): resumed cooperatively (libxl_domain_resume(.., 1, ..),
 * as Xen's xl) if it suspended itself, unpaused if it was paused (a guest
 * without PV drivers).  0 or -1 (reported).
 */
int resume_saved_domain(uint32_t domid);
/* Whether the domain is shut down for suspend (it suspended itself). */
bool domain_suspended(uint32_t domid);
int xl_read_exactly(int fd, void *p, size_t len);
/* Write all of p (retrying short writes and EINTR): 0, or -1 on error. */
int xl_write_exactly(int fd, const void *p, size_t len);

#endif /* XL_SAVERESTORE_H */

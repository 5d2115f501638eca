/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl_utils: helpers around libxl (Xen 4.17's names and signatures).
 */
#ifndef LIBXL_UTILS_H
#define LIBXL_UTILS_H

#include "libxl.h"

/* returns string from strdup */
char *libxl_basename(const char *name);

/*
 * Domain names.  This hypervisor has no xenstore: domain 0 is "Domain-0";
 * another domain has the name recorded for it (with its id and UUID) when
 * it was created by this toolstack, and none otherwise.
 */
int libxl_name_to_domid(libxl_ctx *ctx, const char *name, uint32_t *domid);
/* A number is taken as a domain id, anything else as a name. */
int libxl_domain_qualifier_to_domid(libxl_ctx *ctx, const char *name,
                                    uint32_t *domid);
/* malloc'd; NULL if the domain has no name (or does not exist). */
char *libxl_domid_to_name(libxl_ctx *ctx, uint32_t domid);

/*
 * Reads the file into a malloc'd buffer (with a NUL after the data, not
 * counted in *datalen_r); 0, or errno with a message logged.
 */
int libxl_read_file_contents(libxl_ctx *ctx, const char *filename,
                             void **data_r, int *datalen_r);

/* Bitmaps (libxl_bitmap is in libxl.h). */
int libxl_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *bitmap, int n_bits);
    /* Allocated bimap is from malloc, libxl_bitmap_dispose() to be
     * called by the application when done. */
void libxl_bitmap_copy_alloc(libxl_ctx *ctx, libxl_bitmap *dptr,
                             const libxl_bitmap *sptr);
void libxl_bitmap_copy(libxl_ctx *ctx, libxl_bitmap *dptr,
                       const libxl_bitmap *sptr);
int libxl_bitmap_is_full(const libxl_bitmap *bitmap);
int libxl_bitmap_is_empty(const libxl_bitmap *bitmap);
int libxl_bitmap_test(const libxl_bitmap *bitmap, int bit);
void libxl_bitmap_set(libxl_bitmap *bitmap, int bit);
void libxl_bitmap_reset(libxl_bitmap *bitmap, int bit);
int libxl_bitmap_count_set(const libxl_bitmap *bitmap);
static inline void libxl_bitmap_set_any(libxl_bitmap *bitmap)
{
    memset(bitmap->map, -1, bitmap->size);
}
static inline void libxl_bitmap_set_none(libxl_bitmap *bitmap)
{
    memset(bitmap->map, 0, bitmap->size);
}
static inline int libxl_bitmap_cpu_valid(libxl_bitmap *bitmap, int bit)
{
    return bit >= 0 && bit < (int)(bitmap->size * 8);
}
#define libxl_for_each_bit(var, map) for (var = 0; var < (int)((map).size * 8); var++)
#define libxl_for_each_set_bit(v, m) for (v = 0; v < (int)((m).size * 8); v++) \
                                             if (libxl_bitmap_test(&(m), v))

int libxl_cpu_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *cpumap, int max_cpus);
/* CPU pools: there is one, pool 0, "Pool-0" (libxl_cpupool.c). */
int libxl_name_to_cpupoolid(libxl_ctx *ctx, const char *name, uint32_t *poolid);
char *libxl_cpupoolid_to_name(libxl_ctx *ctx, uint32_t poolid);
int libxl_node_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *nodemap,
                            int max_nodes);

static inline uint32_t libxl__sizekb_to_mb(uint32_t s) {
    return (s + 1023) / 1024;
}

void libxl_string_copy(libxl_ctx *ctx, char **dst, char * const*src);

#define LIBXL_FILLZERO(object) (memset(&(object), 0, sizeof((object))))

#endif /* LIBXL_UTILS_H */

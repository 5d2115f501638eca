/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * The builtin types' functions (defbool, bitmap, string and key-value
 * lists; uuid: libxl_uuid.c) and the small helpers of libxl_utils.h.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libxl_internal.h"

/* ---- defbool -------------------------------------------------------------- */

#define LIBXL__DEFBOOL_DEFAULT     (0)
#define LIBXL__DEFBOOL_FALSE       (-1)
#define LIBXL__DEFBOOL_TRUE        (1)
#define LIBXL__DEFBOOL_STR_DEFAULT "<default>"
#define LIBXL__DEFBOOL_STR_FALSE   "False"
#define LIBXL__DEFBOOL_STR_TRUE    "True"

void libxl_defbool_set(libxl_defbool *db, bool b)
{
    db->val = b ? LIBXL__DEFBOOL_TRUE : LIBXL__DEFBOOL_FALSE;
}

void libxl_defbool_unset(libxl_defbool *db)
{
    db->val = LIBXL__DEFBOOL_DEFAULT;
}

void libxl_defbool_setdefault(libxl_defbool *db, bool b)
{
    if (libxl_defbool_is_default(*db))
        libxl_defbool_set(db, b);
}

bool libxl_defbool_is_default(libxl_defbool db)
{
    return !db.val;
}

bool libxl_defbool_val(libxl_defbool db)
{
    assert(!libxl_defbool_is_default(db));
    return db.val > 0;
}

const char *libxl_defbool_to_string(libxl_defbool b)
{
    if (b.val < 0)
        return LIBXL__DEFBOOL_STR_FALSE;
    if (b.val > 0)
        return LIBXL__DEFBOOL_STR_TRUE;
    return LIBXL__DEFBOOL_STR_DEFAULT;
}

/* ---- string and key-value lists ------------------------------------------ */

void libxl_string_list_dispose(libxl_string_list *psl)
{
    libxl_string_list sl = *psl;

    if (!sl)
        return;
    for (int i = 0; sl[i]; i++)
        free(sl[i]);
    free(sl);
    *psl = NULL;
}

int libxl_string_list_length(const libxl_string_list *psl)
{
    int i = 0;

    if (*psl)
        while ((*psl)[i])
            i++;
    return i;
}

static char *xstrdup_or_die(const char *s)
{
    char *r = strdup(s);

    if (!r) {
        fprintf(stderr, "libxl: out of memory\n");
        exit(255);                  /* as Xen's libxl on allocation failure */
    }
    return r;
}

static void *xcalloc_or_die(size_t n, size_t sz)
{
    void *r = calloc(n ? n : 1, sz);

    if (!r) {
        fprintf(stderr, "libxl: out of memory\n");
        exit(255);
    }
    return r;
}

void libxl_string_list_copy(libxl_ctx *ctx, libxl_string_list *dst,
                            const libxl_string_list *src)
{
    int n = libxl_string_list_length(src);

    (void)ctx;
    if (!*src) {
        *dst = NULL;
        return;
    }
    *dst = xcalloc_or_die(n + 1, sizeof(char *));
    for (int i = 0; i < n; i++)
        (*dst)[i] = xstrdup_or_die((*src)[i]);
}

void libxl_key_value_list_dispose(libxl_key_value_list *pkvl)
{
    libxl_key_value_list kvl = *pkvl;

    if (!kvl)
        return;
    for (int i = 0; kvl[i]; i += 2) {
        free(kvl[i]);
        free(kvl[i + 1]);
    }
    free(kvl);
    *pkvl = NULL;
}

int libxl_key_value_list_length(const libxl_key_value_list *pkvl)
{
    int i = 0;

    if (*pkvl)
        while ((*pkvl)[2 * i])
            i++;
    return i;
}

void libxl_key_value_list_copy(libxl_ctx *ctx, libxl_key_value_list *dst,
                               const libxl_key_value_list *src)
{
    int n = libxl_key_value_list_length(src);

    (void)ctx;
    if (!*src) {
        *dst = NULL;
        return;
    }
    *dst = xcalloc_or_die(2 * n + 1, sizeof(char *));
    for (int i = 0; i < 2 * n; i++)
        (*dst)[i] = (*src)[i] ? xstrdup_or_die((*src)[i]) : NULL;
}

void libxl_hwcap_copy(libxl_ctx *ctx, libxl_hwcap *dst, const libxl_hwcap *src)
{
    (void)ctx;
    memcpy(*dst, *src, sizeof(*dst));
}

void libxl_string_copy(libxl_ctx *ctx, char **dst, char * const *src)
{
    (void)ctx;
    *dst = *src ? xstrdup_or_die(*src) : NULL;
}

/* ---- bitmaps --------------------------------------------------------------- */

void *libxl__copy_calloc(int n, size_t sz)
{
    return n > 0 ? xcalloc_or_die(n, sz) : NULL;
}

void libxl_mac_copy(libxl_ctx *ctx, libxl_mac *dst, const libxl_mac *src)
{
    (void)ctx;
    memcpy(*dst, *src, sizeof(*dst));
}

bool libxl_ms_vm_genid_is_zero(const libxl_ms_vm_genid *id)
{
    for (unsigned int i = 0; i < LIBXL_MS_VM_GENID_LEN; i++)
        if (id->bytes[i])
            return false;
    return true;
}

void libxl_ms_vm_genid_copy(libxl_ctx *ctx, libxl_ms_vm_genid *dst,
                            const libxl_ms_vm_genid *src)
{
    (void)ctx;
    *dst = *src;
}

/*
 * CPUID policies: this libxl has no way to make one (no cpuid= and no
 * libxl_cpuid_parse_config), so every list is NULL, the empty list; these
 * keep Xen's contract for it.
 */
void libxl_cpuid_dispose(libxl_cpuid_policy_list *cpuid_list)
{
    *cpuid_list = NULL;
}

int libxl_cpuid_policy_list_length(const libxl_cpuid_policy_list *l)
{
    return *l ? 1 : 0;
}

void libxl_cpuid_policy_list_copy(libxl_ctx *ctx,
                                  libxl_cpuid_policy_list *dst,
                                  const libxl_cpuid_policy_list *src)
{
    (void)ctx;
    (void)src;
    *dst = NULL;
}

void libxl_bitmap_init(libxl_bitmap *map)
{
    memset(map, 0, sizeof(*map));
}

void libxl_bitmap_dispose(libxl_bitmap *map)
{
    if (!map)
        return;
    free(map->map);
    map->map = NULL;
    map->size = 0;
}

int libxl_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *bitmap, int n_bits)
{
    (void)ctx;
    if (n_bits < 0)
        return ERROR_INVAL;
    bitmap->size = (n_bits + 7) / 8;
    bitmap->map = xcalloc_or_die(bitmap->size, 1);
    return 0;
}

int libxl_cpu_bitmap_alloc(libxl_ctx *ctx, libxl_bitmap *cpumap, int max_cpus)
{
    if (max_cpus <= 0) {
        max_cpus = ctx ? libxl_get_max_cpus(ctx) : 0;
        if (max_cpus <= 0)
            return ERROR_FAIL;
    }
    return libxl_bitmap_alloc(ctx, cpumap, max_cpus);
}

void libxl_bitmap_copy_alloc(libxl_ctx *ctx, libxl_bitmap *dptr,
                             const libxl_bitmap *sptr)
{
    (void)ctx;
    dptr->size = sptr->size;
    dptr->map = xcalloc_or_die(sptr->size, 1);
    if (sptr->size)
        memcpy(dptr->map, sptr->map, sptr->size);
}

void libxl_bitmap_copy(libxl_ctx *ctx, libxl_bitmap *dptr,
                       const libxl_bitmap *sptr)
{
    uint32_t sz = dptr->size < sptr->size ? dptr->size : sptr->size;

    (void)ctx;
    if (sz)
        memcpy(dptr->map, sptr->map, sz);
}

int libxl_bitmap_is_full(const libxl_bitmap *bitmap)
{
    for (uint32_t i = 0; i < bitmap->size; i++)
        if (bitmap->map[i] != 0xff)
            return 0;
    return 1;
}

int libxl_bitmap_is_empty(const libxl_bitmap *bitmap)
{
    for (uint32_t i = 0; i < bitmap->size; i++)
        if (bitmap->map[i])
            return 0;
    return 1;
}

int libxl_bitmap_test(const libxl_bitmap *bitmap, int bit)
{
    if (bit < 0 || bit >= (int)(bitmap->size * 8))
        return 0;
    return (bitmap->map[bit / 8] >> (bit & 7)) & 1;
}

void libxl_bitmap_set(libxl_bitmap *bitmap, int bit)
{
    if (bit < 0 || bit >= (int)(bitmap->size * 8))
        return;
    bitmap->map[bit / 8] |= 1 << (bit & 7);
}

void libxl_bitmap_reset(libxl_bitmap *bitmap, int bit)
{
    if (bit < 0 || bit >= (int)(bitmap->size * 8))
        return;
    bitmap->map[bit / 8] &= ~(1 << (bit & 7));
}

int libxl_bitmap_count_set(const libxl_bitmap *bitmap)
{
    int n = 0;

    for (uint32_t i = 0; i < bitmap->size; i++)
        n += __builtin_popcount(bitmap->map[i]);
    return n;
}

/* ---- files and names -------------------------------------------------------- */

char *libxl_basename(const char *name)
{
    const char *slash = strrchr(name, '/');

    return strdup(slash ? slash + 1 : name);
}

int libxl_read_file_contents(libxl_ctx *ctx, const char *filename,
                             void **data_r, int *datalen_r)
{
    struct stat st;
    char *data = NULL;
    size_t len = 0;
    int fd, e;

    fd = open(filename, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
        if (ctx && e != ENOENT)
            LOGE(ERROR, "failed to open %s", filename);
        return e;
    }
    if (fstat(fd, &st) < 0)
        goto fail;
    if (!S_ISREG(st.st_mode) || st.st_size > (1 << 30)) {
        errno = EINVAL;
        goto fail;
    }
    data = malloc((size_t)st.st_size + 1);
    if (!data)
        goto fail;
    while (len < (size_t)st.st_size) {
        ssize_t r = read(fd, data + len, (size_t)st.st_size - len);

        if (r < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        if (r == 0)
            break;                  /* the file shrank */
        len += (size_t)r;
    }
    close(fd);
    data[len] = 0;
    *data_r = data;
    if (datalen_r)
        *datalen_r = (int)len;
    return 0;

 fail:
    e = errno;
    if (ctx)
        LOGE(ERROR, "failed to read %s", filename);
    free(data);
    close(fd);
    return e;
}

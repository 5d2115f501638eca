/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: kernels and modules read from files (the Linux build only;
 * test kernels have no files and use xc_dom_kernel_mem/_module_mem).  The
 * file is read whole into memory the builder owns; Xen maps it instead.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xg_private.h"

/* The file's contents in builder memory; size in *size.  NULL on failure. */
static void *read_file(struct xc_dom_image *dom, const char *filename,
                       size_t max, size_t *size)
{
    xc_interface *xch = dom->xch;
    struct stat st;
    uint8_t *buf = NULL;
    size_t done = 0;
    int fd;

    fd = open(filename, O_RDONLY | O_CLOEXEC);
    if ( fd < 0 )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, errno, "cannot open %s: %s",
                     filename, strerror(errno));
        return NULL;
    }
    if ( fstat(fd, &st) < 0 )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, errno, "cannot stat %s: %s",
                     filename, strerror(errno));
        goto out;
    }
    if ( !S_ISREG(st.st_mode) )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, EINVAL,
                     "%s is not a regular file", filename);
        goto out;
    }
    if ( max && (uint64_t)st.st_size > max )
    {
        xc_dom_panic(xch, XC_INVALID_PARAM, E2BIG,
                     "%s is too large (%lld bytes, at most %zu)", filename,
                     (long long)st.st_size, max);
        goto out;
    }
    buf = xc_dom_malloc(dom, st.st_size ? st.st_size : 1);
    if ( !buf )
    {
        xc_dom_panic(xch, XC_OUT_OF_MEMORY, ENOMEM,
                     "no memory for %s (%lld bytes)", filename,
                     (long long)st.st_size);
        goto out;
    }
    while ( done < (size_t)st.st_size )
    {
        ssize_t n = read(fd, buf + done, st.st_size - done);

        if ( n <= 0 )
        {
            xc_dom_panic(xch, XC_INVALID_PARAM, n < 0 ? errno : EIO,
                         "cannot read %s: %s", filename,
                         n < 0 ? strerror(errno) : "file shrank");
            buf = NULL;         /* freed with the builder */
            goto out;
        }
        done += n;
    }
    *size = done;

 out:
    close(fd);
    return buf;
}

int xc_dom_kernel_file(struct xc_dom_image *dom, const char *filename)
{
    size_t size;
    void *blob = read_file(dom, filename, dom->max_kernel_size, &size);

    if ( !blob )
        return -1;
    DOMPRINTF("%s: %zu bytes", filename, size);
    return xc_dom_kernel_mem(dom, blob, size);
}

int xc_dom_module_file(struct xc_dom_image *dom, const char *filename,
                       const char *cmdline)
{
    size_t size;
    void *blob = read_file(dom, filename, dom->max_module_size, &size);

    if ( !blob )
        return -1;
    DOMPRINTF("%s: %zu bytes", filename, size);
    return xc_dom_module_mem(dom, blob, size, cmdline);
}

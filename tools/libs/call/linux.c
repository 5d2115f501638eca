/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxencall's Linux backend, for a Linux control domain.
 *
 * Hypercalls: IOCTL_PRIVCMD_HYPERCALL on /dev/xen/privcmd (or the older
 * /proc/xen/privcmd); the kernel runs the hypercall with our user-space
 * pointers as arguments.  Those must not fault while the hypervisor uses
 * them, so buffers come from mmap() of /dev/xen/hypercall when the kernel
 * provides it (kernel pages, never swapped or moved), else from locked
 * anonymous memory kept out of fork()ed children.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "private.h"
#include <xen/sys/privcmd.h>

int osdep_xencall_open(xencall_handle *xcall)
{
    int fd, saved_errno;

    fd = open("/dev/xen/privcmd", O_RDWR | O_CLOEXEC);
    if ( fd < 0 && (errno == ENOENT || errno == ENXIO || errno == ENODEV) )
        fd = open("/proc/xen/privcmd", O_RDWR | O_CLOEXEC);
    if ( fd < 0 )
    {
        PERROR("Could not obtain handle on privileged command interface "
               "(/dev/xen/privcmd)");
        return -1;
    }
    xcall->fd = fd;

    /* Optional: older kernels have no hypercall buffer device. */
    fd = open("/dev/xen/hypercall", O_RDWR | O_CLOEXEC);
    if ( fd < 0 && errno != ENOENT )
    {
        PERROR("Error on trying to open hypercall buffer device "
               "(/dev/xen/hypercall)");
        saved_errno = errno;
        close(xcall->fd);
        xcall->fd = -1;
        errno = saved_errno;
        return -1;
    }
    xcall->buf_fd = fd;

    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    if ( xcall->buf_fd >= 0 )
        close(xcall->buf_fd);
    if ( xcall->fd >= 0 )
        close(xcall->fd);
    return 0;
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    privcmd_hypercall_t hc = { .op = call->op };
    unsigned int i;

    for ( i = 0; i < 5; i++ )
        hc.arg[i] = call->arg[i];

    /*
     * The raw system call, not ioctl(3): its result is a long, so results
     * that do not fit an int (xencall2L) survive.
     */
    return syscall(SYS_ioctl, xcall->fd, IOCTL_PRIVCMD_HYPERCALL, &hc);
}

static void *alloc_pages_bufdev(xencall_handle *xcall, size_t nr_pages)
{
    void *p = mmap(NULL, nr_pages * XENCALL_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_SHARED, xcall->buf_fd, 0);

    return p == MAP_FAILED ? NULL : p;
}

static void *alloc_pages_locked(size_t nr_pages)
{
    size_t size = nr_pages * XENCALL_PAGE_SIZE, i;
    void *p;
    int saved_errno;

    p = mmap(NULL, size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
    if ( p == MAP_FAILED )
        return NULL;

    /* A child must not share (and copy-on-write) the pages. */
    if ( madvise(p, size, MADV_DONTFORK) < 0 )
    {
        saved_errno = errno;
        munmap(p, size);
        errno = saved_errno;
        return NULL;
    }

    /*
     * Write each page, so none is still copy-on-write from a fork() that
     * raced with the madvise() above.
     */
    for ( i = 0; i < nr_pages; i++ )
        ((volatile char *)p)[i * XENCALL_PAGE_SIZE] = 0;

    return p;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    if ( nr_pages > SIZE_MAX / XENCALL_PAGE_SIZE )
    {
        errno = ENOMEM;
        return NULL;
    }

    return xcall->buf_fd >= 0 ? alloc_pages_bufdev(xcall, nr_pages)
                              : alloc_pages_locked(nr_pages);
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    size_t size = nr_pages * XENCALL_PAGE_SIZE;
    int saved_errno = errno;

    if ( xcall->buf_fd < 0 )
        madvise(p, size, MADV_DOFORK);
    munmap(p, size);

    errno = saved_errno;
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    return xcall->buf_fd >= 0;
}

/* One lock for every handle's page cache: held only for a few loads. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
    pthread_mutex_lock(&cache_lock);
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
    pthread_mutex_unlock(&cache_lock);
}

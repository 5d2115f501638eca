/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenforeignmemory's Linux backend, for a Linux control domain, as
 * Xen's library does it: mmap() a fresh range of /dev/xen/privcmd (or the
 * older /proc/xen/privcmd), then IOCTL_PRIVCMD_MMAPBATCH_V2 asks the kernel
 * to back each page with a frame of the other domain (the kernel issues
 * XENMEM_add_to_physmap_range with XENMAPSPACE_gmfn_foreign).  Unmapping
 * is munmap(): the kernel removes the frames again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "private.h"
#include <xen/sys/privcmd.h>

/* A frame that is paged out is asked for again, this often at most. */
#define PAGED_RETRIES 100

int osdep_xenforeignmemory_open(xenforeignmemory_handle *fmem)
{
    int fd;

    fd = open("/dev/xen/privcmd", O_RDWR | O_CLOEXEC);
    if ( fd < 0 && (errno == ENOENT || errno == ENXIO || errno == ENODEV) )
        fd = open("/proc/xen/privcmd", O_RDWR | O_CLOEXEC);
    if ( fd < 0 )
    {
        PERROR("Could not obtain handle on privileged command interface "
               "(/dev/xen/privcmd)");
        return -1;
    }
    fmem->fd = fd;

    return 0;
}

int osdep_xenforeignmemory_close(xenforeignmemory_handle *fmem)
{
    if ( fmem->fd >= 0 )
        close(fmem->fd);
    fmem->fd = -1;
    return 0;
}

static int mmapbatch(int fd, uint32_t dom, void *addr, size_t num,
                     const xen_pfn_t arr[], int err[])
{
    privcmd_mmapbatch_v2_t batch = {
        .num = (unsigned int)num,
        .dom = (uint16_t)dom,
        .addr = (uintptr_t)addr,
        .arr = arr,
        .err = err,
    };

    return ioctl(fd, IOCTL_PRIVCMD_MMAPBATCH_V2, &batch);
}

/* Ask again, page by page, for the frames the kernel found paged out. */
static int retry_paged(int fd, uint32_t dom, char *addr, size_t num,
                       const xen_pfn_t arr[], int err[])
{
    const struct timespec pause = { .tv_nsec = 1000 * 1000 };
    unsigned int tries;
    size_t i;

    for ( tries = 0; tries < PAGED_RETRIES; tries++ )
    {
        bool again = false;

        for ( i = 0; i < num; i++ )
        {
            if ( err[i] != -ENOENT )
                continue;
            if ( mmapbatch(fd, dom, addr + i * XENFOREIGNMEMORY_PAGE_SIZE, 1,
                           &arr[i], &err[i]) < 0 && errno != ENOENT )
                return -1;
            if ( err[i] == -ENOENT )
                again = true;
        }
        if ( !again )
            return 0;
        nanosleep(&pause, NULL);
    }

    return 0;                   /* still paged out: err[] says so */
}

void *osdep_xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom,
                                 int prot, size_t num,
                                 const xen_pfn_t arr[], int err[])
{
    size_t size;
    void *addr;
    int saved_errno;

    if ( num > UINT_MAX || num > SIZE_MAX >> XENFOREIGNMEMORY_PAGE_SHIFT )
    {
        errno = E2BIG;
        return NULL;
    }
    size = num << XENFOREIGNMEMORY_PAGE_SHIFT;

    addr = mmap(NULL, size, prot, MAP_SHARED, fmem->fd, 0);
    if ( addr == MAP_FAILED )
    {
        PERROR("mmap of %zu pages from privcmd failed", num);
        return NULL;
    }

    if ( mmapbatch(fmem->fd, dom, addr, num, arr, err) < 0 &&
         (errno != ENOENT || retry_paged(fmem->fd, dom, addr, num, arr, err)) )
    {
        saved_errno = errno;
        PERROR("IOCTL_PRIVCMD_MMAPBATCH_V2 of %zu frames of d%u failed",
               num, dom);
        munmap(addr, size);
        errno = saved_errno;
        return NULL;
    }

    return addr;
}

int osdep_xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr,
                                 size_t num)
{
    (void)fmem;
    return munmap(addr, num << XENFOREIGNMEMORY_PAGE_SHIFT);
}

/*
 * A resource, as Xen's library maps one: mmap() a range of privcmd, then
 * IOCTL_PRIVCMD_MMAP_RESOURCE (the kernel issues XENMEM_acquire_resource
 * with the range's frames).  A kernel without the ioctl (ENOTTY) cannot:
 * EOPNOTSUPP, which callers take as the hypervisor's own "cannot".
 */
int osdep_xenforeignmemory_map_resource(xenforeignmemory_handle *fmem,
                                        xenforeignmemory_resource_handle *fres)
{
    size_t size = fres->nr_frames << XENFOREIGNMEMORY_PAGE_SHIFT;
    privcmd_mmap_resource_t mr = {
        .dom = fres->domid,
        .type = fres->type,
        .id = fres->id,
        .idx = (uint32_t)fres->frame,
        .num = fres->nr_frames,
    };
    int saved_errno;
    void *addr;

    if ( fres->frame > UINT32_MAX ||
         fres->nr_frames > SIZE_MAX >> XENFOREIGNMEMORY_PAGE_SHIFT )
    {
        errno = EINVAL;
        return -1;
    }
    addr = mmap(fres->addr, size, fres->prot, fres->flags | MAP_SHARED,
                fmem->fd, 0);
    if ( addr == MAP_FAILED )
        return -1;
    mr.addr = (uintptr_t)addr;

    if ( ioctl(fmem->fd, IOCTL_PRIVCMD_MMAP_RESOURCE, &mr) < 0 )
    {
        saved_errno = errno == ENOTTY ? EOPNOTSUPP : errno;
        if ( saved_errno != EOPNOTSUPP )
            PERROR("IOCTL_PRIVCMD_MMAP_RESOURCE of d%u type %u id %u failed",
                   fres->domid, fres->type, fres->id);
        munmap(addr, size);
        errno = saved_errno;
        return -1;
    }
    fres->addr = addr;
    return 0;
}

int osdep_xenforeignmemory_unmap_resource(xenforeignmemory_handle *fmem,
                                          xenforeignmemory_resource_handle *fres)
{
    (void)fmem;
    return fres->addr ? munmap(fres->addr, fres->nr_frames << XENFOREIGNMEMORY_PAGE_SHIFT)
                      : 0;
}

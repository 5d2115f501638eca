/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IOCTL_PRIVCMD_MMAPBATCH_V2 as Debian's libxen-dev states it
 * (/usr/include/xen/sys/privcmd.h), for comparison with
 * tools/include/xen-sys/Linux/privcmd.h.  Compiled with the system's
 * include path only (HAVE_DEBIAN_PRIVCMD when the header is installed):
 * <xen/...> here is Debian's, not this tree's.
 */
#include <stddef.h>

int debian_mmapbatch_v2(unsigned long *ioctl_nr, size_t *size, size_t *off_addr,
                        size_t *off_arr, size_t *off_err);

#ifdef HAVE_DEBIAN_PRIVCMD
#include <stdint.h>
#include <sys/ioctl.h>
#include <xen/xen.h>
#include <xen/sys/privcmd.h>

int debian_mmapbatch_v2(unsigned long *ioctl_nr, size_t *size, size_t *off_addr,
                        size_t *off_arr, size_t *off_err)
{
    *ioctl_nr = IOCTL_PRIVCMD_MMAPBATCH_V2;
    *size = sizeof(privcmd_mmapbatch_v2_t);
    *off_addr = offsetof(privcmd_mmapbatch_v2_t, addr);
    *off_arr = offsetof(privcmd_mmapbatch_v2_t, arr);
    *off_err = offsetof(privcmd_mmapbatch_v2_t, err);
    return 1;
}
#else
int debian_mmapbatch_v2(unsigned long *ioctl_nr, size_t *size, size_t *off_addr,
                        size_t *off_arr, size_t *off_err)
{
    (void)ioctl_nr; (void)size; (void)off_addr; (void)off_arr; (void)off_err;
    return 0;
}
#endif

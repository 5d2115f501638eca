/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Linux privcmd facts as Debian's libxen-dev states them
 * (/usr/include/xen/sys/privcmd.h), for comparison with
 * tools/include/xen-sys/Linux/privcmd.h.  Built only when that header is
 * installed (HAVE_DEBIAN_PRIVCMD), and only with the system's include
 * path: <xen/...> here is Debian's, not this tree's.
 */
#include <stddef.h>

#ifdef HAVE_DEBIAN_PRIVCMD
#include <stdint.h>
#include <sys/ioctl.h>
#include <xen/xen.h>
#include <xen/sys/privcmd.h>

unsigned long debian_ioctl_privcmd_hypercall(size_t *size);

unsigned long debian_ioctl_privcmd_hypercall(size_t *size)
{
    *size = sizeof(privcmd_hypercall_t);
    return IOCTL_PRIVCMD_HYPERCALL;
}
#endif

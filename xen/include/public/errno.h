/* SPDX-License-Identifier: MIT */
/*
 * Error numbers returned (negated) by hypercalls.  They are the Linux
 * x86 values, but the ABI is this list, not the host's errno.h.
 *
 * Two ways to use this file:
 *  - include it plainly: you get enum xen_errno { XEN_EPERM = 1, ... };
 *  - define XEN_ERRNO(name, value) first: the list is expanded through
 *    your macro instead (the hypervisor builds its own E* constants this
 *    way), and XEN_ERRNO is undefined again afterwards.  This form may be
 *    included any number of times.
 */

#ifndef XEN_ERRNO
# ifndef __LOCAL_PUBLIC_ERRNO_H__
#  define __LOCAL_PUBLIC_ERRNO_H__
#  define __LOCAL_XEN_ERRNO_ENUM
#  ifndef __ASSEMBLY__
#   define XEN_ERRNO(name, value) XEN_##name = value,
enum xen_errno {
#  endif
# endif
#endif

#ifdef XEN_ERRNO
XEN_ERRNO(EPERM,          1)
XEN_ERRNO(ENOENT,         2)
XEN_ERRNO(ESRCH,          3)
#ifdef __XEN__ /* never returned to guests */
XEN_ERRNO(EINTR,          4)
#endif
XEN_ERRNO(EIO,            5)
XEN_ERRNO(ENXIO,          6)
XEN_ERRNO(E2BIG,          7)
XEN_ERRNO(ENOEXEC,        8)
XEN_ERRNO(EBADF,          9)
XEN_ERRNO(ECHILD,        10)
XEN_ERRNO(EAGAIN,        11)
XEN_ERRNO(EWOULDBLOCK,   11)   /* same as EAGAIN */
XEN_ERRNO(ENOMEM,        12)
XEN_ERRNO(EACCES,        13)
XEN_ERRNO(EFAULT,        14)
XEN_ERRNO(EBUSY,         16)
XEN_ERRNO(EEXIST,        17)
XEN_ERRNO(EXDEV,         18)
XEN_ERRNO(ENODEV,        19)
XEN_ERRNO(ENOTDIR,       20)
XEN_ERRNO(EISDIR,        21)
XEN_ERRNO(EINVAL,        22)
XEN_ERRNO(ENFILE,        23)
XEN_ERRNO(EMFILE,        24)
XEN_ERRNO(ENOSPC,        28)
XEN_ERRNO(EROFS,         30)
XEN_ERRNO(EMLINK,        31)
XEN_ERRNO(EDOM,          33)
XEN_ERRNO(ERANGE,        34)
XEN_ERRNO(EDEADLK,       35)
XEN_ERRNO(EDEADLOCK,     35)   /* same as EDEADLK */
XEN_ERRNO(ENAMETOOLONG,  36)
XEN_ERRNO(ENOLCK,        37)
XEN_ERRNO(ENOSYS,        38)
XEN_ERRNO(ENOTEMPTY,     39)
XEN_ERRNO(ENODATA,       61)
XEN_ERRNO(ETIME,         62)
XEN_ERRNO(EBADMSG,       74)
XEN_ERRNO(EOVERFLOW,     75)
XEN_ERRNO(EILSEQ,        84)
#ifdef __XEN__ /* never returned to guests */
XEN_ERRNO(ERESTART,      85)
#endif
XEN_ERRNO(ENOTSOCK,      88)
XEN_ERRNO(EMSGSIZE,      90)
XEN_ERRNO(EOPNOTSUPP,    95)
XEN_ERRNO(EADDRINUSE,    98)
XEN_ERRNO(EADDRNOTAVAIL, 99)
XEN_ERRNO(ENOBUFS,      105)
XEN_ERRNO(EISCONN,      106)
XEN_ERRNO(ENOTCONN,     107)
XEN_ERRNO(ETIMEDOUT,    110)
XEN_ERRNO(ECONNREFUSED, 111)
#undef XEN_ERRNO
#endif /* XEN_ERRNO */

#ifdef __LOCAL_XEN_ERRNO_ENUM
# undef __LOCAL_XEN_ERRNO_ENUM
# ifndef __ASSEMBLY__
};
# endif
#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error numbers, as Linux and Xen number them (the hypercall ABI returns
 * them negated).  Each is guarded so that a host program that also sees the
 * C library's <errno.h> (same values on Linux) does not get redefinitions.
 */
#ifndef __XEN_ERRNO_H__
#define __XEN_ERRNO_H__

#ifndef EPERM
#define EPERM            1  /* Operation not permitted */
#endif
#ifndef ENOENT
#define ENOENT           2  /* No such file or directory */
#endif
#ifndef ESRCH
#define ESRCH            3  /* No such process */
#endif
#ifndef EINTR
#define EINTR            4  /* Interrupted system call */
#endif
#ifndef EIO
#define EIO              5  /* I/O error */
#endif
#ifndef ENXIO
#define ENXIO            6  /* No such device or address */
#endif
#ifndef E2BIG
#define E2BIG            7  /* Arg list too long */
#endif
#ifndef ENOEXEC
#define ENOEXEC          8  /* Exec format error */
#endif
#ifndef EBADF
#define EBADF            9  /* Bad file number */
#endif
#ifndef ECHILD
#define ECHILD          10  /* No child processes */
#endif
#ifndef EAGAIN
#define EAGAIN          11  /* Try again */
#endif
#ifndef ENOMEM
#define ENOMEM          12  /* Out of memory */
#endif
#ifndef EACCES
#define EACCES          13  /* Permission denied */
#endif
#ifndef EFAULT
#define EFAULT          14  /* Bad address */
#endif
#ifndef EBUSY
#define EBUSY           16  /* Device or resource busy */
#endif
#ifndef EEXIST
#define EEXIST          17  /* File exists */
#endif
#ifndef EXDEV
#define EXDEV           18  /* Cross-device link */
#endif
#ifndef ENODEV
#define ENODEV          19  /* No such device */
#endif
#ifndef EISDIR
#define EISDIR          21  /* Is a directory */
#endif
#ifndef EINVAL
#define EINVAL          22  /* Invalid argument */
#endif
#ifndef ENFILE
#define ENFILE          23  /* File table overflow */
#endif
#ifndef EMFILE
#define EMFILE          24  /* Too many open files */
#endif
#ifndef ENOSPC
#define ENOSPC          28  /* No space left on device */
#endif
#ifndef ESPIPE
#define ESPIPE          29  /* Illegal seek */
#endif
#ifndef EROFS
#define EROFS           30  /* Read-only file system */
#endif
#ifndef EMLINK
#define EMLINK          31  /* Too many links */
#endif
#ifndef EPIPE
#define EPIPE           32  /* Broken pipe */
#endif
#ifndef EDOM
#define EDOM            33  /* Math argument out of domain of func */
#endif
#ifndef ERANGE
#define ERANGE          34  /* Math result not representable */
#endif
#ifndef EDEADLK
#define EDEADLK         35  /* Resource deadlock would occur */
#endif
#ifndef ENAMETOOLONG
#define ENAMETOOLONG    36  /* File name too long */
#endif
#ifndef ENOLCK
#define ENOLCK          37  /* No record locks available */
#endif
#ifndef ENOSYS
#define ENOSYS          38  /* Function not implemented */
#endif
#ifndef ENOTEMPTY
#define ENOTEMPTY       39  /* Directory not empty */
#endif
#ifndef ELOOP
#define ELOOP           40  /* Too many symbolic links encountered */
#endif
#ifndef ENODATA
#define ENODATA         61  /* No data available */
#endif
#ifndef ETIME
#define ETIME           62  /* Timer expired */
#endif
#ifndef ENOLINK
#define ENOLINK         67  /* Link has been severed */
#endif
#ifndef EPROTO
#define EPROTO          71  /* Protocol error */
#endif
#ifndef EBADMSG
#define EBADMSG         74  /* Not a data message */
#endif
#ifndef EOVERFLOW
#define EOVERFLOW       75  /* Value too large for defined data type */
#endif
#ifndef EILSEQ
#define EILSEQ          84  /* Illegal byte sequence */
#endif
#ifndef ERESTART
#define ERESTART        85  /* Interrupted system call should be restarted */
#endif
#ifndef EUSERS
#define EUSERS          87  /* Too many users */
#endif
#ifndef EMSGSIZE
#define EMSGSIZE        90  /* Message too long */
#endif
#ifndef ENOTSOCK
#define ENOTSOCK        88  /* Socket operation on non-socket */
#endif
#ifndef EOPNOTSUPP
#define EOPNOTSUPP      95  /* Operation not supported */
#endif
#ifndef EADDRINUSE
#define EADDRINUSE      98  /* Address already in use */
#endif
#ifndef ENOBUFS
#define ENOBUFS        105  /* No buffer space available */
#endif
#ifndef EISCONN
#define EISCONN        106  /* Transport endpoint is already connected */
#endif
#ifndef ENOTCONN
#define ENOTCONN       107  /* Transport endpoint is not connected */
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT      110  /* Connection timed out */
#endif
#ifndef ECONNREFUSED
#define ECONNREFUSED   111  /* Connection refused */
#endif
#ifndef EALREADY
#define EALREADY       114  /* Operation already in progress */
#endif
#ifndef EINPROGRESS
#define EINPROGRESS    115  /* Operation now in progress */
#endif

#endif /* __XEN_ERRNO_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* <unistd.h> for the guest test kernels: the little the libraries ask. */
#ifndef GUEST_LIBC_UNISTD_H
#define GUEST_LIBC_UNISTD_H

#include <sys/types.h>

/* There are no processes: always 0. */
pid_t getpid(void);

/* No file descriptor is a terminal: always 0. */
int isatty(int fd);

#endif /* GUEST_LIBC_UNISTD_H */

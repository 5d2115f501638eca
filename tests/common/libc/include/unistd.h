/* SPDX-License-Identifier: GPL-2.0-only */
/* <unistd.h> for the guest test kernels: the little the libraries ask. */
#ifndef GUEST_LIBC_UNISTD_H
#define GUEST_LIBC_UNISTD_H

#include <sys/types.h>

/* There are no processes: always 0. */
pid_t getpid(void);

/* No file descriptor is a terminal: always 0. */
int isatty(int fd);

/*
 * File descriptors are memory buffers (io.c): mem_fd() makes one over
 * buf[0, cap), holding len octets to read; writes append up to cap
 * (ENOSPC beyond).  read() and write() work on them, close() frees the
 * descriptor (not the buffer).  mem_fd_length() is the octets held;
 * mem_fd_fail_after() makes writes fail with EPIPE once 'n' octets have
 * been written (a receiver that went away).
 */
ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
int close(int fd);
int mem_fd(void *buf, size_t cap, size_t len);
size_t mem_fd_length(int fd);
int mem_fd_fail_after(int fd, size_t n);

#endif /* GUEST_LIBC_UNISTD_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <sys/mman.h> for the guest test kernels: only the protection bits
 * (Linux's values) that xenforeignmemory_map() takes; there is no mmap().
 */
#ifndef GUEST_LIBC_SYS_MMAN_H
#define GUEST_LIBC_SYS_MMAN_H

#define PROT_NONE   0x0
#define PROT_READ   0x1
#define PROT_WRITE  0x2
#define PROT_EXEC   0x4

#endif /* GUEST_LIBC_SYS_MMAN_H */

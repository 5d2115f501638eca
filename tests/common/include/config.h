/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Layout constants of the guest test kernels, shared by head.S, the linker
 * script and the C library.
 */
#ifndef GUEST_CONFIG_H
#define GUEST_CONFIG_H

/* Guest-physical (and, identity-mapped, virtual) load address. */
#define GUEST_LOAD_ADDR     0x100000

/* vCPUs a test kernel can run on; each has its own stack. */
#define GUEST_MAX_VCPUS     8
#define GUEST_STACK_SIZE    0x4000

/* The identity map built at entry covers [0, 4 GiB) with 2 MiB pages. */
#define GUEST_IDENT_L2_PAGES 4

#endif /* GUEST_CONFIG_H */

# SPDX-License-Identifier: GPL-2.0-only
# Toolchain settings for the x86-64 hypervisor (as Xen's config/x86_64.mk).

XEN_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
              -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
              -fno-asynchronous-unwind-tables -fno-common -fno-strict-aliasing \
              -mno-red-zone -mno-sse -mno-mmx -mno-sse2 -mno-avx -msoft-float \
              -mcmodel=small -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
              -D__XEN__
XEN_AFLAGS := -D__ASSEMBLY__ -D__XEN__ -nostdinc
XEN_LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments

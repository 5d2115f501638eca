# SPDX-License-Identifier: GPL-2.0-only
# Global build settings shared by the hypervisor, the tools and the tests.

XEN_ROOT ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

CC      ?= gcc
LD      ?= ld
OBJCOPY ?= objcopy

HOSTCC     ?= gcc
HOSTCFLAGS ?= -O2 -g -Wall -Wextra -Werror -std=gnu11

# Where build products that are not part of the source tree go.
BUILD_DIR ?= $(XEN_ROOT)/build

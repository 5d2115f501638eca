/* SPDX-License-Identifier: MIT */
/*
 * platform_op numbers newer than the Xen 4.17 ABI tests/abi checks
 * against: Xen 4.18 added XENPF_get_dom0_console, which Linux 6.1 calls
 * as a PVH dom0 (it has its own copy of the number).
 */

#ifndef __LOCAL_PUBLIC_EXT_PLATFORM_H__
#define __LOCAL_PUBLIC_EXT_PLATFORM_H__

#include "../platform.h"

/* The boot console dom0 should take over: a struct dom0_vga_console_info. */
#define XENPF_get_dom0_console 64

#endif /* __LOCAL_PUBLIC_EXT_PLATFORM_H__ */

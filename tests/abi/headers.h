/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The public headers under test.  ABI_SIDE_OURS picks this tree's copy
 * (-I xen/include), otherwise Debian's libxen-dev copy is used.  Both are
 * seen as the toolstack sees them (__XEN_TOOLS__, set by the Makefile).
 */
#ifndef TESTS_ABI_HEADERS_H
#define TESTS_ABI_HEADERS_H

#include <stdint.h>

#ifdef ABI_SIDE_OURS

#include "public/xen.h"
#include "public/version.h"
#include "public/features.h"
#include "public/sched.h"
#include "public/vcpu.h"
#include "public/event_channel.h"
#include "public/grant_table.h"
#include "public/memory.h"
#include "public/hvm/hvm_op.h"
#include "public/hvm/params.h"
#include "public/hvm/dm_op.h"
#include "public/hvm/hvm_vcpu.h"
#include "public/hvm/start_info.h"
#include "public/hvm/save.h"
#include "public/arch-x86/cpuid.h"
#include "public/elfnote.h"
#include "public/errno.h"
#include "public/domctl.h"
#include "public/sysctl.h"
#include "public/platform.h"
#include "public/io/console.h"

#ifndef LOCAL_XEN_PUBLIC_HEADERS
#error "tests/abi: expected this tree's public headers, got another copy"
#endif

#else /* Debian's */

#include <xen/xen.h>
#include <xen/version.h>
#include <xen/features.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/memory.h>
#include <xen/hvm/hvm_op.h>
#include <xen/hvm/params.h>
#include <xen/hvm/dm_op.h>
#include <xen/hvm/hvm_vcpu.h>
#include <xen/arch-x86/hvm/start_info.h>
#include <xen/hvm/save.h>
#include <xen/arch-x86/cpuid.h>
#include <xen/elfnote.h>
#include <xen/errno.h>
#include <xen/domctl.h>
#include <xen/sysctl.h>
#include <xen/platform.h>
#include <xen/io/console.h>

#ifdef LOCAL_XEN_PUBLIC_HEADERS
#error "tests/abi: expected Debian's headers, got this tree's"
#endif

#endif

#endif /* TESTS_ABI_HEADERS_H */

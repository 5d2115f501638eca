/* SPDX-License-Identifier: MIT */
/* Xen 4.17 keeps hvm_start_info under arch-x86/hvm/; ours is in hvm/. */
#include "../../hvm/start_info.h"

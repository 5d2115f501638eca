/* SPDX-License-Identifier: GPL-2.0-only */
/* Turning the machine off. */
#ifndef __ASM_X86_SHUTDOWN_H__
#define __ASM_X86_SHUTDOWN_H__

#include <xen/compiler.h>

noreturn void machine_power_off(void);
/* Reset the machine: port 0xCF9, then the keyboard controller, then a triple fault. */
noreturn void machine_restart(void);

#endif /* __ASM_X86_SHUTDOWN_H__ */

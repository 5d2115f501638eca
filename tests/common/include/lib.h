/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest library's basics.  Formatting, string and number parsing
 * functions are the hypervisor's own freestanding xen/common/vsprintf.c,
 * string.c and lib.c, linked into every test kernel, so their declarations
 * come from xen/lib.h and xen/string.h.
 */
#ifndef GUEST_LIB_H
#define GUEST_LIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/compiler.h>
#include <xen/lib.h>
#include <xen/string.h>

/*
 * printk() (declared in xen/lib.h): format and write to the hypervisor
 * console: console_io, which shows a domU's text as "(dN) " lines; as the
 * hardware domain (dom0), whose console_io text is its raw terminal (Xen's
 * guest_console_write), the debug port 0xE9 instead, which the hypervisor
 * shows as "(d0) " lines as Xen's hvm_print_line does; the debug port
 * too before the hypercall page exists or when not under Xen.
 * Serialised between vCPUs.
 */

/* Write raw text to the console (console_io or port 0xE9, as above). */
void console_write(const char *buf, size_t len);

/* The hypercall page is up: choose console_io or the debug port (above). */
void console_init(void);

/* Print a message and end the test with ERROR (XTF's panic). */
noreturn void panic(const char *fmt, ...) __printf(1, 2);

/* The start of day, as the PVH loader gave it. */
struct hvm_start_info;
extern const struct hvm_start_info *start_info;   /* NULL if bad magic */
extern uint64_t start_info_pa;                    /* %ebx at entry */
extern const char *cmdline;                       /* never NULL */

/*
 * Guest command-line options, "key=value" or "key" words separated by
 * spaces.  cmdline_get_str copies the value (NUL-terminated, truncated to
 * size) and returns true if the key is present ("" for a bare key).
 */
bool cmdline_get_str(const char *key, char *buf, size_t size);
bool cmdline_get_ulong(const char *key, unsigned long *val);
/* The option's numeric value (as simple_strtoul base 0), or 'def'. */
unsigned long cmdline_ulong(const char *key, unsigned long def);

/* Under Xen (hypercalls work) or bare (QEMU's PVH loader, debug port). */
extern bool under_xen;

/* Power off: SCHEDOP_shutdown, or halt forever when not under Xen. */
noreturn void guest_poweroff(unsigned int reason);

#endif /* GUEST_LIB_H */

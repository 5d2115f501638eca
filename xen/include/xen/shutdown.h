/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's end: dom0's shutdown (Xen's hwdom_shutdown) and the last domain's. */
#ifndef __XEN_SHUTDOWN_H__
#define __XEN_SHUTDOWN_H__

#include <asm/shutdown.h>

struct domain;

/* d, the hardware domain, shut down for 'reason' (SHUTDOWN_*): the host follows. */
void hwdom_shutdown(const struct domain *d, unsigned int reason);

/* The last domain is gone: power off, or reboot if dom0 asked for it. */
noreturn void host_end_no_domains(void);

#endif /* __XEN_SHUTDOWN_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor console: serial output, log levels and the console ring. */
#ifndef __XEN_CONSOLE_H__
#define __XEN_CONSOLE_H__

#include <xen/types.h>

struct domain;

void ns16550_init(void);
void ns16550_putc(char c);
void ns16550_flush(void);
void ns16550_init_postirq(void);
void ns16550_start_poll(void);
/* Print the UART's receive statistics (the 'r' debug key). */
void ns16550_dump_rx(void);
/*
 * The TSC by which the receive FIFO must be served, if someone takes
 * serial input (~0 otherwise): for a guest entered with interrupts off.
 */
uint64_t ns16550_rx_deadline(void);

/* A byte received on the serial line (from the UART driver). */
void serial_rx(char c);
/* n bytes received, oldest first: as serial_rx() each, one VIRQ_CONSOLE. */
void serial_rx_many(const char *buf, unsigned int n);
/* Whether serial input has a taker (the control domain bound VIRQ_CONSOLE). */
bool console_rx_wanted(void);
/* A debug key, as typed on the console after Ctrl-A x3 ('h' lists them). */
void handle_keypress(char c);

void console_init_preirq(void);
/* After timers work: take serial input (on the UART's interrupt, or polled). */
void console_init_postirq(void);
void console_flush(void);
/* panic(), the other CPUs stopped: take over the console's and UART's locks. */
void console_force_unlock(void);
void ns16550_force_unlock(void);

/*
 * Text a guest wrote with console_io: the hardware domain's as it is,
 * others' as "(dN) " lines.
 */
void guest_console_write(struct domain *d, const char *buf, size_t len);
/* Text a guest wrote to the debug port 0xE9: "(dN) " lines for every domain. */
void guest_console_write_lines(struct domain *d, const char *buf, size_t len);
/* Print what is left of the domain's unfinished "(dN) " line. */
void guest_console_flush(struct domain *d);

/*
 * Copy up to 'len' bytes of the console ring, oldest first, starting at
 * ring offset *pos (updated); returns the number of bytes copied.
 * Used by the readconsole sysctl (`xl dmesg`).
 */
size_t console_ring_read(char *buf, size_t len, size_t *pos);
void console_ring_clear(void);

#endif /* __XEN_CONSOLE_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 16550 UART on COM1 (0x3f8), polled, 115200 8N1.
 *
 * Bochs's UART resets to 5-bit words, so the line control register is
 * programmed before the first byte; bytes still in the shifter are lost if
 * the machine powers off, so ns16550_flush() waits for the transmitter to
 * drain (LSR.TEMT).
 */
#include <xen/types.h>
#include <xen/console.h>
#include <asm/io.h>

#define COM1_BASE   0x3f8

#define UART_THR    0   /* transmit holding (DLAB=0) */
#define UART_DLL    0   /* divisor latch low (DLAB=1) */
#define UART_IER    1
#define UART_DLM    1
#define UART_FCR    2
#define UART_LCR    3
#define UART_MCR    4
#define UART_LSR    5

#define LCR_DLAB    0x80
#define LCR_8N1     0x03
#define FCR_ENABLE  0x01
#define FCR_CLEAR   0x06
#define MCR_DTR_RTS 0x03
#define LSR_THRE    0x20
#define LSR_TEMT    0x40

#define UART_CLOCK_HZ 1843200
#define BAUD          115200

static bool uart_ready;

void ns16550_init(void)
{
    unsigned int divisor = UART_CLOCK_HZ / (16 * BAUD);

    outb(0, COM1_BASE + UART_IER);
    outb(LCR_DLAB, COM1_BASE + UART_LCR);
    outb(divisor & 0xff, COM1_BASE + UART_DLL);
    outb(divisor >> 8, COM1_BASE + UART_DLM);
    outb(LCR_8N1, COM1_BASE + UART_LCR);
    outb(FCR_ENABLE | FCR_CLEAR, COM1_BASE + UART_FCR);
    outb(MCR_DTR_RTS, COM1_BASE + UART_MCR);
    uart_ready = true;
}

void ns16550_putc(char c)
{
    if ( !uart_ready )
        return;
    while ( !(inb(COM1_BASE + UART_LSR) & LSR_THRE) )
        ;
    outb(c, COM1_BASE + UART_THR);
}

void ns16550_flush(void)
{
    if ( !uart_ready )
        return;
    while ( !(inb(COM1_BASE + UART_LSR) & LSR_TEMT) )
        ;
}

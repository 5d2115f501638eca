/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 16550 UART on COM1 (0x3f8), polled, 115200 8N1.
 *
 * Input is polled too, as Xen's ns16550 does without an IRQ: a hypervisor
 * timer (ns16550_poll) drains the receive FIFO while LSR.DR is set and
 * hands each byte to the console (serial_rx()).  The 16-byte FIFO fills
 * in 1.4 ms at 115200 baud and Bochs drops what comes after, so while
 * input flows (for SERIAL_BUSY_MS after a byte) the timer runs every
 * millisecond, as Xen's does; otherwise every SERIAL_POLL_MS, to spare
 * the guests most of the timer interrupts (a burst of more than 16 bytes
 * at line rate into an idle line can overrun the FIFO then).  The
 * timer runs only while someone takes the input (console_rx_wanted()): an
 * idle hypervisor is not woken for nothing, and a machine whose vCPUs all
 * block with no input consumer is still seen as stuck.
 *
 * Bochs's UART resets to 5-bit words, so the line control register is
 * programmed before the first byte; bytes still in the shifter are lost if
 * the machine powers off, so ns16550_flush() waits for the transmitter to
 * drain (LSR.TEMT).
 */
#include <xen/types.h>
#include <xen/console.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <asm/io.h>

#define COM1_BASE   0x3f8

#define UART_RBR    0   /* receive buffer (DLAB=0, read) */
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
#define LSR_DR      0x01
#define LSR_THRE    0x20
#define LSR_TEMT    0x40

#define UART_CLOCK_HZ 1843200
#define BAUD          115200

/* How often the receive FIFO is drained: idle, and while input flows. */
#define SERIAL_POLL_MS      5
#define SERIAL_BUSY_POLL_MS 1
#define SERIAL_BUSY_MS      1000

static bool uart_ready;
static struct timer poll_timer;
static bool poll_timer_ready;
static s_time_t last_rx;                /* when the last byte came */

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

static void ns16550_poll(void *data)
{
    unsigned int n;

    /* A bounded drain: a stuck LSR.DR cannot hold the CPU. */
    s_time_t now;

    for ( n = 0; n < 64 && (inb(COM1_BASE + UART_LSR) & LSR_DR); n++ )
        serial_rx(inb(COM1_BASE + UART_RBR));
    now = NOW();
    if ( n )
        last_rx = now;
    if ( console_rx_wanted() )
        set_timer(&poll_timer, now + MILLISECS(now - last_rx < MILLISECS(SERIAL_BUSY_MS)
                                               ? SERIAL_BUSY_POLL_MS : SERIAL_POLL_MS));
}

void ns16550_init_postirq(void)
{
    if ( !uart_ready )
        return;
    init_timer(&poll_timer, ns16550_poll, NULL, 0);
    poll_timer_ready = true;
    ns16550_start_poll();
}

/* (Re)start polling, if it is not running and input is wanted. */
void ns16550_start_poll(void)
{
    if ( poll_timer_ready && poll_timer.status != TIMER_STATUS_in_list &&
         console_rx_wanted() )
        set_timer(&poll_timer, NOW() + MILLISECS(SERIAL_POLL_MS));
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 16550 UART the console uses: COM1 (0x3f8, ISA IRQ 4), 115200 8N1
 * unless com1= says otherwise (Xen's syntax, see
 * docs/misc/xen-command-line.md).  Output is polled.
 *
 * Input is taken on the UART's receive interrupt, as Xen does: IRQ 4 is
 * routed through the IO-APIC (io_apic.c) to LEGACY_VECTOR(4), IER enables
 * "received data available" and "receiver line status", and the handler
 * drains the receive FIFO (while LSR.DR); the bytes go on to the console
 * (serial_rx_many()), see below.  The FIFO interrupts at its first byte (trigger
 * level 1, not Xen's 14): under Bochs, where a byte takes 87 us of
 * emulated time (about 350 instructions at the default ips), 14 bytes of
 * warning would be too little for a CPU in an interrupts-off section.
 *
 * The handler only moves the FIFO's bytes to rx_stage and raises
 * SERIAL_RX_SOFTIRQ; the softirq hands them to serial_rx_many(), which sends
 * event channels and runs debug keys, in process context (ours: Xen calls
 * serial_rx() from the interrupt and makes what it calls interrupt-safe).
 * rx_lock (interrupt-safe, above the console lock: ns16550_putc() drains
 * the FIFO under it) covers the UART's receive registers and rx_stage,
 * whichever CPU reads them.
 *
 * Output waits for the transmitter with interrupts off, 87 us a byte: a
 * line of printk lasts longer than the FIFO holds input.  So while it
 * waits, ns16550_putc() moves received bytes into rx_stage (they are not
 * handed on there: serial_rx() may print); the next SERIAL_RX_SOFTIRQ, or
 * poll, passes them on.
 *
 * Without an interrupt (com1=...,0, no MADT or IO-APIC pin, or an
 * interrupt storm) input is polled, as Xen does without an IRQ: a
 * hypervisor timer drains the FIFO every SERIAL_POLL_MS, every
 * SERIAL_BUSY_POLL_MS while input flows, and only while someone takes the
 * input (console_rx_wanted()); a burst of more than 16 bytes at line rate
 * can then overrun the FIFO.
 *
 * Two places where the interrupt could come too late, and what is done:
 *  - Under Bochs, a guest entered with RFLAGS.IF clear does not exit for
 *    external interrupts until it sets IF again or its slice ends (Bochs
 *    re-evaluates interrupt masking only when IF changes; see
 *    docs/design.md): 30 ms in which 350 bytes would arrive.  While someone
 *    takes serial input, the VMX code ends such an entry after the time 12
 *    bytes take at the line's rate (ns16550_rx_deadline()).
 *  - A long hypercall runs with interrupts enabled (docs/design.md, "The
 *    interrupt convention"): the interrupt is taken in it, and the
 *    SERIAL_RX_SOFTIRQ it raises makes hypercall_preempt_check() say yes,
 *    so the bytes are handed on before the hypercall continues.
 *
 * Line status: LSR reading 0xff means there is no UART (nothing is read);
 * an overrun (OE: bytes lost in the UART) is counted and logged, at most
 * once a second with the count so far (`xl dmesg` shows it); a
 * byte received with a break (BI) is dropped, with a parity or framing
 * error (PE, FE) counted and passed on.
 *
 * Bochs's UART resets to 5-bit words, so the line control register is
 * programmed before the first byte; bytes still in the shifter are lost if
 * the machine powers off, so ns16550_flush() waits for the transmitter to
 * drain (LSR.TEMT).
 */
#include <xen/types.h>
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/string.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/softirq.h>
#include <xen/spinlock.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/io_apic.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <asm/time.h>

#define UART_RBR    0   /* receive buffer (DLAB=0, read) */
#define UART_THR    0   /* transmit holding (DLAB=0) */
#define UART_DLL    0   /* divisor latch low (DLAB=1) */
#define UART_IER    1
#define UART_DLM    1
#define UART_IIR    2   /* read */
#define UART_FCR    2   /* write */
#define UART_LCR    3
#define UART_MCR    4
#define UART_LSR    5

#define IER_ERDAI   0x01        /* received data available (and FIFO timeout) */
#define IER_ELSI    0x04        /* receiver line status */
#define IIR_NOINT   0x01
#define LCR_DLAB    0x80
#define FCR_ENABLE  0x01
#define FCR_CLEAR   0x06        /* both FIFOs; trigger level 1 */
#define MCR_DTR_RTS 0x03
#define MCR_OUT2    0x08        /* gates the IRQ line on PCs */
#define LSR_DR      0x01
#define LSR_OE      0x02
#define LSR_PE      0x04
#define LSR_FE      0x08
#define LSR_BI      0x10
#define LSR_THRE    0x20
#define LSR_TEMT    0x40

/* How often the receive FIFO is drained when polled: idle, and while input flows. */
#define SERIAL_POLL_MS      5
#define SERIAL_BUSY_POLL_MS 1
#define SERIAL_BUSY_MS      1000

/* An interrupt finding more than this still coming is a storm: poll instead. */
#define SERIAL_IRQ_BUDGET   256

/* com1=: Xen's defaults for COM1. */
static struct uart_config {
    unsigned int baud;          /* 0: "auto", leave the divisor as it is */
    unsigned int base_baud;
    uint8_t lcr;                /* data bits, parity, stop bits */
    uint16_t io_base;
    unsigned int irq;           /* ISA IRQ; 0: poll */
} cfg = { 115200, 115200, 0x03, 0x3f8, 4 };

static bool uart_ready;
static bool uart_irq_on;                /* the receive interrupt is in use */
static uint64_t rx_service_ticks;       /* TSC ticks 12 bytes take to arrive */
static struct timer poll_timer;
static bool poll_timer_ready;
static s_time_t last_rx;                /* when the last byte came */

/* Bytes taken from the FIFO, not yet handed on (see above). */
#define RX_STAGE_SIZE 256               /* power of two */
#define RX_DELIVER_BATCH 32             /* bytes handed on per rx_lock round-trip */
static char rx_stage[RX_STAGE_SIZE];
static unsigned int rx_stage_prod, rx_stage_cons;
static DEFINE_SPINLOCK_LEVEL(rx_lock, LOCK_LEVEL_UART_RX);
static unsigned long rx_overruns, rx_errors, rx_breaks, rx_stage_lost, rx_irqs;

/* ---- com1= ---------------------------------------------------------------- */

static int com1_error(const char *what, const char *s)
{
    printk(XENLOG_ERR "com1: %s in \"%s\"; the UART's settings are unchanged\n", what, s);
    return -EINVAL;
}

/*
 * com1=<baud>|auto[/<base-baud>][,[DPS][,[<io-base>][,[<irq>]]]]: Xen's
 * positional fields; its pci, amt, msi, PCI locations and name=value
 * fields are not supported (an error, like any bad field: nothing is
 * changed).
 */
static int parse_com1(const char *s)
{
    struct uart_config c = cfg;
    const char *p = s;
    const char *end;
    unsigned long v;

    if ( !strncmp(p, "auto", 4) )
    {
        c.baud = 0;
        p += 4;
    }
    else if ( *p && *p != ',' && *p != '/' )
    {
        v = simple_strtoul(p, &end, 0);
        if ( end == p || !v )
            return com1_error("bad baud rate", s);
        c.baud = v;
        p = end;
    }
    if ( *p == '/' )
    {
        v = simple_strtoul(++p, &end, 0);
        if ( end == p || !v )
            return com1_error("bad base baud rate", s);
        c.base_baud = v;
        p = end;
    }
    if ( c.baud && (c.baud > c.base_baud || c.base_baud / c.baud > 0xffff) )
        return com1_error("baud rate out of range", s);

    if ( *p == ',' && *++p && *p != ',' )
    {
        int par = -1;

        switch ( p[0] >= '5' && p[0] <= '8' ? p[1] : 0 )
        {
        case 'n': par = 0; break;       /* LCR bits 5-3: stick, even, enable */
        case 'o': par = 1; break;
        case 'e': par = 3; break;
        case 'm': par = 5; break;
        case 's': par = 7; break;
        }
        if ( par < 0 || (p[2] != '1' && p[2] != '2') )
            return com1_error("bad DPS (e.g. 8n1)", s);
        c.lcr = (p[0] - '5') | ((p[2] == '2') << 2) | (par << 3);
        p += 3;
    }
    if ( *p == ',' && *++p && *p != ',' )
    {
        v = simple_strtoul(p, &end, 0);
        if ( end == p || !v || v > 0xfff8 )
            return com1_error("bad I/O port base (pci, amt: not supported)", s);
        c.io_base = v;
        p = end;
    }
    if ( *p == ',' && *++p && *p != ',' )
    {
        v = simple_strtoul(p, &end, 0);
        if ( end == p || v > 15 || v == 2 )
            return com1_error("bad IRQ (an ISA IRQ, or 0 to poll; msi: not supported)", s);
        c.irq = v;
        p = end;
    }
    if ( *p )
        return com1_error("unsupported field", s);
    cfg = c;
    return 0;
}
custom_param("com1", parse_com1);

/* ---- the UART ------------------------------------------------------------- */

static uint8_t uart_in(unsigned int reg)
{
    return inb(cfg.io_base + reg);
}

static void uart_out(unsigned int reg, uint8_t v)
{
    outb(v, cfg.io_base + reg);
}

/* LSR, remembering an overrun: reading LSR clears its error bits. */
static uint8_t uart_lsr(void)
{
    uint8_t lsr = uart_in(UART_LSR);

    if ( lsr != 0xff && (lsr & LSR_OE) )
        rx_overruns++;
    return lsr;
}

static void uart_setup(void)
{
    uart_out(UART_IER, 0);
    if ( cfg.baud )
    {
        unsigned int divisor = cfg.base_baud / cfg.baud;

        uart_out(UART_LCR, LCR_DLAB);
        uart_out(UART_DLL, divisor & 0xff);
        uart_out(UART_DLM, divisor >> 8);
    }
    uart_out(UART_LCR, cfg.lcr);
    uart_out(UART_FCR, FCR_ENABLE | FCR_CLEAR);
    uart_out(UART_MCR, MCR_DTR_RTS);
}

void ns16550_init(void)
{
    uart_setup();
    uart_ready = true;
}

/*
 * Move what the FIFO holds (at most 'budget' bytes) to rx_stage, with the
 * line-status checks; the number of bytes read from the UART.
 */
static unsigned int uart_rx_fetch(unsigned int budget)
{
    unsigned int n = 0;
    uint8_t lsr;

    ASSERT_SPINLOCK(&rx_lock);
    for ( ; n < budget; n++ )
    {
        char c;

        lsr = uart_lsr();
        if ( lsr == 0xff || !(lsr & LSR_DR) )
            break;                      /* no UART there, or nothing to read */
        c = uart_in(UART_RBR);
        if ( lsr & LSR_BI )
        {
            rx_breaks++;
            continue;                   /* the NUL of a break */
        }
        if ( lsr & (LSR_PE | LSR_FE) )
            rx_errors++;
        if ( rx_stage_prod - rx_stage_cons == RX_STAGE_SIZE )
        {
            rx_stage_lost++;
            continue;
        }
        rx_stage[rx_stage_prod++ & (RX_STAGE_SIZE - 1)] = c;
    }
    return n;
}

/*
 * Hand the staged bytes to the console, oldest first; say once that the
 * UART lost input (not from ns16550_putc(), which runs inside printk()).
 * SERIAL_RX_SOFTIRQ and the poll timer run it, in process context with
 * interrupts enabled, on CPU 0 only: the interrupt is routed there and the
 * poll timer is CPU 0's, and serial_rx() (the console ring, the event
 * channel it sends) is not locked for other CPUs yet.
 */
static void uart_rx_deliver(void)
{
    static bool delivering;
    static unsigned long reported, reported_lost;
    static s_time_t reported_at, reported_lost_at;

    ASSERT(!in_irq() && local_irq_is_enabled());
    ASSERT(smp_processor_id() == 0);
    if ( delivering )
        return;
    delivering = true;
    if ( rx_overruns != reported &&
         (!reported || NOW() - reported_at >= SECONDS(1)) )
    {
        printk(XENLOG_WARNING "ns16550: receive overrun: serial input lost in the UART "
               "(%lu overrun(s) so far)\n", rx_overruns);
        reported = rx_overruns;
        reported_at = NOW();
    }
    if ( rx_stage_lost != reported_lost &&
         (!reported_lost || NOW() - reported_lost_at >= SECONDS(1)) )
    {
        printk(XENLOG_WARNING "ns16550: receive stage full: serial input lost "
               "(%lu byte(s) so far)\n", rx_stage_lost);
        reported_lost = rx_stage_lost;
        reported_lost_at = NOW();
    }
    /*
     * In batches, one lock round-trip each: at 115200 baud a byte comes
     * every 87 us (350 instructions under Bochs), and taking the lock for
     * every byte (with a debug build's checks) made the deliverer slower
     * than the line, the stage overflowing in a 500-byte paste.
     */
    for ( ;; )
    {
        char batch[RX_DELIVER_BATCH];
        unsigned int n = 0;
        unsigned long flags;

        spin_lock_irqsave(&rx_lock, flags);
        while ( rx_stage_cons != rx_stage_prod && n < RX_DELIVER_BATCH )
            batch[n++] = rx_stage[rx_stage_cons++ & (RX_STAGE_SIZE - 1)];
        spin_unlock_irqrestore(&rx_lock, flags);
        if ( !n )
            break;
        /*
         * Interrupts are on: the UART's interrupt keeps the FIFO drained
         * meanwhile (and ns16550_putc() does, while serial_rx() prints).
         */
        serial_rx_many(batch, n);
    }
    delivering = false;
}

void ns16550_putc(char c)
{
    if ( !uart_ready )
        return;
    while ( !(uart_lsr() & LSR_THRE) )
        if ( uart_irq_on )
        {
            unsigned long flags;

            /* Keep the FIFO from overrunning (another CPU may be at it). */
            if ( spin_trylock_irqsave(&rx_lock, flags) )
            {
                uart_rx_fetch(16);
                spin_unlock_irqrestore(&rx_lock, flags);
            }
        }
    uart_out(UART_THR, c);
}

void ns16550_flush(void)
{
    if ( !uart_ready )
        return;
    while ( !(uart_in(UART_LSR) & LSR_TEMT) )
        ;
}

/* ---- serving the receive FIFO in time ------------------------------------- */

uint64_t ns16550_rx_deadline(void)
{
    if ( !uart_irq_on || !console_rx_wanted() )
        return ~0ULL;
    return rdtsc() + rx_service_ticks;
}

/* ---- receive interrupt ---------------------------------------------------- */

static void start_polling(void);

static void ns16550_interrupt(struct cpu_user_regs *regs)
{
    unsigned int n = 0;

    rx_irqs++;
    spin_lock(&rx_lock);                /* interrupts are off in a handler */
    while ( !(uart_in(UART_IIR) & IIR_NOINT) && n < SERIAL_IRQ_BUDGET )
    {
        unsigned int got = uart_rx_fetch(SERIAL_IRQ_BUDGET - n);

        if ( !got )
            uart_lsr();                 /* a line-status interrupt alone */
        n += got ? got : 1;
    }
    spin_unlock(&rx_lock);
    ack_APIC_irq();
    if ( n >= SERIAL_IRQ_BUDGET && !(uart_in(UART_IIR) & IIR_NOINT) )
    {
        /* As Xen: an interrupt that never ends is switched to polling. */
        uart_out(UART_IER, 0);
        io_apic_mask_isa_irq(cfg.irq);
        uart_irq_on = false;
        printk(XENLOG_WARNING "ns16550: IRQ %u keeps coming, switched to polling\n", cfg.irq);
        start_polling();
    }
    raise_softirq(SERIAL_RX_SOFTIRQ);   /* uart_rx_deliver(), out of the handler */
}

/* ---- polling (no interrupt) ---------------------------------------------- */

static void ns16550_poll(void *data)
{
    s_time_t now;
    unsigned long flags;
    unsigned int got;

    /* A bounded drain: a stuck LSR.DR cannot hold the CPU. */
    spin_lock_irqsave(&rx_lock, flags);
    got = uart_rx_fetch(64);
    spin_unlock_irqrestore(&rx_lock, flags);
    if ( got )
        last_rx = NOW();
    uart_rx_deliver();
    now = NOW();
    if ( !uart_irq_on && console_rx_wanted() )
        set_timer(&poll_timer, now + MILLISECS(now - last_rx < MILLISECS(SERIAL_BUSY_MS)
                                               ? SERIAL_BUSY_POLL_MS : SERIAL_POLL_MS));
}

static void start_polling(void)
{
    if ( !poll_timer_ready )
    {
        init_timer(&poll_timer, ns16550_poll, NULL, 0);
        poll_timer_ready = true;
    }
    ns16550_start_poll();
}

/* (Re)start polling, if input is polled, not running, and wanted. */
void ns16550_start_poll(void)
{
    if ( poll_timer_ready && !uart_irq_on && poll_timer.status != TIMER_STATUS_in_list &&
         console_rx_wanted() )
        set_timer(&poll_timer, NOW() + MILLISECS(SERIAL_POLL_MS));
}

void ns16550_init_postirq(void)
{
    int rc = -ENODEV;

    if ( !uart_ready )
        return;
    /* com1= was parsed after ns16550_init(): apply it. */
    ns16550_flush();
    uart_setup();

    open_softirq(SERIAL_RX_SOFTIRQ, uart_rx_deliver);
    if ( cfg.irq )
    {
        set_irq_handler(LEGACY_VECTOR(cfg.irq), ns16550_interrupt);
        rc = io_apic_route_isa_irq(cfg.irq, LEGACY_VECTOR(cfg.irq));
    }
    /*
     * 12 bytes of 10 bits at the line's rate ("auto": assume 115200): the
     * FIFO holds 16, its interrupt comes with the first, and 4 are left
     * for getting to the handler.
     */
    rx_service_ticks = 120ULL * cpu_khz * 1000 / (cfg.baud ?: 115200);
    if ( !rc )
    {
        uart_irq_on = true;
        uart_out(UART_MCR, MCR_DTR_RTS | MCR_OUT2);
        uart_out(UART_IER, IER_ERDAI | IER_ELSI);
    }
    else
    {
        if ( cfg.irq )
            set_irq_handler(LEGACY_VECTOR(cfg.irq), NULL);
        start_polling();
    }
    if ( uart_irq_on )
        printk("ns16550: COM1 at %#x, input on IRQ %u (vector %#x)\n", cfg.io_base,
               cfg.irq, LEGACY_VECTOR(cfg.irq));
    else
        printk("ns16550: COM1 at %#x, input polled (%s)\n", cfg.io_base,
               cfg.irq ? "no IO-APIC pin for its IRQ" : "com1= gave IRQ 0");
}

/* panic(): the CPU holding rx_lock may have been stopped (console_force_unlock()). */
void ns16550_force_unlock(void)
{
    if ( !spin_is_locked_by_me(&rx_lock) )
        spin_lock_init_level(&rx_lock, "rx_lock", LOCK_LEVEL_UART_RX);
}

/* The 'r' debug key: what the driver saw. */
void ns16550_dump_rx(void)
{
    printk(" UART: input %s, %lu interrupt(s), %lu overrun(s), %lu break(s), "
           "%lu parity/framing error(s), %lu byte(s) lost staging\n",
           uart_irq_on ? "on its interrupt" : "polled", rx_irqs, rx_overruns,
           rx_breaks, rx_errors, rx_stage_lost);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/drivers/char/ns16550.c: the com1= option (Xen's positional fields).
 * The driver's source is included so that its settings can be read; the
 * hardware is never touched (parse_com1 only parses).  The console, IRQ
 * and IO-APIC functions it links against are stubs here.
 */
#include "../../xen/drivers/char/ns16550.c"

#include "harness.h"

void serial_rx(char c) { (void)c; }
void serial_rx_many(const char *buf, unsigned int n) { (void)buf; (void)n; }
bool console_rx_wanted(void) { return false; }
void set_irq_handler(unsigned int vector, irq_handler_t fn) { (void)vector; (void)fn; }
int io_apic_route_isa_irq(unsigned int irq, unsigned int vector)
{
    (void)irq; (void)vector;
    return -ENODEV;
}
void io_apic_mask_isa_irq(unsigned int irq) { (void)irq; }
void ack_APIC_irq(void) { }
DEFINE_PER_CPU(unsigned int, local_irq_count);   /* in_irq(): traps.c's */
s_time_t get_s_time(void) { return 0; }
uint64_t stime_to_tsc(s_time_t t) { return t; }
void reprogram_timer(uint64_t deadline) { (void)deadline; }

static const struct uart_config defaults = { 115200, 115200, 0x03, 0x3f8, 4 };

static void check_cfg(unsigned int baud, unsigned int base_baud, uint8_t lcr,
                      uint16_t io_base, unsigned int irq)
{
    CHECK_EQ(cfg.baud, baud);
    CHECK_EQ(cfg.base_baud, base_baud);
    CHECK_EQ(cfg.lcr, lcr);
    CHECK_EQ(cfg.io_base, io_base);
    CHECK_EQ(cfg.irq, irq);
}

static void good(const char *s, unsigned int baud, unsigned int base_baud,
                 uint8_t lcr, uint16_t io_base, unsigned int irq)
{
    cfg = defaults;
    printk_reset();
    CHECK_EQ(parse_com1(s), 0);
    check_cfg(baud, base_baud, lcr, io_base, irq);
    CHECK_STR(printk_log, "");
}

/* A bad value: -EINVAL, a message naming it, and nothing changed. */
static void bad(const char *s, const char *why)
{
    cfg = defaults;
    cfg.irq = 3;                        /* not the default: must stay */
    printk_reset();
    CHECK_EQ(parse_com1(s), -EINVAL);
    check_cfg(115200, 115200, 0x03, 0x3f8, 3);
    CHECK_CONTAINS(printk_log, why);
    CHECK_CONTAINS(printk_log, s);
    CHECK_CONTAINS(printk_log, "unchanged");
}

void test_main(void)
{
    good("115200,8n1,0x3f8,4", 115200, 115200, 0x03, 0x3f8, 4);
    good("9600", 9600, 115200, 0x03, 0x3f8, 4);
    good("auto", 0, 115200, 0x03, 0x3f8, 4);
    good("auto,8n1", 0, 115200, 0x03, 0x3f8, 4);
    /* 7 data bits (2), 2 stop bits (4), even parity (0x18). */
    good("57600/115200,7e2,0x2f8,3", 57600, 115200, 0x1e, 0x2f8, 3);
    good("115200,5o1", 115200, 115200, 0x08, 0x3f8, 4);
    good("115200,8m1", 115200, 115200, 0x2b, 0x3f8, 4);
    good("115200,8s1", 115200, 115200, 0x3b, 0x3f8, 4);
    good("460800/921600", 460800, 921600, 0x03, 0x3f8, 4);
    /* Empty fields keep their value; IRQ 0 asks for polling. */
    good(",,,0", 115200, 115200, 0x03, 0x3f8, 0);
    good("115200,,0x3e8", 115200, 115200, 0x03, 0x3e8, 4);
    good("115200,8n1,,", 115200, 115200, 0x03, 0x3f8, 4);

    bad("0", "bad baud rate");
    bad("fast", "bad baud rate");
    bad("115200/0", "bad base baud rate");
    bad("230400", "baud rate out of range");
    bad("1", "baud rate out of range");     /* divisor 115200 > 0xffff */
    bad("115200,8x1", "bad DPS");
    bad("115200,9n1", "bad DPS");
    bad("115200,8n3", "bad DPS");
    bad("115200,8n", "bad DPS");
    bad("115200,8n1,pci", "bad I/O port base");
    bad("115200,8n1,amt", "bad I/O port base");
    bad("115200,8n1,0x10000", "bad I/O port base");
    bad("115200,8n1,0x3f8,msi", "bad IRQ");
    bad("115200,8n1,0x3f8,16", "bad IRQ");
    bad("115200,8n1,0x3f8,2", "bad IRQ");   /* the cascade */
    bad("115200,8n1,0x3f8,4,00:16.3", "unsupported field");
    bad("115200,8n1x", "unsupported field");

    /* Through the command-line parser: the option is registered as com1. */
    cfg = defaults;
    printk_reset();
    CHECK_EQ(cmdline_parse("com1=38400,8n1,0x2f8,3"), 0);
    check_cfg(38400, 115200, 0x03, 0x2f8, 3);
    printk_reset();
    CHECK(cmdline_parse("com1=38400,8n1,0x2f8,99") != 0);
    check_cfg(38400, 115200, 0x03, 0x2f8, 3);
    CHECK_CONTAINS(printk_log, "parameter \"com1\" has invalid value");
}

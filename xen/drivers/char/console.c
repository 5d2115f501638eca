/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor console.
 *
 * printk() formats a message, strips its log-level prefix (XENLOG_*, see
 * xen/lib.h), drops it if it is above the threshold set by loglvl= (host
 * messages) or guest_loglvl= (messages about guests), and writes it to COM1
 * and to the console ring, starting every line with "(XEN) ".
 *
 * Guest output, as in Xen:
 *  - console_io writes of the hardware domain (dom0) go to the serial line
 *    as they are: no prefix, no line buffering, control characters and
 *    escape sequences intact, because dom0's console may be interactive (a
 *    shell, a full-screen program).  They reach the console ring only with
 *    console_to_ring (Xen's parameter; off by default).
 *  - console_io writes of other domains, and every domain's writes to the
 *    debug port 0xE9 (Xen's hvm_print_line), are collected per domain and
 *    printed line by line as "(dN) text", non-printable characters shown
 *    as '?', into the ring too.
 * Every "(XEN) " or "(dN) " line starts at column 0: if dom0's raw output
 * left a line open, a newline comes first (beyond Xen, which would write
 * the prefix where dom0's cursor is).  '\n' goes out as "\r\n" (Xen's
 * cooked serial handle), raw output included.  console_timestamps= (Xen's)
 * puts a time after each prefix.
 *
 * Serial input (taken on the UART's interrupt, or polled: see ns16550.c)
 * goes, as in Xen, to the control domain: each byte is queued in
 * serial_rx_ring and raises VIRQ_CONSOLE; CONSOLEIO_read copies them out.
 * The ring holds 16 KiB (Xen's 128 bytes is less than a pasted screenful);
 * bytes arriving when it is full are dropped, counted, and the first drop
 * of each overflow is logged.  Ctrl-A three times in a row switches
 * input to the hypervisor, which then answers debug keys ('h' lists them),
 * and back.
 */
#include <xen/console.h>
#include <xen/grant_table.h>
#include <xen/errno.h>
#include <xen/event.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/string.h>
#include <xen/time.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <public/xen.h>

/* Log levels, lowest number = most severe (Xen's order). */
enum {
    LVL_NONE = -1,
    LVL_ERR = XENLOG_LVL_ERR,
    LVL_WARNING = XENLOG_LVL_WARNING,
    LVL_INFO = XENLOG_LVL_INFO,
    LVL_DEBUG = XENLOG_LVL_DEBUG,
    LVL_ALL,
};

static int xenlog_upper = LVL_INFO;
static int guest_loglvl_upper = LVL_INFO;

static int parse_level(const char *s, const char **end)
{
    static const struct { const char *name; int lvl; } names[] = {
        { "none", LVL_NONE }, { "error", LVL_ERR }, { "warning", LVL_WARNING },
        { "info", LVL_INFO }, { "debug", LVL_DEBUG }, { "all", LVL_ALL },
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(names); i++ )
    {
        size_t n = strlen(names[i].name);

        if ( !strncmp(s, names[i].name, n) && (s[n] == '\0' || s[n] == '/') )
        {
            *end = s + n;
            return names[i].lvl;
        }
    }
    return -2;
}

/* loglvl=<level>[/<rate-limited level>]; the second part is accepted and ignored. */
static int parse_loglvl_into(const char *s, int *var)
{
    const char *end;
    int lvl = parse_level(s, &end);

    if ( lvl == -2 )
        return -EINVAL;
    if ( *end == '/' && parse_level(end + 1, &end) == -2 )
        return -EINVAL;
    *var = lvl;
    return 0;
}

static int parse_loglvl(const char *s)
{
    return parse_loglvl_into(s, &xenlog_upper);
}
custom_param("loglvl", parse_loglvl);

static int parse_guest_loglvl(const char *s)
{
    return parse_loglvl_into(s, &guest_loglvl_upper);
}
custom_param("guest_loglvl", parse_guest_loglvl);

/*
 * console_lock: the ring, the UART's output, line_state and vprintk's
 * buffer, as every CPU prints.  Recursive, so that a BUG or panic while
 * printing still gets its message out; taken with interrupts disabled.
 */
static DEFINE_SPINLOCK_LEVEL(console_lock, LOCK_LEVEL_CONSOLE);
#define console_lock_irqsave(f)    ({ local_irq_save(f); spin_lock_recursive(&console_lock); })
#define console_unlock_irqrestore(f) \
    ({ spin_unlock_recursive(&console_lock); local_irq_restore(f); })

/* ---- console ring ------------------------------------------------------ */

#define CONRING_SIZE 16384              /* power of two */
static char conring[CONRING_SIZE];
static size_t conring_prod;             /* total bytes ever written */
static size_t conring_cons;             /* oldest byte kept after a clear */

static void conring_putc(char c)
{
    conring[conring_prod++ & (CONRING_SIZE - 1)] = c;
    if ( conring_prod - conring_cons > CONRING_SIZE )
        conring_cons = conring_prod - CONRING_SIZE;
}

static size_t __console_ring_read(char *buf, size_t len, size_t *pos)
{
    size_t p = *pos, n = 0;

    if ( p < conring_cons )
        p = conring_cons;
    while ( n < len && p < conring_prod )
        buf[n++] = conring[p++ & (CONRING_SIZE - 1)];
    *pos = p;
    return n;
}

size_t console_ring_read(char *buf, size_t len, size_t *pos)
{
    unsigned long flags;
    size_t n;

    console_lock_irqsave(flags);
    n = __console_ring_read(buf, len, pos);
    console_unlock_irqrestore(flags);
    return n;
}

static void __console_ring_clear(void)
{
    conring_cons = conring_prod;
}

void console_ring_clear(void)
{
    unsigned long flags;

    console_lock_irqsave(flags);
    __console_ring_clear();
    console_unlock_irqrestore(flags);
}

/* ---- output ------------------------------------------------------------ */

/* console_to_ring: the hardware domain's console output in the ring too. */
static bool opt_console_to_ring;
boolean_param("console_to_ring", opt_console_to_ring);

/* console_timestamps=none|date|datems|boot|raw (Xen's; a boolean: date). */
static enum {
    TSM_NONE,                           /* no timestamp */
    TSM_DATE,                           /* [YYYY-MM-DD HH:MM:SS] */
    TSM_DATE_MS,                        /* [YYYY-MM-DD HH:MM:SS.mmm] */
    TSM_BOOT,                           /* [SSSSS.uuuuuu] since boot */
    TSM_RAW,                            /* [XXXXXXXXXXXXXXXX]: the TSC */
} opt_timestamps = TSM_NONE;

static int parse_console_timestamps(const char *s)
{
    static const char *const names[] = {
        [TSM_NONE] = "none", [TSM_DATE] = "date", [TSM_DATE_MS] = "datems",
        [TSM_BOOT] = "boot", [TSM_RAW] = "raw",
    };
    unsigned int i;
    int b = parse_bool(s, NULL);

    if ( b >= 0 )
    {
        opt_timestamps = b ? TSM_DATE : TSM_NONE;
        return 0;
    }
    for ( i = 0; i < ARRAY_SIZE(names); i++ )
        if ( !strcmp(s, names[i]) )
        {
            opt_timestamps = i;
            return 0;
        }
    return -EINVAL;
}
custom_param("console_timestamps", parse_console_timestamps);

/*
 * What the current line of the serial console holds: nothing yet (column
 * 0), a prefixed line being written (printk without its newline yet), or
 * raw text of the hardware domain.
 */
static enum { LINE_EMPTY, LINE_PREFIXED, LINE_RAW } line_state = LINE_EMPTY;

/* One byte to COM1, '\n' as "\r\n" (Xen's SERHND_COOKED); and to the ring. */
static void console_putc(char c, bool ring)
{
    if ( c == '\n' )
        ns16550_putc('\r');
    ns16550_putc(c);
    if ( ring )
        conring_putc(c);
}

static void console_puts(const char *s, bool ring)
{
    while ( *s )
        console_putc(*s++, ring);
}

static void put_timestamp(void)
{
    char ts[40];
    uint64_t t;

    switch ( opt_timestamps )
    {
    case TSM_DATE:
    case TSM_DATE_MS:
    {
        struct tm tm = gmtime(get_wallclock_seconds());
        unsigned int ms = (NOW() / 1000000) % 1000;

        if ( opt_timestamps == TSM_DATE )
            snprintf(ts, sizeof(ts), "[%04d-%02d-%02d %02d:%02d:%02d] ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
        else
            snprintf(ts, sizeof(ts), "[%04d-%02d-%02d %02d:%02d:%02d.%03u] ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec, ms);
        break;
    }
    case TSM_BOOT:
        t = NOW();
        snprintf(ts, sizeof(ts), "[%5lu.%06lu] ", (unsigned long)(t / 1000000000),
                 (unsigned long)(t % 1000000000 / 1000));
        break;
    case TSM_RAW:
        snprintf(ts, sizeof(ts), "[%016lx] ", (unsigned long)rdtsc());
        break;
    default:
        return;
    }
    console_puts(ts, true);
}

/* Write text, putting 'prefix' (and the timestamp) in front of every new line. */
static void console_write_prefixed(const char *prefix, const char *s)
{
    if ( line_state == LINE_RAW )
    {
        /* dom0 left its line open: the prefixed line starts on a new one. */
        console_putc('\n', opt_console_to_ring);
        line_state = LINE_EMPTY;
    }
    for ( ; *s; s++ )
    {
        if ( line_state == LINE_EMPTY )
        {
            console_puts(prefix, true);
            put_timestamp();
            line_state = LINE_PREFIXED;
        }
        console_putc(*s, true);
        if ( *s == '\n' )
            line_state = LINE_EMPTY;
    }
}

/* The hardware domain's output: as it is (Xen's guest_console_write). */
static void console_write_raw(const char *s, size_t len)
{
    if ( !len )
        return;
    if ( line_state == LINE_PREFIXED )
    {
        console_putc('\n', true);
        line_state = LINE_EMPTY;
    }
    while ( len-- )
        console_putc(*s++, opt_console_to_ring);
    line_state = s[-1] == '\n' ? LINE_EMPTY : LINE_RAW;
}

static void __vprintk(const char *fmt, va_list args)
{
    static char buf[1024];
    const char *p;
    unsigned int lvl;
    bool guest;

    vsnprintf(buf, sizeof(buf), fmt, args);
    p = printk_prefix(buf, &lvl, &guest);
    if ( (int)lvl > (guest ? guest_loglvl_upper : xenlog_upper) )
        return;
    console_write_prefixed("(XEN) ", p);
}

void vprintk(const char *fmt, va_list args)
{
    unsigned long flags;

    console_lock_irqsave(flags);
    __vprintk(fmt, args);
    console_unlock_irqrestore(flags);
}

void printk(const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
}

void console_init_preirq(void)
{
    ns16550_init();
}

void console_init_postirq(void)
{
    ns16550_init_postirq();
}

void console_flush(void)
{
    ns16550_flush();
}

/* ---- guest output ------------------------------------------------------- */

static void __guest_console_flush(struct domain *d)
{
    char prefix[16];

    if ( !d->pbuf_idx )
        return;
    d->pbuf[d->pbuf_idx] = '\0';
    snprintf(prefix, sizeof(prefix), "(d%u) ", d->domain_id);
    console_write_prefixed(prefix, d->pbuf);
    if ( line_state != LINE_EMPTY )
        console_write_prefixed("", "\n");
    d->pbuf_idx = 0;
}

void guest_console_flush(struct domain *d)
{
    unsigned long flags;

    console_lock_irqsave(flags);
    __guest_console_flush(d);
    console_unlock_irqrestore(flags);
}

/* Collect a domain's text into "(dN) " lines. */
static void __guest_console_write_lines(struct domain *d, const char *buf, size_t len)
{
    for ( ; len; len--, buf++ )
    {
        char c = *buf;

        if ( c == '\r' || c == '\0' )
            continue;
        if ( c != '\n' && (c < 0x20 || c > 0x7e) && c != '\t' )
            c = '?';                    /* keep the console printable */
        d->pbuf[d->pbuf_idx++] = c;
        if ( c == '\n' || d->pbuf_idx == sizeof(d->pbuf) - 1 )
            __guest_console_flush(d);
    }
}

void guest_console_write_lines(struct domain *d, const char *buf, size_t len)
{
    unsigned long flags;

    console_lock_irqsave(flags);
    __guest_console_write_lines(d, buf, len);
    console_unlock_irqrestore(flags);
}

/* console_io's CONSOLEIO_write: raw for the hardware domain, lines for others. */
void guest_console_write(struct domain *d, const char *buf, size_t len)
{
    unsigned long flags;

    console_lock_irqsave(flags);
    if ( is_hardware_domain(d) )
        console_write_raw(buf, len);
    else
        __guest_console_write_lines(d, buf, len);
    console_unlock_irqrestore(flags);
}

/*
 * Xen's console_force_unlock(), for panic() once the other CPUs are
 * stopped: a lock one of them held would never be released.  Kept if this
 * CPU holds it (a panic inside printk), which the recursive lock allows.
 */
void console_force_unlock(void)
{
    if ( !spin_is_locked_by_me(&console_lock) )
        spin_lock_init_level(&console_lock, "console_lock", LOCK_LEVEL_CONSOLE);
    ns16550_force_unlock();
}

/* ---- serial input -------------------------------------------------------- */

#define SERIAL_RX_SIZE 16384            /* power of two; Xen's is 128 */
#define SERIAL_RX_MASK(i) ((i) & (SERIAL_RX_SIZE - 1))
static char serial_rx_ring[SERIAL_RX_SIZE];
static unsigned int serial_rx_cons, serial_rx_prod;
/*
 * The ring's indices and bytes, between the UART's deliverer (CPU 0's
 * softirq or poll timer) and CONSOLEIO_read on whichever CPU dom0's vCPU
 * runs; the outermost lock (it is held across the guest copy, which may
 * take the p2m's).  Beyond Xen, whose ring has no lock.
 */
static DEFINE_SPINLOCK_LEVEL(serial_rx_lock, LOCK_LEVEL_SERIAL_RX);
static unsigned long serial_rx_dropped;  /* bytes that found the ring full */
static bool serial_rx_overflowing;       /* the last byte found it full */

#define SWITCH_CODE 0x01                /* Ctrl-A, Xen's default conswitch */
static bool console_rx_to_xen;          /* input switched to the hypervisor */

bool console_rx_wanted(void)
{
    struct domain *d = running_control_domain();
    struct vcpu *v = d ? domain_vcpu(d, 0) : NULL;

    return console_rx_to_xen || (v && v->virq_to_evtchn[VIRQ_CONSOLE]);
}

static void switch_serial_input(void)
{
    console_rx_to_xen = !console_rx_to_xen;
    printk("*** Serial input to %s (type 'CTRL-a' three times to switch input)\n",
           console_rx_to_xen ? "Xen" : "DOM0");
}

void handle_keypress(char c)
{
    switch ( c )
    {
    case 'h':
        printk("'h' pressed -> showing installed handlers\n");
        printk(" key 'g' (ascii '67') => print grant table usage\n");
        printk(" key 'h' (ascii '68') => show this message\n");
        printk(" key 'i' (ascii '69') => dump the interrupts taken, by vector\n");
        printk(" key 'q' (ascii '71') => dump domain (and guest debug) info\n");
        printk(" key 'r' (ascii '72') => dump the serial input ring\n");
        break;
    case 'g':
        gnttab_usage_print_all(c);
        break;
    case 'i':
        printk("'i' pressed -> interrupts taken, by vector\n");
        dump_irq_counts();
        break;
    case 'q':
        printk("'q' pressed -> dumping domain info\n");
        dump_domains();
        break;
    case 'r':
        printk("'r' pressed -> serial input ring: %u byte(s) queued for dom0, "
               "%lu dropped (ring full)\n", serial_rx_prod - serial_rx_cons,
               serial_rx_dropped);
        ns16550_dump_rx();
        break;
    default:
        printk("'%c' (ascii %02x): no handler ('h' lists them)\n",
               (c >= 0x20 && c < 0x7f) ? c : '?', (unsigned char)c);
        break;
    }
}

/* True if a byte was queued (or dropped) for dom0: VIRQ_CONSOLE is due. */
static bool __serial_rx(char c)
{
    ASSERT_SPINLOCK(&serial_rx_lock);
    if ( console_rx_to_xen )
    {
        /* A debug key may print for long: not with dom0's reads held up. */
        spin_unlock(&serial_rx_lock);
        handle_keypress(c);
        spin_lock(&serial_rx_lock);
        return false;
    }
    /* As Xen: a full ring drops the byte, the VIRQ is raised anyway. */
    if ( serial_rx_prod - serial_rx_cons != SERIAL_RX_SIZE )
    {
        serial_rx_ring[SERIAL_RX_MASK(serial_rx_prod)] = c;
        serial_rx_prod++;
        serial_rx_overflowing = false;
    }
    else if ( serial_rx_dropped++, !serial_rx_overflowing )
    {
        serial_rx_overflowing = true;
        printk(XENLOG_WARNING "serial input ring full (%u bytes): dropping input "
               "until dom0 reads (%lu byte(s) dropped so far)\n",
               SERIAL_RX_SIZE, serial_rx_dropped);
    }
    return true;
}

/*
 * Bytes received on the serial line, oldest first.  Xen raises
 * VIRQ_CONSOLE after every byte; here once per call, after the last byte
 * for dom0 is in the ring (dom0 reads what is queued either way): at line
 * rate under Bochs a byte lasts 350 instructions, and a VIRQ per byte made
 * the UART driver's hand-over slower than the line in a debug build.  For
 * the same reason serial_rx_lock is taken once per call, not per byte; it
 * is dropped for what may take long (a debug key, an input switch, the
 * VIRQ).
 */
void serial_rx_many(const char *buf, unsigned int n)
{
    static unsigned int switch_code_count;
    bool notify = false;
    unsigned int i;

    spin_lock(&serial_rx_lock);
    for ( i = 0; i < n; i++ )
    {
        char c = buf[i];

        if ( c == SWITCH_CODE )
        {
            /* Ctrl-A is eaten in groups of three, which switch the input. */
            if ( ++switch_code_count == 3 )
            {
                spin_unlock(&serial_rx_lock);
                if ( notify )
                    send_global_virq(VIRQ_CONSOLE);   /* what came before */
                notify = false;
                switch_serial_input();
                switch_code_count = 0;
                spin_lock(&serial_rx_lock);
            }
            continue;
        }
        /* One or two Ctrl-A before another byte were meant as input. */
        for ( ; switch_code_count; switch_code_count-- )
            notify |= __serial_rx(SWITCH_CODE);
        notify |= __serial_rx(c);
    }
    spin_unlock(&serial_rx_lock);
    if ( notify )
        send_global_virq(VIRQ_CONSOLE);
}

void serial_rx(char c)
{
    serial_rx_many(&c, 1);
}

/* CONSOLEIO_read: up to 'count' queued bytes to 'buffer'; the number copied. */
static long serial_rx_read(unsigned int count, XEN_GUEST_HANDLE_PARAM(char) buffer)
{
    long rc = 0;

    spin_lock(&serial_rx_lock);
    while ( serial_rx_cons != serial_rx_prod && rc < count )
    {
        unsigned int idx = SERIAL_RX_MASK(serial_rx_cons);
        unsigned int len = serial_rx_prod - serial_rx_cons;

        if ( idx + len > SERIAL_RX_SIZE )
            len = SERIAL_RX_SIZE - idx;         /* up to the ring's end */
        if ( rc + len > count )
            len = count - rc;
        /* A bad buffer: -EFAULT, the bytes stay queued (Xen's order). */
        if ( copy_to_guest_offset(buffer, rc, &serial_rx_ring[idx], len) )
        {
            rc = -EFAULT;
            break;
        }
        rc += len;
        serial_rx_cons += len;
    }
    spin_unlock(&serial_rx_lock);
    return rc;
}

/* ---- console_io hypercall ----------------------------------------------- */

#define CONSOLE_IO_CHUNK 128

long do_console_io(unsigned int cmd, unsigned int count,
                   XEN_GUEST_HANDLE_PARAM(char) buffer)
{
    struct domain *d = current->domain;
    char kbuf[CONSOLE_IO_CHUNK];
    unsigned int done = 0;

    switch ( cmd )
    {
    case CONSOLEIO_write:
        while ( done < count )
        {
            unsigned int n = min(count - done, (unsigned int)sizeof(kbuf));

            /* A huge count must not hold the CPU: go on after the others ran. */
            if ( done && hypercall_preempt_check() )
            {
                guest_handle_add_offset(buffer, done);
                return hypercall_create_continuation(__HYPERVISOR_console_io, "iih",
                                                     cmd, count - done, buffer);
            }
            if ( copy_from_guest_offset(kbuf, buffer, done, n) )
                return -EFAULT;
            guest_console_write(d, kbuf, n);
            done += n;
        }
        return 0;

    case CONSOLEIO_read:
        /* Serial input belongs to the control domain (Xen's XSM default). */
        if ( !is_control_domain(d) )
            return -EPERM;
        return serial_rx_read(count, buffer);

    default:
        return -ENOSYS;
    }
}

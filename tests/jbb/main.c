/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A specjbb-like workload for the benchmarks (the domU of tests/bench).
 *
 * Like SPECjbb, it is an order-processing business in memory, shaped by
 * TPC-C: warehouses with districts, customers, items and stock, and a
 * stream of transactions in TPC-C's mix -- new order 45%, payment 43%,
 * order status 4%, delivery 4%, stock level 4%.  Records are 64 bytes.
 * Customers and items are picked with TPC-C's non-uniform NURand, which
 * makes some records (and so some pages) hot and most cold.  New orders,
 * order lines and payment history are "allocated" in a nursery that a bump
 * pointer sweeps through, as a Java heap's young generation is.  Every
 * record read feeds some arithmetic (the business logic), so a transaction
 * is a few thousand instructions and about a quarter of its working-set
 * accesses are writes.  Every few transactions it also draws a few lines
 * into a framebuffer, as a display would show.
 *
 * Everything follows from the seed: the same seed gives the same
 * transactions, instruction for instruction.  The control domain starts
 * and times runs through the control page (bench.h).
 *
 * Guest command line: none needed.  Without a control domain to drive it,
 * "standalone=<transactions>" runs that many transactions with seed=<n>
 * (default 1), ws=<MiB> (default 8), fb_every=<n> (default 0: no drawing)
 * and fb_lines=<n> (default 4), and prints the ticks they took.
 */
#include "test.h"
#include "bench.h"

const char test_title[] = "specjbb-like workload (domU)";

static struct bench_ctrl *const ctrl = (struct bench_ctrl *)(BENCH_CTRL_GFN << PAGE_SHIFT);

/* A record: eight 64-bit fields. */
struct rec {
    uint64_t f[8];
};

#define TX_NEW_ORDER        0
#define TX_PAYMENT          1
#define TX_ORDER_STATUS     2
#define TX_DELIVERY         3
#define TX_STOCK_LEVEL      4
#define DISTRICTS           10          /* per warehouse, as TPC-C */

/* The tables of one run, as ranges of records in the working set. */
static struct {
    struct rec *base;
    unsigned long warehouses, districts, items, stock, customers, nursery;
    struct rec *wh, *dist, *item, *stk, *cust, *nurs;
    unsigned long item_a, cust_a, item_c, cust_c;  /* NURand's A and C */
    unsigned long alloc;                /* nursery bump pointer (records) */
    uint64_t rng;
    uint64_t reads, writes;             /* 64-bit loads and stores */
    uint64_t sum;                       /* results, kept so nothing is elided */
    unsigned long fb_every, fb_lines, fb_line, fb_count, fb_pages, fb_scroll;
} w;

/* xorshift64*: small, fast, good enough, and a pure function of the seed. */
static uint64_t rnd(void)
{
    uint64_t x = w.rng;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    w.rng = x;
    return x * 0x2545f4914f6cdd1dULL;
}

static unsigned long uniform(unsigned long n)
{
    return (rnd() >> 11) % n;
}

/* TPC-C's NURand(A, 0, n - 1): ORing two uniforms skews towards some values. */
static unsigned long nurand(unsigned long a, unsigned long c, unsigned long n)
{
    return ((uniform(a + 1) | uniform(n)) + c) % n;
}

/* The largest 2^k - 1 not above n / div (at least 1). */
static unsigned long mask_below(unsigned long n, unsigned long div)
{
    unsigned long a = 1;

    while ( (a << 1) + 1 <= n / div )
        a = (a << 1) + 1;
    return a;
}

/* Business logic: a little arithmetic over what was read. */
static uint64_t crunch(uint64_t x, unsigned int rounds)
{
    while ( rounds-- )
    {
        x ^= x >> 31;
        x *= 0x7fb5d329728ea185ULL;
        x ^= x >> 27;
        x += 0x9e3779b97f4a7c15ULL;
    }
    return x;
}

/* Read n fields of r (loads counted), folded into one value. */
static uint64_t read_rec(const struct rec *r, unsigned int n)
{
    const volatile uint64_t *f = r->f;
    uint64_t v = 0;
    unsigned int i;

    for ( i = 0; i < n; i++ )
        v = (v << 7 | v >> 57) ^ f[i];
    w.reads += n;
    return v;
}

/* A keyed lookup: two probes of the table's hash index, then the record. */
static uint64_t lookup(const struct rec *table, unsigned long n, unsigned long i)
{
    uint64_t v = read_rec(&table[(i * 7 + 3) % n], 4);

    v ^= read_rec(&table[(i * 13 + 5) % n], 4);
    return crunch(v, 2) ^ read_rec(&table[i], 8);
}

static void write_field(struct rec *r, unsigned int i, uint64_t v)
{
    ((volatile uint64_t *)r->f)[i] = v;
    w.writes++;
}

/* A new object in the nursery: all eight fields written. */
static struct rec *alloc_rec(uint64_t a, uint64_t b)
{
    struct rec *r = &w.nurs[w.alloc];
    unsigned int i;

    if ( ++w.alloc == w.nursery )
        w.alloc = 0;                    /* the young generation is collected */
    for ( i = 0; i < 8; i++ )
        ((volatile uint64_t *)r->f)[i] = a + i * b;
    w.writes += 8;
    return r;
}

/* A recent object: 'back' allocations behind the bump pointer. */
static struct rec *recent(unsigned long back)
{
    back %= w.nursery;
    return &w.nurs[(w.alloc + w.nursery - 1 - back) % w.nursery];
}

static struct rec *district_of(unsigned long wh, unsigned long d)
{
    return &w.dist[wh * DISTRICTS + d];
}

static struct rec *stock_of(unsigned long item, unsigned long wh)
{
    return &w.stk[(item * w.warehouses + wh) % w.stock];
}

static void tx_new_order(void)
{
    unsigned long wh = uniform(w.warehouses), d = uniform(DISTRICTS);
    unsigned long lines = 5 + uniform(11), i;
    struct rec *dist = district_of(wh, d);
    uint64_t tax = read_rec(&w.wh[wh], 4), o_id, total = 0;

    o_id = read_rec(dist, 4);
    write_field(dist, 0, dist->f[0] + 1);           /* next order id */
    for ( i = 0; i < lines; i++ )
    {
        unsigned long item = nurand(w.item_a, w.item_c, w.items);
        struct rec *s = stock_of(item, uniform(100) ? wh : uniform(w.warehouses));
        uint64_t price = lookup(w.item, w.items, item);
        uint64_t qty = read_rec(s, 8), amount;

        write_field(s, 1, qty - 1);                 /* quantity */
        write_field(s, 2, s->f[2] + 1);             /* order count */
        amount = crunch(price ^ qty ^ tax, 24);
        total += amount;
        alloc_rec(o_id + i, amount);                /* the order line */
    }
    alloc_rec(o_id, crunch(total, 8));              /* the order */
    w.sum += total;
}

static void tx_payment(void)
{
    unsigned long wh = uniform(w.warehouses), d = uniform(DISTRICTS), c, i;
    struct rec *dist = district_of(wh, d), *cust;
    uint64_t amount = 1 + uniform(5000), v;

    v = read_rec(&w.wh[wh], 6);
    write_field(&w.wh[wh], 7, w.wh[wh].f[7] + amount);     /* warehouse ytd */
    v ^= read_rec(dist, 6);
    write_field(dist, 7, dist->f[7] + amount);             /* district ytd */

    c = nurand(w.cust_a, w.cust_c, w.customers);
    if ( uniform(100) < 40 )
    {
        /* By last name: read the customers with that name, take the middle. */
        for ( i = 0; i < 3; i++ )
            v ^= read_rec(&w.cust[(c + i) % w.customers], 4);
        c = (c + 1) % w.customers;
    }
    cust = &w.cust[c];
    v ^= lookup(w.cust, w.customers, c);
    write_field(cust, 1, cust->f[1] - amount);             /* balance */
    write_field(cust, 2, cust->f[2] + amount);             /* ytd payment */
    write_field(cust, 3, cust->f[3] + 1);                  /* payment count */
    alloc_rec(v, crunch(v ^ amount, 48));                  /* history */
    w.sum += v;
}

static void tx_order_status(void)
{
    unsigned long c = nurand(w.cust_a, w.cust_c, w.customers), i;
    uint64_t v = read_rec(&w.cust[c], 8);

    /* The customer's last order and its lines. */
    for ( i = 0; i < 11; i++ )
        v = crunch(v ^ read_rec(recent(uniform(w.nursery / 2)), 4), 6);
    w.sum += v;
}

static void tx_delivery(void)
{
    unsigned long wh = uniform(w.warehouses), d;
    uint64_t v = 0;

    for ( d = 0; d < DISTRICTS; d++ )
    {
        /* The oldest undelivered order of the district: deliver it. */
        struct rec *order = recent(w.nursery / 2 + uniform(w.nursery / 4));
        struct rec *cust = &w.cust[nurand(w.cust_a, w.cust_c, w.customers)];

        v ^= read_rec(district_of(wh, d), 2);
        v ^= read_rec(order, 8);
        write_field(order, 6, 1 + uniform(10));            /* carrier */
        v ^= read_rec(cust, 4);
        write_field(cust, 1, cust->f[1] + (v & 0xfff));    /* balance */
        write_field(cust, 4, cust->f[4] + 1);              /* delivery count */
        v = crunch(v, 8);
    }
    w.sum += v;
}

static void tx_stock_level(void)
{
    unsigned long wh = uniform(w.warehouses), i, low = 0;
    uint64_t threshold = 10 + uniform(11);

    read_rec(district_of(wh, uniform(DISTRICTS)), 2);
    /* The lines of the district's last 20 orders, and their stock. */
    for ( i = 0; i < 20; i++ )
    {
        uint64_t line = read_rec(recent(uniform(200)), 4);
        uint64_t qty = read_rec(stock_of(line % w.items, wh), 2);

        low += (qty & 0x7f) < threshold;
        crunch(qty, 4);
    }
    w.sum += low;
}

/* One framebuffer line (1024 pixels) in a colour of this update. */
static void draw_line(unsigned long line, unsigned long l)
{
    volatile uint64_t *px = (uint64_t *)((BENCH_FB_GFN << PAGE_SHIFT) +
                                         line * BENCH_FB_LINE_BYTES);
    uint64_t colour = crunch(w.fb_count * 256 + l, 1);
    unsigned long i;

    for ( i = 0; i < BENCH_FB_LINE_BYTES / 8; i++ )
        px[i] = colour + i;
}

/* Move n qwords from src down to dst < src (forward, as rep movsq does). */
static void move_down(void *dst, const void *src, unsigned long n)
{
    asm volatile ( "cld; rep movsq" : "+D" (dst), "+S" (src), "+c" (n) :: "memory" );
}

/*
 * A display's worth of drawing.  A desktop: a few lines, moving down the
 * screen.  A text console (fb_scroll): a new text row of fb_lines lines at
 * the bottom, after moving the whole screen up by it, as a console that
 * prints a line does; every line of the framebuffer changes.
 */
static void draw(void)
{
    unsigned long l;

    if ( w.fb_scroll && w.fb_lines < w.fb_pages )
    {
        move_down((void *)(BENCH_FB_GFN << PAGE_SHIFT),
                  (void *)((BENCH_FB_GFN << PAGE_SHIFT) + w.fb_lines * BENCH_FB_LINE_BYTES),
                  (w.fb_pages - w.fb_lines) * BENCH_FB_LINE_BYTES / 8);
        for ( l = 0; l < w.fb_lines; l++ )
            draw_line(w.fb_pages - w.fb_lines + l, l);
    }
    else
        for ( l = 0; l < w.fb_lines; l++ )
        {
            draw_line(w.fb_line, l);
            w.fb_line = (w.fb_line + 1) % w.fb_pages;
        }
    w.fb_count++;
}

/* Lay out the tables and fill them from the seed. */
static int setup(uint64_t seed, unsigned long ws_mib, unsigned long ram_bytes)
{
    unsigned long recs = (ws_mib << 20) / sizeof(struct rec), old, i, j;
    struct rec *r;

    if ( !ws_mib || ws_mib > BENCH_MAX_WS_MIB ||
         (BENCH_WS_GFN << PAGE_SHIFT) + (ws_mib << 20) > ram_bytes )
        return -XEN_EINVAL;

    memset(&w, 0, sizeof(w));
    w.rng = seed * 0x9e3779b97f4a7c15ULL + 0x6a09e667f3bcc909ULL;
    if ( !w.rng )
        w.rng = 1;

    /* A quarter young generation, the rest long-lived tables. */
    w.base = (struct rec *)(BENCH_WS_GFN << PAGE_SHIFT);
    w.nursery = recs / 4;
    old = recs - w.nursery;
    w.warehouses = ws_mib > 2 ? ws_mib / 2 : 1;
    w.districts = w.warehouses * DISTRICTS;
    w.items = old / 4;
    w.stock = (old - w.warehouses - w.districts - w.items) / 2;
    w.customers = old - w.warehouses - w.districts - w.items - w.stock;
    w.wh = w.base;
    w.dist = w.wh + w.warehouses;
    w.item = w.dist + w.districts;
    w.stk = w.item + w.items;
    w.cust = w.stk + w.stock;
    w.nurs = w.cust + w.customers;

    /*
     * NURand's A in TPC-C's proportions (8191 for 100,000 items, 1023 for
     * 3,000 customers); C is fixed per run.
     */
    w.item_a = mask_below(w.items, 12);
    w.cust_a = mask_below(w.customers, 3);
    w.item_c = uniform(w.items);
    w.cust_c = uniform(w.customers);

    for ( i = 0, r = w.base; i < recs; i++, r++ )
    {
        uint64_t x = crunch(seed ^ i, 1);

        for ( j = 0; j < 8; j++ )
            r->f[j] = x + j;
    }
    w.fb_pages = BENCH_FB_PAGES;
    memset((void *)(BENCH_FB_GFN << PAGE_SHIFT), 0, BENCH_FB_MAX_PAGES << PAGE_SHIFT);
    return 0;
}

static void publish(uint64_t tx, const uint64_t *by_type)
{
    unsigned int t;

    ctrl->reads = w.reads;
    ctrl->writes = w.writes;
    ctrl->fb_draws = w.fb_count;
    for ( t = 0; t < 5; t++ )
        ctrl->tx_by_type[t] = by_type[t];
    ctrl->checksum = w.sum;
    ctrl->tx = tx;
}

/* One transaction of TPC-C's mix; returns its type. */
static unsigned int transaction(void)
{
    unsigned long p = uniform(100);
    unsigned int type;

    if ( p < 45 )
        type = TX_NEW_ORDER;
    else if ( p < 88 )
        type = TX_PAYMENT;
    else if ( p < 92 )
        type = TX_ORDER_STATUS;
    else if ( p < 96 )
        type = TX_DELIVERY;
    else
        type = TX_STOCK_LEVEL;

    switch ( type )
    {
    case TX_NEW_ORDER:      tx_new_order(); break;
    case TX_PAYMENT:        tx_payment(); break;
    case TX_ORDER_STATUS:   tx_order_status(); break;
    case TX_DELIVERY:       tx_delivery(); break;
    default:                tx_stock_level(); break;
    }
    return type;
}

/* Run transactions until the control page's command changes (or 'limit'). */
static uint64_t run(uint32_t seq, uint64_t limit)
{
    uint64_t tx = 0, by_type[5] = { 0 };

    while ( ctrl->cmd_seq == seq && tx < limit )
    {
        by_type[transaction()]++;
        tx++;
        if ( w.fb_every && tx % w.fb_every == 0 )
            draw();
        publish(tx, by_type);
    }
    return tx;
}

static unsigned long ram_end(void)
{
    const struct hvm_start_info *si = start_info;
    const struct hvm_memmap_table_entry *map = (const void *)si->memmap_paddr;
    unsigned long end = 0;
    unsigned int i;

    for ( i = 0; i < si->memmap_entries; i++ )
        if ( map[i].type == XEN_HVM_MEMMAP_TYPE_RAM && map[i].addr + map[i].size > end )
            end = map[i].addr + map[i].size;
    return end;
}

static void standalone(unsigned long n, unsigned long ram)
{
    uint64_t t0, t1;
    int rc;

    rc = setup(cmdline_ulong("seed", 1), cmdline_ulong("ws", 8), ram);
    if ( rc )
        return xtf_error("Error: working set does not fit: %d\n", rc);
    w.fb_every = cmdline_ulong("fb_every", 0);
    w.fb_lines = cmdline_ulong("fb_lines", 4);
    ctrl->cmd_seq = 0;
    t0 = rdtsc();
    run(0, n);
    t1 = rdtsc();
    printk("%lu transactions in %lu ticks: %lu ticks each; %lu reads, %lu writes "
           "(%lu%% writes), checksum %#lx\n",
           n, (unsigned long)(t1 - t0), (unsigned long)((t1 - t0) / n),
           (unsigned long)w.reads, (unsigned long)w.writes,
           (unsigned long)(w.writes * 100 / (w.reads + w.writes)),
           (unsigned long)w.sum);
    xtf_success(NULL);
}

void test_main(void)
{
    unsigned long ram, n;
    uint32_t seq = 0;
    uint64_t total = 0;

    if ( !hypercall_page_ready )
        return xtf_skip("Skip: not running under Xen\n");
    ram = ram_end();
    if ( ram < ((BENCH_WS_GFN + 1) << PAGE_SHIFT) )
        return xtf_error("Error: %lu KiB of RAM is too little (mem=)\n", ram >> 10);

    if ( (n = cmdline_ulong("standalone", 0)) )
        return standalone(n, ram);

    memset(ctrl, 0, sizeof(*ctrl));
    ctrl->ram_bytes = ram;
    __atomic_store_n(&ctrl->magic, BENCH_MAGIC, __ATOMIC_RELEASE);
    printk("listening: control page %#lx, framebuffer %#lx, working set from %#lx, "
           "%lu KiB of RAM\n", BENCH_CTRL_GFN << PAGE_SHIFT,
           BENCH_FB_GFN << PAGE_SHIFT, BENCH_WS_GFN << PAGE_SHIFT, ram >> 10);

    for ( ;; )
    {
        uint32_t cmd;

        /* Wait for a command, giving the CPU to the driver meanwhile. */
        while ( (seq = __atomic_load_n(&ctrl->cmd_seq, __ATOMIC_ACQUIRE)) ==
                ctrl->ack_seq )
            hypercall_yield();
        cmd = ctrl->cmd;

        if ( cmd == BENCH_CMD_STOP )
        {
            ctrl->ack_seq = seq;
            break;
        }
        if ( cmd == BENCH_CMD_INIT )
        {
            ctrl->error = setup(ctrl->seed, ctrl->ws_mib, ram);
            w.fb_every = ctrl->fb_every;
            w.fb_lines = ctrl->fb_lines;
            if ( ctrl->fb_pages && ctrl->fb_pages <= BENCH_FB_MAX_PAGES )
                w.fb_pages = ctrl->fb_pages;
            w.fb_scroll = ctrl->fb_scroll;
            ctrl->tx = ctrl->reads = ctrl->writes = ctrl->fb_draws = 0;
            ctrl->ack_seq = seq;
            continue;
        }
        if ( cmd == BENCH_CMD_RUN )
        {
            ctrl->ack_seq = seq;
            total += run(seq, ~0ULL);
            continue;
        }
        ctrl->ack_seq = seq;                /* unknown: ignored */
    }

    printk("stopped after %lu transactions in all\n", (unsigned long)total);
    xtf_success(NULL);
}

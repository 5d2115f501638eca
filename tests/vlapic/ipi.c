/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IPIs across the vCPUs, table-driven (needs vcpus=4):
 *
 * part=ipi: every delivery mode (fixed, lowest priority, SMI, NMI, INIT
 *   and start-up have their own part, the reserved modes 3 and 7) with
 *   every shorthand (none, self, all including self, all excluding self)
 *   and both destination modes, in the flat and cluster logical models
 *   and in x2APIC mode; each case counts, on every vCPU, the interrupts
 *   and NMIs that arrived: exactly the targets the SDM names, once each.
 *   Lowest priority picks one target, the lowest PPR, ties in turn.  A
 *   software-disabled APIC takes NMIs but no fixed interrupts; a
 *   hardware-disabled one takes nothing.
 *
 * part=nmi: NMIs counted on vCPU 0 and on the others: self NMIs through
 *   the ICR (xAPIC and x2APIC), three more sent from inside the NMI
 *   handler (exactly one is delivered after its IRET: one NMI can be
 *   pending, SDM 6.7.1), NMIs with interrupts off, 100 in a row, an NMI
 *   waking a vCPU in HLT and one that went down with CLI; HLT (Xen).
 *
 * part=sipi: INIT and start-up IPIs (needs vcpus=2): vCPU 1 is started
 *   with INIT-SIPI-SIPI in real mode at vector<<12 and climbs to long
 *   mode through a trampoline; a second SIPI is ignored; INIT stops it
 *   (VCPUOP_is_up says 0, it runs no more) and a new SIPI starts it
 *   again at another page, with its APIC back in its INIT state.
 */
#include "vlapic.h"

#define NCPU        4
#define V_FIX       0x90
#define V_CMD       0x91

static volatile unsigned long irqs[NCPU], nmis[NCPU];
static volatile bool x2[NCPU], ready[NCPU];

/* Commands to the other vCPUs. */
enum { CMD_NONE, CMD_FLAT, CMD_CLUSTER, CMD_X2APIC, CMD_TPR, CMD_SWDIS, CMD_SWEN,
       CMD_HWDIS, CMD_HWEN, CMD_HLT, CMD_CLIHLT };
static volatile unsigned int cmd[NCPU], cmd_arg[NCPU], cmd_seq[NCPU], cmd_done[NCPU];

static void eoi(unsigned int id)
{
    if ( x2[id] )
        wrmsr(X2(0xb0), 0);
    else
        REG(0xb0) = 0;
}

static volatile bool nmi_resend;
static volatile unsigned int nmi_resend_n;

static void send_self_nmi(unsigned int id)
{
    if ( x2[id] )
        wrmsr(X2(0x300), 0x40000 | 0x400);
    else
        REG(0x300) = 0x40000 | 0x400;
}

void ipi_irq(unsigned long vec);
void ipi_irq(unsigned long vec)
{
    unsigned int id = smp_processor_id();

    if ( vec == 2 )
    {
        nmis[id]++;
        if ( nmi_resend && id == 0 )
        {
            unsigned int i;

            nmi_resend = false;
            for ( i = 0; i < nmi_resend_n; i++ )
                send_self_nmi(id);
        }
        return;                                 /* no EOI for an NMI */
    }
    if ( vec == V_FIX )
        irqs[id]++;
    eoi(id);
}

#define STUB(name, vec)                                                     \
    void name(void);                                                        \
    asm ( ".globl " #name "\n " #name ":\n"                                 \
          " push %rax; push %rcx; push %rdx; push %rsi; push %rdi\n"         \
          " push %r8; push %r9; push %r10; push %r11\n"                      \
          " mov %rsp, %rax; and $-16, %rsp; push %rax; push %rax\n"          \
          " mov $" #vec ", %edi; cld; call ipi_irq\n"                        \
          " pop %rax; mov %rax, %rsp\n"                                      \
          " pop %r11; pop %r10; pop %r9; pop %r8\n"                          \
          " pop %rdi; pop %rsi; pop %rdx; pop %rcx; pop %rax\n"              \
          " iretq\n" );
STUB(stub_nmi, 2)
STUB(stub_fix, 0x90)
STUB(stub_cmd, 0x91)

static void install(void)
{
    set_intr_gate(2, stub_nmi);
    set_intr_gate(V_FIX, stub_fix);
    set_intr_gate(V_CMD, stub_cmd);
}

static void window(void)
{
    asm volatile ( "sti; nop; nop; cli" ::: "memory" );
}

/* Let every vCPU run a few rounds. */
static void settle(unsigned int rounds)
{
    unsigned int i;

    for ( i = 0; i < rounds; i++ )
    {
        window();
        hypercall_yield();
        window();
    }
}

static void xapic_setup_self(unsigned int id)
{
    REG(0xf0) = 0x1ff;
    REG(0xe0) = 0xffffffff;                    /* flat */
    REG(0xd0) = (1u << id) << 24;
}

static void do_cmd(unsigned int id)
{
    uint64_t base;

    switch ( cmd[id] )
    {
    case CMD_FLAT:
        REG(0xe0) = 0xffffffff;
        REG(0xd0) = (1u << id) << 24;
        break;
    case CMD_CLUSTER:
        REG(0xe0) = 0x0fffffff;
        REG(0xd0) = cmd_arg[id] << 24;
        break;
    case CMD_X2APIC:
        base = rdmsr(MSR_APICBASE);
        wrmsr(MSR_APICBASE, base | 0xc00);
        x2[id] = true;
        wrmsr(X2(0xf0), 0x1ff);
        break;
    case CMD_TPR:
        if ( x2[id] )
            wrmsr(X2(0x80), cmd_arg[id]);
        else
            REG(0x80) = cmd_arg[id];
        break;
    case CMD_SWDIS:
        REG(0xf0) = 0xff;
        break;
    case CMD_SWEN:
        REG(0xf0) = 0x1ff;
        break;
    case CMD_HWDIS:
        base = rdmsr(MSR_APICBASE);
        wrmsr(MSR_APICBASE, base & ~0xc00UL);
        x2[id] = false;
        break;
    case CMD_HWEN:
        base = rdmsr(MSR_APICBASE);
        wrmsr(MSR_APICBASE, (base & ~0xc00UL) | 0x800);
        xapic_setup_self(id);
        break;
    case CMD_HLT:
        cmd_done[id] = cmd_seq[id];
        asm volatile ( "sti; hlt; cli" ::: "memory" );
        return;
    case CMD_CLIHLT:
        cmd_done[id] = cmd_seq[id];
        asm volatile ( "cli; hlt" ::: "memory" );
        return;
    }
    cmd_done[id] = cmd_seq[id];
}

static void ap_loop(unsigned int id)
{
    unsigned int seen = 0;

    ready[id] = true;
    for ( ;; )
    {
        if ( cmd_seq[id] != seen )
        {
            seen = cmd_seq[id];
            do_cmd(id);
        }
        window();
        hypercall_yield();
    }
}

static void ap_main(unsigned int id)
{
    xapic_setup_self(id);
    ap_loop(id);
}

/* Run a command on vCPU id and wait until it is done. */
static void run_cmd(unsigned int id, unsigned int c, unsigned int arg)
{
    unsigned int i;

    cmd[id] = c;
    cmd_arg[id] = arg;
    cmd_seq[id]++;
    for ( i = 0; i < 100000 && cmd_done[id] != cmd_seq[id]; i++ )
        hypercall_yield();
    if ( cmd_done[id] != cmd_seq[id] )
        xtf_error("Error: vCPU %u did not run command %u\n", id, c);
}

static bool start_aps(void)
{
    unsigned int id, spins;

    for ( id = 1; id < NCPU; id++ )
        if ( vcpu_start(id, ap_main) )
        {
            xtf_error("Error: cannot start vCPU %u\n", id);
            return false;
        }
    for ( spins = 0; spins < 100000; spins++ )
    {
        for ( id = 1; id < NCPU && ready[id]; id++ )
            continue;
        if ( id == NCPU )
            return true;
        hypercall_yield();
    }
    xtf_error("Error: the vCPUs did not come up\n");
    return false;
}

static void clear_counts(void)
{
    unsigned int i;

    for ( i = 0; i < NCPU; i++ )
        irqs[i] = nmis[i] = 0;
}

static void send(uint32_t icr, uint32_t dest)
{
    if ( x2[0] )
        wrmsr(X2(0x300), ((uint64_t)dest << 32) | icr);
    else
    {
        REG(0x310) = dest << 24;
        REG(0x300) = icr;
    }
}

/* Each case: which vCPUs take a fixed interrupt, which an NMI (bit n: vCPU n). */
struct icase {
    const char *name;
    uint32_t icr;
    uint32_t dest;
    uint8_t want_irq, want_nmi;
};

#define FIX(v)      (V_FIX | (v))
#define NMI         0x400
#define LOG         0x800
#define SELF        0x40000
#define ALLINC      0x80000
#define ALLBUT      0xc0000

static const struct icase flat_cases[] = {
    { "fixed, physical 0",               FIX(0),         0,    0x1, 0 },
    { "fixed, physical 1",               FIX(0),         1,    0x2, 0 },
    { "fixed, physical 2",               FIX(0),         2,    0x4, 0 },
    { "fixed, physical 3",               FIX(0),         3,    0x8, 0 },
    { "fixed, physical broadcast 0xff",  FIX(0),         0xff, 0xf, 0 },
    { "fixed, physical 9 (nobody)",      FIX(0),         9,    0x0, 0 },
    { "fixed, level, assert, physical 2", FIX(0xc000),   2,    0x4, 0 },
    { "fixed, flat logical 0x02",        FIX(LOG),       0x02, 0x2, 0 },
    { "fixed, flat logical 0x0c",        FIX(LOG),       0x0c, 0xc, 0 },
    { "fixed, flat logical 0xff",        FIX(LOG),       0xff, 0xf, 0 },
    { "fixed, flat logical 0x00",        FIX(LOG),       0x00, 0x0, 0 },
    { "fixed, self (dest ignored)",      FIX(SELF),      2,    0x1, 0 },
    { "fixed, all including self",       FIX(ALLINC),    0,    0xf, 0 },
    { "fixed, all excluding self",       FIX(ALLBUT),    0,    0xe, 0 },
    { "fixed, logical + all excl.",      FIX(ALLBUT | LOG), 0x1, 0xe, 0 },
    { "NMI, physical 2",                 NMI,            2,    0, 0x4 },
    { "NMI, flat logical 0x0a",          NMI | LOG,      0x0a, 0, 0xa },
    { "NMI, self",                       NMI | SELF,     0,    0, 0x1 },
    { "NMI, all including self",         NMI | ALLINC,   0,    0, 0xf },
    { "NMI, all excluding self",         NMI | ALLBUT,   0,    0, 0xe },
    { "NMI, physical broadcast",         NMI,            0xff, 0, 0xf },
    { "SMI, physical 1: ignored",        0x200,          1,    0, 0 },
    { "SMI, all excluding self: ignored", 0x200 | ALLBUT, 0,   0, 0 },
    { "reserved mode 3: ignored",        FIX(0x300),     1,    0, 0 },
    { "reserved mode 7 (ExtINT): ignored", FIX(0x700),   0xff, 0, 0 },
    { "fixed, vector 5: not sent",       0x05,           0xff, 0, 0 },
};

/* Cluster model: vCPUs 0,1 in cluster 0 (bits 0,1), 2,3 in cluster 1 (bits 0,1). */
static const struct icase cluster_cases[] = {
    { "cluster 0 bits 0,1",              FIX(LOG),       0x03, 0x3, 0 },
    { "cluster 1 bit 0",                 FIX(LOG),       0x11, 0x4, 0 },
    { "cluster 1 bits 0,1",              FIX(LOG),       0x13, 0xc, 0 },
    { "cluster 0xf (all clusters) bit 0", FIX(LOG),      0xf1, 0x5, 0 },
    { "0xff broadcast",                  FIX(LOG),       0xff, 0xf, 0 },
    { "cluster 2 (nobody)",              FIX(LOG),       0x21, 0x0, 0 },
    { "NMI, cluster 1 bit 1",            NMI | LOG,      0x12, 0, 0x8 },
};

static const struct icase x2_cases[] = {
    { "x2APIC fixed, physical 2",        FIX(0),         2,          0x4, 0 },
    { "x2APIC fixed, physical 0x100 (nobody)", FIX(0),   0x100,      0x0, 0 },
    { "x2APIC fixed, broadcast",         FIX(0),         0xffffffff, 0xf, 0 },
    { "x2APIC fixed, 0xff is vCPU 255, not a broadcast", FIX(0), 0xff, 0x0, 0 },
    { "x2APIC fixed, logical 0:0x6",     FIX(LOG),       0x00000006, 0x6, 0 },
    { "x2APIC fixed, logical cluster 1 (nobody)", FIX(LOG), 0x00010001, 0x0, 0 },
    { "x2APIC fixed, logical broadcast", FIX(LOG),       0xffffffff, 0xf, 0 },
    { "x2APIC fixed, self",              FIX(SELF),      0,          0x1, 0 },
    { "x2APIC fixed, all excluding self", FIX(ALLBUT),   0,          0xe, 0 },
    { "x2APIC NMI, physical 3",          NMI,            3,          0, 0x8 },
    { "x2APIC NMI, logical 0:0x5",       NMI | LOG,      0x00000005, 0, 0x5 },
};

static void run_cases(const struct icase *c, unsigned int n)
{
    unsigned int i, v;

    for ( i = 0; i < n; i++ )
    {
        bool ok = true;

        clear_counts();
        send(c[i].icr, c[i].dest);
        settle(12);
        for ( v = 0; v < NCPU; v++ )
            ok = ok && irqs[v] == ((c[i].want_irq >> v) & 1) &&
                 nmis[v] == ((c[i].want_nmi >> v) & 1);
        if ( ok )
            printk("  ok   %s\n", c[i].name);
        else
            xtf_failure("Fail: %s: interrupts %lu %lu %lu %lu, NMIs %lu %lu %lu %lu\n",
                        c[i].name, irqs[0], irqs[1], irqs[2], irqs[3],
                        nmis[0], nmis[1], nmis[2], nmis[3]);
    }
}

static void lowest(const char *what, uint8_t set, const unsigned long want[NCPU])
{
    unsigned int k, v;
    bool ok = true;

    clear_counts();
    for ( k = 0; k < 3; k++ )
    {
        send(0x100 | V_FIX | LOG, set);
        settle(8);
    }
    for ( v = 0; v < NCPU; v++ )
        ok = ok && irqs[v] == want[v];
    if ( ok )
        printk("  ok   %s\n", what);
    else
        xtf_failure("Fail: %s: %lu %lu %lu %lu\n", what, irqs[0], irqs[1], irqs[2], irqs[3]);
}

void part_ipi(void)
{
    static const unsigned long rr[NCPU] = { 0, 1, 1, 1 }, low3[NCPU] = { 0, 0, 0, 3 };
    unsigned int v;

    printk("IPIs: delivery modes x shorthands x destinations, %u vCPUs:\n", NCPU);
    install();
    cli();
    xapic_setup_self(0);
    if ( !start_aps() )
        return;

    REG(0x280) = 0;
    run_cases(flat_cases, ARRAY_SIZE(flat_cases));
    check_val("vector 5: ESR send illegal vector", esr_latch(), 0x20);
    lowest("lowest priority, logical 0x0e x3: each in turn", 0x0e, rr);
    run_cmd(1, CMD_TPR, 0x50);
    run_cmd(2, CMD_TPR, 0x50);
    lowest("lowest priority with vCPUs 1, 2 at TPR 0x50: vCPU 3", 0x0e, low3);
    run_cmd(1, CMD_TPR, 0);
    run_cmd(2, CMD_TPR, 0);

    /* A software-disabled APIC takes NMIs, no fixed interrupts. */
    run_cmd(2, CMD_SWDIS, 0);
    {
        static const struct icase c[] = {
            { "software-disabled vCPU 2: no fixed", FIX(ALLINC), 0, 0xb, 0 },
            { "software-disabled vCPU 2: NMI taken", NMI | ALLINC, 0, 0, 0xf },
        };

        run_cases(c, ARRAY_SIZE(c));
    }
    run_cmd(2, CMD_SWEN, 0);
    /* A hardware-disabled one takes nothing. */
    run_cmd(3, CMD_HWDIS, 0);
    {
        static const struct icase c[] = {
            { "hardware-disabled vCPU 3: no fixed", FIX(0), 0xff, 0x7, 0 },
            { "hardware-disabled vCPU 3: no NMI", NMI, 0xff, 0, 0x7 },
        };

        run_cases(c, ARRAY_SIZE(c));
    }
    run_cmd(3, CMD_HWEN, 0);

    /* The cluster model. */
    REG(0xe0) = 0x0fffffff;
    REG(0xd0) = 0x01000000;
    run_cmd(1, CMD_CLUSTER, 0x02);
    run_cmd(2, CMD_CLUSTER, 0x11);
    run_cmd(3, CMD_CLUSTER, 0x12);
    run_cases(cluster_cases, ARRAY_SIZE(cluster_cases));

    /* x2APIC mode, everyone. */
    wrmsr(MSR_APICBASE, rdmsr(MSR_APICBASE) | 0xc00);
    x2[0] = true;
    wrmsr(X2(0xf0), 0x1ff);
    for ( v = 1; v < NCPU; v++ )
        run_cmd(v, CMD_X2APIC, 0);
    run_cases(x2_cases, ARRAY_SIZE(x2_cases));
    clear_counts();
    wrmsr(X2(0x3f0), V_FIX);
    settle(4);
    check_true("x2APIC SELF IPI: vCPU 0 only",
               irqs[0] == 1 && !irqs[1] && !irqs[2] && !irqs[3]);
}

/* ---- NMIs counted ----------------------------------------------------------- */

static bool wait_count(volatile unsigned long *c, unsigned long want)
{
    unsigned int i;

    for ( i = 0; i < 2000 && *c < want; i++ )
        settle(1);
    settle(4);
    return *c == want;
}

void part_nmi(void)
{
    unsigned long i;

    printk("NMIs, counted:\n");
    install();
    cli();
    xapic_setup_self(0);
    if ( !start_aps() )
        return;

    clear_counts();
    send(NMI | SELF, 0);
    check_val("self NMI (shorthand): handler ran once", nmis[0], 1);
    send(NMI, 0);
    check_val("NMI to physical 0 (ourselves), IF=0: once more", nmis[0], 2);

    nmi_resend_n = 3;
    nmi_resend = true;
    send(NMI | SELF, 0);
    settle(2);
    check_val("3 NMIs sent in the handler: exactly 1 more after its IRET", nmis[0], 4);

    for ( i = 0; i < 100; i++ )
        send(NMI | SELF, 0);
    check_val("100 self NMIs, one after the other: 100", nmis[0], 104);

    send(NMI, 1);
    check_true("NMI to vCPU 1: once", wait_count(&nmis[1], 1));
    send(NMI | ALLBUT, 0);
    check_true("NMI to all but self: vCPU 2 once",
               wait_count(&nmis[2], 1) && nmis[3] == 1 && nmis[1] == 2 && nmis[0] == 104);

    run_cmd(2, CMD_HLT, 0);
    settle(4);
    send(NMI, 2);
    check_true("NMI wakes vCPU 2 from STI; HLT", wait_count(&nmis[2], 2));

    run_cmd(3, CMD_CLIHLT, 0);
    settle(4);
    check_val("vCPU 3 after CLI; HLT: down", vcpu_is_up(3), 0);
    send(NMI, 3);
    check_true("NMI wakes vCPU 3 from CLI; HLT (as Xen)", wait_count(&nmis[3], 2));
    check_val("vCPU 3 up again", vcpu_is_up(3), 1);
    run_cmd(3, CMD_TPR, 0);
    check_true("vCPU 3 runs its loop again", cmd_done[3] == cmd_seq[3]);

    wrmsr(MSR_APICBASE, rdmsr(MSR_APICBASE) | 0xc00);
    x2[0] = true;
    wrmsr(X2(0xf0), 0x1ff);
    send(NMI | SELF, 0);
    check_val("x2APIC self NMI: once", nmis[0], 105);
    send(NMI, 1);
    check_true("x2APIC NMI to vCPU 1 (xAPIC mode there): once", wait_count(&nmis[1], 3));
    check_true("nobody else got one", nmis[0] == 105 && nmis[2] == 2 && nmis[3] == 2);
}

/* ---- INIT and start-up ---------------------------------------------------------- */

/*
 * The trampoline, copied to vector << 12: real mode -> 32-bit protected
 * mode -> long mode -> sipi_entry64 (in the image), which loads the stack
 * vCPU 0 prepared and enters the guest library's secondary-vCPU path.
 * vCPU 0 fills the data at its end for the page it is copied to.
 */
extern const uint8_t tramp_start[], tramp_end[], tramp_gdt[], tramp_gdtr[],
    tramp_pm[], tramp_pm_ptr[], tramp_cr3[], tramp_cs[], tramp_magic[], tramp_cr0[];
void sipi_entry64(void);
unsigned long sipi_rsp;

asm ( "  .pushsection .text\n"
      "  .code16\n"
      "  .globl tramp_start\n"
      "tramp_start:\n"
      "  cli\n"
      "  mov %cs, %ax\n"
      "  mov %ax, %ds\n"
      "  mov %ax, (tramp_cs - tramp_start)\n"
      "  movl %cr0, %ebx\n"
      "  movl %ebx, (tramp_cr0 - tramp_start)\n"
      "  movl $0x51b1, (tramp_magic - tramp_start)\n"
      "  movzwl %ax, %ebx\n"
      "  shll $4, %ebx\n"
      "  lgdtl (tramp_gdtr - tramp_start)\n"
      "  movl %cr0, %eax\n"
      "  orl $1, %eax\n"
      "  movl %eax, %cr0\n"
      "  ljmpl *(tramp_pm_ptr - tramp_start)\n"
      "  .code32\n"
      "  .globl tramp_pm\n"
      "tramp_pm:\n"
      "  movl $0x18, %eax\n"
      "  movl %eax, %ds\n"
      "  movl %eax, %es\n"
      "  movl %eax, %ss\n"
      "  movl %cr4, %eax\n"
      "  orl $0x20, %eax\n"
      "  movl %eax, %cr4\n"
      "  movl (tramp_cr3 - tramp_start)(%ebx), %eax\n"
      "  movl %eax, %cr3\n"
      "  movl $0xc0000080, %ecx\n"
      "  rdmsr\n"
      "  orl $0x100, %eax\n"
      "  wrmsr\n"
      "  movl %cr0, %eax\n"
      "  orl $0x80000001, %eax\n"
      "  movl %eax, %cr0\n"
      "  ljmpl *(tramp_lm_ptr - tramp_start)(%ebx)\n"
      "  .p2align 3\n"
      "  .globl tramp_gdt\n"
      "tramp_gdt:\n"
      "  .quad 0, 0x00af9b000000ffff, 0x00cf9b000000ffff, 0x00cf93000000ffff\n"
      "  .globl tramp_gdtr\n"
      "tramp_gdtr:\n"
      "  .word 31\n"
      "  .long 0\n"
      "  .globl tramp_pm_ptr\n"
      "tramp_pm_ptr:\n"
      "  .long 0\n"
      "  .word 0x10\n"
      "tramp_lm_ptr:\n"
      "  .long sipi_entry64\n"
      "  .word 0x08\n"
      "  .globl tramp_cr3\n"
      "tramp_cr3:\n"
      "  .long 0\n"
      "  .globl tramp_cs\n"
      "tramp_cs:\n"
      "  .word 0\n"
      "  .globl tramp_cr0\n"
      "tramp_cr0:\n"
      "  .long 0\n"
      "  .globl tramp_magic\n"
      "tramp_magic:\n"
      "  .long 0\n"
      "  .globl tramp_end\n"
      "tramp_end:\n"
      "  .code64\n"
      "  .globl sipi_entry64\n"
      "sipi_entry64:\n"
      "  movq sipi_rsp(%rip), %rsp\n"
      "  jmp ap_start64\n"
      "  .popsection\n" );

#define TRAMP_OFF(sym)  ((unsigned long)(sym) - (unsigned long)tramp_start)

static void tramp_copy(unsigned int vec)
{
    uint8_t *page = (uint8_t *)((unsigned long)vec << 12);
    unsigned long base = (unsigned long)page;

    memcpy(page, tramp_start, tramp_end - tramp_start);
    *(uint32_t *)(page + TRAMP_OFF(tramp_gdtr) + 2) = base + TRAMP_OFF(tramp_gdt);
    *(uint32_t *)(page + TRAMP_OFF(tramp_pm_ptr)) = base + TRAMP_OFF(tramp_pm);
    *(uint32_t *)(page + TRAMP_OFF(tramp_cr3)) = read_cr3();
}

static uint32_t tramp_read(unsigned int vec, const uint8_t *sym, unsigned int bytes)
{
    const uint8_t *p = (const uint8_t *)((unsigned long)vec << 12) + TRAMP_OFF(sym);

    return bytes == 2 ? *(const volatile uint16_t *)p : *(const volatile uint32_t *)p;
}

static volatile unsigned long sipi_runs, sipi_spins;
static volatile uint32_t sipi_svr, sipi_id;

static void sipi_main(unsigned int id)
{
    sipi_svr = REG(0xf0);
    sipi_id = REG(0x20) >> 24;
    xapic_setup_self(id);
    sipi_runs++;
    for ( ;; )
    {
        sipi_spins++;
        window();
        hypercall_yield();
    }
}

/* As vcpu_start() does: { fn, id } on the vCPU's stack for ap_start64. */
static void sipi_prepare(unsigned int id)
{
    unsigned long *top = (unsigned long *)(cpu_stacks[id] + GUEST_STACK_SIZE);

    top[-2] = (unsigned long)sipi_main;
    top[-1] = id;
    sipi_rsp = (unsigned long)&top[-2];
}

static bool spins_advance(void)
{
    unsigned long s = sipi_spins;

    settle(6);
    return sipi_spins != s;
}

void part_sipi(void)
{
    printk("INIT and start-up IPIs:\n");
    cli();
    xapic_setup_self(0);
    tramp_copy(0x08);
    tramp_copy(0x09);
    tramp_copy(0x0a);
    sipi_prepare(1);

    check_val("vCPU 1 not started", vcpu_is_up(1), 0);
    /* Linux's sequence: INIT assert, INIT de-assert, SIPI, SIPI. */
    send(0xc500, 1);
    send(0x8500, 1);
    check_val("INIT to a vCPU never started: nothing", vcpu_is_up(1), 0);
    send(0x600 | 0x08, 1);
    settle(6);
    check_val("SIPI 0x08: vCPU 1 is up", vcpu_is_up(1), 1);
    check_val("it ran the trampoline at 0x8000", tramp_read(0x08, tramp_magic, 4), 0x51b1);
    check_val("in real mode with CS 0x0800", tramp_read(0x08, tramp_cs, 2), 0x0800);
    check_val("CR0 there: PE and PG clear", tramp_read(0x08, tramp_cr0, 4) & 0x80000001, 0);
    check_val("and reached long mode and C", sipi_runs, 1);
    check_val("its APIC ID", sipi_id, 1);
    check_val("its SVR at start: the reset value", sipi_svr, 0xff);
    check_true("it runs", spins_advance());
    send(0x600 | 0x0a, 1);
    settle(6);
    check_val("a second SIPI to a running vCPU: ignored", tramp_read(0x0a, tramp_magic, 4), 0);
    check_val("(it did not restart)", sipi_runs, 1);

    send(0x4500, 1);
    settle(2);
    check_val("INIT: vCPU 1 down", vcpu_is_up(1), 0);
    check_true("and it runs no more", !spins_advance());
    sipi_prepare(1);
    send(0x600 | 0x09, 1);
    settle(6);
    check_val("SIPI 0x09: up again", vcpu_is_up(1), 1);
    check_val("at 0x9000, CS 0x0900", tramp_read(0x09, tramp_cs, 2), 0x0900);
    check_val("through C again", sipi_runs, 2);
    check_val("its APIC in the INIT state (SVR)", sipi_svr, 0xff);
    check_true("it runs", spins_advance());
    /* INIT level de-assert does nothing to a running vCPU. */
    send(0x8500, 1);
    check_true("INIT de-assert: still running", vcpu_is_up(1) == 1 && spins_advance());
    /* INIT to all but ourselves, then SIPI with the shorthand. */
    send(0x4500 | ALLBUT, 0);
    settle(2);
    check_val("INIT, all excluding self: vCPU 1 down", vcpu_is_up(1), 0);
    sipi_prepare(1);
    *(volatile uint32_t *)(0x8000 + TRAMP_OFF(tramp_magic)) = 0;
    send(0x600 | 0x08 | ALLBUT, 0);
    settle(6);
    check_true("SIPI, all excluding self: vCPU 1 back at 0x8000",
               vcpu_is_up(1) == 1 && tramp_read(0x08, tramp_magic, 4) == 0x51b1 &&
               sipi_runs == 3);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hypervisor's own IDT, GDT task-state segment, and the handling of
 * exceptions and interrupts taken in the hypervisor.  An exception here is
 * a hypervisor bug: it is reported with the registers and is fatal.
 * Interrupts (the local APIC timer) are dispatched to registered handlers.
 */
#include <xen/cpumask.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/smp.h>
#include <xen/string.h>
#include <asm/config.h>
#include <asm/current.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <asm/regs.h>
#include <asm/setup.h>

struct idt_entry {
    uint16_t offset_lo;
    uint16_t selector;
    uint8_t  ist;
    uint8_t  type_attr;
    uint16_t offset_mid;
    uint32_t offset_hi;
    uint32_t zero;
} __attribute__((packed));

struct tss64 {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
} __attribute__((packed));

#define IDT_INTERRUPT_GATE 0x8e
#define TSS_AVAILABLE_64   0x89

static struct idt_entry idt_table[256] __attribute__((aligned(16)));
static irq_handler_t irq_handlers[256];
/* Interrupts taken, by vector, on this CPU (the 'i' debug key). */
static DEFINE_PER_CPU(unsigned long [256], irq_counts);

/*
 * Each CPU has its own TSS, and so its own GDT (the TSS descriptor's busy
 * bit is per GDT entry): CPU 0 uses boot_gdt, every other CPU the copy
 * smpboot.c gives it (per_cpu(gdt_table)).  The IDT is shared.
 */
static DEFINE_PER_CPU_ALIGNED(struct tss64, init_tss);
DEFINE_PER_CPU(uint64_t *, gdt_table);

/* Interrupt handlers running on this CPU (in_irq()). */
DEFINE_PER_CPU(unsigned int, local_irq_count);

extern const unsigned long trap_stubs[];
extern const struct desc_ptr boot_gdt_descr;

static const char *const exception_names[X86_NR_EXCEPTIONS] = {
    [X86_EXC_DE] = "divide error", [X86_EXC_DB] = "debug",
    [X86_EXC_NMI] = "NMI", [X86_EXC_BP] = "breakpoint",
    [4] = "overflow", [5] = "bound", [X86_EXC_UD] = "invalid opcode",
    [X86_EXC_NM] = "device not available", [X86_EXC_DF] = "double fault",
    [X86_EXC_TS] = "invalid TSS", [X86_EXC_NP] = "segment not present",
    [X86_EXC_SS] = "stack fault", [X86_EXC_GP] = "general protection",
    [X86_EXC_PF] = "page fault", [16] = "x87 error",
    [17] = "alignment check", [X86_EXC_MC] = "machine check",
    [19] = "SIMD error", [20] = "virtualisation", [21] = "control protection",
};

void set_irq_handler(unsigned int vector, irq_handler_t fn)
{
    irq_handlers[vector & 0xff] = fn;
}

void dump_irq_counts(void)
{
    unsigned int v, cpu;

    for ( v = X86_NR_EXCEPTIONS; v < ARRAY_SIZE(irq_handlers); v++ )
    {
        unsigned long n = 0;

        for_each_online_cpu ( cpu )
            n += per_cpu(irq_counts, cpu)[v];
        if ( n )
            printk(" vector %#04x: %lu interrupt(s)%s\n", v, n,
                   irq_handlers[v] ? "" : " (no handler)");
    }
}

void show_registers(const struct cpu_user_regs *regs)
{
    printk(XENLOG_ERR "RIP:    %04lx:%016lx RFLAGS: %016lx\n",
           (unsigned long)regs->cs, (unsigned long)regs->rip,
           (unsigned long)regs->rflags);
    printk(XENLOG_ERR "rax: %016lx rbx: %016lx rcx: %016lx\n",
           (unsigned long)regs->rax, (unsigned long)regs->rbx,
           (unsigned long)regs->rcx);
    printk(XENLOG_ERR "rdx: %016lx rsi: %016lx rdi: %016lx\n",
           (unsigned long)regs->rdx, (unsigned long)regs->rsi,
           (unsigned long)regs->rdi);
    printk(XENLOG_ERR "rbp: %016lx rsp: %016lx r8:  %016lx\n",
           (unsigned long)regs->rbp, (unsigned long)regs->rsp,
           (unsigned long)regs->r8);
    printk(XENLOG_ERR "r9:  %016lx r10: %016lx r11: %016lx\n",
           (unsigned long)regs->r9, (unsigned long)regs->r10,
           (unsigned long)regs->r11);
    printk(XENLOG_ERR "r12: %016lx r13: %016lx r14: %016lx\n",
           (unsigned long)regs->r12, (unsigned long)regs->r13,
           (unsigned long)regs->r14);
    printk(XENLOG_ERR "r15: %016lx cr2: %016lx cr3: %016lx\n",
           (unsigned long)regs->r15, read_cr2(), read_cr3());
}

void do_trap(struct cpu_user_regs *regs)
{
    unsigned int vec = regs->entry_vector;

    if ( vec >= X86_NR_EXCEPTIONS )
    {
        this_cpu(irq_counts)[vec & 0xff]++;
        this_cpu(local_irq_count)++;
        if ( irq_handlers[vec] )
            irq_handlers[vec](regs);
        this_cpu(local_irq_count)--;
        if ( !irq_handlers[vec] )
            printk(XENLOG_WARNING "Unexpected interrupt, vector %#x\n", vec);
        return;
    }

    /* smp_send_stop()'s NMI: another CPU panicked. */
    if ( vec == X86_EXC_NMI && smp_stopping() )
        stop_this_cpu();

    printk(XENLOG_ERR "*** Hypervisor exception %u (%s), error code %#x ***\n",
           vec, exception_names[vec] ? exception_names[vec] : "reserved",
           regs->error_code);
    show_registers(regs);
    panic("Fatal exception %u in the hypervisor", vec);
}

static void set_gate(unsigned int vec, unsigned long addr)
{
    struct idt_entry *e = &idt_table[vec];

    e->offset_lo = addr & 0xffff;
    e->selector = __HYPERVISOR_CS;
    e->ist = 0;
    e->type_attr = IDT_INTERRUPT_GATE;
    e->offset_mid = (addr >> 16) & 0xffff;
    e->offset_hi = addr >> 32;
    e->zero = 0;
}

void percpu_traps_init(void)
{
    struct desc_ptr idtr = { sizeof(idt_table) - 1, (unsigned long)idt_table };
    struct desc_ptr gdtr = boot_gdt_descr;
    struct tss64 *tss = &this_cpu(init_tss);
    uint64_t *gdt = this_cpu(gdt_table) ?: boot_gdt;
    unsigned long base = (unsigned long)tss;
    unsigned long limit = sizeof(*tss) - 1;
    unsigned int i;

    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, r15) != UREGS_r15);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rbx) != UREGS_rbx);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, r8) != UREGS_r8);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rax) != UREGS_rax);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rdi) != UREGS_rdi);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, entry_vector) != UREGS_entry_vector);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rip) != UREGS_rip);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rflags) != UREGS_rflags);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, rsp) != UREGS_rsp);
    BUILD_BUG_ON(__builtin_offsetof(struct cpu_user_regs, ss) != UREGS_ss);

    for ( i = 0; i < 256; i++ )
        set_gate(i, trap_stubs[0] + 16 * i);
    lidt(&idtr);

    /* Ring 0 only: no stack switch is taken, but keep rsp0 this CPU's. */
    tss->rsp[0] = (unsigned long)get_cpu_info();
    tss->iomap_base = sizeof(*tss);

    /* 16-byte system descriptor at TSS_SELECTOR. */
    gdt[TSS_SELECTOR / 8] =
        (limit & 0xffff) | ((base & 0xffffff) << 16) |
        ((uint64_t)TSS_AVAILABLE_64 << 40) | (((limit >> 16) & 0xf) << 48) |
        (((base >> 24) & 0xff) << 56);
    gdt[TSS_SELECTOR / 8 + 1] = base >> 32;

    /* Reload the GDT with its 64-bit base, then the task register. */
    gdtr.base = (unsigned long)gdt;
    lgdt(&gdtr);
    ltr(TSS_SELECTOR);
}

unsigned long tss_base(void)
{
    return (unsigned long)&this_cpu(init_tss);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's IDT: an exception at an instruction listed in the exception
 * table (extable.h) resumes at its fixup; any other is unexpected.  It is
 * reported (vector, error code, RIP) and the test ends with ERROR, so a bug
 * in a test does not hang silently.
 */

#include "test.h"
#include "extable.h"

/* Pushed by entry.S, lowest address first. */
struct cpu_regs {
    unsigned long r15, r14, r13, r12, r11, r10, r9, r8;
    unsigned long rbp, rdi, rsi, rdx, rcx, rbx, rax;
    unsigned long vector, error_code;
    unsigned long rip, cs, rflags, rsp, ss;
};

struct idt_entry {
    uint16_t offset0;
    uint16_t selector;
    uint8_t ist;
    uint8_t type_attr;
    uint16_t offset1;
    uint32_t offset2;
    uint32_t reserved;
};

/* Present, DPL 0, 64-bit interrupt gate. */
#define IDT_INTERRUPT_GATE 0x8e

extern const unsigned long exception_stubs[X86_NR_EXCEPTIONS];

/* Exceptions, plus interrupt gates a test installs (set_intr_gate). */
#define IDT_ENTRIES 256

static struct idt_entry idt[IDT_ENTRIES] __aligned(16);
static const struct desc_ptr idt_ptr = {
    .limit = sizeof(idt) - 1,
    .base = (unsigned long)idt,
};

static const char *const exc_names[X86_NR_EXCEPTIONS] = {
    [X86_EXC_DE] = "#DE", [X86_EXC_DB] = "#DB", [X86_EXC_NMI] = "NMI",
    [X86_EXC_BP] = "#BP", [X86_EXC_OF] = "#OF", [X86_EXC_BR] = "#BR",
    [X86_EXC_UD] = "#UD", [X86_EXC_NM] = "#NM", [X86_EXC_DF] = "#DF",
    [X86_EXC_TS] = "#TS", [X86_EXC_NP] = "#NP", [X86_EXC_SS] = "#SS",
    [X86_EXC_GP] = "#GP", [X86_EXC_PF] = "#PF", [X86_EXC_MF] = "#MF",
    [X86_EXC_AC] = "#AC", [X86_EXC_MC] = "#MC", [X86_EXC_XM] = "#XM",
    [X86_EXC_VE] = "#VE", [X86_EXC_CP] = "#CP", [X86_EXC_HV] = "#HV",
    [X86_EXC_VC] = "#VC", [X86_EXC_SX] = "#SX",
};

void set_intr_gate(unsigned int vector, void (*handler)(void))
{
    unsigned long addr = (unsigned long)handler;

    idt[vector & 0xff] = (struct idt_entry){
        .offset0 = addr,
        .selector = GDT_SEL_CS64,
        .type_attr = IDT_INTERRUPT_GATE,
        .offset1 = addr >> 16,
        .offset2 = addr >> 32,
    };
}

void load_idt(void)
{
    lidt(&idt_ptr);
}

void traps_init(void)
{
    unsigned int i;

    for ( i = 0; i < X86_NR_EXCEPTIONS; i++ )
    {
        unsigned long addr = exception_stubs[i];

        idt[i] = (struct idt_entry){
            .offset0 = addr,
            .selector = GDT_SEL_CS64,
            .type_attr = IDT_INTERRUPT_GATE,
            .offset1 = addr >> 16,
            .offset2 = addr >> 32,
        };
    }

    load_idt();
}

void do_exception(struct cpu_regs *regs);
void do_exception(struct cpu_regs *regs)
{
    static atomic_t nesting;
    const char *name = regs->vector < X86_NR_EXCEPTIONS
        ? exc_names[regs->vector] : NULL;

    if ( extable_fixup(&regs->rip, &regs->rdi, regs->vector, regs->error_code) )
        return;

    /* An exception while reporting one: give up on this vCPU's report. */
    if ( atomic_add_return(&nesting, 1) > 1 )
        guest_poweroff(SHUTDOWN_crash);

    printk("******************************\n");
    printk("Unhandled exception %s[%lu] error %#lx at %04lx:%#lx on vCPU %u\n",
           name ? name : "#??", regs->vector, regs->error_code,
           regs->cs, regs->rip, smp_processor_id());
    if ( regs->vector == X86_EXC_PF )
        printk("  cr2 %#lx\n", read_cr2());
    printk("  rax %#lx rbx %#lx rcx %#lx rdx %#lx\n",
           regs->rax, regs->rbx, regs->rcx, regs->rdx);
    printk("  rsi %#lx rdi %#lx rbp %#lx rsp %#lx rflags %#lx\n",
           regs->rsi, regs->rdi, regs->rbp, regs->rsp, regs->rflags);
    printk("******************************\n");

    xtf_error("Error: unhandled exception %s\n", name ? name : "#??");
    xtf_exit();
}

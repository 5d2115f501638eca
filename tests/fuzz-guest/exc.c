/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Port I/O and deliberate exceptions.
 *
 * Port I/O: nothing is emulated for a domU, so every IN must read all
 * ones (zero-extended to 32 bits for IN of 4 bytes, the rest of RAX kept
 * for 1 and 2) and every OUT must be ignored.  Port 0xE9 (the debug
 * console) is never written: it would only litter the log.
 *
 * Exceptions: each is provoked on purpose and must arrive with the vector
 * the architecture gives; VMX instructions, MONITOR/MWAIT must be #UD in
 * a guest; INVD and HLT are known to hang today (classes invd, hlt).
 */
#include "fuzz.h"

static const uint16_t ports[] = {
    0x20, 0x21, 0x40, 0x43, 0x60, 0x64, 0x70, 0x71, 0x80, 0x92, 0xa0, 0xcf8,
    0xcfc, 0xcfe, 0x3f8, 0x3fd, 0x2f8, 0x1f0, 0x1f7, 0x3f6, 0x8900, 0xb000,
    0xe9, 0xfffc, 0xfffe, 0xffff,
};

void fuzz_io(void)
{
    uint16_t port = fuzz_chance(50) ? ports[fuzz_below(ARRAY_SIZE(ports))] : fuzz_rand();
    unsigned int size = 1u << fuzz_below(3);
    unsigned long rax0 = fuzz_rand(), rax = rax0, want, ex = 0;
    bool in = fuzz_chance(50) || port == 0xe9;

    if ( fuzz_enabled(FC_IO_STRING) && fuzz_chance(5) )
    {
        /* Not emulated: the domain is crashed (known). */
        printk("fuzz: outsb to port %#x (class io-string)\n", port);
        asm volatile ( "rep outsb" :: "d" (port), "S" (scratch), "c" (4UL) : "memory" );
        return;
    }

    trace("%s%c port %#x\n", in ? "in" : "out", "?bw?l"[size], port);
    if ( in )
    {
        switch ( size )
        {
        case 1: asm volatile ( "1: inb %%dx, %%al; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+a" (rax), "+D" (ex) : "d" (port) ); break;
        case 2: asm volatile ( "1: inw %%dx, %%ax; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+a" (rax), "+D" (ex) : "d" (port) ); break;
        default: asm volatile ( "1: inl %%dx, %%eax; 2:" _ASM_EXTABLE(1b, 2b)
                                : "+a" (rax), "+D" (ex) : "d" (port) ); break;
        }
    }
    else
    {
        switch ( size )
        {
        case 1: asm volatile ( "1: outb %%al, %%dx; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "a" (rax), "d" (port) ); break;
        case 2: asm volatile ( "1: outw %%ax, %%dx; 2:" _ASM_EXTABLE(1b, 2b)
                               : "+D" (ex) : "a" (rax), "d" (port) ); break;
        default: asm volatile ( "1: outl %%eax, %%dx; 2:" _ASM_EXTABLE(1b, 2b)
                                : "+D" (ex) : "a" (rax), "d" (port) ); break;
        }
    }
    if ( ex )
    {
        count_fault(ex);
        fuzz_fail("%s port %#x size %u: vector %u\n", in ? "in" : "out", port, size,
                  EXINFO_VECTOR(ex));
        return;
    }
    /* Emulated ports answer for themselves: the RTC/CMOS at 0x70-0x71. */
    if ( in && port + size > 0x70 && port < 0x72 )
    {
        if ( size < 4 && (rax & ~((1UL << (size * 8)) - 1)) != (rax0 & ~((1UL << (size * 8)) - 1)) )
            fuzz_fail("in%c from port %#x: the bits above the access changed\n",
                      "?bw?l"[size], port);
        return;
    }
    if ( in )
    {
        want = size == 4 ? 0xffffffffUL : rax0 | ((1UL << (size * 8)) - 1);
        if ( rax != want )
            fuzz_fail("in%c from port %#x: RAX %#lx -> %#lx, expected %#lx\n",
                      "?bw?l"[size], port, rax0, rax, want);
    }
}

/* One instruction expected to raise 'vector' (or nothing, vector -1). */
struct exc_op {
    const char *name;
    int vector;
    void (*fn)(unsigned long *ex);
};

#define EXC_OP(nm, vec, insn)                                           \
static void exc_##nm(unsigned long *ex)                                 \
{                                                                       \
    asm volatile ( "1: " insn "; 2:" _ASM_EXTABLE(1b, 2b)               \
                   : "+D" (*ex) : "a" (scratch), "b" (0UL), "c" (0UL)   \
                   : "rdx", "memory" );                                 \
}
/* A trap reports the address after the instruction. */
#define EXC_TRAP(nm, vec, insn)                                         \
static void exc_##nm(unsigned long *ex)                                 \
{                                                                       \
    asm volatile ( insn "; 2:" _ASM_EXTABLE(2b, 2b)                     \
                   : "+D" (*ex) :: "memory" );                          \
}

EXC_OP(ud2, X86_EXC_UD, "ud2")
EXC_TRAP(int3, X86_EXC_BP, "int3")
EXC_OP(div0, X86_EXC_DE, "xor %%edx, %%edx; 1: divq %%rbx")
EXC_OP(idiv_overflow, X86_EXC_DE,
       "mov $0x8000000000000000, %%rax; cqo; mov $-1, %%rbx; 1: idivq %%rbx")
EXC_OP(noncanonical_read, X86_EXC_GP, "mov $0x8000000000000000, %%rax; 1: mov (%%rax), %%rax")
EXC_OP(unmapped_read, X86_EXC_PF, "mov $0x8000000000, %%rax; 1: mov (%%rax), %%rax")
EXC_OP(into, X86_EXC_UD, ".byte 0xce")                  /* invalid in 64-bit mode */
EXC_OP(vmxon, X86_EXC_UD, "vmxon (%%rax)")
EXC_OP(vmxoff, X86_EXC_UD, "vmxoff")
EXC_OP(vmlaunch, X86_EXC_UD, "vmlaunch")
EXC_OP(vmresume, X86_EXC_UD, "vmresume")
EXC_OP(vmptrld, X86_EXC_UD, "vmptrld (%%rax)")
EXC_OP(vmptrst, X86_EXC_UD, "vmptrst (%%rax)")
EXC_OP(vmclear, X86_EXC_UD, "vmclear (%%rax)")
EXC_OP(vmread, X86_EXC_UD, "vmread %%rbx, %%rcx")
EXC_OP(vmwrite, X86_EXC_UD, "vmwrite %%rbx, %%rcx")
EXC_OP(invept, X86_EXC_UD, "invept (%%rax), %%rbx")
EXC_OP(invvpid, X86_EXC_UD, "invvpid (%%rax), %%rbx")
EXC_OP(monitor, X86_EXC_UD, "monitor")
EXC_OP(mwait, X86_EXC_UD, "mwait")
EXC_OP(xsetbv, X86_EXC_UD, "xsetbv")                    /* CR4.OSXSAVE is clear */
EXC_OP(syscall, X86_EXC_UD, "syscall")                  /* EFER.SCE is clear */
EXC_OP(sysenter, X86_EXC_GP, "sysenter")                /* SYSENTER_CS is 0 */
EXC_OP(dr7_high, X86_EXC_GP, "mov $0xffffffff00000400, %%rbx; 1: mov %%rbx, %%dr7")
EXC_OP(int80, X86_EXC_GP, "int $0x80")                  /* beyond the IDT limit: a fault */
EXC_OP(wbinvd, -1, "wbinvd")
EXC_OP(clts, -1, "clts")
EXC_OP(pause, -1, "pause")
EXC_OP(invd, -1, "invd")
EXC_OP(hlt, -1, "cli; hlt")

static const struct exc_op exc_ops[] = {
#define E(nm, vec) { #nm, vec, exc_##nm }
    E(ud2, X86_EXC_UD), E(int3, X86_EXC_BP), E(div0, X86_EXC_DE),
    E(idiv_overflow, X86_EXC_DE), E(noncanonical_read, X86_EXC_GP),
    E(unmapped_read, X86_EXC_PF), E(into, X86_EXC_UD), E(vmxon, X86_EXC_UD),
    E(vmxoff, X86_EXC_UD), E(vmlaunch, X86_EXC_UD), E(vmresume, X86_EXC_UD),
    E(vmptrld, X86_EXC_UD), E(vmptrst, X86_EXC_UD), E(vmclear, X86_EXC_UD),
    E(vmread, X86_EXC_UD), E(vmwrite, X86_EXC_UD), E(invept, X86_EXC_UD),
    E(invvpid, X86_EXC_UD), E(monitor, X86_EXC_UD), E(mwait, X86_EXC_UD),
    E(xsetbv, X86_EXC_UD), E(syscall, X86_EXC_UD), E(sysenter, X86_EXC_GP),
    E(dr7_high, X86_EXC_GP), E(int80, X86_EXC_GP), E(wbinvd, -1), E(clts, -1),
    E(pause, -1), E(invd, -1), E(hlt, -1),
#undef E
};

/* Load a random selector into DS, ES, FS or GS; then put ours back. */
static void exc_segment(void)
{
    uint16_t sel = fuzz_chance(50) ? fuzz_rand() : (0x20 + fuzz_below(64)) | fuzz_below(8);
    unsigned int r = fuzz_below(4);
    unsigned long ex = 0;
    /* Beyond our 4-entry GDT, or in the (null) LDT: #GP(selector). */
    bool must_gp = (sel & 4) || (sel >> 3) >= 4;

    trace("load selector %#x into segment %u\n", sel, r);
    switch ( r )
    {
    case 0: asm volatile ( "1: mov %w1, %%ds; 2:" _ASM_EXTABLE(1b, 2b) : "+D" (ex) : "r" (sel) ); break;
    case 1: asm volatile ( "1: mov %w1, %%es; 2:" _ASM_EXTABLE(1b, 2b) : "+D" (ex) : "r" (sel) ); break;
    case 2: asm volatile ( "1: mov %w1, %%fs; 2:" _ASM_EXTABLE(1b, 2b) : "+D" (ex) : "r" (sel) ); break;
    default: asm volatile ( "1: mov %w1, %%gs; 2:" _ASM_EXTABLE(1b, 2b) : "+D" (ex) : "r" (sel) ); break;
    }
    asm volatile ( "mov %0, %%ds; mov %0, %%es; mov %0, %%fs; mov %0, %%gs"
                   :: "r" ((unsigned long)GDT_SEL_DS) : "memory" );
    /* Loading FS or GS reloads their bases. */
    wrmsr(0xc0000100, 0);
    wrmsr(0xc0000101, 0);
    if ( ex )
        count_fault(ex);
    if ( must_gp && (!ex || EXINFO_VECTOR(ex) != X86_EXC_GP ||
                     EXINFO_ERROR(ex) != (sel & 0xfffcu)) )
        fuzz_fail("mov %#x to a segment: exinfo %#lx, expected #GP(%#x)\n",
                  sel, ex, sel & 0xfffcu);
    else if ( ex && EXINFO_VECTOR(ex) != X86_EXC_GP )
        fuzz_fail("mov %#x to a segment: vector %u\n", sel, EXINFO_VECTOR(ex));
}

static void exc_cpuid(void)
{
    uint32_t leaf = fuzz_chance(50) ? 0x40000000 + fuzz_below(0x110) : fuzz_rand();
    struct cpuid_leaf l;

    trace("cpuid %#x\n", leaf);
    cpuid_count(leaf, fuzz_rand(), &l);
}

void fuzz_exc(void)
{
    const struct exc_op *op;
    unsigned long ex = 0, cr0 = read_cr0();

    switch ( fuzz_below(8) )
    {
    case 0: return exc_segment();
    case 1: return exc_cpuid();
    }

    op = &exc_ops[fuzz_below(ARRAY_SIZE(exc_ops))];
    if ( (op->fn == exc_invd && !fuzz_enabled(FC_INVD)) ||
         (op->fn == exc_hlt && !fuzz_enabled(FC_HLT)) )
        return;
    if ( op->fn == exc_invd || op->fn == exc_hlt )
        printk("fuzz: %s (class %s)\n", op->name, op->fn == exc_invd ? "invd" : "hlt");
    if ( (op->fn == exc_syscall && (rdmsr(MSR_EFER) & EFER_SCE)) ||
         (op->fn == exc_sysenter && rdmsr(0x174) != 0) )
        return;

    trace("%s\n", op->name);
    op->fn(&ex);
    if ( op->fn == exc_clts )
        asm volatile ( "mov %0, %%cr0" :: "r" (cr0) : "memory" );
    if ( ex )
        count_fault(ex);
    if ( op->vector < 0 ? ex != 0 : !ex || EXINFO_VECTOR(ex) != (unsigned int)op->vector )
        fuzz_fail("%s: %s vector %u, expected %d\n", op->name, ex ? "" : "no fault,",
                  ex ? EXINFO_VECTOR(ex) : 0, op->vector);
}

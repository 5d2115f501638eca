/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt flag and memory ordering (Xen's asm/system.h).
 *
 * local_irq_save(flags) disables interrupts and remembers whether they were
 * on; local_irq_restore(flags) puts them back as they were.  smp_mb() and
 * friends order memory accesses between CPUs: x86 keeps stores in order and
 * loads in order, so only a store followed by a load needs a real fence.
 *
 * The host unit tests cannot touch the interrupt flag: there it is a
 * variable (host_test_irqs_enabled) that the tests set and read.
 */
#ifndef __ASM_X86_SYSTEM_H__
#define __ASM_X86_SYSTEM_H__

#include <xen/compiler.h>
#include <xen/types.h>
#include <asm/x86-defns.h>

#define smp_mb()        asm volatile ( "mfence" ::: "memory" )
#define smp_rmb()       barrier()
#define smp_wmb()       barrier()

#ifdef XEN_HOST_TEST
/*
 * Compiler barriers around each change, as CLI and STI are: a test's
 * fake interrupt (a signal) may come at any instruction, so what the
 * code does with interrupts off must stay between the two stores (and
 * the first must not be dropped as overwritten).
 */
extern __thread bool host_test_irqs_enabled;  /* per thread: per CPU */
static inline void local_irq_disable(void)
{
    barrier();
    host_test_irqs_enabled = false;
    barrier();
}
static inline void local_irq_enable(void)
{
    barrier();
    host_test_irqs_enabled = true;
    barrier();
}
static inline bool local_irq_is_enabled(void) { return host_test_irqs_enabled; }
#define local_irq_save(flags) \
    ({ (flags) = host_test_irqs_enabled ? X86_EFLAGS_IF : 0; local_irq_disable(); })
#define local_irq_restore(flags) \
    ({ barrier(); host_test_irqs_enabled = (flags) & X86_EFLAGS_IF; barrier(); })
#else
static inline void local_irq_disable(void) { asm volatile ( "cli" ::: "memory" ); }
static inline void local_irq_enable(void)  { asm volatile ( "sti" ::: "memory" ); }

static inline unsigned long local_save_flags(void)
{
    unsigned long flags;

    asm volatile ( "pushf; pop %0" : "=rm" (flags) :: "memory" );
    return flags;
}

static inline bool local_irq_is_enabled(void)
{
    return local_save_flags() & X86_EFLAGS_IF;
}

#define local_irq_save(flags) \
    ({ (flags) = local_save_flags(); local_irq_disable(); })
#define local_irq_restore(flags) \
    ({ asm volatile ( "push %0; popf" :: "g" ((unsigned long)(flags)) : "memory", "cc" ); })
#endif

#endif /* __ASM_X86_SYSTEM_H__ */

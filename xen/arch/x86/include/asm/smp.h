/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86 SMP: which CPU has which local APIC, their topology, the boot of the
 * secondary CPUs (smpboot.c) and the IPIs (smp.c).
 */
#ifndef __ASM_X86_SMP_H__
#define __ASM_X86_SMP_H__

#include <xen/cpumask.h>
#include <xen/percpu.h>
#include <xen/types.h>

#define BAD_APICID      0xffffffffu

/* CPU index -> local APIC ID (Xen's x86_cpu_to_apicid). */
extern uint32_t x86_cpu_to_apicid[NR_CPUS];
#define cpu_physical_id(cpu)    x86_cpu_to_apicid[cpu]

/* What CPUID says of a CPU's place (Xen's cpuinfo_x86, in part). */
struct cpuinfo_x86 {
    uint32_t apicid;
    uint32_t phys_proc_id;      /* the package (socket) */
    uint32_t cpu_core_id;       /* the core within the package */
    uint32_t x86_max_cores;     /* cores per package */
    uint32_t x86_num_siblings;  /* threads per core */
};
extern struct cpuinfo_x86 cpu_data[NR_CPUS];
/* CPUs sharing a core, and a package, with cpu (Xen's names). */
DECLARE_PER_CPU(cpumask_t, cpu_sibling_mask);
DECLARE_PER_CPU(cpumask_t, cpu_core_mask);

/* Add a CPU the MADT lists: its CPU index, or -ENOSPC / -EEXIST. */
int mp_register_lapic(uint32_t apic_id, bool enabled);

/* setup.c: read the MADT, decide how many CPUs; then start them. */
void smp_prepare_cpus(void);
void smp_cpus_done(void);
void smp_boot_cpus(void);

/* The lowest page a secondary CPU starts in (real mode), from setup.c. */
extern unsigned long trampoline_phys;

/* setup.c: CR0/CR4 as every CPU runs with them. */
void cpu_init_control_regs(void);

/* Where trampoline.S brings a secondary CPU, on its own stack. */
noreturn void start_secondary(void);

/* Each CPU's idle loop: softirqs, then halt until an interrupt. */
noreturn void idle_loop(void);

/* Counters of the IPIs each CPU took (smp.c, read by the self-test). */
struct ipi_stats {
    unsigned long event_check, call_function, invalidate;
};
DECLARE_PER_CPU(struct ipi_stats, ipi_stats);
/* Times each CPU woke from halting in its idle loop. */
DECLARE_PER_CPU(unsigned long, idle_wakeups);

void smp_intr_init(void);

/* smp_selftest (smp_selftest.c): IPIs, timers and flushes on every CPU. */
void smp_selftest(void);
/* smp_selftest_panic: every other CPU spins with interrupts off, CPU 0 panics. */
noreturn void smp_selftest_panic(void);

#endif /* __ASM_X86_SMP_H__ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hostile-guest fuzzer (tests/fuzz-guest): shared state of its parts.
 * main.c drives the run and keeps the counts, hcall.c makes hypercalls,
 * cpu.c touches MSRs, control registers, ports and provokes exceptions.
 */
#ifndef FUZZ_GUEST_H
#define FUZZ_GUEST_H

#include "test.h"
#include "extable.h"

/* Operation classes, selected with ops= on the guest command line. */
enum fuzz_class {
    FC_HCALL,       /* hypercalls 0..63 and beyond, random sub-ops and args */
    FC_MSR,         /* RDMSR/WRMSR, interesting and random indexes */
    FC_CR,          /* CR0/CR3/CR4/CR8 writes, CLTS, LMSW */
    FC_IO,          /* IN/OUT of every size to random ports */
    FC_EXC,         /* deliberate exceptions, VMX and privileged instructions */
    FC_APIC,        /* xAPIC MMIO, x2APIC MSRs, APIC_BASE, timer storms */
    FC_FIFO,        /* FIFO event channels: init_control, expand_array,
                       set_priority, reset, with events flowing (fifo.c) */
    FC_GNTTAB,      /* our own grant table against a model (gnttab.c) */
#define FC_BASE_NR (FC_GNTTAB + 1)
    /*
     * Each widens what the operations of its base class may do.  The first
     * four once panicked or hung the host and are in the default set now
     * that they are fixed; the last two end this guest by design, so they
     * are off by default (ops=all enables them).
     */
    FC_MSR_BAD,     /* non-canonical LSTAR/CSTAR/KERNEL_GS_BASE/FS/GS_BASE/
                       SYSENTER_EIP/ESP, reserved PAT memory types: #GP */
    FC_CR0_HIGH,    /* CR0 with bits 63:32 set: #GP */
    FC_CR0_PG,      /* clearing CR0.PG in long mode: #GP */
    FC_INVD,        /* INVD: completes */
    FC_HLT,         /* cli; hlt takes the last vCPU down (as in Xen), and
                       SCHEDOP_block waits for an event nobody sends */
    FC_IO_STRING,   /* INS/OUTS: not emulated, the domain is crashed */
    FC_NR
};

extern const char *const fuzz_class_names[FC_NR];
extern unsigned int fuzz_classes;               /* bit per enum fuzz_class */

static inline bool fuzz_enabled(enum fuzz_class c)
{
    return fuzz_classes & (1u << c);
}

/* The seeded generator (splitmix64). */
uint64_t fuzz_rand(void);
static inline uint64_t fuzz_below(uint64_t n)
{
    return n ? fuzz_rand() % n : 0;
}
static inline bool fuzz_chance(unsigned int percent)
{
    return fuzz_below(100) < percent;
}

/*
 * A value for an argument or a structure field: boundary values, small and
 * random numbers, pointers into the scratch area, unmapped, non-RAM,
 * non-canonical and top-of-address-space addresses.  Never an address of
 * this kernel's image (see main.c).
 */
uint64_t fuzz_value(void);
/* A pointer-like value only. */
uint64_t fuzz_pointer(void);
/* Fill the first 'bytes' of the scratch area with fuzz_value()s. */
void fuzz_fill_scratch(unsigned long bytes);

/* The scratch area: the last pages of RAM, below the start-info page. */
extern uint8_t *scratch;
extern unsigned long scratch_size;

#define UNMAPPED_VA     0x8000000000UL          /* beyond the 4 GiB identity map */
#define NOT_RAM_VA      0xc0000000UL            /* mapped, not guest RAM */

/* Trace: print each operation before doing it (trace=1). */
extern bool fuzz_trace;
#define trace(fmt, ...) \
    do { if ( fuzz_trace ) printk(fmt, ##__VA_ARGS__); } while ( 0 )

/* Counting and judging (main.c). */
void count_hcall(long rc);
void count_fault(unsigned long exinfo);
void fuzz_fail(const char *fmt, ...) __printf(1, 2);

/* One random operation of each class. */
void fuzz_hcall(void);
void fuzz_msr(void);
void fuzz_cr(void);
void fuzz_io(void);
void fuzz_exc(void);
void fuzz_apic(void);

/* apic.c: the APIC's MSRs belong to it (fuzz_msr hands them over). */
void fuzz_apic_init(void);
bool fuzz_apic_msr_owned(uint32_t msr);
void fuzz_apic_msr(uint32_t msr);
void fuzz_apic_summary(void);
void fuzz_fifo(void);
/* fifo.c: what the FIFO model must know about other calls, and the end check. */
void fifo_note_reset(void);
void fifo_final_check(void);
void fuzz_gnttab(void);
/* gnttab.c: undo everything, check nothing is left pinned, print its count. */
void fuzz_gnttab_finish(void);
/* Whether a gfn / handle belongs to the gnttab class (hcall.c keeps off them). */
bool gnttab_slot_gfn(unsigned long gfn);
bool gnttab_model_handle(uint32_t handle);

/* cpu.c: the state every operation must leave as it found it. */
void cpu_state_save(void);
void cpu_state_check(const char *after);

#endif /* FUZZ_GUEST_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VM-exit reasons and exit-qualification layouts.
 *
 * The exit reasons are one X-macro list, so that the EXIT_REASON_*
 * constants, their printable names and the per-vCPU exit counters all come
 * from the same place.
 */
#ifndef __ASM_X86_HVM_VMX_VMX_H__
#define __ASM_X86_HVM_VMX_VMX_H__

#include <xen/types.h>

#define VMX_EXIT_REASONS(X)                     \
    X(EXCEPTION_NMI,                  0)        \
    X(EXTERNAL_INTERRUPT,             1)        \
    X(TRIPLE_FAULT,                   2)        \
    X(INIT,                           3)        \
    X(SIPI,                           4)        \
    X(IO_SMI,                         5)        \
    X(OTHER_SMI,                      6)        \
    X(PENDING_VIRT_INTR,              7)        \
    X(PENDING_VIRT_NMI,               8)        \
    X(TASK_SWITCH,                    9)        \
    X(CPUID,                         10)        \
    X(GETSEC,                        11)        \
    X(HLT,                           12)        \
    X(INVD,                          13)        \
    X(INVLPG,                        14)        \
    X(RDPMC,                         15)        \
    X(RDTSC,                         16)        \
    X(RSM,                           17)        \
    X(VMCALL,                        18)        \
    X(VMCLEAR,                       19)        \
    X(VMLAUNCH,                      20)        \
    X(VMPTRLD,                       21)        \
    X(VMPTRST,                       22)        \
    X(VMREAD,                        23)        \
    X(VMRESUME,                      24)        \
    X(VMWRITE,                       25)        \
    X(VMXOFF,                        26)        \
    X(VMXON,                         27)        \
    X(CR_ACCESS,                     28)        \
    X(DR_ACCESS,                     29)        \
    X(IO_INSTRUCTION,                30)        \
    X(MSR_READ,                      31)        \
    X(MSR_WRITE,                     32)        \
    X(INVALID_GUEST_STATE,           33)        \
    X(MSR_LOADING,                   34)        \
    X(MWAIT_INSTRUCTION,             36)        \
    X(MONITOR_TRAP_FLAG,             37)        \
    X(MONITOR_INSTRUCTION,           39)        \
    X(PAUSE_INSTRUCTION,             40)        \
    X(MCE_DURING_VMENTRY,            41)        \
    X(TPR_BELOW_THRESHOLD,           43)        \
    X(APIC_ACCESS,                   44)        \
    X(EOI_INDUCED,                   45)        \
    X(ACCESS_GDTR_OR_IDTR,           46)        \
    X(ACCESS_LDTR_OR_TR,             47)        \
    X(EPT_VIOLATION,                 48)        \
    X(EPT_MISCONFIG,                 49)        \
    X(INVEPT,                        50)        \
    X(RDTSCP,                        51)        \
    X(VMX_PREEMPTION_TIMER_EXPIRED,  52)        \
    X(INVVPID,                       53)        \
    X(WBINVD,                        54)        \
    X(XSETBV,                        55)        \
    X(APIC_WRITE,                    56)        \
    X(RDRAND,                        57)        \
    X(INVPCID,                       58)        \
    X(VMFUNC,                        59)        \
    X(ENCLS,                         60)        \
    X(RDSEED,                        61)        \
    X(PML_FULL,                      62)        \
    X(XSAVES,                        63)        \
    X(XRSTORS,                       64)

enum {
#define X(name, nr) EXIT_REASON_##name = nr,
    VMX_EXIT_REASONS(X)
#undef X
};

#define EXIT_REASON_NR              65
#define VMX_EXIT_REASONS_FAILED_VMENTRY (1u << 31)
#define VMX_EXIT_REASON_BASIC(r)    ((r) & 0xffff)

/* Printable name of an exit reason ("?" if unknown). */
const char *vmx_exit_reason_name(unsigned int reason);

/* Exit qualification: control-register accesses */
#define VMX_CR_ACCESS_NUM(q)        ((q) & 0xf)
#define VMX_CR_ACCESS_TYPE(q)       (((q) >> 4) & 3)
#define  VMX_CR_ACCESS_TYPE_MOV_TO_CR   0
#define  VMX_CR_ACCESS_TYPE_MOV_FROM_CR 1
#define  VMX_CR_ACCESS_TYPE_CLTS        2
#define  VMX_CR_ACCESS_TYPE_LMSW        3
#define VMX_CR_ACCESS_GPR(q)        (((q) >> 8) & 0xf)
#define VMX_CR_ACCESS_LMSW_DATA(q)  (((q) >> 16) & 0xffff)

/* Exit qualification: I/O instructions */
#define VMX_IO_SIZE(q)              (((q) & 7) + 1)
#define VMX_IO_IN                   (1u << 3)
#define VMX_IO_STRING               (1u << 4)
#define VMX_IO_REP                  (1u << 5)
#define VMX_IO_PORT(q)              (((q) >> 16) & 0xffff)

/* Exit qualification: MOV DR (register number, direction, GPR) */
#define VMX_DR_ACCESS_NUM(q)        ((q) & 7)
#define VMX_DR_ACCESS_READ          (1u << 4)   /* MOV from DR */
#define VMX_DR_ACCESS_GPR(q)        (((q) >> 8) & 0xf)

/* VM-exit instruction information for INS/OUTS: the address size. */
#define VMX_INSN_ASIZE(info)        (((info) >> 7) & 7)
#define VMX_INSN_ASIZE_16           0
#define VMX_INSN_ASIZE_32           1
#define VMX_INSN_ASIZE_64           2

/* Exit qualification: EPT violations */
#define EPT_READ_VIOLATION          (1u << 0)
#define EPT_WRITE_VIOLATION         (1u << 1)
#define EPT_EXEC_VIOLATION          (1u << 2)
#define EPT_EFFECTIVE_READ          (1u << 3)
#define EPT_EFFECTIVE_WRITE         (1u << 4)
#define EPT_EFFECTIVE_EXEC          (1u << 5)
#define EPT_GLA_VALID               (1u << 7)
#define EPT_GLA_FAULT               (1u << 8)

/* VMX instruction error numbers we report by name */
#define VMX_INSN_INVALID_CONTROL_STATE  7
#define VMX_INSN_INVALID_HOST_STATE     8

struct cpu_user_regs;
struct vcpu;

/* entry.S: enter the guest; returns 0 after a VM exit, else the RFLAGS of a VMfail. */
unsigned long vmx_enter_guest(struct cpu_user_regs *regs, bool launched);

/* vmx.c */
void vmx_do_resume(struct vcpu *v);
void vmx_dump_exit_counts(const struct vcpu *v);
void vmx_inject_hw_exception(unsigned int vector, int error_code);

/* debugreg.c: the guest's debug registers (lazily switched, see there). */
void vmx_save_dr(struct vcpu *v);           /* v leaves the CPU */
void vmx_restore_dr(struct vcpu *v);        /* before v's entries, VMCS loaded */
void vmx_get_debugregs(struct vcpu *v, unsigned long dr[4], unsigned long *dr6);
void vmx_set_debugregs(struct vcpu *v, const unsigned long dr[4], unsigned long dr6);
void vmx_exit_dr_access(struct vcpu *v, struct cpu_user_regs *regs);
void vmx_exit_debug(struct vcpu *v, struct cpu_user_regs *regs, uint32_t intr_info);
/* After an instruction the hypervisor completed: the single-step trap. */
void vmx_singlestep_done(struct vcpu *v, struct cpu_user_regs *regs);

/* intr.c */
/* Before VM entry: inject the event channel upcall, or ask for a window. */
void vmx_intr_assist(struct vcpu *v, struct cpu_user_regs *regs);
/* After VM exit: re-queue an event whose delivery the exit interrupted. */
void vmx_idtv_reinject(void);

#endif /* __ASM_X86_HVM_VMX_VMX_H__ */

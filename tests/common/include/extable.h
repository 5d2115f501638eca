/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception fixups (XTF's _ASM_EXTABLE): an instruction expected to fault
 * is listed with the address to resume at.  When it faults, the exception
 * handler resumes at the fixup instead of ending the test, and leaves what
 * happened in %rdi (an "exinfo"): bind a variable initialised to 0 to
 * "+D" in the asm and test it afterwards.
 *
 *     unsigned long ex = 0;
 *     asm volatile ( "1: wrmsr; 2:" _ASM_EXTABLE(1b, 2b)
 *                    : "+D" (ex) : "c" (msr), "a" (lo), "d" (hi) );
 *     if ( ex ) ... EXINFO_VECTOR(ex), EXINFO_ERROR(ex) ...
 *
 * Traps (#BP, #OF) report the address after the instruction: list that.
 */
#ifndef GUEST_EXTABLE_H
#define GUEST_EXTABLE_H

#define _ASM_EXTABLE(fault, fixup)              \
    " .pushsection .ex_table, \"a\"\n"          \
    " .p2align 3\n"                             \
    " .quad " #fault ", " #fixup "\n"           \
    " .popsection\n"

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stdint.h>

#define EXINFO_VALID        (1UL << 63)
#define EXINFO(vec, ec)     (EXINFO_VALID | ((unsigned long)(vec) << 32) | (uint32_t)(ec))
#define EXINFO_VECTOR(ex)   ((unsigned int)((ex) >> 32) & 0xff)
#define EXINFO_ERROR(ex)    ((uint32_t)(ex))

/*
 * Called by the exception handler: if *rip is a listed faulting address,
 * move it to the fixup, put the exinfo in *rdi and return true.
 */
bool extable_fixup(unsigned long *rip, unsigned long *rdi,
                   unsigned long vector, unsigned long error_code);

#endif /* !__ASSEMBLY__ */

#endif /* GUEST_EXTABLE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Atomic bit operations on arrays of unsigned long (bit nr of the array).
 * Used on memory shared with guests (the event channel bitmaps), so they
 * are locked read-modify-write instructions; the __ one is not.
 */
#ifndef __ASM_X86_BITOPS_H__
#define __ASM_X86_BITOPS_H__

#include <xen/types.h>

#define BITS_PER_LONG 64

static inline void set_bit(unsigned int nr, volatile unsigned long *addr)
{
    asm volatile ( "lock btsq %1, %0" : "+m" (addr[nr / BITS_PER_LONG])
                   : "Ir" ((unsigned long)(nr % BITS_PER_LONG)) : "memory" );
}

static inline void clear_bit(unsigned int nr, volatile unsigned long *addr)
{
    asm volatile ( "lock btrq %1, %0" : "+m" (addr[nr / BITS_PER_LONG])
                   : "Ir" ((unsigned long)(nr % BITS_PER_LONG)) : "memory" );
}

static inline bool test_and_set_bit(unsigned int nr, volatile unsigned long *addr)
{
    bool old;

    asm volatile ( "lock btsq %2, %1"
                   : "=@ccc" (old), "+m" (addr[nr / BITS_PER_LONG])
                   : "Ir" ((unsigned long)(nr % BITS_PER_LONG)) : "memory" );
    return old;
}

static inline bool test_and_clear_bit(unsigned int nr, volatile unsigned long *addr)
{
    bool old;

    asm volatile ( "lock btrq %2, %1"
                   : "=@ccc" (old), "+m" (addr[nr / BITS_PER_LONG])
                   : "Ir" ((unsigned long)(nr % BITS_PER_LONG)) : "memory" );
    return old;
}

/* Not atomic, as Xen's: for bitmaps whose writers are serialised otherwise. */
static inline bool __test_and_set_bit(unsigned int nr, unsigned long *addr)
{
    bool old;

    asm ( "btsq %2, %1"
          : "=@ccc" (old), "+m" (addr[nr / BITS_PER_LONG])
          : "Ir" ((unsigned long)(nr % BITS_PER_LONG)) );
    return old;
}

static inline bool test_bit(unsigned int nr, const volatile unsigned long *addr)
{
    return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

#endif /* __ASM_X86_BITOPS_H__ */

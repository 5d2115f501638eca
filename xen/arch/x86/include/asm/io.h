/* SPDX-License-Identifier: GPL-2.0-only */
/* Port and memory-mapped I/O accessors. */
#ifndef __ASM_X86_IO_H__
#define __ASM_X86_IO_H__

#include <xen/types.h>

static inline void outb(uint8_t v, uint16_t port)
{
    asm volatile ( "outb %0, %1" :: "a" (v), "Nd" (port) );
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;

    asm volatile ( "inb %1, %0" : "=a" (v) : "Nd" (port) );
    return v;
}

static inline uint32_t readl(const volatile void *addr)
{
    return *(const volatile uint32_t *)addr;
}

static inline void writel(uint32_t v, volatile void *addr)
{
    *(volatile uint32_t *)addr = v;
}

#endif /* __ASM_X86_IO_H__ */

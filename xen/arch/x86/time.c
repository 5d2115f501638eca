/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC calibration against PIT channel 2 (gate through port 0x61), the
 * way PC operating systems do it.  Under Bochs with clock sync=none the
 * TSC advances one tick per instruction and the PIT follows the
 * configured ips, so the result is exact and repeatable.
 */
#include <xen/lib.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/time.h>

#define PIT_CH2             0x42
#define PIT_MODE            0x43
#define PIT_GATE_PORT       0x61
#define PIT_GATE_CH2        0x01
#define PIT_SPEAKER         0x02
#define PIT_OUT2            0x20
#define PIT_HZ              1193182UL
#define CALIBRATE_MS        50

unsigned long cpu_khz;

void calibrate_tsc(void)
{
    unsigned long count = PIT_HZ * CALIBRATE_MS / 1000;
    uint64_t t0, t1;
    uint8_t gate = inb(PIT_GATE_PORT);

    /* Channel 2 gate on, speaker off; mode 0, lobyte/hibyte, binary. */
    outb((gate & ~PIT_SPEAKER) | PIT_GATE_CH2, PIT_GATE_PORT);
    outb(0xb0, PIT_MODE);
    outb(count & 0xff, PIT_CH2);
    outb(count >> 8, PIT_CH2);

    t0 = rdtsc();
    while ( !(inb(PIT_GATE_PORT) & PIT_OUT2) )
        ;
    t1 = rdtsc();
    outb(gate, PIT_GATE_PORT);

    cpu_khz = (t1 - t0) / CALIBRATE_MS;
    if ( !cpu_khz )
        cpu_khz = 1000;
    printk(XENLOG_INFO "Detected %lu.%03lu MHz processor.\n",
           cpu_khz / 1000, cpu_khz % 1000);
}

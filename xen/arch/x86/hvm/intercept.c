/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Port I/O and MMIO emulation (Xen's hvm/intercept.c, trimmed): a small
 * per-domain table of port ranges and their handlers.  A device is one
 * register_portio_handler() call at domain creation and one handler.
 * Ports nobody claims float high on reads and drop writes; so do
 * guest-physical addresses that are neither RAM nor an emulated device
 * (Xen's null handler, hvm_mmio_unclaimed()).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <asm/guest_access.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/acpi.h>
#include <asm/hvm/io.h>
#include <asm/page-bits.h>
#include <asm/x86_emulate.h>
#include <public/sched.h>

int register_portio_handler(struct domain *d, unsigned int port,
                            unsigned int size, portio_action_t action)
{
    struct hvm_domain *hvm = &d->arch.hvm;

    if ( hvm->nr_portio >= MAX_PORTIO_HANDLERS || !size || port + size > 0x10000 )
        return -ENOSPC;
    hvm->portio[hvm->nr_portio].port = port;
    hvm->portio[hvm->nr_portio].size = size;
    hvm->portio[hvm->nr_portio].action = action;
    hvm->nr_portio++;
    return 0;
}

/*
 * Xen's debug port: bytes written to 0xE9 appear on the console as "(dN) ..."
 * lines, the hardware domain's too (Xen's hvm_print_line).
 */
#define XEN_HVM_DEBUG_PORT 0xe9

static void debug_port_io(bool in, unsigned int port, unsigned int bytes,
                          uint32_t *val)
{
    char c = (char)*val;

    if ( in )
        *val = ~0u;
    else
        guest_console_write_lines(current->domain, &c, 1);
}

/*
 * The reset control port the control domain's FADT names as its reset
 * register (hvm/acpi_build.c): "reset the CPU" (bit 2) is the domain asking
 * for a reboot, as QEMU's PIIX reset control is for an HVM guest of Xen.
 * For dom0 the host follows (xen/common/shutdown.c).  Reads give 0.
 */
#define RESET_CONTROL_CPU   0x04

static void reset_control_io(bool in, unsigned int port, unsigned int bytes,
                             uint32_t *val)
{
    if ( in )
        *val = 0;
    else if ( *val & RESET_CONTROL_CPU )
        domain_shutdown(current->domain, SHUTDOWN_reboot);
}

void hvm_portio_init(struct domain *d)
{
    register_portio_handler(d, XEN_HVM_DEBUG_PORT, 1, debug_port_io);
    if ( is_control_domain(d) )
        register_portio_handler(d, ACPI_RESET_PORT, 1, reset_control_io);
    rtc_init(d);
}

void hvm_portio(struct vcpu *v, unsigned int port, unsigned int bytes, bool in,
                unsigned long *val)
{
    const struct hvm_domain *hvm = &v->domain->arch.hvm;
    unsigned long mask = bytes == 4 ? 0xffffffffUL : (1UL << (bytes * 8)) - 1;
    uint32_t data = in ? ~0u : (uint32_t)(*val & mask);
    unsigned int i;

    for ( i = 0; i < hvm->nr_portio; i++ )
    {
        const struct hvm_io_handler *h = &hvm->portio[i];

        if ( port >= h->port && port + bytes <= h->port + h->size )
        {
            h->action(in, port, bytes, &data);
            break;
        }
    }

    if ( !in )
        return;
    /* IN to AL/AX leaves the rest of RAX; IN to EAX zero-extends. */
    if ( bytes == 4 )
        *val = (uint32_t)data;
    else
        *val = (*val & ~mask) | (data & mask);
}

/* ---- MMIO nobody claims ------------------------------------------------- */

/* The access the exit reported; the emulator gives its width. */
struct null_mmio {
    uint64_t gpa;
    bool     crosses;               /* refused: it would run into the next page */
};

static int null_mmio_check(struct null_mmio *m, unsigned int bytes)
{
    if ( (m->gpa & ~PAGE_MASK) + bytes > PAGE_SIZE )
    {
        m->crosses = true;
        return X86EMUL_UNHANDLEABLE;
    }
    return X86EMUL_OKAY;
}

static int null_mmio_read(void *priv, unsigned int bytes, uint64_t *val)
{
    *val = ~0ULL;                   /* the emulator keeps 'bytes' of it */
    return null_mmio_check(priv, bytes);
}

static int null_mmio_write(void *priv, unsigned int bytes, uint64_t val)
{
    return null_mmio_check(priv, bytes);
}

static const struct x86_emulate_ops null_mmio_ops = {
    .read  = null_mmio_read,
    .write = null_mmio_write,
};

int hvm_mmio_unclaimed(struct vcpu *v, struct x86_emulate_ctxt *ctxt,
                       uint64_t gpa, const char **why)
{
    struct hvm_domain *hvm = &v->domain->arch.hvm;
    struct null_mmio m = { .gpa = gpa };
    unsigned long rip = ctxt->regs->rip;
    int rc;

    ctxt->priv = &m;
    rc = x86_emulate(ctxt, &null_mmio_ops);
    if ( rc != X86EMUL_OKAY )
    {
        *why = m.crosses ? "the access crosses into the next page"
                         : "not an instruction the emulator takes";
        return rc;
    }
    hvm->mmio_unclaimed++;
    if ( !hvm->mmio_unclaimed_logged )
    {
        hvm->mmio_unclaimed_logged = true;
        gprintk(XENLOG_WARNING,
                "%u-byte %s at gpa %#lx (rip %#lx): nothing there; reads return all ones, writes are dropped (logged once)\n",
                ctxt->op_bytes,
                ctxt->mem_read && ctxt->mem_write ? "read-modify-write" :
                ctxt->mem_write ? "write" : "read",
                (unsigned long)gpa, rip);
    }
    return X86EMUL_OKAY;
}

long hvm_portio_outs(struct vcpu *v, unsigned int port, unsigned int bytes,
                     unsigned long linear, unsigned long count, bool down)
{
    uint8_t buf[HVM_OUTS_MAX_BYTES];
    unsigned long n = min(count, (unsigned long)(sizeof(buf) / bytes)), i;

    if ( !down )
    {
        if ( raw_copy_from_guest(buf, (const void *)linear, n * bytes) )
            return -EFAULT;
    }
    else
        for ( i = 0; i < n; i++ )       /* element i sits i elements below */
            if ( raw_copy_from_guest(buf + i * bytes,
                                     (const void *)(linear - i * bytes), bytes) )
                return -EFAULT;

    /* The debug port takes the string at once: a console line, not n calls. */
    if ( port == XEN_HVM_DEBUG_PORT && bytes == 1 && !down )
    {
        guest_console_write_lines(v->domain, (const char *)buf, n);
        return n;
    }
    for ( i = 0; i < n; i++ )
    {
        unsigned long val = 0;

        memcpy(&val, buf + i * bytes, bytes);
        hvm_portio(v, port, bytes, false, &val);
    }
    return n;
}

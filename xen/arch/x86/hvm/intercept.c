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
#include <asm/hvm/hvm.h>
#include <asm/hvm/io.h>
#include <asm/page-bits.h>
#include <asm/x86_emulate.h>

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

/* Xen's debug port: bytes written to 0xE9 appear on the console as "(dN) ..." */
#define XEN_HVM_DEBUG_PORT 0xe9

static void debug_port_io(bool in, unsigned int port, unsigned int bytes,
                          uint32_t *val)
{
    char c = (char)*val;

    if ( in )
        *val = ~0u;
    else
        guest_console_write(current->domain, &c, 1);
}

void hvm_portio_init(struct domain *d)
{
    register_portio_handler(d, XEN_HVM_DEBUG_PORT, 1, debug_port_io);
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

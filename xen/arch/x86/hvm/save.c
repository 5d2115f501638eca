/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A domain's HVM context in Xen's save format (public/hvm/save.h): a
 * HEADER record, one CPU record per vCPU, an END record.  This is what
 * XEN_DOMCTL_gethvmcontext returns and XEN_DOMCTL_sethvmcontext loads, and
 * what migration carries.  Other record types (interrupt controllers,
 * timers) do not exist here yet: loading one fails with -EINVAL, as Xen
 * fails on a record it has no handler for.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/version.h>
#include <xen/xmalloc.h>
#include <public/hvm/save.h>
#include <asm/hvm/hvm.h>
#include <asm/hvm/validate.h>
#include <asm/processor.h>
#include <asm/time.h>

#define CONTEXT_MAX_BYTES (64 * 1024)

static uint32_t context_size(const struct domain *d)
{
    return 3 * sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_save_header) +
           d->max_vcpus * (sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_hw_cpu));
}

static int put_record(XEN_GUEST_HANDLE(uint8) to, uint32_t *off, uint32_t room,
                      uint16_t code, uint16_t instance, const void *data,
                      uint32_t len)
{
    struct hvm_save_descriptor desc = { code, instance, len };
    XEN_GUEST_HANDLE(void) buf = guest_handle_cast(to, void);

    if ( *off + sizeof(desc) + len > room )
        return -ENOSPC;
    guest_handle_add_offset(buf, *off);
    if ( copy_to_guest(buf, &desc, 1) )
        return -EFAULT;
    guest_handle_add_offset(buf, sizeof(desc));
    if ( len && copy_to_guest(buf, (const uint8_t *)data, len) )
        return -EFAULT;
    *off += sizeof(desc) + len;
    return 0;
}

int hvm_save_context(struct domain *d, XEN_GUEST_HANDLE(uint8) buf, uint32_t *size)
{
    struct hvm_save_header hdr = {
        .magic = HVM_FILE_MAGIC,
        .version = HVM_FILE_VERSION,
        .changeset = 0,
        .gtsc_khz = cpu_khz,
    };
    struct hvm_hw_cpu *cpu;
    struct cpuid_leaf l;
    uint32_t off = 0, need = context_size(d);
    struct vcpu *v;
    int rc;

    if ( guest_handle_is_null(buf) )
    {
        *size = need;               /* a size query, as in Xen */
        return 0;
    }
    if ( *size < need )
        return -ENOSPC;

    cpuid_count(1, 0, &l);
    hdr.cpuid = l.a;
    rc = put_record(buf, &off, *size, HVM_SAVE_CODE(HEADER), 0, &hdr, sizeof(hdr));

    /* Transient, on the caller's behalf: counted against the caller. */
    cpu = domain_xzalloc(current->domain, struct hvm_hw_cpu);
    if ( !cpu )
        return -ENOMEM;
    for_each_vcpu ( d, v )
    {
        if ( rc )
            break;
        if ( !v->is_initialised )
            continue;               /* Xen saves only initialised vCPUs */
        hvm_funcs->save_cpu(v, cpu);
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(CPU), v->vcpu_id,
                        cpu, sizeof(*cpu));
    }
    xfree(cpu);

    if ( !rc )
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(END), 0, NULL, 0);
    if ( !rc )
        *size = off;
    return rc;
}

/*
 * Walk the records; with 'apply' false only check them, so that a bad
 * context is refused before anything changes.
 */
static int walk_context(struct domain *d, const uint8_t *buf, uint32_t size,
                        bool apply)
{
    uint32_t off = 0;
    bool have_header = false;
    int rc;

    while ( off + sizeof(struct hvm_save_descriptor) <= size )
    {
        struct hvm_save_descriptor desc;
        const void *data;

        memcpy(&desc, buf + off, sizeof(desc));
        off += sizeof(desc);
        data = buf + off;
        if ( desc.length > size - off )
            return -EINVAL;
        off += desc.length;

        if ( desc.typecode == HVM_SAVE_CODE(END) )
            return have_header ? 0 : -EINVAL;

        if ( desc.typecode == HVM_SAVE_CODE(HEADER) )
        {
            struct hvm_save_header hdr;

            if ( desc.length != sizeof(hdr) )
                return -EINVAL;
            memcpy(&hdr, data, sizeof(hdr));
            if ( hdr.magic != HVM_FILE_MAGIC || hdr.version != HVM_FILE_VERSION )
            {
                if ( !apply )
                    printk(XENLOG_G_ERR "d%u: HVM context: bad magic %#x or version %u\n",
                           d->domain_id, hdr.magic, hdr.version);
                return -EINVAL;
            }
            have_header = true;
            continue;
        }
        if ( !have_header )
            return -EINVAL;

        if ( desc.typecode == HVM_SAVE_CODE(CPU) )
        {
            struct hvm_hw_cpu cpu;
            struct vcpu *v;

            if ( desc.length != sizeof(cpu) || desc.instance >= d->max_vcpus ||
                 !(v = d->vcpu[desc.instance]) )
                return -EINVAL;
            memcpy(&cpu, data, sizeof(cpu));
            if ( !apply )
            {
                /* Every field, before any vCPU changes (Xen's hvm_load_cpu_ctxt). */
                if ( (rc = hvm_hw_cpu_check(d, &cpu)) )
                    return rc;
                continue;
            }
            if ( (rc = hvm_funcs->load_cpu(v, &cpu)) )
                return rc;
            /* As in Xen, a loaded vCPU is initialised and up. */
            v->is_initialised = true;
            v->is_up = true;
            v->is_blocked = false;
            continue;
        }

        if ( !apply )
            printk(XENLOG_G_ERR "d%u: HVM context: no handler for record type %u\n",
                   d->domain_id, desc.typecode);
        return -EINVAL;
    }
    return -EINVAL;                 /* no END record */
}

int hvm_load_context(struct domain *d, XEN_GUEST_HANDLE(uint8) from, uint32_t size)
{
    uint8_t *buf;
    int rc;

    if ( size > CONTEXT_MAX_BYTES || size < sizeof(struct hvm_save_descriptor) )
        return -EINVAL;
    /* Transient (at most CONTEXT_MAX_BYTES), counted against the caller. */
    buf = domain_xzalloc_bytes(current->domain, size);
    if ( !buf )
        return -ENOMEM;
    rc = copy_from_guest(buf, from, size) ? -EFAULT : 0;
    if ( !rc )
        rc = walk_context(d, buf, size, false);
    if ( !rc )
        rc = walk_context(d, buf, size, true);
    xfree(buf);
    return rc;
}

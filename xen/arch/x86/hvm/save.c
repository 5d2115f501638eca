/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A domain's HVM context in Xen's save format (public/hvm/save.h): a
 * HEADER record, one CPU record per initialised vCPU, one LAPIC and one
 * LAPIC_REGS record per vCPU (vlapic_save.c), one MTRR record per
 * vCPU (as Xen: libxenguest's PVH builder reads vCPU 0's and loads one
 * per vCPU), an END record.  The MTRR record's PAT is saved as its reset
 * value and, on load, checked and not taken (the PAT lives in the VMCS,
 * out of this file's reach; it is not migrated).  This is what
 * XEN_DOMCTL_gethvmcontext returns and XEN_DOMCTL_sethvmcontext loads, and
 * what migration carries.  Other record types (PIC, IOAPIC, PIT, RTC,
 * HPET: none of them is emulated for these domains) do not exist here: loading one fails with -EINVAL, as Xen
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
#include <asm/hvm/vlapic.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/time.h>

#define CONTEXT_MAX_BYTES (64 * 1024)

static uint32_t context_size(const struct domain *d)
{
    return 3 * sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_save_header) +
           d->max_vcpus * (sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_hw_cpu)) +
           d->max_vcpus * (sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_hw_lapic)) +
           d->max_vcpus * (sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_hw_lapic_regs)) +
           d->max_vcpus * (sizeof(struct hvm_save_descriptor) + sizeof(struct hvm_hw_mtrr));
}

#define PAT_RESET_VALUE 0x0007040600070406ULL
#define MTRR_CAP_VALUE  ((MTRR_VCNT << MTRRcap_VCNT_SHIFT) | MTRRcap_FIX | MTRRcap_WC)

static void save_mtrr(const struct vcpu *v, struct hvm_hw_mtrr *m)
{
    const struct vcpu_msrs *msrs = &v->arch.hvm.msrs;

    memset(m, 0, sizeof(*m));
    m->msr_pat_cr = PAT_RESET_VALUE;
    memcpy(m->msr_mtrr_var, msrs->mtrr_var, sizeof(m->msr_mtrr_var));
    memcpy(m->msr_mtrr_fixed, msrs->mtrr_fixed, sizeof(m->msr_mtrr_fixed));
    m->msr_mtrr_cap = MTRR_CAP_VALUE;
    m->msr_mtrr_def_type = msrs->mtrr_def_type;
}

/* As Xen's hvm_load_mtrr_msr: the same number of ranges, valid values. */
static int check_mtrr(const struct hvm_hw_mtrr *m)
{
    unsigned int i;

    if ( (m->msr_mtrr_cap ^ MTRR_CAP_VALUE) & (0xffu << MTRRcap_VCNT_SHIFT) )
        return -EINVAL;
    for ( i = 0; i < 8; i++ )
    {
        unsigned int t = (m->msr_pat_cr >> (8 * i)) & 0xff;

        if ( t == 2 || t == 3 || t > 7 )
            return -EINVAL;         /* not a PAT memory type */
    }
    if ( !hvm_mtrr_def_type_valid(m->msr_mtrr_def_type) )
        return -EINVAL;
    for ( i = 0; i < NUM_FIXED_MSR; i++ )
        if ( !hvm_mtrr_fixed_valid(m->msr_mtrr_fixed[i]) )
            return -EINVAL;
    for ( i = 0; i < 2 * MTRR_VCNT; i++ )
        if ( !hvm_mtrr_var_valid(!(i & 1), m->msr_mtrr_var[i]) )
            return -EINVAL;
    return 0;
}

static void load_mtrr(struct vcpu *v, const struct hvm_hw_mtrr *m)
{
    struct vcpu_msrs *msrs = &v->arch.hvm.msrs;

    memcpy(msrs->mtrr_var, m->msr_mtrr_var, sizeof(msrs->mtrr_var));
    memcpy(msrs->mtrr_fixed, m->msr_mtrr_fixed, sizeof(msrs->mtrr_fixed));
    msrs->mtrr_def_type = m->msr_mtrr_def_type;
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
    struct hvm_hw_lapic_regs *regs;
    struct hvm_hw_lapic lapic;
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

    /* Xen's order: by type code, CPU (2), LAPIC (5), LAPIC_REGS (6), MTRR (14). */
    regs = domain_xzalloc(current->domain, struct hvm_hw_lapic_regs);
    if ( !regs )
        rc = rc ?: -ENOMEM;
    for_each_vcpu ( d, v )
    {
        if ( rc )
            break;
        vlapic_save(v, &lapic, regs);
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(LAPIC), v->vcpu_id,
                        &lapic, sizeof(lapic));
    }
    for_each_vcpu ( d, v )
    {
        if ( rc )
            break;
        vlapic_save(v, &lapic, regs);
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(LAPIC_REGS), v->vcpu_id,
                        regs, sizeof(*regs));
    }
    xfree(regs);

    for_each_vcpu ( d, v )
    {
        struct hvm_hw_mtrr mtrr;

        if ( rc )
            break;
        save_mtrr(v, &mtrr);
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(MTRR), v->vcpu_id,
                        &mtrr, sizeof(mtrr));
    }

    if ( !rc )
        rc = put_record(buf, &off, *size, HVM_SAVE_CODE(END), 0, NULL, 0);
    if ( !rc )
        *size = off;
    return rc;
}

/* The vCPU a per-vCPU record of 'len' octets is for, or NULL. */
static struct vcpu *record_vcpu(struct domain *d, const struct hvm_save_descriptor *desc,
                                uint32_t len)
{
    if ( desc->length != len || desc->instance >= d->max_vcpus )
        return NULL;
    return d->vcpu[desc->instance];
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

            if ( !(v = record_vcpu(d, &desc, sizeof(cpu))) )
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

        if ( desc.typecode == HVM_SAVE_CODE(LAPIC) )
        {
            struct hvm_hw_lapic h;
            struct vcpu *v;

            if ( !(v = record_vcpu(d, &desc, sizeof(h))) )
                return -EINVAL;
            memcpy(&h, data, sizeof(h));
            if ( !apply )
            {
                if ( (rc = vlapic_check_hidden(v, &h)) )
                {
                    printk(XENLOG_G_ERR "d%u: HVM context: LAPIC of vCPU %u refused "
                           "(APIC base %#lx, disabled %#x, divisor %u)\n", d->domain_id,
                           v->vcpu_id, (unsigned long)h.apic_base_msr, h.disabled,
                           h.timer_divisor);
                    return rc;
                }
                continue;
            }
            vlapic_load_hidden(v, &h);
            continue;
        }

        if ( desc.typecode == HVM_SAVE_CODE(LAPIC_REGS) )
        {
            struct vcpu *v;

            if ( !(v = record_vcpu(d, &desc, sizeof(struct hvm_hw_lapic_regs))) )
                return -EINVAL;
            /* Every value is masked as a guest's write would be: nothing to refuse. */
            if ( apply )
                vlapic_load_regs(v, data);
            continue;
        }

        if ( desc.typecode == HVM_SAVE_CODE(MTRR) )
        {
            struct hvm_hw_mtrr mtrr;
            struct vcpu *v;

            if ( !(v = record_vcpu(d, &desc, sizeof(mtrr))) )
                return -EINVAL;
            memcpy(&mtrr, data, sizeof(mtrr));
            if ( !apply )
            {
                if ( (rc = check_mtrr(&mtrr)) )
                    return rc;
                continue;
            }
            load_mtrr(v, &mtrr);
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

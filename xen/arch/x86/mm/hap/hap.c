/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-dirty mechanisms for HAP (EPT) domains.
 *
 * PML (the default where the CPU has it): tracked pages stay writable with
 * the EPT dirty flag clear; the CPU logs the guest-physical address of the
 * first write to each into the writing vCPU's 512-entry PML buffer, and
 * exits when the buffer is full.  The buffers are enabled only while the
 * domain is tracked, and drained into the bitmap at every PML-full exit
 * and before the bitmap is read.
 *
 * Write protection (pml=0, or no PML in the CPU): tracked pages are
 * read-only; the first write to each is an EPT violation that logs the
 * page and makes it writable again.
 *
 * Either way, re-arming (after CLEAN, or a VRAM read) retypes the pages to
 * p2m_ram_logdirty, which rewrites their EPT entries.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>
#include <asm/paging.h>

static unsigned long ram_pfns(const struct domain *d)
{
    return d->arch.hvm.p2m.max_mapped_pfn + 1;
}

int hap_enable_log_dirty(struct domain *d, bool global)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    int rc;

    ld->pml = hvm_funcs->pml_supported();
    ld->enabled = true;
    ld->global = global;
    ld->vram_begin = ld->vram_nr = 0;

    if ( ld->pml && (rc = hvm_funcs->enable_pml(d)) )
    {
        printk(XENLOG_G_WARNING "d%u: cannot enable PML (%d): using write protection\n",
               d->domain_id, rc);
        ld->pml = false;
    }
    if ( global && (rc = p2m_change_type_range(d, 0, ram_pfns(d), p2m_ram_logdirty)) )
    {
        hap_disable_log_dirty(d);
        ld->enabled = ld->global = false;
        return rc;
    }
    return 0;
}

void hap_disable_log_dirty(struct domain *d)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    if ( ld->pml )
    {
        hvm_funcs->flush_pml(d);
        hvm_funcs->disable_pml(d);
    }
    p2m_change_type_range(d, 0, ram_pfns(d), p2m_ram_rw);
}

void hap_rearm_range(struct domain *d, unsigned long begin, unsigned long nr)
{
    p2m_change_type_range(d, begin, nr, p2m_ram_logdirty);
}

void hap_rearm_range_noflush(struct domain *d, unsigned long begin, unsigned long nr)
{
    p2m_change_type_range_noflush(d, begin, nr, p2m_ram_logdirty);
}

void hap_unarm_range(struct domain *d, unsigned long begin, unsigned long nr)
{
    p2m_change_type_range(d, begin, nr, p2m_ram_rw);
}

void hap_flush_dirty_logs(struct domain *d)
{
    if ( d->arch.paging.log_dirty.enabled && d->arch.paging.log_dirty.pml )
        hvm_funcs->flush_pml(d);
}

bool hap_handle_logdirty_fault(struct vcpu *v, unsigned long gfn)
{
    struct domain *d = v->domain;
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    p2m_type_t t;

    if ( p2m_get_entry(d, gfn, &t) == INVALID_MFN || t != p2m_ram_logdirty )
        return false;

    ld->fault_count++;
    ld->total_faults++;
    v->arch.hvm.wp_faults++;
    paging_mark_dirty(d, gfn, v);
    p2m_relax_after_violation(d, gfn);
    return true;
}

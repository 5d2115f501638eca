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
 *
 * These are registered with paging.c (which owns the bitmap and the
 * shadow_op domctl) as the domain's log-dirty operations, as Xen's
 * hap_domain_init does.  Dirty-VRAM tracking lives here too.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <asm/hvm/hvm.h>
#include <asm/p2m.h>
#include <asm/paging.h>
#include <xen/string.h>

static unsigned long ram_pfns(const struct domain *d)
{
    return d->arch.hvm.p2m.max_mapped_pfn + 1;
}

static void hap_disable_log_dirty(struct domain *d);

static int hap_enable_log_dirty(struct domain *d, bool global)
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

static void hap_disable_log_dirty(struct domain *d)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;

    if ( ld->pml )
    {
        hvm_funcs->flush_pml(d);
        hvm_funcs->disable_pml(d);
    }
    p2m_change_type_range(d, 0, ram_pfns(d), p2m_ram_rw);
}

/* Re-arm [begin, begin + nr); the EPT flush comes with clean_done. */
static void hap_clean_range(struct domain *d, unsigned long begin, unsigned long nr)
{
    p2m_change_type_range_noflush(d, begin, nr, p2m_ram_logdirty);
}

static void hap_clean_done(struct domain *d)
{
    p2m_flush(d);
}

static void hap_flush_dirty_logs(struct domain *d)
{
    if ( d->arch.paging.log_dirty.enabled && d->arch.paging.log_dirty.pml )
        hvm_funcs->flush_pml(d);
}

static const struct log_dirty_ops hap_ops = {
    .enable     = hap_enable_log_dirty,
    .disable    = hap_disable_log_dirty,
    .clean_range = hap_clean_range,
    .clean_done = hap_clean_done,
    .flush      = hap_flush_dirty_logs,
};

void hap_domain_init(struct domain *d)
{
    paging_log_dirty_init(d, &hap_ops);
}

bool hap_handle_logdirty_fault(struct vcpu *v, unsigned long gfn)
{
    struct domain *d = v->domain;
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    p2m_type_t t;
    int rc;

    /*
     * The type, the relaxing and the mark in one hold of the p2m lock (then
     * the paging lock, the order's): a CLEAN re-arms a page only under the
     * p2m lock and only if its bit is set, so it sees either the page still
     * write-protected, or writable with its bit set; never writable with
     * its bit clear, which would lose every later write.  (Xen's
     * hap_track_dirty_vram/ept_handle_violation relax before they mark.)
     */
    p2m_lock(&d->arch.hvm.p2m);
    if ( p2m_get_entry(d, gfn, &t) == INVALID_MFN || t != p2m_ram_logdirty )
    {
        p2m_unlock(&d->arch.hvm.p2m);
        return false;
    }
    /*
     * A 2 MiB leaf is split first: with the domain's paging pool used up
     * (by the domain itself) the page stays write-protected and the write
     * would fault for ever.  As Xen on a p2m failure here: the domain dies.
     */
    rc = p2m_relax_after_violation(d, gfn);
    paging_lock(d);
    ld->fault_count++;
    dirty_domain_count(d, wp_faults);
    dirty_vcpu_count(v, wp_faults);
    paging_mark_dirty(d, gfn, v);
    paging_unlock(d);
    p2m_unlock(&d->arch.hvm.p2m);
    if ( rc )
        domain_crash(d, "d%uv%u: no paging pool page to split gfn %#lx for log-dirty",
                     d->domain_id, v->vcpu_id, gfn);
    return true;
}

/* ---- dirty-VRAM tracking (XEN_DMOP_track_dirty_vram) ------------------------ */

/* Xen's limit: at most 1 GiB of frames per tracked VRAM range. */
#define DIRTY_VRAM_MAX_PFNS (1UL << (30 - PAGE_SHIFT))

int hap_track_dirty_vram(struct domain *d, uint64_t first_pfn, uint32_t nr,
                         XEN_GUEST_HANDLE(void) bitmap, unsigned long bitmap_size)
{
    struct log_dirty_domain *ld = &d->arch.paging.log_dirty;
    unsigned long bytes = DIV_ROUND_UP((unsigned long)nr, 8);
    int rc;

    if ( d == current->domain )
        return -EINVAL;

    if ( !nr )
    {
        /* Stop VRAM tracking; global log-dirty (if on) carries on. */
        if ( ld->enabled && !ld->global )
            paging_log_dirty_disable(d);
        else if ( ld->enabled )
            ld->vram_begin = ld->vram_nr = 0;
        return 0;
    }

    /* Overflow-safe: first_pfn + nr must not wrap past 2^64. */
    if ( nr > DIRTY_VRAM_MAX_PFNS || nr > ram_pfns(d) ||
         first_pfn > ram_pfns(d) - nr || bitmap_size < bytes )
        return -EINVAL;
    if ( !guest_handle_okay(bitmap, bytes) )
        return -EFAULT;

    dirty_domain_count(d, vram_calls);
    if ( !ld->enabled )
    {
        rc = paging_log_dirty_enable(d, false);
        if ( rc )
            return rc;
    }

    if ( first_pfn != ld->vram_begin || nr != ld->vram_nr )
    {
        /* A new range: everything in it counts as dirty. */
        static const uint8_t ones[PAGE_SIZE] = { [0 ... PAGE_SIZE - 1] = 0xff };
        unsigned long done = 0;

        hap_flush_dirty_logs(d);
        if ( !ld->global && ld->vram_nr )
            p2m_change_type_range(d, ld->vram_begin, ld->vram_nr, p2m_ram_rw);
        ld->vram_begin = first_pfn;
        ld->vram_nr = nr;
        /* Drop stale bits of the new range, then track it afresh. */
        rc = paging_log_dirty_range(d, first_pfn, nr, bitmap, false);
        if ( rc )
            return rc;
        while ( done < bytes )
        {
            unsigned long n = min(bytes - done, (unsigned long)PAGE_SIZE);

            if ( copy_to_guest_offset(bitmap, done, ones, n) )
                return -EFAULT;
            done += n;
        }
        p2m_change_type_range(d, first_pfn, nr, p2m_ram_logdirty);
        return 0;
    }

    /* The same range again: what was written since the last call. */
    return paging_log_dirty_range(d, first_pfn, nr, bitmap, true);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls with random numbers, sub-ops and arguments.  What a result
 * must be:
 *   - a success (>= 0) or one of Xen's error numbers, always;
 *   - -ENOSYS for a number the hypervisor does not implement;
 *   - -EPERM for domctl, sysctl and dm_op from a domU;
 *   - a failure for what only the control domain may do (foreign
 *     mapping, remote shutdown, reading the console or the command line).
 *
 * Left out, because they would stop this guest legitimately:
 *   - SCHEDOP_shutdown with a readable argument (it is made with a bad
 *     pointer only: -EFAULT);
 *   - VCPUOP_down on our only vCPU;
 *   - SCHEDOP_block and SCHEDOP_poll: nothing would ever wake us (class
 *     hlt); SCHEDOP_watchdog: it would shut us down, as Xen's does;
 *   - calls that make the hypervisor write where the guest says
 *     (VCPUOP_register_vcpu_info / runstate / vcpu_time area,
 *     XENMEM_add_to_physmap of shared_info over a guest frame): a random
 *     place is our own image, which we would corrupt ourselves; and
 *     calls that give our memory back or take more (decrease/increase
 *     reservation, populate): class mem (mem.c) makes those, in a window
 *     of its own, against a model;
 *   - HVMOP_set_evtchn_upcall_vector and HVM_PARAM_CALLBACK_IRQ: an
 *     upcall on a vector with no IDT gate is our own #NP;
 *   - EVTCHNOP_init_control and expand_array with a readable argument
 *     (class fifo makes them, with gfns that are scratch pages or not RAM).
 * The hypervisor's checks of those are tested in tests/shared-info and
 * tests/evtchn-*.
 *
 * grant_table_op goes with random arguments too, but its operation array
 * is always in the scratch area (or a bad pointer), and kept off what the
 * gnttab class models (see sanitize_gnttab); XENMEM_remove_from_physmap
 * never names our grant-table frames.
 */
#include "fuzz.h"
#include "events.h"
#include "gnttab.h"
#include "public/memory.h"
#include "public/hvm/hvm_op.h"
#include "public/hvm/params.h"
#include "public/event_channel.h"

/* Xen's internal continuation of EVTCHNOP_reset (public header: __XEN__ only). */
#define EVTCHNOP_RESET_CONT 14

/* Implemented numbers, and the sub-ops worth aiming at. */
static const unsigned int implemented[] = {
    __HYPERVISOR_memory_op, __HYPERVISOR_xen_version, __HYPERVISOR_console_io,
    __HYPERVISOR_sched_op, __HYPERVISOR_vcpu_op, __HYPERVISOR_sysctl,
    __HYPERVISOR_domctl, __HYPERVISOR_dm_op, __HYPERVISOR_event_channel_op,
    __HYPERVISOR_hvm_op, __HYPERVISOR_vm_assist, __HYPERVISOR_platform_op,
    __HYPERVISOR_grant_table_op, __HYPERVISOR_multicall,
};

/* A structure argument we can look into: inside the scratch area. */
static void *in_scratch(unsigned long p, unsigned long size)
{
    unsigned long s = (unsigned long)scratch;

    return p >= s && p - s <= scratch_size - size ? (void *)p : NULL;
}

static bool is_implemented(unsigned long nr)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(implemented); i++ )
        if ( nr == implemented[i] )
            return true;
    return false;
}

static unsigned long pick_nr(void)
{
    static const unsigned long beyond[] = {
        64, 100, 127, 128, 255, 256, 1000, 0x7fffffff, 0xffffffff,
        0x100000000UL + __HYPERVISOR_xen_version, ~0UL,
    };

    switch ( fuzz_below(10) )
    {
    case 0: case 1: case 2: case 3:
        return fuzz_below(64);
    case 4:
        return beyond[fuzz_below(ARRAY_SIZE(beyond))];
    default:
        return implemented[fuzz_below(ARRAY_SIZE(implemented))];
    }
}

static unsigned long pick_subop(void)
{
    switch ( fuzz_below(4) )
    {
    case 0: case 1: return fuzz_below(16);
    case 2:         return fuzz_below(32);
    default:        return fuzz_value();
    }
}

/* A pointer the hypervisor cannot read: for calls that must not succeed. */
static unsigned long bad_pointer(void)
{
    static const unsigned long bad[] = {
        UNMAPPED_VA, NOT_RAM_VA, 0x0000800000000000UL, 0x8000000000000000UL,
        0xfffffffffffff000UL, ~0UL,
    };

    return bad[fuzz_below(ARRAY_SIZE(bad))];
}

/*
 * A random grant_table_op, kept off the gnttab class's model: the array
 * lies in the scratch area and the count stays inside it; no version
 * switch or swap (they would rewrite the model's entries: query_size
 * instead); no map of our own grants (DOMID_SELF: bad_domain); no unmap
 * at the model's gfns; no copy into our memory (a scratch page instead)
 * or into our grants (a domain that does not exist).
 */
static void sanitize_gnttab(unsigned long a[5])
{
    static const unsigned int sizes[] = {
        [GNTTABOP_map_grant_ref] = sizeof(struct gnttab_map_grant_ref),
        [GNTTABOP_unmap_grant_ref] = sizeof(struct gnttab_unmap_grant_ref),
        [GNTTABOP_setup_table] = sizeof(struct gnttab_setup_table),
        [GNTTABOP_transfer] = sizeof(struct gnttab_transfer),
        [GNTTABOP_copy] = sizeof(struct gnttab_copy),
        [GNTTABOP_query_size] = sizeof(struct gnttab_query_size),
        [GNTTABOP_unmap_and_replace] = sizeof(struct gnttab_unmap_and_replace),
        [GNTTABOP_set_version] = sizeof(struct gnttab_set_version),
        [GNTTABOP_get_status_frames] = sizeof(struct gnttab_get_status_frames),
        [GNTTABOP_get_version] = sizeof(struct gnttab_get_version),
        [GNTTABOP_swap_grant_ref] = sizeof(struct gnttab_swap_grant_ref),
        [GNTTABOP_cache_flush] = sizeof(struct gnttab_cache_flush),
    };
    unsigned int cmd = a[0] & 0xfff, size, fit, i;
    domid_t self = cpuid_domid();

    if ( cmd == GNTTABOP_set_version || cmd == GNTTABOP_swap_grant_ref )
        a[0] = cmd = GNTTABOP_query_size;
    size = cmd < ARRAY_SIZE(sizes) && sizes[cmd] ? sizes[cmd] : 8;
    if ( !in_scratch(a[1], size) )
    {
        a[1] = bad_pointer();
        return;
    }
    fit = ((unsigned long)scratch + scratch_size - a[1]) / size;
    if ( (int)a[2] >= 0 && (unsigned int)a[2] > fit )
        a[2] = fit;
    for ( i = 0; i < fit && i < (unsigned int)a[2]; i++ )
    {
        void *e = (char *)a[1] + i * size;

        switch ( cmd )
        {
        case GNTTABOP_map_grant_ref:
        {
            struct gnttab_map_grant_ref *m = e;

            if ( m->dom == self )
                m->dom = DOMID_SELF;
            break;
        }
        case GNTTABOP_unmap_grant_ref:
        case GNTTABOP_unmap_and_replace:
        {
            uint64_t *host_addr = e;        /* first in both */

            if ( gnttab_slot_gfn(*host_addr >> PAGE_SHIFT) )
                *host_addr |= 1UL << 40;
            break;
        }
        case GNTTABOP_copy:
        {
            struct gnttab_copy *c = e;

            if ( !(c->flags & GNTCOPY_dest_gref) )
                c->dest.u.gmfn = ((unsigned long)scratch >> PAGE_SHIFT) +
                                 fuzz_below(scratch_size >> PAGE_SHIFT);
            else if ( c->dest.domid == self || c->dest.domid == DOMID_SELF )
                c->dest.domid = 0x7000;
            break;
        }
        }
    }
}

static long call(unsigned long nr, const unsigned long a[5])
{
    /* Through the page where it has a stub, else a VMCALL of our own. */
    if ( nr < PAGE_SIZE / HYPERCALL_STUB_SIZE && fuzz_chance(80) )
        return hypercall6(nr, a[0], a[1], a[2], a[3], a[4]);
    return hypercall_vmcall(nr, a[0], a[1], a[2], a[3], a[4]);
}

void fuzz_hcall(void)
{
    unsigned long nr = pick_nr(), a[5];
    unsigned int i;
    long rc;

    for ( i = 0; i < 5; i++ )
        a[i] = fuzz_value();
    if ( is_implemented(nr) && fuzz_chance(80) )
        a[0] = pick_subop();
    fuzz_fill_scratch(fuzz_chance(10) ? scratch_size : 512);

    switch ( nr )
    {
    case __HYPERVISOR_multicall:
        /*
         * Random entries would make unsanitised calls (a shutdown, say):
         * a bad list, or entries of zeros (op 0, which is -ENOSYS each).
         */
        if ( fuzz_chance(50) )
            a[0] = bad_pointer();
        else
        {
            a[1] = fuzz_below(8);
            memset(scratch, 0, a[1] * sizeof(multicall_entry_t));
            a[0] = (unsigned long)scratch;
        }
        break;
    case __HYPERVISOR_sched_op:
        if ( (int)a[0] == SCHEDOP_shutdown )
            a[1] = bad_pointer();
        if ( ((int)a[0] == SCHEDOP_block || (int)a[0] == SCHEDOP_poll) &&
             !fuzz_enabled(FC_HLT) )
            a[0] = SCHEDOP_yield;
        if ( (int)a[0] == SCHEDOP_watchdog )
            a[0] = SCHEDOP_yield;
        if ( (int)a[0] == SCHEDOP_block )
            printk("fuzz: SCHEDOP_block (class hlt): nothing will wake us\n");
        break;
    case __HYPERVISOR_vcpu_op:
        if ( fuzz_chance(50) )
            a[1] = fuzz_below(3);
        if ( ((int)a[0] == VCPUOP_down && (unsigned int)a[1] == 0) ||
             (int)a[0] == VCPUOP_register_vcpu_info ||
             (int)a[0] == VCPUOP_register_runstate_memory_area ||
             (int)a[0] == VCPUOP_register_vcpu_time_memory_area )
            a[0] = VCPUOP_is_up;
        break;
    case __HYPERVISOR_memory_op:
        /*
         * What changes our own memory is class mem's (mem.c), which keeps
         * a model of it; here only with a pointer the hypervisor cannot
         * read.  The hypervisor looks at cmd's low 6 bits (the rest is a
         * continuation's start extent).
         */
        switch ( a[0] & 0x3f )
        {
        case XENMEM_increase_reservation:
        case XENMEM_decrease_reservation:
        case XENMEM_populate_physmap:
        case XENMEM_add_to_physmap:
            a[1] = bad_pointer();
            break;
        }
        if ( a[0] == XENMEM_remove_from_physmap )
        {
            struct xen_remove_from_physmap *r = in_scratch(a[1], sizeof(*r));

            /* Not our grant-table frames (the gnttab class reads them). */
            if ( !r )
                a[1] = bad_pointer();
            else if ( (r->gpfn >= GNT_TABLE_GFN && r->gpfn < GNT_TABLE_GFN + 64) ||
                      (r->gpfn >= GNT_STATUS_GFN && r->gpfn < GNT_STATUS_GFN + 8) )
                r->gpfn |= 1UL << 40;
        }
        break;
    case __HYPERVISOR_grant_table_op:
        sanitize_gnttab(a);
        break;
    case __HYPERVISOR_event_channel_op:
        /* Registering FIFO frames is class fifo's, with gfns it chooses (fifo.c). */
        if ( (int)a[0] == EVTCHNOP_init_control || (int)a[0] == EVTCHNOP_expand_array )
            a[1] = bad_pointer();
        break;
    case __HYPERVISOR_hvm_op:
    {
        struct xen_hvm_param *p = in_scratch(a[1], sizeof(*p));

        if ( a[0] == HVMOP_set_evtchn_upcall_vector )
            a[0] = HVMOP_get_param;
        else if ( a[0] == HVMOP_set_param && !p )
            a[0] = HVMOP_get_param;
        else if ( a[0] == HVMOP_set_param && p->index == HVM_PARAM_CALLBACK_IRQ )
            p->value = 0;
        break;
    }
    case __HYPERVISOR_console_io:
        /*
         * Zeros are dropped by the console: exercise the copy, keep the
         * log.  Only from the scratch area (zeros up to the end of RAM) or
         * a bad pointer: from elsewhere it would print our own image,
         * "Test result" strings included.
         */
        if ( (unsigned int)a[0] == CONSOLEIO_write )
        {
            memset(scratch, 0, scratch_size);
            a[2] = fuzz_chance(50) ? (unsigned long)scratch + fuzz_below(scratch_size)
                                   : bad_pointer();
        }
        break;
    case __HYPERVISOR_dm_op:
    case __HYPERVISOR_domctl:
    case __HYPERVISOR_sysctl:
        if ( fuzz_chance(50) )
            a[0] = (unsigned long)scratch;
        break;
    }

    trace("hcall %lu (%#lx, %#lx, %#lx, %#lx, %#lx)\n", nr, a[0], a[1], a[2], a[3], a[4]);
    rc = call(nr, a);
    count_hcall(rc);

    if ( !is_implemented(nr) && rc != -XEN_ENOSYS )
        fuzz_fail("hypercall %lu is not implemented, returned %ld, not -ENOSYS\n", nr, rc);

    switch ( nr )
    {
    case __HYPERVISOR_dm_op:
    case __HYPERVISOR_domctl:
    case __HYPERVISOR_sysctl:
        if ( rc != -XEN_EPERM )
            fuzz_fail("control hypercall %lu from a domU returned %ld, not -EPERM "
                      "(args %#lx %#lx %#lx)\n", nr, rc, a[0], a[1], a[2]);
        break;
    case __HYPERVISOR_memory_op:
        if ( a[0] == XENMEM_add_to_physmap_batch && rc >= 0 )
            fuzz_fail("a domU made a foreign mapping (rc %ld)\n", rc);
        if ( a[0] == XENMEM_acquire_resource && rc >= 0 )
            fuzz_fail("a domU acquired a resource (rc %ld)\n", rc);
        break;
    case __HYPERVISOR_grant_table_op:
        /* 0 or an error: a batch's progress is never a result. */
        if ( rc > 0 )
            fuzz_fail("grant_table_op %#lx returned %ld\n", a[0], rc);
        break;
    case __HYPERVISOR_sched_op:
        if ( (int)a[0] == SCHEDOP_remote_shutdown && rc >= 0 )
            fuzz_fail("a domU shut a domain down remotely (rc %ld)\n", rc);
        break;
    case __HYPERVISOR_console_io:
        if ( (unsigned int)a[0] == CONSOLEIO_read && rc >= 0 )
            fuzz_fail("a domU read the console (rc %ld)\n", rc);
        break;
    case __HYPERVISOR_xen_version:
        if ( (int)a[0] == XENVER_commandline && rc >= 0 )
            fuzz_fail("a domU read the hypervisor command line (rc %ld)\n", rc);
        break;
    case __HYPERVISOR_event_channel_op:
        if ( ((int)a[0] == EVTCHNOP_reset || (int)a[0] == EVTCHNOP_RESET_CONT) && rc == 0 )
            fifo_note_reset();      /* a random reset of ourselves: back to 2-level */
        if ( ((int)a[0] == EVTCHNOP_init_control || (int)a[0] == EVTCHNOP_expand_array) &&
             rc != -XEN_EFAULT )
            fuzz_fail("event_channel_op %d with an unreadable argument returned %ld\n",
                      (int)a[0], rc);
        break;
    }
}

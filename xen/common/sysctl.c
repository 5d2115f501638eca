/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_SYSCTL_*: system-wide operations for the control domain (anyone
 * else: -EPERM; a different interface version: -EACCES).  Commands not
 * known here go to arch_do_sysctl() (arch/x86/sysctl.c); *copyback lets
 * it return the arguments with an error (-ENOBUFS and the sizes).
 */
#include <xen/console.h>
#include <xen/errno.h>
#include <xen/grant_table.h>
#include <xen/guest_access.h>
#include <xen/hypercall.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/sysctl.h>
#include <asm/config.h>
#include <asm/smp.h>
#include <asm/time.h>

static int readconsole(struct xen_sysctl_readconsole *rc)
{
    char chunk[256];
    size_t pos = rc->incremental ? rc->index : 0;
    uint32_t done = 0;

    while ( done < rc->count )
    {
        size_t n = console_ring_read(chunk, min_t(size_t, sizeof(chunk), rc->count - done),
                                     &pos);

        if ( !n )
            break;
        if ( copy_to_guest_offset(rc->buffer, done, chunk, n) )
            return -EFAULT;
        done += n;
    }
    if ( rc->clear )
        console_ring_clear();
    rc->index = pos;
    rc->count = done;
    return 0;
}

static void physinfo(struct xen_sysctl_physinfo *pi)
{
    memset(pi, 0, sizeof(*pi));
    /* As Xen: the boot CPU's siblings and package, the online CPUs, one node. */
    pi->threads_per_core = cpumask_weight(&per_cpu(cpu_sibling_mask, 0));
    pi->cores_per_socket = cpumask_weight(&per_cpu(cpu_core_mask, 0)) / pi->threads_per_core;
    pi->nr_cpus = num_online_cpus();
    pi->max_cpu_id = nr_cpu_ids - 1;
    pi->nr_nodes = 1;
    pi->max_node_id = 0;
    pi->cpu_khz = cpu_khz;
    pi->capabilities = XEN_SYSCTL_PHYSCAP_hvm | XEN_SYSCTL_PHYSCAP_hap |
                       XEN_SYSCTL_PHYSCAP_gnttab_v1 |
                       (opt_gnttab_max_version >= 2 ? XEN_SYSCTL_PHYSCAP_gnttab_v2 : 0);
    pi->total_pages = total_pages();
    pi->free_pages = avail_pages();
    pi->max_mfn = DIRECTMAP_SIZE >> PAGE_SHIFT;
}

static int getdomaininfolist(struct xen_sysctl_getdomaininfolist *gl)
{
    struct xen_domctl_getdomaininfo info;
    unsigned int n = 0;
    domid_t next = gl->first_domain;

    while ( n < gl->max_domains && !fill_domaininfo_from(next, &info) )
    {
        if ( copy_to_guest_offset(gl->buffer, n, &info, 1) )
            return -EFAULT;
        n++;
        next = info.domain + 1;
        if ( !next )
            break;
    }
    gl->num_domains = n;
    return 0;
}

/*
 * XEN_SYSCTL_debug_keys (`xl debug-keys`): each key as if typed on the
 * console.  Beyond Xen: at most DEBUG_KEYS_MAX keys a call (-EINVAL), as
 * each may print for a long time with interrupts off.
 */
#define DEBUG_KEYS_MAX 64

static int debug_keys(const struct xen_sysctl_debug_keys *dk)
{
    unsigned int i;
    char c;

    if ( dk->nr_keys > DEBUG_KEYS_MAX )
        return -EINVAL;
    for ( i = 0; i < dk->nr_keys; i++ )
    {
        if ( copy_from_guest_offset(&c, dk->keys, i, 1) )
            return -EFAULT;
        handle_keypress(c);
    }
    return 0;
}

long do_sysctl(XEN_GUEST_HANDLE_PARAM(xen_sysctl_t) u_sysctl)
{
    struct xen_sysctl op;
    bool copyback = false;
    long rc;

    if ( !is_control_domain(current->domain) )
        return -EPERM;
    if ( copy_from_guest(&op, u_sysctl, 1) )
        return -EFAULT;
    if ( op.interface_version != XEN_SYSCTL_INTERFACE_VERSION )
        return -EACCES;

    switch ( op.cmd )
    {
    case XEN_SYSCTL_readconsole:
        rc = readconsole(&op.u.readconsole);
        break;
    case XEN_SYSCTL_physinfo:
        physinfo(&op.u.physinfo);
        rc = 0;
        break;
    case XEN_SYSCTL_getdomaininfolist:
        rc = getdomaininfolist(&op.u.getdomaininfolist);
        break;
    case XEN_SYSCTL_debug_keys:
        rc = debug_keys(&op.u.debug_keys);
        break;
    default:
        rc = arch_do_sysctl(&op, &copyback);
        if ( rc == -ENOSYS )
            return rc;
        break;
    }

    if ( (!rc || copyback) && copy_to_guest(u_sysctl, &op, 1) )
        rc = -EFAULT;
    return rc;
}

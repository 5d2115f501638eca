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
#include <asm/cpu-policy.h>
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
    uint32_t fs[FEATURESET_NR_ENTRIES];

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
    pi->free_pages = avail_pages();     /* claimed pages included, as Xen */
    pi->outstanding_pages = total_outstanding_claims();
    pi->max_mfn = DIRECTMAP_SIZE >> PAGE_SHIFT;
    /* As Xen: the host featureset's first words (xl info's hw_caps). */
    cpu_policy_featureset(fs);
    memcpy(pi->hw_cap, fs, sizeof(pi->hw_cap));
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

/*
 * XEN_SYSCTL_cpupool_op, as Xen answers it on a host with one pool:
 * Pool-0, holding every online CPU and every domain, with this
 * hypervisor's scheduler (SCHED_ID).  No pool can be made, destroyed or
 * changed (-EOPNOTSUPP); moving a domain into Pool-0 is done already (0).
 */
static int cpupool_op(struct xen_sysctl_cpupool_op *op)
{
    const struct domain *d;
    cpumask_t none;
    unsigned int n = 0;

    switch ( op->op )
    {
    case XEN_SYSCTL_CPUPOOL_OP_INFO:
        /* Xen: the first pool whose id is at least the one asked for. */
        if ( op->cpupool_id != 0 )
            return -ENOENT;
        for_each_domain ( d )
            n++;
        op->sched_id = SCHED_ID;
        op->n_dom = n;
        return cpumask_to_xenctl_bitmap(&op->cpumap, &cpu_online_map);

    case XEN_SYSCTL_CPUPOOL_OP_FREEINFO:
        cpumask_clear(&none);           /* every CPU is in Pool-0 */
        return cpumask_to_xenctl_bitmap(&op->cpumap, &none);

    case XEN_SYSCTL_CPUPOOL_OP_MOVEDOMAIN:
        /* As Xen's rcu_lock_remote_domain_by_id: not the caller itself. */
        if ( op->domid >= DOMID_FIRST_RESERVED || !(d = get_domain_by_id(op->domid)) )
            return -ESRCH;
        if ( d == current->domain )
            return -EPERM;
        return op->cpupool_id == 0 ? 0 : -ENOENT;

    case XEN_SYSCTL_CPUPOOL_OP_CREATE:
        return -EOPNOTSUPP;

    case XEN_SYSCTL_CPUPOOL_OP_DESTROY:
    case XEN_SYSCTL_CPUPOOL_OP_ADDCPU:
    case XEN_SYSCTL_CPUPOOL_OP_RMCPU:
        return op->cpupool_id == 0 ? -EOPNOTSUPP : -ENOENT;

    default:
        return -ENOSYS;                 /* Xen's answer to an unknown op */
    }
}

/*
 * XEN_SYSCTL_numainfo: one node (node 0: all memory, distance 10 to
 * itself), as Xen on a host without NUMA.  With neither buffer it only
 * tells the number of nodes; else it fills at most num_nodes of them.
 */
static int numainfo(struct xen_sysctl_numainfo *ni)
{
    const unsigned int nodes = 1;
    unsigned int n = nodes;

    if ( !guest_handle_is_null(ni->meminfo) || !guest_handle_is_null(ni->distance) )
    {
        n = min(nodes, ni->num_nodes);
        if ( n && !guest_handle_is_null(ni->meminfo) )
        {
            struct xen_sysctl_meminfo m = {
                .memsize = (uint64_t)total_pages() << PAGE_SHIFT,
                .memfree = (uint64_t)avail_pages() << PAGE_SHIFT,
            };

            if ( copy_to_guest_offset(ni->meminfo, 0, &m, 1) )
                return -EFAULT;
        }
        if ( n && !guest_handle_is_null(ni->distance) )
        {
            uint32_t local = 10;        /* ACPI SLIT's distance to itself */

            if ( copy_to_guest_offset(ni->distance, 0, &local, 1) )
                return -EFAULT;
        }
    }
    ni->num_nodes = n;
    return 0;
}

/*
 * XEN_SYSCTL_cputopoinfo: core, socket and node (0) of CPUs 0 to the last
 * present one; with a NULL buffer only their number, else at most
 * num_cpus entries (CPUs not present: XEN_INVALID_*).
 */
static int cputopoinfo(struct xen_sysctl_cputopoinfo *ti)
{
    unsigned int n = 0, cpu;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpu_present(cpu) )
            n = cpu + 1;
    if ( !guest_handle_is_null(ti->cputopo) )
    {
        n = min(n, ti->num_cpus);
        for ( cpu = 0; cpu < n; cpu++ )
        {
            struct xen_sysctl_cputopo t = {
                .core = XEN_INVALID_CORE_ID, .socket = XEN_INVALID_SOCKET_ID,
                .node = XEN_INVALID_NODE_ID,
            };

            if ( cpu_present(cpu) )
            {
                t.core = cpu_data[cpu].cpu_core_id;
                t.socket = cpu_data[cpu].phys_proc_id;
                t.node = 0;
            }
            if ( copy_to_guest_offset(ti->cputopo, cpu, &t, 1) )
                return -EFAULT;
        }
    }
    ti->num_cpus = n;
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
    case XEN_SYSCTL_sched_id:
        op.u.sched_id.sched_id = SCHED_ID;
        rc = 0;
        break;
    case XEN_SYSCTL_cpupool_op:
        rc = cpupool_op(&op.u.cpupool_op);
        break;
    case XEN_SYSCTL_numainfo:
        rc = numainfo(&op.u.numainfo);
        break;
    case XEN_SYSCTL_cputopoinfo:
        rc = cputopoinfo(&op.u.cputopoinfo);
        break;
    default:
        rc = arch_do_sysctl(&op, &copyback);
        if ( rc == -ENOSYS )
            return subop_enosys(__HYPERVISOR_sysctl, op.cmd, NULL);
        break;
    }

    if ( (!rc || copyback) && copy_to_guest(u_sysctl, &op, 1) )
        rc = -EFAULT;
    return rc;
}

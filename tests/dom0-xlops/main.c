/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What Debian's xl create asks of the hypervisor before the guest runs
 * (docs/misc/debian-xl.md), as raw domctls and sysctls from the control
 * domain, each with good and bad arguments and Xen's answers:
 *
 *   sysctl sched_id, cpupool_op (Pool-0: info, freeinfo, movedomain, the
 *     rest refused), numainfo and cputopoinfo (one node), physinfo;
 *   domctl createdomain with xl's domid 0x7FF4 (a free domid is given) and
 *     a UUID handle (getdomaininfo gives it back), an explicit domid taken
 *     (-XEN_EEXIST); max_vcpus; scheduler_op (credit2 weight and cap);
 *     settscinfo / gettscinfo; get/set_paging_mempool_size;
 *   memory_op XENMEM_set_memory_map (another domain's, and its own read
 *     back with XENMEM_memory_map);
 *   multicall, as libxenctrl 4.17 sends memory_op (results per entry,
 *     unknown and nested calls, an unmapped list);
 *   an unknown domctl and sysctl: -XEN_ENOSYS.
 * Then it destroys what it created.
 */
#include "test.h"
#include "check.h"
#include "public/domctl.h"
#include "public/hvm/save.h"
#include "public/memory.h"
#include "public/sysctl.h"

const char test_title[] = "Debian xl's domctls and sysctls";

static long domctl(struct xen_domctl *op)
{
    op->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    return hypercall6(__HYPERVISOR_domctl, (unsigned long)op, 0, 0, 0, 0);
}

static long sysctl(struct xen_sysctl *op)
{
    op->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    return hypercall6(__HYPERVISOR_sysctl, (unsigned long)op, 0, 0, 0, 0);
}

static long memory_op(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_memory_op, cmd, (unsigned long)arg, 0, 0, 0);
}

static const xen_domain_handle_t uuid = {
    0xde, 0xb1, 0xa0, 0x17, 0x42, 0x17, 0x4e, 0x21,
    0x9a, 0x00, 0x5e, 0xed, 0xc0, 0xff, 0xee, 0x01,
};

static long create(domid_t *id, unsigned int vcpus)
{
    struct xen_domctl op = { .cmd = XEN_DOMCTL_createdomain, .domain = *id };
    long rc;

    op.u.createdomain = (struct xen_domctl_createdomain){
        .flags = XEN_DOMCTL_CDF_hvm | XEN_DOMCTL_CDF_hap, .max_vcpus = vcpus,
        .max_evtchn_port = 1023, .max_grant_frames = 4, .max_maptrack_frames = 1,
        .grant_opts = XEN_DOMCTL_GRANT_version(1),
    };
    memcpy(op.u.createdomain.handle, uuid, sizeof(uuid));
    rc = domctl(&op);
    *id = op.domain;
    return rc;
}

static long destroy(domid_t id)
{
    struct xen_domctl op = { .cmd = XEN_DOMCTL_destroydomain, .domain = id };

    return domctl(&op);
}

static void test_sysctls(void)
{
    struct xen_sysctl op = { .cmd = XEN_SYSCTL_sched_id };
    struct xen_sysctl_meminfo mem[4];
    struct xen_sysctl_cputopo topo[4];
    uint32_t dist[16];
    uint8_t map[8];

    check_rc("sched_id", sysctl(&op), 0);
    check_rc("sched_id: credit2 (XEN_SCHEDULER_CREDIT2)", op.u.sched_id.sched_id,
             XEN_SCHEDULER_CREDIT2);

    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_physinfo };
    check_rc("physinfo", sysctl(&op), 0);
    check_rc("physinfo: one node", op.u.physinfo.nr_nodes, 1);

    /* numainfo: the count alone, then the buffers (fewer asked, more asked). */
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_numainfo };
    op.u.numainfo.num_nodes = 0;
    check_rc("numainfo: size query", sysctl(&op), 0);
    check_rc("numainfo: 1 node", op.u.numainfo.num_nodes, 1);
    memset(mem, 0xff, sizeof(mem));
    memset(dist, 0xff, sizeof(dist));
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_numainfo };
    op.u.numainfo.num_nodes = 4;
    set_xen_guest_handle(op.u.numainfo.meminfo, mem);
    set_xen_guest_handle(op.u.numainfo.distance, dist);
    check_rc("numainfo: room for 4", sysctl(&op), 0);
    check_rc("numainfo: 1 filled", op.u.numainfo.num_nodes, 1);
    check_true("numainfo: node 0 has memory, free <= size",
               mem[0].memsize && mem[0].memsize != ~0ULL && mem[0].memfree <= mem[0].memsize);
    check_rc("numainfo: distance(0, 0)", dist[0], 10);
    check_true("numainfo: nothing written past node 0", mem[1].memsize == ~0ULL &&
               dist[1] == ~0U);
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_numainfo };
    set_xen_guest_handle(op.u.numainfo.meminfo, mem);
    check_rc("numainfo: room for 0", sysctl(&op), 0);
    check_rc("numainfo: 0 filled", op.u.numainfo.num_nodes, 0);
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_numainfo };
    op.u.numainfo.num_nodes = 1;
    op.u.numainfo.meminfo.p = (void *)0x8000000000UL;   /* not mapped */
    check_rc("numainfo: an unmapped buffer", sysctl(&op), -XEN_EFAULT);

    /* cputopoinfo */
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_cputopoinfo };
    check_rc("cputopoinfo: size query", sysctl(&op), 0);
    check_true("cputopoinfo: at least one CPU", op.u.cputopoinfo.num_cpus >= 1);
    memset(topo, 0xee, sizeof(topo));
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_cputopoinfo };
    op.u.cputopoinfo.num_cpus = 1;
    set_xen_guest_handle(op.u.cputopoinfo.cputopo, topo);
    check_rc("cputopoinfo: room for 1", sysctl(&op), 0);
    check_rc("cputopoinfo: 1 filled", op.u.cputopoinfo.num_cpus, 1);
    check_rc("cputopoinfo: CPU 0 on node 0", topo[0].node, 0);
    check_true("cputopoinfo: CPU 0's core and socket", topo[0].core != XEN_INVALID_CORE_ID &&
               topo[0].socket != XEN_INVALID_SOCKET_ID);
    check_rc("cputopoinfo: nothing past it", topo[1].node, 0xeeeeeeee);

    /* cpupool_op: Pool-0 */
    memset(map, 0, sizeof(map));
    op = (struct xen_sysctl){ .cmd = XEN_SYSCTL_cpupool_op };
    op.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_INFO;
    op.u.cpupool_op.cpumap.nr_bits = 64;
    set_xen_guest_handle(op.u.cpupool_op.cpumap.bitmap, map);
    check_rc("cpupool_op info 0", sysctl(&op), 0);
    check_rc("cpupool_op info 0: credit2", op.u.cpupool_op.sched_id, XEN_SCHEDULER_CREDIT2);
    check_true("cpupool_op info 0: domains, CPU 0", op.u.cpupool_op.n_dom >= 1 && (map[0] & 1));
    op.u.cpupool_op.cpupool_id = 1;
    check_rc("cpupool_op info 1: no such pool", sysctl(&op), -XEN_ENOENT);
    op.u.cpupool_op.cpupool_id = XEN_SYSCTL_CPUPOOL_PAR_ANY;
    check_rc("cpupool_op info PAR_ANY", sysctl(&op), -XEN_ENOENT);
    memset(map, 0xff, sizeof(map));
    op.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_FREEINFO;
    check_rc("cpupool_op freeinfo", sysctl(&op), 0);
    check_true("cpupool_op freeinfo: no free CPU", !map[0] && !map[7]);
    op.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_CREATE;
    check_rc("cpupool_op create", sysctl(&op), -XEN_EOPNOTSUPP);
    op.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_DESTROY;
    op.u.cpupool_op.cpupool_id = 3;
    check_rc("cpupool_op destroy 3: no such pool", sysctl(&op), -XEN_ENOENT);
    op.u.cpupool_op.op = 99;
    check_rc("cpupool_op 99", sysctl(&op), -XEN_ENOSYS);
    op.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_MOVEDOMAIN;
    op.u.cpupool_op.cpupool_id = 0;
    op.u.cpupool_op.domid = 0;
    check_rc("cpupool_op movedomain: the caller", sysctl(&op), -XEN_EPERM);
    op.u.cpupool_op.domid = 4321;
    check_rc("cpupool_op movedomain: no such domain", sysctl(&op), -XEN_ESRCH);

    op = (struct xen_sysctl){ .cmd = 0x3ffe };
    check_rc("sysctl 0x3ffe: unknown", sysctl(&op), -XEN_ENOSYS);
}

static void test_created(domid_t id, domid_t id2)
{
    struct xen_domctl op;
    struct xen_sysctl s;
    uint32_t khz;

    /* The UUID as given, in getdomaininfo. */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_getdomaininfo, .domain = id };
    check_rc("getdomaininfo", domctl(&op), 0);
    check_true("getdomaininfo: the UUID createdomain had",
               op.u.getdomaininfo.domain == id &&
               !memcmp(op.u.getdomaininfo.handle, uuid, sizeof(uuid)));
    check_rc("getdomaininfo: max_vcpu_id", op.u.getdomaininfo.max_vcpu_id, 1);

    /* cpupool movedomain into Pool-0: there already. */
    s = (struct xen_sysctl){ .cmd = XEN_SYSCTL_cpupool_op };
    s.u.cpupool_op.op = XEN_SYSCTL_CPUPOOL_OP_MOVEDOMAIN;
    s.u.cpupool_op.domid = id;
    check_rc("cpupool_op movedomain to 0", sysctl(&s), 0);
    s.u.cpupool_op.cpupool_id = 5;
    check_rc("cpupool_op movedomain to 5", sysctl(&s), -XEN_ENOENT);

    /* max_vcpus */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_max_vcpus, .domain = id };
    op.u.max_vcpus.max = 2;
    check_rc("max_vcpus 2 (createdomain's)", domctl(&op), 0);
    op.u.max_vcpus.max = 3;
    check_rc("max_vcpus 3", domctl(&op), -XEN_EINVAL);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_max_vcpus, .domain = 0 };
    op.u.max_vcpus.max = 1;
    check_rc("max_vcpus of the caller", domctl(&op), -XEN_EINVAL);

    /* scheduler_op: credit2 */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_scheduler_op, .domain = id };
    op.u.scheduler_op.sched_id = XEN_SCHEDULER_CREDIT2;
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_getinfo;
    check_rc("scheduler_op getinfo", domctl(&op), 0);
    check_true("scheduler_op: weight 256, cap 0 (credit2's defaults)",
               op.u.scheduler_op.u.credit2.weight == 256 && !op.u.scheduler_op.u.credit2.cap);
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_putinfo;
    op.u.scheduler_op.u.credit2.weight = 512;
    op.u.scheduler_op.u.credit2.cap = 150;
    check_rc("scheduler_op putinfo 512, cap 150 (2 vCPUs)", domctl(&op), 0);
    op.u.scheduler_op.u.credit2.weight = 1000;
    op.u.scheduler_op.u.credit2.cap = 201;
    check_rc("scheduler_op putinfo cap 201 > 2 x 100", domctl(&op), -XEN_EINVAL);
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_getinfo;
    check_rc("scheduler_op getinfo", domctl(&op), 0);
    check_true("scheduler_op: 512, 150 (the refused put changed nothing)",
               op.u.scheduler_op.u.credit2.weight == 512 &&
               op.u.scheduler_op.u.credit2.cap == 150);
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_putinfo;
    op.u.scheduler_op.u.credit2.weight = 0;
    op.u.scheduler_op.u.credit2.cap = 0;
    check_rc("scheduler_op putinfo 0, 0 (weight kept, no cap)", domctl(&op), 0);
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_getinfo;
    domctl(&op);
    check_true("scheduler_op: 512, 0", op.u.scheduler_op.u.credit2.weight == 512 &&
               !op.u.scheduler_op.u.credit2.cap);
    op.u.scheduler_op.sched_id = XEN_SCHEDULER_CREDIT;
    check_rc("scheduler_op as credit (not ours)", domctl(&op), -XEN_EINVAL);
    op.u.scheduler_op.sched_id = XEN_SCHEDULER_CREDIT2;
    op.u.scheduler_op.cmd = XEN_DOMCTL_SCHEDOP_getvcpuinfo;
    check_rc("scheduler_op getvcpuinfo (credit2 has none)", domctl(&op), -XEN_EINVAL);
    op.u.scheduler_op.cmd = 7;
    check_rc("scheduler_op cmd 7", domctl(&op), -XEN_EINVAL);

    /* TSC */
    s = (struct xen_sysctl){ .cmd = XEN_SYSCTL_physinfo };
    sysctl(&s);
    khz = s.u.physinfo.cpu_khz;
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_settscinfo, .domain = id };
    check_rc("settscinfo default, gtsc_khz 0", domctl(&op), 0);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_gettscinfo, .domain = id };
    check_rc("gettscinfo", domctl(&op), 0);
    check_true("gettscinfo: default, the host's kHz, incarnation 1",
               op.u.tsc_info.tsc_mode == 0 && op.u.tsc_info.gtsc_khz == khz &&
               op.u.tsc_info.incarnation == 1 && op.u.tsc_info.elapsed_nsec);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_settscinfo, .domain = id };
    op.u.tsc_info.tsc_mode = 2;
    op.u.tsc_info.incarnation = 4;
    check_rc("settscinfo native", domctl(&op), 0);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_gettscinfo, .domain = id };
    domctl(&op);
    check_true("gettscinfo: native, 0 kHz, incarnation 5",
               op.u.tsc_info.tsc_mode == 2 && !op.u.tsc_info.gtsc_khz &&
               op.u.tsc_info.incarnation == 5 && !op.u.tsc_info.elapsed_nsec);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_settscinfo, .domain = id };
    op.u.tsc_info.tsc_mode = 1;
    check_rc("settscinfo always_emulate", domctl(&op), -XEN_EOPNOTSUPP);
    op.u.tsc_info.tsc_mode = 0;
    op.u.tsc_info.gtsc_khz = khz + 1;
    check_rc("settscinfo default at another rate", domctl(&op), -XEN_EOPNOTSUPP);
    op.u.tsc_info.tsc_mode = 3;
    check_rc("settscinfo mode 3", domctl(&op), -XEN_EINVAL);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_gettscinfo, .domain = id };
    domctl(&op);
    check_true("gettscinfo: still native (the refusals changed nothing)",
               op.u.tsc_info.tsc_mode == 2 && op.u.tsc_info.incarnation == 5);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_settscinfo, .domain = 0 };
    check_rc("settscinfo of the caller", domctl(&op), -XEN_EINVAL);

    /* paging mempool */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_set_paging_mempool_size, .domain = id };
    op.u.paging_mempool.size = 1 << 20;
    check_rc("set_paging_mempool_size 1 MiB", domctl(&op), 0);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_get_paging_mempool_size, .domain = id };
    check_rc("get_paging_mempool_size", domctl(&op), 0);
    check_rc("get_paging_mempool_size: 1 MiB", op.u.paging_mempool.size, 1 << 20);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_set_paging_mempool_size, .domain = id };
    op.u.paging_mempool.size = (1 << 20) + 1;
    check_rc("set_paging_mempool_size not whole pages", domctl(&op), -XEN_EINVAL);

    /* another domain's memory map */
    {
        static struct { uint64_t addr, size; uint32_t type; } __attribute__((packed)) e820[3] = {
            { 0, 0x800000, 1 }, { 0xfc000000, 0x1000000, 2 }, { 0x100000000ULL, 0x100000, 1 },
        };
        struct xen_foreign_memory_map f = { .domid = id, .map.nr_entries = 3 };

        set_xen_guest_handle(f.map.buffer, e820);
        check_rc("XENMEM_set_memory_map of the new domain", memory_op(XENMEM_set_memory_map, &f), 0);
        f.map.nr_entries = 33;
        check_rc("XENMEM_set_memory_map 33 entries", memory_op(XENMEM_set_memory_map, &f), -XEN_EINVAL);
        f.map.nr_entries = 3;
        f.domid = 4321;
        check_rc("XENMEM_set_memory_map no such domain", memory_op(XENMEM_set_memory_map, &f),
                 -XEN_ESRCH);
    }

    /* vCPU and node affinity (libxl__build_pre sets both) */
    {
        uint8_t hard = 0x01, soft = 0xff, other = 0x02, none = 0, back = 0;

        op = (struct xen_domctl){ .cmd = XEN_DOMCTL_setvcpuaffinity, .domain = id };
        op.u.vcpuaffinity.vcpu = 1;
        op.u.vcpuaffinity.flags = XEN_VCPUAFFINITY_HARD | XEN_VCPUAFFINITY_SOFT;
        op.u.vcpuaffinity.cpumap_hard.nr_bits = 8;
        op.u.vcpuaffinity.cpumap_soft.nr_bits = 8;
        set_xen_guest_handle(op.u.vcpuaffinity.cpumap_hard.bitmap, &hard);
        set_xen_guest_handle(op.u.vcpuaffinity.cpumap_soft.bitmap, &soft);
        check_rc("setvcpuaffinity hard {0}, soft all", domctl(&op), 0);
        check_true("setvcpuaffinity: the effective maps back", hard == 0x01 && (soft & 1));
        set_xen_guest_handle(op.u.vcpuaffinity.cpumap_hard.bitmap, &other);
        check_rc("setvcpuaffinity hard {1} (not where it runs)", domctl(&op), -XEN_EINVAL);
        op.u.vcpuaffinity.vcpu = 2;
        check_rc("setvcpuaffinity vCPU 2 of 2", domctl(&op), -XEN_EINVAL);
        op.u.vcpuaffinity.vcpu = 0;
        op.u.vcpuaffinity.flags = 0;
        check_rc("setvcpuaffinity no flags", domctl(&op), -XEN_EINVAL);

        op = (struct xen_domctl){ .cmd = XEN_DOMCTL_setnodeaffinity, .domain = id };
        op.u.nodeaffinity.nodemap.nr_bits = 8;
        set_xen_guest_handle(op.u.nodeaffinity.nodemap.bitmap, &hard);
        check_rc("setnodeaffinity {0}", domctl(&op), 0);
        set_xen_guest_handle(op.u.nodeaffinity.nodemap.bitmap, &none);
        check_rc("setnodeaffinity {}", domctl(&op), -XEN_EINVAL);
        op = (struct xen_domctl){ .cmd = XEN_DOMCTL_getnodeaffinity, .domain = id };
        op.u.nodeaffinity.nodemap.nr_bits = 8;
        set_xen_guest_handle(op.u.nodeaffinity.nodemap.bitmap, &back);
        check_rc("getnodeaffinity", domctl(&op), 0);
        check_rc("getnodeaffinity: node 0", back, 1);
    }

    /* A map wider than the hypervisor's: its bits, then zeros to nr_bits, nothing past. */
    {
        static uint8_t wide[601];
        unsigned int i, nonzero = 0;

        memset(wide, 0xff, sizeof(wide));
        op = (struct xen_domctl){ .cmd = XEN_DOMCTL_getnodeaffinity, .domain = id };
        op.u.nodeaffinity.nodemap.nr_bits = 600 * 8 - 4;
        set_xen_guest_handle(op.u.nodeaffinity.nodemap.bitmap, wide);
        check_rc("getnodeaffinity 4796 bits", domctl(&op), 0);
        for ( i = 1; i < 600; i++ )
            nonzero += wide[i] != 0;
        check_rc("getnodeaffinity 4796 bits: node 0", wide[0], 1);
        check_rc("getnodeaffinity 4796 bits: bytes 1-599 nonzero", nonzero, 0);
        check_rc("getnodeaffinity 4796 bits: byte 600 untouched", wide[600], 0xff);
        memset(wide, 0xff, sizeof(wide));
        op.u.nodeaffinity.nodemap.nr_bits = 3;
        check_rc("getnodeaffinity 3 bits", domctl(&op), 0);
        check_rc("getnodeaffinity 3 bits: node 0", wide[0], 1);
        check_rc("getnodeaffinity 3 bits: byte 1 untouched", wide[1], 0xff);
    }

    /* unknown domctl */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_gdbsx_domstatus, .domain = id };
    check_rc("domctl gdbsx_domstatus: not here", domctl(&op), -XEN_ENOSYS);

    (void)id2;
}

/* ---- the CPU policy (xc_cpuid_apply_policy's calls) ---- */

#define NR_LEAVES 120                   /* Xen 4.17's CPUID_MAX_SERIALISED_LEAVES */
static xen_cpuid_leaf_t leaves[NR_LEAVES + 1], leaves2[NR_LEAVES];
static xen_msr_entry_t msrs[3];

static xen_cpuid_leaf_t *find_leaf(xen_cpuid_leaf_t *l, unsigned int n, uint32_t leaf,
                                   uint32_t subleaf)
{
    for ( unsigned int i = 0; i < n; i++ )
        if ( l[i].leaf == leaf && l[i].subleaf == subleaf )
            return &l[i];
    return NULL;
}

static long set_policy(domid_t id, unsigned int nr_leaves, unsigned int nr_msrs,
                       struct xen_domctl *op)
{
    *op = (struct xen_domctl){ .cmd = XEN_DOMCTL_set_cpu_policy, .domain = id };
    op->u.cpu_policy.nr_leaves = nr_leaves;
    op->u.cpu_policy.nr_msrs = nr_msrs;
    set_xen_guest_handle(op->u.cpu_policy.leaves, leaves);
    set_xen_guest_handle(op->u.cpu_policy.msrs, msrs);
    return domctl(op);
}

static void test_cpu_policy(domid_t id, domid_t id2)
{
    struct xen_sysctl s = { .cmd = XEN_SYSCTL_get_cpu_featureset };
    uint32_t fs[14], nr, nr2, saved;
    struct xen_domctl op;
    xen_cpuid_leaf_t *l1, *l;
    struct cpuid_leaf mine;

    /* featureset */
    s.u.cpu_featureset.index = XEN_SYSCTL_cpu_featureset_host;
    check_rc("get_cpu_featureset: size query", sysctl(&s), 0);
    check_rc("get_cpu_featureset: 14 words (Xen 4.17's)", s.u.cpu_featureset.nr_features, 14);
    set_xen_guest_handle(s.u.cpu_featureset.features, fs);
    check_rc("get_cpu_featureset host", sysctl(&s), 0);
    cpuid_count(1, 0, &mine);
    check_true("get_cpu_featureset: word 0 is leaf 1 EDX as we see it", fs[0] == mine.d);
    {
        struct xen_sysctl pi = { .cmd = XEN_SYSCTL_physinfo };

        sysctl(&pi);
        check_true("physinfo hw_cap: the featureset's first words",
                   pi.u.physinfo.hw_cap[0] == fs[0] && pi.u.physinfo.hw_cap[5] == fs[5]);
    }
    s.u.cpu_featureset.nr_features = 4;
    check_rc("get_cpu_featureset into 4 words", sysctl(&s), -XEN_ENOBUFS);
    check_rc("get_cpu_featureset: 4 written", s.u.cpu_featureset.nr_features, 4);
    s.u.cpu_featureset.index = 6;
    s.u.cpu_featureset.nr_features = 14;
    check_rc("get_cpu_featureset index 6", sysctl(&s), -XEN_EINVAL);

    /* the system policy */
    s = (struct xen_sysctl){ .cmd = XEN_SYSCTL_get_cpu_policy };
    check_rc("get_cpu_policy: size query", sysctl(&s), 0);
    check_true("get_cpu_policy: at most 120 leaves, 2 MSRs",
               s.u.cpu_policy.nr_leaves == NR_LEAVES && s.u.cpu_policy.nr_msrs == 2);
    s.u.cpu_policy.index = XEN_SYSCTL_cpu_policy_hvm_default;
    set_xen_guest_handle(s.u.cpu_policy.leaves, leaves);
    set_xen_guest_handle(s.u.cpu_policy.msrs, msrs);
    check_rc("get_cpu_policy hvm_default", sysctl(&s), 0);
    nr = s.u.cpu_policy.nr_leaves;
    printk("  the policy: %u leaves, max basic %#x, MSRs %#x %#x\n", nr, leaves[0].a,
           msrs[0].idx, msrs[1].idx);
    check_true("get_cpu_policy: max basic leaf at most 0xd (Xen's clamp)", leaves[0].a <= 0xd);
    check_true("get_cpu_policy: leaf 0 first, 0x40000000, 0x80000000 in it",
               leaves[0].leaf == 0 && leaves[0].subleaf == XEN_CPUID_NO_SUBLEAF &&
               find_leaf(leaves, nr, 0x40000000, XEN_CPUID_NO_SUBLEAF) &&
               find_leaf(leaves, nr, 0x80000000, XEN_CPUID_NO_SUBLEAF) &&
               find_leaf(leaves, nr, 7, 0) && nr < NR_LEAVES);
    check_true("get_cpu_policy: PLATFORM_INFO, ARCH_CAPABILITIES",
               s.u.cpu_policy.nr_msrs == 2 && msrs[0].idx == 0xce && msrs[1].idx == 0x10a);
    s.u.cpu_policy.nr_leaves = 3;
    check_rc("get_cpu_policy into 3 leaves", sysctl(&s), -XEN_ENOBUFS);
    s.u.cpu_policy.nr_leaves = NR_LEAVES;
    s.u.cpu_policy._rsvd = 1;
    check_rc("get_cpu_policy _rsvd set", sysctl(&s), -XEN_EINVAL);
    s.u.cpu_policy._rsvd = 0;
    s.u.cpu_policy.index = 6;
    check_rc("get_cpu_policy index 6", sysctl(&s), -XEN_EINVAL);

    /* the domain's: take SSE3's bit away (libxl's cpuid= would) */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_get_cpu_policy, .domain = id };
    check_rc("domctl get_cpu_policy: size query", domctl(&op), 0);
    op.u.cpu_policy.nr_leaves = NR_LEAVES;
    op.u.cpu_policy.nr_msrs = 2;
    set_xen_guest_handle(op.u.cpu_policy.leaves, leaves);
    set_xen_guest_handle(op.u.cpu_policy.msrs, msrs);
    check_rc("domctl get_cpu_policy", domctl(&op), 0);
    nr = op.u.cpu_policy.nr_leaves;
    l1 = find_leaf(leaves, nr, 1, XEN_CPUID_NO_SUBLEAF);
    check_true("leaf 1 in it, SSE3 offered", l1 && (l1->c & 1));
    if ( !l1 )
        return;
    l1->c &= ~1u;
    check_rc("set_cpu_policy without SSE3", set_policy(id, nr, 2, &op), 0);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_get_cpu_policy, .domain = id };
    op.u.cpu_policy.nr_leaves = NR_LEAVES;
    op.u.cpu_policy.nr_msrs = 2;
    set_xen_guest_handle(op.u.cpu_policy.leaves, leaves2);
    set_xen_guest_handle(op.u.cpu_policy.msrs, msrs);
    check_rc("domctl get_cpu_policy again", domctl(&op), 0);
    nr2 = op.u.cpu_policy.nr_leaves;
    l = find_leaf(leaves2, nr2, 1, XEN_CPUID_NO_SUBLEAF);
    check_true("the domain's leaf 1: SSE3 gone, the rest as set",
               l && l->c == l1->c && l->d == l1->d);

    /* bad ones, each refused with Xen's code and where, changing nothing */
    saved = leaves[0].a;
    leaves[0].a = saved + 1;
    check_rc("set_cpu_policy: a higher max leaf", set_policy(id, nr, 0, &op), -XEN_EINVAL);
    check_true("  err_leaf 0, err_subleaf none", op.u.cpu_policy.err_leaf == 0 &&
               op.u.cpu_policy.err_subleaf == XEN_CPUID_NO_SUBLEAF);
    leaves[0].a = saved;
    l1->c |= 1;                         /* would offer SSE3 again if taken */
    saved = l1->subleaf;
    l1->subleaf = 0;
    check_rc("set_cpu_policy: leaf 1 with a subleaf", set_policy(id, nr, 0, &op), -XEN_ERANGE);
    check_true("  err_leaf 1, err_subleaf 0",
               op.u.cpu_policy.err_leaf == 1 && op.u.cpu_policy.err_subleaf == 0);
    l1->subleaf = saved;
    leaves[nr] = (xen_cpuid_leaf_t){ .leaf = 0x20, .subleaf = XEN_CPUID_NO_SUBLEAF };
    check_rc("set_cpu_policy: leaf 0x20", set_policy(id, nr + 1, 0, &op), -XEN_ERANGE);
    check_rc("set_cpu_policy: 121 leaves", set_policy(id, NR_LEAVES + 1, 0, &op), -XEN_E2BIG);
    msrs[0] = (xen_msr_entry_t){ .idx = 0xce, .flags = 1 };
    check_rc("set_cpu_policy: MSR flags", set_policy(id, 0, 1, &op), -XEN_EINVAL);
    check_rc("  err_msr 0xce", op.u.cpu_policy.err_msr, 0xce);
    msrs[0] = (xen_msr_entry_t){ .idx = 0x10 };
    check_rc("set_cpu_policy: MSR 0x10", set_policy(id, 0, 1, &op), -XEN_ERANGE);
    msrs[0] = (xen_msr_entry_t){ .idx = 0xce, .val = 1ULL << 31 };
    check_rc("set_cpu_policy: PLATFORM_INFO faulting", set_policy(id, 0, 1, &op), -XEN_EINVAL);
    msrs[0] = (xen_msr_entry_t){ .idx = 0xce, .val = 1ULL << 40 };
    check_rc("set_cpu_policy: PLATFORM_INFO too wide", set_policy(id, 0, 1, &op), -XEN_EOVERFLOW);
    check_rc("set_cpu_policy of the caller", set_policy(0, nr, 0, &op), -XEN_EINVAL);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_get_cpu_policy, .domain = id };
    op.u.cpu_policy.nr_leaves = NR_LEAVES;
    set_xen_guest_handle(op.u.cpu_policy.leaves, leaves2);
    domctl(&op);
    l = find_leaf(leaves2, op.u.cpu_policy.nr_leaves, 1, XEN_CPUID_NO_SUBLEAF);
    check_true("after the refusals: SSE3 still gone", l && !(l->c & 1));

    /* once it has been unpaused: fixed */
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_unpausedomain, .domain = id2 };
    check_rc("unpause the second domain (no vCPU up)", domctl(&op), 0);
    check_rc("set_cpu_policy once unpaused", set_policy(id2, nr, 0, &op), -XEN_EEXIST);
}

/* multicall: how libxenctrl 4.17 sends every memory_op */
static void test_multicall(domid_t id)
{
    static xen_pfn_t gfn = 0x10;
    static struct xen_memory_reservation r = { .nr_extents = 1 };
    static multicall_entry_t mc[4];
    struct xen_domctl op = { .cmd = XEN_DOMCTL_max_mem, .domain = id };

    op.u.max_mem.max_memkb = 1024;
    check_rc("max_mem 1 MiB", domctl(&op), 0);
    r.domid = id;
    set_xen_guest_handle(r.extent_start, &gfn);
    mc[0] = (multicall_entry_t){ .op = __HYPERVISOR_xen_version, .result = 0xdead,
                                 .args = { XENVER_version } };
    mc[1] = (multicall_entry_t){ .op = __HYPERVISOR_memory_op, .result = 0xdead,
                                 .args = { XENMEM_populate_physmap, (unsigned long)&r } };
    mc[2] = (multicall_entry_t){ .op = 60, .result = 0xdead };
    mc[3] = (multicall_entry_t){ .op = __HYPERVISOR_multicall, .result = 0xdead,
                                 .args = { (unsigned long)mc, 1 } };
    check_rc("multicall of 4", hypercall6(__HYPERVISOR_multicall, (unsigned long)mc, 4, 0, 0, 0), 0);
    check_rc("  xen_version: 4.17", mc[0].result, (4 << 16) | 17);
    check_rc("  populate_physmap of the new domain: 1 extent", mc[1].result, 1);
    check_rc("  hypercall 60", (long)mc[2].result, -XEN_ENOSYS);
    check_rc("  a nested multicall", (long)mc[3].result, -XEN_EINVAL);
    check_rc("multicall of 0", hypercall6(__HYPERVISOR_multicall, (unsigned long)mc, 0, 0, 0, 0), 0);
    check_rc("multicall from an unmapped list",
             hypercall6(__HYPERVISOR_multicall, 0x8000000000UL, 1, 0, 0, 0), -XEN_EFAULT);
}

/*
 * getpageframeinfo3, as libxenguest's saver asks it: RAM NOTAB, a hole,
 * a gfn beyond the p2m and one with type bits set XTAB; the limits.
 * (test_multicall populated gfn 0x10.)
 */
static void test_pfinfo(domid_t id)
{
    static xen_pfn_t gfns[1025];
    struct xen_domctl op = { .cmd = XEN_DOMCTL_getpageframeinfo3, .domain = id };

    gfns[0] = 0x10;
    gfns[1] = 0x11;
    gfns[2] = 1ULL << 40;
    gfns[3] = 0x10 | XEN_DOMCTL_PFINFO_XTAB;
    op.u.getpageframeinfo3.num = 4;
    set_xen_guest_handle(op.u.getpageframeinfo3.array, gfns);
    check_rc("getpageframeinfo3 of 4 gfns", domctl(&op), 0);
    check_true("getpageframeinfo3: RAM NOTAB, a hole, beyond the p2m and type bits XTAB",
               gfns[0] == (0x10 | XEN_DOMCTL_PFINFO_NOTAB) &&
               gfns[1] == (0x11 | XEN_DOMCTL_PFINFO_XTAB) &&
               gfns[2] == ((1ULL << 40) | XEN_DOMCTL_PFINFO_XTAB) &&
               gfns[3] == (0x10 | XEN_DOMCTL_PFINFO_XTAB));
    op.u.getpageframeinfo3.num = 1025;
    check_rc("getpageframeinfo3 of 1025 gfns", domctl(&op), -XEN_E2BIG);
    op.u.getpageframeinfo3.num = 0;
    check_rc("getpageframeinfo3 of none", domctl(&op), 0);
    op.u.getpageframeinfo3.num = 2;
    set_xen_guest_handle(op.u.getpageframeinfo3.array, (xen_pfn_t *)0x8000000000UL);
    check_rc("getpageframeinfo3 from an unmapped array", domctl(&op), -XEN_EFAULT);
    op.domain = 0;
    set_xen_guest_handle(op.u.getpageframeinfo3.array, gfns);
    check_rc("getpageframeinfo3 of the caller itself", domctl(&op), -XEN_EINVAL);
}

/* The HVM context libxenguest's PVH builder reads and writes: MTRR records. */
static void test_mtrr_context(domid_t id)
{
    static uint8_t ctx[8192];
    struct xen_domctl op = { .cmd = XEN_DOMCTL_gethvmcontext, .domain = id };
    struct hvm_save_descriptor *d;
    struct hvm_hw_mtrr *m = NULL;
    uint32_t off = 0, n_mtrr = 0;
    static struct {
        struct hvm_save_descriptor hd;
        struct hvm_save_header h;
        struct hvm_save_descriptor md;
        struct hvm_hw_mtrr m;
        struct hvm_save_descriptor ed;
    } __attribute__((packed)) set;

    check_rc("gethvmcontext: size query", domctl(&op), 0);
    check_true("gethvmcontext: room for 2 MTRR records",
               op.u.hvmcontext.size <= sizeof(ctx) && op.u.hvmcontext.size >= 2 * sizeof(*m));
    set_xen_guest_handle(op.u.hvmcontext.buffer, ctx);
    op.u.hvmcontext.size = sizeof(ctx);
    check_rc("gethvmcontext", domctl(&op), 0);
    while ( off + sizeof(*d) <= op.u.hvmcontext.size )
    {
        d = (void *)(ctx + off);
        if ( d->typecode == 14 )
        {
            n_mtrr++;
            if ( d->instance == 0 )
                m = (void *)(d + 1);
        }
        if ( d->typecode == 1 )
            memcpy(&set.h, d + 1, sizeof(set.h));
        off += sizeof(*d) + d->length;
    }
    check_rc("gethvmcontext: one MTRR record per vCPU", n_mtrr, 2);
    check_true("MTRR record 0: 8 variable ranges, PAT's reset value",
               m && (m->msr_mtrr_cap & 0xff) == 8 && m->msr_pat_cr == 0x0007040600070406ULL);
    if ( !m )
        return;
    /* As vcpu_hvm(): HEADER, MTRR (write-back, enabled) for vCPU 1, END. */
    set.hd = (struct hvm_save_descriptor){ 1, 0, sizeof(set.h) };
    set.md = (struct hvm_save_descriptor){ 14, 1, sizeof(set.m) };
    set.m = *m;
    set.m.msr_mtrr_def_type = 6 | (1u << 11);
    set.ed = (struct hvm_save_descriptor){ 0, 0, 0 };
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_sethvmcontext, .domain = id };
    set_xen_guest_handle(op.u.hvmcontext.buffer, (uint8_t *)&set);
    op.u.hvmcontext.size = sizeof(set);
    check_rc("sethvmcontext: HEADER, MTRR 1, END", domctl(&op), 0);
    set.m.msr_mtrr_def_type = 2;            /* type 2: reserved */
    check_rc("sethvmcontext: an MTRR default type 2", domctl(&op), -XEN_EINVAL);
    set.m.msr_mtrr_def_type = 6 | (1u << 11);
    set.m.msr_mtrr_cap = 4;
    check_rc("sethvmcontext: 4 variable ranges", domctl(&op), -XEN_EINVAL);
    set.m.msr_mtrr_cap = m->msr_mtrr_cap;
    set.md.instance = 2;
    check_rc("sethvmcontext: MTRR of vCPU 2 of 2", domctl(&op), -XEN_EINVAL);
    op = (struct xen_domctl){ .cmd = XEN_DOMCTL_gethvmcontext, .domain = id };
    set_xen_guest_handle(op.u.hvmcontext.buffer, ctx);
    op.u.hvmcontext.size = sizeof(ctx);
    domctl(&op);
    for ( off = 0, m = NULL; off + sizeof(*d) <= op.u.hvmcontext.size; off += sizeof(*d) + d->length )
    {
        d = (void *)(ctx + off);
        if ( d->typecode == 14 && d->instance == 1 )
            m = (void *)(d + 1);
    }
    check_true("vCPU 1's MTRRs: write-back, enabled (the refused loads changed nothing)",
               m && m->msr_mtrr_def_type == (6 | (1u << 11)));

    /* vcpu_hvm()'s BSP record: flat 32-bit protected mode, rflags 0. */
    {
        static struct {
            struct hvm_save_descriptor hd;
            struct hvm_save_header h;
            struct hvm_save_descriptor cd;
            struct hvm_hw_cpu c;
            struct hvm_save_descriptor ed;
        } __attribute__((packed)) bsp;

        bsp.hd = set.hd;
        bsp.h = set.h;
        bsp.cd = (struct hvm_save_descriptor){ 2, 0, sizeof(bsp.c) };
        bsp.c.cs_limit = bsp.c.ds_limit = bsp.c.es_limit = bsp.c.ss_limit = ~0u;
        bsp.c.tr_limit = 0x67;
        bsp.c.cs_arbytes = 0xc9b;
        bsp.c.ds_arbytes = bsp.c.es_arbytes = bsp.c.ss_arbytes = 0xc93;
        bsp.c.tr_arbytes = 0x8b;
        bsp.c.cr0 = 0x11;                   /* PE | ET */
        bsp.c.rip = 0x100000;
        bsp.c.dr6 = 0xffff0ff0;
        bsp.c.dr7 = 0x400;
        bsp.ed = (struct hvm_save_descriptor){ 0, 0, 0 };
        op = (struct xen_domctl){ .cmd = XEN_DOMCTL_sethvmcontext, .domain = id };
        set_xen_guest_handle(op.u.hvmcontext.buffer, (uint8_t *)&bsp);
        op.u.hvmcontext.size = sizeof(bsp);
        check_rc("sethvmcontext: libxenguest's BSP record (rflags 0)", domctl(&op), 0);
        bsp.c.rflags = 1u << 3;             /* reserved */
        check_rc("sethvmcontext: rflags bit 3", domctl(&op), -XEN_EINVAL);
    }
}

/* Our own map, set and read back. */
static void test_own_memory_map(void)
{
    static struct { uint64_t addr, size; uint32_t type; } __attribute__((packed)) in[2] = {
        { 0, 0x9f000, 1 }, { 0x100000, 0x1000000, 1 },
    }, out[4];
    struct xen_foreign_memory_map f = { .domid = DOMID_SELF, .map.nr_entries = 2 };
    struct xen_memory_map m = { .nr_entries = 4 };

    set_xen_guest_handle(f.map.buffer, in);
    check_rc("XENMEM_set_memory_map DOMID_SELF", memory_op(XENMEM_set_memory_map, &f), 0);
    set_xen_guest_handle(m.buffer, out);
    check_rc("XENMEM_memory_map", memory_op(XENMEM_memory_map, &m), 0);
    check_true("XENMEM_memory_map: the 2 entries set",
               m.nr_entries == 2 && out[1].addr == 0x100000 && out[1].size == 0x1000000 &&
               out[1].type == 1 && out[0].size == 0x9f000);
}

void test_main(void)
{
    domid_t id = 0x7FF4, id2 = DOMID_INVALID, taken;

    test_sysctls();

    check_rc("createdomain domid 0x7FF4 (xl's)", create(&id, 2), 0);
    check_true("createdomain: a free domid given", id >= 1 && id < DOMID_FIRST_RESERVED);
    printk("  the new domain is d%u\n", id);
    check_rc("createdomain DOMID_INVALID again", create(&id2, 1), 0);
    check_true("createdomain: another domid", id2 != id && id2 >= 1 &&
               id2 < DOMID_FIRST_RESERVED);
    taken = id;
    check_rc("createdomain a domid in use", create(&taken, 1), -XEN_EEXIST);

    test_created(id, id2);
    test_cpu_policy(id, id2);
    test_multicall(id);
    test_pfinfo(id);
    test_mtrr_context(id);
    test_own_memory_map();

    check_rc("destroydomain", destroy(id), 0);
    check_rc("destroydomain (the second)", destroy(id2), 0);
    xtf_success(NULL);
}

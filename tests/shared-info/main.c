/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shared_info, vcpu_info and time, as Linux sets them up at boot:
 *
 *   XENVER_get_features: auto_translated_physmap, hvm_callback_vector,
 *     hvm_safe_pvclock; XENFEAT_dom0 exactly when we are the initial domain
 *   XENMEM_add_to_physmap(shared_info): bad idx / space / domain / gfn
 *     rejected; mapped over one of our RAM pages; the wallclock is there
 *   VCPUOP_register_vcpu_info: offset past the page end, reserved field,
 *     a gfn that is not RAM, a vCPU that does not exist, twice: rejected;
 *     for vCPU 0 and for vCPU 1 while it is down: accepted, with the
 *     "everything may be pending" marks Xen leaves
 *   runstate: VCPUOP_register_runstate_memory_area kept current for the
 *     running vCPU; VCPUOP_get_runstate_info shows vCPU 1 blocked
 *   VCPUOP_register_vcpu_time_memory_area: a copy of the record, kept current
 *   vcpu_time_info: version even, system time monotonic over many reads,
 *     refreshed (version bumped) when the vCPU is scheduled again, agreeing
 *     with HVMOP_get_time
 */
#include "test.h"
#include "check.h"
#include "events.h"
#include "public/features.h"

const char test_title[] = "shared_info, vcpu_info and system time";

#define NOT_RAM_GFN 0x80000UL          /* 2 GiB: beyond our RAM */
#define TIME_READS  2000

static volatile bool ap_done;
static volatile long ap_result = -1;

static void check_time_record(const char *who, const struct vcpu_info *vi)
{
    const volatile struct vcpu_time_info *t = &vi->time;

    if ( (t->version & 1) || !t->version || !t->tsc_to_system_mul || !t->system_time )
        xtf_failure("Fail: %s time record: version %u mul %#x system_time %lu\n", who,
                    t->version, t->tsc_to_system_mul, (unsigned long)t->system_time);
    else
        printk("  ok   %s time record: version %u mul %#x shift %d flags %#x\n", who,
               t->version, t->tsc_to_system_mul, t->tsc_shift, t->flags);
}

static void ap_main(unsigned int id)
{
    uint64_t a = xen_system_time(), b = xen_system_time();

    /* Our registered area must be the one the hypervisor updates. */
    ap_result = (vcpu_info[id]->time.version & 1) == 0 && b >= a && a > 0;
    ap_done = true;
    for ( ;; )
    {
        evtchn_ack_upcall();
        hypercall_sched_op(SCHEDOP_block, NULL);
    }
}

static void test_features(void)
{
    struct xen_feature_info fi = { .submap_idx = 0 };
    bool initdomain = start_info && (start_info->flags & SIF_INITDOMAIN);

    printk("XENVER_get_features:\n");
    check_rc("get_features submap 0", hypercall_xen_version(XENVER_get_features, &fi), 0);
    check_true("auto_translated_physmap", fi.submap & (1u << XENFEAT_auto_translated_physmap));
    check_true("hvm_callback_vector", fi.submap & (1u << XENFEAT_hvm_callback_vector));
    check_true("hvm_safe_pvclock", fi.submap & (1u << XENFEAT_hvm_safe_pvclock));
    check_true("XENFEAT_dom0 iff SIF_INITDOMAIN",
               !!(fi.submap & (1u << XENFEAT_dom0)) == initdomain);
    check_true("no hvm_pirqs (none emulated)", !(fi.submap & (1u << XENFEAT_hvm_pirqs)));
}

static long add_to_physmap(domid_t dom, unsigned int space, unsigned long idx,
                           unsigned long gpfn)
{
    struct xen_add_to_physmap xatp = {
        .domid = dom, .space = space, .idx = idx, .gpfn = gpfn,
    };

    return hypercall_memory_op(XENMEM_add_to_physmap, &xatp);
}

static void test_shared_info(void)
{
    static uint8_t scratch[PAGE_SIZE] __aligned(PAGE_SIZE);
    unsigned long gfn = (unsigned long)scratch >> PAGE_SHIFT;

    printk("XENMEM_add_to_physmap:\n");
    check_rc("shared_info idx 1", add_to_physmap(DOMID_SELF, XENMAPSPACE_shared_info, 1, gfn),
             -XEN_EINVAL);
    check_rc("space gmfn_range (unimplemented)",
             add_to_physmap(DOMID_SELF, XENMAPSPACE_gmfn_range, 0, gfn), -XEN_ENOSYS);
    check_rc("domain 0x7000", add_to_physmap(0x7000, XENMAPSPACE_shared_info, 0, gfn),
             -XEN_ESRCH);
    check_rc("gfn beyond 48 bits",
             add_to_physmap(DOMID_SELF, XENMAPSPACE_shared_info, 0, 1UL << 40), -XEN_EINVAL);
    /* Map it at a scratch page first, then where the library wants it. */
    check_rc("shared_info at a scratch page",
             add_to_physmap(DOMID_SELF, XENMAPSPACE_shared_info, 0, gfn), 0);
    check_true("the scratch page now shows shared_info (wc_version even, wc_sec set)",
               ((struct shared_info *)scratch)->wc_sec >= 946684800u &&
               !(((struct shared_info *)scratch)->wc_version & 1));
    check_rc("shared_info moved to its final page", map_shared_info(), 0);
    check_rc("mapped again at the same page", map_shared_info(), 0);
    printk("  wallclock at boot: %u s (version %u)\n", shared_info->wc_sec,
           shared_info->wc_version);
    check_true("wallclock after 2000-01-01", shared_info->wc_sec >= 946684800u);
    check_time_record("vCPU 0 legacy slot", vcpu_info[0]);
}

static long register_raw(unsigned int id, unsigned long gfn, uint32_t offset, uint32_t rsvd)
{
    struct vcpu_register_vcpu_info info = { .mfn = gfn, .offset = offset, .rsvd = rsvd };

    return hypercall_vcpu_op(VCPUOP_register_vcpu_info, id, &info);
}

static void test_vcpu_info(unsigned int nr_vcpus)
{
    static uint8_t page[PAGE_SIZE] __aligned(PAGE_SIZE);
    unsigned long gfn = (unsigned long)page >> PAGE_SHIFT;
    unsigned int i;

    printk("VCPUOP_register_vcpu_info:\n");
    check_rc("offset crossing the page end",
             register_raw(0, gfn, PAGE_SIZE - sizeof(struct vcpu_info) + 1, 0), -XEN_EINVAL);
    check_rc("reserved field set", register_raw(0, gfn, 0, 1), -XEN_EINVAL);
    check_rc("gfn that is not RAM", register_raw(0, NOT_RAM_GFN, 0, 0), -XEN_EINVAL);
    check_rc("vCPU that does not exist", register_raw(nr_vcpus, gfn, 0, 0), -XEN_ENOENT);
    check_rc("vCPU 0", register_vcpu_info(0), 0);
    check_true("new area: upcall pending and every selector bit set (Xen's marks)",
               vcpu_info[0]->evtchn_upcall_pending == 1 &&
               vcpu_info[0]->evtchn_pending_sel == ~(xen_ulong_t)0);
    check_time_record("vCPU 0 registered area", vcpu_info[0]);
    check_rc("vCPU 0 again", register_vcpu_info(0), -XEN_EINVAL);
    if ( nr_vcpus < 2 )
        return xtf_failure("Fail: this test needs 2 vCPUs\n");
    check_rc("vCPU 1 while it is down", register_vcpu_info(1), 0);
    check_rc("start vCPU 1", vcpu_start(1, ap_main), 0);
    for ( i = 0; i < 1000000 && !ap_done; i++ )
        hypercall_yield();
    check_true("vCPU 1 reads its time from its registered area", ap_done && ap_result == 1);
    check_rc("vCPU 1 while it is up (from vCPU 0)", register_raw(1, gfn, 0, 0), -XEN_EINVAL);
}

static void test_time(void)
{
    uint64_t prev = xen_system_time(), first = prev, now, hv, before, after;
    uint32_t version = vcpu_info[0]->time.version;
    struct xen_hvm_get_time gt;
    unsigned int i, backwards = 0;

    printk("System time:\n");
    for ( i = 0; i < TIME_READS; i++ )
    {
        now = xen_system_time();
        if ( now < prev )
            backwards++;
        prev = now;
        if ( i % 100 == 0 )
            hypercall_yield();      /* schedule-in: a fresh record */
    }
    check_true("system time never went backwards", backwards == 0);
    check_true("system time advanced", prev > first);
    check_true("the record was refreshed (version moved on, still even)",
               vcpu_info[0]->time.version != version && !(vcpu_info[0]->time.version & 1));
    printk("  %u reads from %lu ns to %lu ns, version %u -> %u\n", TIME_READS,
           (unsigned long)first, (unsigned long)prev, version, vcpu_info[0]->time.version);

    before = xen_system_time();
    check_rc("HVMOP_get_time", hypercall_hvm_op(HVMOP_get_time, &gt), 0);
    after = xen_system_time();
    hv = gt.now;
    check_true("HVMOP_get_time lies between two pvclock reads", before <= hv && hv <= after);
}

static void test_runstate(void)
{
    static struct vcpu_runstate_info area;
    struct vcpu_register_runstate_memory_area reg = { .addr.p = (unsigned long)&area };
    struct vcpu_runstate_info r1;
    uint64_t t0;
    unsigned int i;

    printk("Runstate:\n");
    check_rc("vm_assist enable runstate_update_flag",
             hypercall6(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                        VMASST_TYPE_runstate_update_flag, 0, 0, 0), 0);
    check_rc("vm_assist writable_pagetables (PV only)",
             hypercall6(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                        VMASST_TYPE_writable_pagetables, 0, 0, 0), -XEN_EINVAL);
    check_rc("vm_assist unknown command",
             hypercall6(__HYPERVISOR_vm_assist, 7, VMASST_TYPE_runstate_update_flag,
                        0, 0, 0), -XEN_ENOSYS);
    check_rc("register vCPU 0's runstate area",
             hypercall_vcpu_op(VCPUOP_register_runstate_memory_area, 0, &reg), 0);
    t0 = area.time[RUNSTATE_running];
    for ( i = 0; i < 5; i++ )
        hypercall_yield();          /* each entry refreshes the area */
    check_true("vCPU 0 sees itself running", area.state == RUNSTATE_running);
    check_true("its running time grew", area.time[RUNSTATE_running] > t0);
    check_true("state entry time not in the future", area.state_entry_time <= xen_system_time());
    check_rc("get_runstate_info of vCPU 1",
             hypercall_vcpu_op(VCPUOP_get_runstate_info, 1, &r1), 0);
    check_true("vCPU 1 is blocked, and has been for a while",
               r1.state == RUNSTATE_blocked && r1.time[RUNSTATE_blocked] > 0);
    check_rc("get_runstate_info of vCPU 99",
             hypercall_vcpu_op(VCPUOP_get_runstate_info, 99, &r1), -XEN_ENOENT);
}

static void test_time_area(void)
{
    static struct vcpu_time_info area;
    struct vcpu_register_time_memory_area reg = { .addr.p = (unsigned long)&area };
    uint32_t version;

    printk("Time memory area:\n");
    check_rc("register vCPU 0's time area",
             hypercall_vcpu_op(VCPUOP_register_vcpu_time_memory_area, 0, &reg), 0);
    check_true("written, even version, the same scale",
               area.version && !(area.version & 1) &&
               area.tsc_to_system_mul == vcpu_info[0]->time.tsc_to_system_mul &&
               area.tsc_shift == vcpu_info[0]->time.tsc_shift);
    version = area.version;
    hypercall_yield();
    check_true("refreshed with the vcpu_info record",
               area.version != version &&
               area.system_time == vcpu_info[0]->time.system_time &&
               area.tsc_timestamp == vcpu_info[0]->time.tsc_timestamp);
}

void test_main(void)
{
    unsigned int nr_vcpus = vcpu_count();

    test_features();
    test_shared_info();
    test_vcpu_info(nr_vcpus);
    test_time();
    test_runstate();
    test_time_area();
}

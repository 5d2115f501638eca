/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XSA-188: EVTCHNOP_init_control with a bad control_gfn failed correctly
 * but left a pointer to the per-domain FIFO state it had just freed; a
 * later EVTCHNOP_expand_array (or init_control) used the freed memory.
 * XTF's tests/xsa-188 makes the first call with control_gfn = -2 and
 * expects -EINVAL, then expand_array and expects -EOPNOTSUPP (or -ENOSYS
 * from a hypervisor without FIFO).  This is our own test of the same
 * case, on each way init_control can fail, with FIFO implemented: after
 * every failure expand_array must be -EOPNOTSUPP and the domain still
 * 2-level; a second failing init_control must fail the same way; and the
 * good path must still work afterwards, a failure on vCPU 1 leaving vCPU
 * 0's FIFO state intact.  Run as a domU with 2 vCPUs beside a witness.
 */
#include "test.h"
#include "check.h"
#include "events.h"

const char test_title[] = "XSA-188: init_control's error path";

static uint8_t array_page[PAGE_SIZE] __aligned(PAGE_SIZE);
static uint8_t cb_page[PAGE_SIZE] __aligned(PAGE_SIZE);

static unsigned long gfn_of(const void *p)
{
    return (unsigned long)p >> PAGE_SHIFT;
}

static void after_failure(const char *what)
{
    long rc = evtchn_expand_array(gfn_of(array_page));

    if ( rc != -XEN_EOPNOTSUPP )
        xtf_failure("Fail: after %s, expand_array returned %ld (not -EOPNOTSUPP)\n", what, rc);
    rc = evtchn_init_control((uint64_t)-2, 0, 0, NULL);
    if ( rc != -XEN_EINVAL )
        xtf_failure("Fail: after %s, init_control gfn -2 again returned %ld\n", what, rc);
    rc = evtchn_expand_array(gfn_of(array_page));
    if ( rc != -XEN_EOPNOTSUPP )
        xtf_failure("Fail: after %s, expand_array (2) returned %ld\n", what, rc);
}

void test_main(void)
{
    evtchn_port_t p;
    long rc;

    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");

    printk("XTF's case:\n");
    rc = evtchn_init_control((uint64_t)-2, 0, 0, NULL);
    check_rc("init_control, control_gfn -2", rc, -XEN_EINVAL);
    check_rc("expand_array", evtchn_expand_array(gfn_of(array_page)), -XEN_EOPNOTSUPP);

    printk("Every other way init_control fails, then the same:\n");
    check_rc("init_control, vCPU 7", evtchn_init_control(gfn_of(cb_page), 0, 7, NULL),
             -XEN_ENOENT);
    after_failure("vCPU 7");
    check_rc("init_control, offset 4088", evtchn_init_control(gfn_of(cb_page), 4088, 0, NULL),
             -XEN_EINVAL);
    after_failure("offset 4088");
    check_rc("init_control, offset 12", evtchn_init_control(gfn_of(cb_page), 12, 0, NULL),
             -XEN_EINVAL);
    after_failure("offset 12");
    check_rc("init_control, gfn past RAM", evtchn_init_control(0x100000, 0, 0, NULL),
             -XEN_EINVAL);
    after_failure("a gfn past RAM");
    check_rc("init_control, unreadable argument",
             hypercall_event_channel_op(EVTCHNOP_init_control, (void *)0xc0000000UL), -XEN_EFAULT);
    after_failure("an unreadable argument");

    printk("Still 2-level, and FIFO works afterwards:\n");
    check_rc("bind_ipi", evtchn_bind_ipi(0, &p), 0);
    check_rc("set_priority: no FIFO yet", evtchn_set_priority(p, 2), -XEN_ENOSYS);
    check_rc("init_control vCPU 0", fifo_setup_vcpu(0, (void *)cb_page), 0);
    check_rc("init_control vCPU 1, gfn -2", evtchn_init_control((uint64_t)-2, 0, 1, NULL),
             -XEN_EINVAL);
    check_rc("expand_array", fifo_add_page(array_page), 0);
    check_rc("init_control vCPU 1, gfn -2 again", evtchn_init_control((uint64_t)-2, 0, 1, NULL),
             -XEN_EINVAL);
    check_rc("set_priority", evtchn_set_priority(p, 2), 0);
    check_rc("send", evtchn_send(p), 0);
    check_true("vCPU 0's queue 2 has it", fifo_control_block[0]->head[2] == p &&
               fifo_control_block[0]->ready == (1u << 2));
    check_true("consumed", fifo_consume(0) == 1 && fifo_log[0][0] == p);
    check_rc("reset", evtchn_reset(DOMID_SELF), 0);
    fifo_forget();
    check_rc("expand_array after reset", evtchn_expand_array(gfn_of(array_page)),
             -XEN_EOPNOTSUPP);
}

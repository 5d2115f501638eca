/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xc_domain_save / xc_domain_restore as a Xen 4.17 program uses them,
 * compiled twice: against our xenguest.h (SIDE=ours) and against Debian's
 * libxen-dev (SIDE=debian).  Each build reports the layouts and numbers
 * it saw; compat-check compares the two.  A name, signature or constant
 * that differs fails to compile or to compare.
 */
#include <stddef.h>
#include <stdint.h>

#include <xenctrl.h>
#include <xenguest.h>

#define PASTE_(a, b) a##b
#define PASTE(a, b) PASTE_(a, b)

static int policy(struct precopy_stats st, void *data)
{
    (void)data;
    return st.dirty_count < 0 ? XGS_POLICY_ABORT :
           st.iteration > 5 ? XGS_POLICY_STOP_AND_COPY
                            : XGS_POLICY_CONTINUE_PRECOPY;
}

/* The signatures, checked without referring to the library. */
_Static_assert(__builtin_types_compatible_p(__typeof__(&xc_domain_save),
    int (*)(xc_interface *, int, uint32_t, uint32_t, struct save_callbacks *,
            xc_stream_type_t, int)), "xc_domain_save");
_Static_assert(__builtin_types_compatible_p(__typeof__(&xc_domain_restore),
    int (*)(xc_interface *, int, uint32_t, unsigned int, unsigned long *,
            uint32_t, unsigned int, unsigned long *, uint32_t,
            xc_stream_type_t, struct restore_callbacks *, int)),
    "xc_domain_restore");
_Static_assert(__builtin_types_compatible_p(precopy_policy_t,
    int (*)(struct precopy_stats, void *)), "precopy_policy_t");

const struct save_callbacks PASTE(scb_, SIDE) = { .precopy_policy = policy };

#define L(x) (unsigned long)(x)
const unsigned long PASTE(layout_, SIDE)[] = {
    L(sizeof(struct precopy_stats)),
    L(offsetof(struct precopy_stats, iteration)),
    L(offsetof(struct precopy_stats, total_written)),
    L(offsetof(struct precopy_stats, dirty_count)),
    L(sizeof(struct save_callbacks)),
    L(offsetof(struct save_callbacks, suspend)),
    L(offsetof(struct save_callbacks, precopy_policy)),
    L(offsetof(struct save_callbacks, postcopy)),
    L(offsetof(struct save_callbacks, checkpoint)),
    L(offsetof(struct save_callbacks, wait_checkpoint)),
    L(offsetof(struct save_callbacks, switch_qemu_logdirty)),
    L(offsetof(struct save_callbacks, data)),
    L(sizeof(struct restore_callbacks)),
    L(offsetof(struct restore_callbacks, static_data_done)),
    L(offsetof(struct restore_callbacks, suspend)),
    L(offsetof(struct restore_callbacks, postcopy)),
    L(offsetof(struct restore_callbacks, checkpoint)),
    L(offsetof(struct restore_callbacks, wait_checkpoint)),
    L(offsetof(struct restore_callbacks, restore_results)),
    L(offsetof(struct restore_callbacks, data)),
    L(XCFLAGS_LIVE), L(XCFLAGS_DEBUG),
    L(XGS_POLICY_ABORT + 10), L(XGS_POLICY_CONTINUE_PRECOPY),
    L(XGS_POLICY_STOP_AND_COPY),
    L(XGR_SDD_MISSING_CPUID), L(XGR_SDD_MISSING_MSR),
    L(XGR_CHECKPOINT_ERROR), L(XGR_CHECKPOINT_SUCCESS), L(XGR_CHECKPOINT_FAILOVER),
    L(XC_STREAM_PLAIN), L(XC_STREAM_REMUS), L(XC_STREAM_COLO),
    L(sizeof(xc_stream_type_t)),
};
const unsigned int PASTE(nr_layout_, SIDE) =
    sizeof(PASTE(layout_, SIDE)) / sizeof(PASTE(layout_, SIDE)[0]);

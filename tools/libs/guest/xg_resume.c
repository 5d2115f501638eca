/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xc_domain_resume (Xen 4.17's, tools/libs/guest/xg_resume.c; declared in
 * xenguest.h): a domain that shut itself down for suspend
 * (SCHEDOP_shutdown(SHUTDOWN_suspend)) runs on in place, after a
 * cancelled or failed save or migration, or after a checkpoint.
 *
 * fast != 0, the cooperative resume: the guest's SCHEDOP_shutdown returns
 * 1 ("suspend cancelled, you are still in the old domain": Linux then
 * keeps its shared_info, event channels and xenbus connection as they
 * are) instead of 0 ("you are in a new domain": rebuild everything).  As
 * Xen's modify_returncode(): the domain must be shut down with reason
 * suspend (otherwise -1, errno EINVAL, "not suspended"); an HVM guest
 * without PV drivers -- HVM_PARAM_CALLBACK_IRQ 0 -- has no return code to
 * modify and is resumed as it is; otherwise vCPU 0's saved rax is set to
 * 1.  Xen does that with XEN_DOMCTL_getvcpucontext/setvcpucontext (on an
 * HVM guest those read and write the same registers as the HVM context's
 * CPU record); this hypervisor has no vcpucontext domctls, so vCPU 0's
 * CPU record is changed in the HVM context (XEN_DOMCTL_gethvmcontext /
 * sethvmcontext), which is the same register.  Then
 * XEN_DOMCTL_resumedomain.
 *
 * fast == 0: for an HVM (here: every) guest Xen's xc_domain_resume_hvm
 * only issues XEN_DOMCTL_resumedomain: the guest sees 0, as if it had
 * been restored into a new domain, and reconnects everything.
 */
#include <stdlib.h>

#include "xg_private.h"
#include <xen/hvm/params.h>
#include <xen/sched.h>

/* vCPU 0's CPU record in an HVM context: its offset, or 0 if it has none. */
static uint32_t find_cpu0(const uint8_t *buf, uint32_t len)
{
    uint32_t off = 0;

    while ( off + sizeof(struct hvm_save_descriptor) <= len )
    {
        struct hvm_save_descriptor desc;

        memcpy(&desc, buf + off, sizeof(desc));
        if ( desc.length > len - off - sizeof(desc) )
            return 0;
        if ( desc.typecode == HVM_SAVE_CODE(END) )
            return 0;
        if ( desc.typecode == HVM_SAVE_CODE(CPU) && desc.instance == 0 &&
             desc.length == sizeof(struct hvm_hw_cpu) )
            return off + sizeof(desc);
        off += sizeof(desc) + desc.length;
    }
    return 0;
}

static int modify_returncode(xc_interface *xch, uint32_t domid)
{
    xc_dominfo_t info;
    uint64_t irq = 0;
    struct hvm_hw_cpu cpu;
    uint8_t *buf = NULL;
    int size, rc = -1;
    uint32_t off;

    if ( xc_domain_getinfo(xch, domid, 1, &info) != 1 || info.domid != domid )
    {
        PERROR("Could not get domain info");
        return -1;
    }
    if ( !info.shutdown || info.shutdown_reason != SHUTDOWN_suspend )
    {
        ERROR("Dom %d not suspended: (shutdown %d, reason %d)", domid,
              info.shutdown, info.shutdown_reason);
        errno = EINVAL;
        return -1;
    }

    /* HVM guests without PV drivers have no return code to modify (Xen's rule). */
    xc_hvm_param_get(xch, domid, HVM_PARAM_CALLBACK_IRQ, &irq);
    if ( !irq )
        return 0;

    size = xc_domain_hvm_getcontext(xch, domid, NULL, 0);
    if ( size <= 0 || !(buf = malloc(size)) )
    {
        PERROR("Could not get the HVM context's size of dom%u", domid);
        goto out;
    }
    size = xc_domain_hvm_getcontext(xch, domid, buf, size);
    if ( size <= 0 )
    {
        PERROR("Could not get the HVM context of dom%u", domid);
        goto out;
    }
    off = find_cpu0(buf, size);
    if ( !off )
    {
        ERROR("Dom %u's HVM context has no record of vCPU 0", domid);
        errno = EINVAL;
        goto out;
    }
    memcpy(&cpu, buf + off, sizeof(cpu));
    cpu.rax = 1;
    memcpy(buf + off, &cpu, sizeof(cpu));
    if ( xc_domain_hvm_setcontext(xch, domid, buf, size) )
    {
        PERROR("Could not set vCPU 0's return code in dom%u", domid);
        goto out;
    }
    rc = 0;
 out:
    free(buf);
    return rc;
}

static int resumedomain(xc_interface *xch, uint32_t domid)
{
    struct xen_domctl domctl = {
        .cmd = XEN_DOMCTL_resumedomain,
        .domain = domid,
    };

    return do_domctl(xch, &domctl);
}

int xc_domain_resume(xc_interface *xch, uint32_t domid, int fast)
{
    int rc;

    if ( fast && (rc = modify_returncode(xch, domid)) != 0 )
        return rc;
    return resumedomain(xch, domid);
}

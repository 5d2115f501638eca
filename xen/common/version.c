/* SPDX-License-Identifier: GPL-2.0-only */
/* Version information and the xen_version hypercall. */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/version.h>
#include <public/features.h>
#include <public/version.h>
#include <asm/page-bits.h>

const char *xen_compiler(void)
{
    return "gcc " __VERSION__;
}

const char *xen_changeset(void)
{
    return "unavailable";
}

void print_banner(void)
{
    printk(" __  __            _  _    _ _____     ___             _\n");
    printk(" \\ \\/ /___ _ __   | || |  / |___  |   / _ \\ _ __  _ __ | |\n");
    printk("  \\  // _ \\ '_ \\  | || |_ | |  / /___| |_) | '_ \\| '_ \\| |\n");
    printk("  /  \\  __/ | | | |__   _|| | / /_____|  __/| | | | | | | |\n");
    printk(" /_/\\_\\___|_| |_|    |_|(_)_|/_/      |_|   |_| |_|_| |_|_|\n");
    printk("Xen version %s (%s)\n", XEN_FULLVERSION, xen_compiler());
}

/*
 * Features an HVM/PVH guest of ours sees in XENVER_get_features submap 0,
 * as Xen reports them for HVM: the p2m is ours (auto-translated, so page
 * tables are the guest's own: writable), the callback vector works, the
 * vcpu_time_info TSC is the guest's TSC (one CPU, no TSC offsetting), and
 * the control domain is dom0.
 */
static uint32_t guest_features(const struct domain *d, unsigned int idx)
{
    uint32_t f;

    if ( idx != 0 )
        return 0;
    f = (1u << XENFEAT_writable_page_tables) |
        (1u << XENFEAT_auto_translated_physmap) |
        (1u << XENFEAT_hvm_callback_vector) |
        (1u << XENFEAT_hvm_safe_pvclock);
    if ( is_control_domain(d) )
        f |= 1u << XENFEAT_dom0;
    return f;
}

long do_xen_version(int cmd, XEN_GUEST_HANDLE_PARAM(void) arg)
{
    struct domain *d = current->domain;

    switch ( cmd )
    {
    case XENVER_version:
        return (XEN_VERSION << 16) | XEN_SUBVERSION;

    case XENVER_extraversion:
    {
        xen_extraversion_t extra;

        memset(extra, 0, sizeof(extra));
        strlcpy(extra, XEN_EXTRAVERSION, sizeof(extra));
        return copy_to_guest(arg, extra, ARRAY_SIZE(extra)) ? -EFAULT : 0;
    }

    case XENVER_compile_info:
    {
        struct xen_compile_info info;

        memset(&info, 0, sizeof(info));
        strlcpy(info.compiler, xen_compiler(), sizeof(info.compiler));
        strlcpy(info.compile_by, "xen", sizeof(info.compile_by));
        strlcpy(info.compile_domain, "localdomain", sizeof(info.compile_domain));
        strlcpy(info.compile_date, "unknown", sizeof(info.compile_date));
        return copy_to_guest(arg, &info, 1) ? -EFAULT : 0;
    }

    case XENVER_capabilities:
    {
        static const char caps[] = "hvm-3.0-x86_64 hvm-3.0-x86_32 hvm-3.0-x86_32p";
        xen_capabilities_info_t info;

        memset(info, 0, sizeof(info));
        strlcpy(info, caps, sizeof(info));
        return copy_to_guest(arg, info, ARRAY_SIZE(info)) ? -EFAULT : 0;
    }

    case XENVER_changeset:
    {
        xen_changeset_info_t chg;

        memset(chg, 0, sizeof(chg));
        strlcpy(chg, xen_changeset(), sizeof(chg));
        return copy_to_guest(arg, chg, ARRAY_SIZE(chg)) ? -EFAULT : 0;
    }

    case XENVER_platform_parameters:
    {
        struct xen_platform_parameters p = { .virt_start = 0 };

        return copy_to_guest(arg, &p, 1) ? -EFAULT : 0;
    }

    case XENVER_get_features:
    {
        struct xen_feature_info fi;

        if ( copy_from_guest(&fi, arg, 1) )
            return -EFAULT;
        fi.submap = guest_features(d, fi.submap_idx);
        return copy_to_guest(arg, &fi, 1) ? -EFAULT : 0;
    }

    case XENVER_pagesize:
        return PAGE_SIZE;

    case XENVER_guest_handle:
    {
        uint8_t handle[16];

        memset(handle, 0, sizeof(handle));
        return copy_to_guest(arg, handle, ARRAY_SIZE(handle)) ? -EFAULT : 0;
    }

    case XENVER_commandline:
    {
        char line[1024];

        /* Only the control domain may read the hypervisor's command line. */
        if ( !is_control_domain(d) )
            return -EPERM;
        memset(line, 0, sizeof(line));
        strlcpy(line, saved_cmdline, sizeof(line));
        return copy_to_guest(arg, line, ARRAY_SIZE(line)) ? -EFAULT : 0;
    }

    case XENVER_build_id:
        return -ENODATA;

    default:
        return -ENOSYS;
    }
}

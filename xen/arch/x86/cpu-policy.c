/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPU policy as the toolstack sees it (Xen's arch/x86/cpu-policy.c,
 * lib/x86/cpuid.c and msr.c): libxenguest's xc_cpuid_apply_policy reads
 * the host featureset (XEN_SYSCTL_get_cpu_featureset) and the HVM default
 * policy (XEN_SYSCTL_get_cpu_policy), adjusts it and sets it on the new
 * domain (XEN_DOMCTL_set_cpu_policy); migration reads a domain's
 * (XEN_DOMCTL_get_cpu_policy).
 *
 * A policy is what guest_cpuid() answers (cpuid.c) serialised in Xen
 * 4.17's order and limits: basic leaves up to 0xd (leaf 4 until a null
 * cache, leaf 7 up to its max subleaf, 0xb until a null level, 0xd
 * subleaves 0 and 1 and one per XSAVE state), 0x40000000 and 0x40000100
 * (hv_limit, hv2_limit: 0), extended leaves up to 0x80000021 (the max
 * leaves in leaf 0 and 0x80000000 clamped to those, as Xen's host policy,
 * though guests see the host's); and the MSRs
 * PLATFORM_INFO and ARCH_CAPABILITIES as guests read them (msr.c).  Every
 * policy index gives the same (HVM, PV and max alike: there is one policy
 * here).
 *
 * Setting a domain's policy, before it first runs: entries are checked as
 * Xen does (too many -E2BIG, a leaf or subleaf out of range -ERANGE, MSR
 * flags -EINVAL, an unknown MSR -ERANGE, a value too wide -EOVERFLOW, each
 * with err_leaf/err_subleaf/err_msr), then against the maximum (a higher
 * max leaf or subleaf, or a PLATFORM_INFO bit not offered: -EINVAL).  Of
 * what is accepted, the feature bits of leaves 1, 7.0 and 0x80000001 that
 * the toolstack leaves out are hidden from the domain from then on (bits
 * it adds that are not offered are dropped, as Xen's recalculation does);
 * the rest (max leaves lowered, topology, cache leaves, ARCH_CAPABILITIES)
 * is taken and not applied.  Nothing changes unless everything is valid.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <public/domctl.h>
#include <public/sysctl.h>
#include <asm/cpu-policy.h>
#include <asm/cpuid.h>
#include <asm/msr.h>
#include <asm/msr-index.h>

/* Whose CPUID the system policies are: a domain of one vCPU, nothing hidden. */
static struct domain policy_domain = { .domain_id = DOMID_INVALID, .max_vcpus = 1 };
static struct vcpu policy_vcpu = { .domain = &policy_domain };

/* ---- CPUID leaves ----------------------------------------------------- */

struct leaf_buffer {
    XEN_GUEST_HANDLE_64(xen_cpuid_leaf_t) h;
    uint32_t room, n;
};

static int put_leaf(struct leaf_buffer *lb, uint32_t leaf, uint32_t subleaf,
                    const struct cpuid_leaf *l)
{
    xen_cpuid_leaf_t e = { .leaf = leaf, .subleaf = subleaf,
                           .a = l->a, .b = l->b, .c = l->c, .d = l->d };

    if ( lb->n == lb->room )
        return -ENOBUFS;
    if ( copy_to_guest_offset(lb->h, lb->n, &e, 1) )
        return -EFAULT;
    lb->n++;
    return 0;
}

/* The basic leaf and its subleaves, as Xen's x86_cpuid_copy_to_buffer. */
static int put_basic(struct leaf_buffer *lb, const struct vcpu *v, uint32_t leaf)
{
    struct cpuid_leaf l, l1;
    uint64_t xstates;
    uint32_t sub, max;
    int rc = 0;

    switch ( leaf )
    {
    case 0x4:
        for ( sub = 0; sub < CPUID_GUEST_NR_CACHE && !rc; sub++ )
        {
            guest_cpuid(v, leaf, sub, &l);
            rc = put_leaf(lb, leaf, sub, &l);
            if ( !(l.a & 0x1f) )            /* cache type 0: the last */
                break;
        }
        return rc;
    case 0x7:
        guest_cpuid(v, leaf, 0, &l);
        max = min(l.a, CPUID_GUEST_NR_FEAT - 1);
        for ( sub = 0; sub <= max && !rc; sub++ )
        {
            guest_cpuid(v, leaf, sub, &l);
            rc = put_leaf(lb, leaf, sub, &l);
        }
        return rc;
    case 0xb:
        for ( sub = 0; sub < CPUID_GUEST_NR_TOPO && !rc; sub++ )
        {
            guest_cpuid(v, leaf, sub, &l);
            rc = put_leaf(lb, leaf, sub, &l);
            if ( !((l.c >> 8) & 0xff) )     /* level type 0: the last */
                break;
        }
        return rc;
    case 0xd:
        guest_cpuid(v, leaf, 0, &l);
        guest_cpuid(v, leaf, 1, &l1);
        xstates = ((uint64_t)l.d << 32 | l.a) | ((uint64_t)l1.d << 32 | l1.c);
        if ( (rc = put_leaf(lb, leaf, 0, &l)) || (rc = put_leaf(lb, leaf, 1, &l1)) )
            return rc;
        for ( xstates >>= 2, sub = 2; xstates && sub < CPUID_GUEST_NR_XSTATE && !rc;
              xstates >>= 1, sub++ )
        {
            guest_cpuid(v, leaf, sub, &l);
            rc = put_leaf(lb, leaf, sub, &l);
        }
        return rc;
    default:
        guest_cpuid(v, leaf, 0, &l);
        if ( leaf == 0 )                    /* Xen's policy: max leaf clamped */
            l.a = min(l.a, CPUID_GUEST_NR_BASIC - 1);
        return put_leaf(lb, leaf, XEN_CPUID_NO_SUBLEAF, &l);
    }
}

static int serialise_cpuid(const struct vcpu *v, XEN_GUEST_HANDLE_64(xen_cpuid_leaf_t) h,
                           uint32_t *nr)
{
    struct leaf_buffer lb = { .h = h, .room = *nr };
    const struct cpuid_leaf zero = { 0 };
    struct cpuid_leaf l;
    uint32_t leaf, max;
    int rc;

    guest_cpuid(v, 0, 0, &l);
    max = min(l.a, CPUID_GUEST_NR_BASIC - 1);
    for ( leaf = 0; leaf <= max; leaf++ )
        if ( (rc = put_basic(&lb, v, leaf)) )
            return rc;
    if ( (rc = put_leaf(&lb, 0x40000000, XEN_CPUID_NO_SUBLEAF, &zero)) ||
         (rc = put_leaf(&lb, 0x40000100, XEN_CPUID_NO_SUBLEAF, &zero)) )
        return rc;
    guest_cpuid(v, 0x80000000, 0, &l);
    max = (l.a >> 16) == 0x8000 ? min(l.a & 0xffff, CPUID_GUEST_NR_EXTD - 1) : 0;
    for ( leaf = 0x80000000; leaf <= 0x80000000 + max; leaf++ )
    {
        guest_cpuid(v, leaf, 0, &l);
        if ( leaf == 0x80000000 )
            l.a = 0x80000000 + max;
        if ( (rc = put_leaf(&lb, leaf, XEN_CPUID_NO_SUBLEAF, &l)) )
            return rc;
    }
    *nr = lb.n;
    return 0;
}

/* ---- MSRs --------------------------------------------------------------- */

static uint64_t policy_msr(struct vcpu *v, uint32_t msr)
{
    uint64_t val;

    return guest_rdmsr(v, msr, &val) ? 0 : val;     /* #GP: not offered, 0 */
}

static int serialise_msrs(struct vcpu *v, XEN_GUEST_HANDLE_64(xen_msr_entry_t) h,
                          uint32_t *nr)
{
    const uint32_t idx[MSR_MAX_SERIALISED_ENTRIES] = {
        MSR_INTEL_PLATFORM_INFO, MSR_IA32_ARCH_CAPABILITIES,
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(idx); i++ )
    {
        xen_msr_entry_t e = { .idx = idx[i], .val = policy_msr(v, idx[i]) };

        if ( i == *nr )
            return -ENOBUFS;
        if ( copy_to_guest_offset(h, i, &e, 1) )
            return -EFAULT;
    }
    *nr = i;
    return 0;
}

/* Both halves, or their maximum sizes for NULL handles (Xen's size query). */
static int serialise(struct vcpu *v, XEN_GUEST_HANDLE_64(xen_cpuid_leaf_t) leaves,
                     uint32_t *nr_leaves, XEN_GUEST_HANDLE_64(xen_msr_entry_t) msrs,
                     uint32_t *nr_msrs)
{
    int rc;

    if ( guest_handle_is_null(leaves) )
        *nr_leaves = CPUID_MAX_SERIALISED_LEAVES;
    else if ( (rc = serialise_cpuid(v, leaves, nr_leaves)) )
        return rc;
    if ( guest_handle_is_null(msrs) )
        *nr_msrs = MSR_MAX_SERIALISED_ENTRIES;
    else if ( (rc = serialise_msrs(v, msrs, nr_msrs)) )
        return rc;
    return 0;
}

/* ---- the calls ---------------------------------------------------------- */

/* The featureset words from the policy's leaves, in Xen 4.17's order. */
void cpu_policy_featureset(uint32_t words[FEATURESET_NR_ENTRIES])
{
    const struct vcpu *v = &policy_vcpu;
    struct cpuid_leaf l;

    memset(words, 0, FEATURESET_NR_ENTRIES * sizeof(*words));
    guest_cpuid(v, 1, 0, &l);
    words[0] = l.d;
    words[1] = l.c;
    guest_cpuid(v, 0x80000001, 0, &l);
    words[2] = l.d;
    words[3] = l.c;
    guest_cpuid(v, 0xd, 1, &l);
    words[4] = l.a;
    guest_cpuid(v, 7, 0, &l);
    words[5] = l.b;
    words[6] = l.c;
    words[9] = l.d;
    guest_cpuid(v, 0x80000007, 0, &l);
    words[7] = l.d;
    guest_cpuid(v, 0x80000008, 0, &l);
    words[8] = l.b;
    guest_cpuid(v, 7, 1, &l);
    words[10] = l.a;
    words[12] = l.b;
    guest_cpuid(v, 0x80000021, 0, &l);
    words[11] = l.a;
    guest_cpuid(v, 7, 2, &l);
    words[13] = l.d;
}

/*
 * XEN_SYSCTL_get_cpu_featureset: the 14 words of Xen 4.17's featureset,
 * from the policy's leaves (every index the same; above 5: -EINVAL); a
 * NULL buffer asks their number; a shorter buffer gets what fits and
 * -ENOBUFS, as Xen.
 */
int sysctl_get_cpu_featureset(struct xen_sysctl_cpu_featureset *fs)
{
    uint32_t words[FEATURESET_NR_ENTRIES];
    unsigned int nr;

    if ( guest_handle_is_null(fs->features) )
    {
        fs->nr_features = FEATURESET_NR_ENTRIES;
        return 0;
    }
    if ( fs->index > XEN_SYSCTL_cpu_featureset_hvm_max )
        return -EINVAL;
    cpu_policy_featureset(words);
    nr = min_t(uint32_t, fs->nr_features, FEATURESET_NR_ENTRIES);
    if ( copy_to_guest(fs->features, words, nr) )
        return -EFAULT;
    fs->nr_features = nr;
    return nr < FEATURESET_NR_ENTRIES ? -ENOBUFS : 0;
}

/* XEN_SYSCTL_get_cpu_policy: any of Xen's six indices, all the same here. */
int sysctl_get_cpu_policy(struct xen_sysctl_cpu_policy *cp)
{
    if ( cp->_rsvd || cp->index > XEN_SYSCTL_cpu_policy_hvm_default )
        return -EINVAL;
    return serialise(&policy_vcpu, cp->leaves, &cp->nr_leaves, cp->msrs, &cp->nr_msrs);
}

/* XEN_DOMCTL_get_cpu_policy: what the domain's vCPU 0 is shown. */
int domctl_get_cpu_policy(struct domain *d, struct xen_domctl_cpu_policy *cp)
{
    if ( !d->vcpu || !d->vcpu[0] )
        return -EINVAL;
    return serialise(d->vcpu[0], cp->leaves, &cp->nr_leaves, cp->msrs, &cp->nr_msrs);
}

/* The bits offered that the given leaf leaves out: hidden from now on. */
static void note_features(struct domain_cpu_policy *p, uint32_t leaf, uint32_t subleaf,
                          const struct cpuid_leaf *offered, const xen_cpuid_leaf_t *given)
{
    switch ( leaf )
    {
    case 1:
        p->hidden[POLICY_1C] = offered->c & ~given->c;
        p->hidden[POLICY_1D] = offered->d & ~given->d;
        break;
    case 7:
        if ( subleaf )
            break;
        p->hidden[POLICY_7B0] = offered->b & ~given->b;
        p->hidden[POLICY_7C0] = offered->c & ~given->c;
        p->hidden[POLICY_7D0] = offered->d & ~given->d;
        break;
    case 0x80000001:
        p->hidden[POLICY_E1C] = offered->c & ~given->c;
        p->hidden[POLICY_E1D] = offered->d & ~given->d;
        break;
    }
}

/* Xen's x86_cpuid_copy_from_buffer range rules: 0, or -ERANGE. */
static int leaf_in_range(const xen_cpuid_leaf_t *e)
{
    switch ( e->leaf )
    {
    case 0 ... CPUID_GUEST_NR_BASIC - 1:
        switch ( e->leaf )
        {
        case 0x4:  return e->subleaf < CPUID_GUEST_NR_CACHE ? 0 : -ERANGE;
        case 0x7:  return e->subleaf < CPUID_GUEST_NR_FEAT ? 0 : -ERANGE;
        case 0xb:  return e->subleaf < CPUID_GUEST_NR_TOPO ? 0 : -ERANGE;
        case 0xd:  return e->subleaf < CPUID_GUEST_NR_XSTATE ? 0 : -ERANGE;
        default:   return e->subleaf == XEN_CPUID_NO_SUBLEAF ? 0 : -ERANGE;
        }
    case 0x40000000:
    case 0x40000100:
    case 0x80000000 ... 0x80000000 + CPUID_GUEST_NR_EXTD - 1:
        return e->subleaf == XEN_CPUID_NO_SUBLEAF ? 0 : -ERANGE;
    default:
        return -ERANGE;
    }
}

static int merge_leaves(struct domain *d, const struct xen_domctl_cpu_policy *cp,
                        struct domain_cpu_policy *p, uint32_t *err_leaf,
                        uint32_t *err_subleaf)
{
    bool too_high = false;
    uint32_t hi_leaf = 0, hi_sub = 0, i;
    int rc;

    if ( cp->nr_leaves > CPUID_MAX_SERIALISED_LEAVES )
        return -E2BIG;
    for ( i = 0; i < cp->nr_leaves; i++ )
    {
        struct cpuid_leaf offered;
        xen_cpuid_leaf_t e;

        if ( copy_from_guest_offset(&e, cp->leaves, i, 1) )
            return -EFAULT;
        if ( (rc = leaf_in_range(&e)) )
        {
            *err_leaf = e.leaf;
            *err_subleaf = e.subleaf;
            return rc;
        }
        guest_cpuid_max(d->vcpu[0], e.leaf,
                        e.subleaf == XEN_CPUID_NO_SUBLEAF ? 0 : e.subleaf, &offered);
        if ( e.leaf == 0 )                  /* the maxima as serialised */
            offered.a = min(offered.a, CPUID_GUEST_NR_BASIC - 1);
        else if ( e.leaf == 0x80000000 && (offered.a >> 16) == 0x8000 )
            offered.a = min(offered.a, 0x80000000 + CPUID_GUEST_NR_EXTD - 1);
        /* The maxima (Xen's x86_cpu_policies_are_compatible). */
        if ( !too_high &&
             (((e.leaf == 0 || e.leaf == 0x80000000) && e.a > offered.a) ||
              (e.leaf == 7 && e.subleaf == 0 && e.a > offered.a)) )
        {
            too_high = true;
            hi_leaf = e.leaf;
            hi_sub = e.leaf == 7 ? 0 : XEN_CPUID_NO_SUBLEAF;
        }
        note_features(p, e.leaf, e.subleaf, &offered, &e);
    }
    if ( too_high )
    {
        *err_leaf = hi_leaf;
        *err_subleaf = hi_sub;
        return -EINVAL;
    }
    return 0;
}

/* Xen's x86_msr_copy_from_buffer and the PLATFORM_INFO audit. */
static int check_msrs(struct domain *d, const struct xen_domctl_cpu_policy *cp,
                      uint32_t *err_msr)
{
    uint32_t i;

    if ( cp->nr_msrs > MSR_MAX_SERIALISED_ENTRIES )
        return -E2BIG;
    for ( i = 0; i < cp->nr_msrs; i++ )
    {
        xen_msr_entry_t e;

        if ( copy_from_guest_offset(&e, cp->msrs, i, 1) )
            return -EFAULT;
        *err_msr = e.idx;
        if ( e.flags )
            return -EINVAL;
        switch ( e.idx )
        {
        case MSR_INTEL_PLATFORM_INFO:
            if ( e.val >> 32 )
                return -EOVERFLOW;
            if ( e.val & ~policy_msr(d->vcpu[0], e.idx) )
                return -EINVAL;             /* e.g. CPUID faulting: not here */
            break;
        case MSR_IA32_ARCH_CAPABILITIES:
            break;
        default:
            return -ERANGE;
        }
    }
    *err_msr = ~0U;
    return 0;
}

/*
 * XEN_DOMCTL_set_cpu_policy: not for the caller (-EINVAL) nor once the
 * domain has run (-EEXIST), as Xen; the rest as said at the top.
 */
int domctl_set_cpu_policy(struct domain *d, struct xen_domctl_cpu_policy *cp)
{
    struct domain_cpu_policy p = d->arch.cpu_policy;
    int rc;

    if ( d == current->domain )
        return -EINVAL;
    if ( d->creation_finished )
        return -EEXIST;
    if ( !d->vcpu || !d->vcpu[0] )
        return -EINVAL;
    cp->err_leaf = cp->err_subleaf = cp->err_msr = ~0U;
    if ( (rc = merge_leaves(d, cp, &p, &cp->err_leaf, &cp->err_subleaf)) ||
         (rc = check_msrs(d, cp, &cp->err_msr)) )
        return rc;
    d->arch.cpu_policy = p;
    return 0;
}

void cpu_policy_apply(const struct domain *d, uint32_t leaf, uint32_t subleaf,
                      struct cpuid_leaf *res)
{
    const uint32_t *h = d->arch.cpu_policy.hidden;

    switch ( leaf )
    {
    case 1:
        res->c &= ~h[POLICY_1C];
        res->d &= ~h[POLICY_1D];
        break;
    case 7:
        if ( subleaf )
            break;
        res->b &= ~h[POLICY_7B0];
        res->c &= ~h[POLICY_7C0];
        res->d &= ~h[POLICY_7D0];
        break;
    case 0x80000001:
        res->c &= ~h[POLICY_E1C];
        res->d &= ~h[POLICY_E1D];
        break;
    }
}

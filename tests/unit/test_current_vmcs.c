/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/arch/x86/hvm/vmx/current_vmcs.c: which VMCS the CPU has loaded.
 *
 * The CPU is faked: VMPTRLD/VMCLEAR move a current-VMCS pointer and a
 * launch state per region, and VMREAD/VMWRITE act on the region the
 * pointer names.  The checks are what a caller relies on: an access
 * between vmx_vmcs_enter(v) and vmx_vmcs_exit(v) lands in v's VMCS, the
 * exit brings back whatever was loaded before (not "current"), pairs nest,
 * current is a no-op, and the record always equals the CPU's pointer.
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <asm/hvm/vmx/vmcs.h>

#include "harness.h"


/* ---- the fake CPU -------------------------------------------------------- */

#define NR_FIELDS 4

struct fake_vmcs {
    paddr_t pa;
    bool launched;                  /* the CPU's launch state */
    unsigned long field[NR_FIELDS];
};

static struct fake_vmcs regions[] = {
    { .pa = 0x10000 }, { .pa = 0x11000 }, { .pa = 0x12000 },
};
static paddr_t cpu_ptr = INVALID_PADDR;
static unsigned int vmptrlds, vmclears, record_mismatches;

static struct fake_vmcs *region(paddr_t pa)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(regions); i++ )
        if ( regions[i].pa == pa )
            return &regions[i];
    return NULL;
}

/* What current_vmcs.c recorded must be what the CPU has. */
static void check_record(void)
{
    if ( (vmx_current_vmcs() ?: INVALID_PADDR) != cpu_ptr )
        record_mismatches++;
}

bool __vmptrld(paddr_t pa)
{
    if ( !region(pa) )
        return false;
    cpu_ptr = pa;
    vmptrlds++;
    return true;
}

bool __vmpclear(paddr_t pa)
{
    struct fake_vmcs *r = region(pa);

    if ( !r )
        return false;
    r->launched = false;
    if ( cpu_ptr == pa )
        cpu_ptr = INVALID_PADDR;
    vmclears++;
    return true;
}

unsigned long __vmread(unsigned long field)
{
    check_record();
    return region(cpu_ptr) ? region(cpu_ptr)->field[field % NR_FIELDS] : ~0UL;
}

void __vmwrite(unsigned long field, unsigned long value)
{
    check_record();
    if ( region(cpu_ptr) )
        region(cpu_ptr)->field[field % NR_FIELDS] = value;
}

/* ---- the vCPUs ------------------------------------------------------------- */

static struct domain dom;
static struct vcpu va, vb, vc;

static void vcpu_init(struct vcpu *v, unsigned int id, struct fake_vmcs *r)
{
    v->vcpu_id = id;
    v->domain = &dom;
    /* As vmx_create_vmcs() leaves a new vCPU. */
    v->arch.hvm.vmx.vmcs_pa = r->pa;
    v->arch.hvm.vmx.active_cpu = -1;
    v->arch.hvm.vmx.launched = false;
}

/* Which VMCS a write lands in: the field's value in each region. */
static unsigned long field_of(const struct vcpu *v)
{
    return region(v->arch.hvm.vmx.vmcs_pa)->field[0];
}

/* Start each test with a running on the CPU, as after vmx_do_resume(a). */
static void start(void)
{
    current = &va;
    vmx_vmcs_reload(&va);
    va.arch.hvm.vmx.launched = true;
    region(va.arch.hvm.vmx.vmcs_pa)->launched = true;
    vmptrlds = vmclears = 0;
}

/* ---- tests ------------------------------------------------------------------ */

static void test_reload(void)
{
    current = &va;
    CHECK(!vmx_vmcs_is_loaded(&va));
    CHECK(!vmx_vmcs_is_loaded(NULL));
    vmptrlds = 0;
    vmx_vmcs_reload(&va);
    CHECK_EQ(vmptrlds, 1);
    CHECK_EQ(cpu_ptr, va.arch.hvm.vmx.vmcs_pa);
    CHECK_EQ(vmx_current_vmcs(), va.arch.hvm.vmx.vmcs_pa);
    CHECK_EQ(va.arch.hvm.vmx.active_cpu, 0);
    CHECK(vmx_vmcs_is_loaded(&va));
    vmx_vmcs_reload(&va);                   /* already loaded: no VMPTRLD */
    CHECK_EQ(vmptrlds, 1);
}

static void test_enter_current_is_noop(void)
{
    start();
    vmx_vmcs_enter(&va);
    __vmwrite(0, 7);
    vmx_vmcs_exit(&va);
    CHECK_EQ(vmptrlds, 0);
    CHECK_EQ(vmclears, 0);
    CHECK_EQ(field_of(&va), 7);
    CHECK(vmx_vmcs_is_loaded(&va));
}

static void test_foreign_lands_in_its_vmcs(void)
{
    start();
    vmx_vmcs_enter(&vb);
    CHECK(vmx_vmcs_is_loaded(&vb));
    __vmwrite(0, 2);
    CHECK_EQ(__vmread(0), 2);
    vmx_vmcs_exit(&vb);
    __vmwrite(0, 1);
    CHECK_EQ(field_of(&vb), 2);
    CHECK_EQ(field_of(&va), 1);
    CHECK(vmx_vmcs_is_loaded(&va));
    CHECK_EQ(vmptrlds, 2);                  /* b's, then a's again */
    CHECK_EQ(vmclears, 0);                  /* launch states kept */
    CHECK(va.arch.hvm.vmx.launched);
    CHECK(region(va.arch.hvm.vmx.vmcs_pa)->launched);
    CHECK_EQ(vb.arch.hvm.vmx.active_cpu, 0);
}

static void test_nesting(void)
{
    start();
    vmx_vmcs_enter(&vb);
    vmx_vmcs_enter(&vb);
    CHECK_EQ(vmptrlds, 1);
    vmx_vmcs_exit(&vb);
    CHECK(vmx_vmcs_is_loaded(&vb));         /* the outer pair is still open */
    __vmwrite(0, 3);
    CHECK(!vmx_vmcs_try_enter(&va));        /* current's fields are out of reach */
    CHECK(vmx_vmcs_is_loaded(&vb));
    vmx_vmcs_exit(&vb);
    CHECK(vmx_vmcs_is_loaded(&va));
    CHECK_EQ(field_of(&vb), 3);
    CHECK_EQ(vmptrlds, 2);
}

/* Loaded before was not current's (the scheduler switched, no entry yet). */
static void test_restores_previous_not_current(void)
{
    start();
    current = &vb;
    vmx_vmcs_reload(&vb);
    current = &va;                          /* picked, not yet resumed */
    vmx_vmcs_enter(&vc);
    CHECK(vmx_vmcs_is_loaded(&vc));
    vmx_vmcs_exit(&vc);
    CHECK(vmx_vmcs_is_loaded(&vb));
    CHECK(!vmx_vmcs_is_loaded(&va));
    vmx_vmcs_reload(&va);                   /* what vmx_do_resume() does */
    CHECK(vmx_vmcs_is_loaded(&va));
}

/* The foreign vCPU's VMCS was already the loaded one: nothing to do. */
static void test_foreign_already_loaded(void)
{
    start();
    current = &vb;
    vmx_vmcs_reload(&vb);
    current = &va;
    vmptrlds = 0;
    vmx_vmcs_enter(&vb);
    vmx_vmcs_exit(&vb);
    CHECK_EQ(vmptrlds, 0);
    CHECK(vmx_vmcs_is_loaded(&vb));
}

static void test_clear(void)
{
    start();
    vmx_clear_vmcs(&va);
    CHECK_EQ(vmclears, 1);
    CHECK_EQ(vmx_current_vmcs(), 0);
    CHECK_EQ(cpu_ptr, INVALID_PADDR);
    CHECK_EQ(va.arch.hvm.vmx.active_cpu, -1);
    CHECK(!va.arch.hvm.vmx.launched);       /* the next entry is a VMLAUNCH */
    vmx_clear_vmcs(&va);                    /* active nowhere: nothing to do */
    CHECK_EQ(vmclears, 1);
}

/* Nothing loaded before (boot: no current): the exit clears again. */
static void test_nothing_loaded_before(void)
{
    start();
    vmx_clear_vmcs(&va);
    current = NULL;
    vmx_vmcs_enter(&vc);
    __vmwrite(0, 5);
    vmx_vmcs_exit(&vc);
    CHECK_EQ(field_of(&vc), 5);
    CHECK_EQ(vmx_current_vmcs(), 0);
    CHECK_EQ(cpu_ptr, INVALID_PADDR);
    CHECK_EQ(vc.arch.hvm.vmx.active_cpu, -1);
    CHECK(!vc.arch.hvm.vmx.launched);
}

/* The previous VMCS goes away inside the pair: nothing to go back to. */
static void test_previous_cleared_inside(void)
{
    start();
    vmx_vmcs_enter(&vb);
    vmx_clear_vmcs(&va);                    /* a's domain destroyed, say */
    CHECK(vmx_vmcs_is_loaded(&vb));         /* b's stays loaded meanwhile */
    current = NULL;
    vmx_vmcs_exit(&vb);
    CHECK_EQ(vmx_current_vmcs(), 0);
    CHECK_EQ(cpu_ptr, INVALID_PADDR);
}

void test_main(void)
{
    vcpu_init(&va, 0, &regions[0]);
    vcpu_init(&vb, 1, &regions[1]);
    vcpu_init(&vc, 2, &regions[2]);

    test_reload();
    test_enter_current_is_noop();
    test_foreign_lands_in_its_vmcs();
    test_nesting();
    test_restores_previous_not_current();
    test_foreign_already_loaded();
    test_clear();
    test_nothing_loaded_before();
    test_previous_cleared_inside();

    CHECK_EQ(record_mismatches, 0);
}

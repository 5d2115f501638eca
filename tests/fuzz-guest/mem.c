/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Class mem: the guest's own memory, shuffled.  shared_info moved with
 * XENMEM_add_to_physmap, vcpu_info registered (once, as Xen allows),
 * XENMEM_populate_physmap, XENMEM_decrease_reservation and
 * XENMEM_increase_reservation, all over a window of WINDOW pages below the
 * scratch area that nothing else of ours uses, with some calls outside it
 * (beyond RAM, beyond the address width, misaligned, too large) that must
 * do nothing.  A model of the window says what each call must return and
 * what tot_pages must be; mem_check() at the end of the run compares it
 * with XENMEM_current_reservation: every frame counted, none held for us
 * beyond it.  (The hypervisor checks at power-off that the heap got every
 * page back.)
 */
#include "fuzz.h"
#include "public/memory.h"
#include "public/vcpu.h"

#define WINDOW 64

static unsigned long window;            /* first gfn */
static bool populated[WINDOW];          /* a RAM frame of ours is mapped there */
static long shinfo_at = -1;             /* window index of shared_info, -1 none */
static long vcpu_frame = -1;            /* window index whose frame holds vcpu_info */
static bool vcpu_frame_mapped;          /* ... and is still mapped there */
static long delta;                      /* tot_pages now minus at start */
static long tot0, max0;

static long memop(unsigned int cmd, void *arg)
{
    return hypercall6(__HYPERVISOR_memory_op, cmd, (unsigned long)arg, 0, 0, 0);
}

static long reservation(unsigned int cmd, unsigned long gfn, unsigned long nr,
                        unsigned int order)
{
    xen_pfn_t list[1] = { gfn };
    struct xen_memory_reservation r = {
        .nr_extents = nr, .extent_order = order, .domid = DOMID_SELF,
    };

    r.extent_start.p = cmd == XENMEM_increase_reservation ? NULL : list;
    return memop(cmd, &r);
}

static long query(unsigned int cmd)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };

    return memop(cmd, &md);
}

bool mem_init(void)
{
    unsigned int i;

    window = ((unsigned long)scratch >> PAGE_SHIFT) - WINDOW;
    for ( i = 0; i < WINDOW; i++ )
        populated[i] = true;
    tot0 = query(XENMEM_current_reservation);
    max0 = query(XENMEM_maximum_reservation);
    printk("fuzz: mem window gfns [%#lx, %#lx), tot_pages %ld of %ld\n", window,
           window + WINDOW, tot0, max0);
    return tot0 > 0 && max0 >= tot0;
}

static void expect(const char *what, unsigned long i, long rc, long want)
{
    if ( rc != want )
        fuzz_fail("mem: %s at window page %lu returned %ld, the model says %ld\n", what,
                  i, rc, want);
}

/* The frame at window page i leaves the p2m: does tot_pages drop? */
static void frame_leaves(unsigned long i)
{
    populated[i] = false;
    if ( (long)i == vcpu_frame && vcpu_frame_mapped )
        vcpu_frame_mapped = false;      /* held by vcpu_info: still counted */
    else
        delta--;                        /* freed (a frame populated there later, too) */
}

static void mem_decrease(unsigned long i)
{
    long want;

    if ( (long)i == shinfo_at )
    {
        want = 1;                       /* Xen unhooks shared_info */
        shinfo_at = -1;
    }
    else if ( populated[i] )
    {
        want = 1;
        frame_leaves(i);
    }
    else
        want = 0;                       /* a hole */
    trace("mem: decrease %#lx\n", window + i);
    expect("decrease_reservation", i, reservation(XENMEM_decrease_reservation,
                                                  window + i, 1, 0), want);
}

static void mem_populate(unsigned long i)
{
    long want = !populated[i] && (long)i != shinfo_at && tot0 + delta < max0;

    trace("mem: populate %#lx\n", window + i);
    expect("populate_physmap", i, reservation(XENMEM_populate_physmap, window + i, 1, 0),
           want);
    if ( want )
    {
        populated[i] = true;
        delta++;
    }
}

static void mem_shinfo(unsigned long i)
{
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_shared_info, .idx = 0, .gpfn = window + i,
    };

    trace("mem: shared_info to %#lx\n", window + i);
    expect("add_to_physmap(shared_info)", i, memop(XENMEM_add_to_physmap, &xatp), 0);
    if ( (long)i == shinfo_at )
        return;
    if ( populated[i] )
        frame_leaves(i);                /* the RAM frame there is freed */
    shinfo_at = i;
}

static void mem_vcpu_info(unsigned long i)
{
    struct vcpu_register_vcpu_info info = {
        .mfn = window + i, .offset = fuzz_below(PAGE_SIZE / 64) * 64,
    };
    long want = vcpu_frame < 0 && populated[i] ? 0 : -XEN_EINVAL;

    if ( (long)i == shinfo_at )
        return;                         /* inside shared_info: not modelled */
    trace("mem: vcpu_info to %#lx+%#x\n", window + i, info.offset);
    expect("register_vcpu_info", i, hypercall_vcpu_op(VCPUOP_register_vcpu_info, 0, &info),
           want);
    if ( !want )
    {
        vcpu_frame = i;
        vcpu_frame_mapped = true;
    }
}

static void mem_increase(void)
{
    unsigned long n = fuzz_below(3);
    long room = max0 - (tot0 + delta), want = (long)n < room ? (long)n : room;

    trace("mem: increase %lu\n", n);
    expect("increase_reservation", 0, reservation(XENMEM_increase_reservation, 0, n, 0), want);
    delta += want;
}

/* Calls outside the window that must do nothing. */
static void mem_outside(void)
{
    static const unsigned long gfns[] = {
        0x100000, 1UL << 40, 1UL << 52, ~0UL, 0xfee00,
    };
    unsigned long g = gfns[fuzz_below(ARRAY_SIZE(gfns))];
    unsigned int cmd = fuzz_chance(50) ? XENMEM_decrease_reservation : XENMEM_populate_physmap;
    unsigned int order = fuzz_chance(70) ? 0 : fuzz_chance(50) ? 9 : 10;
    long want = 0;

    /* Populating a free gfn beyond our RAM works (we balance it at once). */
    if ( cmd == XENMEM_populate_physmap && g == 0x100000 && order <= 9 &&
         tot0 + delta + (1L << order) <= max0 )
        want = 1;
    trace("mem: %s %#lx order %u\n", cmd == XENMEM_populate_physmap ? "populate" : "decrease",
          g, order);
    expect(cmd == XENMEM_populate_physmap ? "populate beyond RAM" : "decrease beyond RAM", 0,
           reservation(cmd, g, 1, order), want);
    if ( want )
        expect("decrease of what we just populated", 0,
               reservation(XENMEM_decrease_reservation, g, 1, order), 1);
}

void fuzz_mem(void)
{
    unsigned long i = fuzz_below(WINDOW);

    switch ( fuzz_below(8) )
    {
    case 0: case 1: mem_decrease(i); break;
    case 2: case 3: mem_populate(i); break;
    case 4:         mem_shinfo(i); break;
    case 5:         mem_vcpu_info(i); break;
    case 6:         mem_increase(); break;
    default:        mem_outside(); break;
    }
}

void mem_check(void)
{
    long tot = query(XENMEM_current_reservation), max = query(XENMEM_maximum_reservation);
    unsigned int i, n = 0;

    for ( i = 0; i < WINDOW; i++ )
        n += populated[i];
    printk("summary: mem: tot_pages %ld (model %ld), max_pages %ld, %u of %u window pages "
           "populated, shared_info %s, vcpu_info frame %s\n", tot, tot0 + delta, max, n,
           WINDOW, shinfo_at >= 0 ? "in the window" : "unmapped",
           vcpu_frame < 0 ? "not registered" : vcpu_frame_mapped ? "mapped" : "ballooned out, held");
    if ( tot != tot0 + delta )
        fuzz_fail("mem: tot_pages %ld, the model says %ld: frames not counted\n", tot,
                  tot0 + delta);
    if ( tot > max )
        fuzz_fail("mem: tot_pages %ld past max_pages %ld\n", tot, max);
}

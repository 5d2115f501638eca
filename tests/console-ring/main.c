/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest side of Xen's PV console, for the toolstack's tests: a domU
 * that `xl create` made finds its console ring and port in
 * HVM_PARAM_CONSOLE_PFN / _EVTCHN (libxenguest's special page 0xfefff,
 * served by xenconsoled in dom0), writes a banner into it, then answers
 * each line typed into it (`xl console`) with "console-ring: got '<line>'"
 * until it is destroyed, waiting on its port in between (SCHEDOP_poll).
 *
 * A domain without a console ring (one the hypervisor built at boot)
 * SKIPs.  Command line: lines=N answers N lines, then reports SUCCESS and
 * powers off (0, the default: for ever).
 */
#include "test.h"
#include "events.h"
#include "public/io/console.h"

const char test_title[] = "The PV console ring: a banner, then every line typed echoed";

#define MS 1000000ULL

static volatile struct xencons_interface *ring;
static evtchn_port_t port;

/* Wait for the other end (it notified us) or 100 ms. */
static void wait_event(void)
{
    sched_poll(&port, 1, xen_system_time() + 100 * MS);
    evtchn_clear(port);
}

static void ring_write(const char *s, size_t n)
{
    while ( n )
    {
        XENCONS_RING_IDX cons = __atomic_load_n(&ring->out_cons, __ATOMIC_ACQUIRE);
        XENCONS_RING_IDX prod = ring->out_prod;

        if ( prod - cons >= sizeof(ring->out) )
        {
            evtchn_send(port);          /* full: let xenconsoled drain it */
            wait_event();
            continue;
        }
        while ( n && prod - cons < sizeof(ring->out) )
        {
            ring->out[MASK_XENCONS_IDX(prod, ring->out)] = *s++;
            prod++;
            n--;
        }
        __atomic_store_n(&ring->out_prod, prod, __ATOMIC_RELEASE);
    }
    evtchn_send(port);
}

static void ring_puts(const char *s)
{
    ring_write(s, strlen(s));
}

void test_main(void)
{
    uint64_t pfn = 0, evtchn = 0;
    unsigned long want = cmdline_ulong("lines", 0), lines = 0;
    char line[128], msg[200];
    size_t len = 0;

    if ( hvm_get_param(DOMID_SELF, HVM_PARAM_CONSOLE_PFN, &pfn) || !pfn ||
         hvm_get_param(DOMID_SELF, HVM_PARAM_CONSOLE_EVTCHN, &evtchn) || !evtchn )
        return xtf_skip("Skip: no console ring (not built by a toolstack)\n");
    if ( map_shared_info() )
        return xtf_failure("Fail: cannot map shared_info\n");
    ring = (volatile struct xencons_interface *)(uintptr_t)(pfn << PAGE_SHIFT);
    port = (evtchn_port_t)evtchn;
    printk("console ring at gfn %#lx, port %u\n", (unsigned long)pfn, port);

    snprintf(msg, sizeof(msg), "console-ring: d%u up, ring at gfn %#lx, port %u\r\n",
             cpuid_domid(), (unsigned long)pfn, port);
    ring_puts(msg);

    while ( !want || lines < want )
    {
        XENCONS_RING_IDX cons = ring->in_cons;
        XENCONS_RING_IDX prod = __atomic_load_n(&ring->in_prod, __ATOMIC_ACQUIRE);

        if ( cons == prod )
        {
            wait_event();
            continue;
        }
        while ( cons != prod )
        {
            char c = ring->in[MASK_XENCONS_IDX(cons, ring->in)];

            cons++;
            if ( c == '\r' || c == '\n' )
            {
                if ( !len )
                    continue;
                line[len] = 0;
                snprintf(msg, sizeof(msg), "console-ring: got '%s'\r\n", line);
                ring_puts(msg);
                lines++;
                len = 0;
            }
            else if ( len < sizeof(line) - 1 )
                line[len++] = c;
        }
        __atomic_store_n(&ring->in_cons, cons, __ATOMIC_RELEASE);
        evtchn_send(port);
    }
    printk("answered %lu lines\n", lines);
    xtf_success(NULL);
}

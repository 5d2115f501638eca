/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor's libxencall backend (see fake.h): the osdep_*
 * interface of tools/libs/call/private.h.  Every hypercall is recorded
 * (fake_calls[]), then answered by the test's handler if it set one
 * (fake_answer), else by the fake machine; hypercall buffers are tracked,
 * so that a test can check that the hypervisor is only handed buffer
 * memory and that nothing leaks.
 */
#include <stdarg.h>

#include "fake_private.h"
#include "../../libs/call/private.h"

struct fake_call fake_calls[FAKE_MAX_CALLS];
unsigned int fake_nr_calls;

static fake_handler_t handler;

void fake_answer(fake_handler_t h)
{
    memset(fake_calls, 0, sizeof(fake_calls));
    fake_nr_calls = 0;
    handler = h;
}

long fake_answer_zero(struct fake_call *call, void *live)
{
    (void)call; (void)live;
    return 0;
}

/* ---- failures on demand ------------------------------------------------------ */

#define MAX_FAILS 32
static struct {
    char op[32];
    unsigned int countdown;             /* 0: every call */
    int err;
} fails[MAX_FAILS];
static unsigned int nr_fails;

void fake_fail(const char *op, unsigned int nth, int err)
{
    if ( nr_fails == MAX_FAILS )
        abort();
    snprintf(fails[nr_fails].op, sizeof(fails[0].op), "%s", op);
    fails[nr_fails].countdown = nth;
    fails[nr_fails].err = err;
    nr_fails++;
}

void fake_fail_clear(void)
{
    nr_fails = 0;
}

int fake_injected(const char *op)
{
    for ( unsigned int i = 0; i < nr_fails; i++ )
    {
        if ( strcmp(fails[i].op, op) )
            continue;
        if ( !fails[i].countdown )
            return -fails[i].err;
        if ( --fails[i].countdown == 0 )
        {
            int err = fails[i].err;

            fails[i] = fails[--nr_fails];
            return -err;
        }
    }
    return 0;
}

void fake_log(const char *fmt, ...)
{
    const char *path = getenv("FAKE_XEN_LOG");
    va_list ap;
    FILE *f;

    if ( !path || !(f = fopen(path, "a")) )
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* ---- hypercall buffers -------------------------------------------------------- */

static struct alloc {
    void *p;
    size_t nr_pages;
} *allocs;
static unsigned int nr_allocs, max_allocs;

bool fake_is_safe(const void *p, size_t size)
{
    const uint8_t *b = p;

    for ( unsigned int i = 0; i < nr_allocs; i++ )
    {
        const uint8_t *a = allocs[i].p;

        if ( b >= a && b + size <= a + allocs[i].nr_pages * XENCALL_PAGE_SIZE )
            return true;
    }
    return false;
}

unsigned long fake_live_buffer_pages(void)
{
    unsigned long n = 0;

    for ( unsigned int i = 0; i < nr_allocs; i++ )
        n += allocs[i].nr_pages;
    return n;
}

void *osdep_alloc_pages(xencall_handle *xcall, size_t nr_pages)
{
    void *p;

    (void)xcall;
    if ( nr_allocs == max_allocs )
    {
        unsigned int n = max_allocs ? 2 * max_allocs : 64;
        struct alloc *a = realloc(allocs, n * sizeof(*a));

        if ( !a )
            return NULL;
        allocs = a;
        max_allocs = n;
    }
    p = aligned_alloc(XENCALL_PAGE_SIZE, nr_pages * XENCALL_PAGE_SIZE);
    if ( !p )
        return NULL;
    memset(p, 0, nr_pages * XENCALL_PAGE_SIZE);
    allocs[nr_allocs].p = p;
    allocs[nr_allocs].nr_pages = nr_pages;
    nr_allocs++;
    return p;
}

void osdep_free_pages(xencall_handle *xcall, void *p, size_t nr_pages)
{
    (void)xcall;
    for ( unsigned int i = 0; i < nr_allocs; i++ )
        if ( allocs[i].p == p )
        {
            /* Freeing with another size than allocated is a bug. */
            if ( allocs[i].nr_pages != nr_pages )
                abort();
            allocs[i] = allocs[--nr_allocs];
            free(p);
            if ( !nr_allocs )
            {
                free(allocs);
                allocs = NULL;
                max_allocs = 0;
            }
            return;
        }
    abort();                    /* not ours */
}

int osdep_buffers_never_fault(xencall_handle *xcall)
{
    (void)xcall;
    return 1;
}

void osdep_cache_lock(xencall_handle *xcall)
{
    (void)xcall;
}

void osdep_cache_unlock(xencall_handle *xcall)
{
    (void)xcall;
}

/* ---- the calls -------------------------------------------------------------------- */

int osdep_xencall_open(xencall_handle *xcall)
{
    int rc;

    fake_state_load();
    rc = fake_injected("open");
    if ( rc )
    {
        errno = -rc;
        PERROR("fake: cannot open");
        return -1;
    }
    return 0;
}

int osdep_xencall_close(xencall_handle *xcall)
{
    (void)xcall;
    return 0;
}

/* Keep a copy of what the library handed over; return what arg points to. */
static void *record(struct fake_call *c)
{
    void *p;

    switch ( c->op )
    {
    case __HYPERVISOR_domctl:
        p = (void *)(uintptr_t)c->arg[0];
        c->arg_safe = fake_is_safe(p, sizeof(c->domctl));
        if ( c->arg_safe )
            memcpy(&c->domctl, p, sizeof(c->domctl));
        return p;

    case __HYPERVISOR_sysctl:
        p = (void *)(uintptr_t)c->arg[0];
        c->arg_safe = fake_is_safe(p, sizeof(c->sysctl));
        if ( c->arg_safe )
            memcpy(&c->sysctl, p, sizeof(c->sysctl));
        return p;

    case __HYPERVISOR_sched_op:
        p = (void *)(uintptr_t)c->arg[1];
        if ( c->arg[0] == SCHEDOP_remote_shutdown )
        {
            c->arg_safe = fake_is_safe(p, sizeof(c->remote_shutdown));
            if ( c->arg_safe )
                memcpy(&c->remote_shutdown, p, sizeof(c->remote_shutdown));
        }
        return p;

    case __HYPERVISOR_memory_op:
        p = (void *)(uintptr_t)c->arg[1];
        if ( c->arg[0] == XENMEM_current_reservation ||
             c->arg[0] == XENMEM_maximum_gpfn )
        {
            c->arg_safe = fake_is_safe(p, sizeof(c->memory_domain));
            if ( c->arg_safe )
                memcpy(&c->memory_domain, p, sizeof(c->memory_domain));
            return p;
        }
        c->arg_safe = fake_is_safe(p, sizeof(c->reservation));
        if ( c->arg_safe )
        {
            size_t n;

            memcpy(&c->reservation, p, sizeof(c->reservation));
            n = c->reservation.nr_extents < FAKE_MAX_EXTENTS
                ? c->reservation.nr_extents : FAKE_MAX_EXTENTS;
            c->extents_safe = c->reservation.extent_start.p &&
                              fake_is_safe(c->reservation.extent_start.p,
                                           c->reservation.nr_extents *
                                           sizeof(xen_pfn_t));
            if ( c->extents_safe )
                memcpy(c->extents, c->reservation.extent_start.p,
                       n * sizeof(xen_pfn_t));
        }
        return p;

    case __HYPERVISOR_xen_version:
        p = (void *)(uintptr_t)c->arg[1];
        c->arg_safe = !p || fake_is_safe(p, 1);
        return p;

    case __HYPERVISOR_dm_op:
    {
        xen_dm_op_buf_t *bufs = (void *)(uintptr_t)c->arg[2];

        c->nr_dm_bufs = c->arg[1];
        c->arg_safe = c->nr_dm_bufs <= FAKE_MAX_DM_BUFS &&
                      fake_is_safe(bufs, c->nr_dm_bufs * sizeof(*bufs));
        if ( !c->arg_safe )
            return bufs;
        memcpy(c->dm_bufs, bufs, c->nr_dm_bufs * sizeof(*bufs));
        c->dm_bufs_safe = true;
        for ( unsigned int i = 0; i < c->nr_dm_bufs; i++ )
            if ( !fake_is_safe(bufs[i].h.p, bufs[i].size) )
                c->dm_bufs_safe = false;
        if ( c->dm_bufs_safe && c->nr_dm_bufs &&
             bufs[0].size >= sizeof(c->dm_op) )
            memcpy(&c->dm_op, bufs[0].h.p, sizeof(c->dm_op));
        return bufs;
    }
    }

    return NULL;
}

/* The machine's answer, by hypercall. */
static long dispatch(const struct xencall_args *call)
{
    void *a0 = (void *)(uintptr_t)call->arg[0];
    void *a1 = (void *)(uintptr_t)call->arg[1];

    switch ( call->op )
    {
    case __HYPERVISOR_domctl:
        return fake_domctl(a0);
    case __HYPERVISOR_sysctl:
        return fake_sysctl(a0);
    case __HYPERVISOR_memory_op:
        return fake_memory_op(call->arg[0], a1);
    case __HYPERVISOR_xen_version:
        return fake_xen_version(call->arg[0], a1);
    case __HYPERVISOR_sched_op:
        return fake_sched_op(call->arg[0], a1);
    case __HYPERVISOR_dm_op:
        return fake_dm_op(call->arg[0], call->arg[1],
                          (void *)(uintptr_t)call->arg[2]);
    case __HYPERVISOR_hvm_op:
        return fake_hvm_op(call->arg[0], a1);
    case __HYPERVISOR_event_channel_op:
        return fake_event_channel_op(call->arg[0], a1);
    default:
        return -ENOSYS;
    }
}

long osdep_hypercall(xencall_handle *xcall, const struct xencall_args *call)
{
    struct fake_call *c, scratch;
    void *live;
    long rc;

    (void)xcall;
    fake.hypercalls++;
    c = fake_nr_calls < FAKE_MAX_CALLS ? &fake_calls[fake_nr_calls++] : &scratch;
    memset(c, 0, sizeof(*c));
    c->op = call->op;
    memcpy(c->arg, call->arg, sizeof(c->arg));
    live = record(c);

    if ( handler )
        rc = handler(c, live);
    else
    {
        fake_state_load();
        rc = dispatch(call);
    }
    if ( rc < 0 )
    {
        errno = (int)-rc;
        return -1;
    }
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libc side of the harness: checks, counters, main(), and the stubs
 * for the hypervisor's fatal paths.  It does not include any xen/ header,
 * so nothing here can clash with the code under test.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static unsigned int passed, failed;

static void result(const char *file, int line, int ok)
{
    if ( ok )
        passed++;
    else
    {
        failed++;
        printf("FAIL %s:%d: ", file, line);
    }
}

void harness_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void *harness_exec_page(void)
{
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

    return p == MAP_FAILED ? NULL : p;
}

void harness_check(const char *file, int line, const char *expr, int ok)
{
    result(file, line, ok);
    if ( !ok )
        printf("CHECK(%s)\n", expr);
}

void harness_check_eq(const char *file, int line, const char *a_expr,
                      const char *b_expr, unsigned long long a,
                      unsigned long long b)
{
    result(file, line, a == b);
    if ( a != b )
        printf("%s == %s: %lld (%#llx) != %lld (%#llx)\n",
               a_expr, b_expr, (long long)a, a, (long long)b, b);
}

void harness_check_str(const char *file, int line, const char *a_expr,
                       const char *b_expr, const char *a, const char *b)
{
    int ok = a && b && !strcmp(a, b);

    result(file, line, ok);
    if ( !ok )
        printf("%s == %s: \"%s\" != \"%s\"\n", a_expr, b_expr,
               a ? a : "(null)", b ? b : "(null)");
}

void harness_check_contains(const char *file, int line, const char *h_expr,
                            const char *haystack, const char *needle,
                            int expect)
{
    int ok = (strstr(haystack, needle) != NULL) == !!expect;

    result(file, line, ok);
    if ( !ok )
        printf("%s %s \"%s\"; it is:\n%s\n", h_expr,
               expect ? "does not contain" : "contains", needle, haystack);
}

/*
 * Host memory at a fixed address, for code that treats machine addresses
 * as pointers (the hypervisor's identity map: test_heap).  NULL if the
 * range cannot be had.
 */
void *harness_map_fixed(unsigned long addr, unsigned long size)
{
    void *p = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

    return p == MAP_FAILED || p != (void *)addr ? NULL : p;
}

/* Fatal paths of the hypervisor: report and stop this test binary. */
void *harness_zalloc(size_t size)
{
    return calloc(1, size);
}

struct cpu_thread {
    pthread_t thread;
    unsigned int cpu;
    void (*fn)(unsigned int cpu);
};

static pthread_barrier_t cpus_start;

static void *cpu_thread(void *arg)
{
    struct cpu_thread *t = arg;

    host_test_cpu_enter(t->cpu);
    pthread_barrier_wait(&cpus_start);
    t->fn(t->cpu);
    return NULL;
}

void harness_run_cpus(unsigned int nr, void (*fn)(unsigned int cpu))
{
    struct cpu_thread t[16];
    unsigned int i;

    if ( nr > 16 || pthread_barrier_init(&cpus_start, NULL, nr) )
        abort();
    for ( i = 0; i < nr; i++ )
    {
        t[i].cpu = i;
        t[i].fn = fn;
        if ( pthread_create(&t[i].thread, NULL, cpu_thread, &t[i]) )
            abort();
    }
    for ( i = 0; i < nr; i++ )
        pthread_join(t[i].thread, NULL);
    pthread_barrier_destroy(&cpus_start);
}

void host_test_cpu_relax(void)
{
    static __thread unsigned int spins;

    __builtin_ia32_pause();
    if ( !(++spins % 64) )
        sched_yield();
}

static void (*step_irq)(void);
static volatile unsigned long steps;

static void step_signal(int sig)
{
    (void)sig;
    steps++;
    step_irq();                         /* TF is clear in a signal handler */
}

unsigned long harness_irq_each_instruction(void (*body)(void), void (*irq)(void))
{
    struct sigaction sa = { .sa_handler = step_signal }, old;

    step_irq = irq;
    steps = 0;
    sigemptyset(&sa.sa_mask);
    if ( sigaction(SIGTRAP, &sa, &old) )
        return 0;
    asm volatile ( "pushf; orq $0x100, (%%rsp); popf" ::: "memory", "cc" );
    body();
    asm volatile ( "pushf; andq $~0x100, (%%rsp); popf" ::: "memory", "cc" );
    sigaction(SIGTRAP, &old, NULL);
    return steps;
}

void (*harness_bug_hook)(void);
void *harness_bug_jmp[5];
unsigned int harness_bugs;

void harness_catch_bug(void)
{
    harness_bugs++;
    __builtin_longjmp(harness_bug_jmp, 1);
}

void __bug(const char *file, int line)
{
    if ( harness_bug_hook )
        harness_bug_hook();             /* a test that expects the BUG */
    printf("BUG at %s:%d\n", file, line);
    exit(2);
}

void panic(const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    printf("PANIC: ");
    vprintf(fmt, args);
    va_end(args);
    exit(2);
}

int main(void)
{
    test_main();
    /* Read by run.sh, which prints the overall total. */
    printf("RESULT %u %u\n", passed, failed);
    return failed ? 1 : 0;
}

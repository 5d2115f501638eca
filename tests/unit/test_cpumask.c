/* SPDX-License-Identifier: GPL-2.0-only */
/* xen/include/xen/cpumask.h and xen/common/cpu.c: the CPU set operations. */
#include <xen/cpumask.h>
#include <xen/lib.h>

#include "harness.h"

static unsigned int list(const cpumask_t *m, unsigned int *out, unsigned int max)
{
    unsigned int cpu, n = 0;

    for_each_cpu ( cpu, m )
        if ( n < max )
            out[n++] = cpu;
    return n;
}

void test_main(void)
{
    cpumask_t a, b, c;
    unsigned int got[8], n;

    CHECK_EQ(nr_cpu_ids, NR_CPUS);
    cpumask_clear(&a);
    CHECK(cpumask_empty(&a));
    CHECK_EQ(cpumask_first(&a), nr_cpu_ids);
    CHECK_EQ(cpumask_last(&a), nr_cpu_ids);

    /* Word boundaries and the last CPU. */
    cpumask_set_cpu(0, &a);
    cpumask_set_cpu(63, &a);
    cpumask_set_cpu(64, &a);
    cpumask_set_cpu(NR_CPUS - 1, &a);
    CHECK_EQ(cpumask_weight(&a), 4);
    n = list(&a, got, 8);
    CHECK_EQ(n, 4);
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[1], 63);
    CHECK_EQ(got[2], 64);
    CHECK_EQ(got[3], NR_CPUS - 1);
    CHECK_EQ(cpumask_next(0, &a), 63);
    CHECK_EQ(cpumask_next(64, &a), NR_CPUS - 1);
    CHECK_EQ(cpumask_next(NR_CPUS - 1, &a), nr_cpu_ids);
    CHECK_EQ(cpumask_last(&a), NR_CPUS - 1);
    CHECK(cpumask_test_cpu(63, &a));
    CHECK(!cpumask_test_cpu(62, &a));
    CHECK(!cpumask_test_cpu(NR_CPUS, &a));      /* out of range: not a member */
    CHECK_EQ(cpumask_any_but(&a, 0), 63);

    CHECK(cpumask_test_and_clear_cpu(63, &a));
    CHECK(!cpumask_test_and_clear_cpu(63, &a));
    CHECK(!cpumask_test_and_set_cpu(5, &a));
    CHECK(cpumask_test_and_set_cpu(5, &a));

    /* Set algebra. */
    cpumask_clear(&b);
    cpumask_set_cpu(5, &b);
    cpumask_set_cpu(7, &b);
    cpumask_and(&c, &a, &b);
    CHECK_EQ(cpumask_weight(&c), 1);
    CHECK(cpumask_test_cpu(5, &c));
    cpumask_or(&c, &a, &b);
    CHECK_EQ(cpumask_weight(&c), 5);
    cpumask_andnot(&c, &a, &b);
    CHECK(!cpumask_test_cpu(5, &c));
    CHECK_EQ(cpumask_weight(&c), 3);
    cpumask_xor(&c, &a, &b);
    CHECK(cpumask_test_cpu(7, &c) && !cpumask_test_cpu(5, &c));
    CHECK(cpumask_intersects(&a, &b));
    CHECK(!cpumask_subset(&b, &a));
    cpumask_clear_cpu(7, &b);
    CHECK(cpumask_subset(&b, &a));
    cpumask_copy(&c, &a);
    CHECK(cpumask_equal(&c, &a));
    cpumask_clear_cpu(0, &c);
    CHECK(!cpumask_equal(&c, &a));

    /* cpumask_of: that CPU alone. */
    CHECK_EQ(cpumask_weight(cpumask_of(70)), 1);
    CHECK_EQ(cpumask_first(cpumask_of(70)), 70);

    /* nr_cpu_ids bounds the iteration and setall (maxcpus=). */
    nr_cpu_ids = 3;
    cpumask_setall(&c);
    CHECK_EQ(cpumask_weight(&c), 3);
    CHECK_EQ(cpumask_last(&c), 2);
    n = list(&a, got, 8);
    CHECK_EQ(n, 1);                     /* 0 only: 5, 64 and the last are beyond */
    CHECK_EQ(cpumask_next(0, &a), 3);
    nr_cpu_ids = NR_CPUS;
}

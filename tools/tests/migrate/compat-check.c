/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compat-check: our xenguest.h's save/restore API against Debian's
 * (compat-side.c built twice).  Prints "compat: N passed, N failed".
 */
#include <stdio.h>

extern const unsigned long layout_ours[], layout_debian[];
extern const unsigned int nr_layout_ours, nr_layout_debian;

int main(void)
{
    unsigned int i, bad = 0;

    if ( nr_layout_ours != nr_layout_debian )
    {
        printf("compat: %u vs %u values\ncompat: 0 passed, 1 failed\n",
               nr_layout_ours, nr_layout_debian);
        return 1;
    }
    for ( i = 0; i < nr_layout_ours; i++ )
        if ( layout_ours[i] != layout_debian[i] )
        {
            printf("compat: value %u: ours %lu, Debian's %lu\n", i,
                   layout_ours[i], layout_debian[i]);
            bad++;
        }
    printf("compat: %u passed, %u failed\n", nr_layout_ours - bad, bad);
    return bad != 0;
}

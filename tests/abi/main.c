/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compare our public ABI with Xen's (Debian libxen-dev): every row of
 * the two tables must carry the same value.  With "-s FILE", also count
 * the PASS/FAIL lines standalone.sh wrote (each header compiled on its
 * own).  Prints one line per mismatch or failure, then
 * "N passed, N failed"; exits 1 on any failure.
 *
 * usage: abi-check [-v] [-s standalone-results]
 */
#include <stdio.h>
#include <string.h>

#include "abi.h"

static void count_standalone(const char *path, int verbose,
                             unsigned int *passed, unsigned int *failed)
{
    char line[512];
    FILE *f = fopen(path, "r");

    if ( !f )
    {
        printf("%s: cannot open standalone results\n", path);
        (*failed)++;
        return;
    }

    while ( fgets(line, sizeof(line), f) )
    {
        line[strcspn(line, "\n")] = '\0';
        if ( !strncmp(line, "PASS ", 5) )
        {
            if ( verbose )
                printf("ok standalone %s\n", line + 5);
            (*passed)++;
        }
        else if ( line[0] )
        {
            printf("standalone %s (compiler output in %s.log)\n", line, path);
            (*failed)++;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    unsigned int i, passed = 0, failed = 0, skipped = 0;
    const char *standalone = NULL;
    int verbose = 0;

    for ( i = 1; i < (unsigned int)argc; i++ )
    {
        if ( !strcmp(argv[i], "-v") )
            verbose = 1;
        else if ( !strcmp(argv[i], "-s") && i + 1 < (unsigned int)argc )
            standalone = argv[++i];
        else
        {
            printf("usage: %s [-v] [-s standalone-results]\n", argv[0]);
            return 2;
        }
    }

    if ( abi_ours.nr != abi_xen.nr )
    {
        printf("table length differs: ours %u, xen %u\n",
               abi_ours.nr, abi_xen.nr);
        printf("0 passed, 1 failed\n");
        return 1;
    }

    for ( i = 0; i < abi_ours.nr; i++ )
    {
        const struct abi_entry *o = &abi_ours.entries[i];
        const struct abi_entry *x = &abi_xen.entries[i];

        if ( strcmp(o->name, x->name) )
        {
            printf("row %u: name differs (%s / %s)\n", i, o->name, x->name);
            failed++;
        }
        else if ( !o->present )
            skipped++;           /* not defined for toolstack builds */
        else if ( !x->present )
        {
            printf("%s: defined by us (%#llx) but not in Xen's headers\n",
                   o->name, o->value);
            failed++;
        }
        else if ( o->value != x->value )
        {
            printf("%s: ours %llu (%#llx), Xen %llu (%#llx)\n", o->name,
                   o->value, o->value, x->value, x->value);
            failed++;
        }
        else
        {
            if ( verbose )
                printf("ok %s = %llu\n", o->name, o->value);
            passed++;
        }
    }

    if ( standalone )
        count_standalone(standalone, verbose, &passed, &failed);

    if ( verbose )
        printf("(%u constants not defined in toolstack builds, skipped)\n",
               skipped);
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

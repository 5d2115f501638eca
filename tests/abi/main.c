/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compare our public ABI with Xen's (Debian libxen-dev): every row of
 * the two tables must carry the same value; the same for the two libxl
 * tables (side-libxl.c).  With "-s FILE", also count the PASS/FAIL lines
 * standalone.sh wrote (each header compiled on its own); with "-n FILE"
 * those of gen-libxl.py (libxl's types named as Xen's).  Prints one line
 * per mismatch or failure, then "N passed, N failed"; exits 1 on any
 * failure.
 *
 * usage: abi-check [-v] [-s standalone-results] [-n libxl-names]
 */
#include <stdio.h>
#include <string.h>

#include "abi.h"

/* PASS/FAIL lines of a results file; what = "standalone" or "names". */
static void count_results(const char *path, const char *what, int verbose,
                          unsigned int *passed, unsigned int *failed)
{
    char line[512];
    FILE *f = fopen(path, "r");

    if ( !f )
    {
        printf("%s: cannot open %s results\n", path, what);
        (*failed)++;
        return;
    }

    while ( fgets(line, sizeof(line), f) )
    {
        line[strcspn(line, "\n")] = '\0';
        if ( !strncmp(line, "PASS ", 5) )
        {
            if ( verbose )
                printf("ok %s %s\n", what, line + 5);
            (*passed)++;
        }
        else if ( line[0] )
        {
            printf("%s %s (see %s%s)\n", what, line, path,
                   strcmp(what, "standalone") ? "" : ".log");
            (*failed)++;
        }
    }
    fclose(f);
}

/* Row by row: the same name, and the same value on both sides. */
static void compare(const struct abi_table *ours, const struct abi_table *xen,
                    int verbose, unsigned int *passed, unsigned int *failed,
                    unsigned int *skipped)
{
    if ( ours->nr != xen->nr )
    {
        printf("table length differs: ours %u, xen %u\n",
               ours->nr, xen->nr);
        (*failed)++;
        return;
    }

    for ( unsigned int i = 0; i < ours->nr; i++ )
    {
        const struct abi_entry *o = &ours->entries[i];
        const struct abi_entry *x = &xen->entries[i];

        if ( strcmp(o->name, x->name) )
        {
            printf("row %u: name differs (%s / %s)\n", i, o->name, x->name);
            (*failed)++;
        }
        else if ( !o->present )
            (*skipped)++;           /* not defined for toolstack builds */
        else if ( !x->present )
        {
            printf("%s: defined by us (%#llx) but not in Xen's headers\n",
                   o->name, o->value);
            (*failed)++;
        }
        else if ( o->value != x->value )
        {
            printf("%s: ours %llu (%#llx), Xen %llu (%#llx)\n", o->name,
                   o->value, o->value, x->value, x->value);
            (*failed)++;
        }
        else
        {
            if ( verbose )
                printf("ok %s = %llu\n", o->name, o->value);
            (*passed)++;
        }
    }
}

int main(int argc, char **argv)
{
    unsigned int i, passed = 0, failed = 0, skipped = 0;
    const char *standalone = NULL, *names = NULL;
    int verbose = 0;

    for ( i = 1; i < (unsigned int)argc; i++ )
    {
        if ( !strcmp(argv[i], "-v") )
            verbose = 1;
        else if ( !strcmp(argv[i], "-s") && i + 1 < (unsigned int)argc )
            standalone = argv[++i];
        else if ( !strcmp(argv[i], "-n") && i + 1 < (unsigned int)argc )
            names = argv[++i];
        else
        {
            printf("usage: %s [-v] [-s standalone-results] [-n libxl-names]\n",
                   argv[0]);
            return 2;
        }
    }

    compare(&abi_ours, &abi_xen, verbose, &passed, &failed, &skipped);
    compare(&abi_libxl_ours, &abi_libxl_xen, verbose, &passed, &failed,
            &skipped);

    if ( standalone )
        count_results(standalone, "standalone", verbose, &passed, &failed);
    if ( names )
        count_results(names, "names", verbose, &passed, &failed);

    if ( verbose )
        printf("(%u constants not defined in toolstack builds, skipped)\n",
               skipped);
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

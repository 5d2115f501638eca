/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables (tests/gnttab): one kernel, its role from the command line
 * (role=...), the cases in tests/unittests.cfg, group gnttab.
 *
 *   ops        a domU's table on its own (ops.c)
 *   limits     the host's limits: gnttab_max_frames, _maptrack_frames,
 *              gnttab=max-ver:1 (limits.c)
 *   dom0       the control domain: maps a domU's grants (xenstored's
 *              way), builds a domain and seeds its reserved entries
 *              (the toolstack's), and checks the frames of a dead granter
 *              come back exactly when unmapped (share.c)
 *   granter    the domU that grants to dom0 and to the mapper, revokes,
 *              and dies with grants mapped (share.c)
 *   mapper     a domU that maps the granter's grants and dies holding
 *              them (share.c)
 *   granter-ro, ro-writer
 *              a read-only mapping written to: the writer is crashed,
 *              the granter's page is intact (ro.c)
 */
#include "gnttab-test.h"

const char test_title[] = "Grant tables";

void test_main(void)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } roles[] = {
        { "ops", ops_main }, { "limits", limits_main }, { "dom0", dom0_main },
        { "granter", granter_main }, { "mapper", mapper_main },
        { "granter-ro", granter_ro_main }, { "ro-writer", ro_writer_main },
    };
    char role[16] = "";
    unsigned int i;

    if ( !cmdline_get_str("role", role, sizeof(role)) )
        return xtf_error("Error: no role= on the command line\n");
    if ( map_shared_info() )
        return xtf_error("Error: cannot map shared_info\n");
    for ( i = 0; i < ARRAY_SIZE(roles); i++ )
        if ( !strcmp(role, roles[i].name) )
            return roles[i].fn();
    xtf_error("Error: unknown role '%s'\n", role);
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl console: attach to a domain's console (Xen's xl_console.c).  xl
 * becomes Xen's xenconsole, which opens the pty xenconsoled made for the
 * domain; Ctrl-] detaches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxl.h>

#include "xl.h"
#include "xl_utils.h"

int main_console(int argc, char **argv)
{
    uint32_t domid;
    int opt = 0, num = 0;
    libxl_console_type type = 0;

    SWITCH_FOREACH_OPT(opt, "n:t:", NULL, "console", 1) {
    case 't':
        if (!strcmp(optarg, "pv"))
            type = LIBXL_CONSOLE_TYPE_PV;
        else if (!strcmp(optarg, "serial"))
            type = LIBXL_CONSOLE_TYPE_SERIAL;
        else if (!strcmp(optarg, "vuart"))
            type = LIBXL_CONSOLE_TYPE_VUART;
        else {
            fprintf(stderr, "console type supported are: pv, serial, vuart\n");
            return EXIT_FAILURE;
        }
        break;
    case 'n':
        num = atoi(optarg);
        break;
    }

    domid = find_domain(argv[optind]);
    if (!type)
        libxl_primary_console_exec(ctx, domid, -1);
    else
        libxl_console_exec(ctx, domid, num, type, -1);
    fprintf(stderr, "Unable to attach console\n");
    return EXIT_FAILURE;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl: global options, the libxl context, command dispatch and help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

libxl_ctx *ctx;
xentoollog_logger_stdiostream *logger;
int dryrun_only;
int force_execution;
bool progress_use_cr;
xentoollog_level minmsglevel = minmsglevel_default;
enum output_format default_output_format = OUTPUT_FORMAT_JSON;

void xl_ctx_alloc(void)
{
    if (libxl_ctx_alloc(&ctx, LIBXL_VERSION, 0, (xentoollog_logger *)logger)) {
        fprintf(stderr, "cannot init xl context\n");
        exit(1);
    }
}

static void xl_ctx_free(void)
{
    if (ctx) {
        libxl_ctx_free(ctx);
        ctx = NULL;
    }
    if (logger) {
        xtl_logger_destroy((xentoollog_logger *)logger);
        logger = NULL;
    }
}

void help(const char *command)
{
    const struct cmd_spec *cmd;

    if (!command || !strcmp(command, "help")) {
        printf("Usage xl [-vfNt] <subcommand> [args]\n\n");
        printf("xl full list of subcommands:\n\n");
        for (int i = 0; i < cmdtable_len; i++) {
            printf(" %-19s ", cmd_table[i].cmd_name);
            if (strlen(cmd_table[i].cmd_name) > 19)
                printf("\n %-19s ", "");
            printf("%s\n", cmd_table[i].cmd_desc);
        }
        return;
    }

    cmd = cmdtable_lookup(command);
    if (!cmd) {
        fprintf(stderr, "command \"%s\" not implemented\n", command);
        return;
    }
    printf("Usage: xl [-v%s%s] %s %s\n\n%s.\n\n",
           cmd->modifies ? "f" : "",
           cmd->can_dryrun ? "N" : "",
           cmd->cmd_name, cmd->cmd_usage, cmd->cmd_desc);
    if (cmd->cmd_option)
        printf("Options:\n\n%s\n", cmd->cmd_option);
}

/* One message for a command that is not in the table. */
static void unknown_command(const char *cmd)
{
    const struct cmd_spec *m[16];
    int n = cmdtable_matches(cmd, m, 16);

    if (n > 1) {
        fprintf(stderr, "xl: command '%s' is ambiguous:", cmd);
        for (int i = 0; i < n && i < 16; i++)
            fprintf(stderr, " %s", m[i]->cmd_name);
        fprintf(stderr, " (see 'xl help')\n");
    } else {
        fprintf(stderr, "xl: command '%s' not implemented (see 'xl help')\n",
                cmd);
    }
}

int main(int argc, char **argv)
{
    const struct cmd_spec *cspec;
    char *cmd;
    int opt, ret;

    while ((opt = getopt(argc, argv, "+vftN")) >= 0) {
        switch (opt) {
        case 'v':
            if (minmsglevel > 0)
                minmsglevel--;
            break;
        case 'N':
            dryrun_only = 1;
            break;
        case 'f':
            force_execution = 1;
            break;
        case 't':
            progress_use_cr = 1;
            break;
        default:
            fprintf(stderr, "unknown global option\n");
            exit(EXIT_FAILURE);
        }
    }

    cmd = argv[optind];
    if (!cmd) {
        help(NULL);
        exit(EXIT_FAILURE);
    }
    opterr = 0;

    /*
     * Reset options for per-command use of getopt.  optind = 0 (not 1)
     * makes glibc start afresh, so a command's options may also follow
     * its arguments ("xl log-dirty 5 peek --stats"); the global options
     * above stop at the command name.
     */
    argv += optind;
    argc -= optind;
    optind = 0;

    if (!strcmp(cmd, "help")) {
        help(argv[1]);
        return EXIT_SUCCESS;
    }
    cspec = cmdtable_lookup(cmd);
    if (!cspec) {
        unknown_command(cmd);
        return EXIT_FAILURE;
    }
    if (dryrun_only && !cspec->can_dryrun) {
        fprintf(stderr, "command does not implement -N (dryrun) option\n");
        return EXIT_FAILURE;
    }

    parse_global_config();

    logger = xtl_createlogger_stdiostream(stderr, minmsglevel,
        progress_use_cr ? XTL_STDIOSTREAM_PROGRESS_USE_CR : 0);
    if (!logger)
        exit(EXIT_FAILURE);
    atexit(xl_ctx_free);
    xl_ctx_alloc();

    ret = cspec->cmd_impl(argc, argv);
    flush_stream(stdout);
    return ret;
}

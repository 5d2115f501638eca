/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl: the command-line toolstack.  One table of commands (xl_cmdtable.c),
 * each implemented by main_<cmd>() in the xl_<area>.c of its area, as in
 * Xen's tools/xl.
 */
#ifndef XL_H
#define XL_H

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>

#include <xentoollog.h>
#include <libxl.h>

struct cmd_spec {
    const char *cmd_name;
    int (*cmd_impl)(int argc, char **argv);
    int can_dryrun;
    int modifies;
    const char *cmd_desc;
    const char *cmd_usage;
    const char *cmd_option;
};

/*
 * The xl process returns EXIT_SUCCESS or EXIT_FAILURE (2 for bad usage,
 * as Xen's xl).  main_* functions are like main(): they return the
 * process's exit status.
 */
int main_list(int argc, char **argv);
int main_info(int argc, char **argv);
int main_dmesg(int argc, char **argv);
int main_debug_keys(int argc, char **argv);
int main_top(int argc, char **argv);
int main_create(int argc, char **argv);
int main_destroy(int argc, char **argv);
int main_console(int argc, char **argv);
int main_pause(int argc, char **argv);
int main_unpause(int argc, char **argv);
int main_memmax(int argc, char **argv);
int main_memset(int argc, char **argv);
int main_domid(int argc, char **argv);
int main_domname(int argc, char **argv);
int main_shutdown(int argc, char **argv);
int main_reboot(int argc, char **argv);
int main_uptime(int argc, char **argv);
int main_networklist(int argc, char **argv);
int main_blocklist(int argc, char **argv);
int main_vcpulist(int argc, char **argv);
int main_rename(int argc, char **argv);
int main_save(int argc, char **argv);
int main_restore(int argc, char **argv);
int main_migrate(int argc, char **argv);
int main_migrate_receive(int argc, char **argv);
/* This project's commands (not in Xen's xl): xl_dirty.c */
int main_logdirty(int argc, char **argv);
int main_vramtrack(int argc, char **argv);
int main_dirtyrate(int argc, char **argv);

void help(const char *command);

extern const struct cmd_spec cmd_table[];
extern const int cmdtable_len;
/* Look up a command in the table, allowing unambiguous truncation */
const struct cmd_spec *cmdtable_lookup(const char *s);
/*
 * How many commands s is a prefix of (an exact name counts as one);
 * the first up to max of them in matches[].
 */
int cmdtable_matches(const char *s, const struct cmd_spec **matches, int max);

extern libxl_ctx *ctx;
extern xentoollog_logger_stdiostream *logger;

void xl_ctx_alloc(void);
/*
 * xl_monitor.c: xl create's monitor of a domain it made, as Xen's: acts
 * on its shutdown as cfg says (on_poweroff, on_reboot, ...) until it is
 * gone or left; and the daemon it runs in (1 in the parent, 0 in the
 * detached child, -1 if the fork failed).
 */
int monitor_domain(uint32_t domid, libxl_domain_config *cfg);
int daemonize_monitor(const char *name);
/*
 * The monitor of a domain xl made (create, restore, migrate-receive), as
 * their -F and -e set it (monitor_option()): in a daemon (the caller goes
 * on at once; 0), in this process until the domain is gone or left (0, or
 * -1 on failure), or none (0).
 */
enum monitor_mode { MONITOR_DAEMON, MONITOR_FOREGROUND, MONITOR_NONE };
void monitor_option(int opt, enum monitor_mode *mode);
int start_monitor(uint32_t domid, libxl_domain_config *cfg, enum monitor_mode mode);

/* global options */
extern int dryrun_only;
extern int force_execution;
extern bool progress_use_cr;
extern xentoollog_level minmsglevel;
#define minmsglevel_default XTL_PROGRESS

enum output_format {
    OUTPUT_FORMAT_JSON,
    OUTPUT_FORMAT_SXP,
};
extern enum output_format default_output_format;

/* xl.conf (xl_conf.c): read before each command; defaults for xl.cfg. */
void parse_global_config(void);
extern long max_grant_frames;       /* -1: the hypervisor's default */
extern long max_maptrack_frames;
extern long max_grant_version;      /* LIBXL_MAX_GRANT_DEFAULT: the highest */
extern int claim_mode;              /* xl.conf's, Xen's default 1 */

/* Print one {"domid": ..., "config": ...} object (xl create -n). */
void printf_info(enum output_format output_format, int domid,
                 libxl_domain_config *d_config, FILE *fh);

#endif /* XL_H */

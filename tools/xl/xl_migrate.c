/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl migrate and xl migrate-receive, with Xen's protocol and messages.
 *
 * The sender runs "exec <ssh> <host> xl migrate-receive" through sh and
 * talks to it over the child's stdin/stdout:
 *
 *   receiver: banner "xl migration receiver ready, send binary domain data.\n"
 *   sender:   the xl save header and config, then the libxl stream
 *             (live unless --non-live / --debug)
 *   receiver: restores (paused, named <name>--incoming), then
 *             "domain received, ready to unpause"
 *   sender:   renames its domain <name>--migratedaway, then
 *             "domain is yours, you are cleared to unpause"
 *   receiver: renames the copy to <name>, unpauses it, then
 *             "my copy unpause results are as follows" and one status octet
 *   sender:   status 0: destroys its domain ("Migration successful.");
 *             else reads "domain is yours, you are cleared to unpause" back,
 *             renames and resumes its domain.
 *
 * If the stream fails the sender's domain runs on (libxenguest resumes
 * it); the receiver destroys the half-built copy.  Live-migration policy
 * (this project's options): --downtime-ms=N, --max-rounds=N, --xen-policy,
 * --no-auto-converge, --bandwidth=MiB/s; every round is reported.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_saverestore.h"
#include "xl_utils.h"

static const char migrate_receiver_banner[] =
    "xl migration receiver ready, send binary domain data.\n";
static const char migrate_receiver_ready[] = "domain received, ready to unpause";
static const char migrate_permission_to_go[] =
    "domain is yours, you are cleared to unpause";
static const char migrate_report[] = "my copy unpause results are as follows";

static int migrate_read_fixedmessage(int fd, const void *msg, int msgsz,
                                     const char *what, const char *rune)
{
    char buf[128];
    const char *stream = rune ? "migration receiver stream" : "migration stream";

    if (msgsz > (int)sizeof(buf) || xl_read_exactly(fd, buf, (size_t)msgsz)) {
        fprintf(stderr, "%s ended or failed while reading the %s: %s\n",
                stream, what, strerror(errno));
        return -1;
    }
    if (memcmp(buf, msg, (size_t)msgsz)) {
        fprintf(stderr, "%s contained unexpected data instead of %s\n",
                stream, what);
        if (rune)
            fprintf(stderr, "(command run was: %s )\n", rune);
        return -1;
    }
    return 0;
}

static void print_round(const libxl_suspend_round *r, void *data)
{
    (void)data;
    fprintf(stderr, "migration sender: round %u%s: %" PRIu64 " pages sent, %"
            PRIu64 " dirtied, %" PRIu64 " ms, %" PRIu64 " pages/s dirtied, %"
            PRIu64 " KiB/s, predicted downtime %" PRIu64 " ms, throttle %u%%"
            " (paused %" PRIu64 " ms, longest %" PRIu64 ".%03" PRIu64 " ms)\n",
            r->iteration, r->final ? " (final, paused)" : "", r->pages_sent,
            r->pages_dirtied, r->time_ns / 1000000, r->dirty_rate,
            r->bandwidth / 1024, r->predicted_downtime_ns / 1000000,
            r->throttle, r->paused_ns / 1000000, r->max_pause_ns / 1000000,
            r->max_pause_ns / 1000 % 1000);
}

static pid_t create_migration_child(const char *rune, int *send_fd,
                                    int *recv_fd)
{
    int sendpipe[2], recvpipe[2];
    pid_t child;

    if (pipe(sendpipe) || pipe(recvpipe)) {
        perror("pipe");
        return -1;
    }
    child = fork();
    if (child < 0) {
        perror("fork");
        return -1;
    }
    if (!child) {
        dup2(sendpipe[0], 0);
        dup2(recvpipe[1], 1);
        close(sendpipe[0]); close(sendpipe[1]);
        close(recvpipe[0]); close(recvpipe[1]);
        execlp("sh", "sh", "-c", rune, (char *)NULL);
        perror("failed to exec sh");
        _exit(-1);
    }
    close(sendpipe[0]);
    close(recvpipe[1]);
    *send_fd = sendpipe[1];
    *recv_fd = recvpipe[0];
    return child;
}

static void migration_child_report(pid_t child)
{
    int status;

    if (child > 0 && waitpid(child, &status, 0) == child && status)
        fprintf(stderr, "migration target process [%ld] exited with status "
                "%d\n", (long)child,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static int migrate_domain(uint32_t domid, const char *rune, bool live,
                          const char *override_config,
                          const libxl_suspend_params *params)
{
    char *config, *name = NULL, *away = NULL;
    int config_len, send_fd = -1, recv_fd = -1, rc, ret = EXIT_FAILURE;
    char rc_buf;
    pid_t child;

    config = save_domain_config(domid, override_config, &config_len);
    if (!config)
        return EXIT_FAILURE;
    name = libxl_domid_to_name(ctx, domid);

    signal(SIGPIPE, SIG_IGN);
    child = create_migration_child(rune, &send_fd, &recv_fd);
    if (child < 0)
        goto out;
    if (migrate_read_fixedmessage(recv_fd, migrate_receiver_banner,
                                  sizeof(migrate_receiver_banner) - 1,
                                  "banner", rune))
        goto out_child;
    if (save_domain_core_writeconfig(send_fd, "migration stream", config,
                                     config_len))
        goto out_child;

    rc = libxl_domain_suspend_params(ctx, domid, send_fd,
                                     live ? LIBXL_SUSPEND_LIVE : 0, params,
                                     NULL);
    if (rc) {
        fprintf(stderr, "migration sender: libxl_domain_suspend failed"
                " (rc=%d)\n", rc);
        /* libxl resumed it, or the saver unpaused it: it runs on. */
        fprintf(stderr, "Migration failed, resuming at sender.\n");
        goto out_child;
    }

    if (migrate_read_fixedmessage(recv_fd, migrate_receiver_ready,
                                  sizeof(migrate_receiver_ready),
                                  "ready message", rune)) {
        fprintf(stderr, "Migration failed, resuming at sender.\n");
        resume_saved_domain(domid);
        goto out_child;
    }
    fprintf(stderr, "migration sender: Target has acknowledged transfer.\n");
    if (name) {
        xasprintf(&away, "%s--migratedaway", name);
        if (libxl_domain_rename(ctx, domid, name, away))
            goto failed_badly;
    }
    fprintf(stderr, "migration sender: Giving target permission to start.\n");
    if (xl_write_exactly(send_fd, migrate_permission_to_go,
                  sizeof(migrate_permission_to_go)))
        goto failed_badly;
    if (migrate_read_fixedmessage(recv_fd, migrate_report,
                                  sizeof(migrate_report),
                                  "success/failure report message", rune) ||
        xl_read_exactly(recv_fd, &rc_buf, 1))
        goto failed_badly;
    if (rc_buf) {
        fprintf(stderr, "migration sender: Target reports startup failure"
                " (status code %d).\n", rc_buf);
        if (migrate_read_fixedmessage(recv_fd, migrate_permission_to_go,
                                      sizeof(migrate_permission_to_go),
                                      "permission for sender to resume", rune))
            goto failed_badly;
        fprintf(stderr, "migration sender: Trying to resume at our end.\n");
        if (name)
            libxl_domain_rename(ctx, domid, away, name);
        if (!resume_saved_domain(domid))
            fprintf(stderr, "migration sender: Resumed OK.\n");
        fprintf(stderr, "Migration failed due to problems at target.\n");
        goto out_child;
    }
    fprintf(stderr, "migration sender: Target reports successful startup.\n");
    libxl_domain_destroy(ctx, domid, NULL);     /* bang! */
    fprintf(stderr, "Migration successful.\n");
    ret = EXIT_SUCCESS;
    goto out_child;

 failed_badly:
    fprintf(stderr,
 "** Migration failed during final handshake **\n"
 "Domain state is now undefined !\n"
 "Please CHECK AT BOTH ENDS for running instances, before renaming and\n"
 " resuming at most one instance.  Two simultaneous instances of the domain\n"
 " would probably result in SEVERE DATA LOSS and it is now your\n"
 " responsibility to avoid that.  Sorry.\n");

 out_child:
    close(send_fd);
    close(recv_fd);
    migration_child_report(child);
 out:
    free(config);
    free(name);
    free(away);
    return ret;
}

int main_migrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"debug", 0, 0, 0x100},
        {"live", 0, 0, 0x200},
        {"non-live", 0, 0, 0x201},
        {"downtime-ms", 1, 0, 0x202},
        {"max-rounds", 1, 0, 0x203},
        {"xen-policy", 0, 0, 0x204},
        {"no-auto-converge", 0, 0, 0x205},
        {"bandwidth", 1, 0, 0x206},
        COMMON_LONG_OPTS
    };
    const char *ssh_command = "ssh", *config_filename = NULL, *host;
    bool debug = false, live = true, pause_after = false, daemonize = true;
    libxl_suspend_params params = { .round = print_round };
    char *rune = NULL;
    uint32_t domid;
    int opt, rc;

    SWITCH_FOREACH_OPT(opt, "FC:s:epD", opts, "migrate", 2) {
    case 'C':
        config_filename = optarg;
        break;
    case 's':
        ssh_command = optarg;
        break;
    case 'F':
    case 'e':
        daemonize = false;
        break;
    case 'p':
        pause_after = true;
        break;
    case 'D':
        break;
    case 0x100:
        debug = true;
        break;
    case 0x200:
        live = true;
        break;
    case 0x201:
        live = false;
        break;
    case 0x202:
        params.downtime_ms = strtoull(optarg, NULL, 0);
        if (!params.downtime_ms) {
            fprintf(stderr, "xl migrate: --downtime-ms needs a number of "
                    "milliseconds above 0\n");
            return EXIT_FAILURE;
        }
        break;
    case 0x203:
        params.max_rounds = (unsigned int)strtoul(optarg, NULL, 0);
        break;
    case 0x204:
        params.xen_policy = 1;
        break;
    case 0x205:
        params.no_auto_converge = 1;
        break;
    case 0x206: {
        char *end;
        unsigned long long mibs = strtoull(optarg, &end, 10);

        if (!optarg[0] || *end || !mibs || mibs > (UINT64_MAX >> 20)) {
            fprintf(stderr, "xl migrate: --bandwidth needs a number of MiB/s "
                    "above 0, not \"%s\"\n", optarg);
            return EXIT_FAILURE;
        }
        params.max_bandwidth = (uint64_t)mibs << 20;
        break;
    }
    }

    domid = find_domain(argv[optind]);
    host = argv[optind + 1];
    if (!ssh_command[0]) {
        rune = xstrdup(host);
    } else {
        xasprintf(&rune, "exec %s %s xl migrate-receive%s%s%s", ssh_command,
                  host, daemonize ? "" : " -e", debug ? " -d" : "",
                  pause_after ? " -p" : "");
    }
    rc = migrate_domain(domid, rune, live && !debug, config_filename, &params);
    free(rune);
    return rc;
}

int main_migrate_receive(int argc, char **argv)
{
    bool paused = false;
    enum monitor_mode mode = MONITOR_DAEMON;
    libxl_domain_config d_config;
    uint32_t domid = INVALID_DOMID;
    char *name = NULL, *incoming = NULL;
    char rc_buf = 0;
    int opt, rc;

    SWITCH_FOREACH_OPT(opt, "Fedrp", NULL, "migrate-receive", 0) {
    case 'p':
        paused = true;
        break;
    case 'd':
        if (minmsglevel > XTL_DEBUG)
            xtl_stdiostream_set_minlevel(logger, XTL_DEBUG);
        break;
    case 'F':
    case 'e':
        monitor_option(opt, &mode);
        break;
    case 'r':
        break;
    }
    if (argc - optind != 0) {
        help("migrate-receive");
        return EXIT_FAILURE;
    }
    signal(SIGPIPE, SIG_IGN);

    fprintf(stderr, "migration target: Ready to receive domain.\n");
    if (xl_write_exactly(1, migrate_receiver_banner, sizeof(migrate_receiver_banner) - 1))
        return EXIT_FAILURE;

    libxl_domain_config_init(&d_config);
    rc = restore_domain(0, "incoming migration stream", NULL, "--incoming",
                        true, &domid, &d_config);
    if (rc) {
        fprintf(stderr, "migration target: Domain creation failed"
                " (code %d).\n", rc);
        libxl_domain_config_dispose(&d_config);
        return EXIT_FAILURE;
    }

    fprintf(stderr, "migration target: Transfer complete,"
            " requesting permission to start domain.\n");
    if (xl_write_exactly(1, migrate_receiver_ready, sizeof(migrate_receiver_ready)))
        goto destroy;
    if (migrate_read_fixedmessage(0, migrate_permission_to_go,
                                  sizeof(migrate_permission_to_go),
                                  "GO message", NULL))
        goto destroy;
    fprintf(stderr, "migration target: Got permission, starting domain.\n");

    incoming = libxl_domid_to_name(ctx, domid);
    if (incoming && strlen(incoming) > strlen("--incoming")) {
        name = xstrdup(incoming);
        name[strlen(name) - strlen("--incoming")] = 0;
        if (libxl_domain_rename(ctx, domid, incoming, name))
            rc_buf = 1;
    }
    if (!rc_buf && !paused && libxl_domain_unpause(ctx, domid, NULL))
        rc_buf = 2;
    if (!rc_buf)
        fprintf(stderr, "migration target: Domain started successsfully.\n");

    if (xl_write_exactly(1, migrate_report, sizeof(migrate_report)) ||
        xl_write_exactly(1, &rc_buf, 1))
        rc_buf = rc_buf ? rc_buf : 3;
    if (rc_buf) {
        fprintf(stderr, "migration target: Failure, destroying our copy.\n");
        libxl_domain_destroy(ctx, domid, NULL);
        fprintf(stderr, "migration target: Cleanup OK, granting sender"
                " permission to resume.\n");
        xl_write_exactly(1, migrate_permission_to_go, sizeof(migrate_permission_to_go));
    } else if (mode != MONITOR_NONE) {
        /* As Xen's: the copy, under its own name, watched as xl create's. */
        if (name) {
            free(d_config.c_info.name);
            d_config.c_info.name = xstrdup(name);
        }
        start_monitor(domid, &d_config, mode);
    }
    free(name);
    free(incoming);
    libxl_domain_config_dispose(&d_config);
    return rc_buf ? EXIT_FAILURE : EXIT_SUCCESS;

 destroy:
    fprintf(stderr, "migration target: Failure, destroying our copy.\n");
    libxl_domain_destroy(ctx, domid, NULL);
    libxl_domain_config_dispose(&d_config);
    return EXIT_FAILURE;
}

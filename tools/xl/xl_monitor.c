/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl create's domain monitor, as Xen's: after creating a domain, xl stays
 * (in the background, as a daemon logging to /var/log/xen/xl-NAME.log;
 * with -F in the foreground; -e: not at all) until the domain dies, and
 * acts on its shutdown as the configuration says (on_poweroff,
 * on_reboot, on_watchdog, on_crash: destroy, restart, rename-restart,
 * preserve, coredump-destroy, coredump-restart; on_soft_reset).  The
 * hypervisor keeps a domain the toolstack made once it has shut down, as
 * Xen's does, so without a monitor (or `xl destroy`) it stays in xl list
 * as shut down.
 *
 * Xen's messages, in Xen's order: "Waiting for domain NAME (domid N) to
 * die [pid P]", "Domain N has shut down, reason code R 0xR", "Action for
 * shutdown reason code R is ACTION", "Domain N needs to be cleaned up:
 * destroying the domain", "Done. Rebooting now" / "Done. Exiting now",
 * "Domain N has been destroyed.".
 *
 * Not as Xen's (docs/man/xl.1.md): no core dumps (libxl has no
 * libxl_domain_core_dump here: coredump-destroy and coredump-restart say
 * so and destroy or restart), no soft reset (on_soft_reset destroys the
 * domain), and rename-restart renames the old domain but keeps its UUID
 * (there is no libxl_domain_preserve).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

#define XL_LOG_DIR "/var/log/xen"

static void LOG(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void LOG(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

enum restart { RESTART_NONE, RESTART_NORMAL, RESTART_RENAME };

/* rename-restart: the old domain keeps running under NAME-YYYYMMDDTHHMMZ. */
static bool rename_old(uint32_t domid, const char *name)
{
    char suffix[24], *newname;
    time_t now = time(NULL);
    struct tm tm;
    bool ok;

    if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
        !strftime(suffix, sizeof(suffix), "-%Y%m%dT%H%MZ", &tm)) {
        LOG("Failed to get current time for domain rename");
        return false;
    }
    xasprintf(&newname, "%s%s", name, suffix);
    LOG("Preserving domain %u %s with suffix%s", domid, name, suffix);
    ok = !libxl_domain_rename(ctx, domid, name, newname);
    free(newname);
    return ok;
}

/* Act on the domain's shutdown; *domid becomes INVALID_DOMID if it went. */
static enum restart handle_shutdown(uint32_t *domid, const libxl_event *ev,
                                    const libxl_domain_config *cfg)
{
    libxl_action_on_shutdown action;
    enum restart restart = RESTART_NONE;
    int reason = ev->u.domain_shutdown.shutdown_reason;

    switch (reason) {
    case LIBXL_SHUTDOWN_REASON_POWEROFF:
        action = cfg->on_poweroff;
        break;
    case LIBXL_SHUTDOWN_REASON_REBOOT:
        action = cfg->on_reboot;
        break;
    case LIBXL_SHUTDOWN_REASON_SUSPEND:
        LOG("Domain has suspended.");
        return RESTART_NONE;
    case LIBXL_SHUTDOWN_REASON_CRASH:
        action = cfg->on_crash;
        break;
    case LIBXL_SHUTDOWN_REASON_WATCHDOG:
        action = cfg->on_watchdog;
        break;
    case LIBXL_SHUTDOWN_REASON_SOFT_RESET:
        action = cfg->on_soft_reset;
        break;
    default:
        LOG("Unknown shutdown reason code %d. Destroying domain.", reason);
        action = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
    }
    LOG("Action for shutdown reason code %d is %s", reason,
        libxl_action_on_shutdown_to_string(action) ?: "?");

    if (action == LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_DESTROY ||
        action == LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_RESTART) {
        LOG("core dump of domain %u not taken: not supported by this "
            "toolstack", *domid);
        action = action == LIBXL_ACTION_ON_SHUTDOWN_COREDUMP_DESTROY
                 ? LIBXL_ACTION_ON_SHUTDOWN_DESTROY
                 : LIBXL_ACTION_ON_SHUTDOWN_RESTART;
    }
    if (action == LIBXL_ACTION_ON_SHUTDOWN_SOFT_RESET) {
        LOG("soft reset of domain %u not supported by this hypervisor: "
            "destroying it", *domid);
        action = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
    }

    switch (action) {
    case LIBXL_ACTION_ON_SHUTDOWN_PRESERVE:
        break;
    case LIBXL_ACTION_ON_SHUTDOWN_RESTART_RENAME:
        restart = RESTART_RENAME;
        break;
    case LIBXL_ACTION_ON_SHUTDOWN_RESTART:
        restart = RESTART_NORMAL;
        /* fall through */
    default:
        LOG("Domain %u needs to be cleaned up: destroying the domain", *domid);
        libxl_domain_destroy(ctx, *domid, NULL);
        *domid = INVALID_DOMID;
        break;
    }
    return restart;
}

/* Make the domain again (on_reboot=restart): its new id in *domid. */
static int recreate(uint32_t *domid, libxl_domain_config *cfg)
{
    int rc = libxl_domain_create_new(ctx, cfg, domid, NULL, NULL);

    if (rc) {
        LOG("xl: re-creating domain '%s' failed (%s)", cfg->c_info.name,
            libxl_error_name(rc));
        return rc;
    }
    rc = libxl_domain_unpause(ctx, *domid, NULL);
    if (rc) {
        LOG("xl: domain %u re-created but could not be unpaused", *domid);
        libxl_domain_destroy(ctx, *domid, NULL);
        *domid = INVALID_DOMID;
    }
    return rc;
}

int monitor_domain(uint32_t domid, libxl_domain_config *cfg)
{
    libxl_evgen_domain_death *deathw = NULL;
    libxl_event *ev;
    int rc;

    for (;;) {
        LOG("Waiting for domain %s (domid %u) to die [pid %ld]",
            cfg->c_info.name, domid, (long)getpid());
        rc = libxl_evenable_domain_death(ctx, domid, 0, &deathw);
        if (rc) {
            LOG("xl: cannot watch domain %u (%s)", domid, libxl_error_name(rc));
            return rc;
        }
        for (;;) {
            enum restart restart;

            rc = libxl_event_wait(ctx, &ev, LIBXL_EVENTMASK_ALL, NULL, NULL);
            if (rc) {
                LOG("xl: waiting for domain %u's events failed (%s)", domid,
                    libxl_error_name(rc));
                libxl_evdisable_domain_death(ctx, deathw);
                return rc;
            }
            if (ev->type == LIBXL_EVENT_TYPE_DOMAIN_DEATH) {
                LOG("Domain %u has been destroyed.", domid);
                libxl_event_free(ctx, ev);
                libxl_evdisable_domain_death(ctx, deathw);
                return 0;
            }
            if (ev->type != LIBXL_EVENT_TYPE_DOMAIN_SHUTDOWN) {
                LOG("warning, got unexpected event type %d", ev->type);
                libxl_event_free(ctx, ev);
                continue;
            }
            LOG("Domain %u has shut down, reason code %d 0x%x", domid,
                ev->u.domain_shutdown.shutdown_reason,
                ev->u.domain_shutdown.shutdown_reason);
            restart = handle_shutdown(&domid, ev, cfg);
            if (restart == RESTART_RENAME && !rename_old(domid, cfg->c_info.name)) {
                /* As Xen's: the old domain stays as it is. */
                libxl_event_free(ctx, ev);
                libxl_evdisable_domain_death(ctx, deathw);
                return ERROR_FAIL;
            }
            libxl_event_free(ctx, ev);
            if (restart == RESTART_NONE) {
                LOG("Done. Exiting now");
                libxl_evdisable_domain_death(ctx, deathw);
                return 0;
            }
            libxl_evdisable_domain_death(ctx, deathw);
            deathw = NULL;
            /* Whatever else was queued was about the old domain. */
            while (!libxl_event_check(ctx, &ev, LIBXL_EVENTMASK_ALL, NULL, NULL))
                libxl_event_free(ctx, ev);
            LOG("Done. Rebooting now");
            if (recreate(&domid, cfg))
                return ERROR_FAIL;
            break;
        }
    }
}

/*
 * Xen's do_daemonize: the parent returns 1 at once; the child, detached
 * (setsid, stdin /dev/null, stdout and stderr appended to
 * /var/log/xen/xl-NAME.log), returns 0 with a libxl context of its own
 * (the parent's, shared with it through fork, is left alone: libxl's
 * rule for a child that does not exec).  -1 if the fork failed.
 */
int daemonize_monitor(const char *name)
{
    char *path;
    pid_t pid;
    int fd;

    pid = fork();
    if (pid < 0) {
        perror("xl: fork for the domain monitor");
        return -1;
    }
    if (pid) {
        int status;

        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        return 1;
    }

    /* The child: a second fork so the daemon is no session leader's child. */
    if (setsid() < 0 || (pid = fork()) < 0)
        _exit(EXIT_FAILURE);
    if (pid)
        _exit(EXIT_SUCCESS);
    mkdir(XL_LOG_DIR, 0755);
    xasprintf(&path, XL_LOG_DIR "/xl-%s.log", name);
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "xl: cannot open the monitor's log %s: %s\n", path,
                strerror(errno));
        _exit(EXIT_FAILURE);
    }
    free(path);
    if (chdir("/") < 0)
        _exit(EXIT_FAILURE);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        if (fd > STDERR_FILENO)
            close(fd);
    }
    ctx = NULL;                 /* the parent's: not to be used or freed */
    xl_ctx_alloc();
    return 0;
}

/* -F: in the foreground; -e: none (the default: a daemon). */
void monitor_option(int opt, enum monitor_mode *mode)
{
    if (opt == 'e')
        *mode = MONITOR_NONE;
    else if (opt == 'F' && *mode != MONITOR_NONE)
        *mode = MONITOR_FOREGROUND;
}

int start_monitor(uint32_t domid, libxl_domain_config *cfg, enum monitor_mode mode)
{
    if (mode == MONITOR_NONE)
        return 0;
    if (mode == MONITOR_FOREGROUND)
        return monitor_domain(domid, cfg) ? -1 : 0;
    switch (daemonize_monitor(cfg->c_info.name ? cfg->c_info.name : "")) {
    case 0:
        exit(monitor_domain(domid, cfg) ? EXIT_FAILURE : EXIT_SUCCESS);
    case -1:
        fprintf(stderr, "xl: domain %u runs, but nothing will act on its "
                "shutdown (on_poweroff, on_reboot, ...)\n", domid);
        break;
    }
    return 0;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl create, destroy, pause, unpause, shutdown, reboot, rename.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_utils.h"

int main_pause(int argc, char **argv)
{
    uint32_t domid;
    int opt, rc;

    SWITCH_FOREACH_OPT(opt, "", NULL, "pause", 1) {
        /* No options */
    }

    domid = find_domain(argv[optind]);
    rc = libxl_domain_pause(ctx, domid, NULL);
    if (rc) {
        fprintf(stderr, "xl: pausing domain %u failed (%s)\n", domid,
                libxl_error_name(rc));
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

int main_unpause(int argc, char **argv)
{
    uint32_t domid;
    int opt, rc;

    SWITCH_FOREACH_OPT(opt, "", NULL, "unpause", 1) {
        /* No options */
    }

    domid = find_domain(argv[optind]);
    rc = libxl_domain_unpause(ctx, domid, NULL);
    if (rc) {
        fprintf(stderr, "xl: unpausing domain %u failed (%s)\n", domid,
                libxl_error_name(rc));
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

int main_destroy(int argc, char **argv)
{
    uint32_t domid;
    int opt, rc;
    bool force = false;

    SWITCH_FOREACH_OPT(opt, "f", NULL, "destroy", 1) {
    case 'f':
        force = true;
        break;
    }

    domid = find_domain(argv[optind]);
    if (domid == 0 && !force && !force_execution) {
        fprintf(stderr, "Not destroying domain 0; use -f to force.\n"
                "This can only succeed if there is a separate hardware "
                "domain.\n");
        return EXIT_FAILURE;
    }
    rc = libxl_domain_destroy(ctx, domid, NULL);
    if (rc) {
        fprintf(stderr, "destroy failed (rc=%d)\n", rc);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* ---- xl create ------------------------------------------------------------------ */

/*
 * xl create -c (Xen's autoconnect_console): a child becomes xenconsole on
 * the new domain's console; the domain is unpaused once xenconsole says
 * it is attached (--start-notify-fd), so nothing it prints is missed; xl
 * returns when the console is left (Ctrl-]).
 */
static int autoconnect_console(uint32_t domid, bool paused)
{
    int fds[2], status = 0;
    char c;
    pid_t pid;

    if (pipe(fds) < 0) {
        perror("xl: pipe for the console");
        return -1;
    }
    pid = fork();
    if (pid < 0) {
        perror("xl: fork for the console");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (!pid) {
        close(fds[0]);
        libxl_primary_console_exec(ctx, domid, fds[1]);
        fprintf(stderr, "Unable to attach console\n");
        _exit(EXIT_FAILURE);
    }
    close(fds[1]);
    if (read(fds[0], &c, 1) != 1)
        fprintf(stderr, "xl: the console of domain %u did not attach\n", domid);
    close(fds[0]);
    if (!paused && libxl_domain_unpause(ctx, domid, NULL)) {
        fprintf(stderr, "xl: domain %u created but could not be unpaused\n", domid);
        kill(pid, SIGTERM);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

int main_create(int argc, char **argv)
{
    static const struct option opts[] = {
        {"dryrun", 0, 0, 'n'},
        {"quiet", 0, 0, 'q'},
        {"defconfig", 1, 0, 'f'},
        COMMON_LONG_OPTS
    };
    const char *filename = NULL;
    char *extra_config = NULL;
    size_t extra_len = 0;
    bool dryrun = dryrun_only, quiet = false, paused = false, console = false;
    enum monitor_mode mode = MONITOR_DAEMON;
    libxl_domain_config d_config;
    void *config_data = NULL;
    int config_len = 0;
    uint32_t domid;
    int opt, rc, ret = EXIT_FAILURE;

    SWITCH_FOREACH_OPT(opt, "Fnqf:pdec", opts, "create", 0) {
    case 'c':
        console = true;
        break;
    case 'f':
        filename = optarg;
        break;
    case 'p':
        paused = true;
        break;
    case 'n':
        dryrun = true;
        break;
    case 'q':
        quiet = true;
        break;
    case 'd':
        if (minmsglevel > XTL_DEBUG)
            xtl_stdiostream_set_minlevel(logger, XTL_DEBUG);
        break;
    case 'F':
    case 'e':
        monitor_option(opt, &mode);
        break;
    }

    /* [ConfigFile] then key=value settings, one per argument */
    if (!filename && optind < argc && !strchr(argv[optind], '='))
        filename = argv[optind++];
    for (int i = optind; i < argc; i++) {
        size_t n = strlen(argv[i]);

        if (!strchr(argv[i], '=')) {
            fprintf(stderr, "xl create: `%s' is not a key=value setting\n",
                    argv[i]);
            free(extra_config);
            return 2;
        }
        extra_config = xrealloc(extra_config, extra_len + n + 2);
        memcpy(extra_config + extra_len, argv[i], n);
        extra_len += n;
        extra_config[extra_len++] = '\n';
        extra_config[extra_len] = 0;
    }
    if (!filename) {
        fprintf(stderr, "xl create: no configuration file given\n\n");
        help("create");
        free(extra_config);
        return 2;
    }

    rc = libxl_read_file_contents(NULL, filename, &config_data, &config_len);
    if (rc) {
        fprintf(stderr, "Failed to read config file: %s: %s\n", filename,
                strerror(rc));
        free(extra_config);
        return EXIT_FAILURE;
    }
    if (!quiet)
        fprintf(stderr, "Parsing config from %s\n", filename);

    libxl_domain_config_init(&d_config);
    if (parse_config_data(filename, config_data, config_len, extra_config,
                          &d_config))
        goto out;

    if (dryrun) {
        printf_info(default_output_format, -1, &d_config, stdout);
        ret = EXIT_SUCCESS;
        goto out;
    }

    if (d_config.c_info.type != LIBXL_DOMAIN_TYPE_PVH) {
        fprintf(stderr, "xl: domain type %s is not supported by this "
                "hypervisor (only pvh)\n",
                libxl_domain_type_to_string(d_config.c_info.type));
        goto out;
    }

    rc = libxl_domain_create_new(ctx, &d_config, &domid, NULL, NULL);
    if (rc == ERROR_NI) {
        fprintf(stderr, "xl: cannot create domain '%s': creating domains is "
                "not supported by this hypervisor yet\n",
                d_config.c_info.name);
        goto out;
    }
    if (rc) {
        fprintf(stderr, "xl: creating domain '%s' failed (%s)\n",
                d_config.c_info.name, libxl_error_name(rc));
        goto out;
    }
    /*
     * The daemon watches before the domain runs, and while xl create -c
     * holds the console (Xen's forks its console client first).
     */
    if (mode == MONITOR_DAEMON)
        start_monitor(domid, &d_config, mode);
    if (console) {
        autoconnect_console(domid, paused);
    } else if (!paused && libxl_domain_unpause(ctx, domid, NULL)) {
        fprintf(stderr, "xl: domain %u created but could not be unpaused\n",
                domid);
        goto out;
    }
    ret = EXIT_SUCCESS;             /* created (with -c: the console was left) */
    if (mode == MONITOR_FOREGROUND)
        ret = start_monitor(domid, &d_config, mode) ? EXIT_FAILURE : EXIT_SUCCESS;

 out:
    libxl_domain_config_dispose(&d_config);
    free(config_data);
    free(extra_config);
    return ret;
}

/* ---- xl shutdown, xl reboot ----------------------------------------------------- */

/*
 * -w: until each domain has shut down or is gone, as Xen's
 * wait_for_domain_deaths: one DOMAIN_SHUTDOWN or DOMAIN_DEATH event per
 * domain (libxl_evenable_domain_death reports one at once for a domain
 * that has already shut down or gone), with Xen's messages.
 */
static int wait_for_domains(uint32_t *domids, int nr)
{
    libxl_evgen_domain_death **deathws = xcalloc(nr, sizeof(*deathws));
    int left = 0, rc = 0;

    for (int i = 0; i < nr; i++) {
        rc = libxl_evenable_domain_death(ctx, domids[i], i, &deathws[i]);
        if (rc) {
            fprintf(stderr, "wait for death failed (evgen, rc=%d)\n", rc);
            goto out;
        }
        left++;
    }
    fprintf(stderr, "Waiting for %d domains\n", nr);
    while (left > 0) {
        libxl_event *ev;
        int i;

        rc = libxl_event_wait(ctx, &ev, LIBXL_EVENTMASK_ALL, NULL, NULL);
        if (rc) {
            fprintf(stderr, "wait for death failed (rc=%d)\n", rc);
            goto out;
        }
        i = (int)ev->for_user;
        if (i >= 0 && i < nr && deathws[i] &&
            (ev->type == LIBXL_EVENT_TYPE_DOMAIN_DEATH ||
             ev->type == LIBXL_EVENT_TYPE_DOMAIN_SHUTDOWN)) {
            if (ev->type == LIBXL_EVENT_TYPE_DOMAIN_DEATH)
                fprintf(stderr, "Domain %u has been destroyed\n", ev->domid);
            else
                fprintf(stderr, "Domain %u has been shut down, reason code %d\n",
                        ev->domid, ev->u.domain_shutdown.shutdown_reason);
            libxl_evdisable_domain_death(ctx, deathws[i]);
            deathws[i] = NULL;
            left--;
        }
        libxl_event_free(ctx, ev);
    }
 out:
    for (int i = 0; i < nr; i++)
        if (deathws[i])
            libxl_evdisable_domain_death(ctx, deathws[i]);
    free(deathws);
    return rc;
}

/*
 * Xen's shutdown_domain / reboot_domain: libxl asks the guest through
 * xenstore's control/shutdown and waits for its acknowledgement.  A guest
 * without the PV control interface gets Xen's message; with -F, where
 * Xen's xl sends an ACPI power (reset) button event, this one has the
 * hypervisor shut it down (SCHEDOP_remote_shutdown: there is no ACPI PM
 * block to press a button of).
 */
static void shutdown_or_reboot_domain(uint32_t domid, bool reboot,
                                      int fallback_trigger)
{
    const char *what = reboot ? "reboot" : "shutdown";
    int rc;

    fprintf(stderr, "%s domain %u\n", reboot ? "Rebooting" : "Shutting down",
            domid);
    rc = reboot ? libxl_domain_reboot(ctx, domid, NULL)
                : libxl_domain_shutdown(ctx, domid, NULL);
    if (rc == ERROR_NOPARAVIRT) {
        if (fallback_trigger) {
            fprintf(stderr, "PV control interface not available:"
                    " no ACPI %s button here, SCHEDOP_remote_shutdown (%s).\n",
                    reboot ? "reset" : "power", reboot ? "reboot" : "poweroff");
            rc = libxl_domain_remote_shutdown(ctx, domid,
                                              reboot ? LIBXL_SHUTDOWN_REASON_REBOOT
                                                     : LIBXL_SHUTDOWN_REASON_POWEROFF);
        } else {
            fprintf(stderr, "PV control interface not available:"
                    " external graceful %s not possible.\n", what);
            fprintf(stderr, "Use \"-F\" to fallback to ACPI %s event.\n",
                    reboot ? "reset" : "power");
        }
    }
    if (rc) {
        fprintf(stderr, "%s failed (rc=%d)\n", what, rc);
        exit(EXIT_FAILURE);
    }
}

static int main_shutdown_or_reboot(bool reboot, int argc, char **argv)
{
    const char *what = reboot ? "reboot" : "shutdown";
    static const struct option opts[] = {
        {"all", 0, 0, 'a'},
        {"wait", 0, 0, 'w'},
        COMMON_LONG_OPTS
    };
    bool all = false, wait_for_it = false;
    int fallback_trigger = 0, opt, nr = 0, rc;
    uint32_t *domids = NULL;

    SWITCH_FOREACH_OPT(opt, "awF", opts, what, 0) {
    case 'a':
        all = true;
        break;
    case 'w':
        wait_for_it = true;
        break;
    case 'F':
        fallback_trigger = 1;
        break;
    }

    if (!argv[optind] && !all) {
        fprintf(stderr, "You must specify -a or a domain id.\n\n");
        return EXIT_FAILURE;
    }

    if (all) {
        libxl_dominfo *dominfo;
        int nb_domain;

        dominfo = libxl_list_domain(ctx, &nb_domain);
        if (!dominfo) {
            fprintf(stderr, "libxl_list_domain failed.\n");
            return EXIT_FAILURE;
        }
        domids = xcalloc(nb_domain ? nb_domain : 1, sizeof(*domids));
        for (int i = 0; i < nb_domain; i++) {
            if (dominfo[i].domid == 0 || dominfo[i].never_stop)
                continue;
            shutdown_or_reboot_domain(dominfo[i].domid, reboot,
                                      fallback_trigger);
            domids[nr++] = dominfo[i].domid;
        }
        libxl_dominfo_list_free(dominfo, nb_domain);
    } else {
        domids = xcalloc(1, sizeof(*domids));
        domids[0] = find_domain(argv[optind]);
        shutdown_or_reboot_domain(domids[0], reboot, fallback_trigger);
        nr = 1;
    }

    rc = wait_for_it && nr ? wait_for_domains(domids, nr) : 0;
    free(domids);
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main_shutdown(int argc, char **argv)
{
    return main_shutdown_or_reboot(false, argc, argv);
}

int main_reboot(int argc, char **argv)
{
    return main_shutdown_or_reboot(true, argc, argv);
}

/* ---- xl rename -------------------------------------------------------------------- */

int main_rename(int argc, char **argv)
{
    const char *dom, *new_name;
    char *old_name;
    uint32_t domid;
    int opt, rc;

    SWITCH_FOREACH_OPT(opt, "", NULL, "rename", 2) {
        /* No options */
    }

    dom = argv[optind++];
    new_name = argv[optind];
    domid = find_domain(dom);
    old_name = libxl_domid_to_name(ctx, domid);     /* NULL: nameless */
    rc = libxl_domain_rename(ctx, domid, old_name, new_name);
    free(old_name);
    if (rc) {
        fprintf(stderr, "Can't rename domain '%s'.\n", dom);
        return 1;
    }
    return 0;
}

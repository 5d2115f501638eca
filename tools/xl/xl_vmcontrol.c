/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl create, destroy, pause, unpause.
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
        /* No monitoring daemon here: nothing to stay for. */
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
    if (console) {
        autoconnect_console(domid, paused);
        ret = EXIT_SUCCESS;             /* created; the console was left */
        goto out;
    }
    if (!paused && libxl_domain_unpause(ctx, domid, NULL)) {
        fprintf(stderr, "xl: domain %u created but could not be unpaused\n",
                domid);
        goto out;
    }
    ret = EXIT_SUCCESS;

 out:
    libxl_domain_config_dispose(&d_config);
    free(config_data);
    free(extra_config);
    return ret;
}

/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl list, xl info, xl dmesg, xl domid, xl domname, xl uptime: what there
 * is, in Xen's output formats.
 */
#define _GNU_SOURCE

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

#include <libxl.h>
#include <libxl_json.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

/* Possibly select a specific piece of `xl info` to print. */
static const char *info_name;

static int maybe_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static int maybe_printf(const char *fmt, ...)
{
    va_list ap;
    char *str;
    int count = 0;

    va_start(ap, fmt);
    if (vasprintf(&str, fmt, ap) != -1) {
        if (info_name) {
            char *s;

            if (!strncmp(str, info_name, strlen(info_name)) &&
                (s = strchr(str, ':')) && s[1] == ' ')
                count = fputs(&s[2], stdout);
        } else {
            count = fputs(str, stdout);
        }
        free(str);
    }
    va_end(ap);
    return count;
}

/* ---- JSON output of domain configurations ------------------------------------ */

static yajl_gen_status printf_info_one_json(yajl_gen hand, int domid,
                                            libxl_domain_config *d_config)
{
    yajl_gen_status s;

    s = yajl_gen_map_open(hand);
    if (s != yajl_gen_status_ok)
        return s;
    s = yajl_gen_string(hand, (const unsigned char *)"domid",
                        sizeof("domid") - 1);
    if (s != yajl_gen_status_ok)
        return s;
    s = domid != -1 ? yajl_gen_integer(hand, domid) : yajl_gen_null(hand);
    if (s != yajl_gen_status_ok)
        return s;
    s = yajl_gen_string(hand, (const unsigned char *)"config",
                        sizeof("config") - 1);
    if (s != yajl_gen_status_ok)
        return s;
    s = libxl_domain_config_gen_json(hand, d_config);
    if (s != yajl_gen_status_ok)
        return s;
    return yajl_gen_map_close(hand);
}

void printf_info(enum output_format output_format, int domid,
                 libxl_domain_config *d_config, FILE *fh)
{
    const unsigned char *buf;
    libxl_yajl_length len = 0;
    yajl_gen_status s;
    yajl_gen hand;

    (void)output_format;            /* only JSON: no SXP here */
    hand = libxl_yajl_gen_alloc(NULL);
    if (!hand) {
        fprintf(stderr, "unable to allocate JSON generator\n");
        return;
    }
    s = printf_info_one_json(hand, domid, d_config);
    if (s == yajl_gen_status_ok)
        s = yajl_gen_get_buf(hand, &buf, &len);
    if (s == yajl_gen_status_ok)
        fputs((const char *)buf, fh);
    yajl_gen_free(hand);
    if (s != yajl_gen_status_ok)
        fprintf(stderr, "unable to format domain config as JSON (YAJL:%d)\n",
                s);
    flush_stream(fh);
}

/* ---- xl list ------------------------------------------------------------------- */

static void list_domains(bool verbose, bool context, bool cpupool, bool numa,
                         const libxl_dominfo *info, int nb_domain)
{
    static const char shutdown_reason_letters[] = "-rscwS";
    libxl_physinfo physinfo;
    libxl_bitmap nodemap;

    libxl_bitmap_init(&nodemap);
    libxl_physinfo_init(&physinfo);
    if (numa) {
        if (libxl_node_bitmap_alloc(ctx, &nodemap, 0)) {
            fprintf(stderr, "libxl_node_bitmap_alloc_failed.\n");
            exit(EXIT_FAILURE);
        }
        if (libxl_get_physinfo(ctx, &physinfo) != 0) {
            fprintf(stderr, "libxl_physinfo failed.\n");
            libxl_bitmap_dispose(&nodemap);
            exit(EXIT_FAILURE);
        }
    }

    printf("Name                                        ID   Mem VCPUs\tState\tTime(s)");
    if (verbose)
        printf("   UUID                            Reason-Code\tSecurity Label");
    if (context && !verbose)
        printf("   Security Label");
    if (cpupool)
        printf("         Cpupool");
    if (numa)
        printf(" NODE Affinity");
    printf("\n");

    for (int i = 0; i < nb_domain; i++) {
        char *domname = domain_name_or_null(info[i].domid);
        int shutdown_reason = info[i].shutdown ? info[i].shutdown_reason : 0;

        printf("%-40s %5d %5lu %5d     %c%c%c%c%c%c  %8.1f",
               domname,
               info[i].domid,
               (unsigned long)((info[i].current_memkb +
                                info[i].outstanding_memkb) / 1024),
               info[i].vcpu_online,
               info[i].running ? 'r' : '-',
               info[i].blocked ? 'b' : '-',
               info[i].paused ? 'p' : '-',
               info[i].shutdown ? 's' : '-',
               (shutdown_reason >= 0 &&
                shutdown_reason < (int)sizeof(shutdown_reason_letters) - 1
                ? shutdown_reason_letters[shutdown_reason] : '?'),
               info[i].dying ? 'd' : '-',
               ((float)info[i].cpu_time / 1e9));
        free(domname);
        if (verbose) {
            printf(" " LIBXL_UUID_FMT, LIBXL_UUID_BYTES(info[i].uuid));
            if (info[i].shutdown)
                printf(" %8x", shutdown_reason);
            else
                printf(" %8s", "-");
        }
        if (verbose || context)
            printf(" %16s", info[i].ssid_label ? info[i].ssid_label : "-");
        if (cpupool) {
            char *poolname = libxl_cpupoolid_to_name(ctx, info[i].cpupool);

            printf("%16s", poolname);
            free(poolname);
        }
        if (numa) {
            if (libxl_domain_get_nodeaffinity(ctx, info[i].domid, &nodemap))
                break;
            putchar(' ');
            print_bitmap(nodemap.map, physinfo.nr_nodes, stdout);
        }
        putchar('\n');
    }
    libxl_bitmap_dispose(&nodemap);
    libxl_physinfo_dispose(&physinfo);
}

static int list_domains_details(const libxl_dominfo *info, int nb_domain)
{
    libxl_domain_config d_config;
    const unsigned char *buf;
    libxl_yajl_length len = 0;
    yajl_gen_status s;
    yajl_gen hand;

    hand = libxl_yajl_gen_alloc(NULL);
    if (!hand) {
        fprintf(stderr, "unable to allocate JSON generator\n");
        return EXIT_FAILURE;
    }
    s = yajl_gen_array_open(hand);
    for (int i = 0; i < nb_domain && s == yajl_gen_status_ok; i++) {
        libxl_domain_config_init(&d_config);
        if (!libxl_retrieve_domain_configuration(ctx, info[i].domid,
                                                 &d_config, NULL))
            s = printf_info_one_json(hand, info[i].domid, &d_config);
        libxl_domain_config_dispose(&d_config);
    }
    if (s == yajl_gen_status_ok)
        s = yajl_gen_array_close(hand);
    if (s == yajl_gen_status_ok)
        s = yajl_gen_get_buf(hand, &buf, &len);
    if (s == yajl_gen_status_ok)
        puts((const char *)buf);
    yajl_gen_free(hand);
    if (s != yajl_gen_status_ok) {
        fprintf(stderr, "unable to format domain config as JSON (YAJL:%d)\n",
                s);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

int main_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"long", 0, 0, 'l'},
        {"verbose", 0, 0, 'v'},
        {"context", 0, 0, 'Z'},
        {"cpupool", 0, 0, 'c'},
        {"numa", 0, 0, 'n'},
        COMMON_LONG_OPTS
    };
    bool verbose = false, context = false, details = false;
    bool cpupool = false, numa = false;
    libxl_dominfo info_buf;
    libxl_dominfo *info, *info_free = NULL;
    int opt, nb_domain, rc, ret;

    SWITCH_FOREACH_OPT(opt, "lvZcn", opts, "list", 0) {
    case 'l':
        details = true;
        break;
    case 'v':
        verbose = true;
        break;
    case 'Z':
        context = true;
        break;
    case 'c':
        cpupool = true;
        break;
    case 'n':
        numa = true;
        break;
    }

    libxl_dominfo_init(&info_buf);
    if (optind >= argc) {
        info = libxl_list_domain(ctx, &nb_domain);
        if (!info) {
            fprintf(stderr, "libxl_list_domain failed.\n");
            return EXIT_FAILURE;
        }
        info_free = info;
    } else if (optind == argc - 1) {
        uint32_t domid = find_domain(argv[optind]);

        rc = libxl_domain_info(ctx, &info_buf, domid);
        if (rc == ERROR_DOMAIN_NOTFOUND) {
            fprintf(stderr, "Error: Domain '%s' does not exist.\n",
                    argv[optind]);
            return EXIT_FAILURE;
        }
        if (rc) {
            fprintf(stderr, "libxl_domain_info failed (code %d).\n", rc);
            return EXIT_FAILURE;
        }
        info = &info_buf;
        nb_domain = 1;
    } else {
        help("list");
        return EXIT_FAILURE;
    }

    ret = EXIT_SUCCESS;
    if (details)
        ret = list_domains_details(info, nb_domain);
    else
        list_domains(verbose, context, cpupool, numa, info, nb_domain);

    if (info_free)
        libxl_dominfo_list_free(info, nb_domain);
    libxl_dominfo_dispose(&info_buf);
    return ret;
}

/* ---- xl info ------------------------------------------------------------------- */

static void output_nodeinfo(void)
{
    struct utsname utsbuf;

    if (uname(&utsbuf) < 0)
        return;
    maybe_printf("host                   : %s\n", utsbuf.nodename);
    maybe_printf("release                : %s\n", utsbuf.release);
    maybe_printf("version                : %s\n", utsbuf.version);
    maybe_printf("machine                : %s\n", utsbuf.machine);
}

static int output_physinfo(void)
{
    const libxl_version_info *vinfo;
    libxl_physinfo info;

    libxl_physinfo_init(&info);
    if (libxl_get_physinfo(ctx, &info) != 0) {
        fprintf(stderr, "libxl_physinfo failed.\n");
        return -1;
    }
    maybe_printf("nr_cpus                : %d\n", info.nr_cpus);
    maybe_printf("max_cpu_id             : %d\n", info.max_cpu_id);
    maybe_printf("nr_nodes               : %d\n", info.nr_nodes);
    maybe_printf("cores_per_socket       : %d\n", info.cores_per_socket);
    maybe_printf("threads_per_core       : %d\n", info.threads_per_core);
    maybe_printf("cpu_mhz                : %d.%03d\n", info.cpu_khz / 1000,
                 info.cpu_khz % 1000);
    maybe_printf("hw_caps                : %08x:%08x:%08x:%08x:%08x:%08x:%08x:%08x\n",
                 info.hw_cap[0], info.hw_cap[1], info.hw_cap[2],
                 info.hw_cap[3], info.hw_cap[4], info.hw_cap[5],
                 info.hw_cap[6], info.hw_cap[7]);
    maybe_printf("virt_caps              :%s%s%s%s%s%s%s%s%s%s%s\n",
                 info.cap_pv ? " pv" : "",
                 info.cap_hvm ? " hvm" : "",
                 info.cap_hvm && info.cap_hvm_directio ? " hvm_directio" : "",
                 info.cap_pv && info.cap_hvm_directio ? " pv_directio" : "",
                 info.cap_hap ? " hap" : "",
                 info.cap_shadow ? " shadow" : "",
                 info.cap_iommu_hap_pt_share ? " iommu_hap_pt_share" : "",
                 info.cap_vmtrace ? " vmtrace" : "",
                 info.cap_vpmu ? " vpmu" : "",
                 info.cap_gnttab_v1 ? " gnttab-v1" : "",
                 info.cap_gnttab_v2 ? " gnttab-v2" : "");

    vinfo = libxl_get_version_info(ctx);
    if (vinfo && vinfo->pagesize > 0) {
        unsigned int i = (1 << 20) / vinfo->pagesize;

        maybe_printf("total_memory           : %"PRIu64"\n",
                     info.total_pages / i);
        maybe_printf("free_memory            : %"PRIu64"\n",
                     (info.free_pages - info.outstanding_pages) / i);
        maybe_printf("sharing_freed_memory   : %"PRIu64"\n",
                     info.sharing_freed_pages / i);
        maybe_printf("sharing_used_memory    : %"PRIu64"\n",
                     info.sharing_used_frames / i);
        maybe_printf("outstanding_claims     : %"PRIu64"\n",
                     info.outstanding_pages / i);
    }
    /* One CPU pool holding every CPU: none is free. */
    maybe_printf("free_cpus              : %d\n", 0);
    libxl_physinfo_dispose(&info);
    return 0;
}

static int output_xeninfo(void)
{
    const libxl_version_info *info = libxl_get_version_info(ctx);
    libxl_scheduler sched;

    if (!info) {
        fprintf(stderr, "libxl_get_version_info failed.\n");
        return -1;
    }
    maybe_printf("xen_major              : %d\n", info->xen_version_major);
    maybe_printf("xen_minor              : %d\n", info->xen_version_minor);
    maybe_printf("xen_extra              : %s\n", info->xen_version_extra);
    maybe_printf("xen_version            : %d.%d%s\n", info->xen_version_major,
                 info->xen_version_minor, info->xen_version_extra);
    maybe_printf("xen_caps               : %s\n", info->capabilities);
    sched = libxl_get_scheduler(ctx);
    if (sched < 0) {
        fprintf(stderr, "get_scheduler sysctl failed.\n");
        return -1;
    }
    maybe_printf("xen_scheduler          : %s\n", libxl_scheduler_to_string(sched));
    maybe_printf("xen_pagesize           : %u\n", info->pagesize);
    maybe_printf("platform_params        : virt_start=0x%"PRIx64"\n",
                 info->virt_start);
    maybe_printf("xen_changeset          : %s\n", info->changeset);
    maybe_printf("xen_commandline        : %s\n", info->commandline);
    maybe_printf("cc_compiler            : %s\n", info->compiler);
    maybe_printf("cc_compile_by          : %s\n", info->compile_by);
    maybe_printf("cc_compile_domain      : %s\n", info->compile_domain);
    maybe_printf("cc_compile_date        : %s\n", info->compile_date);
    maybe_printf("build_id               : %s\n", info->build_id);
    return 0;
}

int main_info(int argc, char **argv)
{
    static const struct option opts[] = {
        COMMON_LONG_OPTS
    };
    int opt, rc = 0;

    SWITCH_FOREACH_OPT(opt, "", opts, "info", 0) {
        /* No options */
    }

    /* An extra argument: print only that item's value. */
    if (argc > optind)
        info_name = argv[optind];

    output_nodeinfo();
    rc |= output_physinfo();
    rc |= output_xeninfo();
    maybe_printf("xend_config_format     : 4\n");
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- xl dmesg ------------------------------------------------------------------ */

int main_dmesg(int argc, char **argv)
{
    static const struct option opts[] = {
        {"clear", 0, 0, 'c'},
        COMMON_LONG_OPTS
    };
    libxl_xen_console_reader *cr;
    unsigned int clear = 0;
    char *line;
    int opt, ret = 1;

    SWITCH_FOREACH_OPT(opt, "c", opts, "dmesg", 0) {
    case 'c':
        clear = 1;
        break;
    }

    cr = libxl_xen_console_read_start(ctx, clear);
    if (!cr)
        return EXIT_FAILURE;
    while ((ret = libxl_xen_console_read_line(ctx, cr, &line)) > 0)
        printf("%s", line);
    libxl_xen_console_read_finish(ctx, cr);
    return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* As Xen's: what the keys print goes to the console ring (xl dmesg). */
int main_debug_keys(int argc, char **argv)
{
    int opt;
    char *keys;

    SWITCH_FOREACH_OPT(opt, "", NULL, "debug-keys", 1) {
        /* No options */
    }

    keys = argv[optind];
    if (libxl_send_debug_keys(ctx, keys)) {
        fprintf(stderr, "cannot send debug keys: %s\n", keys);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* ---- xl top ---------------------------------------------------------------------- */

/* As Xen's: xentop does the work; here its options are passed on. */
int main_top(int argc, char **argv)
{
    char **args = calloc(argc + 1, sizeof(*args));

    if (!args)
        return EXIT_FAILURE;
    args[0] = "xentop";
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    execvp("xentop", args);
    fprintf(stderr, "xl: cannot run xentop: %s\n", strerror(errno));
    free(args);
    return EXIT_FAILURE;
}

/* ---- xl domid / domname ----------------------------------------------------------- */

int main_domid(int argc, char **argv)
{
    uint32_t domid;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", NULL, "domid", 1) {
        /* No options */
    }

    if (libxl_name_to_domid(ctx, argv[optind], &domid)) {
        fprintf(stderr, "Can't get domid of domain name '%s', maybe this "
                "domain does not exist.\n", argv[optind]);
        return EXIT_FAILURE;
    }
    printf("%u\n", domid);
    return EXIT_SUCCESS;
}

int main_domname(int argc, char **argv)
{
    char *domname, *endptr;
    uint32_t domid;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", NULL, "domname", 1) {
        /* No options */
    }

    domid = strtoul(argv[optind], &endptr, 10);
    if (endptr == argv[optind] || *endptr) {
        fprintf(stderr, "Invalid domain id.\n\n");
        return EXIT_FAILURE;
    }
    domname = libxl_domid_to_name(ctx, domid);
    if (!domname) {
        fprintf(stderr, "Can't get domain name of domain id '%u', maybe this "
                "domain does not exist.\n", domid);
        return EXIT_FAILURE;
    }
    printf("%s\n", domname);
    free(domname);
    return EXIT_SUCCESS;
}

/* ---- xl uptime ------------------------------------------------------------------ */

static char *uptime_to_string(unsigned long uptime, int short_mode)
{
    int sec, min, hour, day;
    char *time_string;

    day = (int)(uptime / 86400);
    uptime -= (day * 86400);
    hour = (int)(uptime / 3600);
    uptime -= (hour * 3600);
    min = (int)(uptime / 60);
    uptime -= (min * 60);
    sec = uptime;

    if (short_mode) {
        if (day > 1)
            xasprintf(&time_string, "%d days, %2d:%02d", day, hour, min);
        else if (day == 1)
            xasprintf(&time_string, "%d day, %2d:%02d", day, hour, min);
        else
            xasprintf(&time_string, "%2d:%02d", hour, min);
    } else {
        if (day > 1)
            xasprintf(&time_string, "%d days, %2d:%02d:%02d", day, hour, min,
                      sec);
        else if (day == 1)
            xasprintf(&time_string, "%d day, %2d:%02d:%02d", day, hour, min,
                      sec);
        else
            xasprintf(&time_string, "%2d:%02d:%02d", hour, min, sec);
    }
    return time_string;
}

static void print_one_uptime(uint32_t domid, unsigned long uptime,
                             int short_mode, time_t now)
{
    char *domname = domain_name_or_null(domid);
    char *uptime_str = uptime_to_string(uptime, short_mode);

    if (short_mode) {
        char now_str[16];
        struct tm tm;

        strftime(now_str, sizeof(now_str), "%H:%M:%S",
                 localtime_r(&now, &tm));
        printf(" %s up %s, %s (%u)\n", now_str, uptime_str, domname, domid);
    } else {
        printf("%-33s %4u %s\n", domname, domid, uptime_str);
    }
    free(domname);
    free(uptime_str);
}

/* Domain 0's uptime is the host's: /proc/uptime, as Xen's xl. */
static void print_dom0_uptime(int short_mode, time_t now)
{
    char buf[64];
    FILE *f = fopen("/proc/uptime", "r");

    if (!f || !fgets(buf, sizeof(buf), f)) {
        fprintf(stderr, "Can not get Dom0 uptime.\n");
        if (f)
            fclose(f);
        return;
    }
    fclose(f);
    print_one_uptime(0, strtoul(buf, NULL, 10), short_mode, now);
}

static void print_domU_uptime(uint32_t domid, int short_mode, time_t now)
{
    uint32_t s_time = libxl_vm_get_start_time(ctx, domid);

    if (s_time == (uint32_t)-1)
        return;
    print_one_uptime(domid, now > s_time ? (unsigned long)(now - s_time) : 0,
                     short_mode, now);
}

int main_uptime(int argc, char **argv)
{
    int short_mode = 0, opt, nb_doms = 0;
    uint32_t *domains;
    time_t now;

    SWITCH_FOREACH_OPT(opt, "s", NULL, "uptime", 0) {
    case 's':
        short_mode = 1;
        break;
    }

    domains = xcalloc(argc, sizeof(*domains));
    for (; optind < argc; optind++)
        domains[nb_doms++] = find_domain(argv[optind]);

    now = time(NULL);
    if (!short_mode)
        printf("%-33s %4s %s\n", "Name", "ID", "Uptime");
    if (nb_doms == 0) {
        libxl_dominfo *info;
        int nb;

        print_dom0_uptime(short_mode, now);
        info = libxl_list_domain(ctx, &nb);
        if (!info) {
            fprintf(stderr, "Could not list vms.\n");
            free(domains);
            return EXIT_FAILURE;
        }
        for (int i = 0; i < nb; i++)
            if (info[i].domid != 0)
                print_domU_uptime(info[i].domid, short_mode, now);
        libxl_dominfo_list_free(info, nb);
    } else {
        for (int i = 0; i < nb_doms; i++) {
            if (domains[i] == 0)
                print_dom0_uptime(short_mode, now);
            else
                print_domU_uptime(domains[i], short_mode, now);
        }
    }
    free(domains);
    return EXIT_SUCCESS;
}

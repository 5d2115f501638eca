/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl vcpu-list, in Xen's format, from what the hypervisor reports
 * (libxl_list_vcpu: XEN_DOMCTL_getvcpuinfo and _getvcpuaffinity).
 */
#include <stdlib.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"

/* One line: name, id, vCPU, CPU, state (r/b, p when down), time, maps. */
static void print_vcpuinfo(uint32_t domid, const libxl_vcpuinfo *vi,
                           uint32_t nr_cpus)
{
    char *domname = domain_name_or_null(domid);

    printf("%-32s %5u %5u", domname, domid, vi->vcpuid);
    free(domname);
    if (vi->online)
        printf("%5u %3c%c- ", vi->cpu, vi->running ? 'r' : '-',
               vi->blocked ? 'b' : '-');
    else
        printf("%5c %3c%cp ", '-', '-', '-');
    printf("%9.1f  ", (float)vi->vcpu_time / 1e9);
    print_bitmap(vi->cpumap.map, nr_cpus, stdout);
    printf(" / ");
    print_bitmap(vi->cpumap_soft.map, nr_cpus, stdout);
    putchar('\n');
}

static void print_domain_vcpuinfo(uint32_t domid, uint32_t nr_cpus)
{
    libxl_vcpuinfo *vcpuinfo;
    int nb_vcpu, nrcpus;

    vcpuinfo = libxl_list_vcpu(ctx, domid, &nb_vcpu, &nrcpus);
    if (!vcpuinfo)
        return;
    for (int i = 0; i < nb_vcpu; i++)
        print_vcpuinfo(domid, &vcpuinfo[i], nr_cpus);
    libxl_vcpuinfo_list_free(vcpuinfo, nb_vcpu);
}

int main_vcpulist(int argc, char **argv)
{
    libxl_physinfo physinfo;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", NULL, "vcpu-list", 0) {
        /* No options */
    }

    libxl_physinfo_init(&physinfo);
    if (libxl_get_physinfo(ctx, &physinfo) != 0) {
        fprintf(stderr, "libxl_physinfo failed.\n");
        libxl_physinfo_dispose(&physinfo);
        return EXIT_SUCCESS;        /* as Xen's xl */
    }

    printf("%-32s %5s %5s %5s %5s %9s %s\n", "Name", "ID", "VCPU", "CPU",
           "State", "Time(s)", "Affinity (Hard / Soft)");
    if (optind >= argc) {
        libxl_dominfo *dominfo;
        int nb_domain;

        dominfo = libxl_list_domain(ctx, &nb_domain);
        if (!dominfo) {
            fprintf(stderr, "libxl_list_domain failed.\n");
        } else {
            for (int i = 0; i < nb_domain; i++)
                print_domain_vcpuinfo(dominfo[i].domid,
                                      physinfo.max_cpu_id + 1);
            libxl_dominfo_list_free(dominfo, nb_domain);
        }
    } else {
        for (; optind < argc; optind++)
            print_domain_vcpuinfo(find_domain(argv[optind]),
                                  physinfo.max_cpu_id + 1);
    }
    libxl_physinfo_dispose(&physinfo);
    return EXIT_SUCCESS;
}

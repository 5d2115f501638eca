/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl's commands: name, implementation, whether it honours -N (dry run),
 * whether it modifies anything (-f), description, usage and options.
 * Xen's entries keep Xen's texts; the last three are this project's.
 */
#include <string.h>

#include <libxl.h>

#include "xl.h"

const struct cmd_spec cmd_table[] = {
    { "create",
      &main_create, 1, 1,
      "Create a domain from config file <filename>",
      "<ConfigFile> [options] [vars]",
      "-h                      Print this help.\n"
      "-p                      Leave the domain paused after it is created.\n"
      "-c                      Connect to the console after the domain is created.\n"
      "-f FILE, --defconfig=FILE\n                     Use the given configuration file.\n"
      "-q, --quiet             Quiet.\n"
      "-n, --dryrun            Dry run - prints the resulting configuration\n"
      "                         (deprecated in favour of global -N option).\n"
      "-d                      Enable debug messages.\n"
      "-F                      Run in foreground until death of the domain.\n"
      "-e                      Do not wait in the background for the death of the domain.\n"
      "[vars] are key=value settings that override the file's."
    },
    { "list",
      &main_list, 0, 0,
      "List information about all/some domains",
      "[options] [Domain]\n",
      "-l, --long              Output all VM details\n"
      "-v, --verbose           Prints out UUIDs and security context\n"
      "-Z, --context           Prints out security context\n"
      "-c, --cpupool           Prints the cpupool the domain is in\n"
      "-n, --numa              Prints out NUMA node affinity"
    },
    { "console",
      &main_console, 0, 0,
      "Attach to domain's console",
      "[options] <Domain>\n",
      "-t <type>       console type, pv , serial or vuart\n"
      "-n <number>     console number"
    },
    { "destroy",
      &main_destroy, 0, 1,
      "Terminate a domain immediately",
      "[options] <Domain>\n",
      "-f                      Permit destroying domain 0, which will only succeed\n"
      "                        when run from disaggregated toolstack domain with a\n"
      "                        hardware domain distinct from domain 0."
    },
    { "pause",
      &main_pause, 0, 1,
      "Pause execution of a domain",
      "<Domain>",
      NULL,
    },
    { "unpause",
      &main_unpause, 0, 1,
      "Unpause a paused domain",
      "<Domain>",
      NULL,
    },
    { "shutdown",
      &main_shutdown, 0, 1,
      "Issue a shutdown signal to a domain",
      "[options] <-a|Domain>",
      "-a, --all               Shutdown all guest domains.\n"
      "-h                      Print this help.\n"
      "-F                      Fallback to ACPI power event for HVM guests with\n"
      "                        no PV drivers.\n"
      "-w, --wait              Wait for guest(s) to shutdown.\n"
    },
    { "reboot",
      &main_reboot, 0, 1,
      "Issue a reboot signal to a domain",
      "[options] <-a|Domain>",
      "-a, --all               Shutdown all guest domains.\n"
      "-h                      Print this help.\n"
      "-F                      Fallback to ACPI reset event for HVM guests with\n"
      "                        no PV drivers.\n"
      "-w, --wait              Wait for guest(s) to reboot.\n"
    },
    { "mem-max",
      &main_memmax, 0, 1,
      "Set the maximum amount reservation for a domain",
      "<Domain> <MemMB['b'[bytes]|'k'[KB]|'m'[MB]|'g'[GB]|'t'[TB]]>",
      NULL,
    },
    { "mem-set",
      &main_memset, 0, 1,
      "Set the current memory usage for a domain",
      "<Domain> <MemMB['b'[bytes]|'k'[KB]|'m'[MB]|'g'[GB]|'t'[TB]]>",
      NULL,
    },
    { "save",
      &main_save, 0, 1,
      "Save a domain state to restore later",
      "[options] <Domain> <CheckpointFile> [<ConfigFile>]",
      "-h  Print this help.\n"
      "-c  Leave domain running after creating the snapshot.\n"
      "-p  Leave domain paused after creating the snapshot.\n"
      "-D  Store the domain id in the configration."
    },
    { "migrate",
      &main_migrate, 0, 1,
      "Migrate a domain to another host",
      "[options] <Domain> <host>",
      "-h              Print this help.\n"
      "-C <config>     Send <config> instead of config file from creation.\n"
      "-s <sshcommand> Use <sshcommand> instead of ssh.  String will be passed\n"
      "                to sh. If empty, run <host> instead of ssh <host> xl\n"
      "                migrate-receive [-d -e]\n"
      "-e              Do not wait in the background (on <host>) for the death\n"
      "                of the domain.\n"
      "--debug         Print huge (!) amount of debug during the migration process.\n"
      "-p              Do not unpause domain after migrating it.\n"
      "-D              Preserve the domain id\n"
      "This project's live-migration options (not in Xen's xl):\n"
      "--non-live      Pause the domain, then send it (no pre-copy).\n"
      "--downtime-ms=N Stop pre-copying when the rest would be sent in N ms\n"
      "                at the measured bandwidth (default 300).\n"
      "--max-rounds=N  Pre-copy at most N rounds (default 30).\n"
      "--xen-policy    Xen's rule instead: 5 rounds or fewer than 50 dirty pages.\n"
      "--no-auto-converge\n"
      "                Do not throttle a domain that dirties memory faster\n"
      "                than it can be sent.\n"
      "--bandwidth=N   Send memory at most N MiB/s (default: no cap)."
    },
    { "restore",
      &main_restore, 0, 1,
      "Restore a domain from a saved state",
      "[options] [<ConfigFile>] <CheckpointFile>",
      "-h                       Print this help.\n"
      "-p                       Do not unpause domain after restoring it.\n"
      "-e                       Do not wait in the background for the death of the domain.\n"
      "-d                       Enable debug messages.\n"
      "-V, --vncviewer          Connect to the VNC display after the domain is created.\n"
      "-A, --vncviewer-autopass Pass VNC password to vncviewer via stdin."
    },
    { "migrate-receive",
      &main_migrate_receive, 0, 1,
      "Restore a domain from a saved state",
      "- for internal use only",
      NULL,
    },
    { "info",
      &main_info, 0, 0,
      "Get information about Xen host",
      "[<item>]",
      "<item>                  Print only the value of this item (e.g. xen_version)",
    },
    { "domid",
      &main_domid, 0, 0,
      "Convert a domain name to domain id",
      "<DomainName>",
      NULL,
    },
    { "domname",
      &main_domname, 0, 0,
      "Convert a domain id to domain name",
      "<DomainId>",
      NULL,
    },
    { "vcpu-list",
      &main_vcpulist, 0, 0,
      "List the VCPUs for all/some domains",
      "[Domain, ...]",
      NULL,
    },
    { "uptime",
      &main_uptime, 0, 0,
      "Print uptime for all/some domains",
      "[-s] [Domain]",
      NULL,
    },
    { "network-list",
      &main_networklist, 0, 0,
      "List virtual network interfaces for a domain",
      "<Domain(s)>",
      NULL,
    },
    { "block-list",
      &main_blocklist, 0, 0,
      "List virtual block devices for a domain",
      "<Domain(s)>",
      NULL,
    },
    { "rename",
      &main_rename, 0, 1,
      "Rename a domain",
      "<Domain> <NewDomainName>",
      NULL,
    },
    { "top",
      &main_top, 0, 0,
      "Monitor a host and the domains in real time",
      "[xentop options]",
      "Runs xentop (see xentop -h); any options go to it.",
    },
    { "dmesg",
      &main_dmesg, 0, 0,
      "Read and/or clear dmesg buffer",
      "[-c]",
      "  -c                        Clear dmesg buffer as well as printing it",
    },
    { "debug-keys",
      &main_debug_keys, 0, 0,
      "Send debug keys to Xen",
      "<Keys>",
      NULL,
    },
    /* ---- this project's commands (not in Xen's xl) ---- */
    { "log-dirty",
      &main_logdirty, 0, 1,
      "Control global log-dirty mode of a domain and read its dirty pages",
      "[options] <Domain> <on|off|peek|clean>",
      "on                      Put the domain into global log-dirty mode.\n"
      "off                     Take it out of log-dirty mode.\n"
      "peek                    Print the pages dirtied since the last clean\n"
      "                        (one pfn or pfn range per line, hex).\n"
      "clean                   The same, and start a new round.\n"
      "-s, --stats             With peek/clean: print only the count.\n"
      "-j, --json              Print the result as JSON."
    },
    { "vram-track",
      &main_vramtrack, 0, 1,
      "Track writes to a range of a domain's pages (video RAM)",
      "[options] <Domain> <first-pfn> <nr> | <Domain> off",
      "<first-pfn> <nr>        Track nr pages from first-pfn and print those\n"
      "                        written since the last call for this range\n"
      "                        (a new range reports every page).\n"
      "off                     Stop tracking.\n"
      "-s, --stats             Print only the count.\n"
      "-j, --json              Print the result as JSON."
    },
    { "dirty-rate",
      &main_dirtyrate, 0, 0,
      "Measure how fast a domain dirties its memory",
      "[options] <Domain>",
      "-t SECONDS, --time=SECONDS\n"
      "                        Measure over SECONDS (default 1, may be a\n"
      "                        fraction).\n"
      "-j, --json              Print the result as JSON."
    },
};

const int cmdtable_len = sizeof(cmd_table) / sizeof(struct cmd_spec);

int cmdtable_matches(const char *s, const struct cmd_spec **matches, int max)
{
    size_t len = strlen(s);
    int count = 0;

    for (int i = 0; i < cmdtable_len; i++) {
        if (strncmp(s, cmd_table[i].cmd_name, len))
            continue;
        if (len == strlen(cmd_table[i].cmd_name)) {
            /* an exact match wins even if it prefixes another command */
            if (max > 0)
                matches[0] = &cmd_table[i];
            return 1;
        }
        if (count < max)
            matches[count] = &cmd_table[i];
        count++;
    }
    return count;
}

/* Look up a command in the table, allowing unambiguous truncation */
const struct cmd_spec *cmdtable_lookup(const char *s)
{
    const struct cmd_spec *cmd = NULL;

    if (!s || !*s)
        return NULL;
    return cmdtable_matches(s, &cmd, 1) == 1 ? cmd : NULL;
}

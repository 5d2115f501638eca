/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * xl.cfg(5) to libxl_domain_config.
 */
#ifndef XL_PARSE_H
#define XL_PARSE_H

#include <libxl.h>

/*
 * Parse a configuration (config_len bytes of config_data, named
 * config_source in messages) and then extra_config (NULL, or
 * "key=value" lines from the command line, named "command line"), which
 * overrides it, into d_config (initialised by the caller).
 *
 * Returns 0, or -1 after printing to stderr what is wrong (syntax errors
 * with their line, bad values).  Settings that are not used are warned
 * about, also on stderr.  As Xen's xl: no uuid setting means a random
 * one; on_* default to destroy / restart (on_reboot) / soft-reset.
 * Unlike Xen's xl, no type (or builder) means pvh: the only kind of guest
 * this hypervisor runs.
 */
int parse_config_data(const char *config_source, const char *config_data,
                      int config_len, const char *extra_config,
                      libxl_domain_config *d_config);

#endif /* XL_PARSE_H */

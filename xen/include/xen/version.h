/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The version this hypervisor reports.  We implement Xen 4.17's guest and
 * toolstack interfaces (the ones in Debian's libxen-dev), so we report 4.17;
 * the extra version names this project.
 */
#ifndef __XEN_VERSION_H__
#define __XEN_VERSION_H__

#define XEN_VERSION         4
#define XEN_SUBVERSION      17
#define XEN_EXTRAVERSION    ".0-pml"
#define XEN_FULLVERSION     "4.17.0-pml"

const char *xen_compiler(void);
const char *xen_changeset(void);
void print_banner(void);

#endif /* __XEN_VERSION_H__ */

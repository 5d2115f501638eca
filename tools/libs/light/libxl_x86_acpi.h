/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIBXL_X86_ACPI_H
#define LIBXL_X86_ACPI_H

#include <xenguest.h>

/*
 * Where a PVH domU's ACPI tables go: Xen's ACPI_INFO_PHYSICAL_ADDRESS
 * (0xfc000000), below the special pages at 0xfeff8000; one page holds
 * them for up to 255 vCPUs (44 + 8 per vCPU bytes of MADT).
 */
#define LIBXL_PVH_ACPI_ADDRESS 0xfc000000u
#define LIBXL_PVH_ACPI_SIZE    4096u

/*
 * Build the tables for b_info->max_vcpus if b_info->acpi is set and hand
 * them to the domain builder as its ACPI module 0; *tables is the buffer
 * to free after the build (NULL without ACPI).
 */
int libxl__dom_load_acpi(libxl_ctx *ctx, uint32_t domid,
                         const libxl_domain_build_info *b_info,
                         struct xc_dom_image *dom, void **tables);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI tables for a PVH domU (Xen's libxl_x86_acpi.c: libxl__dom_load_acpi,
 * acpi=1 by default for PVH).  Xen builds them with libacpi, the code it
 * shares with hvmloader; here the same role is taken by the hypervisor's
 * own pure builder, xen/arch/x86/hvm/acpi_build.c, compiled into this
 * library: RSDP, XSDT, MADT with one enabled Local APIC per vCPU (APIC id
 * = vCPU id), a hardware-reduced FADT and a DSDT.  Linux finds them
 * through the start info's rsdp_paddr (libxenguest sets it from module 0)
 * and a memory-map entry of type ACPI, and without them brings up no
 * local APIC timer and no second vCPU.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libxl_internal.h"
#include "libxl_x86_acpi.h"

/* The hypervisor's builder (xen/arch/x86/include/asm/hvm/acpi.h). */
size_t acpi_build_tables(void *buf, size_t size, uint64_t base,
                         unsigned int nr_vcpus);

int libxl__dom_load_acpi(libxl_ctx *ctx, uint32_t domid,
                         const libxl_domain_build_info *b_info,
                         struct xc_dom_image *dom, void **tables)
{
    size_t len;
    void *buf;

    *tables = NULL;
    if (!libxl_defbool_val(b_info->acpi))
        return 0;
    if ((uint64_t)b_info->max_memkb * 1024 > LIBXL_PVH_ACPI_ADDRESS) {
        LOG(ERROR, "d%u: %"PRIu64" KiB of RAM reach the ACPI tables at %#x",
            domid, b_info->max_memkb, LIBXL_PVH_ACPI_ADDRESS);
        return ERROR_INVAL;
    }
    buf = calloc(1, LIBXL_PVH_ACPI_SIZE);
    if (!buf)
        return ERROR_NOMEM;
    len = acpi_build_tables(buf, LIBXL_PVH_ACPI_SIZE, LIBXL_PVH_ACPI_ADDRESS,
                            (unsigned int)b_info->max_vcpus);
    if (!len) {
        LOG(ERROR, "d%u: ACPI tables for %d vCPUs do not fit in %u bytes",
            domid, b_info->max_vcpus, LIBXL_PVH_ACPI_SIZE);
        free(buf);
        return ERROR_INVAL;
    }
    /* Module 0 is the RSDP, at the start of the tables. */
    dom->acpi_modules[0].data = buf;
    dom->acpi_modules[0].length = (uint32_t)len;
    dom->acpi_modules[0].guest_addr_out = LIBXL_PVH_ACPI_ADDRESS;
    *tables = buf;
    return 0;
}

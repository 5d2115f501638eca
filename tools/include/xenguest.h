/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxenguest: building guest domains.
 *
 * The part of Xen 4.17's xenguest.h (the xc_dom_* domain builder) that
 * builds a PVH guest, with Xen's names, signatures and order of calls:
 *
 *     dom = xc_dom_allocate(xch, cmdline, NULL);
 *     xc_dom_kernel_file(dom, path);          or xc_dom_kernel_mem()
 *     xc_dom_module_file(dom, initrd, NULL);  optional, or _mem()
 *     xc_dom_boot_xen_init(dom, xch, domid);  an empty domain, created
 *                                             paused with max_mem set
 *     xc_dom_parse_image(dom);                ELF64 + PVH entry note
 *     xc_dom_mem_init(dom, mem_mb);           the guest's memory layout
 *     xc_dom_boot_mem_init(dom);              populate its RAM
 *     xc_dom_build_image(dom);                kernel and modules in
 *     xc_dom_boot_image(dom);                 start info, vCPU 0's registers
 *     xc_dom_gnttab_init(dom);                the grant entries Xen reserves
 *     xc_dom_release(dom);
 *
 * then the caller unpauses the domain.  Every function returns 0 on
 * success and -1 on failure with errno set (EINVAL for a bad image or
 * layout, the hypervisor's error otherwise) after logging why on the
 * xc_interface's logger, which also keeps it as the last error
 * (xc_get_last_error: XC_INVALID_KERNEL for a bad image).  After a
 * failure the domain is half built: the caller destroys it.
 *
 * The guest (what the hypervisor's own builder does for boot modules,
 * docs/design.md "Domains"):
 *   - RAM is guest-physical [0, mem_mb MiB), populated with 2 MiB
 *     extents where aligned and 4 KiB ones elsewhere;
 *   - the kernel is an ELF32 or ELF64 x86 executable with Xen's
 *     XEN_ELFNOTE_PHYS32_ENTRY note, checked whole by libelf (the
 *     hypervisor's parser, xen/common/libelf); its PT_LOAD segments are
 *     copied to their physical addresses (p_paddr), which must lie in RAM
 *     from 1 MiB up to the last page; the rest of each segment
 *     (p_memsz > p_filesz) is zeroed;
 *   - modules (e.g. an initrd) follow the kernel, page aligned, and are
 *     listed in the start info's modlist;
 *   - the last page of RAM holds struct hvm_start_info (offset 0), the
 *     memory map (0x100: RAM below 640 KiB, reserved to 1 MiB, RAM to the
 *     last page, the last page reserved), the modlist (0x200) and the
 *     command lines (0x400: the guest's, then each module's);
 *   - Xen's special pages (xc_dom_build_image, Xen's alloc_magic_pages_hvm):
 *     X86_HVM_NR_SPECIAL_PAGES frames ending at X86_HVM_END_SPECIAL_REGION,
 *     outside the memory map, populated and zeroed, the xenstore ring
 *     (xenstore_pfn, HVM_PARAM_STORE_PFN) and the console ring
 *     (console_pfn, HVM_PARAM_CONSOLE_PFN) among them, the other rings'
 *     HVM parameters pointed at theirs, and the identity-map page table
 *     (HVM_PARAM_IDENT_PT); the ports the caller allocated
 *     (xenstore_evtchn, console_evtchn) go to HVM_PARAM_STORE_EVTCHN and
 *     _CONSOLE_EVTCHN at xc_dom_boot_image;
 *   - acpi_modules[] the caller filled in (libxl's ACPI tables for PVH)
 *     are populated at their guest_addr_out and copied there, each an ACPI
 *     entry of the memory map; module 0 is the RSDP (start info's
 *     rsdp_paddr);
 *   - vCPU 0 starts at the PVH entry in flat 32-bit protected mode with
 *     EBX = the start info's address (XEN_DOMCTL_sethvmcontext: HEADER,
 *     CPU, END records);
 *   - xc_dom_gnttab_init writes the grant entries Xen reserves for the
 *     console and xenstore (GNTTAB_RESERVED_CONSOLE, _XENSTORE) through
 *     XENMEM_acquire_resource, granting the rings to console_domid and
 *     xenstore_domid.
 *
 * Not here: PV guests, HVM guests with firmware, compressed kernels,
 * devicetrees, the compat path of grant seeding (setup_table and a foreign
 * mapping, for hypervisors without XENMEM_acquire_resource).
 */
#ifndef XENGUEST_H
#define XENGUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xenctrl.h"

struct xenforeignmemory_handle;

#define XG_MAX_MODULES 2

/* Xen's special pages of an HVM/PVH guest: the frames below 0xff000. */
#define X86_HVM_NR_SPECIAL_PAGES    8
#define X86_HVM_END_SPECIAL_REGION  0xff000u

/* ACPI tables or firmware the caller gives the builder to place. */
struct xc_hvm_firmware_module {
    uint8_t  *data;
    uint32_t  length;
    uint64_t  guest_addr_out;
};
#define MAX_ACPI_MODULES 4

typedef uint64_t xen_vaddr_t;
typedef uint64_t xen_paddr_t;

#define PRIpfn PRI_xen_pfn

/* A range of the guest: addresses [vstart, vend), frames [pfn, + pages). */
struct xc_dom_seg {
    xen_vaddr_t vstart;
    xen_vaddr_t vend;
    xen_pfn_t pfn;
    xen_pfn_t pages;
};

/* Memory the builder allocated, freed by xc_dom_release (internal). */
struct xc_dom_mem {
    struct xc_dom_mem *next;
    size_t len;
    unsigned char memory[];
};

struct xc_dom_module {
    void *blob;
    size_t size;
    void *cmdline;                      /* NUL-terminated, or NULL */
    struct xc_dom_seg seg;              /* where it is placed */
};

struct xc_dom_image {
    /* files */
    void *kernel_blob;
    size_t kernel_size;
    unsigned int num_modules;
    struct xc_dom_module modules[XG_MAX_MODULES];

    size_t max_kernel_size;
    size_t max_module_size;

    /* arguments and parameters */
    char *cmdline;
    size_t cmdline_size;

    /* what the kernel image says (Xen keeps these in parms) */
    const char *guest_type;             /* "hvm-3.0-x86_32" for PVH */
    xen_paddr_t phys_entry;             /* XEN_ELFNOTE_PHYS32_ENTRY */

    /* memory layout */
    struct xc_dom_seg kernel_seg;       /* lowest to highest PT_LOAD byte */
    struct xc_dom_seg start_info_seg;   /* the last page of RAM */

    /* initrd (modules[0]) as placed, for the caller's information */
    uint64_t initrd_start;
    uint64_t initrd_len;

    /* physical memory: [0, total_pages) */
    xen_pfn_t total_pages;
    xen_paddr_t lowmem_end;

    /* malloc memory pool */
    struct xc_dom_mem *memblocks;

    xc_interface *xch;
    uint32_t guest_domid;

    /* Container type (only HVM: PVH) */
    enum {
        XC_DOM_PV_CONTAINER,
        XC_DOM_HVM_CONTAINER,
    } container_type;

    /* Number of vCPUs (only vCPU 0 is started) */
    unsigned int max_vcpus;

    /*
     * Claim the RAM before populating it, and drop what is left after
     * (XENMEM_claim_pages; Xen's field, set by libxl from claim_mode).
     */
    bool claim_enabled;

    /* The xenstore and console rings: the caller's ports, the pages here. */
    uint32_t console_evtchn;
    uint32_t xenstore_evtchn;
    uint32_t console_domid;             /* granted to (GNTTAB_RESERVED_*) */
    uint32_t xenstore_domid;
    xen_pfn_t console_pfn;              /* set by xc_dom_build_image */
    xen_pfn_t xenstore_pfn;

    /* ACPI tables to place (PVH): module 0 is the RSDP. */
    struct xc_hvm_firmware_module acpi_modules[MAX_ACPI_MODULES];

    /* the foreign mapping handle the builder opened (this project's) */
    struct xenforeignmemory_handle *fmem;
};

/* --- main functions ---------------------------------------------- */

/*
 * A new builder for a guest with command line 'cmdline' (may be NULL).
 * 'features' is Xen's feature request list: accepted and ignored.
 * Returns NULL with errno set on failure.
 */
struct xc_dom_image *xc_dom_allocate(xc_interface *xch,
                                     const char *cmdline, const char *features);
/* Free the builder, its memory and its mappings; NULL is accepted. */
void xc_dom_release(struct xc_dom_image *dom);

/* Set the memory size (MiB) and check the layout (after parse_image). */
int xc_dom_mem_init(struct xc_dom_image *dom, unsigned int mem_mb);

/* Largest kernel / module accepted (default XC_DOM_DECOMPRESS_MAX). */
#ifndef XC_DOM_DECOMPRESS_MAX
#define XC_DOM_DECOMPRESS_MAX (1024 * 1024 * 1024) /* 1GB */
#endif
int xc_dom_kernel_check_size(struct xc_dom_image *dom, size_t sz);
int xc_dom_kernel_max_size(struct xc_dom_image *dom, size_t sz);
int xc_dom_module_max_size(struct xc_dom_image *dom, size_t sz);

/*
 * The kernel and modules.  _mem() keeps a reference to 'mem', which must
 * stay valid until xc_dom_release; _file() reads the file (not in the
 * test kernels, which have no files).  A module's cmdline may be NULL.
 */
int xc_dom_kernel_file(struct xc_dom_image *dom, const char *filename);
int xc_dom_module_file(struct xc_dom_image *dom, const char *filename,
                       const char *cmdline);
int xc_dom_kernel_mem(struct xc_dom_image *dom, const void *mem,
                      size_t memsize);
int xc_dom_module_mem(struct xc_dom_image *dom, const void *mem,
                      size_t memsize, const char *cmdline);

/* Check the kernel image and read its PVH entry point. */
int xc_dom_parse_image(struct xc_dom_image *dom);
/* Copy the kernel's segments and the modules into the guest. */
int xc_dom_build_image(struct xc_dom_image *dom);

/* Bind the builder to domain 'domid' (and open the foreign mapping). */
int xc_dom_boot_xen_init(struct xc_dom_image *dom, xc_interface *xch,
                         uint32_t domid);
/* Populate the guest's RAM (XENMEM_populate_physmap). */
int xc_dom_boot_mem_init(struct xc_dom_image *dom);
/* Write the start info and set vCPU 0's registers. */
int xc_dom_boot_image(struct xc_dom_image *dom);

/*
 * Grant the console and xenstore rings to their backends: entries
 * GNTTAB_RESERVED_CONSOLE and _XENSTORE of the guest's table, version 1,
 * as Xen's xc_dom_gnttab_init after xc_dom_boot_image.  A gfn of -1 leaves
 * its entry alone.  _seed is the same for any domain (a toolstack
 * restoring one, say).
 */
int xc_dom_gnttab_init(struct xc_dom_image *dom);
int xc_dom_gnttab_seed(xc_interface *xch, uint32_t guest_domid, bool is_hvm,
                       xen_pfn_t console_gfn, xen_pfn_t xenstore_gfn,
                       uint32_t console_domid, uint32_t xenstore_domid);

/* Always true: PVH guests are translated (auto-translated physmap). */
bool xc_dom_translated(const struct xc_dom_image *dom);

/* --- memory the builder frees on release ------------------------- */

void *xc_dom_malloc(struct xc_dom_image *dom, size_t size);
char *xc_dom_strdup(struct xc_dom_image *dom, const char *str);

/* --- saving and restoring: the migration stream (xg_sr_*.c) ------ */

/*
 * Xen 4.17's xc_domain_save / xc_domain_restore, writing and reading the
 * libxc migration stream (docs/misc/migration.md; Xen's
 * docs/specs/libxc-migration-stream.pandoc, version 3) for x86 HVM (PVH)
 * guests: IMAGE_HEADER, DOMAIN_HEADER, STATIC_DATA_END, PAGE_DATA...,
 * X86_TSC_INFO, HVM_PARAMS, HVM_CONTEXT, END.
 *
 * Saving: with XCFLAGS_LIVE, memory is pre-copied over global log-dirty
 * while the guest runs, then the guest is suspended and the rest sent.
 * This hypervisor has no suspend protocol yet: "suspend" is
 * callbacks->suspend if given, else xc_domain_pause().  On success the
 * domain is left suspended (paused), log-dirty off; on failure log-dirty
 * is turned off and a pause made here is undone: the guest runs on.
 *
 * Restoring: into domain 'dom', created (paused) with max_mem set by the
 * caller; pages are populated as they arrive.  Every field is checked; a
 * malformed stream fails with a message naming the offset and the record.
 * On failure the domain is half built: the caller destroys it.  The
 * store/console arguments are accepted and unused (no xenstore here).
 */
#define XCFLAGS_LIVE      (1 << 0)
#define XCFLAGS_DEBUG     (1 << 1)

struct precopy_stats {
    unsigned int iteration;
    unsigned long total_written;
    long dirty_count;                   /* -1 if unknown */
};

/* Returns one of XGS_POLICY_*. */
typedef int (*precopy_policy_t)(struct precopy_stats, void *);

struct save_callbacks {
    /* Suspend the guest (NULL: xc_domain_pause). 1 on success. */
    int (*suspend)(void *data);
#define XGS_POLICY_ABORT            (-1)
#define XGS_POLICY_CONTINUE_PRECOPY 0
#define XGS_POLICY_STOP_AND_COPY    1
    /* After each live round (NULL: the policy of xc_save_params). */
    precopy_policy_t precopy_policy;
    int (*postcopy)(void *data);        /* checkpointing: not used */
    int (*checkpoint)(void *data);      /* checkpointing: not used */
    int (*wait_checkpoint)(void *data); /* checkpointing: not used */
    int (*switch_qemu_logdirty)(uint32_t domid, unsigned enable, void *data);
    void *data;
};

typedef enum {
    XC_STREAM_PLAIN,
    XC_STREAM_REMUS,                    /* not supported */
    XC_STREAM_COLO,                     /* not supported */
} xc_stream_type_t;

/*
 * Xen 4.17's xc_domain_resume (tools/libs/guest/xg_resume.c): a domain
 * shut down for suspend runs on in place.  fast != 0: cooperatively --
 * its SCHEDOP_shutdown(SHUTDOWN_suspend) returns 1 ("cancelled, same
 * domain") if it has PV drivers (HVM_PARAM_CALLBACK_IRQ set), and the
 * domain must be suspended (else -1, errno EINVAL); fast == 0: the call
 * returns 0, as in a new domain.  Returns 0, or -1 with errno set.
 */
int xc_domain_resume(xc_interface *xch, uint32_t domid, int fast);

int xc_domain_save(xc_interface *xch, int io_fd, uint32_t dom,
                   uint32_t flags, struct save_callbacks *callbacks,
                   xc_stream_type_t stream_type, int recv_fd);

struct restore_callbacks {
#define XGR_SDD_MISSING_CPUID (1 << 0)
#define XGR_SDD_MISSING_MSR   (1 << 1)
    /* STATIC_DATA_END seen (or inferred, v2); 0 to go on. */
    int (*static_data_done)(unsigned int missing, void *data);
    int (*suspend)(void *data);         /* checkpointing: not used */
    int (*postcopy)(void *data);        /* checkpointing: not used */
#define XGR_CHECKPOINT_ERROR    0
#define XGR_CHECKPOINT_SUCCESS  1
#define XGR_CHECKPOINT_FAILOVER 2
    int (*checkpoint)(void *data);      /* checkpointing: not used */
    int (*wait_checkpoint)(void *data); /* checkpointing: not used */
    void (*restore_results)(xen_pfn_t store_gfn, xen_pfn_t console_gfn,
                            void *data);
    void *data;
};

int xc_domain_restore(xc_interface *xch, int io_fd, uint32_t dom,
                      unsigned int store_evtchn, unsigned long *store_mfn,
                      uint32_t store_domid, unsigned int console_evtchn,
                      unsigned long *console_mfn, uint32_t console_domid,
                      xc_stream_type_t stream_type,
                      struct restore_callbacks *callbacks, int send_back_fd);

/*
 * This project's extension, not in Xen: the live-migration policy and
 * per-round statistics.  Times are in ns of xg's clock (CLOCK_MONOTONIC;
 * in the control-domain test kernels the TSC, 1 tick counted as 1 ns).
 *
 * XC_PRECOPY_DOWNTIME (default): after each round, the bandwidth (octets
 * sent / round time) and the dirty rate (pages dirtied / round time) are
 * measured; pre-copy stops when the dirty pages would be sent within
 * downtime_ns at that bandwidth, or after max_rounds rounds.  With
 * auto_converge, a round that leaves more than half the pages it sent
 * dirty again raises the throttle by 20 points (to 99% at most, QEMU's
 * cpu-throttle-max): in the next round the guest is paused for that share
 * of each throttle slice (max_pause_ns long, by default downtime_ns),
 * between PAGE_DATA records sized to fit the phase at the link's
 * bandwidth, so no single pause outlasts the slice's share, unless one
 * page's transfer is longer (summary->max_pause_ns reports the longest).
 *
 * XC_PRECOPY_XEN: Xen's policy: stop after 5 rounds or when fewer than
 * 50 pages are dirty.
 *
 * max_bandwidth (octets per second, 0: no cap; QEMU's max-bandwidth)
 * caps the rate at which PAGE_DATA records are written, in every round,
 * the final one included: after each record the saver sleeps until the
 * octets written since the rate window opened would have taken that long
 * at the cap (time not used is not saved up: a window that falls behind
 * restarts).  The predicted downtime uses min(measured, cap).
 *
 * Not converging: pre-copy that stops at its round limit (max_rounds, or
 * Xen's 5) with the target not met (a predicted downtime above
 * downtime_ns; under Xen's policy 50 or more dirty pages) has not
 * converged: summary->converged is false, and the saver logs "did not
 * converge" with the figures.  It then copies the rest with the guest
 * suspended, as Xen does, unless abort_unconverged is set: then the save
 * fails (ETIMEDOUT) and the guest runs on.
 */
enum xc_precopy_policy_kind {
    XC_PRECOPY_DOWNTIME = 0,
    XC_PRECOPY_XEN = 1,
};

struct xc_save_round_stats {
    unsigned int iteration;             /* 1: all memory */
    bool final;                         /* sent with the guest suspended */
    uint64_t pages_sent;                /* this round */
    uint64_t pages_dirtied;             /* dirty when it ended */
    uint64_t time_ns;                   /* its length */
    uint64_t dirty_rate;                /* pages dirtied per second */
    uint64_t bandwidth;                 /* octets sent per second */
    uint64_t predicted_downtime_ns;     /* to send pages_dirtied */
    unsigned int throttle;              /* % of its time the guest paused */
    uint64_t paused_ns;                 /* paused by auto-converge */
    uint64_t max_pause_ns;              /* its longest such pause */
};

struct xc_save_summary {
    unsigned int rounds;                /* live rounds, then 1 final */
    uint64_t pages_sent;                /* all rounds */
    uint64_t final_pages;               /* sent while suspended */
    uint64_t octets;                    /* the stream's length */
    uint64_t total_ns;
    uint64_t downtime_ns;               /* suspend to END written */
    unsigned int max_throttle;
    bool converged;                     /* live: the policy's target met */
    uint64_t predicted_downtime_ns;     /* after the last live round */
    uint64_t rate_waits;                /* sleeps for max_bandwidth */
    uint64_t rate_wait_ns;              /* their total */
    uint64_t throttle_ns;               /* paused by auto-converge, live */
    uint64_t max_pause_ns;              /* the longest of those pauses */
    uint64_t throttle_pauses;           /* how many */
};

struct xc_save_params {
    enum xc_precopy_policy_kind policy;
    uint64_t downtime_ns;               /* default 300 ms */
    unsigned int max_rounds;            /* default 30 */
    bool auto_converge;                 /* default true */
    uint64_t max_bandwidth;             /* octets/s; default 0: no cap */
    bool abort_unconverged;             /* default false: copy anyway */
    uint64_t max_pause_ns;              /* auto-converge's slice, the bound
                                           of its pauses; 0 (default):
                                           downtime_ns */
    /* Called after every round, the final one included; may be NULL. */
    void (*round_stats)(const struct xc_save_round_stats *st, void *data);
    void *data;
    struct xc_save_summary *summary;    /* filled in if not NULL */
};

#define XC_SAVE_DEFAULT_DOWNTIME_NS     (300ULL * 1000 * 1000)
#define XC_SAVE_DEFAULT_MAX_ROUNDS      30
#define XC_SAVE_XEN_MAX_ITERS           5
#define XC_SAVE_XEN_DIRTY_THRESHOLD     50

void xc_save_params_init(struct xc_save_params *params);
int xc_domain_save_params(xc_interface *xch, int io_fd, uint32_t dom,
                          uint32_t flags, struct save_callbacks *callbacks,
                          xc_stream_type_t stream_type, int recv_fd,
                          const struct xc_save_params *params);

struct xc_restore_summary {
    uint64_t records;
    uint64_t pages;                     /* page contents written */
    uint64_t populated;                 /* pages populated */
    uint64_t octets;                    /* read, END included */
};

/* xc_domain_restore, telling what it did (this project's). */
int xc_domain_restore_summary(xc_interface *xch, int io_fd, uint32_t dom,
                              struct restore_callbacks *callbacks,
                              struct xc_restore_summary *summary);

/*
 * The xenstore and console rings of the new domain (this project's, what
 * xc_domain_restore's arguments say): their event channels, unbound in
 * the new domain for the backends' domains, go into HVM_PARAM_STORE_EVTCHN
 * and HVM_PARAM_CONSOLE_EVTCHN; the rings' gfns come from the stream's
 * HVM_PARAMS (0 if it had none) and are granted to the backends
 * (GNTTAB_RESERVED_XENSTORE, _CONSOLE), as Xen's restore does.
 */
struct xc_restore_rings {
    unsigned int store_evtchn;          /* in */
    uint32_t store_domid;
    unsigned int console_evtchn;
    uint32_t console_domid;
    unsigned long store_gfn;            /* out */
    unsigned long console_gfn;
};

/* xc_domain_restore_summary with the rings (NULL: none set up). */
int xc_domain_restore_rings(xc_interface *xch, int io_fd, uint32_t dom,
                            struct xc_restore_rings *rings,
                            struct restore_callbacks *callbacks,
                            struct xc_restore_summary *summary);

#endif /* XENGUEST_H */

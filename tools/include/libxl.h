/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * libxl: the toolstack library (the subset this project implements).
 *
 * Names, types and signatures are Xen 4.17's, so a program written against
 * Xen's libxl.h that uses only this subset compiles unchanged against this
 * one.  Only what is implemented is declared.  Link with libxenlight, libxenctrl and libyajl.
 *
 * The types (libxl_dominfo, libxl_domain_config, ...) are generated from
 * tools/libs/light/libxl_types.idl into _libxl_types.h: every type of Xen
 * 4.17's, with its layout (tests/abi checks each against Debian's
 * libxen-dev), each with libxl_<type>_init, _dispose, _copy, _to_json and
 * _from_json.
 * As in Xen: always _init a type before use, even as an out parameter,
 * and _dispose it exactly once afterwards.
 *
 * This project's extensions (NOT in Xen) are at the end of this file,
 * under LIBXL_HAVE_DIRTY_TRACKING: global log-dirty mode, dirty bitmaps,
 * dirty-VRAM tracking, dirty-page counters and a dirty-rate measurement.
 *
 * Memory: everything returned to the caller comes from malloc() and is
 * freed by the caller (free() or the matching libxl_*_free/_dispose).
 * Error codes are the negative ERROR_* values of libxl_error.
 */
#ifndef LIBXL_H
#define LIBXL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <errno.h>
#include <sys/types.h>

#include <xentoollog.h>

typedef struct libxl__ctx libxl_ctx;

#include <libxl_uuid.h>

/* API compatibility: the versions Xen 4.17's libxl.h accepts. */
#ifdef LIBXL_API_VERSION
#if LIBXL_API_VERSION != 0x040200 && LIBXL_API_VERSION != 0x040300 && \
    LIBXL_API_VERSION != 0x040400 && LIBXL_API_VERSION != 0x040500 && \
    LIBXL_API_VERSION != 0x040700 && LIBXL_API_VERSION != 0x040800 && \
    LIBXL_API_VERSION != 0x041300 && LIBXL_API_VERSION != 0x041400
#error Unknown LIBXL_API_VERSION
#endif
#endif

/*
 * LIBXL_HAVE_* a client may test (Xen's names; each means the same as in
 * Xen for the part implemented here).
 */
#define LIBXL_HAVE_DOMINFO_OUTSTANDING_MEMKB 1
#define LIBXL_HAVE_DOMINFO_NEVER_STOP 1
#define LIBXL_HAVE_DOMINFO_GPADDR_BITS 1
#define LIBXL_HAVE_PHYSINFO_CAP_PV 1
#define LIBXL_HAVE_PHYSINFO_CAP_HAP_SHADOW 1
#define LIBXL_HAVE_PHYSINFO_CAP_IOMMU_HAP_PT_SHARE 1
#define LIBXL_HAVE_PHYSINFO_CAP_VMTRACE 1
#define LIBXL_HAVE_PHYSINFO_CAP_VPMU 1
#define LIBXL_HAVE_PHYSINFO_CAP_GNTTAB 1
#define LIBXL_HAVE_PHYSINFO_OUTSTANDING_PAGES 1
#define LIBXL_HAVE_PHYSINFO_MAX_POSSIBLE_MFN 1
#define LIBXL_HAVE_BUILDINFO_KERNEL 1
#define LIBXL_HAVE_BUILDINFO_GRANT_LIMITS 1
#define LIBXL_HAVE_CREATEINFO_DOMID 1
#define LIBXL_HAVE_DOMAIN_CREATE_RESTORE_PARAMS 1
#define LIBXL_HAVE_DOMAIN_CREATE_RESTORE_SEND_BACK_FD 1
#define LIBXL_HAVE_SRM_V2 1
#define LIBXL_HAVE_SSID_LABEL 1
#define LIBXL_HAVE_BYTEARRAY_UUID 1
#define LIBXL_HAVE_UUID_COPY_CTX_PARAM 1
#define LIBXL_HAVE_CONST_COPY_AND_LENGTH_FUNCTIONS 1
#define LIBXL_HAVE_NONCONST_LIBXL_BASENAME_RETURN_VALUE 1
#define LIBXL_HAVE_FN_USING_QMP_ASYNC 1
#define LIBXL_HAVE_RETRIEVE_DOMAIN_CONFIGURATION 1
#define LIBXL_HAVE_ERROR_DOMAIN_NOTFOUND 1
#define LIBXL_HAVE_BUILD_ID 1

/*
 * Xen's announcements of fields and enumeration values of the types, which
 * are all here with Xen 4.17's layout (libxl_types.idl).  Each says only
 * that the field or value exists, as in Xen; which of them this libxl acts
 * on is in libxl(3).  Announcements that also promise functions
 * (LIBXL_HAVE_VNUMA, _ALTP2M, _PSR_*, _PVUSB, ...) are not made.
 */
#define LIBXL_HAVE_BUILDINFO_APIC 1
#define LIBXL_HAVE_BUILDINFO_ARCH_ARM_TEE 1
#define LIBXL_HAVE_BUILDINFO_ARM_GIC_VERSION 1
#define LIBXL_HAVE_BUILDINFO_ARM_VUART 1
#define LIBXL_HAVE_BUILDINFO_BOOTLOADER 1
#define LIBXL_HAVE_BUILDINFO_BOOTLOADER_ARGS 1
#define LIBXL_HAVE_BUILDINFO_DEVICE_MODEL_STUBDOMAIN 1
#define LIBXL_HAVE_BUILDINFO_EVENT_CHANNELS 1
#define LIBXL_HAVE_BUILDINFO_GRANT_DEFAULT 1
#define LIBXL_HAVE_BUILDINFO_HVM_ACPI_LAPTOP_SLATE 1
#define LIBXL_HAVE_BUILDINFO_HVM_MMIO_HOLE_MEMKB 1
#define LIBXL_HAVE_BUILDINFO_HVM_MS_VM_GENID 1
#define LIBXL_HAVE_BUILDINFO_HVM_SYSTEM_FIRMWARE 1
#define LIBXL_HAVE_BUILDINFO_HVM_VENDOR_DEVICE 1
#define LIBXL_HAVE_BUILDINFO_HVM_VIRIDIAN_ENABLE_DISABLE 1
#define LIBXL_HAVE_BUILDINFO_IOMEM_START_GFN 1
#define LIBXL_HAVE_BUILDINFO_IOMMU_MEMKB 1
#define LIBXL_HAVE_BUILDINFO_NESTED_HVM 1
#define LIBXL_HAVE_BUILDINFO_SERIAL_LIST 1
#define LIBXL_HAVE_BUILDINFO_TIMER_MODE 1
#define LIBXL_HAVE_BUILDINFO_USBDEVICE_LIST 1
#define LIBXL_HAVE_BUILDINFO_USBVERSION 1
#define LIBXL_HAVE_BUILDINFO_VCPU_AFFINITY_ARRAYS 1
#define LIBXL_HAVE_BUILDINFO_VKB_DEVICE 1
#define LIBXL_HAVE_CREATEINFO_PASSTHROUGH 1
#define LIBXL_HAVE_CREATEINFO_XEND_SUSPEND_EVTCHN_COMPAT 1
#define LIBXL_HAVE_DEVICE_BACKEND_DOMNAME 1
#define LIBXL_HAVE_DEVICE_DISK_DIRECT_IO_SAFE 1
#define LIBXL_HAVE_DEVICE_DISK_SPECIFICATION 1
#define LIBXL_HAVE_DEVICE_MODEL_USER 1
#define LIBXL_HAVE_DEVICE_PCI_NAME 1
#define LIBXL_HAVE_DEVICE_PCI_SEIZE 1
#define LIBXL_HAVE_DISK_TRUSTED 1
#define LIBXL_HAVE_EXTENDED_VKB 1
#define LIBXL_HAVE_GFX_PASSTHRU_KIND 1
#define LIBXL_HAVE_HVM_HDTYPE 1
#define LIBXL_HAVE_LIBXL_DEVICE_DISK_DISCARD_ENABLE 1
#define LIBXL_HAVE_MAX_GRANT_VERSION 1
#define LIBXL_HAVE_MCA_CAPS 1
#define LIBXL_HAVE_NIC_TRUSTED 1
#define LIBXL_HAVE_PV_SHIM 1
#define LIBXL_HAVE_QED 1
#define LIBXL_HAVE_QXL 1
#define LIBXL_HAVE_SPICE_IMAGECOMPRESSION 1
#define LIBXL_HAVE_SPICE_STREAMINGVIDEO 1
#define LIBXL_HAVE_SPICE_USBREDIREDIRECTION 1
#define LIBXL_HAVE_SPICE_VDAGENT 1
#define LIBXL_HAVE_VCPUINFO_SOFT_AFFINITY 1
#define LIBXL_HAVE_VGA_INTERFACE_TYPE_UNKNOWN 1
#define LIBXL_HAVE_APIC_ASSIST 1
#define LIBXL_HAVE_VIRIDIAN_CPU_HOTPLUG 1
#define LIBXL_HAVE_VIRIDIAN_CRASH_CTL 1
#define LIBXL_HAVE_VIRIDIAN_EX_PROCESSOR_MASKS 1
#define LIBXL_HAVE_VIRIDIAN_HCALL_IPI 1
#define LIBXL_HAVE_VIRIDIAN_NO_VP_LIMIT 1
#define LIBXL_HAVE_VIRIDIAN_STIMER 1
#define LIBXL_HAVE_VIRIDIAN_SYNIC 1
#define LIBXL_HAVE_VMTRACE_BUF_KB 1
#define LIBXL_HAVE_VPMU 1
#define LIBXL_HAVE_X86_MSR_RELAXED 1

/*
 * The generated functions are Xen's, no more: _init, _init_<key>,
 * _dispose, _copy, _to_json, _from_json (reads what _to_json writes), and
 * the enumerations' _to_string, _from_string, string tables, _to_json and
 * _from_json.
 */

/* Functions only for callers outside libxl (as in Xen). */
#ifndef LIBXL_EXTERNAL_CALLERS_ONLY
#define LIBXL_EXTERNAL_CALLERS_ONLY /* disappears for callers outside libxl */
#endif

/* ---- builtin types (the IDL refers to these) ----------------------------- */

typedef char **libxl_string_list;
void libxl_string_list_dispose(libxl_string_list *sl);
int libxl_string_list_length(const libxl_string_list *sl);
void libxl_string_list_copy(libxl_ctx *ctx, libxl_string_list *dst,
                            const libxl_string_list *src);

/* key, value, key, value, ..., NULL */
typedef char **libxl_key_value_list;
void libxl_key_value_list_dispose(libxl_key_value_list *kvl);
int libxl_key_value_list_length(const libxl_key_value_list *kvl);
void libxl_key_value_list_copy(libxl_ctx *ctx, libxl_key_value_list *dst,
                               const libxl_key_value_list *src);

typedef uint32_t libxl_hwcap[8];
void libxl_hwcap_copy(libxl_ctx *ctx, libxl_hwcap *dst,
                      const libxl_hwcap *src);

typedef uint64_t libxl_ev_user;

typedef struct {
    uint32_t size;          /* number of bytes in map */
    uint8_t *map;
} libxl_bitmap;
void libxl_bitmap_init(libxl_bitmap *map);
void libxl_bitmap_dispose(libxl_bitmap *map);

typedef uint8_t libxl_mac[6];
#define LIBXL_MAC_FMT "%02hhx:%02hhx:%02hhx:%02hhx:%02hhx:%02hhx"
#define LIBXL_MAC_FMTLEN ((2*6)+5) /* 6 hex bytes plus 5 colons */
#define LIBXL_MAC_BYTES(mac) mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]
void libxl_mac_copy(libxl_ctx *ctx, libxl_mac *dst, const libxl_mac *src);

/*
 * A CPUID policy (xl.cfg's cpuid=).  Opaque; this libxl never builds one
 * (there is no cpuid= here yet), so a policy list is always empty (NULL).
 */
struct libxl__cpu_policy;
typedef struct libxl__cpu_policy *libxl_cpuid_policy_list;
void libxl_cpuid_dispose(libxl_cpuid_policy_list *cpuid_list);
int libxl_cpuid_policy_list_length(const libxl_cpuid_policy_list *l);
void libxl_cpuid_policy_list_copy(libxl_ctx *ctx,
                                  libxl_cpuid_policy_list *dst,
                                  const libxl_cpuid_policy_list *src);

#define LIBXL_PCI_FUNC_ALL (~0U)

typedef uint32_t libxl_domid;
typedef int libxl_devid;

#define LIBXL_MS_VM_GENID_LEN 16
typedef struct {
    uint8_t bytes[LIBXL_MS_VM_GENID_LEN];
} libxl_ms_vm_genid;
bool libxl_ms_vm_genid_is_zero(const libxl_ms_vm_genid *id);
void libxl_ms_vm_genid_copy(libxl_ctx *ctx, libxl_ms_vm_genid *dst,
                            const libxl_ms_vm_genid *src);

/* The link of libxl's event queue (Xen's XEN_TAILQ_ENTRY layout). */
struct libxl_event;
typedef struct {
    struct libxl_event *tqe_next;
    struct libxl_event **tqe_prev;
} libxl_ev_link;

/*
 * Each enumeration libxl_E has a table libxl_E_string_table ending with
 * { NULL, -1 }, libxl_E_to_string() (NULL for an unknown value) and
 * libxl_E_from_string() (case-insensitive; ERROR_FAIL if unknown).
 */
typedef struct {
    const char *s;
    int v;
} libxl_enum_string_table;

/*
 * A boolean with an explicit "default" state.  Treat it as opaque: zero
 * is the default, < 0 false, > 0 true.
 */
typedef struct {
    int val;
} libxl_defbool;

void libxl_defbool_set(libxl_defbool *db, bool b);
/* Resets to default */
void libxl_defbool_unset(libxl_defbool *db);
/* Sets db only if it is currently == default */
void libxl_defbool_setdefault(libxl_defbool *db, bool b);
bool libxl_defbool_is_default(libxl_defbool db);
/* db must not be == default */
bool libxl_defbool_val(libxl_defbool db);
/* "<default>", "True" or "False" */
const char *libxl_defbool_to_string(libxl_defbool b);

#define LIBXL_TIMER_MODE_DEFAULT -1
#define LIBXL_MEMKB_DEFAULT ~0ULL
#define LIBXL_MAX_GRANT_DEFAULT (~(uint32_t)0)
#define LIBXL_MAX_GRANT_FRAMES_DEFAULT 32 /* deprecated */
#define LIBXL_RDM_MEM_BOUNDARY_MEMKB_DEFAULT (2048 * 1024)

/* Defaults of libxl_domain_sched_params and libxl_sched_params (Xen's). */
#define LIBXL_DOMAIN_SCHED_PARAM_WEIGHT_DEFAULT    -1
#define LIBXL_DOMAIN_SCHED_PARAM_CAP_DEFAULT       -1
#define LIBXL_DOMAIN_SCHED_PARAM_PERIOD_DEFAULT    -1
#define LIBXL_DOMAIN_SCHED_PARAM_SLICE_DEFAULT     -1
#define LIBXL_DOMAIN_SCHED_PARAM_LATENCY_DEFAULT   -1
#define LIBXL_DOMAIN_SCHED_PARAM_EXTRATIME_DEFAULT -1
#define LIBXL_DOMAIN_SCHED_PARAM_BUDGET_DEFAULT    -1
#define LIBXL_SCHED_PARAM_VCPU_INDEX_DEFAULT       -1

#include "_libxl_types.h"

/* ---- asynchronous operations --------------------------------------------- */

/*
 * Long-running functions take a const libxl_asyncop_how *ao_how.  NULL
 * means "synchronous": the result is returned.  Non-NULL, as Xen's for an
 * operation that completes within its initiating call: the call returns 0
 * and the result goes to ao_how->callback before it returns, or (callback
 * NULL) comes as an OPERATION_COMPLETE event with for_event as its
 * for_user (libxl_event.h).  Functions that still refuse a non-NULL
 * ao_how (ERROR_NI, nothing done) say so in docs/man/libxl.3.md.
 */
typedef struct {
    void (*callback)(libxl_ctx *ctx, int rc, void *for_callback);
    union {
        libxl_ev_user for_event; /* used if callback==NULL */
        void *for_callback; /* passed to callback */
    } u;
} libxl_asyncop_how;

/* Events: libxl_event.h (included at the end, as Xen's libxl.h does). */

/* Intermediate progress of an operation (e.g. the console of a new
 * domain becoming ready).  Accepted and ignored. */
typedef struct {
    void (*callback)(libxl_ctx *ctx, libxl_event*, void *for_callback);
    libxl_ev_user for_event; /* always used */
    void *for_callback; /* passed to callback */
} libxl_asyncprogress_how;

/* ---- context --------------------------------------------------------------- */

#define LIBXL_VERSION 0

/*
 * Open the hypervisor interface (libxenctrl).  version must be
 * LIBXL_VERSION (else ERROR_VERSION); flags must be 0; lg receives
 * libxl's messages (NULL: a stderr logger is made).  ERROR_FAIL, after
 * logging why, when not running in a control domain.
 */
int libxl_ctx_alloc(libxl_ctx **pctx, int version,
                    unsigned flags /* none currently defined */,
                    xentoollog_logger *lg);
int libxl_ctx_free(libxl_ctx *ctx /* 0 is OK */);

/* The hypervisor's version strings; cached; owned by ctx. */
const libxl_version_info *libxl_get_version_info(libxl_ctx *ctx);

/* ---- domains ---------------------------------------------------------------- */

#define INVALID_DOMID ~0
#define RANDOM_DOMID (INVALID_DOMID - 1)

/*
 * Create a domain from d_config: a PVH domain built from b_info.kernel
 * (and b_info.ramdisk, its first module) with b_info.cmdline,
 * target_memkb of RAM (a whole number of MiB) and max_vcpus vCPUs.  The
 * configuration is checked first (ERROR_INVAL, with a message, when it is
 * incomplete or inconsistent, or the name is taken); defaults are filled
 * in d_config.  On success *domid is the new domain, left paused as in
 * Xen: the caller unpauses it.  On failure nothing is left behind (a
 * half-built domain is destroyed) and *domid = INVALID_DOMID.
 */
int libxl_domain_create_new(libxl_ctx *ctx, libxl_domain_config *d_config,
                            uint32_t *domid,
                            const libxl_asyncop_how *ao_how,
                            const libxl_asyncprogress_how *aop_console_how)
                            LIBXL_EXTERNAL_CALLERS_ONLY;

/*
 * Restore a domain saved by libxl_domain_suspend from restore_fd (the
 * libxl stream, docs/misc/migration.md): a domain is created from
 * d_config (type pvh; c_info.name, max_vcpus and memory; no kernel is
 * needed) and filled from the stream, left paused (the caller unpauses
 * it).  A bad stream or any failure destroys the half-built domain:
 * *domid = INVALID_DOMID.  send_back_fd and params (checkpointing) are
 * not used.
 */
int libxl_domain_create_restore(libxl_ctx *ctx, libxl_domain_config *d_config,
                                uint32_t *domid, int restore_fd,
                                int send_back_fd,
                                const libxl_domain_restore_params *params,
                                const libxl_asyncop_how *ao_how,
                                const libxl_asyncprogress_how *aop_console_how)
                                LIBXL_EXTERNAL_CALLERS_ONLY;

void libxl_domain_config_init(libxl_domain_config *d_config);
void libxl_domain_config_dispose(libxl_domain_config *d_config);

/*
 * The configuration of a running domain, to rebuild it from.  Until this
 * toolstack creates domains (and stores their configurations) it is
 * reconstructed from what the hypervisor reports: type, name, UUID,
 * vCPUs and memory.
 */
int libxl_retrieve_domain_configuration(libxl_ctx *ctx, uint32_t domid,
                                        libxl_domain_config *d_config,
                                        const libxl_asyncop_how *ao_how)
                                        LIBXL_EXTERNAL_CALLERS_ONLY;

/*
 * Save a domain to fd: the libxl stream (header, LIBXC_CONTEXT, the libxc
 * stream of xc_domain_save, END).  With LIBXL_SUSPEND_LIVE memory is
 * pre-copied while the domain runs.  A guest with PV drivers
 * (HVM_PARAM_CALLBACK_IRQ set) is asked to suspend itself through
 * xenstore's control/shutdown (libxl_dom_suspend.c); one without is
 * paused.  On success the domain is left suspended (shut down for
 * suspend, or paused): the caller destroys it, or resumes it
 * (libxl_domain_resume) or unpauses it.  On failure it runs on, log-dirty
 * off: a guest that had suspended is resumed in place.
 */
int libxl_domain_suspend(libxl_ctx *ctx, uint32_t domid, int fd,
                         int flags, /* LIBXL_SUSPEND_* */
                         const libxl_asyncop_how *ao_how)
                         LIBXL_EXTERNAL_CALLERS_ONLY;
#define LIBXL_SUSPEND_DEBUG 1
#define LIBXL_SUSPEND_LIVE 2

/*
 * Resume in place a domain that suspended itself for a save (a cancelled
 * or failed save or migration, a checkpoint).  suspend_cancel: the
 * cooperative resume (xc_domain_resume's fast): the guest's suspend call
 * returns 1, "cancelled", and it keeps its connections; 0: it sees a new
 * domain and reconnects.
 */
int libxl_domain_resume(libxl_ctx *ctx, uint32_t domid, int suspend_cancel,
                        const libxl_asyncop_how *ao_how)
                        LIBXL_EXTERNAL_CALLERS_ONLY;

/* Rename a domain (old_name NULL: whatever it is called). */
int libxl_domain_rename(libxl_ctx *ctx, uint32_t domid,
                        const char *old_name, const char *new_name);

/*
 * This project's extension, NOT in Xen: libxl_domain_suspend with the
 * live-migration policy of libxenguest (docs/misc/migration.md) and a
 * report of every pre-copy round.  Zero fields take the defaults:
 * downtime target 300 ms, 30 rounds, auto-converge on, no bandwidth cap.
 */
#define LIBXL_HAVE_SUSPEND_PARAMS 1
typedef struct libxl_suspend_round {
    unsigned int iteration;             /* 1: all memory */
    bool final;                         /* sent with the domain paused */
    uint64_t pages_sent, pages_dirtied, time_ns;
    uint64_t dirty_rate;                /* pages per second */
    uint64_t bandwidth;                 /* octets per second */
    uint64_t predicted_downtime_ns;
    unsigned int throttle;              /* % of the round paused */
    uint64_t paused_ns;                 /* paused by the throttle, in all */
    uint64_t max_pause_ns;              /* its longest pause */
} libxl_suspend_round;

typedef struct libxl_suspend_params {
    int xen_policy;                     /* Xen's 5 rounds / 50 pages */
    uint64_t downtime_ms;
    unsigned int max_rounds;
    int no_auto_converge;
    void (*round)(const libxl_suspend_round *r, void *data);
    void *data;
    uint64_t max_bandwidth;             /* octets per second; 0: no cap */
} libxl_suspend_params;

int libxl_domain_suspend_params(libxl_ctx *ctx, uint32_t domid, int fd,
                                int flags, const libxl_suspend_params *params,
                                const libxl_asyncop_how *ao_how)
                                LIBXL_EXTERNAL_CALLERS_ONLY;

/* As Xen's: ask the guest through xenstore's control/shutdown ("poweroff",
 * "reboot") and wait up to 60 s for it to acknowledge (clear the node):
 * ERROR_TIMEDOUT if it does not, ERROR_NOPARAVIRT if it has no PV control
 * interface (an HVM guest without a callback).  The guest then shuts down
 * or reboots itself. */
int libxl_domain_shutdown(libxl_ctx *ctx, uint32_t domid,
                          const libxl_asyncop_how *ao_how)
                          LIBXL_EXTERNAL_CALLERS_ONLY;
int libxl_domain_reboot(libxl_ctx *ctx, uint32_t domid,
                        const libxl_asyncop_how *ao_how)
                        LIBXL_EXTERNAL_CALLERS_ONLY;

int libxl_domain_destroy(libxl_ctx *ctx, uint32_t domid,
                         const libxl_asyncop_how *ao_how)
                         LIBXL_EXTERNAL_CALLERS_ONLY;

/*
 * A domain's memory (libxl_mem.c), in KiB.  libxl_domain_setmaxmem: its
 * static maximum (not below the target; max_pages = max + 1 MiB, Xen's
 * LIBXL_MAXMEM_CONSTANT).  libxl_set_memory_target: its target, absolute or
 * relative, not above the static maximum (dom0: not below 128 MiB); with
 * 'enforce', max_pages = target + 1 MiB, so the guest, which reads it with
 * XENMEM_maximum_reservation, must balloon down to it before it gets any
 * new frame (Xen's guests read the target from xenstore, which this
 * toolstack does not have).  libxl_get_memory_target: the target recorded,
 * or what the domain holds if none was.  libxl_get_required_shadow_memory:
 * Xen's paging pool size for a domain (1 MiB per vCPU, 8 KiB per MiB).
 */
int libxl_domain_setmaxmem(libxl_ctx *ctx, uint32_t domid, uint64_t target_memkb);
int libxl_set_memory_target(libxl_ctx *ctx, uint32_t domid, int64_t target_memkb,
                            int relative, int enforce);
int libxl_get_memory_target(libxl_ctx *ctx, uint32_t domid, uint64_t *out_target);
unsigned long libxl_get_required_shadow_memory(unsigned long maxmem_kb,
                                               unsigned int smp_cpus);

int libxl_domain_pause(libxl_ctx *ctx, uint32_t domid,
                       const libxl_asyncop_how *ao_how)
                       LIBXL_EXTERNAL_CALLERS_ONLY;
int libxl_domain_unpause(libxl_ctx *ctx, uint32_t domid,
                         const libxl_asyncop_how *ao_how)
                         LIBXL_EXTERNAL_CALLERS_ONLY;
#if defined(LIBXL_API_VERSION) && LIBXL_API_VERSION < 0x041300
static inline int libxl_domain_pause_0x041200(
    libxl_ctx *ctx, uint32_t domid)
{
    return libxl_domain_pause(ctx, domid, NULL);
}
static inline int libxl_domain_unpause_0x041200(
    libxl_ctx *ctx, uint32_t domid)
{
    return libxl_domain_unpause(ctx, domid, NULL);
}
#define libxl_domain_pause libxl_domain_pause_0x041200
#define libxl_domain_unpause libxl_domain_unpause_0x041200
#endif

/* get max. number of cpus supported by hypervisor */
int libxl_get_max_cpus(libxl_ctx *ctx);

/* get the actual number of currently online cpus on the host */
int libxl_get_online_cpus(libxl_ctx *ctx);

/*
 * May be called with info_r == NULL to check for domain's existence.
 * Returns ERROR_DOMAIN_NOTFOUND if domain does not exist.
 */
int libxl_domain_info(libxl_ctx*, libxl_dominfo *info_r,
                      uint32_t domid);

/*
 * All domains, in id order; the array and its contents come from malloc
 * and are freed with libxl_dominfo_list_free.  NULL on error.
 */
libxl_dominfo * libxl_list_domain(libxl_ctx*, int *nb_domain_out);
void libxl_dominfo_list_free(libxl_dominfo *list, int nb_domain);

int libxl_get_physinfo(libxl_ctx *ctx, libxl_physinfo *physinfo);
libxl_scheduler libxl_get_scheduler(libxl_ctx *ctx);

/*
 * Every vCPU of a domain (0 .. vcpu_max_id), as the hypervisor reports it
 * (state, time, physical CPU, hard and soft affinity); *nb_vcpu of them,
 * maps of *nr_cpus_out CPUs.  NULL on error.  Free with
 * libxl_vcpuinfo_list_free.
 */
libxl_vcpuinfo *libxl_list_vcpu(libxl_ctx *ctx, uint32_t domid,
                                int *nb_vcpu, int *nr_cpus_out);
void libxl_vcpuinfo_list_free(libxl_vcpuinfo *, int nr_vcpus);

/* get max. number of NUMA nodes supported by hypervisor (here: 1) */
int libxl_get_max_nodes(libxl_ctx *ctx);

/*
 * A domain's NUMA node affinity.  This hypervisor has one node, which
 * every domain has: the map has every node set (Xen's answer on a
 * single-node host).  nodemap is (re)allocated.
 */
int libxl_domain_get_nodeaffinity(libxl_ctx *ctx, uint32_t domid,
                                  libxl_bitmap *nodemap);

/*
 * When the domain was created (seconds since the epoch), or (uint32_t)-1
 * when not known (a domain started at boot, or domain 0: `xl uptime`
 * reads the host's uptime for it).
 */
uint32_t libxl_vm_get_start_time(libxl_ctx *ctx, uint32_t domid);

/*
 * A domain's devices.  This toolstack creates none yet, so the lists are
 * empty: NULL and *num = 0, as Xen's for a domain without devices.
 */
libxl_device_disk *libxl_device_disk_list(libxl_ctx *ctx,
                                          uint32_t domid, int *num)
                                          LIBXL_EXTERNAL_CALLERS_ONLY;
void libxl_device_disk_list_free(libxl_device_disk *list, int num)
                                 LIBXL_EXTERNAL_CALLERS_ONLY;
libxl_device_nic *libxl_device_nic_list(libxl_ctx *ctx,
                                        uint32_t domid, int *num)
                                        LIBXL_EXTERNAL_CALLERS_ONLY;
void libxl_device_nic_list_free(libxl_device_nic *list, int num)
                                LIBXL_EXTERNAL_CALLERS_ONLY;

/* ---- the hypervisor's console ring (xl dmesg) ------------------------------ */

typedef struct libxl__xen_console_reader libxl_xen_console_reader;

/* clear != 0: empty the ring once read. */
libxl_xen_console_reader *
    libxl_xen_console_read_start(libxl_ctx *ctx, int clear);
/* 1 and *line_r (owned by cr, valid until the next call) per line; 0 at
 * the end; an ERROR_* on failure. */
int libxl_xen_console_read_line(libxl_ctx *ctx,
                                libxl_xen_console_reader *cr,
                                char **line_r);
void libxl_xen_console_read_finish(libxl_ctx *ctx,
                                   libxl_xen_console_reader *cr);

/* xl debug-keys: the hypervisor acts on each key as if typed on its console. */
int libxl_send_debug_keys(libxl_ctx *ctx, char *keys);

/* ---- a domain's console (xl console), through Xen's xenconsole ---------------- */

/*
 * Replace the calling process with xenconsole attached to console
 * cons_num of type 'type' of domain domid (the pty xenconsoled wrote to
 * xenstore); notify_fd (-1: none) gets a byte once it is attached.
 * Returns only on failure.  A PVH domain has one console here: PV, 0.
 */
int libxl_console_exec(libxl_ctx *ctx, uint32_t domid, int cons_num,
                       libxl_console_type type, int notify_fd);
/* The same for the domain's primary console. */
int libxl_primary_console_exec(libxl_ctx *ctx, uint32_t domid_vm, int notify_fd);

/* ---- EXTENSION: forced shutdown (this project, NOT in Xen) ---------------- */

/* SCHEDOP_remote_shutdown with a SHUTDOWN_* reason, as if the guest had
 * asked: `xl shutdown -F` / `xl reboot -F` for a guest without the PV
 * control interface, where Xen's xl sends an ACPI button event (this
 * hypervisor emulates no ACPI PM block). */
int libxl_domain_remote_shutdown(libxl_ctx *ctx, uint32_t domid, int reason);

/* ---- EXTENSION: dirty-page tracking (this project, NOT in Xen) ------------- */

/*
 * LIBXL_HAVE_DIRTY_TRACKING
 *
 * This project's additions: global log-dirty mode and its bitmap, dirty
 * video-RAM tracking, the hypervisor's dirty-page counters and a one-shot
 * dirty-rate measurement.  They sit on xc_shadow_control /
 * xc_logdirty_control, xendevicemodel_track_dirty_vram and this project's
 * xc_dirty_stats; `xl log-dirty`, `xl vram-track` and `xl dirty-rate` use
 * them.  Xen's libxl has none of these functions.
 */
#define LIBXL_HAVE_DIRTY_TRACKING 1

/* Put the domain into global log-dirty mode, or take it out.  Enabling a
 * domain already in log-dirty mode is ERROR_INVAL (as the hypervisor). */
int libxl_domain_set_logdirty(libxl_ctx *ctx, uint32_t domid, bool enable);

/*
 * The log-dirty bitmap: bit p (of byte p/8, bit p%8) is set when pfn p
 * was written since the last clean.  clean != 0 also clears it (CLEAN),
 * else it is left (PEEK).  *bitmap_r (malloc, free()) covers *nr_pfns_r
 * pfns, the domain's whole pfn space.  ERROR_NOT_READY if the domain is
 * not in log-dirty mode; nothing is changed then.
 */
int libxl_domain_dirty_bitmap(libxl_ctx *ctx, uint32_t domid, bool clean,
                              uint8_t **bitmap_r, uint64_t *nr_pfns_r);

/*
 * Track writes to nr pfns from first_pfn (video RAM).  Asking again for
 * the same range returns, in *bitmap_r (malloc, nr bits, may be NULL when
 * not wanted), the pages written since the previous call; a new range
 * returns all ones; nr == 0 stops tracking.
 */
int libxl_domain_track_vram(libxl_ctx *ctx, uint32_t domid,
                            uint64_t first_pfn, uint32_t nr,
                            uint8_t **bitmap_r);

/* The hypervisor's dirty-tracking counters, with one entry per vCPU. */
int libxl_domain_get_dirty_stats(libxl_ctx *ctx, uint32_t domid,
                                 libxl_dirty_stats *stats);

/* VM exits of one vCPU by basic exit reason: *counts_r (malloc) has
 * *nr_reasons_r entries. */
int libxl_vcpu_exit_counts(libxl_ctx *ctx, uint32_t domid, uint32_t vcpu,
                           uint64_t **counts_r, unsigned int *nr_reasons_r);

/*
 * One dirty-rate measurement, like QEMU's calc-dirty-rate in dirty-bitmap
 * mode: enter log-dirty mode if needed, CLEAN, wait duration_ms, CLEAN
 * and count.  The previous mode is restored.  *dirty_pages_r counts pages
 * written in the interval, *elapsed_ns_r is the interval measured;
 * delta_r (may be NULL; initialised by the caller) gets the growth of the
 * hypervisor's counters over the interval, per vCPU included (a vCPU's
 * pages_dirtied is what the mechanism could attribute to it).
 */
int libxl_domain_measure_dirty_rate(libxl_ctx *ctx, uint32_t domid,
                                    uint32_t duration_ms,
                                    uint64_t *dirty_pages_r,
                                    uint64_t *elapsed_ns_r,
                                    libxl_dirty_stats *delta_r);

#include <libxl_event.h>

#endif /* LIBXL_H */

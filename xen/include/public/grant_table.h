/* SPDX-License-Identifier: MIT */
/*
 * Grant tables (__HYPERVISOR_grant_table_op): a domain lets another one
 * map or copy some of its frames by writing entries into a table it
 * shares with the hypervisor.  An entry is named by its index, the grant
 * reference, which the granter hands to the grantee (e.g. in xenstore).
 *
 * The table is an array of entries in frames shared between the guest and
 * the hypervisor: version 1 entries (8 bytes, flags + domid + a 32-bit
 * frame) or version 2 ones (16 bytes; the flags the hypervisor writes,
 * GTF_reading/GTF_writing, live in separate status frames).  A domain
 * uses one version for its whole table (GNTTABOP_set_version).
 *
 * The granter's side of the protocol (Xen's, on which Linux relies):
 *   - to grant: write domid and frame, then (after a write barrier) flags
 *     with GTF_permit_access (and GTF_readonly if so);
 *   - to revoke: read flags; if GTF_reading or GTF_writing is set the
 *     grant is in use and cannot be revoked now; otherwise cmpxchg the
 *     flags word from the value read to 0 (version 1; for version 2 clear
 *     the flags, then check the status word).  The hypervisor sets the
 *     GTF_reading/GTF_writing bits while the grant is mapped or copied,
 *     with a cmpxchg on the same word, so one of the two wins.
 *
 * Commands take an array of 'count' structures of the command's type.
 */

#ifndef __LOCAL_PUBLIC_GRANT_TABLE_H__
#define __LOCAL_PUBLIC_GRANT_TABLE_H__

#include "xen.h"

/* Commands (GNTTABOP_*, the first argument; count is the third). */
#define GNTTABOP_map_grant_ref        0
#define GNTTABOP_unmap_grant_ref      1
#define GNTTABOP_setup_table          2
#define GNTTABOP_dump_table           3
#define GNTTABOP_transfer             4
#define GNTTABOP_copy                 5
#define GNTTABOP_query_size           6
#define GNTTABOP_unmap_and_replace    7
#define GNTTABOP_set_version          8
#define GNTTABOP_get_status_frames    9
#define GNTTABOP_get_version          10
#define GNTTABOP_swap_grant_ref       11
#define GNTTABOP_cache_flush          12

/*
 * The first entries of every table are the toolstack's: it fills them in
 * before the guest runs (console and xenstore rings, granted to the
 * domains serving them), and they survive a change of version.
 */
#define GNTTAB_NR_RESERVED_ENTRIES     8
#define GNTTAB_RESERVED_CONSOLE        0
#define GNTTAB_RESERVED_XENSTORE       1

/* Entry types (flags & GTF_type_mask). */
#define GTF_invalid         (0U << 0)   /* grants nothing */
#define GTF_permit_access   (1U << 0)   /* domid may map/copy frame */
#define GTF_accept_transfer (2U << 0)   /* domid may transfer a frame to us */
#define GTF_transitive      (3U << 0)   /* v2: copy through another domain's grant */
#define GTF_type_mask       (3U << 0)

/* Flags of GTF_permit_access (and GTF_transitive) entries. */
#define _GTF_readonly       (2)
#define GTF_readonly        (1U << _GTF_readonly)   /* [guest] no writes */
#define _GTF_reading        (3)
#define GTF_reading         (1U << _GTF_reading)    /* [hypervisor] in use */
#define _GTF_writing        (4)
#define GTF_writing         (1U << _GTF_writing)    /* [hypervisor] in use, writable */
#define _GTF_PWT            (5)
#define GTF_PWT             (1U << _GTF_PWT)        /* cache attributes of a mapping */
#define _GTF_PCD            (6)
#define GTF_PCD             (1U << _GTF_PCD)
#define _GTF_PAT            (7)
#define GTF_PAT             (1U << _GTF_PAT)
#define _GTF_sub_page       (8)
#define GTF_sub_page        (1U << _GTF_sub_page)   /* v2: copy a byte range only */

/* Flags of GTF_accept_transfer entries, written by the hypervisor. */
#define _GTF_transfer_committed (2)
#define GTF_transfer_committed  (1U << _GTF_transfer_committed)
#define _GTF_transfer_completed (3)
#define GTF_transfer_completed  (1U << _GTF_transfer_completed)

/* GNTMAP_* flags of gnttab_map_grant_ref. */
#define _GNTMAP_device_map      (0)     /* for I/O devices (not for HVM) */
#define GNTMAP_device_map       (1 << _GNTMAP_device_map)
#define _GNTMAP_host_map        (1)     /* for the CPU, at host_addr */
#define GNTMAP_host_map         (1 << _GNTMAP_host_map)
#define _GNTMAP_readonly        (2)
#define GNTMAP_readonly         (1 << _GNTMAP_readonly)
#define _GNTMAP_application_map (3)     /* PV: usable by user space too */
#define GNTMAP_application_map  (1 << _GNTMAP_application_map)
#define _GNTMAP_contains_pte    (4)     /* PV: host_addr is a PTE's address */
#define GNTMAP_contains_pte     (1 << _GNTMAP_contains_pte)
/* PV: bits for the guest's available PTE bits (XENFEAT_gnttab_map_avail_bits). */
#define _GNTMAP_guest_avail0    (16)
#define GNTMAP_guest_avail_mask ((uint32_t)~0 << _GNTMAP_guest_avail0)

/* GNTCOPY_* flags of gnttab_copy: which sides are grant references. */
#define _GNTCOPY_source_gref      (0)
#define GNTCOPY_source_gref       (1 << _GNTCOPY_source_gref)
#define _GNTCOPY_dest_gref        (1)
#define GNTCOPY_dest_gref         (1 << _GNTCOPY_dest_gref)

/* gnttab_cache_flush.op (Arm; x86 guests have coherent caches). */
#define GNTTAB_CACHE_CLEAN          (1u << 0)
#define GNTTAB_CACHE_INVAL          (1u << 1)
#define GNTTAB_CACHE_SOURCE_GREF    (1u << 31)

/* Per-operation results (the status fields); all errors are negative. */
#define GNTST_okay             (0)
#define GNTST_general_error    (-1)
#define GNTST_bad_domain       (-2)
#define GNTST_bad_gntref       (-3)
#define GNTST_bad_handle       (-4)
#define GNTST_bad_virt_addr    (-5)
#define GNTST_bad_dev_addr     (-6)
#define GNTST_no_device_space  (-7)
#define GNTST_permission_denied (-8)
#define GNTST_bad_page         (-9)
#define GNTST_bad_copy_arg    (-10)     /* a copy crosses a page boundary */
#define GNTST_address_too_big (-11)
#define GNTST_eagain          (-12)
#define GNTST_no_space        (-13)     /* no maptrack handle left */

#define GNTTABOP_error_msgs {                   \
    "okay",                                     \
    "undefined error",                          \
    "unrecognised domain id",                   \
    "invalid grant reference",                  \
    "invalid mapping handle",                   \
    "invalid virtual address",                  \
    "invalid device address",                   \
    "no spare translation slot in the I/O MMU", \
    "permission denied",                        \
    "bad page",                                 \
    "copy arguments cross page boundary",       \
    "page address size too large",              \
    "operation not done; try again",            \
    "out of space",                             \
}

#ifndef __ASSEMBLY__

typedef uint32_t grant_ref_t;
typedef uint32_t grant_handle_t;        /* a mapping, as map_grant_ref returned it */

/* Version 1 entry. */
struct grant_entry_v1 {
    uint16_t flags;                     /* GTF_* [guest, hypervisor] */
    domid_t  domid;                     /* the grantee [guest] */
    uint32_t frame;                     /* the granted gfn [guest] */
};
typedef struct grant_entry_v1 grant_entry_v1_t;

/* The part version 1 and version 2 entries share. */
struct grant_entry_header {
    uint16_t flags;
    domid_t  domid;
};
typedef struct grant_entry_header grant_entry_header_t;

/* Version 2 entry: one of four layouts, chosen by hdr.flags. */
union grant_entry_v2 {
    grant_entry_header_t hdr;

    /* GTF_permit_access without GTF_sub_page, and GTF_accept_transfer. */
    struct {
        grant_entry_header_t hdr;
        uint32_t pad0;
        uint64_t frame;
    } full_page;

    /* GTF_permit_access | GTF_sub_page: bytes [page_off, page_off + length). */
    struct {
        grant_entry_header_t hdr;
        uint16_t page_off;
        uint16_t length;
        uint64_t frame;
    } sub_page;

    /* GTF_transitive: domid may use grant 'gref' of trans_domid as if ours. */
    struct {
        grant_entry_header_t hdr;
        domid_t trans_domid;
        uint16_t pad0;
        grant_ref_t gref;
    } transitive;

    uint32_t __spacer[4];               /* 16 bytes */
};
typedef union grant_entry_v2 grant_entry_v2_t;

/* Version 2 status word: GTF_reading | GTF_writing [hypervisor]. */
typedef uint16_t grant_status_t;

/* GNTTABOP_map_grant_ref: map grant (dom, ref); returns a handle. */
struct gnttab_map_grant_ref {
    uint64_t host_addr;                 /* IN: HVM: guest-physical address */
    uint32_t flags;                     /* IN: GNTMAP_* */
    grant_ref_t ref;                    /* IN */
    domid_t  dom;                       /* IN: the granter */
    int16_t  status;                    /* OUT: GNTST_* */
    grant_handle_t handle;              /* OUT */
    uint64_t dev_bus_addr;              /* OUT */
};
typedef struct gnttab_map_grant_ref gnttab_map_grant_ref_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_map_grant_ref_t);

/* GNTTABOP_unmap_grant_ref: undo a mapping (host_addr 0: keep that part). */
struct gnttab_unmap_grant_ref {
    uint64_t host_addr;                 /* IN */
    uint64_t dev_bus_addr;              /* IN */
    grant_handle_t handle;              /* IN */
    int16_t  status;                    /* OUT: GNTST_* */
};
typedef struct gnttab_unmap_grant_ref gnttab_unmap_grant_ref_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_unmap_grant_ref_t);

/* GNTTABOP_setup_table: grow dom's table to nr_frames, list their frames. */
struct gnttab_setup_table {
    domid_t  dom;                       /* IN: DOMID_SELF or (privileged) any */
    uint32_t nr_frames;                 /* IN */
    int16_t  status;                    /* OUT: GNTST_* */
    XEN_GUEST_HANDLE(xen_pfn_t) frame_list;   /* OUT: HVM: gfns (or ~0) */
};
typedef struct gnttab_setup_table gnttab_setup_table_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_setup_table_t);

/* GNTTABOP_dump_table: print dom's table on the hypervisor console. */
struct gnttab_dump_table {
    domid_t dom;                        /* IN */
    int16_t status;                     /* OUT: GNTST_* */
};
typedef struct gnttab_dump_table gnttab_dump_table_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_dump_table_t);

/* GNTTABOP_transfer: give frame mfn to domid, into its entry ref (PV only). */
struct gnttab_transfer {
    xen_pfn_t     mfn;                  /* IN */
    domid_t       domid;                /* IN */
    grant_ref_t   ref;                  /* IN */
    int16_t       status;               /* OUT: GNTST_* */
};
typedef struct gnttab_transfer gnttab_transfer_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_transfer_t);

/* GNTTABOP_copy: copy len bytes; each side a gref or (DOMID_SELF only) a gfn. */
struct gnttab_copy {
    struct gnttab_copy_ptr {
        union {
            grant_ref_t ref;
            xen_pfn_t   gmfn;
        } u;
        domid_t  domid;
        uint16_t offset;
    } source, dest;                     /* IN */
    uint16_t      len;                  /* IN: bytes, within one page */
    uint16_t      flags;                /* IN: GNTCOPY_* */
    int16_t       status;               /* OUT: GNTST_* */
};
typedef struct gnttab_copy gnttab_copy_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_copy_t);

/* GNTTABOP_query_size: the current and the largest size of dom's table. */
struct gnttab_query_size {
    domid_t  dom;                       /* IN */
    uint32_t nr_frames;                 /* OUT */
    uint32_t max_nr_frames;             /* OUT */
    int16_t  status;                    /* OUT: GNTST_* */
};
typedef struct gnttab_query_size gnttab_query_size_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_query_size_t);

/* GNTTABOP_unmap_and_replace: unmap, putting new_addr's frame there (PV). */
struct gnttab_unmap_and_replace {
    uint64_t host_addr;                 /* IN */
    uint64_t new_addr;                  /* IN */
    grant_handle_t handle;              /* IN */
    int16_t  status;                    /* OUT: GNTST_* */
};
typedef struct gnttab_unmap_and_replace gnttab_unmap_and_replace_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_unmap_and_replace_t);

/* GNTTABOP_set_version: switch the caller's table to version 1 or 2. */
struct gnttab_set_version {
    uint32_t version;                   /* IN: wanted; OUT: in effect */
};
typedef struct gnttab_set_version gnttab_set_version_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_set_version_t);

/* GNTTABOP_get_status_frames: list the frames of dom's v2 status array. */
struct gnttab_get_status_frames {
    uint32_t nr_frames;                 /* IN */
    domid_t  dom;                       /* IN */
    int16_t  status;                    /* OUT: GNTST_* */
    XEN_GUEST_HANDLE(uint64_t) frame_list;    /* OUT: HVM: gfns (or ~0) */
};
typedef struct gnttab_get_status_frames gnttab_get_status_frames_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_get_status_frames_t);

/* GNTTABOP_get_version: the version dom's table uses. */
struct gnttab_get_version {
    domid_t dom;                        /* IN */
    uint16_t pad;
    uint32_t version;                   /* OUT */
};
typedef struct gnttab_get_version gnttab_get_version_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_get_version_t);

/* GNTTABOP_swap_grant_ref: exchange two of the caller's unused entries. */
struct gnttab_swap_grant_ref {
    grant_ref_t ref_a;                  /* IN */
    grant_ref_t ref_b;                  /* IN */
    int16_t status;                     /* OUT: GNTST_* */
};
typedef struct gnttab_swap_grant_ref gnttab_swap_grant_ref_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_swap_grant_ref_t);

/* GNTTABOP_cache_flush: cache maintenance on a granted range (Arm). */
struct gnttab_cache_flush {
    union {
        uint64_t dev_bus_addr;
        grant_ref_t ref;
    } a;
    uint16_t offset;                    /* within the grant */
    uint16_t length;
    uint32_t op;                        /* GNTTAB_CACHE_* */
};
typedef struct gnttab_cache_flush gnttab_cache_flush_t;
DEFINE_XEN_GUEST_HANDLE(gnttab_cache_flush_t);

#endif /* __ASSEMBLY__ */

#endif /* __LOCAL_PUBLIC_GRANT_TABLE_H__ */

/* SPDX-License-Identifier: MIT */
/*
 * Feature bits returned by XENVER_get_features, bit n of submap 0 being
 * feature n.
 */

#ifndef __LOCAL_PUBLIC_FEATURES_H__
#define __LOCAL_PUBLIC_FEATURES_H__

#define XENFEAT_writable_page_tables       0
#define XENFEAT_writable_descriptor_tables 1
#define XENFEAT_auto_translated_physmap    2  /* Xen owns the p2m (HVM/PVH) */
#define XENFEAT_supervisor_mode_kernel     3
#define XENFEAT_pae_pgdir_above_4gb        4
#define XENFEAT_mmu_pt_update_preserve_ad  5
#define XENFEAT_highmem_assist             6
#define XENFEAT_gnttab_map_avail_bits      7
#define XENFEAT_hvm_callback_vector        8  /* HVM_PARAM_CALLBACK_IRQ vector type */
#define XENFEAT_hvm_safe_pvclock           9  /* vcpu_time_info usable by HVM */
#define XENFEAT_hvm_pirqs                  10
#define XENFEAT_dom0                       11
/* 12 was grant_map_identity, withdrawn; the bit stays reserved. */
#define XENFEAT_memory_op_vnode_supported  13
#define XENFEAT_ARM_SMCCC_supported        14
#define XENFEAT_linux_rsdp_unrestricted    15
#define XENFEAT_not_direct_mapped          16
#define XENFEAT_direct_mapped              17

/* Number of 32-bit submaps in use. */
#define XENFEAT_NR_SUBMAPS 1

#endif /* __LOCAL_PUBLIC_FEATURES_H__ */

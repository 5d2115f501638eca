/* SPDX-License-Identifier: GPL-2.0-only */
/* EPT entry and EPT pointer layouts. */
#ifndef __ASM_X86_HVM_VMX_EPT_H__
#define __ASM_X86_HVM_VMX_EPT_H__

#define EPTE_R              (1ULL << 0)
#define EPTE_W              (1ULL << 1)
#define EPTE_X              (1ULL << 2)
#define EPTE_RWX            (EPTE_R | EPTE_W | EPTE_X)
#define EPTE_MT_SHIFT       3
#define EPTE_MT_UC          (0ULL << EPTE_MT_SHIFT)
#define EPTE_MT_WB          (6ULL << EPTE_MT_SHIFT)
#define EPTE_IPAT           (1ULL << 6)
#define EPTE_SP             (1ULL << 7)     /* leaf at level 2 or 3 */
#define EPTE_A              (1ULL << 8)
#define EPTE_D              (1ULL << 9)
#define EPTE_ADDR_MASK      0x000ffffffffff000ULL
/* Ignored bits 52-57 hold the p2m type, as in Xen. */
#define EPTE_TYPE_SHIFT     52
#define EPTE_TYPE_MASK      (0x3fULL << EPTE_TYPE_SHIFT)

#define EPT_TABLE_ENTRIES   512
#define EPT_LEVELS          4

#define EPTP_MT_WB          6ULL
#define EPTP_WALK_LENGTH(n) (((uint64_t)(n) - 1) << 3)
#define EPTP_AD_ENABLE      (1ULL << 6)

#define INVEPT_SINGLE_CONTEXT 1
#define INVEPT_ALL_CONTEXT    2

#endif /* __ASM_X86_HVM_VMX_EPT_H__ */

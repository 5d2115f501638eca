/* SPDX-License-Identifier: GPL-2.0-only */
/* Which CPU this is (smp_processor_id(), from asm/current.h). */
#ifndef __XEN_SMP_H__
#define __XEN_SMP_H__

#include <asm/current.h>

#endif /* __XEN_SMP_H__ */

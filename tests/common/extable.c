/* SPDX-License-Identifier: GPL-2.0-only */
/* Exception fixups: the .ex_table the linker script collects. */

#include "test.h"
#include "extable.h"

struct extable_entry {
    unsigned long fault, fixup;
};

extern const struct extable_entry __start_ex_table[], __stop_ex_table[];

bool extable_fixup(unsigned long *rip, unsigned long *rdi,
                   unsigned long vector, unsigned long error_code)
{
    const struct extable_entry *e;

    for ( e = __start_ex_table; e < __stop_ex_table; e++ )
        if ( e->fault == *rip )
        {
            *rip = e->fixup;
            *rdi = EXINFO(vector, error_code);
            return true;
        }

    return false;
}

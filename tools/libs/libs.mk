# SPDX-License-Identifier: GPL-2.0-only
#
# Building one tool library as a static archive, lib$(LIB).a, from SRCS.
# A library's Makefile sets XEN_ROOT, LIB and SRCS, then includes this.

include $(XEN_ROOT)/tools/Rules.mk

OBJS := $(SRCS:.c=.o)

.PHONY: all clean
all: lib$(LIB).a

lib$(LIB).a: $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

%.o: %.c
	$(HOSTCC) $(TOOLS_CFLAGS) $(CFLAGS_xeninclude) $(CFLAGS-$(LIB)) -c $< -o $@

clean:
	rm -f *.o *.d *.a

-include $(OBJS:.o=.d)

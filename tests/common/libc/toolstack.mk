# SPDX-License-Identifier: GPL-2.0-only
#
# The toolstack libraries inside guest test kernels (included by
# tests/Makefile).  A control-domain test kernel listed in TOOLSTACK_TESTS
# links the same libxenguest, libxenctrl, libxendevicemodel,
# libxenforeignmemory, libxencall and libxentoollog sources as the Linux
# build, with two differences:
#
#   - libxencall's "direct" backend (tools/libs/call/direct.c): hypercalls
#     through the hypercall page, buffers in ordinary guest memory; and
#     libxenforeignmemory's (tools/libs/foreignmemory/direct.c): foreign
#     frames placed in a window of guest-physical space above RAM;
#   - the small libc in common/libc/ (headers in common/libc/include):
#     malloc/free over a static arena, console stdio, errno, strerror; the
#     string and formatting functions are the hypervisor's, which every
#     test kernel links already.
#
# Everything is compiled with -nostdinc: only the compiler's freestanding
# headers and this libc are visible, never the host's.  The test's main.c
# may include "test.h" and <xenctrl.h> / <xendevicemodel.h> /
# <xenforeignmemory.h> / <xenguest.h> together.

TOOLS_LIBS := $(XEN_ROOT)/tools/libs

include $(TOOLS_LIBS)/sources.mk
TOOLSTACK_SRCS := \
    $(call tool_lib_srcs,toollog,TOOLLOG_SRCS) \
    $(call tool_lib_srcs,call,CALL_SRCS) call/direct.c \
    $(call tool_lib_srcs,devicemodel,DEVICEMODEL_SRCS) \
    $(call tool_lib_srcs,ctrl,CTRL_SRCS) \
    $(call tool_lib_srcs,foreignmemory,FOREIGNMEMORY_SRCS) foreignmemory/direct.c \
    $(call tool_lib_srcs,guest,GUEST_SRCS)

LIBC_SRCS := malloc.c stdio.c misc.c io.c

# The libraries see what they see on Linux: tools/include (their headers,
# the public ABI as <xen/...>: tools/include/Makefile), never xen/include.
TOOLSTACK_CPPFLAGS := -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
    -I$(CURDIR)/common/libc/include -I$(XEN_ROOT)/tools/include -D__XEN_TOOLS__
TOOLS_INCLUDE_STAMP := $(XEN_ROOT)/tools/include/xen/.dir
$(TOOLS_INCLUDE_STAMP):
	$(MAKE) -s --no-print-directory -C $(XEN_ROOT)/tools/include

# Helpers of the control-domain tests themselves, on top of the libraries.
TOOLSTACK_TEST_SRCS := dirty-check.c

TOOLSTACK_OBJS := $(addprefix $(OBJ)/tools/,$(TOOLSTACK_SRCS:.c=.o)) \
                  $(addprefix $(OBJ)/tools/libelf/,$(LIBELF_SRCS:.c=.o)) \
                  $(addprefix $(OBJ)/libc/,$(LIBC_SRCS:.c=.o)) \
                  $(addprefix $(OBJ)/tstest/,$(TOOLSTACK_TEST_SRCS:.c=.o))
TOOLSTACK_LIB := $(OBJ)/libtoolstack.a
TOOLSTACK_ELFS := $(addprefix $(BIN)/,$(addsuffix .elf,$(TOOLSTACK_TESTS)))

$(OBJ)/tools/%.o: $(TOOLS_LIBS)/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(TOOLSTACK_CPPFLAGS) -c $< -o $@

# libelf, part of libxenguest, from the hypervisor's tree.
$(OBJ)/tools/libelf/%.o: $(LIBELF_DIR)/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(TOOLSTACK_CPPFLAGS) -c $< -o $@

# libxenguest sits on libxenctrl's internals (xc_private.h), as in Xen.
$(OBJ)/tools/guest/%.o: TOOLSTACK_CPPFLAGS += -I$(TOOLS_LIBS)/ctrl

# The libc is the guest library's (console, panic): it sees its headers.
$(OBJ)/libc/%.o: common/libc/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(TOOLSTACK_CPPFLAGS) $(GUEST_CPPFLAGS) -c $< -o $@

$(OBJ)/tstest/%.o: common/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) $(TOOLSTACK_CPPFLAGS) $(GUEST_CPPFLAGS) -c $< -o $@

$(TOOLSTACK_LIB): $(TOOLSTACK_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The tests' own main.c sees both the guest library and the toolstack.
$(TOOLSTACK_TESTS:%=$(OBJ)/%/main.o): \
    GUEST_CPPFLAGS := $(TOOLSTACK_CPPFLAGS) $(GUEST_CPPFLAGS)
$(TOOLSTACK_TESTS:%=$(OBJ)/%/main.o): | $(TOOLS_INCLUDE_STAMP)

# A test may carry assembly of its own (tests/<name>/*.S): linked in too.
test_asm_objs = $(patsubst %.S,$(OBJ)/%.o,$(wildcard $(1)/*.S))
$(TOOLSTACK_ELFS): $(BIN)/%.elf: $(OBJ)/%/main.o $$(call test_asm_objs,$$*) \
        $(COMMON_OBJS) $(TOOLSTACK_LIB) $(OBJ)/guest.lds
	$(CC) $(GUEST_LDFLAGS) -Wl,-T,$(OBJ)/guest.lds -o $@ $< \
	    $(filter $(OBJ)/$*/%.o,$(filter-out $<,$^)) \
	    $(TOOLSTACK_LIB) $(COMMON_OBJS)

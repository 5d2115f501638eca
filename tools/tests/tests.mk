# SPDX-License-Identifier: GPL-2.0-only
#
# What the tools' host test suites share (tools/tests/*/Makefile): the
# library sources under test compiled into $(BIN)/lib/ (with the
# sanitizers when the compiler has them), and the one fake hypervisor
# (tools/tests/fake/) they run over, compiled into $(BIN)/fake/.
#
# A suite sets XEN_ROOT, BIN and TEST_LIBS (of: toollog call devicemodel
# ctrl foreignmemory guest; guest brings libelf), then includes this; it
# links $(TEST_LIB_OBJS) $(FAKE_OBJS) (and $(FAKE_CLOCK_OBJ) for the fake
# clock) with its own objects ($(BIN)/<file>.o from <file>.c).

include $(XEN_ROOT)/tools/Rules.mk
include $(XEN_ROOT)/tools/libs/sources.mk

LIBS := $(XEN_ROOT)/tools/libs
FAKE := $(XEN_ROOT)/tools/tests/fake

SANITIZE := $(shell echo 'int main(void){return 0;}' | \
    $(HOSTCC) -fsanitize=address,undefined -x c - -o /dev/null 2>/dev/null \
    && echo -fsanitize=address,undefined -fno-omit-frame-pointer)
TEST_CFLAGS := $(HOSTCFLAGS) -O1 $(SANITIZE) -MMD -MP $(CFLAGS_xeninclude)

# Every library but its Linux backend (the fake is the backend).
TEST_SRCS_toollog       := $(call tool_lib_srcs,toollog,TOOLLOG_SRCS)
TEST_SRCS_call          := $(call tool_lib_srcs,call,CALL_SRCS)
TEST_SRCS_devicemodel   := $(call tool_lib_srcs,devicemodel,DEVICEMODEL_SRCS)
TEST_SRCS_ctrl          := $(call tool_lib_srcs,ctrl,CTRL_SRCS)
TEST_SRCS_foreignmemory := $(call tool_lib_srcs,foreignmemory,FOREIGNMEMORY_SRCS)
TEST_SRCS_guest         := $(call tool_lib_srcs,guest,GUEST_SRCS) \
                           $(call tool_lib_srcs,guest,GUEST_SRCS_OS) \
                           $(addprefix libelf/,$(LIBELF_SRCS))
TEST_LIB_OBJS := $(addprefix $(BIN)/lib/,$(patsubst %.c,%.o, \
                     $(foreach l,$(TEST_LIBS),$(TEST_SRCS_$(l)))))

FAKE_SRCS := fake_call.c fake_dom.c fake_domctl.c fake_sysctl.c \
             fake_memory.c fake_fmem.c fake_state.c fake_hvm.c fake_xs.c \
             fake_suspend.c
FAKE_OBJS := $(addprefix $(BIN)/fake/,$(FAKE_SRCS:.c=.o))
FAKE_CLOCK_OBJ := $(BIN)/fake/fake_clock.o

.SECONDARY:

# libxenguest sits on libxenctrl's internals (xc_private.h), as in Xen.
$(BIN)/lib/guest/%.o: TEST_CFLAGS += -I$(LIBS)/ctrl

$(BIN)/lib/libelf/%.o: $(LIBELF_DIR)/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(TEST_CFLAGS) -c $< -o $@

$(BIN)/lib/%.o: $(LIBS)/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(TEST_CFLAGS) -c $< -o $@

$(BIN)/fake/%.o: $(FAKE)/%.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(TEST_CFLAGS) -c $< -o $@

# A suite's own sources.
$(BIN)/%.o: %.c | $(TOOLS_INCLUDE_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(TEST_CFLAGS) -c $< -o $@

# The privcmd ioctls against Debian's header, which this file alone sees
# (ctrl and guest compare their layouts with ours).
DEBIAN_PRIVCMD := $(if $(wildcard /usr/include/xen/sys/privcmd.h),-DHAVE_DEBIAN_PRIVCMD)
$(BIN)/privcmd-debian.o: privcmd-debian.c
	@mkdir -p $(@D)
	$(HOSTCC) $(HOSTCFLAGS) -MMD -MP $(DEBIAN_PRIVCMD) -c $< -o $@

# The Linux build of the libraries, -Wall -Wextra -Werror like every tools
# build, for a suite's link-check.
.PHONY: linux-libs
linux-libs:
	@$(MAKE) -s -C $(LIBS)

-include $(shell find $(BIN) -name '*.d' 2>/dev/null)

# SPDX-License-Identifier: GPL-2.0-only
#
# Settings shared by everything under tools/ (Xen's tools/Rules.mk idea):
# include it after setting XEN_ROOT.
#
#   CFLAGS_xeninclude     tools/include only: the libraries' headers and the
#                         public ABI as <xen/...> (tools/include/Makefile
#                         makes tools/include/xen/); never xen/include
#   TOOLS_INCLUDE_STAMP   an order-only prerequisite of everything compiled
#                         against CFLAGS_xeninclude
#   LDLIBS_libxen<lib>    what a program links for lib<lib> as Xen's: the
#                         shared library (lib<lib>.so in its directory), with
#                         -rpath-link for what it needs in turn
#   ARCHIVE_libxen<lib>   the same as static archives, with every archive
#                         they need (for dom0's static programs and the tests)
#   XEN_TOOLS_VERSION     the Xen release whose library ABI the tools follow:
#                         the version-named libraries' MAJOR (libxenctrl.so.4.17)

# `all' is the default target of every Makefile that includes this one.
all:

include $(XEN_ROOT)/Config.mk
include $(XEN_ROOT)/config/Paths.mk

XEN_TOOLS_VERSION := 4.17

TOOLS_CFLAGS ?= $(HOSTCFLAGS) -fPIC -MMD -MP
CFLAGS_xeninclude := -I$(XEN_ROOT)/tools/include -D__XEN_TOOLS__
TOOLS_INCLUDE_STAMP := $(XEN_ROOT)/tools/include/xen/.dir

# Made on first use by any Makefile that includes this one.
ifneq ($(TOOLS_INCLUDE_MAKEFILE),y)
$(TOOLS_INCLUDE_STAMP): $(XEN_ROOT)/tools/include/Makefile \
                        $(XEN_ROOT)/xen/include/public
	$(MAKE) -s --no-print-directory -C $(XEN_ROOT)/tools/include
endif

comma := ,

# The libraries below tools/libs (directory, file name, what each uses:
# Xen's tools/libs/uselibs.mk, less the libraries not built here).
TOOLS_LIBS := toollog call foreignmemory devicemodel ctrl guest light util
FILENAME_toollog       := xentoollog
FILENAME_call          := xencall
FILENAME_foreignmemory := xenforeignmemory
FILENAME_devicemodel   := xendevicemodel
FILENAME_ctrl          := xenctrl
FILENAME_guest         := xenguest
FILENAME_light         := xenlight
FILENAME_util          := xlutil
USELIBS_toollog        :=
USELIBS_call           := toollog
USELIBS_foreignmemory  := toollog
USELIBS_devicemodel    := toollog call
USELIBS_ctrl           := toollog call foreignmemory devicemodel
USELIBS_guest          := ctrl
USELIBS_light          := toollog ctrl guest
USELIBS_util           := light

# Every library $(1) needs, directly or not.
xenlibs-dependencies = $(sort $(foreach l,$(1),$(USELIBS_$(l)) \
                           $(call xenlibs-dependencies,$(USELIBS_$(l)))))
xenlibs-rpath = $(addprefix -Wl$(comma)-rpath-link=$(XEN_ROOT)/tools/libs/, \
                    $(call xenlibs-dependencies,$(1)))
xenlibs-archive-order = $(foreach l,$(TOOLS_LIBS_LINK_ORDER),$(filter $(l),$(1)))
TOOLS_LIBS_LINK_ORDER := util light guest ctrl devicemodel foreignmemory call toollog

define xenlib-vars
XEN_libxen$(1)      := $(XEN_ROOT)/tools/libs/$(1)
LDLIBS_libxen$(1)   := $$(call xenlibs-rpath,$(1)) \
                       $(XEN_ROOT)/tools/libs/$(1)/lib$(FILENAME_$(1)).so
ARCHIVE_libxen$(1)  := $$(foreach l,$$(call xenlibs-archive-order,$(1) $$(call xenlibs-dependencies,$(1))), \
                           $(XEN_ROOT)/tools/libs/$$(l)/lib$$(FILENAME_$$(l)).a)
endef
$(foreach l,$(TOOLS_LIBS),$(eval $(call xenlib-vars,$(l))))

# libxenlight talks to xenstored through Debian's libxenstore (libxen-dev:
# Xen's own library, not built here); static programs take its archive and
# the one it needs.
ARCHIVE_libxenstore := -l:libxenstore.a -l:libxentoolcore.a
ARCHIVE_libxenlight += $(ARCHIVE_libxenstore)
ARCHIVE_libxenutil  += $(ARCHIVE_libxenstore)
# ... and libuuid's (uuid-dev), as Xen's libxenlight uses libuuid.
ARCHIVE_libuuid := -l:libuuid.a
ARCHIVE_libxenlight += $(ARCHIVE_libuuid)
ARCHIVE_libxenutil  += $(ARCHIVE_libuuid)

# SPDX-License-Identifier: GPL-2.0-only
#
# Settings shared by everything under tools/ (Xen's tools/Rules.mk idea):
# include it after setting XEN_ROOT.
#
#   CFLAGS_xeninclude     the public headers and tools/include
#   LDLIBS_libxenctrl     what to link for libxenctrl (and its dependencies),
#   LDLIBS_libxendevicemodel, LDLIBS_libxencall, LDLIBS_libxentoollog,
#   LDLIBS_libxenforeignmemory, LDLIBS_libxenguest
#                         likewise, as static archives

include $(XEN_ROOT)/Config.mk

TOOLS_CFLAGS ?= $(HOSTCFLAGS) -fPIC -MMD -MP
CFLAGS_xeninclude := -I$(XEN_ROOT)/tools/include -I$(XEN_ROOT)/xen/include \
                     -D__XEN_TOOLS__

XEN_libxentoollog      := $(XEN_ROOT)/tools/libs/toollog
XEN_libxencall         := $(XEN_ROOT)/tools/libs/call
XEN_libxendevicemodel  := $(XEN_ROOT)/tools/libs/devicemodel
XEN_libxenctrl         := $(XEN_ROOT)/tools/libs/ctrl
XEN_libxenforeignmemory := $(XEN_ROOT)/tools/libs/foreignmemory
XEN_libxenguest        := $(XEN_ROOT)/tools/libs/guest

LDLIBS_libxentoollog     := $(XEN_libxentoollog)/libxentoollog.a
LDLIBS_libxencall        := $(XEN_libxencall)/libxencall.a $(LDLIBS_libxentoollog)
LDLIBS_libxendevicemodel := $(XEN_libxendevicemodel)/libxendevicemodel.a \
                            $(LDLIBS_libxencall)
LDLIBS_libxenctrl        := $(XEN_libxenctrl)/libxenctrl.a \
                            $(LDLIBS_libxendevicemodel)
LDLIBS_libxenforeignmemory := $(XEN_libxenforeignmemory)/libxenforeignmemory.a \
                              $(LDLIBS_libxentoollog)
LDLIBS_libxenguest       := $(XEN_libxenguest)/libxenguest.a \
                            $(LDLIBS_libxenforeignmemory) $(LDLIBS_libxenctrl)

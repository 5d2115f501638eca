# SPDX-License-Identifier: GPL-2.0-only
#
# The sources of each tool library, listed once for every build that
# compiles them: the libraries' own Makefiles (Linux), the control-domain
# test kernels (tests/common/libc/toolstack.mk) and the host tests
# (tools/tests/*).  A backend (linux.c, or the test kernels' direct.c) is
# added by the build that needs it.
#
#   <LIB>_SRCS      need no operating system
#   GUEST_SRCS_OS   libxenguest's reading of a kernel from a file
#   LIBELF_SRCS     libelf, in LIBELF_DIR (the hypervisor's tree): part of
#                   libxenguest, as in Xen; every build of libxenguest
#                   compiles these too (with __XEN_TOOLS__ defined)

TOOLLOG_SRCS       := xtl_core.c xtl_logger_stdio.c
CALL_SRCS          := core.c buffer.c
DEVICEMODEL_SRCS   := core.c
CTRL_SRCS          := xc_private.c xc_hcall_buf.c xc_domain.c xc_logdirty.c \
                      xc_misc.c xc_version.c xc_dirty_stats.c xc_domain_build.c \
                      xc_domain_memory.c xc_evtchn.c
FOREIGNMEMORY_SRCS := core.c
# libxenguest's save/restore (the migration stream)
GUEST_SR_SRCS      := xg_sr_common.c xg_sr_common_x86.c xg_sr_save.c \
                      xg_sr_save_policy.c xg_sr_save_x86_hvm.c \
                      xg_sr_restore.c xg_sr_restore_x86_hvm.c
GUEST_SRCS         := xg_dom_core.c xg_dom_elfloader.c xg_dom_boot.c xg_dom_x86.c \
                      xg_resume.c $(GUEST_SR_SRCS)
GUEST_SRCS_OS      := xg_dom_file.c
LIBELF_DIR         := $(XEN_ROOT)/xen/common/libelf
LIBELF_SRCS        := libelf-tools.c libelf-loader.c libelf-dominfo.c

# $(call tool_lib_srcs,DIR,VAR): VAR's sources as paths below tools/libs.
tool_lib_srcs = $(addprefix $(1)/,$($(2)))
# libxenlight (libxl); _libxl_types.c is generated from libxl_types.idl
LIGHT_SRCS         := libxl.c libxl_domain.c libxl_create.c libxl_console.c \
                      libxl_dirty.c libxl_json.c libxl_utils.c libxl_uuid.c libxl_mem.c _libxl_types.c \
                      libxl_numa.c libxl_device.c libxl_cpupool.c libxl_vcpu.c \
                      libxl_json_parse.c \
                      libxl_stream_write.c libxl_stream_read.c libxl_xshelp.c libxl_dom.c \
                      libxl_dom_suspend.c libxl_x86_acpi.c libxl_event.c

# SPDX-License-Identifier: GPL-2.0-only
# xl's sources but xl.c (its main), once: tools/xl/Makefile builds xl from
# them, tools/tests/xl/Makefile links them into its test xl.  A new
# command's file goes here only.
XL_CMD_SRCS := xl_cmdtable.c xl_utils.c xl_info.c xl_vmcontrol.c xl_parse.c \
               xl_dirty.c xl_saverestore.c xl_migrate.c xl_mem.c xl_console.c \
               xl_nic.c xl_block.c xl_conf.c xl_vcpu.c xl_monitor.c

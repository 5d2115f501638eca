# SPDX-License-Identifier: GPL-2.0-only
#
# Where `make install` puts things: Xen's config/Paths.mk names, with the
# defaults Xen's ./configure gives (prefix /usr/local).  There is no
# configure step here: set any of them on the command line, e.g.
#   make install DESTDIR=/tmp/root prefix=/usr libdir=/usr/lib/x86_64-linux-gnu
# Everything but DESTDIR ends up inside the pkg-config files, so a program
# built against an installed tree finds it where it runs.

prefix          ?= /usr/local
exec_prefix     ?= $(prefix)
bindir          ?= $(exec_prefix)/bin
sbindir         ?= $(exec_prefix)/sbin
libdir          ?= $(exec_prefix)/lib
includedir      ?= $(prefix)/include
datarootdir     ?= $(prefix)/share
mandir          ?= $(datarootdir)/man
sysconfdir      ?= /etc

MAN1DIR         := $(mandir)/man1
MAN3DIR         := $(mandir)/man3
MAN5DIR         := $(mandir)/man5
PKG_INSTALLDIR  := $(libdir)/pkgconfig
XEN_CONFIG_DIR  := $(sysconfdir)/xen
# Xen 4.17's (CONFIG_DIR/bash_completion.d); Debian's packages use
# BASH_COMPLETION_DIR=/usr/share/bash-completion/completions
BASH_COMPLETION_DIR ?= $(sysconfdir)/bash_completion.d

INSTALL         ?= install
INSTALL_DIR     := $(INSTALL) -d -m0755
INSTALL_DATA    := $(INSTALL) -m0644
INSTALL_PROG    := $(INSTALL) -m0755
INSTALL_SHLIB   := $(INSTALL) -m0755
SYMLINK_SHLIB   := ln -sf

# SPDX-License-Identifier: GPL-2.0-only
#
# Building one tool library, as Xen's tools/libs/libs.mk: the static
# archive lib$(LIB).a and the shared library lib$(LIB).so.$(MAJOR).$(MINOR)
# (soname lib$(LIB).so.$(MAJOR), symbols versioned by libxen$(LIBNAME).map),
# with the links lib$(LIB).so.$(MAJOR) and lib$(LIB).so; `make install`
# puts them, the library's headers and its pkg-config file where Xen does.
#
# A library's Makefile sets XEN_ROOT, LIB (the file name: xenctrl) and SRCS,
# then includes this.  Optionally:
#   MAJOR, MINOR       the stable libraries' (libxencall.so.1.3); by default
#                      the Xen release and 0 (libxenctrl.so.4.17.0)
#   PKG_CONFIG         the pkg-config file (default $(LIB).pc)
#   PKG_CONFIG_NAME    its Name (default Xen<directory>), PKG_CONFIG_DESC
#   LIBHEADER          headers of tools/include installed in $(includedir)
#   LDLIBS-$(LIB)      what else the shared library needs (-lyajl)
#   EXTRA_OBJS         objects with rules of their own (libxl: acpi_build.o)
#
# One set of objects, compiled -fPIC (TOOLS_CFLAGS), makes both the archive
# and the shared library.  The version script is libxen$(LIBNAME).map:
# committed for the stable libraries (Xen's nodes, VERS_1.0 ...), made here
# as Xen makes it for the others (VERS_4.17.0 { global: *; }).

include $(XEN_ROOT)/tools/Rules.mk

LIBNAME := $(notdir $(CURDIR))
ifeq ($(origin MAJOR), undefined)
MAJOR := $(XEN_TOOLS_VERSION)
endif
MINOR ?= 0

OBJS := $(SRCS:.c=.o) $(EXTRA_OBJS)
SHLIB := lib$(LIB).so.$(MAJOR).$(MINOR)
MAPFILE := libxen$(LIBNAME).map
MAP_GENERATED := $(if $(wildcard $(MAPFILE)),,y)

PKG_CONFIG ?= $(LIB).pc
PKG_CONFIG_NAME ?= Xen$(LIBNAME)
PKG_CONFIG_DESC ?= The $(PKG_CONFIG_NAME) library for Xen hypervisor
# Xen's Requires.private: its own libraries, libxenctrl's called xencontrol.
PKG_CONFIG_REQPRIV := $(subst $() ,$(comma),$(strip $(foreach l, \
    $(patsubst ctrl,control,$(USELIBS_$(LIBNAME))),xen$(l))))

SHLIB_LDLIBS := $(foreach l,$(USELIBS_$(LIBNAME)),$(LDLIBS_libxen$(l))) \
                $(LDLIBS-$(LIB))

.PHONY: all clean install uninstall
all: lib$(LIB).a lib$(LIB).so

lib$(LIB).a: $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHLIB): $(OBJS) $(MAPFILE)
	$(HOSTCC) -shared -Wl,-soname,lib$(LIB).so.$(MAJOR) \
	    -Wl,--version-script=$(MAPFILE) -Wl,--no-undefined \
	    -o $@ $(OBJS) $(SHLIB_LDLIBS)
lib$(LIB).so.$(MAJOR): $(SHLIB)
	$(SYMLINK_SHLIB) $< $@
lib$(LIB).so: lib$(LIB).so.$(MAJOR)
	$(SYMLINK_SHLIB) $< $@

ifeq ($(MAP_GENERATED),y)
$(MAPFILE): $(XEN_ROOT)/tools/Rules.mk
	echo 'VERS_$(MAJOR).$(MINOR) { global: *; };' >$@
endif

%.o: %.c | $(TOOLS_INCLUDE_STAMP)
	$(HOSTCC) $(TOOLS_CFLAGS) $(CFLAGS_xeninclude) $(CFLAGS-$(LIB)) -c $< -o $@

# The pkg-config file, as Xen writes it, for the paths installed to.
define pkg-config-file
prefix=$(prefix)
includedir=$(includedir)
libdir=$(libdir)

Name: $(PKG_CONFIG_NAME)
Description: $(PKG_CONFIG_DESC)
Version: $(MAJOR).$(MINOR)
Cflags: -I$${includedir}
Libs: -L$${libdir} -l$(LIB)
Libs.private: 
Requires.private: $(PKG_CONFIG_REQPRIV)
endef

# Written at each install, for the paths of that install.
.PHONY: $(PKG_CONFIG)
$(PKG_CONFIG):
	$(file >$@,$(pkg-config-file))

install: all $(PKG_CONFIG)
	$(INSTALL_DIR) $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) \
	    $(DESTDIR)$(PKG_INSTALLDIR)
	$(INSTALL_SHLIB) $(SHLIB) $(DESTDIR)$(libdir)
	$(INSTALL_DATA) lib$(LIB).a $(DESTDIR)$(libdir)
	$(SYMLINK_SHLIB) $(SHLIB) $(DESTDIR)$(libdir)/lib$(LIB).so.$(MAJOR)
	$(SYMLINK_SHLIB) lib$(LIB).so.$(MAJOR) $(DESTDIR)$(libdir)/lib$(LIB).so
	for h in $(LIBHEADER); do \
	    $(INSTALL_DATA) $(XEN_ROOT)/tools/include/$$h $(DESTDIR)$(includedir) || exit 1; \
	done
	$(INSTALL_DATA) $(PKG_CONFIG) $(DESTDIR)$(PKG_INSTALLDIR)

uninstall:
	rm -f $(DESTDIR)$(PKG_INSTALLDIR)/$(PKG_CONFIG)
	for h in $(LIBHEADER); do rm -f $(DESTDIR)$(includedir)/$$h; done
	rm -f $(DESTDIR)$(libdir)/lib$(LIB).so $(DESTDIR)$(libdir)/lib$(LIB).so.$(MAJOR) \
	    $(DESTDIR)$(libdir)/$(SHLIB) $(DESTDIR)$(libdir)/lib$(LIB).a

clean:
	rm -f *.o *.d *.a lib$(LIB).so* $(PKG_CONFIG)
	$(if $(MAP_GENERATED),rm -f $(MAPFILE))

-include $(OBJS:.o=.d)

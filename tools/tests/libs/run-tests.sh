#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tool libraries as a Xen user gets them (run by "make -C
# tools/tests/libs", which builds bin/fake-lib/libxencall.so.1, the fake
# hypervisor as a libxencall, and bin/bad/, a library abi-check.sh must
# refuse):
#   1. sonames, the files and links, version nodes: Xen 4.17's;
#   2. the stable libraries export exactly their version script's symbols;
#      every symbol Debian's libxen* exports that ours does too has the
#      same version node (abi-check.sh, seen to refuse a wrong node);
#   3. make install DESTDIR= prefix=/usr libdir=<Debian's multiarch>: Xen's
#      paths, headers, pkg-config files, man pages; pkg-config --cflags
#      --libs xenlight against the installed tree builds and links a
#      client, which runs on the installed libraries over the fake;
#   4. the same client built against Debian's libxen-dev (its headers and
#      libraries: -lxenlight -lxenctrl -lxentoollog) runs on ours: with
#      Debian's layouts it reads the domain list and a libxl_dominfo, has
#      our library initialise (Xen's defaults), copy and print as JSON a
#      libxl_domain_config it filled, lists a domain's vCPUs
#      (libxl_vcpuinfo) and reads back the configuration libxl
#      reconstructs for it.
# The last line is "N passed, N failed"; the exit status is 1 on failure.
set -u
cd "$(dirname "$0")"
. ../lib.sh
XEN_ROOT=${XEN_ROOT:-$(cd ../../.. && pwd)}
L=$XEN_ROOT/tools/libs
DEB=/usr/lib/x86_64-linux-gnu
FAKE_LIB=$BIN/fake-lib

# lib directory, file name, soname, Xen's version nodes
LIBS='toollog       libxentoollog.so.1.0        libxentoollog.so.1        VERS_1.0
call          libxencall.so.1.3           libxencall.so.1           VERS_1.0,VERS_1.1,VERS_1.2,VERS_1.3
foreignmemory libxenforeignmemory.so.1.4  libxenforeignmemory.so.1  VERS_1.0,VERS_1.1,VERS_1.2,VERS_1.3,VERS_1.4
devicemodel   libxendevicemodel.so.1.4    libxendevicemodel.so.1    VERS_1.0,VERS_1.1,VERS_1.2,VERS_1.3,VERS_1.4
ctrl          libxenctrl.so.4.17.0        libxenctrl.so.4.17        VERS_4.17.0
guest         libxenguest.so.4.17.0       libxenguest.so.4.17       VERS_4.17.0
light         libxenlight.so.4.17.0       libxenlight.so.4.17       VERS_4.17.0
util          libxlutil.so.4.17.0         libxlutil.so.4.17         VERS_4.17.0'

verdefs() {   # the version nodes a library defines, comma-separated
    readelf -V -W "$1" | sed -n '/Version definition/,/Version needs/p' |
        grep -o 'Name: [A-Za-z0-9_.]*' | sed 's/Name: //' | grep -v '\.so\.' | paste -sd,
}

# ---- 1. sonames and version nodes ---------------------------------------------------

while read -r dir file soname nodes; do
    begin "$file: soname $soname, links, version nodes $nodes"
    f=$L/$dir/$file
    if [ ! -f "$f" ]; then
        problem "no $f"
    else
        got=$(readelf -d "$f" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
        [ "$got" = "$soname" ] || problem "soname '$got'"
        [ "$(readlink "$L/$dir/$soname")" = "$file" ] || problem "$soname -> $(readlink "$L/$dir/$soname")"
        [ "$(readlink "$L/$dir/${soname%.so.*}.so")" = "$soname" ] ||
            problem "${soname%.so.*}.so -> $(readlink "$L/$dir/${soname%.so.*}.so")"
        got=$(verdefs "$f")
        [ "$got" = "$nodes" ] || problem "version nodes '$got'"
        unversioned=$(./exports.sh "$f" | awk '$2 == "-"')
        [ -z "$unversioned" ] || problem "unversioned exports: $unversioned"
        # PIC: no text relocations
        readelf -d "$f" | grep -q TEXTREL && problem "text relocations"
        [ -f "$L/$dir/${soname%.so.*}.a" ] || problem "no static archive"
    fi
    end
done <<<"$LIBS"

# ---- 2. exports, and the ABI against Debian's builds ----------------------------------

for m in toollog/libxentoollog call/libxencall foreignmemory/libxenforeignmemory \
         devicemodel/libxendevicemodel; do
    lib=${m#*/}
    begin "$lib.so.1 exports exactly what $lib.map lists"
    want=$(sed -n 's/^[[:space:]]*\([A-Za-z_0-9]*\);$/\1/p' "$L/$m.map" | sort)
    got=$(./exports.sh "$L/${m%/*}/$lib.so.1" | awk '{ print $1 }')
    [ "$want" = "$got" ] || problem "map: $(echo $want), exported: $(echo $got)"
    end
done

begin "abi-check.sh refuses a symbol in the wrong version node"
out=$(./abi-check.sh "$BIN/bad/libxencall.so.1" "$DEB/libxencall.so.1" 2>&1)
rc=$?
[ $rc -eq 1 ] && [ "$out" = "xencall_fd: ours VERS_1.0, Xen's VERS_1.2" ] ||
    problem "rc $rc: $out"
end

while read -r dir file soname nodes; do
    begin "$soname: Debian's exports that ours has carry Debian's version nodes"
    if [ ! -e "$DEB/$soname" ]; then
        problem "no $DEB/$soname: install libxen-dev (tools/misc/install-deps.sh)"
    elif ! out=$(./abi-check.sh "$L/$dir/$file" "$DEB/$soname"); then
        problem "$out"
    else
        echo "    $out"
    fi
    end
done <<<"$LIBS"

# ---- 3. make install -------------------------------------------------------------------

R=$W/root
MULTI=/usr/lib/x86_64-linux-gnu
begin "make install DESTDIR= prefix=/usr libdir=$MULTI: Xen's paths"
if ! out=$(make -s -C "$XEN_ROOT" install DESTDIR="$R" prefix=/usr libdir=$MULTI 2>&1); then
    problem "make install failed: $out"
fi
while read -r dir file soname nodes; do
    base=${soname%.so.*}
    [ -f "$R$MULTI/$file" ] || problem "no $MULTI/$file"
    [ "$(readlink "$R$MULTI/$soname")" = "$file" ] || problem "$soname -> $(readlink "$R$MULTI/$soname")"
    [ "$(readlink "$R$MULTI/$base.so")" = "$soname" ] || problem "$base.so -> $(readlink "$R$MULTI/$base.so")"
    [ -f "$R$MULTI/$base.a" ] || problem "no $MULTI/$base.a"
done <<<"$LIBS"
for f in usr/sbin/xl usr/sbin/xentop usr/include/xenctrl.h usr/include/xenguest.h \
         usr/include/xencall.h usr/include/xenforeignmemory.h usr/include/xendevicemodel.h \
         usr/include/xentoollog.h usr/include/libxl.h usr/include/libxl_utils.h \
         usr/include/_libxl_types.h usr/include/libxlutil.h usr/include/xen/domctl.h \
         usr/include/xen/hvm/save.h usr/include/xen/arch-x86/xen.h usr/include/xen/sys/privcmd.h \
         usr/share/man/man1/xl.1 usr/share/man/man1/xentop.1 usr/share/man/man3/libxl.3 \
         usr/share/man/man5/xl.cfg.5 usr/share/man/man5/xl.conf.5 \
         etc/bash_completion.d/xl; do
    [ -f "$R/$f" ] || problem "no /$f"
done
for pc in xencall xencontrol xendevicemodel xenforeignmemory xenguest xenlight xentoollog xlutil; do
    [ -f "$R$MULTI/pkgconfig/$pc.pc" ] || problem "no $pc.pc"
done
[ -x "$R/usr/sbin/xl" ] && ! readelf -d "$R/usr/sbin/xl" | grep -q 'libxenlight.so.4.17' &&
    problem "xl does not link libxenlight.so.4.17"
[ -e "$R/usr/include/xen/ext/dirty_stats.h" ] || problem "no xen/ext/dirty_stats.h"
[ -d "$R/usr/include/public" ] && problem "a public/ directory was installed"
end

begin "the man pages are roff with their NAME"
for p in man1/xl.1 man1/xentop.1 man3/libxl.3 man5/xl.cfg.5 man5/xl.conf.5; do
    f=$R/usr/share/man/$p
    name=$(basename "$p"); name=${name%.*}
    head -n 30 "$f" 2>/dev/null | grep -q "^\.TH \"$name\" \"${p##*.}\"" || problem "$p: no .TH $name"
    lexgrog "$f" 2>/dev/null | grep -q "\"$name - " || problem "$p: no NAME line ($(lexgrog "$f" 2>&1))"
done
end

export PKG_CONFIG_SYSROOT_DIR=$R PKG_CONFIG_LIBDIR=$R$MULTI/pkgconfig
begin "pkg-config: Xen's files, Requires.private as Xen's less what is not built"
run pkg-config --cflags --libs xenlight
sed -i 's/ *$//' "$W/out"
want_out <<<"-I$R/usr/include -L$R$MULTI -lxenlight"
run pkg-config --modversion xenlight xencontrol xlutil xencall xenforeignmemory xendevicemodel xentoollog
want_out <<'EOF2'
4.17.0
4.17.0
4.17.0
1.3
1.4
1.4
1.0
EOF2
run pkg-config --print-requires-private xenlight
want_out <<'EOF2'
xentoollog
xencontrol
xenguest
EOF2
run pkg-config --print-requires-private xencontrol
want_out <<'EOF2'
xentoollog
xencall
xenforeignmemory
xendevicemodel
EOF2
run pkg-config --static --libs xenlight
want_out_has '-lxenlight .*-lxenctrl .*-lxenguest'
end

# The machine the clients see, and what they must print and do.
machine() {
    rm -rf "$W/run"
    mkdir -p "$W/run"
    cat >"$W/state" <<'EOF2'
domain 0 flags=running tot=262144 max=262144 vcpus=2 maxvcpu=1 cpu=41200000000
domain 5 uuid=5a1e0000-0000-4000-8000-000000000005 flags=running tot=32768 max=32768 vcpus=2 maxvcpu=1 cpu=900000000
EOF2
    : >"$W/log"
}
CLIENT_OUT='xen 4.17: 1 CPUs at 2400000 kHz, 131072 of 524288 pages free
domain 0: 1048576 KiB, 2 vCPUs
domain 5: 131072 KiB, 2 vCPUs
domain 5: max 131072 KiB, cpu 900000000 ns
{
    "c_info": {
        "type": "pvh",
        "name": "client"
    },
    "b_info": {
        "max_vcpus": 2,
        "max_memkb": 65536,
        "target_memkb": 65536,
        "sched_params": {

        },
        "kernel": "/boot/guest",
        "cmdline": "console=hvc0",
        "type.pvh": {
            "pvshim_path": "/shim"
        },
        "arch_arm": {

        },
        "arch_x86": {
            "msr_relaxed": "True"
        },
        "vmtrace_buf_kb": 64,
        "vpmu": "False"
    },
    "on_crash": "preserve"
}
from_json: same
create with a disk: ni, domid invalid
vcpu 0: online, cpu 0, 900000000 ns, hard 0, soft 0
vcpu 1: online, cpu 0, 0 ns, hard 0, soft 0
domain 5: pvh, 2 vCPUs, 131072 KiB, on_crash destroy'
# Which file the dynamic linker loads for a library (ldd).
loaded() {   # program library
    LD_LIBRARY_PATH=$LDPATH ldd "$1" | awk -v l="$2" '$1 == l { print $3 }'
}
check_loaded() {   # program: ours (from dir), the fake's libxencall
    local dir=$2
    [ "$(loaded "$1" libxenlight.so.4.17)" = "$dir/libxenlight.so.4.17" ] ||
        problem "libxenlight.so.4.17 from '$(loaded "$1" libxenlight.so.4.17)'"
    [ "$(loaded "$1" libxenctrl.so.4.17)" = "$dir/libxenctrl.so.4.17" ] ||
        problem "libxenctrl.so.4.17 from '$(loaded "$1" libxenctrl.so.4.17)'"
    [ "$(loaded "$1" libxencall.so.1)" = "$FAKE_LIB/libxencall.so.1" ] ||
        problem "libxencall.so.1 from '$(loaded "$1" libxencall.so.1)'"
}

begin "a client built with pkg-config against the installed tree runs on it"
LDPATH=$FAKE_LIB:$R$MULTI
if ! out=$(gcc -Wall -Werror client.c -o "$W/client-pc" \
               $(pkg-config --cflags --libs xenlight xencontrol xentoollog) \
               -Wl,-rpath-link="$R$MULTI" 2>&1); then
    problem "build: $out"
else
    check_loaded "$W/client-pc" "$R$MULTI"
    machine
    LD_LIBRARY_PATH=$LDPATH run "$W/client-pc" 5
    want_rc 0
    want_out <<<"$CLIENT_OUT"
    want_log <<<$'pause 5\nunpause 5'
fi
end
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR

begin "a client built against Debian's libxen-dev runs on our libraries"
LDPATH=$FAKE_LIB:$R$MULTI
if [ ! -f /usr/include/libxl.h ] || [ ! -e "$DEB/libxenlight.so" ]; then
    problem "no libxen-dev: install it (tools/misc/install-deps.sh)"
elif ! out=$(env -u CPATH gcc -Wall -Werror client.c -o "$W/client-debian" \
                 -lxenlight -lxenctrl -lxentoollog 2>&1); then
    problem "build: $out"
else
    # Linked against Debian's: it asks for Xen's version nodes.
    readelf -V "$W/client-debian" | grep -A1 'File: libxenctrl.so.4.17' | grep -q 'Name: VERS_4.17.0' ||
        problem "no VERS_4.17.0 of libxenctrl.so.4.17 needed"
    check_loaded "$W/client-debian" "$R$MULTI"
    machine
    LD_LIBRARY_PATH=$LDPATH run "$W/client-debian" 5
    want_rc 0
    want_out <<<"$CLIENT_OUT"
    want_log <<<$'pause 5\nunpause 5'
    # An unknown domain: libxl says so, nothing paused.
    machine
    LD_LIBRARY_PATH=$LDPATH run "$W/client-debian" 9
    want_rc 1
    want_log </dev/null
fi
end

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build, the tests and `make run` need,
# if any is missing.  Idempotent and quiet when everything is there.
#
#   install-deps.sh [dom0|test]
#
# dom0: also what `make run-dom0` and tests/dom0-linux/run.sh need on this
# machine: xz to unpack Debian's kernel, libc.a to link xl statically.  The kernel and busybox-static
# themselves are only downloaded (apt-get download), never installed here.
set -euo pipefail

PACKAGES=(
    gcc make binutils            # toolchain
    python3                      # build helpers
    bochs bochsbios vgabios bochs-term   # the emulated machine (VMX, EPT, PML, PLE)
    grub-pc-bin grub-common xorriso mtools   # the boot ISO
    libxen-dev                   # Xen's public headers, for the ABI comparison
    libyajl-dev                  # JSON for the toolstack
    uuid-dev                     # libuuid: libxl's UUIDs, as Xen's
    libncurses-dev               # xentop's screen
)
# test: what tools/tests/xentop drives xentop's screen with; pandoc, which
# renders the man pages in `make install` (tools/tests/libs installs).
if [ "${1:-}" = test ]; then
    PACKAGES+=(tmux pandoc)
fi
if [ "${1:-}" = dom0 ]; then
    PACKAGES+=(xz-utils          # the bzImage's XZ payload (tools/dom0)
               libc6-dev)        # libc.a for the static xl (libyajl_s.a: libyajl-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo > /dev/null; then
        echo "install-deps: missing: ${missing[*]}; not root and no sudo: as root," \
             "apt-get install ${missing[*]}" >&2
        exit 1
    fi
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
fail() {
    echo "install-deps: could not install ${missing[*]} ($1); by hand:" \
         "apt-get install ${missing[*]}" >&2
    exit 1
}
$SUDO apt-get update -qq || fail "apt-get update failed"
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null ||
    fail "apt-get install failed"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build, the tests and `make run` need,
# if any is missing.  Idempotent and quiet when everything is there.
set -euo pipefail

PACKAGES=(
    gcc make binutils            # toolchain
    python3                      # build helpers
    bochs bochsbios vgabios bochs-term   # the emulated machine (VMX, EPT, PML, PLE)
    grub-pc-bin grub-common xorriso mtools   # the boot ISO
    libxen-dev                   # Xen's public headers, for the ABI comparison
    libyajl-dev                  # JSON for the toolstack
)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

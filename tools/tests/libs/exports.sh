#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The symbols a shared library exports, one "name version" a line, sorted
# (version "-" for an unversioned one), from `readelf --dyn-syms`: defined
# functions and objects, not the version nodes' own ABS entries.
#
#   exports.sh LIBRARY
set -euo pipefail
readelf --dyn-syms -W "$1" |
    awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && $7 != "ABS" &&
         ($5 == "GLOBAL" || $5 == "WEAK") && ($4 == "FUNC" || $4 == "OBJECT") {
             n = $8; v = "-"
             if (index(n, "@@")) { v = substr(n, index(n, "@@") + 2); n = substr(n, 1, index(n, "@@") - 1) }
             else if (index(n, "@")) { v = substr(n, index(n, "@") + 1); n = substr(n, 1, index(n, "@") - 1) }
             print n, v
         }' | sort -u

#!/usr/bin/env bash
# Rebuild cardforge/export/icc/cardforge-fogra39-240.icc from Fogra's FOGRA39L data.
# Needs Debian's icc-profiles-free (the data, Zlib licence) and argyll (colprof).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
cp /usr/share/color/icc/FOGRA39L.ti3 "$work/"
cd "$work"
colprof -qm -kr -l240 -L98 \
  -D "cardforge CMYK (FOGRA39L data, total ink 240 %)" \
  -C "Built by cardforge from FOGRA39L.ti3 (Zlib licence, icc-profiles-free)" FOGRA39L
cp FOGRA39L.icc "$here/cardforge/export/icc/cardforge-fogra39-240.icc"
rm -rf "$work"

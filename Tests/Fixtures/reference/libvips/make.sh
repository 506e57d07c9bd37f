#!/bin/sh
# Reference outputs of vipsthumbnail (libvips 8.14.1, Debian 12's libvips-tools, Orc enabled) for
# LibvipsReduceTests: each line of cases.txt is "SOURCE SIZE OUTPUT [CROP]" with SOURCE in Corpus/sources,
# SIZE as vipsthumbnail --size takes it ("24x24" fits, "31x17!" forces both sizes) and CROP, when
# present, the --smartcrop of a fill (low, centre or high).
# Regenerate from the repository root: sh Tests/Fixtures/reference/libvips/make.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
vips --version | grep -q '^vips-8.14' || {
  echo "make.sh: needs libvips 8.14 (found: $(vips --version 2>&1))" >&2; exit 1; }
while read -r source size output crop; do
  vipsthumbnail "Corpus/sources/$source" --size "$size" ${crop:+--smartcrop "$crop"} -o "$here/$output"
done < "$here/cases.txt"

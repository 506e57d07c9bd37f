#!/bin/sh
# A stock libvips resizer: its thumbnail command as its documentation shows, for `imglab run --resizer cmd:`.
#
# Usage: vips_stock.sh IN OUT MODE WIDTH HEIGHT SMARTCROP
#   aspectFit    vipsthumbnail IN --size WxH -o OUT
#   scaleToFill  vipsthumbnail IN --size WxH! -o OUT
#   aspectFill   vipsthumbnail IN --size WxH --smartcrop SMARTCROP -o OUT (low, centre or high)
# vipsthumbnail has no "fill without crop"; that mode exits 1. Nothing else is done: libvips' defaults
# (shrink-on-load, sRGB averaging, the EXIF orientation applied) decide the rest. Not tuned to pass.
set -eu
in=$1 out=$2 mode=$3 w=$4 h=$5 crop=${6:-centre}
case $mode in
  aspectFit) exec vipsthumbnail "$in" --size "${w}x${h}" -o "$out" ;;
  scaleToFill) exec vipsthumbnail "$in" --size "${w}x${h}!" -o "$out" ;;
  aspectFill) exec vipsthumbnail "$in" --size "${w}x${h}" --smartcrop "$crop" -o "$out" ;;
  *) echo "vips_stock.sh: mode $mode is not supported by vipsthumbnail" >&2; exit 1 ;;
esac

#!/usr/bin/env python3
"""A stock Pillow resizer, written the way Pillow's documentation shows, for `imglab run --resizer cmd:`.

Usage: pillow_stock.py IN OUT MODE WIDTH HEIGHT ANCHORX ANCHORY
  scaleToFill            Image.resize((W, H), LANCZOS)
  aspectFit              ImageOps.contain(im, (W, H), LANCZOS)
  aspectFill             ImageOps.fit(im, (W, H), LANCZOS, centering=(ANCHORX, ANCHORY))
  aspectFillWithoutCrop  ImageOps.cover(im, (W, H), LANCZOS)

The EXIF orientation is applied first (ImageOps.exif_transpose), as the documentation recommends. Nothing
else is done: no palette conversion, no colour management; Pillow's defaults decide the rest. Writes a PNG.
Not tuned to pass: a stock script, to measure how the lab judges a resizer plugged in with no config.
"""
import sys

from PIL import Image, ImageOps


def main(argv):
    if len(argv) != 7:
        sys.stderr.write(__doc__)
        return 2
    src, out, mode = argv[0], argv[1], argv[2]
    w, h, ax, ay = int(argv[3]), int(argv[4]), float(argv[5]), float(argv[6])
    with Image.open(src) as im:
        im = ImageOps.exif_transpose(im)
        if mode == "scaleToFill":
            result = im.resize((w, h), Image.Resampling.LANCZOS)
        elif mode == "aspectFit":
            result = ImageOps.contain(im, (w, h), Image.Resampling.LANCZOS)
        elif mode == "aspectFill":
            result = ImageOps.fit(im, (w, h), Image.Resampling.LANCZOS, centering=(ax, ay))
        elif mode == "aspectFillWithoutCrop":
            result = ImageOps.cover(im, (w, h), Image.Resampling.LANCZOS)
        else:
            sys.stderr.write(f"pillow_stock.py: mode {mode!r} is not supported\n")
            return 1
        result.save(out, "PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Pillow as an external resizer of the imglab lab (see pillow.json and README, "External resizers").

Usage: pillow_resize.py IN OUT OPERATION [ARGS...]   (the lab's operation and content mode names)
  orient                                copy (Pillow does not apply EXIF orientation: pillow.json declares it)
  resize scaleToFill W H                Image.resize((W, H), LANCZOS)
  resize aspectFit W H                  ImageOps.contain((W, H), LANCZOS)
  resize aspectFill W H AX AY           ImageOps.fit((W, H), LANCZOS, centering=(AX, AY))
  resize aspectFillWithoutCrop W H      ImageOps.cover((W, H), LANCZOS)
  crop X Y W H                          Image.crop((X, Y, X + W, Y + H)) (integral rectangle given by imglab)
  transparentBorder N                   ImageOps.expand(border=N, fill transparent) on RGBA
  maxPixelSize N                        Image.thumbnail((N, N), LANCZOS): never enlarges

Written the way Pillow is normally used, with its defaults, and with the one fix every Pillow
user needs: palette ("P", "PA") and 1-bit images are converted to RGBA / RGB / L first, because
Image.resize silently falls back to NEAREST for modes "1" and "P". Pillow averages the stored
(sRGB-encoded) values and premultiplies RGBA while resampling. Writes a PNG. Exit status 1 with a
message on stderr for anything it cannot do. Not a dependency of imglab: a peer for `imglab league`.
"""
import sys

from PIL import Image, ImageOps


def usable(im):
    """A mode Image.resize resamples properly (not NEAREST)."""
    if im.mode in ("P", "PA"):
        return im.convert("RGBA" if ("transparency" in im.info or im.mode == "PA") else "RGB")
    if im.mode == "1":
        return im.convert("L")
    if im.mode == "CMYK":
        return im.convert("RGB")
    return im


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    src, out, kind, args = argv[0], argv[1], argv[2], argv[3:]
    im = Image.open(src)
    im.seek(0)  # first frame of an animation (pillow.json declares firstFrameOnly)
    # Convert before any resampling, thumbnail() included: a "P" image would be resampled with
    # NEAREST (the lab caught exactly that: a half-pixel "pixel-shift" on palette PNG/GIF maxPixelSize-40).
    # usable() leaves a JPEG unloaded, so thumbnail() can still use draft (DCT-domain) decoding.
    im = usable(im)
    if kind == "maxPixelSize":
        n = int(args[0])
        im.thumbnail((n, n), Image.Resampling.LANCZOS)  # may use JPEG draft mode, as Pillow does by default
        im.save(out, "PNG")
        return 0
    im.load()
    if kind == "orient":
        result = im.copy()
    elif kind == "resize":
        mode, w, h = args[0], int(args[1]), int(args[2])
        if mode == "scaleToFill":
            result = im.resize((w, h), Image.Resampling.LANCZOS)
        elif mode == "aspectFit":
            result = ImageOps.contain(im, (w, h), Image.Resampling.LANCZOS)
        elif mode == "aspectFill":
            result = ImageOps.fit(im, (w, h), Image.Resampling.LANCZOS, centering=(float(args[3]), float(args[4])))
        elif mode == "aspectFillWithoutCrop":
            result = ImageOps.cover(im, (w, h), Image.Resampling.LANCZOS)
        else:
            sys.stderr.write("unknown resize mode %r\n" % mode)
            return 1
    elif kind == "crop":
        x, y, w, h = (int(a) for a in args[:4])
        result = im.crop((x, y, x + w, y + h))
    elif kind == "transparentBorder":
        n = int(args[0])
        rgba = im.convert("RGBA") if im.mode not in ("RGBA", "LA") else im
        result = ImageOps.expand(rgba, border=n, fill=(0, 0, 0, 0) if rgba.mode == "RGBA" else (0, 0))
    else:
        sys.stderr.write("unknown operation %r\n" % kind)
        return 1
    result.save(out, "PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""A stock OpenCV resizer, written the way OpenCV's documentation shows, for `imglab run --resizer cmd:`.

Usage: opencv_stock.py IN OUT MODE WIDTH HEIGHT ANCHORX ANCHORY

cv2.imread(IN, cv2.IMREAD_UNCHANGED) keeps alpha and 16-bit samples; cv2.resize with INTER_AREA to
shrink and INTER_CUBIC to enlarge ("To shrink an image, it will generally look best with INTER_AREA
interpolation, whereas to enlarge an image, it will generally look best with INTER_CUBIC"):
  scaleToFill            cv2.resize to (W, H)
  aspectFit              scaled by min(W / w, H / h), sizes rounded
  aspectFill             scaled by max(W / w, H / h), then cropped to W×H at (ANCHORX, ANCHORY)
  aspectFillWithoutCrop  scaled by max(W / w, H / h), not cropped
cv2.imwrite writes OUT (PNG by its extension). Nothing else is done: no EXIF orientation, no
premultiplication; OpenCV's defaults decide the rest. Not tuned to pass: a stock script, to measure how
the lab judges a resizer plugged in with no config.
"""
import sys

import cv2


def resized(img, w, h):
    shrinking = w < img.shape[1] or h < img.shape[0]
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_CUBIC)


def main(argv):
    if len(argv) != 7:
        sys.stderr.write(__doc__)
        return 2
    src, out, mode = argv[0], argv[1], argv[2]
    w, h, ax, ay = int(argv[3]), int(argv[4]), float(argv[5]), float(argv[6])
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        sys.stderr.write(f"opencv_stock.py: cv2.imread cannot read {src}\n")
        return 1
    sh, sw = img.shape[:2]
    if mode == "scaleToFill":
        result = resized(img, w, h)
    elif mode in ("aspectFit", "aspectFill", "aspectFillWithoutCrop"):
        scale = min(w / sw, h / sh) if mode == "aspectFit" else max(w / sw, h / sh)
        result = resized(img, max(1, round(sw * scale)), max(1, round(sh * scale)))
        if mode == "aspectFill":
            x = round((result.shape[1] - w) * ax)
            y = round((result.shape[0] - h) * ay)
            result = result[y:y + h, x:x + w]
    else:
        sys.stderr.write(f"opencv_stock.py: mode {mode!r} is not supported\n")
        return 1
    if not cv2.imwrite(out, result):
        sys.stderr.write(f"opencv_stock.py: cv2.imwrite cannot write {out}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

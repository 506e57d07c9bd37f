#!/usr/bin/env python3
"""Makes the third-party pairs of Tests/Fixtures/third-party-pairs/ with Pillow, numpy, OpenCV and
tifffile (never imglab). Deterministic: no randomness beyond a fixed seed.

    pip install pillow numpy opencv-python-headless tifffile
    python3 make_pairs.py            # writes the files into this folder
"""
import os
import numpy as np
import cv2
import tifffile
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
def out(name): return os.path.join(HERE, name)

# (i) Halo: the same Pillow resize with and without premultiplication.
# A 128×96 RGBA source: opaque white, black and saturated shapes with hard and soft edges, a translucent
# (α ≈ 0.25) band, and colour hidden under α = 0 (magenta on the left half, green on the right).
W, H = 128, 96
y, x = np.mgrid[0:H, 0:W].astype(np.float64)
rgba = np.zeros((H, W, 4), np.float64)
rgba[..., :3] = np.where((x < W / 2)[..., None], [255, 0, 255], [0, 255, 0])   # hidden colour
def paint(mask_alpha, colour):
    a = np.clip(mask_alpha, 0, 1)[..., None]
    rgba[..., :3] = np.where(a > 0, colour, rgba[..., :3])                       # straight colour where visible
    rgba[..., 3:] = np.maximum(rgba[..., 3:], a)
paint(np.clip(14 - np.hypot(x - 30, y - 30), 0, 1), [255, 255, 255])             # white disc, 1-px soft edge
paint(((abs(x - 90) < 16) & (abs(y - 28) < 12)).astype(float), [0, 0, 0])        # black rectangle, hard edge
paint(np.clip((18 - np.hypot(x - 36, y - 70)) / 6, 0, 1), [30, 60, 230])          # blue disc, 6-px soft edge
paint(((abs(x - 96) < 18) & (abs(y - 72) < 10)).astype(float), [255, 140, 0])    # orange rectangle, hard edge
band = ((y > 44) & (y < 52) & (x > 8) & (x < 120)).astype(float) * 0.25          # translucent red band
rgba[..., :3] = np.where((band > 0)[..., None] & (rgba[..., 3:] == 0), [220, 20, 20], rgba[..., :3])
rgba[..., 3] = np.maximum(rgba[..., 3], band)
src = Image.fromarray(np.round(np.dstack([rgba[..., :3], rgba[..., 3:] * 255])).astype(np.uint8), "RGBA")
src.save(out("halo-source.png"))
size = (48, 36)
# Pillow resizes RGBA through premultiplied "RGBa" (Image.resize converts RGBA → RGBa → RGBA).
src.resize(size, Image.Resampling.LANCZOS).save(out("halo-premultiplied.png"))
# The same filter on each band alone: straight RGBA resampled without premultiplying.
Image.merge("RGBA", [b.resize(size, Image.Resampling.LANCZOS) for b in src.split()]).save(out("halo-straight.png"))

# (ii) 16-bit → 8-bit: OpenCV's convertScaleAbs scaled (α = 255/65535) vs saturated (α = 1, clipping).
w, h = 64, 48
yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
deep = np.dstack([xx / (w - 1), yy / (h - 1), 0.5 + 0.5 * np.sin(xx / 5) * np.cos(yy / 7)])   # RGB 0…1
deep16 = np.round(deep * 65535).astype(np.uint16)
cv2.imwrite(out("depth16-source.png"), deep16[..., ::-1])                       # OpenCV writes BGR
cv2.imwrite(out("depth16-scaled.png"), cv2.convertScaleAbs(deep16, alpha=255 / 65535)[..., ::-1])
cv2.imwrite(out("depth16-clipped.png"), cv2.convertScaleAbs(deep16)[..., ::-1])

# (iii) Float 0…1 written as 0…255: a float32 TIFF (tifffile) and Pillow's "F" → "L" conversion of each
# channel, which takes float samples as 0…255 (clipped, rounded): near black.
fy, fx = np.mgrid[0:32, 0:48].astype(np.float64)
flt = np.dstack([0.15 + 0.8 * fx / 47, 0.2 + 0.7 * fy / 31, 0.5 + 0.45 * np.sin(fx / 6) * np.cos(fy / 5)]).astype(np.float32)
tifffile.imwrite(out("float-source.tif"), flt, photometric="rgb")
channels = [Image.fromarray(np.ascontiguousarray(flt[..., c]), "F").convert("L") for c in range(3)]
Image.merge("RGB", channels).save(out("float-as-0-255.png"))
# The reverse: 0…255 samples written as a float TIFF (tifffile stores them as given), read as 0…1:
# everything above the lowest codes clips to white. Its expected side is the same values as an 8-bit PNG.
codes = np.round(flt * 255)
Image.fromarray(codes.astype(np.uint8), "RGB").save(out("float-codes.png"))
tifffile.imwrite(out("float-0-255.tif"), codes.astype(np.float32), photometric="rgb")

# (iv) JPEG re-encode at quality 85 (Pillow): an innocent difference, no diagnosis.
rng = np.random.default_rng(17)
photo = np.dstack([120 + 90 * np.sin(xx / 9 + yy / 13), 110 + 80 * np.cos(xx / 7), 100 + 60 * np.sin(yy / 5)])
photo += rng.normal(0, 6, photo.shape)
photo[14:30, 20:44] = [230, 210, 40]
img = Image.fromarray(np.clip(np.round(photo), 0, 255).astype(np.uint8), "RGB")
img.save(out("jpeg-original.png"))
img.save(out("jpeg-q85.jpg"), quality=85)

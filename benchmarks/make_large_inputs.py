#!/usr/bin/env python3
"""Large deterministic inputs for the `large` section of benchmarks/run.py (never committed): a 12000 x 9000 RGBA
picture (smooth colour fields, edges, fixed-seed noise, an alpha ramp) as PNG (non-interlaced),
TIFF (LZW, strips of 16 rows, horizontal predictor off) and 32-bit BMP (BI_BITFIELDS, bottom-up),
plus the 6000 x 4000 JPEG of make_inputs.py. Built band by band so the generator itself stays
small. Existing files are kept.

usage: make_large_inputs.py OUTDIR
"""
import os
import struct
import sys
import zlib

import numpy as np
from PIL import Image

W, H = 12000, 9000
BAND = 500


def band(y0, rows, rng):
    y, x = np.mgrid[y0:y0 + rows, 0:W].astype(np.float32)
    r = 128 + 100 * np.sin(x / 97.0) * np.cos(y / 131.0)
    g = 128 + 90 * np.sin((x + y) / 211.0)
    b = 128 + 80 * np.cos(x / 53.0 - y / 71.0)
    edges = ((x // 400 + y // 300) % 2) * 30
    noise = rng.normal(0, 6, (rows, W)).astype(np.float32)
    a = 255 - (x / W) * 200
    rgba = np.stack([r + edges + noise, g - edges + noise, b + noise, a], axis=-1)
    return np.clip(rgba, 0, 255).astype(np.uint8)


def bands():
    rng = np.random.default_rng(20)
    for y0 in range(0, H, BAND):
        yield y0, band(y0, min(BAND, H - y0), rng)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path):
    with open(path + ".part", "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0)))
        z = zlib.compressobj(6)
        for _, rgba in bands():
            raw = np.concatenate([np.zeros((rgba.shape[0], 1), np.uint8), rgba.reshape(rgba.shape[0], -1)], axis=1)
            data = z.compress(raw.tobytes())
            for i in range(0, len(data), 1 << 20):
                f.write(chunk(b"IDAT", data[i:i + (1 << 20)]))
        f.write(chunk(b"IDAT", z.flush()) + chunk(b"IEND", b""))
    os.replace(path + ".part", path)


def write_bmp(path):
    row = W * 4
    header = 14 + 108
    with open(path + ".part", "wb") as f:
        f.write(b"BM" + struct.pack("<IHHI", header + row * H, 0, 0, header))
        f.write(struct.pack("<IiiHHIIiiII", 108, W, H, 1, 32, 3, row * H, 2835, 2835, 0, 0))
        f.write(struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000))
        f.write(b"sRGB"[::-1] + bytes(48))
        rows = [rgba for _, rgba in bands()]
        for rgba in reversed(rows):  # bottom-up: the last band first, its rows reversed
            bgra = rgba[::-1][:, :, [2, 1, 0, 3]]
            f.write(bgra.tobytes())
    os.replace(path + ".part", path)


def write_tiff(path, png):
    # Pillow writes TIFF through libtiff; the image is decoded from the PNG once (about 430 MB).
    im = Image.open(png)
    im.load()
    im.save(path + ".part.tif", compression="tiff_lzw", tiffinfo={278: 16})
    os.replace(path + ".part.tif", path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    png = os.path.join(out, "rgba-12000x9000.png")
    for name, make in [("rgba-12000x9000.png", lambda p: write_png(p)),
                       ("rgba-12000x9000.bmp", lambda p: write_bmp(p)),
                       ("rgba-12000x9000-lzw.tif", lambda p: write_tiff(p, png))]:
        path = os.path.join(out, name)
        if not os.path.exists(path):
            make(path)
            print(f"wrote {path} ({os.path.getsize(path) >> 20} MiB)", file=sys.stderr)
    Image.MAX_IMAGE_PIXELS = None


if __name__ == "__main__":
    Image.MAX_IMAGE_PIXELS = None
    main()

#!/usr/bin/env python3
"""Deterministic benchmark inputs (never committed): photo-like content from fixed formulas and a
fixed-seed noise field, written with Pillow (8-bit) and a hand-written PNG writer (16-bit RGB).

usage: make_inputs.py OUTDIR
"""
import os
import struct
import sys
import zlib

import numpy as np
from PIL import Image


def photo(w, h, seed):
    """Smooth colour fields, edges and fine texture: compresses like a photograph."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r = 128 + 100 * np.sin(x / 97.0) * np.cos(y / 131.0)
    g = 128 + 90 * np.sin((x + y) / 211.0)
    b = 128 + 80 * np.cos(x / 53.0 - y / 71.0)
    edges = ((x // 400 + y // 300) % 2) * 30
    noise = rng.normal(0, 6, (h, w)).astype(np.float32)
    rgb = np.stack([r + edges + noise, g - edges + noise, b + noise], axis=-1)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def write_png16(path, rgb16):
    """A 16-bit RGB PNG (colour type 2, depth 16), rows filtered with filter 0."""
    h, w, _ = rgb16.shape
    raw = b"".join(b"\x00" + rgb16[row].astype(">u2").tobytes() for row in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path + ".tmp", "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))
    os.replace(path + ".tmp", path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    jobs = {
        "photo-6000x4000.jpg": lambda p: Image.fromarray(photo(6000, 4000, 1)).save(p, quality=90),
        "photo-6019x6019.jpg": lambda p: Image.fromarray(photo(6019, 6019, 2)).save(p, quality=90),
        "photo-12000x8000.jpg": lambda p: Image.fromarray(photo(12000, 8000, 3)).save(p, quality=90),
        "rgba-4000x3000.png": lambda p: Image.fromarray(np.dstack([photo(4000, 3000, 4),
            np.clip(np.mgrid[0:3000, 0:4000][1] // 16, 0, 255).astype(np.uint8)])).save(p),
        "rgb16-2000x2000.png": lambda p: write_png16(p, photo(2000, 2000, 5).astype(np.uint16) * 257
                                                      + (np.arange(2000, dtype=np.uint16)[None, :, None] % 257)),
    }
    for name, make in jobs.items():
        path = os.path.join(out, name)
        if not os.path.exists(path):
            tmp = os.path.join(out, ".tmp-" + name)  # same extension, so Pillow picks the format
            make(tmp)
            os.replace(tmp, path)
            print("wrote", path)


if __name__ == "__main__":
    main()

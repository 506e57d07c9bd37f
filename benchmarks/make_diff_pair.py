#!/usr/bin/env python3
"""Writes the benchmark pair of `benchmarks/diff.py`: two 3840×2160 8-bit RGB PNGs.

expected.png: a deterministic photo-like scene (smooth gradients, discs, fine texture, noise).
actual.png:   the same scene as a different resizer might render it: a 3×3 blur of weight
              0.15 at the edges, plus ±3 deterministic noise, so nearly every pixel differs a
              little (the realistic case for a resizer regression, and the slow case for a diff).
Usage: make_diff_pair.py OUTDIR
"""
import sys, os
import numpy as np
from PIL import Image

W, H = 3840, 2160
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(12345)
y, x = np.mgrid[0:H, 0:W].astype(np.float64)
r = 128 + 100 * np.sin(x / 300.0) * np.cos(y / 410.0)
g = 40 + 180 * (y / H)
b = 200 - 150 * (x / W)
for cx, cy, rad, col in [(900, 700, 350, (250, 40, 60)), (2600, 1300, 500, (30, 200, 90)), (3300, 400, 220, (240, 240, 30))]:
    m = ((x - cx) ** 2 + (y - cy) ** 2) < rad ** 2
    r[m], g[m], b[m] = col
texture = 12 * np.sin(x * 1.7) * np.sin(y * 1.3)
img = np.stack([r + texture, g + texture, b - texture], axis=-1) + rng.normal(0, 4, (H, W, 3))
expected = np.clip(np.rint(img), 0, 255).astype(np.uint8)
e = expected.astype(np.float64)
pad = np.pad(e, ((1, 1), (1, 1), (0, 0)), mode="edge")
box = sum(pad[dy:dy + H, dx:dx + W] for dy in range(3) for dx in range(3)) / 9
actual = 0.85 * e + 0.15 * box + rng.integers(-3, 4, (H, W, 3))
actual = np.clip(np.rint(actual), 0, 255).astype(np.uint8)
Image.fromarray(expected, "RGB").save(os.path.join(out, "expected.png"), compress_level=6)
Image.fromarray(actual, "RGB").save(os.path.join(out, "actual.png"), compress_level=6)
print("wrote", os.path.join(out, "expected.png"), os.path.join(out, "actual.png"))

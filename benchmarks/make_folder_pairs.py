#!/usr/bin/env python3
"""Writes the two folders of `benchmarks/run.py`: 200 keys of 1920×1080 8-bit RGB PNGs.

OUTDIR/expected and OUTDIR/actual, files set<k>/img<nnn>.png in five subfolders. Of the 200 keys:
- 20 (10 %) changed: the actual file is the expected image with the effect of one mutant of the
  catalogue (Sources/ImageLab/Mutants) applied to it, in turn:
    swap-rb        red and blue swapped                          → diagnosis class channel-order
    argb-as-rgba   the 255 padding byte read as red (R←255, G←R, B←G) → alpha-position
    mirror-mixup   mirrored orientation mixed up: a 180° turn     → orientation
    half-pixel     sampled half a pixel off: the mean of each 2×2 block ending at the pixel,
                   edges clamped (HalfPixelMutant's rewrite)      → pixel-shift
- 5 (2.5 %) deleted (only in expected) and 5 (2.5 %) new (only in actual);
- the other 170 unchanged by value but re-encoded (another zlib level), so no file is the same
  bytes and every tool has to decode every pair.
OUTDIR/truth.json lists each key's status and, for a changed key, the mutant and its class.
The images are deterministic (numpy's default_rng seeded by the key's number).

Usage: make_folder_pairs.py OUTDIR      (needs numpy; writes PNG with zlib, no PIL)
"""
import json, os, struct, sys, zlib
import numpy as np

W, H, N = 1920, 1080, 200
MUTANTS = [("swap-rb", "channel-order"), ("argb-as-rgba", "alpha-position"), ("mirror-mixup", "orientation"), ("half-pixel", "pixel-shift")]


def png(path, rgb, level):
    """An 8-bit RGB PNG, filter 0 on every row, zlib level `level`."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    raw = np.concatenate([np.zeros((rgb.shape[0], 1), np.uint8), rgb.reshape(rgb.shape[0], -1)], axis=1).tobytes()
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", rgb.shape[1], rgb.shape[0], 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b""))


def scene(i):
    rng = np.random.default_rng(1000 + i)
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    r = 128 + 100 * np.sin(x / (200.0 + 7 * i)) * np.cos(y / (300.0 + 3 * i))
    g = 40 + 180 * (y / H)
    b = 200 - 150 * (x / W)
    for _ in range(4):
        cx, cy, rad = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(60, 300)
        col = rng.integers(0, 256, 3)
        m = ((x - cx) ** 2 + (y - cy) ** 2) < rad ** 2
        r[m], g[m], b[m] = col
    texture = 10 * np.sin(x * 1.7) * np.sin(y * 1.3)
    img = np.stack([r + texture, g + texture, b - texture], axis=-1) + rng.normal(0, 3, (H, W, 3))
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def mutate(img, mutant):
    if mutant == "swap-rb":
        return img[..., ::-1].copy()
    if mutant == "argb-as-rgba":
        out = np.empty_like(img)
        out[..., 0] = 255
        out[..., 1] = img[..., 0]
        out[..., 2] = img[..., 1]
        return out
    if mutant == "mirror-mixup":
        return img[::-1, ::-1].copy()
    if mutant == "half-pixel":
        f = img.astype(np.float64)
        left = np.concatenate([f[:, :1], f[:, :-1]], axis=1)
        up = np.concatenate([f[:1], f[:-1]], axis=0)
        upleft = np.concatenate([left[:1], left[:-1]], axis=0)
        return np.clip(np.rint((f + left + up + upleft) / 4), 0, 255).astype(np.uint8)
    raise ValueError(mutant)


def main():
    out = sys.argv[1]
    truth = {}
    changed = 0
    for i in range(N):
        key = f"set{i % 5}/img{i:03d}.png"
        img = scene(i)
        e, a = os.path.join(out, "expected", key), os.path.join(out, "actual", key)
        if i % 10 == 3:
            mutant, cls = MUTANTS[changed % len(MUTANTS)]
            changed += 1
            png(e, img, 6)
            png(a, mutate(img, mutant), 6)
            truth[key] = {"status": "changed", "mutant": mutant, "class": cls}
        elif i % 40 == 7:
            png(e, img, 6)
            truth[key] = {"status": "deleted"}
        elif i % 40 == 27:
            png(a, img, 6)
            truth[key] = {"status": "new"}
        else:
            png(e, img, 6)
            png(a, img, 1)
            truth[key] = {"status": "unchanged"}
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)
    counts = {}
    for t in truth.values():
        counts[t["status"]] = counts.get(t["status"], 0) + 1
    print("wrote", out, counts)


main()

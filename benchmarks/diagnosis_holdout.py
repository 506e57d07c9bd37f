#!/usr/bin/env python3
"""Hold-out check of `imglab diff`'s diagnosis on pairs that are not in the committed real-world set.

The committed set (Tests/Fixtures/real-world, scripts/make-real-world-pairs.py) is what the diagnosis was built
on; this script makes the same kinds of difference from three other photographs of ../shared/corpus-external, at
two sizes, and prints each pair's expected class beside the class `imglab diff` names, then a count of right
names, misses (unnamed) and false names (a class other than the expected one, or any class on a control).
Expected classes with a "?" are a judgement (a contrast change is a levels change); "none" is a control.

Usage: benchmarks/diagnosis_holdout.py [IMGLAB]   (default .build/release/imglab; needs Pillow, NumPy, SciPy, OpenCV)
Exit status 1 when any false name is found.
"""
import io, json, os, subprocess, sys, tempfile
import numpy as np
import cv2
from PIL import Image, ImageEnhance, ImageFilter
from scipy import ndimage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTERNAL = os.path.join(os.path.dirname(ROOT), "shared", "corpus-external")
SOURCES = {
    "prog3": "image-rs-image-tests/jpg/progressive/3.jpg",
    "junk": "pillow-tests/junk_jpeg_header.jpg",
    "flat": "jpeg-decoder-tests/crashtest/multiple-0xff-before-eoi.jpg",
}
imglab = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "imglab")
work = tempfile.mkdtemp(prefix="imglab-holdout-")
pairs = []


def to8(v):
    return np.clip(np.rint(v), 0, 255).astype(np.uint8)


def pair(name, a, b, expected):
    pa, pb = os.path.join(work, f"{name}-a.png"), os.path.join(work, f"{name}-b.png")
    Image.fromarray(a).save(pa)
    Image.fromarray(b).save(pb)
    pairs.append((name, pa, pb, expected))


for key, rel in SOURCES.items():
    im = Image.open(os.path.join(EXTERNAL, rel)).convert("RGB")
    for width in (320, 560):
        h = round(im.height * width / im.width)
        base = np.asarray(im.resize((width, h), Image.LANCZOS))
        k, f = f"{key}{width}", base.astype(float)
        g = f.copy(); g[..., 2] *= 0.88; pair(k + "-blue-0.88", base, to8(g), "colour-gain")
        g = f.copy(); g[..., 0] += 15; pair(k + "-red+15", base, to8(g), "colour-gain")
        pair(k + "-gamma-1.8", base, to8(255 * (f / 255) ** (1 / 1.8)), "transfer-curve")
        lin = np.where(f / 255 <= 0.04045, f / 255 / 12.92, ((f / 255 + 0.055) / 1.055) ** 2.4)
        pair(k + "-srgb-decoded", base, to8(lin * 255), "transfer-curve")
        pair(k + "-roll-5-left-2-down", base, np.roll(base, (2, -5), axis=(0, 1)), "pixel-shift")
        pair(k + "-contrast-1.15", base, np.asarray(ImageEnhance.Contrast(Image.fromarray(base)).enhance(1.15)), "levels?")
        pair(k + "-saturation-0.7", base, np.asarray(ImageEnhance.Color(Image.fromarray(base)).enhance(0.7)), "colour-matrix")
        big = np.asarray(im.resize((width * 2, h * 2), Image.LANCZOS)).astype(float)
        centre = cv2.resize(big, (width, h), interpolation=cv2.INTER_LINEAR)
        corner = ndimage.zoom(big, (0.5, 0.5, 1), order=1, grid_mode=False)
        pair(k + "-corner-aligned-half", to8(centre), to8(corner), "pixel-shift")
        s = min(width, h); off = (width - s) // 2
        pair(k + "-crop-top-left", base[:s, off:off + s].copy(), base[:s, :s].copy(), "pixel-shift")
        buf = io.BytesIO(); Image.fromarray(base).save(buf, "JPEG", quality=60); buf.seek(0)
        pair(k + "-jpeg-60-as-png", base, np.asarray(Image.open(buf).convert("RGB")), "none")
        pair(k + "-noise-4", base, to8(f + np.random.default_rng(3).normal(0, 4, f.shape)), "none")
        pair(k + "-gaussian-blur-0.8", base, cv2.GaussianBlur(base, (0, 0), 0.8), "none")
        pair(k + "-unsharp-mask", base, np.asarray(Image.fromarray(base).filter(ImageFilter.UnsharpMask(2, 80, 2))), "none")
        pair(k + "-rotated-90", base, np.ascontiguousarray(np.rot90(base)), "orientation")

right = missed = false = 0
for name, a, b, expected in pairs:
    run = subprocess.run([imglab, "diff", a, b, "--json", "-"], capture_output=True, text=True)
    diagnosis = json.loads(run.stdout).get("diagnosis", {}) if run.stdout else {}
    named = diagnosis.get("class")
    want = expected.rstrip("?")
    verdict = "right" if (named or "none") == want else ("missed" if named is None else "FALSE NAME")
    right += verdict == "right"; missed += verdict == "missed"; false += verdict == "FALSE NAME"
    print(f"{name:36} expected {expected:15} named {named or 'none':15} {verdict}")
print(f"{len(pairs)} pairs: {right} right, {missed} missed (unnamed), {false} false names")
sys.exit(1 if false else 0)

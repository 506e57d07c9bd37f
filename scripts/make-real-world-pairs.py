#!/usr/bin/env python3
"""Makes the real-world pair set of Tests/Fixtures/real-world/: everyday differences made by common tools
(ImageMagick, libvips, Pillow, NumPy, SciPy), each pair an expected image `a` and an actual image `b` with the
class of difference and its parameters, and controls (re-encoding, noise, a lossless re-save) that no bug class
may name. RealWorldDiagnosisTests runs `imglab diff` on every pair.

Usage: scripts/make-real-world-pairs.py [--out DIR]   (needs convert, vips, python3 with Pillow, NumPy, SciPy;
installs the Python modules with pip when missing)

The sources are two photographs reduced to 240 × 160 and 227 × 149: Landscape_1.jpg of
exif-orientation-examples (MIT, Copyright (c) 2010 Dave Perrett) and testorig.jpg of libjpeg-turbo's test images
(IJG licence), both read from ../shared/corpus-external (see its README for provenance).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTERNAL = os.path.join(os.path.dirname(ROOT), "shared", "corpus-external")
SOURCES = {
    "landscape": ("exif-orientation-examples/Landscape_1.jpg", 240, "MIT, Copyright (c) 2010 Dave Perrett"),
    "testorig": ("libjpeg-turbo-testimages/testorig.jpg", 227, "IJG licence (libjpeg-turbo testimages)"),
}


def need(module, package):
    try:
        __import__(module)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", package], check=False)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--break-system-packages", package], check=False)


need("PIL", "pillow")
need("numpy", "numpy")
need("scipy", "scipy")
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from scipy import ndimage  # noqa: E402


def srgb_to_linear(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v):
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(np.maximum(v, 0), 1 / 2.4) - 0.055)


def to8(v):
    return np.clip(np.rint(v * 255), 0, 255).astype(np.uint8)


def run(*command):
    subprocess.run(command, check=True, capture_output=True)


class PairSet:
    def __init__(self, out):
        self.out = out
        self.pairs = []

    def add(self, pair_id, a, b, tool, how, expected_class, params=None, control=False, candidate=None, tolerance=None):
        """a, b: paths already written under out/pairs; stores the manifest entry. params: the diagnosis's parameters
        (Diagnosis.parameters keys); tolerance: per-key overrides of the test's tolerances."""
        expected = {"class": expected_class, "parameters": params or {}}
        if candidate:
            expected["candidate"] = candidate
        if tolerance:
            expected["tolerance"] = tolerance
        self.pairs.append({
            "id": pair_id, "a": os.path.relpath(a, self.out), "b": os.path.relpath(b, self.out), "tool": tool, "how": how,
            "expected": expected, "control": control,
        })

    def path(self, name):
        return os.path.join(self.out, "pairs", name)


def array_pair(ps, name, src_path, array_b, tool, how, cls, params=None, control=False, candidate=None):
    b = ps.path(f"{name}-b.png")
    Image.fromarray(array_b).save(b)
    ps.add(name, src_path, b, tool, how, cls, params, control, candidate)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "real-world"))
    args = parser.parse_args()
    for tool in ("convert", "vips"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install imagemagick libvips-tools)")
    staging = tempfile.mkdtemp(prefix="real-world-", dir=os.path.dirname(args.out))
    os.makedirs(os.path.join(staging, "pairs"))
    ps = PairSet(staging)
    for key, (rel, width, licence) in SOURCES.items():
        with Image.open(os.path.join(EXTERNAL, rel)) as im:
            im = im.convert("RGB")
            height = round(im.height * width / im.width)
            im = im.resize((width, height), Image.Resampling.LANCZOS)
            src = ps.path(f"{key}-a.png")
            im.save(src)
        a = np.asarray(Image.open(src).convert("RGB"))
        f = a.astype(np.float64) / 255
        h, w = a.shape[:2]

        # Global colour transforms: per-channel gain and offset, a matrix, transfer curves, levels, saturation.
        g = f.copy(); g[..., 0] *= 1.12
        array_pair(ps, f"{key}-numpy-red-gain-1.12", src, to8(g), "numpy", "red × 1.12, clipped", "colour-gain",
                   {"gain.red": 1.12, "gain.green": 1, "gain.blue": 1})
        b = ps.path(f"{key}-vips-blue-gain-0.85-b.png")
        run("vips", "linear", src, b + "[compression=6]", "1 1 0.85", "0 0 0", "--uchar")
        ps.add(f"{key}-vips-blue-gain-0.85", src, b, "libvips", "vips linear [1 1 0.85] [0 0 0] --uchar", "colour-gain",
               {"gain.red": 1, "gain.green": 1, "gain.blue": 0.85})
        b = ps.path(f"{key}-im-green-offset-b.png")
        run("convert", src, "-channel", "G", "-evaluate", "add", "8%", "+channel", b)
        ps.add(f"{key}-im-green-offset", src, b, "ImageMagick", "-channel G -evaluate add 8%", "colour-gain",
               {"offset.red": 0, "offset.green": 0.08 * 255, "offset.blue": 0})
        b = ps.path(f"{key}-im-saturation-130-b.png")
        run("convert", src, "-modulate", "100,130,100", b)
        ps.add(f"{key}-im-saturation-130", src, b, "ImageMagick", "-modulate 100,130,100", "colour-matrix")
        m = np.array([[0.9, 0.1, 0.0], [0.05, 0.9, 0.05], [0.0, 0.1, 0.9]])
        array_pair(ps, f"{key}-numpy-matrix", src, to8(f @ m.T), "numpy", "a 3×3 colour matrix (channel cross-talk)",
                   "colour-matrix", {f"m{r}{k}": m[r][k] for r in range(3) for k in range(3)})
        array_pair(ps, f"{key}-numpy-linear-written-as-encoded", src, to8(srgb_to_linear(f)), "numpy",
                   "sRGB decoded to linear light and written as if encoded", "transfer-curve", candidate="curve.srgb-decoded")
        array_pair(ps, f"{key}-numpy-srgb-encoded-twice", src, to8(linear_to_srgb(f)), "numpy",
                   "sRGB encoding applied to encoded values", "transfer-curve", candidate="curve.srgb-encoded")
        b = ps.path(f"{key}-im-gamma-2.2-b.png")
        run("convert", src, "-gamma", "2.2", b)
        ps.add(f"{key}-im-gamma-2.2", src, b, "ImageMagick", "-gamma 2.2", "transfer-curve", {"gamma": 1 / 2.2})
        b = ps.path(f"{key}-im-gamma-0.55-b.png")
        run("convert", src, "-gamma", "0.5556", b)
        ps.add(f"{key}-im-gamma-0.55", src, b, "ImageMagick", "-gamma 0.5556 (a 1.8 curve)", "transfer-curve", {"gamma": 1 / 0.5556})
        b = ps.path(f"{key}-im-levels-b.png")
        run("convert", src, "-level", "10%,90%", b)
        ps.add(f"{key}-im-levels", src, b, "ImageMagick", "-level 10%,90% (stretched and clipped)", "levels",
               {"black": 0.1, "white": 0.9})

        # Geometry: translations, crop anchor, the pixel-grid convention.
        b = ps.path(f"{key}-im-roll-3-b.png")
        run("convert", src, "-roll", "+3+0", b)
        ps.add(f"{key}-im-roll-3", src, b, "ImageMagick", "-roll +3+0 (shifted 3 px right, wrapped)", "pixel-shift", {"dx": 3, "dy": 0})
        shifted = ndimage.shift(f, (0.5, 0, 0), order=1, mode="nearest")
        array_pair(ps, f"{key}-scipy-shift-half-down", src, to8(shifted), "SciPy", "ndimage.shift by half a pixel down (bilinear)",
                   "pixel-shift", {"dx": 0, "dy": 0.5})
        side = min(w, h) // 2
        centre = ps.path(f"{key}-fill-centre.png")
        corner = ps.path(f"{key}-im-fill-northwest-b.png")
        run("convert", src, "-resize", f"{side}x{side}^", "-gravity", "center", "-extent", f"{side}x{side}", centre)
        run("convert", src, "-resize", f"{side}x{side}^", "-gravity", "NorthWest", "-extent", f"{side}x{side}", corner)
        resized_width = round(w * side / h)
        ps.add(f"{key}-im-fill-northwest", centre, corner, "ImageMagick", "aspect fill cropped at the top left, expected centred",
               "pixel-shift", {"dx": (resized_width - side) / 2, "dy": 0}, tolerance={"dx": 1})
        def zoom(grid_mode):
            return np.stack([ndimage.zoom(f[..., c], ((h // 2) / h, (w // 2) / w), order=1, grid_mode=grid_mode,
                                          mode="nearest" if grid_mode else "constant") for c in range(3)], -1)
        expected = ps.path(f"{key}-scipy-half-centre-aligned.png")
        Image.fromarray(to8(zoom(True))).save(expected)
        array_pair(ps, f"{key}-scipy-corner-aligned-half", expected, to8(zoom(False)), "SciPy",
                   "ndimage.zoom(order=1) halving with grid_mode=False (corners aligned) against grid_mode=True (centres)",
                   "pixel-shift", {"scale.x": (w - 1) / (w // 2 - 1) * (w // 2) / w, "scale.y": (h - 1) / (h // 2 - 1) * (h // 2) / h})

        # Controls: no bug class may name these.
        for q in (75, 92):
            b = ps.path(f"{key}-pillow-jpeg-q{q}-b.jpg")
            Image.open(src).save(b, quality=q)
            ps.add(f"{key}-pillow-jpeg-q{q}", src, b, "Pillow", f"saved as JPEG, quality {q}", None, {"quality": q}, control=True)
        b = ps.path(f"{key}-im-jpeg-q85-b.jpg")
        run("convert", src, "-quality", "85", "-sampling-factor", "4:2:0", b)
        ps.add(f"{key}-im-jpeg-q85", src, b, "ImageMagick", "JPEG, quality 85, 4:2:0", None, {"quality": 85}, control=True)
        rng = np.random.default_rng(7)
        array_pair(ps, f"{key}-numpy-noise-2", src, to8(f + rng.normal(0, 2 / 255, f.shape)), "numpy",
                   "Gaussian noise, σ = 2 codes", None, {"sigma": 2}, control=True)
        b = ps.path(f"{key}-vips-resave-b.png")
        run("vips", "copy", src, b + "[compression=9]")
        ps.add(f"{key}-vips-resave", src, b, "libvips", "re-saved as PNG (lossless)", None, control=True)

    manifest = {
        "schema": "imglab-real-world-pairs/1",
        "about": "Everyday differences made by common tools (scripts/make-real-world-pairs.py): a is expected, b actual. "
                 "expected.class is the class the diagnosis must name (null for controls, which no class may name).",
        "sources": {k: {"file": v[0], "licence": v[2]} for k, v in SOURCES.items()},
        "pairs": ps.pairs,
    }
    with open(os.path.join(staging, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.rename(staging, args.out)
    print(f"{len(ps.pairs)} pairs in {args.out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes the real-world pair set of Tests/Fixtures/real-world/: everyday differences made by common tools
(ImageMagick, libvips, Pillow, NumPy, SciPy), each pair an expected image `a` and an actual image `b` with the
class of difference and its parameters, and controls (re-encoding, noise, a lossless re-save) that no bug class
may name. RealWorldDiagnosisTests runs `imglab diff` on every pair.

Usage: scripts/make-real-world-pairs.py [--out DIR]   (needs convert, gm, vips, python3 with Pillow, NumPy, SciPy,
OpenCV; installs the Python modules with pip when missing)

The sources are two photographs reduced to 240 × 160 and 227 × 149: Landscape_1.jpg of
exif-orientation-examples (MIT, Copyright (c) 2010 Dave Perrett) and testorig.jpg of libjpeg-turbo's test images
(IJG licence), both read from ../shared/corpus-external (see its README for provenance); the orientation pairs
start from Landscape_6, Landscape_3 and Portrait_8 of exif-orientation-examples, reduced to 240 pixels; the flat-photo
pairs from multiple-0xff-before-eoi.jpg of image-rs/jpeg-decoder's crash tests (MIT OR Apache-2.0), reduced to 320.
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
need("cv2", "opencv-python-headless")
import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image, ImageChops, ImageEnhance, ImageFilter, ImageOps  # noqa: E402
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

    def add(self, pair_id, a, b, tool, how, expected_class, params=None, control=False, candidate=None, tolerance=None,
            statement=None, says=None):
        """a, b: paths already written under out/pairs; stores the manifest entry. params: the diagnosis's parameters
        (Diagnosis.parameters keys; for controls, the quality or σ the statement must give); tolerance: per-key
        overrides of the test's tolerances; statement: what an unnamed control must be said to be (JPEG, JPEG-like,
        noise); says: phrases the summary must contain."""
        expected = {"class": expected_class, "parameters": params or {}}
        if statement:
            expected["statement"] = statement
        if says:
            expected["says"] = says
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


def array_pair(ps, name, src_path, array_b, tool, how, cls, params=None, control=False, candidate=None, statement=None):
    b = ps.path(f"{name}-b.png")
    Image.fromarray(array_b).save(b)
    ps.add(name, src_path, b, tool, how, cls, params, control, candidate, statement=statement)


def save(array, path):
    Image.fromarray(array).save(path)
    return path


def more_colour(ps, key, src, f):
    """The colour families again, made by other tools and with other parameters."""
    im = Image.open(src).convert("RGB")
    b = ps.path(f"{key}-pillow-brightness-1.1-b.png")
    ImageEnhance.Brightness(im).enhance(1.1).save(b)
    # One gain and offset for every channel is a levels change (black and white points), not white balance.
    ps.add(f"{key}-pillow-brightness-1.1", src, b, "Pillow", "ImageEnhance.Brightness(1.1)", "levels", levels(1.1, 0))
    a8 = cv2.imread(src)
    b = ps.path(f"{key}-opencv-scale-offset-b.png")
    cv2.imwrite(b, cv2.convertScaleAbs(a8, alpha=0.9, beta=12))
    ps.add(f"{key}-opencv-scale-offset", src, b, "OpenCV", "cv2.convertScaleAbs(alpha=0.9, beta=12)", "levels", levels(0.9, 12))
    b = ps.path(f"{key}-pillow-color-1.4-b.png")
    ImageEnhance.Color(im).enhance(1.4).save(b)
    ps.add(f"{key}-pillow-color-1.4", src, b, "Pillow", "ImageEnhance.Color(1.4) (saturation)", "colour-matrix")
    m = [[0.8, 0.2, 0.0], [0.0, 1.0, 0.0], [0.1, 0.0, 0.9]]
    matrix = ps.path(f"{key}-recomb.mat")
    with open(matrix, "w") as out:
        out.write("3 3\n" + "\n".join(" ".join(str(v) for v in row) for row in m) + "\n")
    b = ps.path(f"{key}-vips-recomb-b.png")
    run("vips", "recomb", src, b, matrix)
    os.remove(matrix)
    ps.add(f"{key}-vips-recomb", src, b, "libvips", "vips recomb with a 3×3 matrix", "colour-matrix",
           {f"m{r}{k}": m[r][k] for r in range(3) for k in range(3)})
    b = ps.path(f"{key}-gm-gamma-1.8-b.png")
    run("gm", "convert", src, "-gamma", "1.8", b)
    ps.add(f"{key}-gm-gamma-1.8", src, b, "GraphicsMagick", "gm convert -gamma 1.8", "transfer-curve", {"gamma": 1 / 1.8})
    b = ps.path(f"{key}-pillow-point-gamma-2.2-b.png")
    im.point(lambda v: round(255 * (v / 255) ** 2.2)).save(b)
    ps.add(f"{key}-pillow-point-gamma-2.2", src, b, "Pillow", "Image.point: every value raised to 2.2", "transfer-curve",
           {"gamma": 2.2})
    b = ps.path(f"{key}-opencv-lut-gamma-0.8-b.png")
    lut = np.array([round(255 * (v / 255) ** 0.8) for v in range(256)], dtype=np.uint8)
    cv2.imwrite(b, cv2.LUT(a8, lut))
    ps.add(f"{key}-opencv-lut-gamma-0.8", src, b, "OpenCV", "cv2.LUT: every value raised to 0.8", "transfer-curve", {"gamma": 0.8})
    b = ps.path(f"{key}-gm-level-b.png")
    run("gm", "convert", src, "-level", "5%,1.0,95%", b)
    ps.add(f"{key}-gm-level", src, b, "GraphicsMagick", "gm convert -level 5%,1.0,95%", "levels", {"black": 0.05, "white": 0.95})
    b = ps.path(f"{key}-pillow-autocontrast-b.png")
    ImageOps.autocontrast(im, cutoff=3).save(b)
    # autocontrast stretches each channel by its own histogram: per-channel gains (white balance) unless they agree.
    gains = channel_gains(f, np.asarray(Image.open(b).convert("RGB")).astype(np.float64) / 255)
    uniform = max(g for g, _ in gains) - min(g for g, _ in gains) <= 0.03
    ps.add(f"{key}-pillow-autocontrast", src, b, "Pillow", "ImageOps.autocontrast(cutoff=3) (each channel stretched and clipped)",
           "levels" if uniform else "colour-gain",
           {} if uniform else {f"gain.{n}": round(g, 3) for n, (g, _) in zip(("red", "green", "blue"), gains)})


def levels(gain, offset):
    """The black and white points (0…1) of out = gain · in + offset (codes): in = black → 0, in = white → 1."""
    black = -offset / (255 * gain)
    return {"black": black, "white": black + 1 / gain}


def channel_gains(a, b):
    """Per channel, the least-squares gain and offset of b on a over the values b did not clip."""
    out = []
    for c in range(3):
        x, y = a[..., c].ravel(), b[..., c].ravel()
        keep = (y > 0.5 / 255) & (y < 254.5 / 255)
        g, o = np.polyfit(x[keep], y[keep], 1)
        out.append((g, o * 255))
    return out


def more_geometry(ps, key, src, f, side, resized_width):
    """Translations, crop anchors and the pixel-grid convention, made by other tools."""
    a8 = cv2.imread(src)
    h, w = a8.shape[:2]
    b = ps.path(f"{key}-opencv-warp-2.5-right-b.png")
    cv2.imwrite(b, cv2.warpAffine(a8, np.float32([[1, 0, 2.5], [0, 1, 0]]), (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE))
    ps.add(f"{key}-opencv-warp-2.5-right", src, b, "OpenCV", "cv2.warpAffine by 2.5 px right (bilinear)", "pixel-shift",
           {"dx": 2.5, "dy": 0})
    b = ps.path(f"{key}-vips-embed-4-2-b.png")
    run("vips", "embed", src, b, "4", "2", str(w), str(h), "--extend", "copy")
    ps.add(f"{key}-vips-embed-4-2", src, b, "libvips", "vips embed 4 2 (shifted 4 px right and 2 px down, edges repeated)",
           "pixel-shift", {"dx": 4, "dy": 2})
    b = ps.path(f"{key}-pillow-offset-up-2-b.png")
    ImageChops.offset(Image.open(src), 0, -2).save(b)
    ps.add(f"{key}-pillow-offset-up-2", src, b, "Pillow", "ImageChops.offset(0, -2) (shifted 2 px up, wrapped)", "pixel-shift",
           {"dx": 0, "dy": -2})
    im = Image.open(src).convert("RGB")
    centre = save(np.asarray(ImageOps.fit(im, (side, side), Image.Resampling.BICUBIC, centering=(0.5, 0.5))),
                  ps.path(f"{key}-pillow-fit-centre.png"))
    b = save(np.asarray(ImageOps.fit(im, (side, side), Image.Resampling.BICUBIC, centering=(1.0, 0.5))),
             ps.path(f"{key}-pillow-fit-right-b.png"))
    ps.add(f"{key}-pillow-fit-right", centre, b, "Pillow", "ImageOps.fit anchored at the right edge, expected centred",
           "pixel-shift", {"dx": -(resized_width - side) / 2, "dy": 0}, tolerance={"dx": 1})
    centre = ps.path(f"{key}-vips-crop-centre.png")
    run("vips", "thumbnail", src, centre, str(side), "--height", str(side), "--crop", "centre")
    b = ps.path(f"{key}-vips-crop-low-b.png")
    run("vips", "thumbnail", src, b, str(side), "--height", str(side), "--crop", "low")
    ps.add(f"{key}-vips-crop-low", centre, b, "libvips", "vips thumbnail --crop low (top left), expected centre", "pixel-shift",
           {"dx": (resized_width - side) / 2, "dy": 0}, tolerance={"dx": 1})
    # Doubling: OpenCV's bilinear (pixel centres aligned) expected, SciPy's corner-aligned zoom actual.
    expected = save(cv2.cvtColor(cv2.resize(a8, (2 * w, 2 * h), interpolation=cv2.INTER_LINEAR), cv2.COLOR_BGR2RGB),
                    ps.path(f"{key}-opencv-double.png"))
    doubled = np.stack([ndimage.zoom(f[..., c], 2, order=1, grid_mode=False) for c in range(3)], -1)
    array_pair(ps, f"{key}-scipy-corner-aligned-double", expected, to8(doubled), "SciPy",
               "ndimage.zoom(2, order=1, grid_mode=False) (corners aligned) against cv2.resize INTER_LINEAR (centres)",
               "pixel-shift", {"scale.x": (w - 1) / (2 * w - 1) * 2, "scale.y": (h - 1) / (2 * h - 1) * 2})


def zoom_and_grid(ps, key, src, f):
    """A zoom about the top-left corner where none was expected, and a doubling with the legacy grid (u = x / 2, pixel
    centres at integer coordinates: TensorFlow's half_pixel_centers=False) against the half-pixel one."""
    a8 = cv2.imread(src)
    h, w = a8.shape[:2]
    z = 1.05
    b = ps.path(f"{key}-opencv-zoom-corner-b.png")
    cv2.imwrite(b, cv2.warpAffine(a8, np.float32([[z, 0, 0], [0, z, 0]]), (w, h), flags=cv2.INTER_CUBIC,
                                  borderMode=cv2.BORDER_REPLICATE))
    ps.add(f"{key}-opencv-zoom-corner", src, b, "OpenCV", "cv2.warpAffine zoom × 1.05 about pixel (0, 0)", "pixel-shift",
           {"scale.x": 1 / z, "scale.y": 1 / z, "pivot.x": 0, "pivot.y": 0}, tolerance={"scale.x": 0.002, "scale.y": 0.002,
                                                                                   "pivot.x": 2, "pivot.y": 2})
    im = Image.open(src).convert("RGB")
    b = ps.path(f"{key}-pillow-zoom-corner-b.png")
    im.transform(im.size, Image.Transform.AFFINE, (1 / z, 0, 0, 0, 1 / z, 0), resample=Image.Resampling.BICUBIC).save(b)
    ps.add(f"{key}-pillow-zoom-corner", src, b, "Pillow", "Image.transform AFFINE zoom × 1.05 about the top-left corner",
           "pixel-shift", {"scale.x": 1 / z, "scale.y": 1 / z, "pivot.x": -0.5, "pivot.y": -0.5},
           tolerance={"scale.x": 0.002, "scale.y": 0.002, "pivot.x": 2, "pivot.y": 2})
    expected = ps.path(f"{key}-opencv-double.png")
    xs, ys = np.arange(2 * w) / 2, np.arange(2 * h) / 2
    legacy = np.stack([ndimage.map_coordinates(f[..., c], np.meshgrid(ys, xs, indexing="ij"), order=1, mode="nearest")
                       for c in range(3)], -1)
    array_pair(ps, f"{key}-numpy-legacy-grid-double", expected, to8(legacy), "NumPy/SciPy",
               "bilinear doubling sampling u = x / 2 (half_pixel_centers=False) against cv2.resize INTER_LINEAR (u = (x + ½) / 2 − ½)",
               "pixel-shift", {"dx": -0.5, "dy": -0.5})


def size_by_one(ps, key, src):
    """One row or column lost or added: cropped at an edge, padded, or the picture resampled to a size off by one."""
    im = Image.open(src).convert("RGB")
    w, h = im.size
    b = ps.path(f"{key}-pillow-crop-bottom-row-b.png")
    im.crop((0, 0, w, h - 1)).save(b)
    ps.add(f"{key}-pillow-crop-bottom-row", src, b, "Pillow", "Image.crop losing the bottom row", "crop",
           {"rows": -1, "columns": 0}, candidate="crop.row-lost-bottom")
    b = ps.path(f"{key}-im-chop-left-column-b.png")
    run("convert", src, "-gravity", "West", "-chop", "1x0", b)
    ps.add(f"{key}-im-chop-left-column", src, b, "ImageMagick", "-gravity West -chop 1x0 (left column lost)", "crop",
           {"rows": 0, "columns": -1}, candidate="crop.column-lost-left")
    b = ps.path(f"{key}-vips-embed-right-column-b.png")
    run("vips", "embed", src, b, "0", "0", str(w + 1), str(h), "--extend", "copy")
    ps.add(f"{key}-vips-embed-right-column", src, b, "libvips", "vips embed one column wider, edge repeated", "crop",
           {"rows": 0, "columns": 1}, candidate="crop.column-added-right")
    b = ps.path(f"{key}-pillow-resize-row-short-b.png")
    im.resize((w, h - 1), Image.Resampling.BILINEAR).save(b)
    ps.add(f"{key}-pillow-resize-row-short", src, b, "Pillow", "resized to one row fewer (the size rounded down)",
           "size-rounding", {"rows": -1, "columns": 0})
    b = ps.path(f"{key}-gm-resize-column-more-b.png")
    run("gm", "convert", src, "-filter", "Triangle", "-resize", f"{w + 1}x{h}!", b)
    ps.add(f"{key}-gm-resize-column-more", src, b, "GraphicsMagick", "-filter Triangle -resize to one column more (the size rounded up)",
           "size-rounding", {"rows": 0, "columns": 1})


def more_controls(ps, key, src, f):
    """JPEG saved again as PNG (its block grid is the only trace), other noise, chroma subsampling: never named."""
    im = Image.open(src).convert("RGB")
    staging = ps.path(f"{key}-staging.jpg")
    for tool, q in (("Pillow", 60), ("ImageMagick", 45), ("libvips", 70)):
        b = ps.path(f"{key}-{tool.lower()}-jpeg-q{q}-as-png-b.png")
        if tool == "Pillow":
            im.save(staging, quality=q)
            Image.open(staging).save(b)
        elif tool == "ImageMagick":
            run("convert", src, "-quality", str(q), staging)
            run("convert", staging, b)
        else:
            run("vips", "jpegsave", src, staging, "--Q", str(q))
            run("vips", "pngsave", staging, b)
        os.remove(staging)
        ps.add(f"{key}-{tool.lower()}-jpeg-q{q}-as-png", src, b, tool, f"saved as JPEG, quality {q}, then as PNG", None,
               {"quality": q}, control=True, statement="JPEG-like")
    rng = np.random.default_rng(11)
    a8 = cv2.imread(src)
    noise = rng.normal(0, 3, a8.shape)
    b = ps.path(f"{key}-opencv-noise-3-b.png")
    cv2.imwrite(b, np.clip(np.rint(a8 + noise), 0, 255).astype(np.uint8))
    ps.add(f"{key}-opencv-noise-3", src, b, "OpenCV", "Gaussian noise, σ = 3 codes", None, {"sigma": 3}, control=True,
           statement="noise")
    ycc = np.asarray(im.convert("YCbCr")).copy()
    h, w = ycc.shape[:2]
    for c in (1, 2):
        plane = Image.fromarray(ycc[..., c])
        ycc[..., c] = np.asarray(plane.resize(((w + 1) // 2, (h + 1) // 2), Image.Resampling.BOX).resize((w, h), Image.Resampling.BILINEAR))
    b = ps.path(f"{key}-pillow-chroma-420-b.png")
    Image.fromarray(ycc, "YCbCr").convert("RGB").save(b)
    ps.add(f"{key}-pillow-chroma-420", src, b, "Pillow", "chroma halved both ways and restored (4:2:0 without the DCT)", None,
           control=True)


ORIENTED = {
    "landscape6": "exif-orientation-examples/Landscape_6.jpg",
    "landscape3": "exif-orientation-examples/Landscape_3.jpg",
    "portrait8": "exif-orientation-examples/Portrait_8.jpg",
}


FLAT = ("jpeg-decoder-tests/crashtest/multiple-0xff-before-eoi.jpg", 320, "MIT OR Apache-2.0 (image-rs/jpeg-decoder)")


def flat_photo_pairs(ps):
    """A mostly flat photograph (a wall, a dark band at the bottom): a shift's revealed edge holds most of its
    difference, and a curve's dark values make it look like a catalogued gain."""
    rel, width, _ = FLAT
    with Image.open(os.path.join(EXTERNAL, rel)) as im:
        im = im.convert("RGB")
        im = im.resize((width, round(im.height * width / im.width)), Image.Resampling.LANCZOS)
        src = ps.path("flat-a.png")
        im.save(src)
    a = np.asarray(Image.open(src).convert("RGB"))
    f = a.astype(np.float64) / 255
    array_pair(ps, "flat-numpy-roll-5-left-2-down", src, np.roll(a, (2, -5), axis=(0, 1)), "numpy",
               "np.roll by 5 px left and 2 px down (wrapped): the wrapped dark band holds most of the difference",
               "pixel-shift", {"dx": -5, "dy": 2})
    array_pair(ps, "flat-numpy-linear-written-as-encoded", src, to8(srgb_to_linear(f)), "numpy",
               "sRGB decoded to linear light and written as if encoded (nearly a halving of a flat mid-grey picture)",
               "transfer-curve", candidate="curve.srgb-decoded")


def sharpening_controls(ps, key, src):
    """A sharper result than expected is not nearest-neighbour sampling: an unsharp mask, and Lanczos against bilinear."""
    im = Image.open(src).convert("RGB")
    b = ps.path(f"{key}-pillow-unsharp-mask-b.png")
    im.filter(ImageFilter.UnsharpMask(2, 80, 2)).save(b)
    ps.add(f"{key}-pillow-unsharp-mask", src, b, "Pillow", "ImageFilter.UnsharpMask(radius 2, 80 %, threshold 2)", None,
           control=True, says=["not nearest-neighbour sampling"])
    with Image.open(os.path.join(EXTERNAL, SOURCES[key][0])) as full:
        full = full.convert("RGB")
        size = im.size
        if full.size == size:
            return  # a source at its own size is not resized: the two filters give the same pixels
        expected = ps.path(f"{key}-pillow-bilinear.png")
        full.resize(size, Image.Resampling.BILINEAR).save(expected)
        b = ps.path(f"{key}-pillow-lanczos-b.png")
        full.resize(size, Image.Resampling.LANCZOS).save(b)
    ps.add(f"{key}-pillow-lanczos-vs-bilinear", expected, b, "Pillow", "resized with Lanczos where bilinear was expected", None,
           control=True, says=["not nearest-neighbour sampling"])


def orientation_pairs(ps):
    """A photo whose EXIF tag says how to turn it (the expected file keeps the tag, so it is displayed upright), and
    outputs that ignored the tag (stored pixels, tag dropped) or applied it twice (turned, tag kept)."""
    for key, rel in ORIENTED.items():
        with Image.open(os.path.join(EXTERNAL, rel)) as im:
            exif = im.info["exif"]
            tag = im.getexif().get(0x0112)
            stored = im.convert("RGB")
            scale = 240 / max(stored.size)
            stored = stored.resize((round(stored.width * scale), round(stored.height * scale)), Image.Resampling.LANCZOS)
        a = ps.path(f"{key}-tagged-a.jpg")
        stored.save(a, quality=95, exif=exif)
        says = [f"EXIF orientation {tag}"]
        twice_or_ignored = tag in (2, 3, 4, 5, 7)
        b = ps.path(f"{key}-pillow-tag-ignored-b.png")
        Image.open(a).convert("RGB").save(b)
        ps.add(f"{key}-pillow-tag-ignored", a, b, "Pillow", f"the stored pixels saved as PNG, EXIF orientation {tag} dropped",
               "orientation", says=says + ["ignored"])
        b = ps.path(f"{key}-vips-strip-b.png")
        run("vips", "copy", a, b + "[strip]")
        ps.add(f"{key}-vips-strip", a, b, "libvips", "vips copy to PNG with strip: the tag dropped, the pixels not turned",
               "orientation", says=says + ["ignored"])
        if not twice_or_ignored:
            b = ps.path(f"{key}-pillow-applied-twice-b.png")
            ImageOps.exif_transpose(Image.open(a)).convert("RGB").save(b, exif=exif)
            ps.add(f"{key}-pillow-applied-twice", a, b, "Pillow", f"turned upright, EXIF orientation {tag} kept", "orientation",
                   says=says + ["applied twice"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "real-world"))
    args = parser.parse_args()
    for tool in ("convert", "gm", "vips"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install imagemagick graphicsmagick libvips-tools)")
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

        more_colour(ps, key, src, f)
        more_geometry(ps, key, src, f, side, resized_width)
        size_by_one(ps, key, src)
        zoom_and_grid(ps, key, src, f)

        # Controls: no bug class may name these.
        for q in (75, 92):
            b = ps.path(f"{key}-pillow-jpeg-q{q}-b.jpg")
            Image.open(src).save(b, quality=q)
            ps.add(f"{key}-pillow-jpeg-q{q}", src, b, "Pillow", f"saved as JPEG, quality {q}", None, {"quality": q}, control=True,
                   statement="JPEG")
        b = ps.path(f"{key}-im-jpeg-q85-b.jpg")
        run("convert", src, "-quality", "85", "-sampling-factor", "4:2:0", b)
        ps.add(f"{key}-im-jpeg-q85", src, b, "ImageMagick", "JPEG, quality 85, 4:2:0", None, {"quality": 85}, control=True,
               statement="JPEG")
        more_controls(ps, key, src, f)
        sharpening_controls(ps, key, src)
        rng = np.random.default_rng(7)
        array_pair(ps, f"{key}-numpy-noise-2", src, to8(f + rng.normal(0, 2 / 255, f.shape)), "numpy",
                   "Gaussian noise, σ = 2 codes", None, {"sigma": 2}, control=True, statement="noise")
        b = ps.path(f"{key}-vips-resave-b.png")
        run("vips", "copy", src, b + "[compression=9]")
        ps.add(f"{key}-vips-resave", src, b, "libvips", "re-saved as PNG (lossless)", None, control=True)

    orientation_pairs(ps)
    flat_photo_pairs(ps)

    manifest = {
        "schema": "imglab-real-world-pairs/1",
        "about": "Everyday differences made by common tools (scripts/make-real-world-pairs.py): a is expected, b actual. "
                 "expected.class is the class the diagnosis must name (null for controls, which no class may name).",
        "sources": {**{k: {"file": v[0], "licence": v[2]} for k, v in SOURCES.items()}, "flat": {"file": FLAT[0], "licence": FLAT[2]}},
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

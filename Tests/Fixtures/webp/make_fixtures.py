#!/usr/bin/env python3
"""Writes the WebP fixtures of WebPCodecTests with Pillow (its own libwebp build, not the system's
one imglab loads), so imglab's chunk reader and decoder are checked against another writer.

    python3 Tests/Fixtures/webp/make_fixtures.py     # Pillow 13.0.0 with libwebp 1.6.0 made the committed files

Every lossless file's pixels follow `pixel(x, y)` below, which the tests compute again.
"""
import os
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def pixel(x, y, frame=0):
    """RGBA of (x, y): a gradient, alpha 0 in the first 4 columns (the colour there kept by `exact`)."""
    return ((x * 8 + frame * 40) % 256, (y * 8) % 256, ((x + y) * 4) % 256, 0 if x < 4 else 255 - y * 4)


def image(width, height, frame=0, alpha=True):
    im = Image.new("RGBA", (width, height))
    im.putdata([pixel(x, y, frame) for y in range(height) for x in range(width)])
    return im if alpha else im.convert("RGB")


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


image(24, 16).save(os.path.join(HERE, "gradient-rgba-lossless.webp"), lossless=True, exact=True)
image(24, 16, alpha=False).save(os.path.join(HERE, "gradient-rgb-lossy-orientation-6.webp"), quality=90,
                                exif=exif_orientation(6))
frames = [image(24, 16, frame=k) for k in range(3)]
frames[0].save(os.path.join(HERE, "animated-rgba-lossless.webp"), save_all=True, append_images=frames[1:],
               duration=[100, 200, 300], loop=2, lossless=True, exact=True)

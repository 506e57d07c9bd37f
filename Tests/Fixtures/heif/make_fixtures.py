#!/usr/bin/env python3
"""Writes the HEIF and AVIF fixtures of HEIFCodecTests with writers other than imglab's libheif:
pillow-heif (PyPI, its own libheif 1.23 and x265) for HEIC, Pillow's AVIF plugin (its own
libavif and libaom) for AVIF. Run from this folder: python3 make_fixtures.py
(pip install pillow pillow-heif; written with Pillow 13.0.0, pillow-heif 1.9.0).

Every picture is pixel(x, y) on a 24×16 grid, which the tests compute again. Orientation is
written as the writers do it: an EXIF orientation given to the writer becomes irot/imir."""
from PIL import Image
import pillow_heif

pillow_heif.register_heif_opener()

W, H = 24, 16


def pixel(x, y):
    """8-bit RGBA; the tests' HEIFCodecTests.pixel(x, y)."""
    return ((x * 8) % 256, (y * 8) % 256, ((x + y) * 4) % 256, 255 if x >= 4 else 64 + y * 8)


def pixel10(x, y):
    """10-bit RGB samples; the tests' HEIFCodecTests.pixel10(x, y)."""
    return ((x * 41) % 1024, (y * 60 + 7) % 1024, ((x + y) * 25) % 1024)


def drawn(alpha):
    image = Image.new("RGBA", (W, H))
    image.putdata([pixel(x, y) for y in range(H) for x in range(W)])
    return image if alpha else image.convert("RGB")


def exif(orientation):
    block = Image.Exif()
    block[0x0112] = orientation
    return block.tobytes()


lossless = dict(quality=-1, chroma=444, matrix_coefficients=0)
pillow_heif.from_pillow(drawn(False)).save("gradient-rgb-lossless.heic", **lossless)
pillow_heif.from_pillow(drawn(True)).save("gradient-rgba-lossless.heic", **lossless)
for orientation in range(2, 9):
    drawn(False).save(f"gradient-rgb-orientation-{orientation}.heic", exif=exif(orientation), **lossless)
deep = bytearray()
for y in range(H):
    for x in range(W):
        for sample in pixel10(x, y):
            deep += (sample << 6).to_bytes(2, "little")  # 16-bit words; pillow-heif keeps the top 10 bits
pillow_heif.from_bytes(mode="RGB;16", size=(W, H), data=bytes(deep)).save("gradient-rgb-10bit-lossless.heic", **lossless)
drawn(True).save("gradient-rgba-lossy.avif", quality=90)
drawn(False).save("gradient-rgb-lossy-orientation-5.avif", quality=90, exif=exif(5))

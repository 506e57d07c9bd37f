"""Pictures for the browser tests: an 8-bit RGBA raster and a PNG writer on the standard library
only (zlib), for the fixture images. Screenshots are decoded by the browser (`browser.py`)."""

import struct
import zlib


class Picture:
    """An 8-bit RGBA raster, rows top to bottom: `pixel(x, y)` is an (r, g, b, a) tuple."""

    def __init__(self, width, height, rgba):
        if len(rgba) != width * height * 4:
            raise ValueError(f"{width}×{height} RGBA needs {width * height * 4} bytes, got {len(rgba)}")
        self.width, self.height, self.rgba = width, height, bytes(rgba)

    def pixel(self, x, y):
        i = (y * self.width + x) * 4
        return tuple(self.rgba[i:i + 4])

    def crop(self, x, y, width, height):
        """The part `width` × `height` at (x, y), which must lie inside the picture."""
        if x < 0 or y < 0 or width <= 0 or height <= 0 or x + width > self.width or y + height > self.height:
            raise ValueError(f"crop {width}×{height} at ({x}, {y}) leaves the {self.width}×{self.height} picture")
        rows = [self.rgba[((y + r) * self.width + x) * 4:((y + r) * self.width + x + width) * 4] for r in range(height)]
        return Picture(width, height, b"".join(rows))


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode(picture):
    """PNG bytes of an RGBA picture (colour type 6, filter 0 on every row)."""
    raw = b"".join(b"\x00" + picture.rgba[y * picture.width * 4:(y + 1) * picture.width * 4] for y in range(picture.height))
    header = struct.pack(">IIBBBBB", picture.width, picture.height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")

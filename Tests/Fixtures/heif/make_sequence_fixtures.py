#!/usr/bin/env python3
"""Writes the AVIF image-sequence fixtures of HEIFCodecTests with a writer other than imglab: avifenc
(Debian's libavif-bin 0.11.1, its own libaom), lossless (-l: 4:4:4, identity matrix), from PNG frames
drawn with Pillow. Run from this folder: python3 make_sequence_fixtures.py

Every frame is frame(i, x, y) (8-bit RGBA) or frame10(i, x, y) (10-bit RGB) on a 24×16 grid, which the
tests compute again; the durations are those below, in hundredths of a second (--timescale 100)."""
import os, subprocess, tempfile
from PIL import Image

W, H = 24, 16
DURATIONS = [10, 25, 5, 60]
DURATIONS10 = [4, 8, 12]


def frame(i, x, y):
    """8-bit RGBA, straight alpha, transparent where (x + y + i) % 4 == 0; the tests' sequenceFrame."""
    alpha = 0 if (x + y + i) % 4 == 0 else 255 - i * 30
    return ((x * 8 + i * 40) % 256, (y * 12 + i * 20) % 256, ((x + y) * 4 + i * 60) % 256, alpha)


def frame10(i, x, y):
    """10-bit RGB samples; the tests' sequenceFrame10."""
    return ((x * 41 + i * 100) % 1024, (y * 60 + 7 + i * 30) % 1024, ((x + y) * 25 + i * 300) % 1024)


def write(name, frames, durations, depth):
    with tempfile.TemporaryDirectory() as folder:
        args = ["avifenc", "-l", "--timescale", "100", "-d", str(depth)]
        for i, (image, duration) in enumerate(zip(frames, durations)):
            path = os.path.join(folder, f"{i}.png")
            image.save(path)
            args += ["--duration", str(duration), path]
        subprocess.run(args + [name], check=True, capture_output=True)


def main():
    frames = []
    for i in range(len(DURATIONS)):
        image = Image.new("RGBA", (W, H))
        image.putdata([frame(i, x, y) for y in range(H) for x in range(W)])
        frames.append(image)
    write("sequence-rgba-lossless.avif", frames, DURATIONS, 8)
    frames = []
    for i in range(len(DURATIONS10)):
        # 16-bit PNG samples round(s · 65535 / 1023), which avifenc takes back to s at 10 bits.
        frames.append([[tuple(round(s * 65535 / 1023) for s in frame10(i, x, y)) for x in range(W)] for y in range(H)])
    write16("sequence-rgb-10bit-lossless.avif", frames, DURATIONS10)


def write16(name, frames, durations):
    """16-bit RGB PNG frames (Pillow cannot write 16-bit RGB), then avifenc at 10 bits."""
    import struct, zlib
    with tempfile.TemporaryDirectory() as folder:
        args = ["avifenc", "-l", "--timescale", "100", "-d", "10"]
        for i, (rows, duration) in enumerate(zip(frames, durations)):
            raw = b"".join(b"\0" + b"".join(struct.pack(">HHH", *p) for p in row) for row in rows)
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            path = os.path.join(folder, f"{i}.png")
            open(path, "wb").write(png)
            args += ["--duration", str(duration), path]
        subprocess.run(args + [name], check=True, capture_output=True)


if __name__ == "__main__":
    main()

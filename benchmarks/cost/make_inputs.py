#!/usr/bin/env python3
"""The fixed inputs of the cost check (benchmarks/cost/check.py), written into OUTDIR.

Pure formulas, no random generator: the same pixels on every machine. PNGs are written with the
standard library (zlib level 6, filter 0); the one JPEG with Pillow (quality 90, 4:2:0, no
optimisation), which scripts/bootstrap.sh installs.

  photo.png           1024×768 RGB: smooth colour fields, edges, a fine pattern (compresses like a photo)
  photo-shifted.png   the same scene rendered slightly differently (a one-pixel blur at the edges
                      and a ±2 ripple), so most pixels differ a little: the slow case of a diff
  photo-noisy.png     the same scene with a ±2 noise, uncorrelated between neighbours and channels: most
                      pixels differ a little and the diagnosis is quick (noise), so the metrics' passes
                      weigh most in this diff's count
  photo-3000.jpg      3000×2000 JPEG of the same kind of scene: the thumbnail's input
  folder-a/, folder-b/  six 320×240 keys each in two subfolders: two equal, two changed
                      (red and blue swapped; a 180° turn), one only in each folder

Usage: make_inputs.py OUTDIR
"""
import math, os, struct, sys, zlib


def scene(w, h, phase=0.0):
    """Rows of RGB bytes: sines in x and y, a checker of edges every 160×120 px, a fine pattern."""
    rows = []
    for y in range(h):
        row = bytearray(3 * w)
        cy = math.cos(y / 41.0 + phase)
        for x in range(w):
            edge = 30 if ((x // 160 + y // 120) % 2) else 0
            fine = ((x * 7 + y * 13) % 11) - 5
            r = 128 + 100 * math.sin(x / 37.0) * cy + edge + fine
            g = 128 + 90 * math.sin((x + y) / 83.0 + phase) - edge + fine
            b = 128 + 80 * math.cos(x / 23.0 - y / 29.0) + fine
            row[3 * x:3 * x + 3] = bytes(max(0, min(255, int(v))) for v in (r, g, b))
        rows.append(bytes(row))
    return rows


def rendered_differently(rows, w):
    """The scene as another resizer might render it: each pixel moved a quarter of the way to its
    right neighbour, plus a ±2 ripple that depends on the position."""
    out = []
    for y, row in enumerate(rows):
        new = bytearray(row)
        for i in range(3 * w):
            right = row[i + 3] if i + 3 < 3 * w else row[i]
            ripple = ((i * 5 + y * 3) % 5) - 2
            new[i] = max(0, min(255, (3 * row[i] + right) // 4 + ripple))
        out.append(bytes(new))
    return out


def noisy(rows, w):
    """The scene with a ±2 noise per sample from an integer hash of its position (no random generator)."""
    out = []
    for y, row in enumerate(rows):
        new = bytearray(row)
        for i in range(3 * w):
            h = ((i * 2654435761) ^ (y * 2246822519)) & 0xFFFFFFFF
            h = ((h ^ (h >> 15)) * 2246822519) & 0xFFFFFFFF
            new[i] = max(0, min(255, row[i] + (h >> 13) % 5 - 2))
        out.append(bytes(new))
    return out


def write_png(path, w, h, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + r for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    w, h = 1024, 768
    photo = scene(w, h)
    write_png(os.path.join(out, "photo.png"), w, h, photo)
    write_png(os.path.join(out, "photo-shifted.png"), w, h, rendered_differently(photo, w))
    write_png(os.path.join(out, "photo-noisy.png"), w, h, noisy(photo, w))

    from PIL import Image
    small = Image.frombytes("RGB", (w, h), b"".join(photo))
    small.resize((3000, 2000), Image.BICUBIC).save(os.path.join(out, "photo-3000.jpg"), quality=90,
                                                   subsampling=2, optimize=False)

    fw, fh = 320, 240
    for key in range(6):
        rows = scene(fw, fh, phase=key * 0.7)
        sub = f"set{key % 2}"
        for side in ("folder-a", "folder-b"):
            os.makedirs(os.path.join(out, side, sub), exist_ok=True)
        name = f"img{key}.png"
        if key != 5:    # key 5 only in folder-b, key 4 only in folder-a
            write_png(os.path.join(out, "folder-a", sub, name if key != 4 else "gone.png"), fw, fh, rows)
        if key == 4:
            continue
        if key == 1:    # red and blue swapped
            rows = [bytes(b for i in range(fw) for b in (r[3 * i + 2], r[3 * i + 1], r[3 * i])) for r in rows]
        elif key == 2:  # turned 180°
            rows = [bytes(b for i in reversed(range(fw)) for b in r[3 * i:3 * i + 3]) for r in reversed(rows)]
        write_png(os.path.join(out, "folder-b", sub, name if key != 5 else "new.png"), fw, fh, rows)


if __name__ == "__main__":
    main()

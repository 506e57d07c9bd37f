#!/usr/bin/env python3
"""Copies a selection of Link-U's AVIF test files (AOMediaCodec/av1-avif, testFiles/Link-U, CC-BY-SA 4.0) and of
libheif's HEIC test files (strukturag/libheif, tests/data) into Tests/Fixtures/heif-public/ with a manifest.json of
what each must display, for HEIFPublicFilesTests.

    python3 scripts/make-heif-public-manifest.py /path/to/av1-avif/testFiles/Link-U /path/to/libheif/tests/data
    # needs Pillow and pillow-heif (its own libheif and libde265)

The expectation comes from upstream's README, not from any AVIF decoder:
- the kimono transformation files (irot, imir, clap and their combinations) must each display as the
  original picture, kimono.png (722 x 1024), or for the cropped ones as kimono.crop.png (385 x 330);
- the fox files (8/10/12 bits, 4:2:0/4:2:2/4:4:4, odd widths and heights) are encodings of fox.png or of
  its odd-sized crops fox.odd-*.png; the monochrome ones of its luma (their nclx states matrix 6, BT.601:
  Y = 0.299 R + 0.587 G + 0.114 B on the encoded values, which a decoder shows as R = G = B = Y).
The HEIC files' sizes and alpha are what libheif's tests state (tests/component_descriptions.cc: rainbow-451x461
displays 451 x 461 from a 452 x 462 ispe through its clap; with-alpha-512x512 has an alpha auxiliary image); their
pixels come from another decoder, pillow-heif 1.9.0 (libheif 1.23.7 with libde265 1.1.3, where imglab loads the
system's libheif 1.15 with libde265 1.0), premultiplied by the alpha where there is one.
Those pictures are large, so the manifest keeps them as the mean R, G, B (and A) of each 32 x 32 block (the last
row and column of blocks hold what is left), which the Swift test computes again from imglab's decode.
"""
import hashlib, json, os, subprocess, sys
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/Fixtures/heif-public")
BLOCK = 32

# file -> (upstream's reference picture, luma only, EXIF-numbered orientation upstream describes, bits)
FILES = {
    "kimono.avif": ("kimono.png", False, 1, 8),
    "kimono.rotate90.avif": ("kimono.png", False, 6, 8),            # stored turned 90 ccw, shown turned 270 ccw
    "kimono.rotate270.avif": ("kimono.png", False, 8, 8),           # stored turned 270 ccw, shown turned 90 ccw
    "kimono.mirror-horizontal.avif": ("kimono.png", False, 2, 8),
    "kimono.mirror-vertical.avif": ("kimono.png", False, 4, 8),
    "kimono.mirror-vertical.rotate270.avif": ("kimono.png", False, 5, 8),
    "kimono.crop.avif": ("kimono.crop.png", False, 1, 8),
    "kimono.mirror-vertical.rotate270.crop.avif": ("kimono.crop.png", False, 5, 8),
    "fox.profile0.8bpc.yuv420.avif": ("fox.png", False, 1, 8),
    "fox.profile2.8bpc.yuv422.odd-height.avif": ("fox.odd-height.png", False, 1, 8),
    "fox.profile1.10bpc.yuv444.avif": ("fox.png", False, 1, 10),
    "fox.profile0.10bpc.yuv420.odd-width.odd-height.avif": ("fox.odd-width.odd-height.png", False, 1, 10),
    "fox.profile2.12bpc.yuv444.odd-width.avif": ("fox.odd-width.png", False, 1, 12),
    "fox.profile0.8bpc.yuv420.monochrome.avif": ("fox.png", True, 1, 8),
    "fox.profile2.12bpc.yuv420.monochrome.odd-width.odd-height.avif": ("fox.odd-width.odd-height.png", True, 1, 12),
}


def block_means(image, luma):
    """R, G, B means of each block (R, G, B premultiplied and A for an RGBA picture)."""
    alpha = image.mode == "RGBA"
    image = image.convert("RGBA" if alpha else "RGB")
    width, height = image.size
    pixels = image.load()
    means = []
    for by in range(0, height, BLOCK):
        for bx in range(0, width, BLOCK):
            sums, count = [0.0] * (4 if alpha else 3), 0
            for y in range(by, min(by + BLOCK, height)):
                for x in range(bx, min(bx + BLOCK, width)):
                    r, g, b = pixels[x, y][:3]
                    a = pixels[x, y][3] if alpha else 255
                    if luma:
                        r = g = b = 0.299 * r + 0.587 * g + 0.114 * b
                    for i, v in enumerate((r * a / 255, g * a / 255, b * a / 255, a)[:len(sums)]):
                        sums[i] += v
                    count += 1
            means.extend(round(s / count, 1) for s in sums)
    return {"width": width, "height": height, "block": BLOCK, "channels": 4 if alpha else 3, "means": means}


# libheif's HEIC test files: file -> (displayed size libheif's tests state, alpha)
HEIC_FILES = {
    "rainbow-451x461.heic": ((451, 461), False),
    "with-alpha-512x512.heic": ((512, 512), True),
}


def main(source, libheif_data):
    commit = os.environ.get("AV1_AVIF_COMMIT") or subprocess.run(
        ["git", "-C", source, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    libheif_commit = os.environ.get("LIBHEIF_COMMIT") or subprocess.run(
        ["git", "-C", libheif_data, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    os.makedirs(OUT, exist_ok=True)
    references, entries = {}, []
    for name, (reference, luma, orientation, bits) in FILES.items():
        key = reference[:-4] + (".luma" if luma else "")
        if key not in references:
            references[key] = {"origin": {"repo": "AOMediaCodec/av1-avif", "path": f"testFiles/Link-U/{reference}",
                                          "commit": commit}, "luma": luma,
                               # The odd-sized fox PNGs carry an opaque alpha channel: the pictures are RGB.
                               **block_means(Image.open(os.path.join(source, reference)).convert("RGB"), luma)}
        data = open(os.path.join(source, name), "rb").read()
        entries.append({"path": name, "origin": {"repo": "AOMediaCodec/av1-avif", "path": f"testFiles/Link-U/{name}",
                                                 "commit": commit},
                        "sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data),
                        "expected": {"reference": key, "orientation": orientation, "bits": bits}})
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    import pillow_heif
    for name, (size, alpha) in HEIC_FILES.items():
        data = open(os.path.join(libheif_data, name), "rb").read()
        heif = pillow_heif.open_heif(os.path.join(libheif_data, name))
        decoded = heif[0].to_pillow()
        assert decoded.size == size and (decoded.mode == "RGBA") == alpha, f"{name}: pillow-heif disagrees with libheif's tests"
        references[name] = {"origin": {"decoder": f"pillow-heif {pillow_heif.__version__}, libheif "
                                                  f"{pillow_heif.libheif_info()['libheif']}"}, "luma": False,
                            **block_means(decoded, False)}
        entries.append({"path": name, "origin": {"repo": "strukturag/libheif", "path": f"tests/data/{name}",
                                                 "commit": libheif_commit},
                        "sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data),
                        "expected": {"reference": name, "orientation": 1, "bits": 8}})
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"source": "https://github.com/AOMediaCodec/av1-avif/tree/main/testFiles/Link-U", "commit": commit,
                   "license": "CC-BY-SA 4.0 (Link-U's README: 'All images are licensed under CC-BY-SA 4.0'); "
                              "authors Kaede Fujisaki and Momiji Jinzamomi. The HEIC files: libheif's test data "
                              "(https://github.com/strukturag/libheif, LGPL-3.0)",
                   "files": entries, "references": references}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(entries)} files ({sum(e['size_bytes'] for e in entries)} bytes), {len(references)} references into {OUT}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

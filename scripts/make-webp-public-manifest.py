#!/usr/bin/env python3
"""Copies a selection of libwebp's conformance files (webmproject/libwebp-test-data) into
Tests/Fixtures/webp-public/ with a manifest.json of what each decodes to, for WebPPublicFilesTests.

    python3 scripts/make-webp-public-manifest.py /path/to/libwebp-test-data   # needs dwebp (Debian: webp)

The expectation comes from upstream: libwebp_tests.md5 lists the MD5 of `dwebp -pam` (straight RGBA) of
each file. For every selected file this script decodes it with dwebp, keeps it only if the PAM's MD5 is
upstream's, and records the size and an FNV-1a 64-bit hash of the RGBA samples (the PAM's payload) and of the RGB ones
(`dwebp -ppm`, checked against upstream's MD5 the same way), which the Swift test recomputes from
imglab's decode (RGBA or RGB, as imglab delivers the file); the lossless vectors, which upstream's test_lossless.sh
compares with its reference decodings grid.pam and peak.pam instead, are checked against those. Only
files up to 32 KiB are taken, so the folder stays small.
"""
import hashlib, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests/Fixtures/webp-public")
LIMIT = 32 * 1024


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def main(source):
    commit = os.environ.get("WEBP_TEST_DATA_COMMIT") or subprocess.run(["git", "-C", source, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    md5s, md5s_ppm = {}, {}
    for line in open(os.path.join(source, "libwebp_tests.md5")):
        digest, name = line.split()
        if name.endswith(".webp.pam"):
            md5s[name[:-4]] = digest
        elif name.endswith(".webp.ppm"):
            md5s_ppm[name[:-4]] = digest
    entries = []
    os.makedirs(OUT, exist_ok=True)
    for name in sorted(os.listdir(source)):
        path = os.path.join(source, name)
        if not name.endswith(".webp") or os.path.getsize(path) > LIMIT:
            continue
        data = open(path, "rb").read()
        entry = {"path": name, "origin": {"repo": "webmproject/libwebp-test-data", "path": name, "commit": commit},
                 "sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data)}
        # test_lossless.sh compares the lossless vectors with upstream's reference decodings instead.
        reference = "grid.pam" if name.startswith("lossless_vec_1_") else "peak.pam" if name.startswith("lossless_vec_2_") else None
        if name not in md5s and reference is None:
            print(f"skipped {name}: upstream states no decoding of it", file=sys.stderr)
            continue
        with tempfile.NamedTemporaryFile(suffix=".pam") as pam:
            subprocess.run(["dwebp", "-pam", path, "-o", pam.name], check=True, capture_output=True)
            decoded = open(pam.name, "rb").read()
        upstream = {"upstream_pam_md5": md5s[name]} if name in md5s else {"upstream_reference": reference}
        if (hashlib.md5(decoded).hexdigest() != md5s[name] if name in md5s
                else decoded != open(os.path.join(source, reference), "rb").read()):
            print(f"skipped {name}: dwebp's PAM differs from upstream's", file=sys.stderr)
            continue
        header, payload = decoded.split(b"ENDHDR\n", 1)
        fields = dict(line.split(b" ", 1) for line in header.split(b"\n")[1:] if b" " in line)
        # The RGB decoding too (`dwebp -ppm`, checked the same way), for files imglab reads as RGB.
        with tempfile.NamedTemporaryFile(suffix=".ppm") as ppm:
            subprocess.run(["dwebp", "-ppm", path, "-o", ppm.name], check=True, capture_output=True)
            rgb = open(ppm.name, "rb").read()
        expected_ppm = md5s_ppm.get(name)
        if (hashlib.md5(rgb).hexdigest() != expected_ppm if expected_ppm
                else rgb != open(os.path.join(source, reference[:-4] + ".ppm"), "rb").read()):
            print(f"skipped {name}: dwebp's PPM differs from upstream's", file=sys.stderr)
            continue
        entry["expected"] = {"width": int(fields[b"WIDTH"]), "height": int(fields[b"HEIGHT"]),
                             "rgba_fnv1a64": fnv1a64(payload), "rgb_fnv1a64": fnv1a64(rgb.split(b"\n", 3)[3]), **upstream}
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        entries.append(entry)
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"source": "https://github.com/webmproject/libwebp-test-data", "commit": commit,
                   "license": "the libwebp project's BSD license (test_dwebp.sh: 'distributed under the same terms as libwebp')",
                   "files": entries}, f, indent=1)
        f.write("\n")
    print(f"{len(entries)} files ({sum(e['size_bytes'] for e in entries)} bytes) into {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])

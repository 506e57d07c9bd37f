#!/usr/bin/env python3
"""Makes the ICC profiles of Tests/Fixtures/icc/ with Little CMS (liblcms2, called through ctypes), and a
manifest of what each was made from: its description, class, colour space, version, the white point and primaries
it was built with, and its tone curve. Tests read the profiles back and compare with the manifest (the oracle is
the construction, not imglab's reading of it).

Usage: scripts/make-icc-profiles.py [--out DIR]   (needs liblcms2-2, present on Debian wherever Pillow or
libvips is; `apt-get install liblcms2-2`)

Profiles:
  srgb-v4.icc           lcms2's built-in sRGB (v4.3)
  adobe-rgb-like-v2.icc Adobe RGB (1998) primaries, D65, gamma 563/256, written as v2.1
  display-p3-like-v4.icc Display P3 primaries, D65, the sRGB curve (parametric type 4), v4.3
  prophoto-like-v2.icc  ROMM (ProPhoto) primaries, D50, gamma 1.8, v2.1
  gray-gamma-2.2-v2.icc grey, D65, gamma 2.2, v2.1
  swapped-primaries-v4.icc sRGB with its red and green primaries exchanged (right only if the profile is applied)
  truncated.icc         adobe-rgb-like-v2.icc cut to 100 bytes (shorter than the 128-byte header)
"""
import argparse
import ctypes
import ctypes.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class XYY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


class XYYTriple(ctypes.Structure):
    _fields_ = [("red", XYY), ("green", XYY), ("blue", XYY)]


def load():
    name = ctypes.util.find_library("lcms2") or "liblcms2.so.2"
    lib = ctypes.CDLL(name)
    lib.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lib.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XYY), ctypes.POINTER(XYYTriple), ctypes.c_void_p * 3]
    lib.cmsCreateGrayProfile.restype = ctypes.c_void_p
    lib.cmsCreateGrayProfile.argtypes = [ctypes.POINTER(XYY), ctypes.c_void_p]
    lib.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
    lib.cmsBuildGamma.restype = ctypes.c_void_p
    lib.cmsBuildGamma.argtypes = [ctypes.c_void_p, ctypes.c_double]
    lib.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lib.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_double)]
    lib.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
    lib.cmsMLUalloc.restype = ctypes.c_void_p
    lib.cmsMLUalloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lib.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
    lib.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    lib.cmsCloseProfile.argtypes = [ctypes.c_void_p]
    return lib


DESC = 0x64657363  # 'desc'
D65 = (0.3127, 0.3290)
D50 = (0.3457, 0.3585)
SRGB = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06))
SRGB_CURVE = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]


def save(lib, handle, description, version):
    mlu = lib.cmsMLUalloc(None, 1)
    lib.cmsMLUsetASCII(mlu, b"en", b"US", description.encode())
    lib.cmsWriteTag(handle, DESC, mlu)
    lib.cmsSetProfileVersion(handle, version)
    size = ctypes.c_uint32(0)
    lib.cmsSaveProfileToMem(handle, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lib.cmsSaveProfileToMem(handle, buffer, ctypes.byref(size))
    lib.cmsCloseProfile(handle)
    return buffer.raw[: size.value]


def curve(lib, gamma=None):
    if gamma is not None:
        return lib.cmsBuildGamma(None, gamma)
    params = (ctypes.c_double * 5)(*SRGB_CURVE)
    return lib.cmsBuildParametricToneCurve(None, 4, params)


def rgb(lib, white, primaries, gamma):
    wp = XYY(white[0], white[1], 1.0)
    tri = XYYTriple(*(XYY(x, y, 1.0) for x, y in primaries))
    c = curve(lib, gamma)
    curves = (ctypes.c_void_p * 3)(c, c, c)
    return lib.cmsCreateRGBProfile(ctypes.byref(wp), ctypes.byref(tri), curves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "icc"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lib = load()
    made = {}

    def record(name, data, **facts):
        with open(os.path.join(args.out, name), "wb") as out:
            out.write(data)
        made[name] = facts

    swapped = (SRGB[1], SRGB[0], SRGB[2])
    record("srgb-v4.icc", save(lib, lib.cmsCreate_sRGBProfile(), "sRGB built-in", 4.3), description="sRGB built-in",
           profileClass="mntr", colorSpace="RGB", pcs="XYZ", version="4.3", white=D65, primaries=SRGB, curve="srgb",
           srgbEquivalent=True)
    specs = [
        ("adobe-rgb-like-v2.icc", "Adobe RGB (1998)-like", D65, ((0.64, 0.33), (0.21, 0.71), (0.15, 0.06)), 563 / 256, 2.1),
        ("display-p3-like-v4.icc", "Display P3-like", D65, ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060)), None, 4.3),
        ("prophoto-like-v2.icc", "ProPhoto RGB-like", D50, ((0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)), 1.8, 2.1),
        ("swapped-primaries-v4.icc", "sRGB, red and green primaries exchanged", D65, swapped, None, 4.3),
    ]
    for name, description, white, primaries, gamma, version in specs:
        record(name, save(lib, rgb(lib, white, primaries, gamma), description, version), description=description,
               profileClass="mntr", colorSpace="RGB", pcs="XYZ", version=str(version), white=white, primaries=primaries,
               curve="srgb" if gamma is None else {"gamma": gamma}, srgbEquivalent=False)
    grey = lib.cmsCreateGrayProfile(ctypes.byref(XYY(D65[0], D65[1], 1.0)), curve(lib, 2.2))
    record("gray-gamma-2.2-v2.icc", save(lib, grey, "Grey, gamma 2.2", 2.1), description="Grey, gamma 2.2",
           profileClass="mntr", colorSpace="GRAY", pcs="XYZ", version="2.1", white=D65, curve={"gamma": 2.2},
           srgbEquivalent=False)
    with open(os.path.join(args.out, "adobe-rgb-like-v2.icc"), "rb") as whole:
        record("truncated.icc", whole.read()[:100], truncated=True)
    manifest = {
        "schema": "imglab-icc-fixtures/1",
        "about": "ICC profiles made with Little CMS by scripts/make-icc-profiles.py; each entry states what the profile "
                 "was built from (white and primaries as CIE xy, the tone curve: srgb or a gamma).",
        "profiles": made,
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    print(f"{len(made)} profiles in {args.out}")


if __name__ == "__main__":
    main()

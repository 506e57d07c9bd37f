#!/usr/bin/env python3
"""Benchmark of `imglab diff` against its peers on two 3840×2160 RGB PNGs, in one run.

Runs every command BENCH_RUNS times (default 5) through /usr/bin/time and prints the median
wall time, the peak resident memory of the process, and the ratios the issue gates on:
  imglab diff (all metrics + diagnosis)  ≤ 0.2 × scikit-image SSIM alone
                                          ≤ 1.0 × ImageMagick compare -metric PSNR
                                          peak RSS ≤ 300 MiB
  imglab diff --report DIR                ≤ 0.5 × ImageMagick compare writing its diff image
  imglab diff, actual tagged Display P3   ≤ 1.2 × the same pair with --colour raw (the colour stage's cost:
                                          the tagged side converted to sRGB through its profile)
Peers: ImageMagick `compare`, GraphicsMagick `gm compare` (when installed), scikit-image
(`pip install scikit-image`). The pair is generated once by benchmarks/make_diff_pair.py
into $BENCH_DIR (default $TMPDIR/imglab-bench-diff).

Usage: benchmarks/diff.py [ROUNDS]   (default 5; builds the release imglab first)
Environment: BENCH_IMGLAB=PATH uses that imglab binary instead of building one (the script
builds with scripts/test's `-enable-testing` flag, so it does not throw that build away);
BENCH_BASELINE=PATH adds a row for another imglab binary (an earlier commit) in the same rounds.
ImageMagick is called as /usr/bin/compare-im6.q16 when present (the real IM 6 `compare`).
"""
import os, shutil, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_RUNS", "5"))
bench = os.environ.get("BENCH_DIR", os.path.join(tempfile.gettempdir(), "imglab-bench-diff"))
os.makedirs(bench, exist_ok=True)
expected, actual = os.path.join(bench, "expected.png"), os.path.join(bench, "actual.png")

if not (os.path.exists(expected) and os.path.exists(actual)):
    subprocess.run([sys.executable, os.path.join(root, "benchmarks/make_diff_pair.py"), bench], check=True)
# The colour-managed pair: the actual picture converted to a Display P3-like profile (the repository's
# fixture, made by Little CMS) by Pillow's ImageCms and tagged with it, so displayed colours are the same.
tagged = os.path.join(bench, "actual-display-p3.png")
if not os.path.exists(tagged):
    from PIL import Image, ImageCms
    p3 = ImageCms.getOpenProfile(os.path.join(root, "Tests/Fixtures/icc/display-p3-like-v4.icc"))
    picture = ImageCms.profileToProfile(Image.open(actual), ImageCms.createProfile("sRGB"), p3,
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    picture.save(tagged, icc_profile=p3.tobytes(), compress_level=6)
imglab = os.environ.get("BENCH_IMGLAB")
if not imglab:
    subprocess.run(["swift", "build", "-c", "release", "-Xswiftc", "-enable-testing", "--product", "imglab"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    # The shipped configuration: the release binary runs its x86-64-v3 variant on CPUs with AVX2/FMA.
    subprocess.run([os.path.join(root, "scripts/build-hardware-variant")], check=True, stdout=subprocess.DEVNULL)
    imglab = os.path.join(root, ".build/release/imglab")
baseline = os.environ.get("BENCH_BASELINE")
compare = "/usr/bin/compare-im6.q16" if os.path.exists("/usr/bin/compare-im6.q16") else "compare"
report = os.path.join(bench, "report")
diff_png = os.path.join(bench, "im-diff.png")

commands = [
    ("imglab diff", [imglab, "diff", expected, actual]),
    ("imglab diff --report", [imglab, "diff", expected, actual, "--report", report]),
    ("ImageMagick compare -metric PSNR", [compare, "-metric", "PSNR", expected, actual, "null:"]),
    ("ImageMagick compare (diff image)", [compare, expected, actual, diff_png]),
    ("imglab diff, actual tagged Display P3", [imglab, "diff", expected, tagged]),
    ("imglab diff --colour raw, same pair", [imglab, "diff", expected, tagged, "--colour", "raw"]),
    ("scikit-image SSIM", [sys.executable, os.path.join(root, "benchmarks/skimage_ssim.py"), expected, actual]),
]
if baseline:
    commands.insert(1, ("imglab diff (baseline binary)", [baseline, "diff", expected, actual]))
if shutil.which("gm"):
    commands.append(("GraphicsMagick compare -metric PSNR", ["gm", "compare", "-metric", "PSNR", expected, actual]))

def measure(argv):
    """One run: (wall seconds, peak RSS MiB, CPU seconds user + system) of the command, by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %M %U %S"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, kib, user, system = t.read().split()[-4:]
        return float(wall), int(kib) / 1024, float(user) + float(system)

results = {}
load_start = os.getloadavg()[0]
for round_ in range(runs):          # interleaved rounds: every tool sees the same machine load
    for name, argv in commands:
        if argv[0] not in (imglab, baseline) and shutil.which(argv[0]) is None:
            continue
        results.setdefault(name, []).append(measure(argv))

print(f"machine: {os.cpu_count()} cores; load average {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
      f"{runs} interleaved runs, medians")
print(f"{'command':40} {'wall s':>8} {'CPU s':>7} {'peak MiB':>9} {'÷ imglab diff':>14}")
base = statistics.median(w for w, _, _ in results["imglab diff"])
medians = {}
for name, samples in results.items():
    wall = statistics.median(w for w, _, _ in samples)
    cpu = statistics.median(c for _, _, c in samples)
    rss = max(m for _, m, _ in samples)
    medians[name] = (wall, rss)
    print(f"{name:40} {wall:8.2f} {cpu:7.2f} {rss:9.0f} {wall / base:14.2f}")

def check(label, value, limit):
    print(f"  {'ok  ' if value <= limit else 'MISS'} {label}: {value:.2f} (limit {limit})")

print("acceptance (issue 4, point 4):")
d, r = medians["imglab diff"], medians["imglab diff --report"]
if "scikit-image SSIM" in medians:
    check("imglab diff ÷ scikit-image SSIM", d[0] / medians["scikit-image SSIM"][0], 0.2)
check("imglab diff ÷ ImageMagick compare -metric PSNR", d[0] / medians["ImageMagick compare -metric PSNR"][0], 1.0)
check("imglab diff peak RSS, MiB", d[1], 300)
check("imglab diff --report ÷ ImageMagick compare with diff image", r[0] / medians["ImageMagick compare (diff image)"][0], 0.5)
check("imglab diff --report peak RSS, MiB", r[1], 300)
print("acceptance (colour management):")
check("imglab diff of a tagged pair ÷ the same with --colour raw",
      medians["imglab diff, actual tagged Display P3"][0] / medians["imglab diff --colour raw, same pair"][0], 1.2)

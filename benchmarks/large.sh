#!/usr/bin/env bash
# The large-input benchmark of issue 20: memory that does not grow with the input. imglab and
# vipsthumbnail on 12000 × 9000 RGBA PNG, TIFF (LZW, strips) and BMP, each through
# `thumbnail --max-pixel-size 800` and `resize --size 800x600`, plus the 6000 × 4000 JPEG
# thumbnail, interleaved over several rounds in the same run; prints median wall time, the
# ratio to vipsthumbnail, and peak RSS (GNU time's %M). Targets: peak RSS ≤ 64 MiB for the
# large inputs (≤ 25 MiB for the JPEG), time ≤ 0.8× vipsthumbnail (≤ 0.6× for the JPEG).
#
# usage: benchmarks/large.sh [ROUNDS]   (default 3; needs GNU time, python3 with numpy + Pillow,
#        and vipsthumbnail from libvips-tools for the peer rows)
# BENCH_IMGLAB=PATH uses that imglab binary, else .build/release/imglab (built if missing).
# Inputs go to $IMGLAB_BENCH_INPUTS (default /tmp/imglab-bench-inputs), about 1.1 GB, not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
inputs=${IMGLAB_BENCH_INPUTS:-/tmp/imglab-bench-inputs}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 benchmarks/make_inputs.py "$inputs" >&2
python3 benchmarks/make_large_inputs.py "$inputs" >&2
if [ -n "${BENCH_IMGLAB:-}" ]; then
  imglab=$(realpath "$BENCH_IMGLAB")
else
  [ -x .build/release/imglab-core ] || { swift build -c release -Xswiftc -enable-testing --product imglab-core >&2 && swift build -c release -Xswiftc -enable-testing --product imglab >&2; }
  imglab=$PWD/.build/release/imglab
fi
have_vips=0
command -v vipsthumbnail >/dev/null && have_vips=1

# name | tool | command (run from $inputs; {out} is a scratch folder)
tasks=()
for kind in png bmp tif; do
  file=rgba-12000x9000.$kind
  [ "$kind" = tif ] && file=rgba-12000x9000-lzw.tif
  tasks+=("$kind-12000x9000-thumb800|imglab|$imglab thumbnail $file --max-pixel-size 800 -o {out}/a.png")
  tasks+=("$kind-12000x9000-resize800x600|imglab|$imglab resize $file --size 800x600 -o {out}/b.png")
  if [ $have_vips = 1 ]; then
    tasks+=("$kind-12000x9000-thumb800|vipsthumbnail|vipsthumbnail $file -s 800 -o {out}/c.png")
    tasks+=("$kind-12000x9000-resize800x600|vipsthumbnail|vipsthumbnail $file -s 800x600! -o {out}/d.png")
  fi
done
tasks+=("jpeg-6000x4000-thumb640|imglab|$imglab thumbnail photo-6000x4000.jpg --max-pixel-size 640 -o {out}/e.jpg")
[ $have_vips = 1 ] && tasks+=("jpeg-6000x4000-thumb640|vipsthumbnail|vipsthumbnail photo-6000x4000.jpg -s 640 -o {out}/f.jpg")

results=$(mktemp)
for ((r = 1; r <= rounds; r++)); do
  for t in "${tasks[@]}"; do
    IFS='|' read -r name tool cmd <<< "$t"
    cmd=${cmd//\{out\}/$out}
    line=$( cd "$inputs" && /usr/bin/time -f "%e %M" bash -c "$cmd" 2>&1 >/dev/null | tail -1 )
    echo "$name|$tool|$line" >> "$results"
  done
  echo "round $r of $rounds done" >&2
done

python3 - "$results" <<'PY'
import statistics, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, tool, rest = line.rstrip("\n").split("|")
    secs, kib = rest.split()
    rows[(name, tool)].append((float(secs), int(kib)))
names = list(dict.fromkeys(k[0] for k in rows))
print(f"{'task':32} {'tool':14} {'median s':>9} {'peak MiB':>9} {'time ratio':>10} {'RSS ratio':>9}  target")
for name in names:
    ref = rows.get((name, "vipsthumbnail"))
    ref_t = statistics.median(s for s, _ in ref) if ref else None
    ref_m = max(m for _, m in ref) / 1024 if ref else None
    for (n, tool), samples in rows.items():
        if n != name: continue
        t = statistics.median(s for s, _ in samples); m = max(k for _, k in samples) / 1024
        tr = f"{t / ref_t:10.2f}" if ref_t else f"{'-':>10}"
        mr = f"{m / ref_m:9.2f}" if ref_m else f"{'-':>9}"
        target = ""
        if tool == "imglab":
            jpeg = name.startswith("jpeg")
            ok_m = m <= (25 if jpeg else 64)
            ok_t = ref_t is None or t <= (0.6 if jpeg else 0.8) * ref_t
            target = ("RSS ok" if ok_m else "RSS OVER") + ", " + ("time ok" if ok_t else "time OVER")
        print(f"{name:32} {tool:14} {t:9.3f} {m:9.1f} {tr} {mr}  {target}")
PY

#!/usr/bin/env python3
"""The cost check: instructions executed and peak heap bytes of imglab on fixed inputs, against the
committed baseline (benchmarks/cost/baseline.json). Fails when a case grows by more than 10 % in
either count. Both counts come from valgrind's DHAT, which executes the program on a synthetic CPU:
the instruction count ("te": every guest instruction of every thread) and the heap at its peak
("t-gmax": bytes live in malloc blocks) do not depend on machine load or clock speed. Runs vary by
about 0.01 % (thread interleaving); 10 % is the budget for a change nobody meant to make.

The cases (inputs from benchmarks/cost/make_inputs.py, written once into .build/cost/inputs):
  diff            two 1024×768 PNGs, most pixels differing a little: every metric and the diagnosis
  diff-noise      two 1024×768 PNGs differing by a ±2 noise: the metrics' passes weigh most (the diagnosis is quick)
  diff-report     the same shifted pair with --report (the HTML page and its images)
  thumbnail       a 3000×2000 JPEG to 320 pixels (shrink-on-load)
  resize          the 1024×768 PNG to 500×375, Lanczos 3 in linear light
  run-slice       the quick lab on one format family (the built-in resizer, one thread)
  folder-diff     two folders of six 320×240 keys (equal, changed, added, removed)

The binary is .build/release/imglab-core (the portable baseline build, so the counts do not depend on
the CPU's features), copied without its debug sections (valgrind 3.19 cannot read Swift's DWARF 5).

Usage:
  benchmarks/cost/check.py              compare with the baseline; exit 1 when a count grew > 10 %
  benchmarks/cost/check.py --update     measure and write the baseline (commit it with the change
                                        that justifies it)
  benchmarks/cost/check.py --only NAME  one case (repeatable)
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASELINE = os.path.join(ROOT, "benchmarks/cost/baseline.json")
WORK = os.path.join(ROOT, ".build/cost")
INPUTS = os.path.join(WORK, "inputs")
TOLERANCE = 0.10


def cases(out):
    i = INPUTS
    return [
        ("diff", ["diff", f"{i}/photo.png", f"{i}/photo-shifted.png"], (0, 1)),
        ("diff-noise", ["diff", f"{i}/photo.png", f"{i}/photo-noisy.png"], (0, 1)),
        ("diff-report", ["diff", f"{i}/photo.png", f"{i}/photo-shifted.png", "--report", f"{out}/report"], (0, 1)),
        ("thumbnail", ["thumbnail", f"{i}/photo-3000.jpg", "--max-pixel-size", "320", "-o", f"{out}/t.png"], (0,)),
        ("resize", ["resize", f"{i}/photo.png", "--size", "500x375", "-o", f"{out}/r.png"], (0,)),
        ("run-slice", ["run", "--corpus", os.path.join(ROOT, "Corpus"), "--filter", "jpeg-420*", "--threads", "1",
                       "--report", "none"], (0,)),
        ("folder-diff", ["diff", f"{i}/folder-a", f"{i}/folder-b", "--threads", "1", "--json",
                         f"{out}/folder.json"], (0, 1)),
    ]


def prepare_inputs():
    """Writes the inputs once; again when the generator changes (its hash is kept beside them)."""
    generator = os.path.join(ROOT, "benchmarks/cost/make_inputs.py")
    digest = hashlib.sha256(open(generator, "rb").read()).hexdigest()
    stamp = os.path.join(INPUTS, ".generator-sha256")
    if os.path.exists(stamp) and open(stamp).read() == digest:
        return
    shutil.rmtree(INPUTS, ignore_errors=True)
    subprocess.run([sys.executable, generator, INPUTS], check=True)
    with open(stamp, "w") as f:
        f.write(digest)


def binary(imglab):
    """A copy of imglab without debug sections, which valgrind can load."""
    copy = os.path.join(WORK, "imglab-core")
    subprocess.run(["strip", "--strip-debug", "-o", copy, imglab], check=True)
    return copy


def measure(exe, argv, codes, scratch):
    """(instructions, peak heap bytes) of one run under DHAT."""
    log, dhat = os.path.join(scratch, "dhat.log"), os.path.join(scratch, "dhat.json")
    run = subprocess.run(["valgrind", "--tool=dhat", f"--log-file={log}", f"--dhat-out-file={dhat}", exe] + argv,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=scratch)
    if run.returncode not in codes:
        sys.exit(f"cost check: `imglab {' '.join(argv)}` exited with {run.returncode}: {run.stderr.strip()[-400:]}")
    instructions = json.load(open(dhat))["te"]
    match = re.search(r"At t-gmax:\s+([\d,]+) bytes", open(log).read())
    if not match:
        sys.exit(f"cost check: DHAT printed no peak for `imglab {' '.join(argv)}` (see {log})")
    return instructions, int(match.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the measured counts as the baseline")
    parser.add_argument("--only", action="append", help="run only this case (repeatable)")
    parser.add_argument("--imglab", default=os.path.join(ROOT, ".build/release/imglab-core"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("cost check: skipped: valgrind is not installed (apt-get install valgrind)")
        sys.exit(1 if os.environ.get("IMGLAB_CI") == "1" else 0)
    os.makedirs(WORK, exist_ok=True)
    prepare_inputs()
    exe = binary(args.imglab)
    baseline = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {"cases": {}}
    measured, grown, shrunk = {}, [], []
    print(f"{'case':12} {'instructions':>15} {'baseline':>15} {'Δ':>7}  {'heap peak':>12} {'baseline':>12} {'Δ':>7}")
    for name, argv, codes in cases("."):
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix="imglab-cost-") as scratch:
            instructions, heap = measure(exe, argv, codes, scratch)
        measured[name] = {"instructions": instructions, "heapPeakBytes": heap}
        row = f"{name:12} {instructions:15,}"
        base = baseline["cases"].get(name)
        for key, value in (("instructions", instructions), ("heapPeakBytes", heap)):
            if base is None:
                row += f" {'(none)':>15} {'':>7}" if key == "instructions" else f"  {value:12,} {'(none)':>12}"
                continue
            change = value / base[key] - 1
            cell = f"{base[key]:15,} {change:+7.1%}" if key == "instructions" else f"  {value:12,} {base[key]:12,} {change:+7.1%}"
            row += " " + cell if key == "instructions" else cell
            if change > TOLERANCE:
                grown.append(f"{name} {key} {change:+.1%}")
            elif change < -TOLERANCE:
                shrunk.append(f"{name} {key} {change:+.1%}")
        print(row, flush=True)
    if args.update:
        baseline["cases"].update(measured)
        baseline["note"] = ("Counts of benchmarks/cost/check.py (valgrind DHAT: instructions executed, heap bytes at "
                            "the peak). Rewritten by `benchmarks/cost/check.py --update`.")
        tmp = BASELINE + ".tmp"
        with open(tmp, "w") as f:
            json.dump(baseline, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, BASELINE)
        print(f"cost check: baseline written ({len(measured)} cases) to {os.path.relpath(BASELINE, ROOT)}")
        return
    missing = [n for n in measured if n not in baseline["cases"]]
    if shrunk:
        print("cost check: smaller than the baseline by more than 10 % (update it: benchmarks/cost/check.py --update): "
              + ", ".join(shrunk))
    if grown or missing:
        print("cost check: FAILED: " + ", ".join(grown + [f"{n} has no baseline" for n in missing]))
        sys.exit(1)
    print(f"cost check: {len(measured)} cases within 10 % of the baseline (instructions and heap peak)")


if __name__ == "__main__":
    main()

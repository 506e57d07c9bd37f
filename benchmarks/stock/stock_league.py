#!/usr/bin/env python3
"""Runs the stock resizer scripts of this folder through `imglab run` with a plain `cmd:` (no config,
so each is fingerprinted first and judged against its inferred contract) over the quick corpus's
resize pairs, and prints the figures LEAGUE.md reports: per resizer the judged pairs, passes,
failures named by the diagnosis (by bug class), failures left undiagnosed, and errors.

Usage: benchmarks/stock/stock_league.py [--imglab PATH] [--write LEAGUE.md]

--write replaces the part of the file between the markers
"<!-- stock-league:begin -->" and "<!-- stock-league:end -->" with the table (atomically).
A resizer whose program is missing (python3 module cv2, vipsthumbnail) gets a row saying so.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARGS = "{in} {out} {mode} {width} {height}"
STOCK = [
    ("Pillow (LANCZOS, EXIF applied)", f"python3 {HERE}/pillow_stock.py {ARGS} {{anchorx}} {{anchory}}",
     lambda: _module("PIL")),
    ("OpenCV (INTER_AREA / INTER_CUBIC, IMREAD_UNCHANGED)", f"python3 {HERE}/opencv_stock.py {ARGS} {{anchorx}} {{anchory}}",
     lambda: _module("cv2")),
    ("libvips (vipsthumbnail)", f"sh {HERE}/vips_stock.sh {ARGS} {{smartcrop}}", lambda: shutil.which("vipsthumbnail") is not None),
]
BEGIN, END = "<!-- stock-league:begin -->", "<!-- stock-league:end -->"


def _module(name):
    return subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True).returncode == 0


def judge(imglab, template, folder):
    out = os.path.join(folder, "results.json")
    run = subprocess.run([imglab, "run", "--resizer", "cmd:" + template, "--filter", "*/resize-*",
                          "--corpus", os.path.join(ROOT, "Corpus"), "--report", "none", "--json", out],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"imglab run failed ({run.returncode}): {run.stderr[-2000:]}")
    contract = [line for line in run.stdout.splitlines() if line.startswith("imglab run: ") and "fingerprint" in line]
    with open(out) as f:
        return json.load(f), contract


def row(name, results):
    pairs = results["pairs"]
    judged = [p for p in pairs if p["verdict"] != "error"]
    failed = [p for p in pairs if p["verdict"] == "fail"]
    named = collections.Counter((p.get("diagnosis") or {}).get("bugClass") for p in failed)
    undiagnosed = named.pop(None, 0)
    passed = sum(p["verdict"] == "pass" for p in pairs)
    errors = sum(p["verdict"] == "error" for p in pairs)
    by_class = ", ".join(f"{k} {v}" for k, v in sorted(named.items(), key=lambda kv: (-kv[1], kv[0]))) or "–"
    share = lambda n: f"{100 * n / max(1, len(judged)):.1f} %"
    return (f"| {name} | {len(judged)} | {passed} ({share(passed)}) | {by_class} | "
            f"{undiagnosed} ({share(undiagnosed)}) | {errors} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--imglab", default=os.path.join(ROOT, ".build/release/imglab"))
    parser.add_argument("--write", metavar="FILE")
    args = parser.parse_args()
    lines = ["| resizer (stock script, plain `cmd:`) | judged | pass | failures named, by bug class | undiagnosed | error |",
             "|---|---:|---:|---|---:|---:|"]
    contracts = []
    for name, template, available in STOCK:
        if not available():
            lines.append(f"| {name} | – | – | not installed | – | – |")
            continue
        with tempfile.TemporaryDirectory(prefix="stock-league-") as folder:
            results, contract = judge(args.imglab, template, folder)
        lines.append(row(name, results))
        policy = results.get("policy") or {}
        contracts.append(f"- {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(policy.items())
                                                   if k in ("kernel", "lightSpace", "edge", "rounding", "antialiasing",
                                                            "intermediateBits", "firstFrameOnly", "enlargingKernel", "arithmetic")))
    text = "\n".join(lines + ["", "The contracts the fingerprints inferred (what each was judged against):", ""] + contracts)
    print(text)
    if args.write:
        with open(args.write) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            raise SystemExit(f"{args.write} has no {BEGIN} … {END} section")
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.write)), prefix=".stock-league-")
        with os.fdopen(fd, "w") as f:
            f.write(head + BEGIN + "\n" + text + "\n" + END + tail)
        os.replace(tmp, args.write)


if __name__ == "__main__":
    main()

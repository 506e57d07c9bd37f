#!/usr/bin/env python3
"""Benchmark of `imglab reproduce`: every topic of `imglab reproduce --list`, run BENCH_RUNS
times (default 3) through /usr/bin/time on the committed quick corpus, report included.

Prints per topic the median wall time, the peak resident memory of the process, the exit status
(0 reproduced, 1 not) and the tally line. Issue 7 asks for under 30 s per topic.

Usage: benchmarks/reproduce.py [ROUNDS]   (default 3; builds the release imglab first, with the
flags of scripts/test, so an existing test build is reused rather than replaced)
"""
import os, re, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_RUNS", "3"))
subprocess.run(["swift", "build", "-c", "release", "-Xswiftc", "-enable-testing", "--product", "imglab"], cwd=root, check=True,
               stdout=subprocess.DEVNULL)
imglab = os.path.join(root, ".build/release/imglab")
listing = subprocess.run([imglab, "reproduce", "--list"], cwd=root, check=True, capture_output=True, text=True).stdout
topics = [line for line in listing.splitlines()[1:] if re.fullmatch(r"[a-z0-9-]+", line)]

print(f"{'topic':22} {'wall s':>7} {'peak MiB':>9} {'exit':>4}  tally")
worst = 0.0
with tempfile.TemporaryDirectory() as out:
    for topic in topics:
        walls, peaks, status, tally = [], [], None, ""
        for _ in range(runs):
            timing = os.path.join(out, "time.txt")
            p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", timing, imglab, "reproduce", topic,
                                "--report", os.path.join(out, topic)], cwd=root, capture_output=True, text=True)
            wall, kib = open(timing).read().split()[-2:]
            walls.append(float(wall)); peaks.append(int(kib) / 1024)
            status = p.returncode
            tally = next((l for l in p.stdout.splitlines() if l.startswith(("Reproduced", "NOT reproduced"))), p.stderr.strip()[:80])
        wall = statistics.median(walls)
        worst = max(worst, wall)
        print(f"{topic:22} {wall:7.2f} {max(peaks):9.1f} {status:>4}  {tally}")
print(f"slowest topic: {worst:.2f} s (limit 30 s)")

#!/usr/bin/env python3
"""Benchmark of `imglab diff EXPECTED_DIR ACTUAL_DIR` against ImageMagick `compare` in a shell
loop (reg-cli's job; reg-cli itself needs npm), on the same two folders, in one run.

The folders (200 keys of 1920×1080 PNGs: 20 changed by mutant effects, 5 new, 5 deleted, 170
re-encoded but equal by value) are made once by benchmarks/make_folder_pairs.py into $BENCH_DIR
(default $TMPDIR/imglab-bench-folders), with truth.json.

Rows, each run BENCH_RUNS times (default 3), median wall time and peak RSS by /usr/bin/time
(for the shell loop, the largest `compare` process):
  imglab diff DIR DIR --json -                   (judges every pair: all metrics, the diagnosis of each changed pair)
  imglab diff DIR DIR --json - --report R --junit J (plus the HTML report and JUnit)
  compare -metric AE loop                          (one `compare` per pair writing its diff image; new/deleted by `test -e`)
Then checks the outcome against truth.json: every changed key reported changed and named (its
diagnosis class vs the mutant's), every new and deleted key found, nothing else flagged — for
imglab from its JSON, for the loop from the AE counts it printed.

Usage: benchmarks/folder_diff.py [RUNS]
Environment: BENCH_IMGLAB=PATH (default .build/release/imglab, built by you), BENCH_THREADS=N
(imglab --threads; default the number of cores), BENCH_DIR.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_RUNS", "3"))
bench = os.environ.get("BENCH_DIR", os.path.join(tempfile.gettempdir(), "imglab-bench-folders"))
imglab = os.environ.get("BENCH_IMGLAB", os.path.join(root, ".build/release/imglab"))
threads = os.environ.get("BENCH_THREADS", str(os.cpu_count() or 1))
expected, actual = os.path.join(bench, "expected"), os.path.join(bench, "actual")
if not os.path.exists(os.path.join(bench, "truth.json")):
    subprocess.run([sys.executable, os.path.join(root, "benchmarks/make_folder_pairs.py"), bench], check=True)
truth = json.load(open(os.path.join(bench, "truth.json")))
compare = "/usr/bin/compare-im6.q16" if os.path.exists("/usr/bin/compare-im6.q16") else shutil.which("compare")
if not compare:
    sys.exit("ImageMagick compare is not installed (apt-get install imagemagick)")
out = os.path.join(bench, "out")
os.makedirs(out, exist_ok=True)

# The peer: one compare per key present on both sides (AE = differing pixels, its diff image
# written as reg-cli writes one), a line per key: KEY STATUS [AE].
loop = f"""
cd '{expected}' || exit 2
mkdir -p '{out}/im-diff'
find . -name '*.png' | sort | while read -r f; do
  k=${{f#./}}
  if [ -e '{actual}'/"$k" ]; then
    ae=$('{compare}' -metric AE "$k" '{actual}'/"$k" '{out}/im-diff'/"$(echo "$k" | tr / _)" 2>&1 >/dev/null)
    echo "$k compared $ae"
  else
    echo "$k deleted"
  fi
done
cd '{actual}' && find . -name '*.png' | sort | while read -r f; do k=${{f#./}}; [ -e '{expected}'/"$k" ] || echo "$k new"; done
"""
commands = [
    ("imglab diff --json", [imglab, "diff", expected, actual, "--json", "-", "--threads", threads], os.path.join(out, "imglab.json")),
    ("imglab diff --json --report --junit", [imglab, "diff", expected, actual, "--json", "-", "--threads", threads,
                                              "--report", os.path.join(out, "report"), "--junit", os.path.join(out, "junit.xml")],
     os.path.join(out, "imglab-report.json")),
    ("ImageMagick compare -metric AE loop", ["bash", "-c", loop], os.path.join(out, "compare.txt")),
]


def measure(argv, stdout_path):
    """One run: (wall seconds, peak RSS MiB) by /usr/bin/time; the command's stdout to stdout_path."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t, open(stdout_path, "w") as so:
        subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %M"] + argv, stdout=so, stderr=subprocess.DEVNULL)
        wall, kib = t.read().split()[-2:]
        return float(wall), int(kib) / 1024


results = {name: [] for name, _, _ in commands}
for _ in range(runs):
    for name, argv, path in commands:
        results[name].append(measure(argv, path))

print(f"{len(truth)} keys of 1920×1080 PNGs in {bench}; {runs} runs each, median; imglab --threads {threads}; {os.cpu_count()} cores")
print(f"{'command':40} {'wall s':>8} {'peak RSS MiB':>13} {'time ratio':>11}")
peer = statistics.median(w for w, _ in results["ImageMagick compare -metric AE loop"])
for name, _, _ in commands:
    wall = statistics.median(w for w, _ in results[name])
    rss = statistics.median(r for _, r in results[name])
    print(f"{name:40} {wall:8.2f} {rss:13.1f} {wall / peer:11.2f}")

# Findings against the truth.
want = {k: t["status"] for k, t in truth.items()}
j = json.load(open(os.path.join(out, "imglab.json")))
got = {i["key"]: i["status"] for i in j["items"]}
changed = [k for k, s in want.items() if s == "changed"]
named = {k: next(i for i in j["items"] if i["key"] == k).get("diagnosisClass") for k in changed}
print(f"imglab: exit status {j['exitStatus']}; {j['summary']}")
print(f"imglab: changed found {sum(got.get(k) == 'changed' for k in changed)}/{len(changed)}, "
      f"named with the mutant's class {sum(named[k] == truth[k]['class'] for k in changed)}/{len(changed)}; "
      f"new {sum(got.get(k) == 'new' for k, s in want.items() if s == 'new')}/5, deleted {sum(got.get(k) == 'deleted' for k, s in want.items() if s == 'deleted')}/5; "
      f"false alarms {sum(1 for k, s in got.items() if s != want.get(k) and want.get(k) == 'unchanged')}")
for k in changed:
    if named[k] != truth[k]["class"]:
        print(f"  {k}: {truth[k]['mutant']} named {named[k]} (expected {truth[k]['class']})")
peer_status = {}
for line in open(os.path.join(out, "compare.txt")):
    parts = line.split()
    if len(parts) >= 2:
        peer_status[parts[0]] = parts[1] if parts[1] != "compared" else ("changed" if len(parts) > 2 and parts[2] not in ("0", "0(0)") else "unchanged")
print(f"compare loop: changed found {sum(peer_status.get(k) == 'changed' for k in changed)}/{len(changed)} (unnamed: AE counts only); "
      f"new {sum(peer_status.get(k) == 'new' for k, s in want.items() if s == 'new')}/5, deleted {sum(peer_status.get(k) == 'deleted' for k, s in want.items() if s == 'deleted')}/5; "
      f"false alarms {sum(1 for k, s in peer_status.items() if s != want.get(k) and want.get(k) == 'unchanged')}")

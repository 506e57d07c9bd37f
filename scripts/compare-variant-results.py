#!/usr/bin/env python3
# Compares the quick-lab results of the baseline build and the x86-64-v3 build of imglab.
# Every pair, verdict, family, size, message and diagnosis class must be the same. Metric values
# may differ by float rounding only: the x86-64-v3 build may fuse multiply-adds, which moves a
# 16-bit output code now and then, so metrics in code units may differ by at most one 16-bit
# code (1/257 of an 8-bit code), the others by 0.5 % of their value, and PSNRs above 80 dB are not
# compared (there one 16-bit code moves them by dBs).
# Exit 1 with the differences, 2 when a file is missing or holds no pair (never vacuous).
import json, sys
try:
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
except Exception as e:
    print(f"compare-variant-results: {e}", file=sys.stderr); sys.exit(2)
pa, pb = a.get('pairs', []), b.get('pairs', [])
if not pa or len(pa) != len(pb):
    print(f"compare-variant-results: {len(pa)} vs {len(pb)} pairs", file=sys.stderr); sys.exit(2)
code_units = ('visible.', 'alpha.', 'translucent.', 'exact.max', 'deltaE00.', 'hidden.delta')
problems = []
for p, q in zip(pa, pb):
    for k in ('pair', 'verdict', 'family', 'expectedSize', 'actualSize', 'message', 'golden'):
        if p.get(k) != q.get(k): problems.append(f"{p.get('pair')}: {k} {p.get(k)!r} vs {q.get(k)!r}")
    if (p.get('diagnosis') or {}).get('bugClass') != (q.get('diagnosis') or {}).get('bugClass'):
        problems.append(f"{p.get('pair')}: diagnosis differs")
    ma, mb = p.get('metrics', {}), q.get('metrics', {})
    if set(ma) != set(mb): problems.append(f"{p.get('pair')}: metric names differ")
    for m in set(ma) & set(mb):
        x, y = ma[m], mb[m]
        if x == y: continue
        if not all(isinstance(v, (int, float)) for v in (x, y)):
            problems.append(f"{p.get('pair')}: {m} {x!r} vs {y!r}"); continue
        # Above 80 dB a PSNR measures a few 16-bit codes: one code more or less moves it by dBs.
        if m.startswith('psnr') and min(x, y) > 80: continue
        limit = 1 / 257 + 1e-9 if m.startswith(code_units) else 0.005 * max(abs(x), abs(y))
        if abs(x - y) > limit: problems.append(f"{p.get('pair')}: {m} {x} vs {y}")
if a.get('summary') != b.get('summary'): problems.append(f"summary {a.get('summary')} vs {b.get('summary')}")
if problems:
    print("compare-variant-results: the x86-64-v3 build's lab results differ from the baseline build's:", file=sys.stderr)
    for line in problems[:40]: print("  " + line, file=sys.stderr)
    sys.exit(1)
print(f"imglab: the x86-64-v3 build gives the baseline build's verdicts on all {len(pa)} pairs (metrics within one 16-bit code)")

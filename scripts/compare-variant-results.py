#!/usr/bin/env python3
# Compares the quick-lab results of the baseline build and the x86-64-v3 build of imglab: the two
# JSON files must be equal, value for value, apart from elapsed times and the corpus path. Both builds
# compute the same bytes (Swift does not fuse a * b + c into FMA; docs/hardware-variant.md), so every
# verdict, metric value and diagnosis is compared exactly.
# Exit 1 with the differences, 2 when a file is missing, unreadable or holds no pair (never vacuous).
import json, sys

IGNORED = ('corpus',)


def comparable(value, top=True):
    """The value without elapsed times (at any depth) and without the top-level corpus path."""
    if isinstance(value, dict):
        return {k: comparable(v, False) for k, v in value.items()
                if not k.startswith('elapsed') and not (top and k in IGNORED)}
    if isinstance(value, list):
        return [comparable(v, False) for v in value]
    return value


def differences(a, b, where, found):
    if len(found) >= 40:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                found.append(f"{where}.{k}: only in {'the baseline' if k in a else 'x86-64-v3'}")
            else:
                differences(a[k], b[k], f"{where}.{k}", found)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            label = x.get('pair') if isinstance(x, dict) and 'pair' in x else i
            differences(x, y, f"{where}[{label}]", found)
    elif a != b:
        found.append(f"{where}: {a!r} vs {b!r}")


if len(sys.argv) != 3:
    print("usage: compare-variant-results.py BASELINE.json X86-64-V3.json", file=sys.stderr); sys.exit(2)
try:
    a, b = (comparable(json.load(open(p))) for p in sys.argv[1:3])
except Exception as e:
    print(f"compare-variant-results: {e}", file=sys.stderr); sys.exit(2)
pairs = a.get('pairs') if isinstance(a, dict) else None
if not pairs or not isinstance(b, dict) or not b.get('pairs'):
    print("compare-variant-results: a results file holds no pair", file=sys.stderr); sys.exit(2)
if a != b:
    found = []
    differences(a, b, 'results', found)
    print("compare-variant-results: the x86-64-v3 build's lab results differ from the baseline build's:", file=sys.stderr)
    for line in found: print("  " + line, file=sys.stderr)
    sys.exit(1)
print(f"imglab: the x86-64-v3 build gives the baseline build's results on all {len(pairs)} pairs, value for value")

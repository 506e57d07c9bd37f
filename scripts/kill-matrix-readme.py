#!/usr/bin/env python3
"""The README's kill matrix, checked against (or written from) a selftest's results file.

    python3 scripts/kill-matrix-readme.py SELFTEST.json          # exit 1 when the README differs
    python3 scripts/kill-matrix-readme.py SELFTEST.json --write  # rewrite the README's figures from it

SELFTEST.json is `imglab selftest --json FILE` (schema imglab-selftest/1) over the quick corpus, as
scripts/test writes it. Checked and written: the table of the README's kill-matrix section (a row per
mutant: kind, bug class, caught / triggered, named / caught, required), its summary line (mutants,
built-in pairs), the mutant counts of the command table ("N gross, M subtle"), and the catalogue's
size in docs/selftest-and-mutants.md ("holds N mutants").
"""
import json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def percent(named, caught):
    return f"{round(100 * named / caught)} %" if caught else "— %"


def table(matrix):
    rows = ["| mutant | kind | bug class | caught / triggered | named / caught | required |",
            "|---|---|---|---:|---:|---:|"]
    for m in matrix["mutants"]:
        rows.append(f"| `{m['id']}` | {'subtle' if m['subtle'] else 'gross'} | {m['bugClass']} | "
                    f"{m['caught']} / {m['triggered']} | {m['named']} / {m['caught']} ({percent(m['named'], m['caught'])}) | "
                    f"{round(100 * m['requiredAccuracy'])} % |")
    return "\n".join(rows)


def expected_texts(matrix):
    """(pattern, replacement) pairs: each pattern must match the README once, and its text be the replacement."""
    mutants = matrix["mutants"]
    gross = sum(1 for m in mutants if not m["subtle"])
    b = matrix["builtin"]
    caught = "all caught and named" if matrix["passed"] else "NOT all caught and named"
    summary = f"The kill matrix: {len(mutants)} mutants, {caught}; built-in {b['pass']} / {b['pairs']} pairs pass"
    return [
        (r"The kill matrix: \d+ mutants, [^;<]+; built-in \d+ / \d+ pairs pass", summary),
        (r"\| mutant \| kind \| bug class \| caught / triggered \| named / caught \| required \|\n(?:\|.*\|\n?)+",
         table(matrix) + "\n"),
        (r"every catalogued mutant \(\d+ gross, \d+ subtle\)", f"every catalogued mutant ({gross} gross, {len(mutants) - gross} subtle)"),
    ], [(r"holds \d+ mutants", f"holds {len(mutants)} mutants")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    matrix = json.load(open(sys.argv[1]))
    if matrix.get("schema") != "imglab-selftest/1" or matrix.get("profile") != "quick" or matrix.get("allPairs"):
        sys.exit(f"{sys.argv[1]}: not a quick-corpus selftest of schema imglab-selftest/1 (the README's matrix is that one)")
    write = "--write" in sys.argv[2:]
    readme_checks, docs_checks = expected_texts(matrix)
    problems = []
    for path, checks in ((os.path.join(ROOT, "README.md"), readme_checks),
                         (os.path.join(ROOT, "docs/selftest-and-mutants.md"), docs_checks)):
        text = open(path, encoding="utf-8").read()
        for pattern, wanted in checks:
            found = list(re.finditer(pattern, text))
            if len(found) != 1:
                problems.append(f"{os.path.relpath(path, ROOT)}: expected one match of /{pattern[:60]}…/, found {len(found)}")
                continue
            if found[0].group(0).rstrip("\n") != wanted.rstrip("\n"):
                old = found[0].group(0).splitlines()
                new = wanted.splitlines()
                first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
                problems.append(f"{os.path.relpath(path, ROOT)}: '{old[first] if first < len(old) else '(missing)'}' "
                                f"where the selftest gives '{new[first] if first < len(new) else '(nothing)'}'")
                text = text[:found[0].start()] + wanted + text[found[0].end():]
        if write:
            tmp = f"{path}.tmp-{os.getpid()}"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
    if problems and not write:
        print("kill matrix: the README differs from the selftest's results (rewrite: python3 scripts/kill-matrix-readme.py "
              f"{sys.argv[1]} --write):")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print(f"kill matrix: README {'rewritten from' if write and problems else 'agrees with'} {sys.argv[1]} "
          f"({len(matrix['mutants'])} mutants)")


if __name__ == "__main__":
    main()

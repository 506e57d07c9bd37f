#!/usr/bin/env python3
"""The closing line of one `swift test` pass, read from the runner's xUnit file, not from its terminal output.

    python3 scripts/test-summary.py LABEL XUNIT RUNNER_STATUS [LOG]

XUNIT is what `swift test --xunit-output FILE` wrote for swift-testing (FILE with `-swift-testing` before its
extension; FILE itself for XCTest, read too when present). Every <testcase> counts once: failed when it holds a
<failure> or <error>, skipped when it holds <skipped> (its message attribute or text is the reason), passed otherwise. LOG, the
runner's output, is read only for its last line `... with N known issues` (known issues are not in the xUnit file).
Prints `LABEL: P passed, S skipped (reasons), K known issues, F failed` and exits 1 when the runner failed, the
file is missing or holds no test case, or, under IMGLAB_CI=1, anything was skipped.
"""
import collections, os, re, sys
import xml.etree.ElementTree as ET


def main():
    label, xunit, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    log = sys.argv[4] if len(sys.argv) > 4 else None
    stem, ext = os.path.splitext(xunit)
    files = [f for f in (f"{stem}-swift-testing{ext}", xunit) if os.path.exists(f) and os.path.getsize(f) > 0]
    cases = []
    for f in files:
        try:
            cases += list(ET.parse(f).getroot().iter("testcase"))
        except ET.ParseError as error:
            print(f"{label}: the runner's xUnit file {f} cannot be read: {error}", file=sys.stderr)
            return 1
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None and c not in failed]
    # swift-testing writes the reason as the element's text, XCTest as its `message` attribute.
    reasons = collections.Counter((c.find("skipped").get("message") or c.find("skipped").text or "").strip() or "no reason given"
                                  for c in skipped)
    known = 0
    if log and os.path.exists(log):
        # "... passed after 9.1 seconds with 2 known issues." or "... failed after 9.1 seconds with 4 issues
        # (including 2 known issues)."
        runs = [line for line in open(log, errors="replace").read().splitlines() if re.search(r"Test run with \d+ tests?", line)]
        found = re.search(r"(\d+) known issues?", runs[-1]) if runs else None
        known = int(found.group(1)) if found else 0
    if not cases:
        print(f"{label}: the runner wrote no test case to {xunit} (exit status {status})", file=sys.stderr)
        return 1
    why = "; ".join(f"{n}× {r}" for r, n in sorted(reasons.items()))
    print(f"{label}: {len(cases) - len(skipped) - len(failed)} passed, {len(skipped)} skipped{f' ({why})' if why else ''}, "
          f"{known} known issues, {len(failed)} failed")
    for c in failed[:20]:
        print(f"  failed: {c.get('classname')}.{c.get('name')}", file=sys.stderr)
    if status != 0 or failed:
        print(f"{label}: {len(failed)} failed; the test runner exited with status {status}", file=sys.stderr)
        return 1
    if skipped and os.environ.get("IMGLAB_CI") == "1":
        print(f"{label}: {len(skipped)} skipped in CI, where nothing may skip", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

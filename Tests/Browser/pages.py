"""The report pages under test, each made by imglab itself, and how to drive the viewer on each.

Four pages carry the compare views: `imglab diff A B --report DIR`, a pair page of `imglab run`,
a pair page of the folder diff (`imglab diff DIR_A DIR_B --report DIR`) and the reproduce page.
The first three share the diff viewer (`DiffViewer` in ImageReports: one `#stage`, keys); the
reproduce page has its own (`ReproduceReport`: one `.viewer` per pair, the stage clicked to toggle).
Each page's "expected" and "actual" are the two images the slider, blend and toggle compare."""

import glob
import os
import subprocess

import png

# A 48 × 32 fixture of 6 × 4 flat blocks, 8 pixels square, opaque; the actual image is the expected
# one with red and blue swapped, so every block differs strongly and a pixel tells which image shows.
FIXTURE_WIDTH, FIXTURE_HEIGHT = 48, 32


def fixture_pair():
    """The expected picture (reddish blocks) and the actual one (its R↔B swap, bluish)."""
    expected = bytearray()
    for y in range(FIXTURE_HEIGHT):
        for x in range(FIXTURE_WIDTH):
            expected += bytes([230, 40 + (y // 8) * 50, 30 + (x // 8) * 30, 255])
    actual = bytearray(expected)
    actual[0::4], actual[2::4] = expected[2::4], expected[0::4]
    return (png.Picture(FIXTURE_WIDTH, FIXTURE_HEIGHT, expected), png.Picture(FIXTURE_WIDTH, FIXTURE_HEIGHT, actual))


class PageError(Exception):
    """imglab did not make the page: the command, its status and its last output lines."""


def _run(command, cwd, accept):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode not in accept:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-6:])
        raise PageError(f"{' '.join(command)} exited with {done.returncode} (expected {accept}):\n{tail}")


def _write_fixture(folder, name):
    expected, actual = fixture_pair()
    paths = []
    for side, picture in (("expected", expected), ("actual", actual)):
        path = os.path.join(folder, side, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(png.encode(picture))
        paths.append(path)
    return paths


def _only(pattern):
    found = sorted(glob.glob(pattern))
    if len(found) != 1:
        raise PageError(f"expected one page matching {pattern}, found {len(found)}: {found}")
    return found[0]


def make_diff_page(imglab, repo, work):
    """`imglab diff expected.png actual.png --report DIR` on the swapped fixture: DIR/index.html."""
    expected, actual = _write_fixture(os.path.join(work, "diff"), "blocks.png")
    report = os.path.join(work, "diff-report")
    _run([imglab, "diff", expected, actual, "--report", report], repo, accept=(1,))  # they differ: exit 1
    return os.path.join(report, "index.html")


def make_run_page(imglab, repo, work):
    """The orient pair page of `imglab run --resizer mutant:swap-rb --filter 'png-rgba8-colorPatches*'`
    (run from the repository root, on the committed corpus): oracle against the swapped output."""
    report = os.path.join(work, "run")
    _run([imglab, "run", "--resizer", "mutant:swap-rb", "--filter", "png-rgba8-colorPatches*", "--report", report],
         repo, accept=(1,))  # every pair fails: exit 1
    return _only(os.path.join(report, "pairs", "*png-rgba8-colorPatches-48x32_orient.html"))


def make_folder_page(imglab, repo, work):
    """The pair page of `imglab diff expected/ actual/ --report DIR` for the one changed file."""
    root = os.path.join(work, "folders")
    _write_fixture(root, os.path.join("sub", "blocks.png"))
    report = os.path.join(work, "folder-report")
    _run([imglab, "diff", os.path.join(root, "expected"), os.path.join(root, "actual"), "--report", report],
         repo, accept=(1,))  # a changed file: exit 1
    return _only(os.path.join(report, "pairs", "*.html"))


def make_reproduce_page(imglab, repo, work):
    """`imglab reproduce pink-tint --report DIR`: DIR/index.html (correct against buggy output)."""
    report = os.path.join(work, "reproduce")
    _run([imglab, "reproduce", "pink-tint", "--report", report], repo, accept=(0,))  # reproduced: exit 0
    return os.path.join(report, "index.html")


class Viewer:
    """Where a page keeps its viewer's parts (CSS selectors inside `root`), how it toggles
    ("space" or "click" on the stage) and whether it has keys (1–5, + − 0, ← →)."""

    def __init__(self, root, stage, expected, actual, heat, amount, captions, toggle_by, keys):
        self.root, self.stage, self.expected, self.actual, self.heat = root, stage, expected, actual, heat
        self.amount, self.captions, self.toggle_by, self.keys = amount, captions, toggle_by, keys


DIFF_VIEWER = Viewer(root="#viewer", stage="#stage", expected="#imgExp", actual="#imgAct", heat="#imgHeat",
                     amount="#amount", captions=".label", toggle_by="space", keys=True)
# The first pair of the reproduce page whose correct and buggy outputs stack (it has a slider).
REPRODUCE_VIEWER = Viewer(root=".viewer:has([data-view=slider])", stage=".stage", expected=".pane.correct img",
                          actual=".pane.buggy img", heat=".pane.heat img", amount="input[type=range]",
                          captions="figcaption", toggle_by="click", keys=False)

# (name, maker, viewer): the pages in the order they are tested; a name starts every test name.
PAGES = [
    ("diff", make_diff_page, DIFF_VIEWER),
    ("run-pair", make_run_page, DIFF_VIEWER),
    ("folder-pair", make_folder_page, DIFF_VIEWER),
    ("reproduce", make_reproduce_page, REPRODUCE_VIEWER),
]

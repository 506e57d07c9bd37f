#!/usr/bin/env python3
"""The five compare views of imglab's report pages, rendered by a real browser and read back from
screenshots: Playwright for Python driving Debian's Chromium (`/usr/bin/chromium`, or
`$IMGLAB_CHROMIUM`).

For each page of `pages.PAGES` (diff, run pair, folder-diff pair, reproduce), built by the imglab
under test, every view (side by side, slider, blend, toggle, heat map) must put its image(s) on
screen at a non-zero size inside a stage at least as tall as them; the slider's split must follow
the range, the blend must move monotonically from the expected to the actual colours, the toggle
must alternate the two images, + and − must double and halve the displayed size, the heat map's
own colours must be on screen, and the diff viewer's keys must do what its help says. Which image shows is read from screenshot pixels: each
page's two images differ strongly in colour (an R↔B swap; on the reproduce page the pink tint's
ARGB read as RGBA), and only opaque pixels in steady areas of both, far apart in colour, are
judged. Each view's stage is also compared with a committed golden (`Tests/Fixtures/browser/`)
by `imglab diff --gate`.

    python3 Tests/Browser/report_views.py --imglab .build/release/imglab
    python3 Tests/Browser/report_views.py --record     # re-record the goldens, then review them

The last line is the summary `browser tests: N passed, M skipped (reason), K failed`; the exit
status is 1 when a test failed. Without Playwright or Chromium every test is skipped with the
reason, except under IMGLAB_CI=1, where each fails. A missing golden fails (never recorded by
itself); screenshots, and a diff report for each golden that does not match, go to --out.
"""

import argparse
import base64
import math
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import index_pages  # noqa: E402
import pages  # noqa: E402
import png  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GOLDENS = os.path.join(REPO, "Tests", "Fixtures", "browser")
VIEWS = ["side", "slider", "blend", "toggle", "heat"]
VIEWPORT = {"width": 1280, "height": 960}
# Of the judged pixels, the share that must show the right image (a few may sit where the
# screenshot's rounding of a fractional layout position falls on a block edge).
AGREEMENT = 0.97
# A golden passes when no more pixels differ visibly (|Δ| > 20 code values in any channel) than
# the stage's captions cover plus this share of the stage. Why: docs/testing.md, "Browser tests".
GOLDEN_SHARE = 0.005
GOLDEN_DELTA = 20


class Failure(Exception):
    """A test's check failed; the message says what was seen."""


def check(condition, message):
    if not condition:
        raise Failure(message)


# --- reading the screen ------------------------------------------------------------------------

NATURAL_JS = """(im) => {
  const c = document.createElement('canvas'); c.width = im.naturalWidth; c.height = im.naturalHeight;
  const g = c.getContext('2d'); g.drawImage(im, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let s = ''; for (let i = 0; i < d.length; i += 8192) { s += String.fromCharCode.apply(null, d.subarray(i, i + 8192)); }
  return [c.width, c.height, btoa(s)];
}"""

# The same read-back on a PNG given as base64, decoded first.
DECODE_JS = """async (b64) => {
  const im = new Image(); im.src = 'data:image/png;base64,' + b64; await im.decode();
  return (""" + NATURAL_JS + """)(im);
}"""

BOXES_JS = """(root, sel) => {
  const box = (e) => {
    if (!e || !e.checkVisibility({visibilityProperty: true})) { return null; }
    const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height];
  };
  return {stage: box(root.querySelector(sel.stage)), expected: box(root.querySelector(sel.expected)),
          actual: box(root.querySelector(sel.actual)), heat: box(root.querySelector(sel.heat))};
}"""

CAPTIONS_JS = """(root, sel) => {
  const s = root.querySelector(sel.stage).getBoundingClientRect();
  let area = 0;
  for (const c of root.querySelectorAll(sel.stage + ' ' + sel.captions)) {
    if (!c.checkVisibility({visibilityProperty: true})) { continue; }
    const r = c.getBoundingClientRect();
    const w = Math.min(r.right, s.right) - Math.max(r.left, s.left), h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (w > 0 && h > 0) { area += Math.ceil(w) * Math.ceil(h); }
  }
  return area;
}"""


def distance(p, q):
    """The largest |Δ| of R, G and B."""
    return max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2]))


class Screen:
    """One browser tab on one report page, and the means to read what it shows."""

    def __init__(self, context, decoder, url, viewer):
        self.tab, self.decoder, self.viewer = context.new_page(), decoder, viewer
        self.errors = []
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        self.tab.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.tab.goto(url)
        self.tab.wait_for_selector('body[data-ready="1"]', state="attached", timeout=10000)
        self.root = self.tab.locator(viewer.root).first
        check(self.root.count() == 1, f"no viewer {viewer.root} on the page")

    def close(self):
        self.tab.close()

    def show(self, view):
        """Clicks the view's button, then takes the focus off it (so keys reach the page)."""
        self.root.locator(f'[data-view="{view}"]').click(timeout=5000)
        self.tab.evaluate("() => document.activeElement && document.activeElement.blur()")

    def set_amount(self, percent):
        self.root.locator(self.viewer.amount).evaluate(
            "(e, v) => { e.value = String(v); e.dispatchEvent(new Event('input', {bubbles: true})); }", percent)

    def zoom(self, step):
        self.root.locator(f'[data-zoom="{step}"]').click(timeout=5000)

    def toggle(self):
        """Space on the diff viewer; a click on the image on the reproduce page."""
        if self.viewer.toggle_by == "space":
            self.tab.keyboard.press("Space")
        else:
            self.root.locator(self.viewer.stage).click(position={"x": 5, "y": 5}, timeout=5000)

    def boxes(self):
        """Bounding boxes (x, y, width, height; CSS pixels) of the stage and of the three images;
        None for one not rendered (display: none) or hidden (visibility: hidden)."""
        v = self.viewer
        return self.root.evaluate(BOXES_JS, {"stage": v.stage, "expected": v.expected, "actual": v.actual, "heat": v.heat})

    def caption_pixels(self):
        """The area, in pixels, of the stage's visible captions (labels over the images), cut to the stage."""
        return self.root.evaluate(CAPTIONS_JS, {"stage": self.viewer.stage, "captions": self.viewer.captions})

    def natural(self, part):
        """The pixels of an image as decoded by the browser (`part`: expected, actual or heat)."""
        w, h, data = self.root.locator(getattr(self.viewer, part)).evaluate(NATURAL_JS)
        return png.Picture(w, h, base64.b64decode(data))

    def stage_shot(self):
        """The stage as it is on screen, scrolled to the top of the window and cut at its box
        rounded to whole pixels (where Chromium paints it), so neither the page above nor a
        fractional position changes the picture: the PNG bytes and the decoded picture."""
        stage = self.root.locator(self.viewer.stage)
        stage.evaluate("e => e.scrollIntoView({block: 'start'})")
        box = stage.bounding_box()
        clip = {k: round(box[k]) for k in ("x", "y", "width", "height")}
        clip["y"] = max(0, clip["y"])
        data = self.tab.screenshot(clip=clip, animations="disabled", timeout=5000)
        w, h, rgba = self.decoder.evaluate(DECODE_JS, base64.b64encode(data).decode("ascii"))
        return data, png.Picture(w, h, base64.b64decode(rgba))


def steady(picture, x, y, spread=0):
    """Whether (x, y) and its 8 neighbours are opaque and within `spread` code values of one
    another's centre: a screen sample that lands a pixel off still sees about that colour."""
    if x < 1 or y < 1 or x >= picture.width - 1 or y >= picture.height - 1:
        return False
    centre = picture.pixel(x, y)
    return all(picture.pixel(x + dx, y + dy)[3] == 255 and distance(picture.pixel(x + dx, y + dy), centre) <= spread
               for dx in (-1, 0, 1) for dy in (-1, 0, 1))


class Pair:
    """The expected and actual images of a page, and the pixels judged: opaque, in steady areas
    of both (neighbours within 8 code values), and at least `least` code values apart, so a
    colour seen a quarter of that from one image is that image."""

    def __init__(self, expected, actual, least=48):
        check((expected.width, expected.height) == (actual.width, actual.height),
              f"the images differ in size: {expected.width}×{expected.height} and {actual.width}×{actual.height}")
        self.expected, self.actual = expected, actual
        self.judged = [(x, y) for y in range(expected.height) for x in range(expected.width)
                       if steady(expected, x, y, 8) and steady(actual, x, y, 8)
                       and distance(expected.pixel(x, y), actual.pixel(x, y)) >= least]
        check(len(self.judged) >= 20, f"only {len(self.judged)} pixels tell the two images apart: the page cannot be judged")

    def which(self, seen, x, y):
        """'expected', 'actual' or 'neither' for the colour seen where image pixel (x, y) is shown."""
        if seen is None:
            return "off screen"
        e, a = self.expected.pixel(x, y), self.actual.pixel(x, y)
        near = distance(e, a) / 4
        if distance(seen, e) <= near:
            return "expected"
        if distance(seen, a) <= near:
            return "actual"
        return "neither"

    def share(self, seen, x, y):
        """Where the colour seen lies on the line from the expected (0) to the actual colour (1)."""
        e, a = self.expected.pixel(x, y), self.actual.pixel(x, y)
        d = [a[i] - e[i] for i in range(3)]
        return sum((seen[i] - e[i]) * d[i] for i in range(3)) / sum(v * v for v in d)


def seen_at(shot, stage, image, natural_width, x, y):
    """The colour on screen at the centre of image pixel (x, y), or None where the stage does not
    show it. `stage` and `image` are bounding boxes; the shot is the stage's screenshot."""
    zoom = image[2] / natural_width
    sx = math.floor(image[0] - stage[0] + (x + 0.5) * zoom)
    sy = math.floor(image[1] - stage[1] + (y + 0.5) * zoom)
    if sx < 0 or sy < 0 or sx >= shot.width or sy >= shot.height:
        return None
    return shot.pixel(sx, sy)[:3]


def tally(labels):
    counts = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def shows(screen, pair, box, shot, stage):
    """The label of each judged pixel as it is seen inside `box` (an image's bounding box)."""
    return [pair.which(seen_at(shot, stage, box, pair.expected.width, x, y), x, y) for x, y in pair.judged]


def all_one(labels, want):
    return labels.count(want) >= AGREEMENT * len(labels)


def check_on_stage(name, box, stage):
    """The image has a non-zero size and the stage's box holds it from top to bottom."""
    check(box is not None and box[2] > 0 and box[3] > 0, f"the {name} is not rendered (box {box})")
    check(stage[3] >= box[3], f"the stage is {stage[3]:g} px tall, the {name} {box[3]:g} px: the stage does not hold it")
    check(stage[1] - 0.5 <= box[1] and box[1] + box[3] <= stage[1] + stage[3] + 0.5,
          f"the {name} (y {box[1]:g}…{box[1] + box[3]:g}) lies outside the stage (y {stage[1]:g}…{stage[1] + stage[3]:g})")


# --- the tests ---------------------------------------------------------------------------------

def test_view_shows_images(view):
    def run(screen, pair):
        screen.show(view)
        b = screen.boxes()
        stage = b["stage"]
        check(stage is not None and stage[3] > 0, f"the stage is not rendered (box {stage})")
        _, shot = screen.stage_shot()
        if view == "heat":
            check_on_stage("heat map", b["heat"], stage)
            return
        if view == "toggle":  # one image shows: the other is hidden, or covered by it
            visible = [k for k in ("expected", "actual") if b[k]]
            check(visible, "the toggle shows no image")
            for k in visible:
                check_on_stage(f"{k} image", b[k], stage)
            check(len(visible) == 1 or [round(v) for v in b["expected"]] == [round(v) for v in b["actual"]],
                  f"the two images are not stacked: expected at {b['expected']}, actual at {b['actual']}")
            labels = shows(screen, pair, b[visible[0]], shot, stage)
            check(all_one(labels, "expected") or all_one(labels, "actual"), f"the toggle shows neither image whole: {tally(labels)}")
            return
        for k in ("expected", "actual"):
            check_on_stage(f"{k} image", b[k], stage)
        if view == "side":
            for k in ("expected", "actual"):
                labels = shows(screen, pair, b[k], shot, stage)
                check(all_one(labels, k), f"the {k} image is not on screen where it is laid out: {tally(labels)}")
        else:
            check([round(v) for v in b["expected"]] == [round(v) for v in b["actual"]],
                  f"the two images are not stacked: expected at {b['expected']}, actual at {b['actual']}")
            labels = shows(screen, pair, b["actual"], shot, stage)
            if view == "slider":
                check(labels.count("expected") > 0.2 * len(labels) and labels.count("actual") > 0.2 * len(labels),
                      f"the slider at 50 does not show both images: {tally(labels)}")
            else:
                check("off screen" not in labels, f"the blended image is not on screen: {tally(labels)}")
                shares = sorted(pair.share(seen_at(shot, stage, b["actual"], pair.expected.width, x, y), x, y)
                                for x, y in pair.judged)
                median = shares[len(shares) // 2]
                check(0.35 <= median <= 0.65, f"the blend at 50 is {median:.2f} of the way from expected to actual, not about half")
    return f"{view}: shows the image{'s' if view not in ('heat', 'toggle') else ''} at a non-zero size inside a stage that holds them", run


def test_slider_moves_split():
    def run(screen, pair):
        screen.show("slider")
        notes = []
        for percent in (25, 50, 75):
            screen.set_amount(percent)
            b = screen.boxes()
            stage, box = b["stage"], b["actual"]
            check_on_stage("actual image", box, stage)
            _, shot = screen.stage_shot()
            zoom = box[2] / pair.expected.width
            split = box[2] * percent / 100
            right = wrong = left_seen = right_seen = 0
            for x, y in pair.judged:
                centre = (x + 0.5) * zoom
                if abs(centre - split) < zoom / 2 + 1:
                    continue
                want = "expected" if centre < split else "actual"
                got = pair.which(seen_at(shot, stage, box, pair.expected.width, x, y), x, y)
                right, wrong = right + (got == want), wrong + (got != want)
                left_seen += got == "expected" and want == "expected"
                right_seen += got == "actual" and want == "actual"
            check(left_seen > 0 and right_seen > 0,
                  f"at {percent}: {left_seen} pixels show the expected image left of the split and {right_seen} the actual right of it")
            check(right >= AGREEMENT * (right + wrong),
                  f"at {percent}: the split is not at {percent} % of the image: {wrong} of {right + wrong} judged pixels on the wrong side")
            notes.append(f"{percent}: {right}/{right + wrong}")
        return "right side of the split: " + ", ".join(notes)
    return "slider: the boundary between expected and actual follows the range (25, 50, 75 %)", run


def test_blend_is_monotonic():
    def run(screen, pair):
        screen.show("blend")
        seen = []
        for percent in (0, 25, 50, 75, 100):
            screen.set_amount(percent)
            b = screen.boxes()
            check_on_stage("actual image", b["actual"], b["stage"])
            _, shot = screen.stage_shot()
            shares = []
            for x, y in pair.judged:
                c = seen_at(shot, b["stage"], b["actual"], pair.expected.width, x, y)
                check(c is not None, f"at {percent}: the blended image is not on screen")
                shares.append(pair.share(c, x, y))
            shares.sort()
            seen.append(shares[len(shares) // 2])
        text = ", ".join(f"{p}: {s:.2f}" for p, s in zip((0, 25, 50, 75, 100), seen))
        check(all(b - a >= 0.1 for a, b in zip(seen, seen[1:])), f"the colour does not move steadily from expected to actual: {text}")
        check(all(abs(s - p / 100) <= 0.1 for s, p in zip(seen, (0, 25, 50, 75, 100))), f"the blend does not follow the range: {text}")
        return "share of the actual colour: " + text
    return "blend: the colours move monotonically from expected (0) to actual (100) with the range", run


def test_toggle_alternates(viewer):
    def run(screen, pair):
        screen.show("toggle")
        states = []
        for step in range(5):
            if step:
                screen.toggle()
            b = screen.boxes()
            visible = [k for k in ("expected", "actual") if b[k] and b[k][2] > 0 and b[k][3] > 0]
            check(visible, f"after {step} toggles no image has a box")
            box = b[visible[0]]
            check_on_stage("image", box, b["stage"])
            _, shot = screen.stage_shot()
            labels = shows(screen, pair, box, shot, b["stage"])
            state = "expected" if all_one(labels, "expected") else ("actual" if all_one(labels, "actual") else None)
            check(state, f"after {step} toggles the stage shows neither image whole: {tally(labels)}")
            states.append(state)
        check(all(a != b for a, b in zip(states, states[1:])), f"the toggle does not alternate: {states}")
        return " → ".join(states)
    how = "press of space" if viewer.toggle_by == "space" else "click on the image"
    return f"toggle: each {how} swaps expected and actual", run


def test_zoom_doubles_and_halves():
    def run(screen, pair):
        notes = []
        for view in VIEWS:
            screen.show(view)
            part = "heat" if view == "heat" else "actual"
            if view == "toggle":
                b = screen.boxes()
                part = "actual" if b["actual"] and b["actual"][2] > 0 else "expected"
            before = screen.boxes()[part]
            check(before and before[2] > 0, f"{view}: the {part} image has no box")
            screen.zoom(1)
            bigger = screen.boxes()[part]
            screen.zoom(-1)
            after = screen.boxes()[part]
            check(abs(bigger[2] - 2 * before[2]) <= 1 and abs(bigger[3] - 2 * before[3]) <= 1,
                  f"{view}: + made the {part} image {bigger[2]:g}×{bigger[3]:g} from {before[2]:g}×{before[3]:g}, not twice the size")
            check(abs(after[2] - before[2]) <= 1 and abs(after[3] - before[3]) <= 1,
                  f"{view}: − made it {after[2]:g}×{after[3]:g} from {bigger[2]:g}×{bigger[3]:g}, not half the size")
            notes.append(f"{view} {before[2]:g}→{bigger[2]:g}→{after[2]:g}")
        return ", ".join(notes)
    return "zoom: + doubles and − halves the displayed image in every view", run


def median_share(screen, pair):
    """The median place of the colours on screen between expected (0) and actual (1)."""
    b = screen.boxes()
    _, shot = screen.stage_shot()
    seen = [seen_at(shot, b["stage"], b["actual"], pair.expected.width, x, y) for x, y in pair.judged]
    check(None not in seen, "the stacked images are not on screen")
    shares = sorted(pair.share(c, xy[0], xy[1]) for c, xy in zip(seen, pair.judged))
    return shares[len(shares) // 2]


def test_keys():
    def run(screen, pair):
        keys = screen.tab.keyboard
        keys.press("3")
        at50 = median_share(screen, pair)
        keys.press("ArrowRight")
        keys.press("ArrowRight")
        at60 = median_share(screen, pair)
        check(abs(at50 - 0.5) <= 0.1 and abs(at60 - 0.6) <= 0.1,
              f"3 and → → do not blend 50 then 60 % of the actual colour: {at50:.2f}, {at60:.2f}")
        keys.press("5")
        b = screen.boxes()
        check(b["heat"] and not b["expected"] and not b["actual"], f"5 does not show the heat map alone: {b}")
        keys.press("1")
        b = screen.boxes()
        check(b["expected"] and b["actual"] and b["expected"][0] + b["expected"][2] <= b["actual"][0],
              f"1 does not put the images side by side: {b}")
        fit = b["actual"][2]
        keys.press("+")
        bigger = screen.boxes()["actual"][2]
        keys.press("-")
        keys.press("-")
        smaller = screen.boxes()["actual"][2]
        keys.press("0")
        again = screen.boxes()["actual"][2]
        check((bigger, smaller, again) == (2 * fit, fit / 2, fit),
              f"+, − −, 0 make the image {bigger:g}, {smaller:g}, {again:g} px wide from {fit:g}, not twice, half, the fit")
        return f"blend {at50:.2f} → {at60:.2f}; width {fit:g} → {bigger:g} → {smaller:g} → {again:g}"
    return "keys: 3 and ← → blend, 5 heat map, 1 side by side, + − zoom and 0 fits", run


def ramp_coloured(p):
    """A heat-map colour (the ramp and the hidden-colour violet are saturated), not a grey."""
    return max(p[:3]) - min(p[:3]) >= 60


def test_heat_map_on_screen():
    def run(screen, pair):
        screen.show("heat")
        heat = screen.natural("heat")
        coloured = [(x, y) for y in range(heat.height) for x in range(heat.width)
                    if ramp_coloured(heat.pixel(x, y)) and steady(heat, x, y)]
        check(len(coloured) >= 20, f"the heat map has only {len(coloured)} coloured pixels: the page cannot be judged")
        b = screen.boxes()
        check(b["heat"] and b["heat"][2] > 0, f"the heat map is not rendered (box {b['heat']})")
        _, shot = screen.stage_shot()
        ok, misses = 0, []
        for x, y in coloured:
            c = seen_at(shot, b["stage"], b["heat"], heat.width, x, y)
            if c is not None and distance(c, heat.pixel(x, y)) <= 8:
                ok += 1
            elif len(misses) < 3:
                misses.append(f"({x},{y}) {heat.pixel(x, y)[:3]} {'off screen' if c is None else f'shown as {tuple(c)}'}")
        check(ok >= AGREEMENT * len(coloured),
              f"{ok} of the heat map's {len(coloured)} coloured pixels are on screen; e.g. {'; '.join(misses)}")
        return f"{ok} of {len(coloured)} coloured pixels on screen"
    return "heat map: its colours, not checkerboard grey, are on screen", run


# --- goldens -----------------------------------------------------------------------------------

def gate_for(width, height, captions):
    """At most the caption pixels and GOLDEN_SHARE of the stage's pixels off by more than
    GOLDEN_DELTA code values: text may be drawn anew (another FreeType, hinting, even font), the
    images, checkerboard, borders and layout may not move."""
    return f"exact.over.{GOLDEN_DELTA} <= {captions + math.floor(GOLDEN_SHARE * width * height)}"


def test_golden(page, view, options):
    def run(screen, pair):
        screen.show(view)
        data, shot = screen.stage_shot()
        name = f"{page}-{view}.png"
        actual = os.path.join(options.out, name)
        with open(actual, "wb") as f:
            f.write(data)
        golden = os.path.join(GOLDENS, name)
        if options.record:
            os.makedirs(GOLDENS, exist_ok=True)
            shutil.copyfile(actual, golden)
            return f"recorded {os.path.relpath(golden, REPO)}"
        check(os.path.exists(golden), f"no golden {os.path.relpath(golden, REPO)}: record it with "
              f"'python3 Tests/Browser/report_views.py --record', look at it, and commit it (screenshot: {actual})")
        gate = gate_for(shot.width, shot.height, screen.caption_pixels())
        report = os.path.join(options.out, f"{page}-{view}.diff")
        done = subprocess.run([options.imglab, "diff", golden, actual, "--gate", gate, "--report", report],
                              capture_output=True, text=True)
        lines = (done.stdout + done.stderr).strip().splitlines()
        summary = [line for line in lines if line.startswith(("verdict", "gate")) or "✗" in line] or lines[-4:]
        if done.returncode != 0:
            where = f"screenshot {actual}" + (f", diff report {report}/index.html" if os.path.exists(report) else "")
            raise Failure(f"the stage differs from {os.path.relpath(golden, REPO)} (gate '{gate}', exit {done.returncode}); "
                          f"{where}:\n      " + "\n      ".join(summary))
        shutil.rmtree(report, ignore_errors=True)
        return f"within '{gate}'"
    return f"{view}: the stage matches its golden within the gate", run


def plan(options):
    """(page name, maker, viewer, [(test name, run)]) for every page."""
    out = []
    for page, maker, viewer in pages.PAGES:
        tests = [test_view_shows_images(v) for v in VIEWS]
        tests += [test_slider_moves_split(), test_blend_is_monotonic(), test_toggle_alternates(viewer),
                  test_zoom_doubles_and_halves(), test_heat_map_on_screen()]
        tests += [test_keys()] if viewer.keys else []
        tests += [test_golden(page, v, options) for v in VIEWS]
        out.append((page, maker, viewer, [(f"{page} {name}", run) for name, run in tests]))
    return out


# --- running -----------------------------------------------------------------------------------

def missing_prerequisite(executable):
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (python3 -m pip install playwright)"
    if not (os.path.isfile(executable) and os.access(executable, os.X_OK)):
        return f"no browser at {executable} (apt-get install chromium, or set IMGLAB_CHROMIUM)"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--imglab", default=os.path.join(REPO, ".build", "release", "imglab"), help="the imglab under test")
    parser.add_argument("--chromium", default=os.environ.get("IMGLAB_CHROMIUM", "/usr/bin/chromium"), help="the browser")
    parser.add_argument("--out", default=os.path.join(REPO, ".build", "browser-tests"), help="screenshots and diff reports")
    parser.add_argument("--record", action="store_true", help="write every golden from this run instead of comparing")
    parser.add_argument("--only", default="", help="run only the tests whose name contains this text")
    options = parser.parse_args()
    options.imglab = os.path.abspath(options.imglab)
    options.out = os.path.abspath(options.out)
    ci = os.environ.get("IMGLAB_CI") == "1"
    planned = [(p, m, v, [t for t in tests if options.only in t[0]]) for p, m, v, tests in plan(options)]
    indexes = [t for t in index_pages.TESTS if options.only in t[0]]
    # The index tests (index_pages.py) are listed with the pages' tests, under no page.
    planned.append((None, None, None, [(name, None) for name, _ in indexes]))
    total = sum(len(tests) for _, _, _, tests in planned)
    passed = failed = skipped = 0
    reasons = []
    if total == 0:
        print(f"browser tests: no test name contains '{options.only}'", file=sys.stderr)
        return summarise(0, 0, [], 1)

    reason = missing_prerequisite(options.chromium)
    if reason:
        for _, _, _, tests in planned:
            for name, _ in tests:
                print(f"{'✘ FAIL' if ci else '➜ SKIP'}  {name}: {reason}")
        if ci:
            failed = total
            print(f"browser tests: under IMGLAB_CI=1 nothing may skip: {reason}", file=sys.stderr)
        else:
            skipped, reasons = total, [reason]
        return summarise(passed, skipped, reasons, failed)
    if not os.access(options.imglab, os.X_OK):
        print(f"browser tests: no imglab at {options.imglab} (build it first)", file=sys.stderr)
        return summarise(0, 0, [], total)

    from playwright.sync_api import sync_playwright
    os.makedirs(options.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="imglab-browser-")
    try:
        with sync_playwright() as p:
            try:
                browser = p.chromium.launch(executable_path=options.chromium,
                                            args=["--no-sandbox", "--force-color-profile=srgb", "--font-render-hinting=none"])
            except Exception as error:  # installed but broken: a failure, not a skip
                print(f"browser tests: {options.chromium} did not start: {str(error).splitlines()[0]}", file=sys.stderr)
                return summarise(0, 0, [], total)
            context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, color_scheme="light")
            decoder = context.new_page()
            for page, maker, viewer, tests in planned:
                if not tests or maker is None:
                    continue
                try:
                    url = "file://" + maker(options.imglab, REPO, work)
                    first = Screen(context, decoder, url, viewer)
                    pair = Pair(first.natural("expected"), first.natural("actual"))
                    first.close()
                except Exception as error:  # the page could not be made or read: each of its tests fails
                    for name, _ in tests:
                        print(f"✘ FAIL  {name}: the page: {error}")
                    failed += len(tests)
                    continue
                for name, run in tests:
                    screen = None
                    try:
                        screen = Screen(context, decoder, url, viewer)
                        note = run(screen, pair)
                        check(not screen.errors, f"the page logged errors: {screen.errors}")
                        print(f"✔ pass  {name}" + (f" ({note})" if note else ""))
                        passed += 1
                    except Failure as error:
                        print(f"✘ FAIL  {name}: {error}")
                        failed += 1
                    except Exception:  # a timeout or a broken page is a failure with its trace
                        print(f"✘ FAIL  {name}: " + traceback.format_exc(limit=2).strip().replace("\n", "\n      "))
                        failed += 1
                    finally:
                        if screen:
                            screen.close()
            for name, run in indexes:
                opened = []

                def browser_page(url):
                    page = context.new_page()
                    errors = []
                    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.goto(url)
                    opened.append((page, errors))
                    return page
                try:
                    def decode(data):
                        w, h, rgba = decoder.evaluate(DECODE_JS, base64.b64encode(data).decode("ascii"))
                        return png.Picture(w, h, base64.b64decode(rgba))
                    note = run(browser_page, options.imglab, work, decode)
                    for _, errors in opened:
                        check(not errors, f"the page logged errors: {errors}")
                    print(f"✔ pass  {name}" + (f" ({note})" if note else ""))
                    passed += 1
                except (Failure, index_pages.IndexFailure) as error:
                    print(f"✘ FAIL  {name}: {error}")
                    failed += 1
                except Exception:
                    print(f"✘ FAIL  {name}: " + traceback.format_exc(limit=2).strip().replace("\n", "\n      "))
                    failed += 1
                finally:
                    for page, _ in opened:
                        page.close()
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summarise(passed, skipped, reasons, failed)


def summarise(passed, skipped, reasons, failed):
    why = f" ({'; '.join(reasons)})" if skipped else ""
    print(f"browser tests: {passed} passed, {skipped} skipped{why}, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

import CommandLineOptions
import ImageMetrics
import ImageReports

/// The options of `imglab diff`, declared once (spellings, placeholder, help line, default,
/// validation), and the prose of its `--help`.
extension DiffCommand {
    static let gate = Option.parsed("--gate", "EXPR", "pass/fail on metrics, with lower and upper bounds, e.g. "
        + "'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1' or '0.99 <= ssim <= 1', with <= < >= > == != && || ! "
        + "and parentheses; canary pairs run first, and a metric that cannot tell them apart exits "
        + "2") { text throws(UsageError) in
        do { return try GateExpression(text) } catch { throw UsageError("\(error)") }
    }
    static let json = SharedOptions.json("write one JSON object to FILE: every metric with its unit and definition "
        + "version, diagnosis.class, diagnosis.confidence, the gate and the canaries (two folders: schema "
        + "imglab-folder-diff/1)")
    static let report = SharedOptions.report("DIR/index.html, self-contained (images embedded, no network: the one "
        + "file to attach to a bug report), and for two folders a page per changed pair; side by side, slider, blend, "
        + "toggle, heat map, pixel-exact zoom, metric table, metadata diff, diagnosis", default: nil)
    static let tolerance = Option.number("--tolerance", "N", "|Δ| in 8-bit code values above which a pixel counts in "
        + "exact.count", default: 0, atLeast: 0)
    static let colour = Option.choice("--colour", "MODE", "managed: where the files' ICC profiles differ, convert "
        + "both to sRGB and compare colours; raw: compare stored values", default: ("managed", ColourMode.managed),
        [("raw", .raw)]).meaning("how colours stated by ICC profiles are treated")
    static let match = Option.choice("--match", "HOW", "two folders: pair files by relative path, or by relative path "
        + "without extension (a.png with a.jpg)",
        default: ("path", FolderPairing.Match.path), [("stem", .stem)]).meaning("how two folders' files are paired")
    static let junit = SharedOptions.junit("two folders: JUnit XML, one test case per file (changed, new and deleted "
        + "files fail)")
    static let ciOutput = SharedOptions.ciOutput
    static let mask = Option<String?>.text("--mask", "FILE", "ignore the pixels of this image (the compared size, as "
        + "displayed) where α > 0, or, without alpha, where it is not black; ignored pixels count as equal, are "
        + "counted in ignored.pixels and drawn hatched")
    static let ignore = Option.parsed("--ignore", "X,Y,W,H", "ignore this rectangle of displayed pixels (repeatable), "
        + "as --mask") { text throws(UsageError) in
        do { return try IgnoredPixels.Region(parsing: text) } catch { throw UsageError("\(error)") }
    }.repeated()
    static let sizePolicy = Option.choice("--size-policy", "POLICY", "images of different sizes: align: find the "
        + "crop, pad, shift or 2×/½× scale that lines them up, name it, and measure the overlap; resize: resize the "
        + "actual to the expected's size (Lanczos 3, linear light), then judge; fail: the verdict alone",
        default: ("align", Judge.SizePolicy.align), [("resize", .resize), ("fail", .fail)])
    static let masks = Option.parsed("--masks", "FILE", "two folders: regions to ignore per file, a JSON map of key, "
        + "path or glob to rectangles in pixels or fractions of the size (docs/diff.md#masks-per-file)") {
        text throws(UsageError) in
        do throws(MaskSidecarError) { return try MaskSidecar(file: text) } catch { throw UsageError(error.description) }
    }
    /// The masks and regions of the command line, the mask decoded.
    static func ignored(_ args: Arguments) throws(UsageError) -> IgnoredPixels {
        do { return try IgnoredPixels(regions: try args.values(ignore).compactMap { $0 },
            maskFile: try args.value(mask)) } catch { throw UsageError("\(error)") }
    }

    static var help: Help {
        Help(about: """
            Compares ACTUAL against EXPECTED (any PNG, JPEG, GIF, TIFF, BMP) as they are displayed:
            orientation applied, every pixel format read by value. Prints one screen: sizes, pixel
            formats in Quartz terms, metadata differences, headline metrics, the three alpha views
            (visible error over black and white, alpha error, colour in translucent pixels) and the
            diagnosis: each known bug (channel order, alpha first/last, premultiplication, the wrong
            orientations, sRGB vs linear averaging, scale, shifts, …) is applied to EXPECTED and the one
            that explains the difference is named with a confidence.

            COLOUR: files whose ICC profiles state their colours differently are both converted to sRGB
            (Little CMS) and their colours compared, so a file matches its exact sRGB rendering; a profile
            dropped, attached unconverted or applied twice is named. --colour raw compares stored values.

            TWO FOLDERS (imglab diff EXPECTED_DIR ACTUAL_DIR): every image under each folder (recursively,
            any container, recognised by content) is paired by relative path (--match stem: without
            extension, a.png with a.jpg); each pair present on both sides is judged as two files are
            (the gate, the diagnosis of each failing pair), in parallel, with a progress line on standard
            error. Files are changed, within the gate, unchanged, new or deleted. --report DIR writes
            DIR/index.html (filters, thumbnails) and a page per changed pair; --json FILE writes one object
            (schema imglab-folder-diff/1); --junit FILE writes one test case per file. Exit 1 when a
            pair fails or cannot be compared (a file that cannot be read: an error item) or a file is new or
            deleted; 2 when a canary fails. Each pair is decoded under its share of --max-memory (the budget
            divided by --threads).

            METRICS (names for --gate; in 8-bit code values unless a unit is given):
            \(MetricCatalog.helpLines)
            """, exitStatus: """
              0  within the gate, or identical when no gate is given
              1  different (the gate failed, the sizes differ, or any difference without a gate)
              2  error: bad usage, an unreadable file, a failed canary, or a gate metric with no value
            """, examples: [
                "imglab diff golden.png out.png",
                "imglab diff golden.png out.png --gate 'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1'",
                "imglab diff golden.png out.png --gate 'exact.over.5 <= 100 && exact.over.20 <= 10'",
                "imglab diff expected.png actual.png --report bug-1234   bug-1234/index.html: one file to attach",
                "imglab diff a.png b.png --json - | jq '.diagnosis.class, .metrics.ssim.value'",
                "imglab diff golden.png out.png --ignore 0,0,200,40 --mask clock-area.png",
                "imglab diff baseline/ shots/ --gate 'exact.over.5 <= 100' --report diff-report --junit diff.xml"],
            docs: "docs/diff.md")
    }
}

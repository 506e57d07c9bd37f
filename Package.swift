// swift-tools-version:6.0
import PackageDescription

/// imglab: a format lab and regression harness for image resizers, and the resizer it gates.
///
/// Layers, data flowing one way (README "Modules" draws this graph; ModuleGraphTests checks it):
/// ImageCore → ImageCodecs → ImageResize, ImageMetrics → ImageCorpus → ImageLab → ImageReports → ImageLabTesting, imglab.
let package = Package(
    name: "imglab",
    products: [
        .library(name: "ImageCore", targets: ["ImageCore"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "ImageResize", targets: ["ImageResize"]),
        .library(name: "ImageMetrics", targets: ["ImageMetrics"]),
        .library(name: "ImageCorpus", targets: ["ImageCorpus"]),
        .library(name: "ImageLab", targets: ["ImageLab"]),
        .library(name: "ImageReports", targets: ["ImageReports"]),
        .library(name: "ImageLabTesting", targets: ["ImageLabTesting"]),
        // `imglab` is a few lines of C that run the best build of `imglab-core` (the Swift
        // program) for this CPU: see Sources/imglab-launcher/main.c.
        .executable(name: "imglab", targets: ["imglab-launcher"]),
        .executable(name: "imglab-core", targets: ["imglab"]),
        .executable(name: "imglab-measure", targets: ["imglab-measure"]),
    ],
    targets: [
        .target(
            name: "ImageCore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The C the libraries call (the launcher and the meter below are small C programs of their own): setjmp/longjmp and error-handler plumbing around
        // libpng, libjpeg, giflib and libtiff, so no C error ever unwinds through a Swift frame.
        // libdeflate (called directly, it never longjmps) inflates the IDAT stream of plain PNGs,
        // ~1.6× faster than zlib, and computes the chunk CRCs. One file-system call lives here
        // too: renameat2(RENAME_EXCHANGE), which Swift's Glibc module does not export. Little CMS
        // converts colours tagged with an ICC profile (its errors come back through a log handler). libwebp is not
        // linked: it is loaded (dlopen) when a WebP file is first read, so imglab builds and runs without it and
        // says which package to install.
        .target(
            name: "CImageShim",
            linkerSettings: [
                .linkedLibrary("png16"),
                .linkedLibrary("jpeg"),
                .linkedLibrary("gif"),
                .linkedLibrary("tiff"),
                .linkedLibrary("z"),
                .linkedLibrary("deflate"),
                .linkedLibrary("lcms2"),
            ]
        ),
        .target(
            name: "ImageCodecs",
            dependencies: ["ImageCore", "CImageShim"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "ImageResize",
            dependencies: ["ImageCore", "ImageCodecs"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Comparison by value, metrics validated against reference data, the three alpha views,
        // the diagnosis, gate expressions, canaries and the judge (pure: values in, values out).
        .target(
            name: "ImageMetrics",
            dependencies: ["ImageCore", "ImageCodecs"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Scenes, encodings, the corpus generator and manifest, and every oracle. It cannot see
        // ImageResize: the oracle's independence from the resizer is a fact of this graph. The oracle
        // integrates ~10^8 scene samples, so scripts/test builds and tests in release mode.
        .target(
            name: "ImageCorpus",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What judges a resizer: adapters (built-in, mutants, external commands), the runner, gates,
        // goldens, selftest, reproduce, league and the fuzzer.
        .target(
            name: "ImageLab",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics", "ImageCorpus"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Every HTML page (diff, run, selftest, reproduce, league) from one set of shared parts, the
        // JUnit file, and `imglab diff` as one call (FileDiff: decode, judge, report, screen, JSON).
        .target(
            name: "ImageReports",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageCorpus", "ImageLab", "CommandLineOptions"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // expectImage for users' own Swift Testing tests: goldens beside the test file, compared
        // by value with a gate, a one-case HTML report on mismatch.
        .target(
            name: "ImageLabTesting",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageReports"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test-only helpers shared by several test targets (not a product): headless Chromium, scratch folders.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The command line's option parser: options declared once as values (spellings, placeholder,
        // help, default, validation), parsed and validated before a command runs. Knows no image.
        .target(
            name: "CommandLineOptions",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "imglab",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics", "ImageCorpus", "ImageLab", "ImageReports",
                           "CommandLineOptions"],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: ["BuildStamp"]
        ),
        // Runs scripts/build-stamp before each build: the commit `imglab --version` reports.
        .plugin(name: "BuildStamp", capability: .buildTool()),
        // The command users run: chooses the x86-64-v3 build or the baseline and execs it, in C
        // so that a command starts once (a Swift launcher paid the Swift runtime's start twice).
        .executableTarget(
            name: "imglab-launcher",
            // SwiftPM links every executable against the Swift runtime, which a C program that calls
            // none of it would load on each command (about 4 ms of CPU): linked statically instead, by
            // GNU ld, whose --no-warnings silences glibc's note on the static dlopen it never calls.
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=bfd", "-Xlinker", "--no-warnings"])]
        ),
        // A few lines of C that run a program and report its peak memory and CPU time (wait4):
        // the scale profile's meter. C, and a program of its own, because a child's ru_maxrss
        // starts at its parent's peak on Linux, and this parent must weigh almost nothing.
        .executableTarget(
            name: "imglab-measure"
        ),
        .testTarget(
            name: "ImageCoreTests",
            dependencies: ["ImageCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "imglabTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageCorpus", "ImageLab", "CommandLineOptions", "imglab", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageResizeTests",
            dependencies: ["ImageCore", "ImageResize"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageMetricsTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics", "ImageCorpus"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageLabTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageCorpus", "ImageLab", "ImageReports", "ImageLabTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageReportsTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageCorpus", "ImageLab", "ImageReports", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageLabTestingTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageLabTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageCorpusTests",
            dependencies: ["ImageCore", "ImageCorpus"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCore", "ImageCodecs"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

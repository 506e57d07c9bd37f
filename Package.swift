// swift-tools-version:6.0
import PackageDescription

/// imglab: a format lab and regression harness for image resizers, and the resizer it gates.
///
/// Layers, data flowing one way: ImageCore → ImageCodecs → (ImageResize → ImageMetrics → ImageLab) → imglab.
let package = Package(
    name: "imglab",
    products: [
        .library(name: "ImageCore", targets: ["ImageCore"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "ImageResize", targets: ["ImageResize"]),
        .library(name: "ImageMetrics", targets: ["ImageMetrics"]),
        .library(name: "ImageLab", targets: ["ImageLab"]),
        .library(name: "ImageLabTesting", targets: ["ImageLabTesting"]),
        .executable(name: "imglab", targets: ["imglab"]),
    ],
    targets: [
        .target(
            name: "ImageCore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The only C in the project: setjmp/longjmp and error-handler plumbing around
        // libpng, libjpeg, giflib and libtiff, so no C error ever unwinds through a Swift frame.
        // libdeflate (called directly, it never longjmps) inflates the IDAT stream of plain PNGs,
        // ~1.6× faster than zlib, and computes the chunk CRCs.
        .target(
            name: "CImageShim",
            linkerSettings: [
                .linkedLibrary("png16"),
                .linkedLibrary("jpeg"),
                .linkedLibrary("gif"),
                .linkedLibrary("tiff"),
                .linkedLibrary("z"),
                .linkedLibrary("deflate"),
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
        // Metrics validated against shared/reference, the three alpha views, the diagnosis,
        // gate expressions, canaries and the HTML diff report (pure: values in, values/strings out).
        .target(
            name: "ImageMetrics",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The corpus generator and the analytic oracle. It imports ImageResize for OutputGeometry (the
        // declared size rule) only, in one file; every other file cannot see ImageResize
        // (MemberImportVisibility), and OracleIndependenceTests checks it. The oracle integrates ~10^8
        // scene samples (90 s unoptimised, 8 s optimised), so scripts/test builds and tests in release
        // mode; no unsafe flags, so the package stays usable as a dependency.
        // The runner (Runner/, Report/) measures resizer outputs against the oracle with ImageMetrics;
        // the built-in adapter (Adapters/BuiltinResizer.swift) is the only other file that imports ImageResize.
        .target(
            name: "ImageLab",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics"],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        // expectImage for users' own Swift Testing tests: goldens beside the test file, compared
        // by value with a gate, a one-case HTML report on mismatch.
        .target(
            name: "ImageLabTesting",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test-only helpers shared by several test targets (not a product): headless Chromium.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "imglab",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics", "ImageLab"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageCoreTests",
            dependencies: ["ImageCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "imglabTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageLab", "imglab"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageResizeTests",
            dependencies: ["ImageCore", "ImageResize"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageMetricsTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageResize", "ImageMetrics", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageLabTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageLab", "ImageLabTesting", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageLabTestingTests",
            dependencies: ["ImageCore", "ImageCodecs", "ImageMetrics", "ImageLabTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCore", "ImageCodecs"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

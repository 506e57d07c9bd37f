import Foundation
/// Which direction of a metric means "more different".
public enum MetricDirection: String, Sendable, Hashable, Codable {
    /// Larger values mean larger differences (errors, counts, ΔE).
    case distance
    /// Larger values mean more similar (PSNR, SSIM, SSIMULACRA 2).
    case similarity
    /// Signed: 0 means no difference (bias, colour cast).
    case signed
    /// Not a difference: a property of the compared images (their size), for a gate to say
    /// what holds where a windowed metric has no value.
    case property
}

/// The definition of one named metric: its unit, its definition version and what it means.
///
/// The names are the ones `--gate` expressions, JSON output and the report use.
public struct MetricDefinition: Sendable, Hashable, Codable {
    /// Dotted name, e.g. `deltaE00.p99`.
    public var name: String
    /// Unit of the value, e.g. `8-bit code values`, `dB`, `ΔE00`.
    public var unit: String
    /// Definition version: changes whenever the meaning of the number changes.
    public var version: String
    /// Whether large values mean different or similar.
    public var direction: MetricDirection
    /// One line: what is measured.
    public var summary: String
}

/// Every metric a ``Comparison`` reports.
public enum MetricCatalog {
    /// Version of the exact, bias, alpha-view and visible-error definitions of ``PixelStatistics``.
    public static let exactVersion = "exact-by-value/1"
    /// Version of PSNR: `10·log10(255² / MSE)`, MSE over all samples of the visible image.
    public static let psnrVersion = "psnr-visible/1"
    /// Version of the colour-cast and ΔE statistics (CIELAB D65 of `Tests/Fixtures/reference` §2).
    public static let colourVersion = "cielab-d65-lindbloom/1"

    /// All definitions, in report order.
    /// The METRICS section of `imglab diff --help`: each metric's name, unit and summary, one a line.
    public static var helpLines: String {
        all.map { m in
            let unit = m.unit.isEmpty ? "" : "[\(m.unit)] "
            return "  " + m.name.padding(toLength: 22, withPad: " ", startingAt: 0) + unit + m.summary
        }.joined(separator: "\n")
    }

    public static let all: [MetricDefinition] = {
        var list: [MetricDefinition] = []
        func add(_ name: String, _ unit: String, _ version: String, _ direction: MetricDirection, _ summary: String) {
            list.append(MetricDefinition(name: name, unit: unit, version: version, direction: direction, summary: summary))
        }
        let code = "8-bit code values"
        add("exact.max", code, exactVersion, .distance, "largest |Δ| of any channel (colour only where visible in either image)")
        for (c, n) in [("r", "red"), ("g", "green"), ("b", "blue"), ("a", "alpha")] {
            add("exact.max.\(c)", code, exactVersion, .distance, "largest |Δ| of \(n)")
        }
        add("exact.pixels", "pixels", exactVersion, .distance, "pixels with any difference")
        add("exact.count", "pixels", exactVersion, .distance, "pixels whose |Δ| exceeds the tolerance")
        for edge in PixelStatistics.bucketEdges.dropLast() {
            add("exact.over.\(Int(edge))", "pixels", exactVersion, .distance, "pixels whose |Δ| exceeds \(Int(edge))")
        }
        for edge in AntiAliasing.edges {
            add("exact.over.\(Int(edge)).nonAA", "pixels", AntiAliasing.version, .distance,
                "pixels whose |Δ| exceeds \(Int(edge)) and that pixelmatch's anti-aliasing detector does not explain (a pixel on an intensity slope ending in flat areas unchanged in both images)")
        }
        add("visible.max", code, exactVersion, .distance, "largest |Δ| after compositing over black and over white (worse background)")
        add("visible.mean", code, exactVersion, .distance, "mean per-pixel largest |Δ| after compositing (worse background)")
        add("visible.pixels", "pixels", exactVersion, .distance, "pixels that differ after compositing (worse background)")
        add("alpha.max", code, exactVersion, .distance, "largest |Δα|")
        add("alpha.mean", code, exactVersion, .distance, "mean |Δα| over all pixels")
        add("translucent.max", code, exactVersion, .distance, "largest straight-colour |Δ| where the expected pixel is translucent (0 < α < 1) and the actual one not transparent (its colour is then undefined; alpha.max gates it); 0 when none is")
        add("translucent.mean", code, exactVersion, .distance, "mean straight-colour |Δ| where the expected pixel is translucent")
        add("hidden.pixels", "pixels", exactVersion, .distance, "pixels transparent in both images whose hidden colour changed (not visible)")
        add("hidden.delta", code, exactVersion, .distance, "lab only: largest visible or alpha |Δ| between a resizer's outputs of a source and of its twin that differs only in the colour hidden under α = 0 (invisible-pixel invariance)")
        for band in ["opaque", "translucent", "transparent"] {
            for (c, n) in [("r", "red"), ("g", "green"), ("b", "blue"), ("a", "alpha")] {
                add("bias.\(band).\(c)", code, exactVersion, .signed, "mean signed Δ (actual − expected) of \(n) where the expected pixel is \(band)")
            }
        }
        add("psnr", "dB", psnrVersion, .similarity, "PSNR over R, G, B of the visible image (∞ when identical)")
        for c in ["r", "g", "b"] { add("psnr.\(c)", "dB", psnrVersion, .similarity, "PSNR of \(c.uppercased()) alone") }
        add("psnr.y", "dB", psnrVersion, .similarity, "PSNR of luma Y′ = 0.299R + 0.587G + 0.114B (unrounded)")
        add("ssim", "", SSIM.version, .similarity, "SSIM of luma Y′ (Gaussian 11×11, σ 1.5, valid window)")
        add("ssim.rgb", "", SSIM.version, .similarity, "mean of the SSIM of R, G and B")
        add("ssim.wang", "", SSIM.version, .similarity, "Wang's ssim.m: SSIM of Y′ after downsampling by round(min(H,W)/256)")
        add("msssim", "", SSIM.version, .similarity, "MS-SSIM of Y′ (Wang's msssim.m, 5 levels; needs min(H,W) ≥ 176)")
        add("ssimulacra2", "score", SSIMULACRA2.version, .similarity, "SSIMULACRA 2.1 (100 = identical)")
        add("deltaE00.mean", "ΔE00", colourVersion + "+" + CIEDE2000.version, .distance, "mean CIEDE2000 over pixels (worse background)")
        add("deltaE00.p95", "ΔE00", colourVersion + "+" + CIEDE2000.version, .distance, "95th percentile of CIEDE2000 (nearest rank, rounded up to 0.001)")
        add("deltaE00.p99", "ΔE00", colourVersion + "+" + CIEDE2000.version, .distance, "99th percentile of CIEDE2000")
        add("deltaE00.max", "ΔE00", colourVersion + "+" + CIEDE2000.version, .distance, "largest CIEDE2000")
        add("cast.L", "ΔL*", colourVersion, .signed, "mean ΔL* (actual − expected): + lighter")
        add("cast.a", "Δa*", colourVersion, .signed, "mean Δa*: + towards red/magenta, − towards green")
        add("cast.b", "Δb*", colourVersion, .signed, "mean Δb*: + towards yellow, − towards blue")
        add("diagnosis.confidence", "", Diagnosis.version, .distance, "confidence of the named diagnosis (0 when none)")
        add("size.min", "pixels", exactVersion, .property, "shorter displayed side of the compared images (equal sizes only): a gate can say what holds where SSIM (11 pixels) has no value, e.g. (ssim >= 0.96 || size.min < 11)")
        let costVersion = "process-rusage/1"
        add("cost.rss", "MiB", costVersion, .distance, "scale profile only: peak resident memory of the resizer's process (wait4 ru_maxrss)")
        add("cost.rss.overFloor", "MiB", costVersion, .distance, "scale profile only: cost.rss − floor.rss, the memory the resizer holds beyond decoding (a progressive JPEG's coefficients, which libjpeg holds whole, are in both)")
        add("cost.cpu", "s", costVersion, .distance, "scale profile only: user + system CPU time of the resizer's process")
        add("cost.wall", "s", costVersion, .distance, "scale profile only: wall time of the resizer's process")
        add("cost.cpu.ratio", "", costVersion, .distance, "scale profile only: cost.cpu / floor.cpu, the resizer's CPU time over the floor's")
        add("floor.rss", "MiB", costVersion, .property, "scale profile only: peak resident memory of the floor, 'imglab decode' reading the source at the shrink-on-load scale and box-averaging it to the output size")
        add("floor.cpu", "s", costVersion, .property, "scale profile only: CPU time of the floor")
        add("ignored.pixels", "pixels", exactVersion, .distance, "pixels left out by --mask and --ignore (compared as equal); only when some were given")
        return list
    }()

    /// The definition with this name, if any.
    public static func definition(named name: String) -> MetricDefinition? {
        byName[name]
    }

    private static let byName: [String: MetricDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

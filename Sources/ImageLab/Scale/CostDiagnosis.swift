import ImageCodecs
import ImageCorpus
import ImageMetrics

/// Names the cost bug a failing scale pair shows, from the measured figures alone:
///
/// - memory beyond the floor, in bytes a source pixel, against the bytes a pixel of the decoded
///   source (`b`: 3 for 8-bit RGB, 4 for RGBA, 6 for 16-bit RGB):
///   - `memory-partial-image`: under 0.6 `b`: less than the decoded image, but buffers (a tile
///     cache, a band per thread, a whole compressed stream) sized by the source;
///   - `memory-whole-image`: 0.6 `b` to 2.5 `b`: the decoded image, or two, held;
///   - `memory-image-copies`: 2.5 `b` and more, and 12 bytes a pixel or more: several images'
///     worth, such as a full-size float working image (16 bytes a pixel in RGBA);
/// - `cpu-fixed-cost`: at least half the CPU time is what the same call costs on a source of
///   the output's size (a program's start, an interpreter's imports): a cost per call, not per
///   source pixel;
/// - `no-dct-scaling`: a JPEG whose floor decodes at 1/d, where the resizer's CPU time beyond
///   that fixed cost reaches 80 % of decoding the whole JPEG (measured in the same run);
/// - `cpu-per-pixel`: CPU over the gate otherwise: work per source pixel beyond decoding and
///   resampling (an allocation or a conversion per pixel, or decoding more than needed).
///
/// Several can hold; memory is named first, the figure that grows without bound.
enum CostDiagnosis {
    /// Bytes a source pixel at and above which extra memory can be several images (or a float one).
    static let copiesBytesPerPixel = 12.0
    /// Extra memory as a share of the decoded image at and above which the image is held…
    static let wholeImageShare = 0.6
    /// … and at and above which several images' worth are held.
    static let copiesShare = 2.5
    /// The share of a full JPEG decode's CPU time at which a resizer is taken not to scale in
    /// the DCT domain.
    static let fullDecodeShare = 0.8
    /// The share of the CPU time at and above which the fixed cost of a call is what is over.
    static let fixedCostShare = 0.5

    /// The scale case `c` made about `output`'s size (the smallest scale that still covers it,
    /// its aspect kept): the same container and encoding, so the call does what it does on the
    /// full source with almost nothing to shrink.
    static func fixedCostSource(of c: CorpusCase, output: (width: Int, height: Int)) -> CorpusCase {
        let s = max(Double(output.width) / Double(c.width), Double(output.height) / Double(c.height))
        var small = c
        small.width = max(1, Int((Double(c.width) * s).rounded(.up)))
        small.height = max(1, Int((Double(c.height) * s).rounded(.up)))
        return small
    }

    /// The finding for `cost`, whose gate failed, on a source of `sourcePixels` pixels;
    /// `fullDecode`: the floor at 1/1, measured for a JPEG whose floor decodes at 1/d;
    /// `fixedCost`: the resizer's same call on ``fixedCostSource(of:output:)``.
    /// `decodedBytesPerPixel`: the bytes a pixel of the source as decoded.
    static func finding(_ cost: ScaleCost, sourcePixels: Int, decodedBytesPerPixel: Double, fullDecode: ProcessCost?,
                        fixedCost: ProcessCost? = nil) -> PairResult.Finding? {
        guard let gate = cost.gate, !gate.passed else { return nil }
        let failed = Set(gate.clauses.filter { !$0.passed && $0.excused != true }.compactMap(\.metric))
        let values = cost.values
        if failed.contains("cost.rss.overFloor") || failed.contains("cost.rss"), let extra = values["cost.rss.overFloor"] {
            let perPixel = extra * 1_048_576 / Double(max(1, sourcePixels))
            let share = perPixel / max(decodedBytesPerPixel, 1)
            let figures = String(format: "%.0f MiB beyond the decode floor, %.1f bytes a source pixel; decoded, a pixel is %.0f", extra, perPixel, decodedBytesPerPixel)
            if share >= copiesShare && perPixel >= copiesBytesPerPixel {
                return .init(bugClass: "memory-image-copies", name: "several images' worth held", confidence: 1,
                             summary: "memory grows with the input by several images' worth, such as a full-size float working image (a float RGBA pixel is 16 bytes) (\(figures))")
            }
            if share >= wholeImageShare {
                return .init(bugClass: "memory-whole-image", name: "the whole image held in memory", confidence: 1,
                             summary: "memory grows with the input, not the output: the whole decoded image is held (\(figures); a streaming resizer holds a band of rows)")
            }
            return .init(bugClass: "memory-partial-image", name: "buffers sized by the source", confidence: 1,
                         summary: "memory beyond the floor is less than the decoded image but far more than the output needs: buffers sized by the source, such as a tile cache, a band per thread or the whole compressed stream (\(figures))")
        }
        if failed.contains("cost.cpu.ratio") || failed.contains("cost.cpu") {
            let fixed = fixedCost?.cpuSeconds ?? 0
            if fixed >= fixedCostShare * cost.resizer.cpuSeconds {
                return .init(bugClass: "cpu-fixed-cost", name: "a fixed cost per call", confidence: 1,
                             summary: String(format: "CPU is mostly a fixed cost per call, not per source pixel: %.2f s of its %.2f s is what the same call takes on a source of the output's size (a program's start, an interpreter's imports); the floor is %.2f s", fixed, cost.resizer.cpuSeconds, cost.floor.cpuSeconds))
            }
            if cost.floorScale > 1, let full = fullDecode, cost.resizer.cpuSeconds - fixed >= fullDecodeShare * full.cpuSeconds {
                return .init(bugClass: "no-dct-scaling", name: "no DCT-domain scaling", confidence: 1,
                             summary: String(format: "no DCT-domain scaling: decodes the JPEG at full size (CPU %.2f s, %.2f s of it beyond the call's fixed cost; decoding it whole takes %.2f s, at 1/%d %.2f s)", cost.resizer.cpuSeconds, cost.resizer.cpuSeconds - fixed, full.cpuSeconds, cost.floorScale, cost.floor.cpuSeconds))
            }
            return .init(bugClass: "cpu-per-pixel", name: "CPU grows beyond decoding and resampling", confidence: 1,
                         summary: String(format: "CPU grows with the source beyond decoding and resampling: %.2f s, %.1f× the floor, %.2f s of it a fixed cost per call (work per pixel such as an allocation or a conversion, or decoding more than the output needs)", cost.resizer.cpuSeconds, cost.resizer.cpuSeconds / max(cost.floor.cpuSeconds, 1e-9), fixed))
        }
        return nil
    }
}

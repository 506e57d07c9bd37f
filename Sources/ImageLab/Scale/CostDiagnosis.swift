import ImageCodecs
import ImageMetrics

/// Names the cost bug a failing scale pair shows, from the measured figures alone:
///
/// - `memory-whole-image`: memory beyond the floor grows with the source (under 12 bytes a
///   source pixel: the decoded image, 3 to 8 bytes a pixel, is held);
/// - `memory-float-working-image`: 12 bytes a source pixel or more (a float RGBA working image
///   at full size holds 16);
/// - `no-dct-scaling`: a JPEG whose floor decodes at 1/d, where the resizer's CPU time reaches
///   80 % of decoding the whole JPEG (measured in the same run);
/// - `cpu-per-pixel`: CPU over the gate otherwise: work per source pixel beyond decoding and
///   resampling (an allocation or a conversion per pixel).
///
/// Several can hold; memory is named first, the figure that grows without bound.
enum CostDiagnosis {
    /// Bytes a source pixel at and above which extra memory is a float working image.
    static let floatBytesPerPixel = 12.0
    /// The share of a full JPEG decode's CPU time at which a resizer is taken not to scale in
    /// the DCT domain.
    static let fullDecodeShare = 0.8

    /// The finding for `cost`, whose gate failed, on a source of `sourcePixels` pixels;
    /// `fullDecode`: the floor at 1/1, measured for a JPEG whose floor decodes at 1/d.
    static func finding(_ cost: ScaleCost, sourcePixels: Int, fullDecode: ProcessCost?) -> PairResult.Finding? {
        guard let gate = cost.gate, !gate.passed else { return nil }
        let failed = Set(gate.clauses.filter { !$0.passed && $0.excused != true }.compactMap(\.metric))
        let values = cost.values
        if failed.contains("cost.rss.overFloor") || failed.contains("cost.rss"), let extra = values["cost.rss.overFloor"] {
            let perPixel = extra * 1_048_576 / Double(max(1, sourcePixels))
            if perPixel >= floatBytesPerPixel {
                return .init(bugClass: "memory-float-working-image", name: "a full-size float working image", confidence: 1,
                             summary: String(format: "memory grows with the input: a full-size float working image (%.0f MiB beyond the decode floor, %.1f bytes a source pixel; a float RGBA pixel is 16)", extra, perPixel))
            }
            return .init(bugClass: "memory-whole-image", name: "the whole image held in memory", confidence: 1,
                         summary: String(format: "memory grows with the input, not the output: the whole image is held (%.0f MiB beyond the decode floor, %.1f bytes a source pixel; a streaming resizer holds a band of rows)", extra, perPixel))
        }
        if failed.contains("cost.cpu.ratio") || failed.contains("cost.cpu") {
            if cost.floorScale > 1, let full = fullDecode, cost.resizer.cpuSeconds >= fullDecodeShare * full.cpuSeconds {
                return .init(bugClass: "no-dct-scaling", name: "no DCT-domain scaling", confidence: 1,
                             summary: String(format: "no DCT-domain scaling: decodes the JPEG at full size (CPU %.2f s; decoding it whole takes %.2f s, at 1/%d %.2f s)", cost.resizer.cpuSeconds, full.cpuSeconds, cost.floorScale, cost.floor.cpuSeconds))
            }
            return .init(bugClass: "cpu-per-pixel", name: "CPU grows beyond decoding and resampling", confidence: 1,
                         summary: String(format: "CPU grows with the source beyond decoding and resampling: %.2f s, %.1f× the floor (work per pixel such as an allocation or a conversion)", cost.resizer.cpuSeconds, cost.resizer.cpuSeconds / max(cost.floor.cpuSeconds, 1e-9)))
        }
        return nil
    }
}

import ImageCodecs
import ImageCorpus
import ImageMetrics
import ImageResize

/// What one scale pair cost: the resizer's child process, the floor's (`imglab decode` of the
/// same source at the scale a correct shrink-on-load would use, with every delivered byte
/// box-averaged to the output size, measured in the same run on the same machine), and the
/// cost gate's outcome. Gates are ratios to the floor where they
/// can be, so they hold on a slower or faster machine.
public struct ScaleCost: Sendable, Hashable, Codable {
    /// The metric names a cost gate may use (``values``).
    public static let names = ["cost.rss", "cost.rss.overFloor", "cost.cpu", "cost.wall", "cost.cpu.ratio", "floor.rss", "floor.cpu"]

    /// The resizer's process.
    public var resizer: ProcessCost
    /// The floor's process.
    public var floor: ProcessCost
    /// The DCT scale denominator the floor decoded a JPEG at (1 for other containers).
    public var floorScale: Int
    /// The cost gate's outcome, when the gates file has one.
    public var gate: GateResult?

    /// The cost metrics by name: MiB for memory, seconds for time, and the CPU ratio (none when
    /// the floor took no measurable CPU time).
    public var values: [String: Double] {
        var v = ["cost.rss": resizer.peakRSSMiB, "cost.rss.overFloor": resizer.peakRSSMiB - floor.peakRSSMiB,
                 "cost.cpu": resizer.cpuSeconds, "cost.wall": resizer.wallSeconds,
                 "floor.rss": floor.peakRSSMiB, "floor.cpu": floor.cpuSeconds]
        if floor.cpuSeconds > 0 { v["cost.cpu.ratio"] = resizer.cpuSeconds / floor.cpuSeconds }
        return v
    }

    /// One line: `rss 95.4 MiB (1.8 over the floor)  cpu 0.15 s (floor 0.15 s at 1/8, ×0.96)  wall 0.15 s`.
    public var summary: String {
        let ratio = floor.cpuSeconds > 0 ? String(format: "×%.2f", resizer.cpuSeconds / floor.cpuSeconds) : "×?"
        return String(format: "rss %.1f MiB (%.1f over the floor)  cpu %.2f s (floor %.2f s at 1/%d, %@)  wall %.2f s",
                      resizer.peakRSSMiB, resizer.peakRSSMiB - floor.peakRSSMiB, resizer.cpuSeconds, floor.cpuSeconds, floorScale,
                      ratio, resizer.wallSeconds)
    }

    /// The DCT scale a correct shrink-on-load decodes the case's source at for `operation`
    /// placed as `placement` (1 for every container but JPEG):
    /// - `maxPixelSize`, ImageIO's thumbnail contract: the largest 1/d (d = 2, 4, 8) that still
    ///   leaves the output's resolution (``MaxPixelSizeThumbnail/scaleDenominator(width:height:target:)``);
    /// - a resize, libvips' rule for quality: the largest 1/d that leaves at least 2× for the
    ///   resample over the source region used (``FileResize/jpegScaleDenominator(region:target:)``).
    public static func floorScale(container: String, width: Int, height: Int, operation: LabOperation, placement: OraclePlacement) -> Int {
        guard container == ContainerFormat.jpeg.rawValue else { return 1 }
        let content = placement.content, region = placement.source
        guard region.width > 0, region.height > 0 else { return 1 }
        if case .maxPixelSize = operation {
            let needed = (width: Int((content.width * Double(width) / region.width).rounded(.up)),
                          height: Int((content.height * Double(height) / region.height).rounded(.up)))
            return MaxPixelSizeThumbnail.scaleDenominator(width: width, height: height, target: needed)
        }
        return FileResize.jpegScaleDenominator(region: (region.width, region.height),
                                               target: (Int(content.width.rounded(.up)), Int(content.height.rounded(.up))))
    }
}

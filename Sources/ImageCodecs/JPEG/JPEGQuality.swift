/// The IJG quality (1…100) a JPEG's luma quantisation table was made with: the table the
/// libjpeg `jpeg_set_quality` scaling of the standard table (ITU T.81 Annex K, Table K.1) gives
/// for each quality, compared with the file's; the nearest wins. libjpeg(-turbo), Pillow,
/// ImageMagick, libvips and most cameras' software scale that table, so the figure is the
/// `-quality` the encoder was given; a file whose table is far from every scaled one (its own
/// tables) gets the nearest with ``isStandardScaling`` false.
public struct JPEGQuality: Sendable, Hashable {
    /// The quality whose scaled table is nearest.
    public var quality: Int
    /// Whether the file's table is that scaled table, within one step per entry on average.
    public var isStandardScaling: Bool

    /// Table K.1, natural (row-major) order.
    static let standardLuma: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The luma table `jpeg_set_quality(quality, force_baseline = TRUE)` writes (jcparam.c): 64
    /// quantisation steps in natural (row-major) order.
    public static func scaledTable(_ quality: Int) -> [Int] {
        let q = min(max(quality, 1), 100)
        let scale = q < 50 ? 5000 / q : 200 - 2 * q
        return standardLuma.map { min(max(($0 * scale + 50) / 100, 1), 255) }
    }

    /// A quality as stated.
    public init(quality: Int, isStandardScaling: Bool) {
        self.quality = quality
        self.isStandardScaling = isStandardScaling
    }

    /// The estimate for a luma table of 64 values in natural order; `nil` for another length.
    public init?(lumaTable table: [UInt16]) {
        guard table.count == 64 else { return nil }
        var best = (quality: 1, distance: Int.max)
        for q in 1...100 {
            let d = zip(Self.scaledTable(q), table).reduce(0) { $0 + abs($1.0 - Int($1.1)) }
            if d < best.distance { best = (q, d) }
        }
        quality = best.quality
        isStandardScaling = best.distance <= 64
    }
}

import ImageCore
import ImageCodecs

/// What a file stores under α = 0, read back by decoding it with ImageCodecs: its transparent
/// pixels counted by stored colour, over ``Image/bitmap`` and every further animation canvas.
public struct HiddenColourReading: Hashable, Sendable {
    /// Transparent (α = 0) pixels by stored colour, as 8-bit sRGB codes (16-bit and float
    /// samples rounded to the nearest code).
    public var transparentPixels: [HiddenRGB: Int]

    /// Decodes `bytes` (every frame) and counts.
    /// - Throws: `DecodeError` when the bytes do not decode.
    public init(decoding bytes: [UInt8]) throws(DecodeError) {
        let image = try ImageCodecs.decode(bytes)
        self.init(image)
    }

    /// Counts the transparent pixels of `image`: its bitmap and every animation canvas after the first.
    public init(_ image: Image) {
        var counts: [HiddenRGB: Int] = [:]
        let bitmaps = [image.bitmap] + (image.animation?.frames.dropFirst().map(\.canvas) ?? [])
        for bitmap in bitmaps {
            for y in 0..<bitmap.height {
                let row = bitmap.straightRGBARow(y)
                for x in 0..<bitmap.width where row[x * 4 + 3] == 0 {
                    func code(_ v: Double) -> Int { Int(min(max(v * 255 + 0.5, 0), 255).rounded(.down)) }
                    counts[HiddenRGB(red: code(row[x * 4]), green: code(row[x * 4 + 1]), blue: code(row[x * 4 + 2])), default: 0] += 1
                }
            }
        }
        transparentPixels = counts
    }

    /// All transparent pixels.
    public var transparentCount: Int { transparentPixels.values.reduce(0, +) }

    /// Transparent pixels whose colour is one of `colours`.
    public func count(of colours: [HiddenRGB]) -> Int {
        colours.reduce(0) { $0 + (transparentPixels[$1] ?? 0) }
    }

    /// Whether some transparent pixel stores a colour other than black: the file carries
    /// hidden colour (black is what a pipeline that loses it leaves).
    public var carriesColour: Bool { transparentPixels.contains { $0.key != .black && $0.value > 0 } }
}

import ImageCorpus
import ImageCore

/// A deliberately broken adapter: the wrapped resizer's output with red and blue swapped (the
/// BGRA-read-as-RGBA half of the pink-tint bug, D6 / B1). The runner's canaries use it: a gate
/// that lets this through on a colourful case cannot catch channel-order bugs, so the run fails
/// closed. Tests use it as the "broken resizer".
public struct ChannelSwapMutant: Resizer {
    /// The resizer whose outputs are broken.
    public var base: any Resizer

    public var name: String { "swap-rb(\(base.name))" }

    public init(_ base: any Resizer) { self.base = base }

    /// Applies the operation with the wrapped resizer, then swaps R and B.
    public func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
        try Self.swapRedBlue(base.apply(operation, to: source))
    }

    /// Applies the operation to the file with the wrapped resizer, then swaps R and B.
    public func apply(_ operation: LabOperation, to source: Image, file: String?) throws(ResizerError) -> Image {
        try Self.swapRedBlue(base.apply(operation, to: source, file: file))
    }

    /// The image with R and B exchanged in every frame (via straight 16-bit RGBA, exact).
    public static func swapRedBlue(_ image: Image) throws(ResizerError) -> Image {
        try image.mappingBitmaps { b throws(ResizerError) in
            var c = try FrameRewrite.rgba16(b)
            for y in 0..<c.height {
                var i = y * c.bytesPerRow
                for _ in 0..<c.width {
                    c.bytes.swapAt(i, i + 4)
                    c.bytes.swapAt(i + 1, i + 5)
                    i += 8
                }
            }
            return c
        }
    }
}

/// Where the alpha-edge halo (``AlphaEdgeHalo``) reads the colour hidden under α = 0 near a
/// pixel: the mean straight colour (0…1) of an image's transparent pixels in the smallest square
/// around the pixel that holds any. Squares of half-width 1, 2, 4 and 8 pixels are read pixel by
/// pixel; beyond them, squares of 1, 2, 4, … 32 blocks of 16 × 16 pixels around the pixel's block
/// (reaching 528 pixels away) are read from per-block sums, so a wide feathered edge finds its
/// hidden colour at a bounded cost.
struct HiddenColourField: Sendable {
    /// The image read (straight RGBA samples, 4 channels).
    let image: ValueImage
    /// Side of a block in pixels.
    static let block = 16
    /// Half-widths of the squares read pixel by pixel, smallest first.
    static let pixelRadii = [1, 2, 4, 8]
    /// Half-widths, in blocks, of the squares read from the block sums, smallest first.
    static let blockRadii = [1, 2, 4, 8, 16, 32]
    /// Blocks per row and per column.
    let blocksWide: Int, blocksHigh: Int
    /// Per block, row by row: Σ of the red, green and blue samples (16-bit codes) of its
    /// transparent pixels, and their number.
    let sums: [SIMD4<Double>]

    /// Gathers the block sums of `image` (4 channels; with 3, no pixel is transparent).
    init(_ image: ValueImage) {
        self.image = image
        let b = Self.block
        let wide = (image.width + b - 1) / b, high = (image.height + b - 1) / b
        blocksWide = wide
        blocksHigh = high
        var sums = [SIMD4<Double>](repeating: SIMD4(repeating: 0), count: wide * high)
        if image.channels == 4 {
            image.withSamples { s in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let i = (y * image.width + x) * 4
                        guard s[i + 3] == 0 else { continue }
                        sums[(y / b) * wide + x / b] += SIMD4(Double(s[i]), Double(s[i + 1]), Double(s[i + 2]), 1)
                    }
                }
            }
        }
        self.sums = sums
    }

    /// The hidden colour near (x, y), or `nil` when no transparent pixel lies in the largest square.
    func colour(_ x: Int, _ y: Int) -> SIMD3<Double>? {
        let w = image.width, h = image.height
        guard image.channels == 4, x >= 0, y >= 0, x < w, y < h else { return nil }
        let found = image.withSamples { s -> SIMD4<Double>? in
            for r in Self.pixelRadii {
                var sum = SIMD4<Double>(repeating: 0)
                for yy in max(y - r, 0)...min(y + r, h - 1) {
                    for xx in max(x - r, 0)...min(x + r, w - 1) {
                        let i = (yy * w + xx) * 4
                        if s[i + 3] == 0 { sum += SIMD4(Double(s[i]), Double(s[i + 1]), Double(s[i + 2]), 1) }
                    }
                }
                if sum.w > 0 { return sum }
            }
            return nil
        } ?? {
            let bx = x / Self.block, by = y / Self.block
            for r in Self.blockRadii {
                var sum = SIMD4<Double>(repeating: 0)
                for yy in max(by - r, 0)...min(by + r, blocksHigh - 1) {
                    for xx in max(bx - r, 0)...min(bx + r, blocksWide - 1) { sum += sums[yy * blocksWide + xx] }
                }
                if sum.w > 0 { return sum }
            }
            return nil
        }()
        guard let found else { return nil }
        return SIMD3(found.x, found.y, found.z) / (found.w * 65535)
    }
}

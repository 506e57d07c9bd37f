import ImageCore

extension HeatMap {
    /// The heat map reduced so that neither side exceeds `maxSide` pixels, for an index's
    /// difference column. Each thumbnail pixel covers a `step` × `step` block and shows the worst
    /// pixel of it (an error that is not a number, then the largest ramp colour, then colour
    /// hidden under α = 0), so a single changed pixel stays visible; a block with no change shows
    /// its first pixel's grey; `ignored` pixels count as unchanged. Indexed like
    /// ``indexedBitmap(expected:actual:ignored:)``.
    public static func thumbnail(expected e: ValueImage, actual a: ValueImage, ignored: PixelMask? = nil, maxSide: Int) -> Bitmap {
        var indices = indexBytes(expected: e, actual: a)
        if let ignored, ignored.width == e.width, ignored.height == e.height {
            for p in indices.indices where ignored.bits[p] { indices[p] = hatchIndex }
        }
        let step = max(1, (max(e.width, e.height) + maxSide - 1) / maxSide)
        let w = max(1, e.width / step), h = max(1, e.height / step)
        // How bad an index is: 0 unchanged (grey, hatch), 1 hidden colour, 2…8 the ramp, 9 not a number.
        func rank(_ index: UInt8) -> Int {
            switch index {
            case whiteIndex: return 9
            case hiddenIndex: return 1
            case 0..<whiteIndex: return Int(index) + 2
            default: return 0
            }
        }
        var out = [UInt8](repeating: 0, count: w * h)
        for ty in 0..<h {
            for tx in 0..<w {
                var worst = indices[ty * step * e.width + tx * step], worstRank = rank(worst)
                for y in (ty * step)..<min(e.height, ty * step + step) {
                    for x in (tx * step)..<min(e.width, tx * step + step) {
                        let index = indices[y * e.width + x], r = rank(index)
                        if r > worstRank { (worst, worstRank) = (index, r) }
                    }
                }
                out[ty * w + tx] = worst
            }
        }
        return Bitmap(uncheckedWidth: w, height: h, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8),
                      bytesPerRow: w, bytes: out)
    }
}

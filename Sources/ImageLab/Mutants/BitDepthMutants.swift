import ImageCorpus
import ImageCore

extension Mutant {
    /// 16-bit samples reduced to 8 bits by keeping the low byte (`UInt8(truncatingIfNeeded:)`)
    /// in the copy path (orient, crop, border), which moves samples without the float working form.
    static let sixteenBitLowByte = Mutant(
        id: "16bit-low-byte", topic: "16-bit",
        title: "16-bit samples reduced to 8 bits by keeping the low byte (noise instead of the picture)",
        history: "16 bits per component is where resizers break (D4, B9: libvips#234, sharp#325, Pillow#9480): a UInt16 → UInt8 cast that truncates instead of dividing by 257 keeps the low byte, which is the noise of the sample, so smooth 16-bit gradients turn into stripes and static. Here the resampling path converts correctly; the fast copy path of orient, crop and transparent border casts.",
        references: ["D4", "B9"], bugClass: "16-bit",
        triggers: { pair in
            pair.record.pixelFormat.bitsPerComponent == 16 && ["orient", "crop", "transparentBorder"].contains(pair.operationKind)
        },
        make: { base in
            MutantResizer(name: "16bit-low-byte(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                guard source.format.bitsPerComponent == 16, !source.format.isFloat else { return output }
                switch operation {
                case .orient, .crop, .transparentBorder:
                    return try output.mappingBitmaps { bitmap throws(ResizerError) in try BitDepth.lowByte(bitmap) }
                default:
                    return output
                }
            }
        })

    /// Sub-8-bit samples (1-, 2-, 4-bit gray; 5-bit BMP colour) forced to 8 bits by a plain
    /// left shift, without replicating the high bits into the low ones: full scale 2ⁿ − 1 becomes
    /// 256 − 2⁸⁻ⁿ instead of 255, so everything darkens by the factor (256 − 2⁸⁻ⁿ) / 255.
    static let wrongShift = Mutant(
        id: "depth-shift", topic: "16-bit",
        title: "bits per component forced to 8 by a shift without bit replication (whites turn gray)",
        history: "Expanding n-bit samples with v << (8 − n) instead of v · 255 / (2ⁿ − 1) (B8, B9, B10): 4-bit gray white becomes 240, 1-bit white 128, 5-bit BMP (555 / 565) white 248. Screenshots and fax-like 1-bit images come out dim; the bit-depth reports of image-rs and Pillow are this shift.",
        references: ["D4", "B8", "B10"], bugClass: "bit-depth",
        triggers: { pair in
            [1, 2, 4, 5].contains(pair.record.pixelFormat.bitsPerComponent) && !pair.sourceIsIndexed
        },
        make: { base in
            MutantResizer(name: "depth-shift(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let n = source.format.bitsPerComponent
                guard [1, 2, 4, 5].contains(n), !source.format.isIndexed else { return try base.apply(operation, to: source) }
                let shifted = try source.mappingBitmaps { bitmap throws(ResizerError) in try BitDepth.expandedByShift(bitmap, bits: n) }
                return try base.apply(operation, to: shifted)
            }
        })
}

/// The sample arithmetic of the bit-depth mutants.
enum BitDepth {
    /// Every sample of `bitmap` (as straight 16-bit RGBA) reduced to its low byte: 8-bit RGBA.
    static func lowByte(_ bitmap: Bitmap) throws(ResizerError) -> Bitmap {
        let wide = try FrameRewrite.rgba16(bitmap)
        let samples = FrameRewrite.samples(ofRGBA16: wide)
        let bytes = samples.map { UInt8(truncatingIfNeeded: $0) }
        do { return try Bitmap(width: bitmap.width, height: bitmap.height, format: bitmap.format.hasAlpha ? .rgba8 : .rgba8.withAlpha(.noneSkipLast), bytes: bytes) } catch {
            throw .failed("16bit-low-byte: \(error)")
        }
    }

    /// `bitmap`, whose samples are `bits` deep, as 8-bit samples `v << (8 − bits)`: gray for
    /// gray sources, RGBX for 5-bit RGB.
    static func expandedByShift(_ bitmap: Bitmap, bits: Int) throws(ResizerError) -> Bitmap {
        let isGray = bitmap.format.colorModel == .gray
        let target: PixelFormat = isGray ? .gray8 : PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast)
        var wide = try FrameRewrite.convert(bitmap, to: target)
        let maxValue = Double((1 << bits) - 1)
        let channels = isGray ? 1 : 4
        for i in wide.bytes.indices where isGray || i % channels != 3 {
            let v = Int((Double(wide.bytes[i]) * maxValue / 255).rounded())
            wide.bytes[i] = UInt8(truncatingIfNeeded: v << (8 - bits))
        }
        return wide
    }
}

import ImageCorpus
import ImageCore

// The subtle mutants that store samples wrongly: the resampling is right, the numbers written
// (or the precision they pass through) are not.

extension Mutant {
    /// 8-bit samples truncated instead of rounded.
    static let truncation = Mutant(
        id: "truncation", topic: "rounding",
        title: "output samples truncated instead of rounded (every value up to one code low: a −½ code bias)",
        history: "A float-to-integer cast that truncates (`UInt8(v * 255)`, `np.uint8(v)`, integer division v · 255 / 65535) where `+ 0.5` was meant: darktable's exports were \"almost never rounded\" until darktable#7250, pica#21 found white resized to FEFEFE, igneous#34 lost up to a level per mip level to integer truncation. Opaque pixels move by less than a code, under the visible bound; alpha and the straight colour of translucent pixels, gated at half a code, show it. Here: the resampled value rounded to 16 bits, then reduced to 8 by the truncating integer division.",
        references: ["B9"], bugClass: "rounding", subtle: true,
        triggers: { pair in
            pair.resamples && pair.record.pixelFormat.bitsPerComponent <= 8 && !pair.record.pixelFormat.floatComponents
        },
        make: departing("truncation", ResamplingDeparture(storage: .truncated)))

    /// The overshoot of Lanczos 3 not clamped: samples past the range wrap around.
    static let overshootWrap = Mutant(
        id: "overshoot-wrap", topic: "overshoot",
        title: "no clamping after a negative-lobe kernel: overshoot wraps around (black dots on white edges, white on black)",
        history: "Lanczos and cubic kernels overshoot next to sharp edges; stored without a clamp, a sum above the maximum wraps to near 0 and one below 0 to near the maximum. Pillow#9480 (\"Correct integer overflow in 16-bit resampling\": I;16 Lanczos downsampling \"could result in byte corruption\"), Pillow#4783 (negative values from LANCZOS in mode F), mapcache#282 (255 · 255 / 254 overflowing a byte, \"a nearly white pixel to a pure black pixel\"). Here: the built-in's Lanczos 3, each straight sample rounded and kept modulo 2⁸ or 2¹⁶.",
        references: ["B21"], bugClass: "overshoot", subtle: true,
        triggers: { pair in
            pair.resamples && !pair.record.pixelFormat.floatComponents && pair.record.scene != "constant"
                && !(pair.operationKind == "squareThumbnail" && pair.roundsCorners)
        },
        make: departing("overshoot-wrap", ResamplingDeparture(storage: .wrapped)))

    /// A 16-bit source processed in 8 bits, the result written in 16 bits again.
    static let eightBitIntermediate = Mutant(
        id: "8bit-intermediate", topic: "16-bit",
        title: "an 8-bit intermediate for 16-bit sources (256 levels written as 16 bits)",
        history: "A pipeline whose working buffer is 8 bits per sample: ImageMagick built with QuantumDepth 8 (Q8, \"unsigned char\" quanta; 16-bit files read into it keep 256 levels), Bun.Image decoding every PNG as RGBA8 (bun#30462, fixed in bun#30463: \"The low byte of every channel is lost even though no user op runs\"), libvips' PNG saver writing an 8-bit image as 16 bits (libvips#4516: \"just an 8-bit image shifted up\"). The file stays 16-bit, so nothing looks wrong, but smooth gradients band and every sample is off by up to half an 8-bit code (B9, D4). Here: the source rounded to 8 bits (÷ 257), resized, and the result widened (× 257).",
        references: ["D4", "B9"], bugClass: "16-bit", subtle: true,
        triggers: { pair in pair.record.pixelFormat.bitsPerComponent == 16 && !pair.record.pixelFormat.floatComponents },
        make: { base in
            MutantResizer(name: "8bit-intermediate(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.format.bitsPerComponent == 16, !source.format.isFloat else { return try base.apply(operation, to: source) }
                let narrow = try source.mappingBitmaps { bitmap throws(ResizerError) in
                    try FrameRewrite.convert(bitmap, to: BitDepth.straight(bitmap.format, bits: 8))
                }
                return try base.apply(operation, to: narrow).mappingBitmaps { bitmap throws(ResizerError) in
                    try FrameRewrite.convert(bitmap, to: BitDepth.straight(bitmap.format, bits: 16))
                }
            }
        })
}

extension BitDepth {
    /// `format`'s colour model at `bits` per component with straight alpha (premultiplied
    /// becomes straight, the same placement), big-endian: what an 8-bit buffer or its 16-bit
    /// widening holds.
    static func straight(_ format: PixelFormat, bits: Int) -> PixelFormat {
        let alpha: AlphaInfo
        switch format.alphaInfo {
        case .premultipliedLast: alpha = .last
        case .premultipliedFirst: alpha = .first
        default: alpha = format.alphaInfo
        }
        let model: ColorModel = format.colorModel == .gray ? .gray : .rgb
        return PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: alpha)
    }
}

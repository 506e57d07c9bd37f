import Foundation
import ImageCorpus
import ImageCore
import ImageResize

/// The built-in resizer's resampling written again from ImageResize's public pieces
/// (`OutputGeometry` for sizes and source rectangles, `Resample` and `Kernel` for the filter,
/// the built-in's `roundedCorners` for the corners of a bordered square thumbnail), with one
/// departure that a real resizer makes: the mutants that break the resampling itself are a
/// value of this type and a line or two.
///
/// Without a departure it computes what the built-in does, to within its rounding: the upright
/// source, straight samples decoded to linear light by the sRGB curve and premultiplied,
/// Lanczos 3 widened by the scale when shrinking, edge taps renormalised, pixel centres at
/// `(i + ½) · scale`, then α clamped to 0…1, colour to 0…α, encoded and rounded half up. Only
/// the resampling operations (`resize`, `squareThumbnail`, `maxPixelSize`) are taken; the copies
/// (``apply(_:to:)`` returns `nil`) stay the caller's. The output is straight RGBA, 16 bits for
/// 16-bit and float sources, 8 bits otherwise.
struct ResamplingDeparture: Sendable {
    /// The curve between stored (encoded) values and the values averaged.
    enum Transfer: Sendable, Hashable {
        /// The sRGB curve of IEC 61966-2-1 (``SRGBTransfer``).
        case srgb
        /// A pure power: averaged = encoded^γ, encoded = averaged^(1/γ).
        case power(Double)
    }

    /// How a sample is written at the output's depth (`max` = 2ⁿ − 1).
    enum Storage: Sendable, Hashable {
        /// Clamped to 0…1, `⌊v · max + ½⌋`.
        case rounded
        /// Clamped, rounded to 16 bits, then for an 8-bit output `v₁₆ · 255 / 65535` in integers,
        /// which truncates.
        case truncated
        /// Not clamped: `round(v · max)` kept modulo 2ⁿ (straight colour `c / α` for α > 0).
        case wrapped
    }

    /// The transfer of the averaging space (default: the sRGB curve, i.e. linear light).
    var transfer: Transfer = .srgb
    /// Whether the kernel is widened by the scale when shrinking.
    var widensKernel = true
    /// Per axis, whether output pixel centres sit at `i · scale` instead of `(i + ½) · scale`.
    var cornerCentres: (x: Bool, y: Bool) = (false, false)
    /// Whether taps outside the image read from the opposite edge instead of being dropped.
    var wrapsEdges = false
    /// How samples are written.
    var storage: Storage = .rounded

    /// The resampling an operation asks of an upright `width × height` image: the output size, the
    /// source rectangle, and the transparent border and corner radius of a square thumbnail.
    struct Plan: Sendable {
        var width: Int, height: Int
        var source: (x: Double, y: Double, width: Double, height: Double)
        var border = 0
        var cornerRadius = 0.0
    }

    /// The plan of `operation`, or `nil` when it copies pixels (orient, crop, borders, corners).
    static func plan(_ operation: LabOperation, width w: Int, height h: Int) -> Plan? {
        let whole = (0.0, 0.0, Double(w), Double(h))
        switch operation {
        case .resize(let bw, let bh, let mode):
            switch mode {
            case .scaleToFill:
                return Plan(width: bw, height: bh, source: whole)
            case .aspectFit:
                let s = OutputGeometry.aspectFit(width: w, height: h, boxWidth: bw, boxHeight: bh)
                return Plan(width: s.width, height: s.height, source: whole)
            case .aspectFillWithoutCrop:
                let s = OutputGeometry.aspectCover(width: w, height: h, boxWidth: bw, boxHeight: bh)
                return Plan(width: s.width, height: s.height, source: whole)
            case .aspectFill(let x, let y):
                return Plan(width: bw, height: bh, source: OutputGeometry.aspectFillSource(width: w, height: h, boxWidth: bw, boxHeight: bh, anchor: (x, y)))
            }
        case .squareThumbnail(let size, let border, let radius):
            return Plan(width: size, height: size, source: OutputGeometry.aspectFillSource(width: w, height: h, boxWidth: size, boxHeight: size),
                        border: border, cornerRadius: radius)
        case .maxPixelSize(let n):
            let s = OutputGeometry.maxPixelSize(width: w, height: h, limit: n)
            return Plan(width: s.width, height: s.height, source: whole)
        case .orient, .crop, .roundedCorners, .transparentBorder:
            return nil
        }
    }

    /// `operation` applied to `source` with the departure, or `nil` when it does not resample. A
    /// source that states its colours other than sRGB's is resampled between the built-in's
    /// colour stages (``ImageResize/Image/betweenColourStages(_:_:)``, in its profile's linear
    /// light) as the built-in does; a departure of the averaging curve works on its stored values.
    func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image? {
        let upright = source.oriented()
        guard Self.plan(operation, width: upright.width, height: upright.height) != nil else { return nil }
        guard transfer == .srgb else { return try resampled(operation, upright: upright) }
        do {
            return try upright.betweenColourStages(.keep) { image in
                guard let out = try resampled(operation, upright: image) else { return image }
                return out
            }
        } catch let error as ResizerError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
    }

    /// ``apply(_:to:)`` of an upright source whose stored values are averaged with the sRGB curve.
    private func resampled(_ operation: LabOperation, upright: Image) throws(ResizerError) -> Image? {
        guard let plan = Self.plan(operation, width: upright.width, height: upright.height) else { return nil }
        let bits = upright.format.bitsPerComponent >= 16 || upright.format.isFloat ? 16 : 8
        var out = try upright.mappingBitmaps { bitmap throws(ResizerError) in
            var image = resample(working(bitmap), plan)
            if plan.border > 0 || plan.cornerRadius > 0 { image = try cornered(image, plan) }
            return try stored(image, bits: bits)
        }
        out.orientation = .up
        if var animation = out.animation {
            for k in animation.frames.indices {
                animation.frames[k].region = PixelRect(x: 0, y: 0, width: out.width, height: out.height)
                animation.frames[k].blend = .source
            }
            out.animation = animation
        }
        return out
    }

    /// Encoded value (0…1) → the value averaged.
    func decoded(_ e: Double) -> Double {
        switch transfer {
        case .srgb: return SRGBTransfer.toLinear(e)
        case .power(let g): return pow(e, g)
        }
    }

    /// The value averaged → encoded; beyond 0…1 the sRGB formulas are extended (the linear
    /// segment below 0, the power segment above 1), a power curve mirrored below 0.
    func encoded(_ v: Double) -> Double {
        switch transfer {
        case .srgb: return SRGBTransfer.fromLinear(v)
        case .power(let g): return v < 0 ? -pow(-v, 1 / g) : pow(v, 1 / g)
        }
    }

    /// Premultiplied averaging values of `bitmap` (``WorkingImage`` tagged `.sRGB`, which here
    /// means "as computed": the transfer is this type's).
    func working(_ bitmap: Bitmap) -> WorkingImage {
        var image = WorkingImage(width: bitmap.width, height: bitmap.height, lightSpace: .sRGB)
        for y in 0..<bitmap.height {
            let row = bitmap.straightRGBARow(y)
            for x in 0..<bitmap.width {
                let o = 4 * (y * bitmap.width + x), a = row[4 * x + 3]
                for c in 0..<3 { image.pixels[o + c] = Float(decoded(row[4 * x + c]) * a) }
                image.pixels[o + 3] = Float(a)
            }
        }
        return image
    }

    /// `image` resampled by `plan` (Lanczos 3), with the departures of the filter geometry.
    func resample(_ image: WorkingImage, _ plan: Plan) -> WorkingImage {
        var input = image
        var src = plan.source
        let sx = src.width / Double(plan.width), sy = src.height / Double(plan.height)
        if cornerCentres.x { src.x -= 0.5 * sx }
        if cornerCentres.y { src.y -= 0.5 * sy }
        if wrapsEdges {
            let pad = Int((Kernel.lanczos3.support * max(sx, sy, 1)).rounded(.up)) + 2
            input = Self.tiled(image, pad: pad)
            src.x += Double(pad)
            src.y += Double(pad)
        }
        guard !widensKernel else {
            return Resample.resample(input, width: plan.width, height: plan.height, kernel: .lanczos3, source: src)
        }
        // One axis at a time, each with Lanczos 3 narrowed by its own scale, so that the
        // resampler's widening gives back a support of 3 source pixels.
        let across = Resample.resample(input, width: plan.width, height: input.height, kernel: Self.fixedSupport(sx),
                                       source: (src.x, 0, src.width, Double(input.height)))
        return Resample.resample(across, width: plan.width, height: plan.height, kernel: Self.fixedSupport(sy),
                                 source: (0, src.y, Double(plan.width), src.height))
    }

    /// Lanczos 3 as a resampler that widens kernels by `scale` sees a kernel of fixed support:
    /// `lanczos3(x · scale)` on `|x| < 3 / scale` (plain Lanczos 3 when not shrinking).
    static func fixedSupport(_ scale: Double) -> Kernel {
        guard scale > 1 else { return .lanczos3 }
        let lanczos = Kernel.lanczos3
        return Kernel(name: "lanczos3-fixed", support: lanczos.support / scale) { x in lanczos.weight(x * scale) }
    }

    /// `image` with `pad` pixels on every side copied from the opposite edges (the image tiled).
    static func tiled(_ image: WorkingImage, pad: Int) -> WorkingImage {
        let w = image.width, h = image.height
        var out = WorkingImage(width: w + 2 * pad, height: h + 2 * pad, lightSpace: image.lightSpace)
        for y in 0..<out.height {
            let sy = ((y - pad) % h + h) % h
            for x in 0..<out.width {
                let sx = ((x - pad) % w + w) % w
                for c in 0..<4 { out.pixels[4 * (y * out.width + x) + c] = image.pixels[4 * (sy * w + sx) + c] }
            }
        }
        return out
    }

    /// The square thumbnail's border and corners: the built-in's `roundedCorners` on the
    /// resampled square handed over as straight float (clamped there, as the built-in does).
    func cornered(_ image: WorkingImage, _ plan: Plan) throws(ResizerError) -> WorkingImage {
        var bytes = [UInt8](repeating: 0, count: image.width * image.height * 16)
        for p in 0..<(image.width * image.height) {
            let a = min(max(Double(image.pixels[4 * p + 3]), 0), 1)
            var values = [0.0, 0.0, 0.0, a]
            for c in 0..<3 where a > 0 { values[c] = encoded(min(max(Double(image.pixels[4 * p + c]) / a, 0), 1)) }
            for (k, v) in values.enumerated() {
                // PixelFormat.rgbaFloat is host order: little-endian on every platform imglab runs on.
                let bits = Float(v).bitPattern
                for b in 0..<4 { bytes[16 * p + 4 * k + b] = UInt8((bits >> (8 * UInt32(b))) & 0xFF) }
            }
        }
        let square: Bitmap
        do { square = try Bitmap(width: image.width, height: image.height, format: .rgbaFloat, bytes: bytes) } catch {
            throw .failed("cannot hold the resampled square: \(error)")
        }
        let corners = BuiltinResizer(options: ResizeOptions(outputFormat: .rgbaFloat))
        let out = try corners.apply(.roundedCorners(radius: plan.cornerRadius, border: plan.border), to: Image(bitmap: square))
        return working(out.bitmap)
    }

    /// `image` written as straight RGBA of `bits` (8 or 16) by ``storage``.
    func stored(_ image: WorkingImage, bits: Int) throws(ResizerError) -> Bitmap {
        let maxCode = Double((1 << bits) - 1), mask = (1 << bits) - 1
        var samples = [UInt16](repeating: 0, count: image.width * image.height * 4)
        for p in 0..<(image.width * image.height) {
            let raw = Double(image.pixels[4 * p + 3])
            let a = storage == .wrapped ? raw : min(max(raw, 0), 1)
            func code(_ v: Double) -> UInt16 {
                guard v.isFinite else { return 0 }
                switch storage {
                case .rounded:
                    return UInt16((min(max(v, 0), 1) * maxCode + 0.5).rounded(.down))
                case .truncated:
                    let wide = Int((min(max(v, 0), 1) * 65535 + 0.5).rounded(.down))
                    return UInt16(bits == 8 ? wide * 255 / 65535 : wide)
                case .wrapped:
                    return UInt16(Int((v * maxCode).rounded()) & mask)
                }
            }
            for c in 0..<3 {
                let straight = a > 0 ? Double(image.pixels[4 * p + c]) / a : 0
                samples[4 * p + c] = code(encoded(storage == .wrapped ? straight : min(max(straight, 0), 1)))
            }
            samples[4 * p + 3] = code(a)
        }
        return try Self.rgba(width: image.width, height: image.height, samples: samples, bits: bits)
    }

    /// Straight RGBA of `bits` (8 or 16) from its samples (4 per pixel, row-major).
    static func rgba(width: Int, height: Int, samples: [UInt16], bits: Int) throws(ResizerError) -> Bitmap {
        guard bits == 16 else {
            do { return try Bitmap(width: width, height: height, format: .rgba8, bytes: samples.map { UInt8(truncatingIfNeeded: $0) }) } catch {
                throw .failed("cannot build a \(width)×\(height) bitmap: \(error)")
            }
        }
        return try FrameRewrite.rgba16(width: width, height: height, samples: samples)
    }
}

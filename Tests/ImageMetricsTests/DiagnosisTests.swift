import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize
@testable import ImageMetrics

/// Every candidate of the diagnosis, synthesised from the reference images by reproducing the
/// bug (see `Bugs`), at several strengths, must be named; innocent differences must not be.
///
/// Strengths: for the exact bugs, the buggy output as is and with uniform noise of ±2 and ±5
/// code values added afterwards (the bug mixed with innocent differences); for the resampling
/// bugs, downscale factors 2, 3 and 4.
@Suite("diagnosis")
struct DiagnosisTests {
    static func base(_ name: String) throws -> Bitmap { try Reference.image("base_\(name).png").bitmap }

    static func diagnose(_ expected: Bitmap, _ actual: Bitmap, expectedImage: Image? = nil) -> Diagnosis {
        let e = expectedImage ?? Image(bitmap: expected)
        return Comparison(expected: ComparedImage(image: e, name: "expected"), actual: ComparedImage(image: Image(bitmap: actual), name: "actual"),
                          options: ComparisonOptions(structural: false)).diagnosis
    }

    static func expectNamed(_ d: Diagnosis, _ id: String, _ context: String) {
        #expect(d.candidate == id, "\(context): named \(d.candidate ?? "nothing") (\(d.summary)); ranking \(d.ranking.map { "\($0.id) \(String(format: "%.3f", $0.explained))" })")
        if d.candidate == id { #expect(d.confidence >= 0.5) }
    }

    static let strengths = [0, 2, 5]

    @Test("channel permutations are named", arguments: [
        ([0, 2, 1], "channels.rbg"), ([1, 0, 2], "channels.grb"), ([1, 2, 0], "channels.gbr"), ([2, 0, 1], "channels.brg"), ([2, 1, 0], "channels.bgr"),
    ])
    func channelOrder(_ p: [Int], _ id: String) throws {
        let b = try Self.base("rgb97x61")
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.permute(b, p), amplitude: a)), id, "noise ±\(a)")
        }
    }

    @Test("alpha first↔last misreads are named: the pink tint")
    func alphaPosition() throws {
        for name in ["rgb97x61", "rgba64x48"] {
            let rgba = try Bugs.rgba(Self.base(name))
            let argbBytes = try rgba.converted(to: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first))
            for a in Self.strengths {
                let pink = try Bugs.noisy(Bugs.relabel(argbBytes, as: .rgba8), amplitude: a)
                Self.expectNamed(Self.diagnose(rgba, pink), "alpha.argb-read-as-rgba", "\(name) ARGB as RGBA ±\(a)")
                let shifted = try Bugs.noisy(Bugs.relabel(rgba, as: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first)), amplitude: a)
                Self.expectNamed(Self.diagnose(rgba, shifted), "alpha.rgba-read-as-argb", "\(name) RGBA as ARGB ±\(a)")
            }
            // Written without alpha: the opaque alpha byte still lands in red.
            let flat = try Bugs.relabel(argbBytes, as: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast))
            if name == "rgb97x61" {
                Self.expectNamed(Self.diagnose(try Self.base(name), flat), "alpha.argb-read-as-rgba", "\(name) ARGB as RGBX")
            }
        }
    }

    @Test("premultiplication misreads are named")
    func premultiplication() throws {
        let rgba = try Bugs.rgba(Self.base("rgba64x48"))
        let premultiplied = try rgba.converted(to: .rgba8Premultiplied)
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(rgba, try Bugs.noisy(Bugs.relabel(premultiplied, as: .rgba8), amplitude: a)),
                             "premultiplied.read-as-straight", "premultiplied as straight ±\(a)")
            Self.expectNamed(Self.diagnose(rgba, try Bugs.noisy(Bugs.relabel(rgba, as: .rgba8Premultiplied), amplitude: a)),
                             "straight.read-as-premultiplied", "straight as premultiplied ±\(a)")
        }
    }

    @Test("dropped alpha is named: hidden colour revealed, over black, over white, palette transparency")
    func alphaDropped() throws {
        let rgba = try Bugs.rgba(Self.base("rgba64x48"))
        let skip = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast)
        var overWhite = try rgba.converted(to: .rgb8).bytes
        for p in 0..<(rgba.width * rgba.height) {
            let a = Int(rgba.bytes[p * 4 + 3])
            for c in 0..<3 { overWhite[p * 3 + c] = UInt8((Int(rgba.bytes[p * 4 + c]) * a + 255 * (255 - a) + 127) / 255) }
        }
        let white = try Bitmap(width: rgba.width, height: rgba.height, format: .rgb8, bytes: overWhite)
        let palette = try Bugs.palette(from: Self.base("rgba64x48"))
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(rgba, try Bugs.noisy(Bugs.relabel(rgba, as: skip), amplitude: a)), "alpha.dropped-hidden-colour", "RGBX ±\(a)")
            Self.expectNamed(Self.diagnose(rgba, try Bugs.noisy(Bugs.relabel(rgba.converted(to: .rgba8Premultiplied), as: skip), amplitude: a)),
                             "alpha.dropped-over-black", "over black ±\(a)")
            Self.expectNamed(Self.diagnose(rgba, try Bugs.noisy(white, amplitude: a)), "alpha.dropped-over-white", "over white ±\(a)")
            Self.expectNamed(Self.diagnose(palette, try Bugs.noisy(Bugs.paletteTransparencyIgnored(palette), amplitude: a)),
                             "palette.transparency-ignored", "palette ±\(a)")
        }
    }

    @Test("each of the 7 wrong orientations is named",
          arguments: Orientation.allCases.filter { $0 != .up })
    func orientation(_ o: Orientation) throws {
        // Colour bases only: the gray bases are nearly symmetric (a horizontal ramp over a checker),
        // so a flip and a rotation explain them almost equally and the diagnosis rightly says "ambiguous".
        for name in ["rgb97x61", "rgb203x181"] {
            let b = try Self.base(name)
            for a in name == "rgb97x61" ? Self.strengths : [0] {
                Self.expectNamed(Self.diagnose(b, try Bugs.noisy(o.apply(to: b), amplitude: a)), "orientation.\(o.exifValue)", "\(name) ±\(a)")
            }
        }
    }

    @Test("sRGB averaging where linear light was expected is named", arguments: [2, 3, 4])
    func lightSpace(_ factor: Int) throws {
        let b = try Self.base("rgb203x181")
        let (w, h) = (b.width / factor, b.height / factor)
        Self.expectNamed(Self.diagnose(try Bugs.resized(b, w, h), try Bugs.resized(b, w, h, light: .sRGB)), "light.srgb-averaging", "÷\(factor)")
    }

    /// D10, "no antialiasing when shrinking", reproduced as it happens: each output pixel copies
    /// one source pixel (`Bugs.pointSampled`); the expected image is the Lanczos 3 shrink. The
    /// colour base's 6-px checker makes real edges at every factor. (ImageResize's `.nearest`
    /// kernel, used here before, is an area average when shrinking — a box filter, no aliasing —
    /// which is why nothing could name it.) The aliased detail is not predictable from the
    /// expected image (the pixel-wise candidate explains 0–20 %); the diagnosis names it by its
    /// ``AliasingSignature``: hard steps where the expected image has mixed edge pixels.
    /// Strengths: ÷2, ÷3, ÷4, each as is and with ±2 and ±5 noise added afterwards.
    @Test("nearest-neighbour sampling where a filter was expected is named", arguments: [2, 3, 4])
    func aliasing(_ factor: Int) throws {
        let b = try Self.base("rgb203x181")
        let (w, h) = (b.width / factor, b.height / factor)
        let expected = try Bugs.resized(b, w, h)
        for a in Self.strengths {
            let d = Self.diagnose(expected, try Bugs.noisy(Bugs.pointSampled(b, w, h), amplitude: a))
            Self.expectNamed(d, "filter.nearest", "÷\(factor) ±\(a)")
            #expect(d.bugClass == "aliasing", "÷\(factor) ±\(a): class \(d.bugClass ?? "none")")
        }
    }

    /// The signature's arithmetic on a 8×16 grey image whose edge is a two-pixel ramp
    /// (0, 0, 0, 85, 170, 255, 255, 255 across). Edge samples (3×3 range ≥ 24 code values) are
    /// columns 2…5; in column 3 the value 85 lies halfway between its neighbourhood's 0 and
    /// 170, in column 4 170 halfway between 85 and 255 (mixedness 1 each), columns 2 and 5 sit
    /// on their neighbourhood's extreme (mixedness 0, not mixed, not read).
    @Test("the aliasing signature measures the mixed edge pixels a hard step loses")
    func aliasingSignatureArithmetic() {
        let ramp = Self.greyColumns([0, 0, 0, 85, 170, 255, 255, 255]), step = Self.greyColumns([0, 0, 0, 0, 255, 255, 255, 255])
        // Ramp expected, hard step actual: in columns 3 and 4 the step sits on an extreme of
        // its neighbourhood. 2 columns × 16 rows × 3 channels.
        let lost = AliasingSignature(expected: ramp, actual: step)
        #expect(lost.edgeSamples == 96)
        #expect(lost.expectedMixing == 1 && lost.actualMixing == 0 && lost.lostMixing == 1)
        #expect(lost.names)
        // Identical: the same 96 mixed samples, mixedness 1 in both, nothing lost.
        let same = AliasingSignature(expected: ramp, actual: ramp)
        #expect(same.edgeSamples == 96 && same.expectedMixing == 1 && same.lostMixing == 0 && !same.names)
        // A sharp expected image has no mixing to lose, whatever the actual image does.
        let sharp = AliasingSignature(expected: step, actual: ramp)
        #expect(sharp.edgeSamples == 0 && sharp.expectedMixing == 0 && !sharp.names)
    }

    /// An edge a filter left one pixel wide (0, 0, 0, 64, 255, 255 across): column 3's 64 lies
    /// at p = 64/255 of its neighbourhood's 0…255, mixedness 2p = 0.502 (mixed); columns 2 and 4
    /// sit on an extreme (0). A mean over every edge sample would be 0.502/3 = 0.167, as if
    /// the image were sharp; the mixed samples alone are 16 rows × 3 channels = 48 < 64, so two
    /// such edges (0, 0, 0, 64, 255, 255, 255, 191, 0, 0: columns 3 and 7, 191 at 1 − 64/255 of
    /// 0…255) make 96. Point-sampled, both become hard steps: everything lost, named.
    @Test("the aliasing signature reads a one-pixel filtered edge beside its hard sides")
    func aliasingSignatureNarrowEdge() {
        let filtered = Self.greyColumns([0, 0, 0, 64, 255, 255, 255, 191, 0, 0])
        let sampled = Self.greyColumns([0, 0, 0, 0, 255, 255, 255, 255, 0, 0])
        let s = AliasingSignature(expected: filtered, actual: sampled)
        #expect(s.edgeSamples == 96)
        #expect(abs(s.expectedMixing - 2 * 64.0 / 255) < 1e-9)
        #expect(s.actualMixing == 0 && s.lostMixing == 1 && s.names)
        // One edge only: 48 mixed samples, too few to read.
        let one = AliasingSignature(expected: Self.greyColumns([0, 0, 0, 64, 255, 255]), actual: Self.greyColumns([0, 0, 0, 0, 255, 255]))
        #expect(one.edgeSamples == 48 && !one.names)
    }

    /// A 16-row grey image with the given 8-bit column values.
    static func greyColumns(_ columns: [Int]) -> ValueImage {
        var samples: [UInt16] = []
        for _ in 0..<16 { for v in columns { samples += [UInt16(v * 257), UInt16(v * 257), UInt16(v * 257)] } }
        return ValueImage(width: columns.count, height: 16, channels: 3, samples: samples, sourceBitsPerComponent: 8)
    }

    @Test("2× and ½× scale are named")
    func scale() throws {
        let b = try Self.base("rgb97x61")
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.resized(b, 194, 122, kernel: .triangle), amplitude: a)), "scale.2x", "2× ±\(a)")
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.resized(b, 49, 31, kernel: .triangle), amplitude: a)), "scale.half", "½× ±\(a)")
        }
    }

    @Test("one- and half-pixel shifts are named")
    func shifts() throws {
        let b = try Self.base("rgb97x61")
        for a in Self.strengths {
            for (dx, dy, dir) in [(1, 0, "right"), (-1, 0, "left"), (0, 1, "down"), (0, -1, "up")] {
                Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.shifted(b, dx: dx, dy: dy), amplitude: a)), "shift.one.\(dir)", "±\(a)")
            }
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.halfShifted(b, right: true, down: false), amplitude: a)), "shift.half.right", "±\(a)")
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.halfShifted(b, right: false, down: true), amplitude: a)), "shift.half.down", "±\(a)")
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.halfShifted(b, right: true, down: true), amplitude: a)), "shift.half.right-down", "±\(a)")
        }
        // The reference's own shift1 pair (P08) is a one-pixel shift right.
        let p08 = try Reference.image("P08_rgb97x61_shift1.png").bitmap
        Self.expectNamed(Self.diagnose(b, p08), "shift.one.right", "P08")
    }

    @Test("CMYK ink inversion is named")
    func cmyk() throws {
        let b = try Self.base("rgb97x61")
        let plain = try b.converted(to: .cmyk8)
        for a in Self.strengths {
            let inverted = try Bugs.relabel(plain, as: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8))
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(inverted, amplitude: a)), "cmyk.inverted", "±\(a)")
        }
    }

    @Test("16-bit byte swap and low-byte truncation are named")
    func sixteenBit() throws {
        let deep = try Bugs.resized(Self.base("rgb203x181"), 150, 134, format: .rgb16)
        let swapped = try Bugs.relabel(deep, as: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, byteOrder: .little16))
        Self.expectNamed(Self.diagnose(deep, swapped), "depth16.byte-swap", "byte swap")
        var low = [UInt8](repeating: 0, count: deep.width * deep.height * 3)
        for i in 0..<low.count { low[i] = deep.bytes[i * 2 + 1] }
        Self.expectNamed(Self.diagnose(deep, try Bitmap(width: deep.width, height: deep.height, format: .rgb8, bytes: low)), "depth16.low-byte", "low byte")
    }

    @Test("identical pairs, noise, JPEG re-encoding and 8↔16-bit rounding get no diagnosis")
    func innocent() throws {
        let b = try Self.base("rgb203x181")
        let none: (Diagnosis, String) -> Void = { d, what in
            #expect(d.bugClass == nil, "\(what): named \(d.candidate ?? "") — \(d.summary); ranking \(d.ranking.map { "\($0.id) \(String(format: "%.3f", $0.explained))" })")
        }
        none(Self.diagnose(b, b), "identical")
        for pair in ["P04_gray64x48_noise10.png", "P09_rgb97x61_noise10.png", "P17_rgb203x181_noise10.png"] {
            let name = pair.split(separator: "_").dropFirst().first.map(String.init) ?? ""
            none(Self.diagnose(try Self.base(name), try Reference.image(pair).bitmap), pair)
        }
        for q in [95, 85, 75] { none(Self.diagnose(b, try Bugs.jpeg(b, quality: q)), "JPEG q\(q)") }
        let deep = try Bugs.resized(b, 150, 134, format: .rgb16)
        none(Self.diagnose(deep, try deep.converted(to: .rgb8)), "16 → 8 bit")
        none(Self.diagnose(try deep.converted(to: .rgb8), deep), "8 ← 16 bit")
    }
}

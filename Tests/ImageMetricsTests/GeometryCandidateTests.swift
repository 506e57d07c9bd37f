import Testing
import ImageCore
import ImageResize
@testable import ImageMetrics

/// The candidates of `GeometryCandidates` on synthetic images: each bug made independently
/// (by ImageResize's own resampling, or by the arithmetic of the bug), each named.
@Suite("geometry candidates")
struct GeometryCandidateTests {
    /// 40 × 26 opaque RGB: a red ramp across, a green ramp down, a blue 6 × 4 checker and a
    /// bright off-centre block, so no flip, rotation or shift maps it onto itself.
    static func base() throws -> Bitmap {
        let w = 40, h = 26
        var bytes = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                let block = x >= 6 && x < 16 && y >= 4 && y < 12
                bytes[i] = block ? 250 : UInt8(x * 6)
                bytes[i + 1] = block ? 240 : UInt8(y * 9)
                bytes[i + 2] = ((x / 6) + (y / 4)) % 2 == 0 ? 40 : 200
            }
        }
        return try Bitmap(width: w, height: h, format: .rgb8, bytes: bytes)
    }

    static func diagnose(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis { pairDiagnosis(expected, actual) }

    static func resized(_ b: Bitmap, _ w: Int, _ h: Int) throws -> Bitmap {
        try Image(bitmap: b).resized(width: w, height: h, contentMode: .scaleToFill).bitmap
    }

    @Test("a picture stretched onto a canvas one pixel larger each way is named size.overshoot")
    func overshoot() throws {
        let b = try Self.base()
        let d = Self.diagnose(b, try Self.resized(b, b.width + 1, b.height + 1))
        #expect(d.candidate == "size.overshoot", "\(d.summary)")
        #expect(d.bugClass == "size-rounding")
        #expect(d.confidence >= 0.5)
    }

    @Test("a picture squashed into the transposed canvas is named orientation.transposed-canvas, not a rotation")
    func transposed() throws {
        let b = try Self.base()
        let d = Self.diagnose(b, try Self.resized(b, b.height, b.width))
        #expect(d.candidate == "orientation.transposed-canvas", "\(d.summary)")
        // A real rotation of the same picture is still named as the orientation it is.
        let rotated = Self.diagnose(b, Orientation.right.apply(to: b))
        #expect(rotated.candidate == "orientation.6", "\(rotated.summary)")
    }

    @Test("n-bit samples widened by a shift are named by their depth: v × (256 − 2⁸⁻ⁿ) / 255", arguments: [(4, 240), (2, 192), (1, 128)])
    func widening(_ bits: Int, _ white: Int) throws {
        let b = try Self.base()
        var dim = b
        // The bug's arithmetic on every stored code value: full scale 255 becomes `white`.
        for i in dim.bytes.indices { dim.bytes[i] = UInt8((Double(b.bytes[i]) * Double(white) / 255).rounded()) }
        let d = Self.diagnose(b, dim)
        #expect(d.candidate == "depth.shift-\(bits)-bit", "\(d.summary)")
        #expect(d.bugClass == "bit-depth")
    }

    @Test("the widening candidate predicts 4-bit white as 240 / 255 and leaves alpha alone")
    func wideningArithmetic() throws {
        let white = try Bitmap(width: 1, height: 1, format: .rgba8, bytes: [255, 255, 255, 128])
        let view = ExpectedView(ValueImage(white, withAlpha: true))
        guard let four = GeometryCandidates.shiftWidening.first(where: { $0.id == "depth.shift-4-bit" }) else {
            Issue.record("no 4-bit candidate"); return
        }
        let p = four.predict(view, 0, 0)
        #expect(abs(p.x - 240.0 / 255) < 1e-9 && abs(p.w - 128.0 / 255) < 1e-4)
    }

    @Test("a rounding difference of one code value is not named a bit-depth bug")
    func innocentRounding() throws {
        let b = try Self.base()
        var off = b
        for i in off.bytes.indices where off.bytes[i] > 0 && i % 7 == 0 { off.bytes[i] -= 1 }
        #expect(Self.diagnose(b, off).bugClass != "bit-depth")
    }
}

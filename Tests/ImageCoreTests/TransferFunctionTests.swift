import Foundation
import Testing
import ImageCore

@Suite("sRGB transfer and the working form")
struct TransferFunctionTests {
    /// `Tests/Fixtures/reference/srgb8_to_linear.csv`, produced by colour-science's eotf_sRGB.
    static func reference() throws -> [(Int, Double)] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: tests.appendingPathComponent("Fixtures/reference/srgb8_to_linear.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: ",")
            guard f.count >= 2, let code = Int(f[0]), let value = Double(f[1]) else { return nil }
            return (code, value)
        }
    }

    @Test("8-bit sRGB decodes to the reference linear values")
    func matchesReference() throws {
        let reference = try Self.reference()
        #expect(reference.count == 256)
        for (code, value) in reference {
            #expect(abs(SRGBTransfer.toLinear(Double(code) / 255) - value) < 1e-15, "code \(code)")
            #expect(abs(SRGBTransfer.linearFromByte[code] - value) < 1e-15)
        }
    }

    @Test("encoding inverts decoding and the segments meet at the breakpoints")
    func inverse() {
        for v in 0...255 {
            let c = Double(v) / 255
            #expect(abs(SRGBTransfer.fromLinear(SRGBTransfer.toLinear(c)) - c) < 1e-12)
        }
        #expect(abs(0.04045 / 12.92 - pow((0.04045 + 0.055) / 1.055, 2.4)) < 1e-6)
    }

    @Test("8-bit images survive the linear working form unchanged", arguments: [LightSpace.linear, .sRGB])
    func workingRoundTrip(space: LightSpace) throws {
        var bytes: [UInt8] = []
        for v in 0..<256 { bytes += [UInt8(v), UInt8(255 - v), UInt8((v * 3) & 255), 255] }
        let img = try Bitmap(width: 256, height: 1, format: .rgba8, bytes: bytes)
        let working = WorkingImage(img, lightSpace: space)
        #expect(try working.bitmap(format: .rgba8).bytes == bytes)
    }

    @Test("the working form is premultiplied: colour × alpha, and 50 % sRGB grey is 0.214 linear")
    func premultipliedLinear() throws {
        let img = try Bitmap(width: 1, height: 1, format: .rgba8, bytes: [188, 188, 188, 51])
        let w = WorkingImage(img, lightSpace: .linear)
        let expectedLinear = pow((188.0 / 255 + 0.055) / 1.055, 2.4)
        #expect(abs(Double(w.pixels[0]) - expectedLinear * 0.2) < 1e-6)
        #expect(abs(Double(w.pixels[3]) - 0.2) < 1e-7)
    }
}

import Dispatch
import Testing
import ImageCore
@testable import ImageResize

/// The 8-bit output codes read from the code steps against the interpolated encoding curve they
/// replace, over every `Float` there is in 0…1, and through the output row converter.
@Suite("sRGB 8-bit codes")
struct SRGBEightBitCodesTests {
    /// The code the general path computes: the curve table read by interpolation, · 255, rounded half up.
    static func curveCode(_ v: Float, _ table: UnsafeBufferPointer<Float>) -> UInt8 {
        UInt8((SRGBCurveTable.value(at: v, in: table) * 255 + 0.5).clamped(0, 255))
    }

    @Test("every Float in 0…1 (1,065,353,217 of them) gets the code the interpolated curve rounds to")
    func everyFloatGetsTheCurvesCode() {
        let last = Float(1).bitPattern
        let parts = 64
        let codes = SRGBEightBitCodes.shared
        // Each part writes only its own slot.
        nonisolated(unsafe) let mismatches = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts)
        nonisolated(unsafe) let firstMismatch = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: parts)
        defer { mismatches.deallocate(); firstMismatch.deallocate() }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let from = UInt32(UInt64(last + 1) * UInt64(part) / UInt64(parts))
            let to = UInt32(UInt64(last + 1) * UInt64(part + 1) / UInt64(parts))
            var count = 0, first = UInt32.max
            SRGBCurveTable.encoding.withUnsafeBufferPointer { table in
                codes.withTables { threshold, start in
                    for bits in from..<to {
                        let v = Float(bitPattern: bits)
                        if codes.code(v, threshold, start) != Self.curveCode(v, table) {
                            count += 1
                            first = min(first, bits)
                        }
                    }
                }
            }
            mismatches[part] = count
            firstMismatch[part] = first
        }
        let total = mismatches.reduce(0, +)
        let first = firstMismatch.min() ?? .max
        #expect(total == 0, "\(total) values differ; the first is \(Float(bitPattern: first))")
    }

    @Test("the code steps are the 255 values where the rounded sRGB encoding reaches each code (within a step of 1/65535)")
    func stepsSitWhereTheFormulaCrossesHalfCodes() {
        // The formula's crossing of k − ½ codes, from IEC 61966-2-1's decoding of (k − ½)/255.
        for k in 1...255 {
            let crossing = SRGBCurveTableTests.decode((Double(k) - 0.5) / 255)
            let threshold = Double(SRGBEightBitCodes.shared.threshold[k])
            #expect(abs(threshold - crossing) < 1.0 / 65535, "code \(k): \(threshold) vs \(crossing)")
        }
    }

    @Test("straight RGB and RGBA rows from linear light come out as the general 8-bit path wrote them (opaque, translucent, clear, NaN)",
          arguments: [PixelFormat.rgba8, PixelFormat.rgb8])
    func rowsMatchTheCurvePath(_ format: PixelFormat) {
        let width = 4096
        var source = [Float](repeating: 0, count: width * 4)
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        for x in 0..<width {
            let a: Float = x % 4 == 0 ? 1 : x % 4 == 1 ? next() : x % 4 == 2 ? 0 : 1
            for c in 0..<3 { source[4 * x + c] = x % 97 == 0 ? .nan : next() * a * 1.01 }
            source[4 * x + 3] = a
        }
        let converter = OutputRowConverter(format: format, width: width, lightSpace: .linear)
        var row = [UInt8](repeating: 0, count: width * format.bitsPerPixel / 8)
        source.withUnsafeBufferPointer { s in row.withUnsafeMutableBytes { converter.convert(s.baseAddress!, into: $0.baseAddress!) } }
        let bytesPerPixel = format.bitsPerPixel / 8
        SRGBCurveTable.encoding.withUnsafeBufferPointer { table in
            for x in 0..<width {
                let a = source[4 * x + 3].clamped(0, 1)
                for c in 0..<3 {
                    let straight = a > 0 ? (source[4 * x + c] / a).clamped(0, 1) : 0
                    #expect(row[x * bytesPerPixel + c] == Self.curveCode(straight, table), "pixel \(x) channel \(c)")
                }
                if bytesPerPixel == 4 { #expect(row[x * 4 + 3] == UInt8(Int(a * 255 + 0.5))) }
            }
        }
    }
}

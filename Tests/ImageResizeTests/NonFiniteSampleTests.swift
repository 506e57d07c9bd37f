import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize

/// Float samples that are NaN, infinite, negative zero, subnormal or outside 0…1, through a
/// float TIFF → resize (streamed box, decoded rectangle, thumbnail) → PNG: never a trap; NaN → 0,
/// +∞ → the top code, −∞ → 0, every other value clamped to 0…1 and rounded half up.
@Suite("Non-finite float samples")
struct NonFiniteSampleTests {
    /// A special float and the 8-bit code it becomes: round(clamp(v, 0, 1) · 255), NaN read as 0.
    struct Special: Sendable, CustomStringConvertible {
        let name: String
        let value: Float
        let code: UInt8
        var description: String { name }
    }

    static let specials: [Special] = [
        Special(name: "NaN", value: .nan, code: 0),
        Special(name: "+inf", value: .infinity, code: 255),
        Special(name: "-inf", value: -.infinity, code: 0),
        Special(name: "-0", value: -0.0, code: 0),
        Special(name: "subnormal", value: .leastNonzeroMagnitude, code: 0),
        Special(name: "1.5", value: 1.5, code: 255),
        Special(name: "-0.5", value: -0.5, code: 0),
    ]

    /// Every float layout the TIFF encoder stores as it is: gray, RGB, straight and premultiplied RGBA.
    static let layouts: [PixelFormat] = [
        PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true),
        .rgbaFloat,
        PixelFormat(colorModel: .rgb, bitsPerComponent: 32, alphaInfo: .premultipliedLast, isFloat: true),
    ]

    /// A `width × height` float bitmap of `format` with every colour component `colour` and alpha `alpha`.
    static func uniform(_ format: PixelFormat, colour: Float, alpha: Float = 1, width: Int = 16, height: Int = 12) throws -> Bitmap {
        let slots = format.slotCount
        var bytes: [UInt8] = []
        for _ in 0..<(width * height) {
            for s in 0..<slots {
                let v = format.alphaInfo.hasAlpha && s == slots - 1 ? alpha : colour
                withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        return try Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    static func tiff(_ bitmap: Bitmap) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nonfinite-\(UUID().uuidString).tiff").path
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: bitmap), as: .tiff), to: path)
        return path
    }

    /// The RGBA codes of every pixel of the PNG at `path`.
    static func rgba(_ path: String) throws -> [UInt8] {
        try ImageCodecs.decode(contentsOf: path).oriented().bitmap.converted(to: .rgba8).bytes
    }

    static let sizes: [FileResizeRequest.Size] = [
        .box(width: 4, height: 3, contentMode: .scaleToFill),
        .box(width: 5, height: 5, contentMode: .aspectFill()),
        .rect(Rect(x: 0, y: 0, width: 16, height: 12), width: 4, height: 3),
        .maxPixelSize(8),
    ]

    /// The RGBA codes of `bitmap`, stored as a TIFF and resized to PNG at each of ``sizes``.
    static func resizedToPNG(_ bitmap: Bitmap) throws -> [(size: FileResizeRequest.Size, pixels: [UInt8])] {
        let input = try tiff(bitmap)
        defer { try? FileManager.default.removeItem(atPath: input) }
        return try sizes.map { size in
            let output = input + ".png"
            defer { try? FileManager.default.removeItem(atPath: output) }
            try FileResizeRequest(input: input, output: output, container: .png, size: size).write()
            return (size, try rgba(output))
        }
    }

    @Test("a special colour sample in every float layout resizes to PNG as its clamped code, alpha stays 255",
          arguments: specials, layouts)
    func specialColour(special: Special, format: PixelFormat) throws {
        for (size, pixels) in try Self.resizedToPNG(try Self.uniform(format, colour: special.value)) {
            #expect(!pixels.isEmpty)
            for p in stride(from: 0, to: pixels.count, by: 4) {
                #expect(Array(pixels[p..<(p + 4)]) == [special.code, special.code, special.code, 255], "\(size)")
                if Array(pixels[p..<(p + 4)]) != [special.code, special.code, special.code, 255] { break }
            }
        }
    }

    @Test("a special alpha sample resizes to PNG as its clamped alpha code", arguments: specials)
    func specialAlpha(special: Special) throws {
        for (size, pixels) in try Self.resizedToPNG(try Self.uniform(.rgbaFloat, colour: 0.5, alpha: special.value)) {
            #expect(!pixels.isEmpty)
            let alphas = Set(stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] })
            #expect(alphas == [special.code], "\(size)")
        }
    }

    @Test("a float TIFF holding special samples decodes with a warning counting exactly the NaN and infinite ones", arguments: layouts)
    func warningCountsNonFinite(format: PixelFormat) throws {
        // One colour sample per special, in the first pixels; 16 × 12 pixels in all.
        var bitmap = try Self.uniform(format, colour: 0.25)
        for (i, special) in Self.specials.enumerated() {
            withUnsafeBytes(of: special.value.bitPattern.littleEndian) { v in for b in 0..<4 { bitmap.bytes[i * format.slotCount * 4 + b] = v[b] } }
        }
        let input = try Self.tiff(bitmap)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let image = try ImageCodecs.decode(contentsOf: input)
        // NaN, +∞ and −∞ are non-finite; −0, the subnormal, 1.5 and −0.5 are finite.
        #expect(image.metadata.warnings.filter { $0.contains("NaN or infinite") } == [Bitmap.nonFiniteWarning(3)])
        let clean = try Self.tiff(try Self.uniform(format, colour: 0.25))
        defer { try? FileManager.default.removeItem(atPath: clean) }
        #expect(try ImageCodecs.decode(contentsOf: clean).metadata.warnings.isEmpty)
    }

    @Test("one NaN pixel in a 0.5 field reads as 0: the field far from it keeps code 128 (0.5 · 255 + 0.5)")
    func nanPixelInField() throws {
        var bitmap = try Self.uniform(.rgbaFloat, colour: 0.5, width: 64, height: 64)
        // Pixel (0, 0), red: the first four bytes.
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { nan in for i in 0..<4 { bitmap.bytes[i] = nan[i] } }
        let input = try Self.tiff(bitmap)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let output = input + ".png"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try FileResizeRequest(input: input, output: output, container: .png, size: .box(width: 16, height: 16, contentMode: .scaleToFill)).write()
        let pixels = try Self.rgba(output)
        #expect(pixels.count == 16 * 16 * 4)
        // The last pixel is 60 source pixels from the NaN, beyond any kernel's reach.
        #expect(Array(pixels[(pixels.count - 4)...]) == [128, 128, 128, 255])
        // The NaN's own output pixel: red pulled below 128 (a 0 among 0.5s), green and blue untouched.
        #expect(pixels[0] < 128 && pixels[1] == 128 && pixels[2] == 128)
    }

    /// A float RGB bitmap whose columns alternate between two sample values (every component).
    static func stripes(_ a: Float, _ b: Float, width: Int = 48, height: Int = 12) throws -> Bitmap {
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true)
        var bytes: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let v = (x / 3) % 2 == 0 ? a : b
                for _ in 0..<3 { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
            }
        }
        return try Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    /// The RGBA codes of ``stripes(_:_:width:height:)`` stored as a float TIFF and resized to PNG at `size`.
    static func stripesResizedToPNG(_ a: Float, _ b: Float, size: FileResizeRequest.Size) throws -> [UInt8] {
        let input = try tiff(try stripes(a, b))
        defer { try? FileManager.default.removeItem(atPath: input) }
        let output = input + ".png"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try FileResizeRequest(input: input, output: output, container: .png, size: size).write()
        return try rgba(output)
    }

    @Test("float samples above 1 read as 1 before resampling: stripes of 9 and 946 (all shown white) shrink to all white, with no ringing to black",
          arguments: sizes)
    func samplesAboveOneReadAsWhite(size: FileResizeRequest.Size) throws {
        let pixels = try Self.stripesResizedToPNG(9, 946, size: size)
        #expect(!pixels.isEmpty)
        #expect(Set(pixels) == [255], "\(size)")
    }

    @Test("float samples below 0 read as 0 before resampling: stripes of −5 and −0.001 (all shown black) shrink to all black",
          arguments: sizes)
    func samplesBelowZeroReadAsBlack(size: FileResizeRequest.Size) throws {
        let pixels = try Self.stripesResizedToPNG(-5, -0.001, size: size)
        #expect(!pixels.isEmpty)
        // Colour 0, alpha 255.
        let colours = pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let alphas = pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
        #expect(Set(colours) == [0], "\(size)")
        #expect(Set(alphas) == [255], "\(size)")
    }
}

import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// A still WebP thumbnail decoded at the contract's 1/d by libwebp's rescaler (scale-on-load):
/// the whole picture lands on the scaled pixels, the budget is the scaled image's, and on a
/// smooth picture the result stays near the thumbnail of the full decode.
@Suite("WebP thumbnail scale-on-load")
struct WebPThumbnailScaleTests {
    static let libwebp = WebPCodec.availability.available

    /// A 1600 × 1200 lossless WebP, a smooth diagonal ramp with an opaque-to-clear alpha ramp,
    /// stored with EXIF orientation `orientation`; its path.
    static func writeSource(orientation: Orientation = .up) throws -> String {
        let width = 1600, height = 1200
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                bytes[p] = UInt8(x * 255 / (width - 1))
                bytes[p + 1] = UInt8(y * 255 / (height - 1))
                bytes[p + 2] = UInt8((x + y) * 255 / (width + height - 2))
                bytes[p + 3] = UInt8(255 - x * 128 / (width - 1))
            }
        }
        let image = Image(bitmap: try Bitmap(width: width, height: height, format: .rgba8, bytes: bytes), orientation: orientation)
        let file = try ImageCodecs.encode(image, as: .webp, options: EncodeOptions(writeOrientation: true))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("webp-thumbnail-\(UUID().uuidString).webp").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func worstDifference(_ a: Image, _ b: Image) -> Int {
        zip(a.bitmap.bytes, b.bitmap.bytes).map { abs(Int($0) - Int($1)) }.max() ?? .max
    }

    @Test("a 1600×1200 WebP thumbnailed to 200 is decoded at 1/8, the file and bytes routes agree, and both stay within 2 codes of the full decode's thumbnail",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func scaledNearFullDecode() throws {
        let path = try Self.writeSource()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rows = try MaxPixelSizeThumbnail.rows(path: path, maxPixelSize: 200)
        #expect(rows.denominator == 8 && (rows.reader.width, rows.reader.height) == (200, 150))
        #expect(rows.scale == (8, 8))
        let streamed = try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 200)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let inMemory = try MaxPixelSizeThumbnail.thumbnail(of: bytes, maxPixelSize: 200)
        let full = try ImageCodecs.decode(bytes).resized(width: 200, height: 150, contentMode: .scaleToFill)
        #expect((streamed.width, streamed.height) == (200, 150))
        #expect(streamed.bitmap.format == full.bitmap.format && streamed.bitmap.bytes.count == full.bitmap.bytes.count)
        #expect(Self.worstDifference(streamed, inMemory) <= 1)
        #expect(Self.worstDifference(streamed, full) <= 2, "worst \(Self.worstDifference(streamed, full)) codes")
    }

    @Test("under a budget the whole decode exceeds, the thumbnail of a WebP is made at 1/8 while a resize (full decode) is refused",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func budgetIsTheScaledImage() throws {
        let path = try Self.writeSource()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let limits = DecodeLimits(maxBytes: 4 << 20)  // whole decode 7.3 MiB; 1/8 is 117 kB
        let thumbnail = try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 200, limits: limits)
        #expect((thumbnail.width, thumbnail.height) == (200, 150))
        #expect(throws: DecodeError.self) {
            try FileResize.resized(path: path, width: 200, height: 150, contentMode: .aspectFit, limits: limits)
        }
    }

    @Test("under EXIF orientation 6 the scale is chosen in stored axes and the displayed whole lands on the thumbnail",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func orientedSource() throws {
        let path = try Self.writeSource(orientation: .right)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Displayed 1200 × 1600; maxPixelSize 400 gives 300 × 400, stored 400 × 300: 1/4 leaves exactly that.
        let rows = try MaxPixelSizeThumbnail.rows(path: path, maxPixelSize: 400)
        #expect(rows.denominator == 4)
        let thumbnail = try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 400)
        let full = try ImageCodecs.decode(contentsOf: path).resized(width: 300, height: 400, contentMode: .scaleToFill)
        #expect((thumbnail.width, thumbnail.height, thumbnail.orientation) == (300, 400, .up))
        #expect(Self.worstDifference(thumbnail, full) <= 2, "worst \(Self.worstDifference(thumbnail, full)) codes")
    }

    /// Where the samples of `values` (one per pixel, centres at i + ½) first cross `level`,
    /// interpolated linearly between the two pixels around it; in pixels from the edge.
    static func crossing(_ values: [Double], at level: Double) -> Double? {
        for i in 0..<(values.count - 1) where values[i] < level && values[i + 1] >= level {
            return Double(i) + 0.5 + (level - values[i]) / (values[i + 1] - values[i])
        }
        return nil
    }

    @Test("at an odd size (1603 × 1203 at 1/8: 201 × 151 pixels for the whole picture) the band edges land where arithmetic puts them, 1560 · 200/1603 and 1150 · 150/1203",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func oddSizeMapsWholePicture() throws {
        // Grey 100 with a 140 band right of column 1560 and below row 1150. Every symmetric filter
        // puts the half-way value (120) at the edge; dividing the size by 8 instead of mapping it
        // onto 201 × 151 pixels would move the edges 0.4 to 0.6 of an output pixel.
        let width = 1603, height = 1203
        var bytes = [UInt8](repeating: 100, count: width * height * 3)
        for y in 0..<height { for x in 0..<width where x >= 1560 || y >= 1150 {
            let p = (y * width + x) * 3
            bytes[p] = 140; bytes[p + 1] = 140; bytes[p + 2] = 140
        } }
        let file = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: bytes)), as: .webp)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("webp-odd-\(UUID().uuidString).webp").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rows = try MaxPixelSizeThumbnail.rows(path: path, maxPixelSize: 200)
        #expect(rows.denominator == 8 && (rows.reader.width, rows.reader.height) == (201, 151))
        for thumbnail in [try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 200),
                          try MaxPixelSizeThumbnail.thumbnail(of: file, maxPixelSize: 200)] {
            let b = thumbnail.bitmap
            #expect((b.width, b.height) == (200, 150))
            let bytesPerSample = b.format.bitsPerComponent / 8, slots = b.format.slotCount
            func red(_ x: Int, _ y: Int) -> Double {
                let p = y * b.bytesPerRow + x * slots * bytesPerSample
                return bytesPerSample == 2 ? Double(UInt16(b.bytes[p]) << 8 | UInt16(b.bytes[p + 1])) / 257 : Double(b.bytes[p])
            }
            let across = try #require(Self.crossing((0..<200).map { red($0, 70) }, at: 120))
            let down = try #require(Self.crossing((0..<150).map { red(100, $0) }, at: 120))
            #expect(abs(across - 1560.0 * 200 / 1603) <= 0.15, "edge at \(across), arithmetic \(1560.0 * 200 / 1603)")
            #expect(abs(down - 1150.0 * 150 / 1203) <= 0.15, "edge at \(down), arithmetic \(1150.0 * 150 / 1203)")
        }
    }
}

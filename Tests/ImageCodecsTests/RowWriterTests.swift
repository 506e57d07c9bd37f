import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// The row writers against the whole-image encoders, their independent oracle: the same pixels
/// handed in bands of rows give the whole-image file byte for byte (JPEG with fitted Huffman
/// tables; with the standard ones, the same decoded pixels), for formats and options the corpus
/// sources do not reach. Pixels are PNGRoundTripTests' arithmetic pattern.
@Suite("Row writers")
struct RowWriterTests {
    /// `bitmap` cut into bands of `rows` rows (the last one shorter), top first.
    static func bands(_ bitmap: Bitmap, rows: Int) throws -> [Bitmap] {
        var out: [Bitmap] = []
        for top in stride(from: 0, to: bitmap.height, by: rows) {
            let count = min(rows, bitmap.height - top)
            out.append(try Bitmap(width: bitmap.width, height: count, format: bitmap.format, bytesPerRow: bitmap.bytesPerRow,
                                  bytes: Array(bitmap.bytes[(top * bitmap.bytesPerRow)..<((top + count) * bitmap.bytesPerRow)])))
        }
        return out
    }

    static let width = 29, height = 11

    @Test("PNG rows in bands of 4 give the whole-image encoder's file, fast and smallest",
          arguments: PNGRoundTripTests.cases, [PNGCompression.fast, .smallest])
    func pngEqualsWholeImage(_ c: PNGRoundTripTests.Case, compression: PNGCompression) throws {
        let bitmap = PNGRoundTripTests.bitmap(c.format, width: Self.width, height: Self.height)
        let options = EncodeOptions(pngCompression: compression)
        let writer = try PNGRowWriter(width: Self.width, height: Self.height, format: c.format, options: options)
        var bytes: [UInt8] = []
        for band in try Self.bands(bitmap, rows: 4) { bytes += try writer.write(band) }
        bytes += try writer.finish()
        #expect(bytes == (try ImageCodecs.encode(Image(bitmap: bitmap), as: .png, options: options)))
    }

    @Test("TIFF rows in bands of 4 give the whole-image encoder's file, for each compression",
          arguments: [PixelFormat.rgb8, .rgba8, .rgba16, .grayAlpha8, PixelFormat(colorModel: .gray, bitsPerComponent: 1),
                      PixelFormat(colorModel: .gray, bitsPerComponent: 4), PixelFormat(colorModel: .indexed(PNGRoundTripTests.palette(256)), bitsPerComponent: 8)],
          [TIFFCompression.none, .lzw, .deflate])
    func tiffEqualsWholeImage(_ format: PixelFormat, compression: TIFFCompression) throws {
        let bitmap = PNGRoundTripTests.bitmap(format, width: Self.width, height: Self.height)
        let options = EncodeOptions(tiffCompression: compression)
        let writer = try TIFFRowWriter(width: Self.width, height: Self.height, format: format, options: options,
                                       scratchFolder: FileManager.default.temporaryDirectory.path)
        for band in try Self.bands(bitmap, rows: 4) { try writer.write(band) }
        var bytes: [UInt8] = []
        try writer.finish { bytes += $0 }
        #expect(bytes == (try ImageCodecs.encode(Image(bitmap: bitmap), as: .tiff, options: options)))
    }

    @Test("JPEG rows in bands of 4 with fitted tables give the whole-image encoder's file; with the standard tables, its pixels",
          arguments: [PixelFormat.rgb8, .gray8, .rgba8],
          [(ChromaSubsampling.s444, false), (.s440, false), (.s422, false), (.s420, false), (.s444, true), (.s420, true)])
    func jpegEqualsWholeImage(_ format: PixelFormat, coding: (subsampling: ChromaSubsampling, progressive: Bool)) throws {
        let (subsampling, progressive) = coding
        let bitmap = PNGRoundTripTests.bitmap(format, width: Self.width, height: Self.height)
        let options = EncodeOptions(jpegQuality: 90, jpegSubsampling: subsampling, jpegProgressive: progressive)
        let whole = try ImageCodecs.encode(Image(bitmap: bitmap), as: .jpeg, options: options)
        func streamed(_ tables: JPEGRowWriter.HuffmanTables) throws -> [UInt8] {
            let writer = try JPEGRowWriter(width: Self.width, height: Self.height, format: format, options: options, huffmanTables: tables)
            var bytes: [UInt8] = []
            for band in try Self.bands(bitmap, rows: 4) { bytes += try writer.write(band) }
            return bytes + (try writer.finish())
        }
        #expect(try streamed(.optimized) == whole)
        let standard = try streamed(.standard)
        #expect(try ImageCodecs.decode(standard).bitmap == ImageCodecs.decode(whole).bitmap)
    }
}

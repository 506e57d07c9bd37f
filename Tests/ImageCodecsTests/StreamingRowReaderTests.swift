import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// Issue 20, streaming: the row readers that read PNG, BMP and TIFF from the file deliver
/// exactly the rows, format, orientation and metadata warnings of the whole-image decoder.
@Suite("Streaming row readers")
struct StreamingRowReaderTests {
    /// All rows of `reader`, tightly packed, read a few at a time.
    static func rows(_ reader: any RowReader) throws -> [UInt8] {
        let rowBytes = reader.format.minimumBytesPerRow(width: reader.width)
        var out = [UInt8](repeating: 0, count: rowBytes * reader.height)
        var y = 0
        while y < reader.height {
            let n = try out.withUnsafeMutableBytes { buffer in
                try reader.readRows(into: UnsafeMutableRawBufferPointer(rebasing: buffer[(y * rowBytes)...]), stride: rowBytes, count: 7)
            }
            guard n > 0 else { break }
            y += n
        }
        #expect(y == reader.height, "\(y) of \(reader.height) rows")
        return out
    }

    @Test("every external-corpus PNG, BMP and TIFF streams to the bytes of its whole decode, or fails both ways",
          SharedData.needsCorpus, arguments: ["png", "bmp", "tiff"])
    func corpus(format: String) throws {
        let corpus = try #require(SharedData.corpus)
        var streamed = 0
        for entry in Manifest.inputs where entry.format == format {
            let path = corpus.appendingPathComponent(entry.path).path
            guard let bytes = Manifest.bytes(entry.path) else { continue }
            let whole = try? ImageCodecs.decode(bytes)
            let reader: (any RowReader)?
            do { reader = try ImageCodecs.rowReader(path: path) } catch { reader = nil }
            guard let whole else {
                // The streaming reader may open a file whose pixels turn out broken; reading them then fails.
                if let reader, !(reader is BitmapRowReader) {
                    #expect(throws: (any Error).self, "\(entry.path) decodes only when streamed") { _ = try Self.rows(reader) }
                }
                continue
            }
            let opened = try #require(reader, "\(entry.path) decodes whole but not as rows")
            guard !(opened is BitmapRowReader) else { continue }
            streamed += 1
            #expect(opened.format == whole.format, "\(entry.path)")
            #expect((opened.width, opened.height) == (whole.width, whole.height), "\(entry.path)")
            #expect(opened.orientation == whole.orientation, "\(entry.path)")
            #expect(opened.metadata.warnings == whole.metadata.warnings, "\(entry.path)")
            // As the whole decode's rows are read (padding bits after a packed row's last pixel as stored).
            #expect(try Self.rows(opened) == Self.rows(BitmapRowReader(whole, container: opened.container)), "\(entry.path)")
        }
        print("streaming row readers: \(streamed) \(format) files streamed")
        #expect(streamed > 0)
    }
}

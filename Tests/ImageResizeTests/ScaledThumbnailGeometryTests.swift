import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize

/// A JPEG decoded at 1/d whose size is not a multiple of d: libjpeg delivers ⌈size / d⌉ rows
/// and columns, the last of which also hold the padding of the last 8 × 8 block. The thumbnail
/// must map only size / d of them onto its output, or everything shifts towards the far edge.
@Suite("thumbnail of a JPEG decoded at 1/d whose size is not a multiple of d")
struct ScaledThumbnailGeometryTests {
    /// A 1003 × 1003 grey JPEG, 200 above row 704 and 40 from it down. The edge lies on an 8 × 8
    /// block boundary (704 = 88 · 8), so the 1/8 decode, which averages each block's codes, keeps
    /// it a clean step at scaled row 88 rather than a block of mixed codes.
    static func stepJPEG() throws -> [UInt8] {
        let n = 1003
        var bytes = [UInt8](repeating: 0, count: n * n)
        for y in 0..<n { for x in 0..<n { bytes[y * n + x] = y < 704 ? 200 : 40 } }
        return try ImageCodecs.encode(Image(bitmap: try Bitmap(width: n, height: n, format: .gray8, bytes: bytes)), as: .jpeg)
    }

    /// Where a column's linear-light profile crosses halfway between the two sides, in output
    /// pixels from the top (pixel r's centre is r + 0.5), interpolated between the two centres
    /// around the crossing.
    static func edgePosition(_ image: Image, column: Int) throws -> Double {
        let bitmap = try image.bitmap.converted(to: .gray8)
        func linear(_ v: UInt8) -> Double { let c = Double(v) / 255; return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let top = linear(200), bottom = linear(40), half = (top + bottom) / 2
        let values = (0..<bitmap.height).map { linear(bitmap.bytes[$0 * bitmap.bytesPerRow + column]) }
        for r in 0..<(values.count - 1) where values[r] >= half && values[r + 1] < half {
            return Double(r) + 0.5 + (values[r] - half) / (values[r] - values[r + 1])
        }
        throw CocoaError(.featureUnsupported)
    }

    @Test("the edge at source row 704 of 1003 lands at output row 704 · 100/1003 = 70.19 in a 100-pixel thumbnail read at 1/8, from a file and from bytes")
    func edgeStaysPut() throws {
        let jpeg = try Self.stepJPEG()
        // 100 / 1003: ⌈1003/8⌉ = 126 ≥ 100, so the decode is at 1/8, 126 rows of which 125.375 are the image.
        #expect(MaxPixelSizeThumbnail.scaleDenominator(width: 1003, height: 1003, target: (100, 100)) == 8)
        let expected = 704.0 * 100 / 1003
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-step-\(UUID().uuidString).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for thumbnail in [try MaxPixelSizeThumbnail.thumbnail(atPath: path, maxPixelSize: 100),
                          try MaxPixelSizeThumbnail.thumbnail(of: jpeg, maxPixelSize: 100)] {
            #expect(thumbnail.width == 100 && thumbnail.height == 100)
            // Mapping all 126 rows onto 100 would put it at 88 · 100/126 = 69.84.
            let position = try Self.edgePosition(thumbnail, column: 50)
            #expect(abs(position - expected) < 0.1, "edge at \(position), expected \(expected)")
        }
    }
}

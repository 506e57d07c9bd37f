import ImageCore
import ImageCodecs

/// Makes a corpus source band by band, so a source of tens of megapixels (the scale profile)
/// is generated in memory proportional to its width, not its area.
///
/// Each band of canvas rows is rendered by ``Oracle/renderRows(_:canvasWidth:canvasHeight:placement:samples:scene:)``
/// at the identity placement, converted to the encoding's pixel format with the hidden colour
/// written under α = 0 by the same rules as ``SourceEncoder``, and handed on in the order the
/// file stores its rows. With `samplesPerAxis` 16 (what ``SourceEncoder`` renders with) the
/// bytes equal ``SourceEncoder/encode(_:)``'s; large sources use fewer points per pixel
/// (``ScaleProfile/sourceSamplesPerAxis``), which the scale profile's smooth scenes allow.
///
/// Streamable today (``canStream(_:)``): upright, still BMP of 24-bit, 32-bit BI_RGB and
/// 32-bit ARGB storage. PNG, TIFF and JPEG need row writers in ImageCodecs (libpng's
/// `png_write_row`, libtiff's strips, libjpeg's `jpeg_write_scanlines`).
public enum StreamedSource {
    /// Canvas rows rendered and converted at a time.
    public static let defaultBandRows = 64

    /// Whether `c`'s file can be streamed (see the type's notes).
    public static func canStream(_ c: CorpusCase) -> Bool {
        guard c.orientation == .up, c.animation == nil, c.encoding.container == .bmp,
              case .pixels(let format) = c.encoding.storage else { return false }
        return (try? BMPRowWriter(width: 1, height: 1, format: format)) != nil
    }

    /// The file's size in bytes, known before its rows are made; `nil` when it cannot be streamed.
    public static func fileSize(_ c: CorpusCase) -> Int? {
        guard canStream(c), let writer = try? rowWriter(c) else { return nil }
        return writer.fileSize
    }

    /// Hands the file's bytes to `sink` in order: the header, then each band's stored rows.
    /// - Parameters:
    ///   - samplesPerAxis: supersampling points per axis per source pixel (16 reproduces
    ///     ``SourceEncoder/encode(_:)``).
    ///   - bandRows: canvas rows per band (≥ 1); the bytes do not depend on it.
    /// - Throws: ``CorpusGenerationError`` when the case cannot be streamed or a row cannot be
    ///   converted; whatever `sink` throws, wrapped with the case.
    public static func write(_ c: CorpusCase, samplesPerAxis: Int = 16, bandRows: Int = defaultBandRows,
                             to sink: ([UInt8]) throws -> Void) throws(CorpusGenerationError) {
        func fail(_ reason: String) -> CorpusGenerationError { CorpusGenerationError(caseID: c.id, reason: reason) }
        guard canStream(c), case .pixels(let format) = c.encoding.storage else {
            throw fail("cannot be streamed: only upright still BMP of 24-bit, BGRX or BGRA storage is")
        }
        let writer = try rowWriter(c)
        let scene = c.content(frame: 0)
        let placement = OraclePlacement.identity(width: c.width, height: c.height)
        let band = max(1, bandRows)
        do {
            try sink(writer.header)
            var first = 0
            while first < writer.height {
                let stored = first..<min(first + band, writer.height)
                let imageRows = stored.map(writer.imageRow)
                guard let top = imageRows.min(), let bottom = imageRows.max() else { break }
                let float = Oracle.renderRows(top..<(bottom + 1), canvasWidth: c.width, canvasHeight: c.height, placement: placement,
                                              samples: samplesPerAxis, scene: scene).straightFloatBitmap()
                let rows = try SourceEncoder.storingHiddenColour(float, of: c, frame: 0, firstRow: top) { try $0.converted(to: format) }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(writer.storedRowBytes * stored.count)
                for y in imageRows { writer.appendStoredRow(rows, y: y - top, to: &bytes) }
                try sink(bytes)
                first = stored.upperBound
            }
        } catch let error as CorpusGenerationError {
            throw error
        } catch {
            throw fail("cannot stream the rows: \(error)")
        }
    }

    /// Streams the file to `path` through a temporary file renamed over it when complete
    /// (``OutputFileInPieces``), so a reader never sees part of it.
    /// - Throws: ``CorpusGenerationError`` as ``write(_:samplesPerAxis:bandRows:to:)``, or with
    ///   the file-system error.
    public static func write(_ c: CorpusCase, samplesPerAxis: Int = 16, toFile path: String) throws(CorpusGenerationError) {
        let file: OutputFileInPieces
        do { file = try OutputFileInPieces(path) } catch {
            throw CorpusGenerationError(caseID: c.id, reason: "cannot write \(path): \(error)")
        }
        do {
            try write(c, samplesPerAxis: samplesPerAxis) { bytes in try file.append(bytes) }
            try file.commit()
        } catch let error as CorpusGenerationError {
            file.abandon()
            throw error
        } catch {
            file.abandon()
            throw CorpusGenerationError(caseID: c.id, reason: "cannot write \(path): \(error)")
        }
    }

    /// The BMP row writer of a streamable case.
    private static func rowWriter(_ c: CorpusCase) throws(CorpusGenerationError) -> BMPRowWriter {
        guard case .pixels(let format) = c.encoding.storage else {
            throw CorpusGenerationError(caseID: c.id, reason: "cannot be streamed: not a direct pixel format")
        }
        do { return try BMPRowWriter(width: c.width, height: c.height, format: format, topDown: c.encoding.options.bmpTopDown) } catch {
            throw CorpusGenerationError(caseID: c.id, reason: "cannot be streamed: \(error)")
        }
    }
}

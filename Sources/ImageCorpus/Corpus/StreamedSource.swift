import Foundation
import ImageCore
import ImageCodecs

/// Makes a corpus source band by band, so a source of tens of megapixels (the scale profile)
/// is generated in memory proportional to its width, not its area.
///
/// Each band of canvas rows is rendered by ``Oracle/renderRows(_:canvasWidth:canvasHeight:placement:samples:scene:)``
/// at the identity placement, converted to the encoding's pixel format with the hidden colour
/// written under α = 0 by the same rules as ``SourceEncoder``, and handed to the container's
/// row writer in the order the file stores its rows (``BMPRowWriter``, ``PNGRowWriter``,
/// ``TIFFRowWriter``, ``JPEGRowWriter``), whose bytes go on to the sink as they come. With
/// `samplesPerAxis` 16 (what ``SourceEncoder`` renders with) the file equals
/// ``SourceEncoder/encode(_:)``'s byte for byte, except baseline JPEG: it is written with the
/// standard Huffman tables, so that libjpeg compresses each band as it comes instead of holding
/// every coefficient of the image to fit tables to them (``JPEGRowWriter/HuffmanTables``); its
/// coefficients, hence its decoded pixels, are the whole-image encoder's. Large sources use
/// fewer points per pixel (``ScaleProfile/sourceSamplesPerAxis``), which the scale profile's
/// smooth scenes allow.
///
/// Memory follows the width, except for progressive JPEG: libjpeg keeps its coefficients
/// (3 bytes a pixel at 4:2:0) until the end, since each scan is made after the last row.
/// A TIFF passes through a scratch file (libtiff seeks back to its header when it ends).
///
/// Streamable (``canStream(_:)``): upright, still sources of a direct pixel format in BMP (24-bit,
/// BGRX, BGRA), PNG (not Adam7-interlaced), JPEG and TIFF (chunky, not planar). Palettes (chosen
/// from the whole image), animations and oriented sources are not.
public enum StreamedSource {
    /// Canvas rows rendered and converted at a time.
    public static let defaultBandRows = 64

    /// Whether `c`'s file can be streamed (see the type's notes).
    public static func canStream(_ c: CorpusCase) -> Bool {
        (try? check(c)) != nil
    }

    /// Hands the file's bytes to `sink` in order, a band's worth at a time.
    /// - Parameters:
    ///   - samplesPerAxis: supersampling points per axis per source pixel (16 reproduces
    ///     ``SourceEncoder/encode(_:)``).
    ///   - bandRows: canvas rows per band (≥ 1); the bytes do not depend on it.
    ///   - scratchFolder: where a TIFF's scratch file is made (`nil`: the system's temporary folder).
    /// - Throws: ``CorpusGenerationError`` when the case cannot be streamed or a row cannot be
    ///   converted or encoded; whatever `sink` throws, wrapped with the case.
    public static func write(_ c: CorpusCase, samplesPerAxis: Int = 16, bandRows: Int = defaultBandRows,
                             scratchFolder: String? = nil, to sink: ([UInt8]) throws -> Void) throws(CorpusGenerationError) {
        func fail(_ reason: String) -> CorpusGenerationError { CorpusGenerationError(caseID: c.id, reason: reason) }
        let format = try check(c)
        let scene = c.content(frame: 0)
        let placement = OraclePlacement.identity(width: c.width, height: c.height)
        let band = max(1, bandRows)
        do {
            let writer = try RowWriter(c, format: format, scratchFolder: scratchFolder ?? FileManager.default.temporaryDirectory.path)
            try sink(writer.header)
            var first = 0
            while first < c.height {
                let stored = first..<min(first + band, c.height)
                let imageRows = stored.map(writer.imageRow)
                guard let top = imageRows.min(), let bottom = imageRows.max() else { break }
                let float = Oracle.renderRows(top..<(bottom + 1), canvasWidth: c.width, canvasHeight: c.height, placement: placement,
                                              samples: samplesPerAxis, scene: scene).straightFloatBitmap()
                let rows = try SourceEncoder.storingHiddenColour(float, of: c, frame: 0, firstRow: top) { try $0.converted(to: format) }
                let bytes = try writer.write(rows, top: top, storedOrder: imageRows)
                if !bytes.isEmpty { try sink(bytes) }
                first = stored.upperBound
            }
            try writer.finish(sink)
        } catch let error as CorpusGenerationError {
            throw error
        } catch {
            throw fail("cannot stream the rows: \(error)")
        }
    }

    /// Streams the file to `path` through a temporary file renamed over it when complete
    /// (``OutputFileInPieces``), so a reader never sees part of it. A TIFF's scratch file is
    /// made in `path`'s folder.
    /// - Throws: ``CorpusGenerationError`` as ``write(_:samplesPerAxis:bandRows:scratchFolder:to:)``,
    ///   or with the file-system error.
    public static func write(_ c: CorpusCase, samplesPerAxis: Int = 16, toFile path: String) throws(CorpusGenerationError) {
        let file: OutputFileInPieces
        do { file = try OutputFileInPieces(path) } catch {
            throw CorpusGenerationError(caseID: c.id, reason: "cannot write \(path): \(error)")
        }
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try write(c, samplesPerAxis: samplesPerAxis, scratchFolder: folder) { bytes in try file.append(bytes) }
            try file.commit()
        } catch let error as CorpusGenerationError {
            file.abandon()
            throw error
        } catch {
            file.abandon()
            throw CorpusGenerationError(caseID: c.id, reason: "cannot write \(path): \(error)")
        }
    }

    /// The pixel format `c`'s rows are converted to, when its file can be streamed.
    private static func check(_ c: CorpusCase) throws(CorpusGenerationError) -> PixelFormat {
        func fail(_ reason: String) -> CorpusGenerationError { CorpusGenerationError(caseID: c.id, reason: "cannot be streamed: \(reason)") }
        guard c.orientation == .up else { throw fail("oriented (\(c.orientation)); only upright sources stream") }
        guard c.animation == nil, case .pixels(let format) = c.encoding.storage else {
            throw fail("not a still image of a direct pixel format (palettes are chosen from the whole image)")
        }
        let options = c.encoding.options
        do {
            switch c.encoding.container {
            case .bmp: _ = try BMPRowWriter(width: 1, height: 1, format: format, topDown: options.bmpTopDown)
            case .png: try PNGRowWriter.check(format: format, options: options)
            case .jpeg: try JPEGRowWriter.check(format: format, options: options)
            case .tiff: try TIFFRowWriter.check(format: format, options: options)
            default: throw fail("no row writer for \(c.encoding.container.rawValue.uppercased())")
            }
        } catch let error as CorpusGenerationError {
            throw error
        } catch {
            throw fail("\(error)")
        }
        return format
    }

    /// A container's row writer, behind one interface: the bytes before the first row, the
    /// order rows are stored in, each band's bytes and the last bytes.
    private enum RowWriter {
        case bmp(BMPRowWriter)
        case png(PNGRowWriter)
        case jpeg(JPEGRowWriter)
        case tiff(TIFFRowWriter)

        /// The writer of streamable case `c`, whose rows come in `format`. Baseline JPEG uses the
        /// standard Huffman tables (memory follows the width); progressive JPEG holds every
        /// coefficient whatever the tables, so it asks for the whole-image encoder's optimised ones.
        init(_ c: CorpusCase, format: PixelFormat, scratchFolder: String) throws {
            let options = c.encoding.options
            switch c.encoding.container {
            case .bmp: self = .bmp(try BMPRowWriter(width: c.width, height: c.height, format: format, topDown: options.bmpTopDown))
            case .png: self = .png(try PNGRowWriter(width: c.width, height: c.height, format: format, options: options))
            case .jpeg:
                self = .jpeg(try JPEGRowWriter(width: c.width, height: c.height, format: format, options: options,
                                               huffmanTables: options.jpegProgressive ? .optimized : .standard))
            case .tiff:
                self = .tiff(try TIFFRowWriter(width: c.width, height: c.height, format: format, options: options, scratchFolder: scratchFolder))
            default:
                throw CorpusGenerationError(caseID: c.id, reason: "cannot be streamed: no row writer for \(c.encoding.container.rawValue)")
            }
        }

        /// The bytes before the first row (BMP's headers; the others emit theirs with the rows).
        var header: [UInt8] {
            if case .bmp(let writer) = self { return writer.header }
            return []
        }

        /// The image row (0 = top) the file stores `i`-th (bottom-up BMP: the last first).
        func imageRow(stored i: Int) -> Int {
            if case .bmp(let writer) = self { return writer.imageRow(stored: i) }
            return i
        }

        /// The file bytes of `rows` (image rows `top`… in the writer's format), which hold the
        /// image rows `storedOrder` lists, in that order; empty while the writer gathers.
        func write(_ rows: Bitmap, top: Int, storedOrder: [Int]) throws -> [UInt8] {
            switch self {
            case .bmp(let writer):
                var bytes: [UInt8] = []
                bytes.reserveCapacity(writer.storedRowBytes * storedOrder.count)
                for y in storedOrder { writer.appendStoredRow(rows, y: y - top, to: &bytes) }
                return bytes
            case .png(let writer): return try writer.write(rows)
            case .jpeg(let writer): return try writer.write(rows)
            case .tiff(let writer):
                try writer.write(rows)
                return []
            }
        }

        /// Ends the file, handing its last bytes (a TIFF: all of it) to `sink`.
        func finish(_ sink: ([UInt8]) throws -> Void) throws {
            switch self {
            case .bmp: return
            case .png(let writer): try sink(writer.finish())
            case .jpeg(let writer): try sink(writer.finish())
            case .tiff(let writer): try writer.finish(sink)
            }
        }
    }
}

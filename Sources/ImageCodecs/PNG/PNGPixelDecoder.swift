import CImageShim
import ImageCore

/// Turns one complete PNG datastream into a ``Bitmap``, pixels as stored.
///
/// libpng reads and validates every chunk up to the first IDAT. A plain image (not interlaced,
/// no gray/RGB colour key) then takes ``PNGInflatedRows``: IDAT inflated by libdeflate and
/// unfiltered in Swift, when that gives exactly libpng's bytes; otherwise, and for everything
/// unusual, libpng decodes the rows and decides. libpng applies no transformation except two
/// the pixel model needs: Adam7 passes are merged into full rows, and a gray/RGB tRNS colour
/// key becomes an alpha channel (`png_set_tRNS_to_alpha`, which also widens 1/2/4-bit gray to
/// 8 bits). 16-bit samples stay big-endian, 1/2/4-bit samples stay packed (unused low bits of
/// a row's last byte are 0), palette images stay indexed.
enum PNGPixelDecoder {
    /// Which decoder produced the rows.
    enum Route: Sendable, Equatable {
        /// libdeflate and the Swift unfilter (``PNGInflatedRows``).
        case inflatedRows
        /// libpng's row reader.
        case libpng
    }

    /// Decodes the pixels of `bytes`, whose IHDR (already parsed and validated) is `header`.
    ///
    /// - Parameters:
    ///   - chunks: the chunk list of `bytes` when the caller has walked it; `nil` walks it here.
    ///   - limits: checked against the size and charged for the pixel buffer before it exists
    ///     (the fast path also for the `height` filter bytes it inflates, or it steps aside).
    ///   - context: prefixed to libpng's messages (e.g. "APNG frame 3"); `nil` for the file itself.
    /// - Throws: `.limitExceeded` before any large allocation; `.truncated` when libpng runs
    ///   out of input; `.malformed` with libpng's message and the byte offset it had reached.
    static func decode(_ bytes: [UInt8], header: PNGImageHeader, chunks: PNGChunkList? = nil,
                       limits: inout DecodeLimits, context: String? = nil) throws(DecodeError) -> Bitmap {
        try decodeRouted(bytes, header: header, chunks: chunks, limits: &limits, context: context).bitmap
    }

    /// ``decode(_:header:chunks:limits:context:)``, also saying which decoder produced the rows.
    /// - Parameter allowInflatedRows: `false` forces the libpng path (tests compare the two).
    static func decodeRouted(_ bytes: [UInt8], header: PNGImageHeader, chunks: PNGChunkList? = nil,
                             limits: inout DecodeLimits, context: String? = nil,
                             allowInflatedRows: Bool = true) throws(DecodeError) -> (bitmap: Bitmap, route: Route) {
        try limits.check(width: header.width, height: header.height)
        var budget = limits
        let result: Result<(Bitmap, Route), DecodeError> = bytes.withUnsafeBufferPointer { input in
            var info = imglab_png_info()
            var status = imglab_png_status()
            guard let reader = imglab_png_reader_open(input.baseAddress, input.count, &info, &status) else {
                return .failure(error(status, context: context))
            }
            defer { imglab_png_reader_close(reader) }

            let colorKey = info.has_trns != 0 && (header.colorType == .gray || header.colorType == .rgb)
            let format: PixelFormat
            do throws(DecodeError) {
                format = try header.deliveredFormat(colorKey: colorKey, palette: palette(info))
            } catch {
                return .failure(error)
            }
            let rowBytes = header.rowBytes(in: format)
            let (total, overflow) = rowBytes.multipliedReportingOverflow(by: header.height)
            guard !overflow else { return .failure(.limitExceeded(.bytes, requested: .max, allowed: budget.maxBytes)) }
            do throws(DecodeError) { try budget.reserve(bytes: total) } catch { return .failure(error) }

            var route = Route.libpng
            var pixels: [UInt8] = []
            var withFilterBytes = budget
            if allowInflatedRows, !header.interlaced, !colorKey,
               (try? withFilterBytes.reserve(bytes: header.height)) != nil,
               let list = chunks ?? (try? PNGChunkList(parsing: bytes)),
               let rows = PNGInflatedRows.decode(list, header: header, colorKey: colorKey, rowBytes: rowBytes) {
                pixels = rows
                budget = withFilterBytes
                route = .inflatedRows
            } else {
                pixels = [UInt8](repeating: 0, count: total)
                let code = pixels.withUnsafeMutableBufferPointer { out in
                    imglab_png_reader_read(reader, colorKey ? 1 : 0, out.baseAddress, rowBytes, out.count, &status)
                }
                guard code == IMGLAB_PNG_OK else { return .failure(error(status, context: context)) }
            }
            do throws(PixelFormatError) {
                return .success((try Bitmap(width: header.width, height: header.height, format: format,
                                            bytesPerRow: rowBytes, bytes: pixels), route))
            } catch {
                return .failure(.malformed(.png, reason: "decoded pixels do not fit the pixel model: \(error)", offset: nil))
            }
        }
        let (bitmap, route) = try result.get()
        limits = budget
        return (bitmap, route)
    }

    /// The palette libpng accepted, with tRNS alphas; `nil` when there is no PLTE.
    static func palette(_ info: imglab_png_info) -> Palette? {
        let count = Int(info.palette_count)
        guard count > 0 else { return nil }
        let raw = withUnsafeBytes(of: info.palette) { Array($0.prefix(count * 4)) }
        return Palette((0..<count).map { i in
            Palette.Entry(red: raw[i * 4], green: raw[i * 4 + 1], blue: raw[i * 4 + 2], alpha: raw[i * 4 + 3])
        })
    }

    /// The DecodeError for a libpng status.
    static func error(_ status: imglab_png_status, context: String?) -> DecodeError {
        let message = withUnsafeBytes(of: status.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let reason = (context.map { "\($0): " } ?? "") + "libpng: " + message
        // Offsets inside a synthetic per-frame file would mislead; only the file's own are kept.
        let offset = context == nil ? Int(status.offset) : nil
        if status.code == IMGLAB_PNG_TRUNCATED {
            return .truncated(.png, reason: reason, offset: offset)
        }
        return .malformed(.png, reason: reason, offset: offset)
    }
}

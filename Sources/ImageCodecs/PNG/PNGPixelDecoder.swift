import CImageShim
import ImageCore

/// Turns one complete PNG datastream into a ``Bitmap`` through libpng, pixels as stored.
///
/// libpng applies no transformation except two the pixel model needs: Adam7 passes are
/// merged into full rows, and a gray/RGB tRNS colour key becomes an alpha channel
/// (`png_set_tRNS_to_alpha`, which also widens 1/2/4-bit gray to 8 bits). 16-bit samples
/// stay big-endian, 1/2/4-bit samples stay packed, palette images stay indexed.
enum PNGPixelDecoder {
    /// Decodes the pixels of `bytes`, whose IHDR (already parsed and validated) is `header`.
    ///
    /// - Parameters:
    ///   - limits: checked against the size and charged for the pixel buffer before it exists.
    ///   - context: prefixed to libpng's messages (e.g. "APNG frame 3"); `nil` for the file itself.
    /// - Throws: `.limitExceeded` before any large allocation; `.truncated` when libpng runs
    ///   out of input; `.malformed` with libpng's message and the byte offset it had reached.
    static func decode(_ bytes: [UInt8], header: PNGImageHeader, limits: inout DecodeLimits,
                       context: String? = nil) throws(DecodeError) -> Bitmap {
        try limits.check(width: header.width, height: header.height)
        var budget = limits
        let result: Result<Bitmap, DecodeError> = bytes.withUnsafeBufferPointer { input in
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

            var pixels = [UInt8](repeating: 0, count: total)
            let code = pixels.withUnsafeMutableBufferPointer { out in
                imglab_png_reader_read(reader, colorKey ? 1 : 0, out.baseAddress, rowBytes, out.count, &status)
            }
            guard code == IMGLAB_PNG_OK else { return .failure(error(status, context: context)) }
            do throws(PixelFormatError) {
                return .success(try Bitmap(width: header.width, height: header.height, format: format,
                                           bytesPerRow: rowBytes, bytes: pixels))
            } catch {
                return .failure(.malformed(.png, reason: "decoded pixels do not fit the pixel model: \(error)", offset: nil))
            }
        }
        let bitmap = try result.get()
        limits = budget
        return bitmap
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

import CImageShim
import ImageCore

/// Decoding through libjpeg-turbo (jpeg62 API) in four steps, each a C call that catches
/// libjpeg's errors: read the header, check limits, start (colour space, DCT scaling), read rows.
///
/// Invariants:
/// - Unsupported processes (lossless, hierarchical, JPEG-LS, 12-bit, DNL) are refused from
///   the SOF marker before libjpeg runs, with the marker's offset.
/// - Limits are checked against the declared and the output size, and libjpeg's working
///   memory is estimated and reserved, before `jpeg_start_decompress` allocates anything large;
///   libjpeg is also capped (`max_memory_to_use`) at what is left of the budget.
/// - At most ``maxScans`` scans are read, so a corrupt progressive file cannot spin.
/// - Warnings (data libjpeg repaired, such as a premature end) do not fail the decode; their
///   count and first texts are recorded in `metadata.properties["jpeg.warnings"]`.
enum JPEGDecoder {
    /// Scans read before a decode is stopped as malformed. Real progressive files use about
    /// 10; libjpeg-turbo's own fuzzers stop at 500.
    static let maxScans: Int32 = 500

    /// A decoder's header, with the marker walk and the metadata drawn from it.
    struct Parsed {
        var header: JPEGHeader
        var markers: JPEGMarkers
        var metadata: JPEGMetadata
    }

    /// Reads the header only.
    static func readHeader(_ bytes: [UInt8]) throws(DecodeError) -> Parsed {
        try withLibjpeg(bytes) { (decoder) throws(DecodeError) -> Parsed in
            try parse(bytes, decoder)
        }
    }

    /// Decodes the whole image at 1/`options.jpegScaleDenominator`.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        let d = options.jpegScaleDenominator
        guard JPEGHeader.scaleDenominators.contains(d) else {
            throw .unsupported(.jpeg, feature: "scale 1/\(d) (libjpeg-turbo scales by 1/1, 1/2, 1/4 or 1/8)")
        }
        var limits = options.limits
        return try withLibjpeg(bytes) { (decoder) throws(DecodeError) -> Image in
            let parsed = try parse(bytes, decoder)
            let header = parsed.header
            guard let format = header.deliveredFormat else {
                throw .unsupported(.jpeg, feature: "\(header.componentCount)-component JPEG without a known colour space")
            }
            let plan = try Plan(header, format: format, scaleDenominator: d, limits: &limits)
            try JPEGEntropyBound.check(header, fileBytes: bytes.count)
            let (width, height, stride, memoryCap) = (plan.width, plan.height, plan.stride, plan.memoryCap)

            var outWidth: UInt32 = 0, outHeight: UInt32 = 0, outComponents: Int32 = 0
            let space = Int32(format.colorModel == .gray ? IMGLAB_JCS_GRAYSCALE
                              : format.colorModel == .rgb ? IMGLAB_JCS_RGB : IMGLAB_JCS_CMYK)
            let started = imglab_jpeg_start(decoder, space, Int32(d), memoryCap, &outWidth, &outHeight, &outComponents)
            guard started == IMGLAB_JPEG_OK else { throw failure(started, decoder, step: "jpeg_start_decompress", memoryAllowed: memoryCap) }
            guard Int(outWidth) == width, Int(outHeight) == height, Int(outComponents) == format.slotCount else {
                throw .malformed(.jpeg, reason: "libjpeg chose \(outWidth)×\(outHeight)×\(outComponents) output, expected \(width)×\(height)×\(format.slotCount)", offset: nil)
            }
            var pixels = [UInt8](repeating: 0, count: stride * height)
            let read = pixels.withUnsafeMutableBufferPointer { buffer in
                imglab_jpeg_read_rows(decoder, buffer.baseAddress, stride, buffer.count)
            }
            guard read == IMGLAB_JPEG_OK else { throw failure(read, decoder, step: "jpeg_read_scanlines", memoryAllowed: memoryCap) }

            var metadata = imageMetadata(parsed)
            if d != 1 { metadata.properties["jpeg.scale"] = "1/\(d)" }
            let warnings = imglab_jpeg_warning_count(decoder)
            if warnings > 0 {
                let texts = String(cString: imglab_jpeg_warnings(decoder)).split(separator: "\n").joined(separator: "; ")
                metadata.properties["jpeg.warnings"] = "\(warnings) repaired by libjpeg: \(texts)"
            }
            let bitmap = Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: stride, bytes: pixels)
            return Image(bitmap: bitmap, orientation: parsed.metadata.orientation, metadata: metadata)
        }
    }

    /// The output of a decode, checked against the limits before anything large is allocated.
    struct Plan {
        /// Output size, ⌈declared / d⌉.
        var width: Int, height: Int
        /// Bytes per output row.
        var stride: Int
        /// What is left of the byte budget for libjpeg's own allocations (0: no cap).
        var memoryCap: Int

        /// Checks the declared size against `maxDimension`, the output size against the pixel
        /// limits, and reserves the output bitmap plus libjpeg's estimated working memory.
        init(_ header: JPEGHeader, format: PixelFormat, scaleDenominator d: Int, limits: inout DecodeLimits) throws(DecodeError) {
            // The declared size sets libjpeg's working memory; the output size the bitmap.
            guard header.width <= limits.maxDimension, header.height <= limits.maxDimension else {
                throw .limitExceeded(.dimension, requested: max(header.width, header.height), allowed: limits.maxDimension)
            }
            (width, height) = header.outputSize(scaleDenominator: d)
            try limits.check(width: width, height: height)
            stride = format.minimumBytesPerRow(width: width)
            try limits.reserve(bytes: stride * height)
            memoryCap = limits.maxBytes == .max ? 0 : limits.maxBytes - limits.reservedBytes
            try limits.reserve(bytes: workingBytes(header))
        }
    }

    /// The metadata a header or a decode reports.
    static func imageMetadata(_ parsed: Parsed) -> ImageMetadata {
        var properties = parsed.header.properties
        if let frame = parsed.markers.frame {
            properties["jpeg.sof"] = "SOF marker 0xFF\(String(frame.marker, radix: 16, uppercase: true)) at byte \(frame.offset)"
        }
        properties.merge(parsed.metadata.notes) { _, note in note }
        return ImageMetadata(iccProfile: parsed.metadata.iccProfile, exif: parsed.metadata.exif,
                             orientationSource: parsed.metadata.declaresOrientation ? .jpegExif : nil,
                             storedBitDepth: parsed.header.precision, properties: properties,
                             warnings: parsed.metadata.warnings)
    }

    /// Bytes libjpeg allocates besides the output rows: for a multi-scan file the whole
    /// coefficient array (64 coefficients × 2 bytes per block, every block of every component,
    /// padded to whole MCUs), plus a few MCU rows of sample buffers. An estimate for the
    /// budget; libjpeg itself is capped at what is left of it.
    static func workingBytes(_ header: JPEGHeader) -> Int {
        let hMax = header.sampling.map(\.horizontal).max() ?? 1, vMax = header.sampling.map(\.vertical).max() ?? 1
        let mcuColumns = (header.width + 8 * hMax - 1) / max(8 * hMax, 1)
        let mcuRows = (header.height + 8 * vMax - 1) / max(8 * vMax, 1)
        let blocksPerMCU = header.sampling.reduce(0) { $0 + $1.horizontal * $1.vertical }
        let coefficients = header.hasMultipleScans ? mcuColumns * mcuRows * blocksPerMCU * 128 : 0
        let rowBuffers = mcuColumns * blocksPerMCU * 64 * 4
        return coefficients + rowBuffers
    }

    /// libjpeg-turbo's `JPEG_MAX_DIMENSION`: larger widths or heights are refused by
    /// `jpeg_read_header`, although T.81 allows up to 65535.
    static let maxDimension = 65_500

    /// Refuses, from the SOF marker, what libjpeg-turbo's 8-bit build cannot decode.
    static func checkSupported(_ frame: JPEGMarkers.Frame?) throws(DecodeError) {
        guard let frame else { return }  // no SOF before SOS: libjpeg reports it
        let marker = "SOF marker 0xFF\(String(frame.marker, radix: 16, uppercase: true)) at byte \(frame.offset)"
        switch JPEGHeader.Process(frameMarker: frame.marker) {
        case .jpegLS: throw .unsupported(.jpeg, feature: "JPEG-LS (ITU T.87), \(marker)")
        case .lossless: throw .unsupported(.jpeg, feature: "lossless JPEG, \(frame.precision)-bit, \(marker)")
        case .hierarchical: throw .unsupported(.jpeg, feature: "hierarchical JPEG, \(marker)")
        case .baseline, .extendedSequential, .progressive: break
        }
        switch frame.precision {
        case 8: break
        case 12: throw .unsupported(.jpeg, feature: "12-bit samples (\(marker))")
        default:
            throw .malformed(.jpeg, reason: "\(marker) declares \(frame.precision)-bit samples; DCT JPEG has 8 or 12", offset: frame.offset)
        }
        if frame.height == 0 {
            throw .unsupported(.jpeg, feature: "DNL (height 0 in the \(marker), defined after the first scan)")
        }
        if frame.width == 0 {
            throw .malformed(.jpeg, reason: "\(marker) declares width 0", offset: frame.offset)
        }
        if max(frame.width, frame.height) > maxDimension {
            throw .limitExceeded(.dimension, requested: max(frame.width, frame.height), allowed: maxDimension)
        }
    }

    /// Walks the markers, runs `jpeg_read_header` and combines the two.
    static func parse(_ bytes: [UInt8], _ decoder: OpaquePointer) throws(DecodeError) -> Parsed {
        let markers = try JPEGMarkers(bytes)
        try checkSupported(markers.frame)
        var info = imglab_jpeg_info()
        let status = imglab_jpeg_read_header(decoder, &info)
        guard status == IMGLAB_JPEG_OK else { throw failure(status, decoder, step: "jpeg_read_header", memoryAllowed: 0) }
        let components = Int(info.num_components)
        let h = [info.h_samp.0, info.h_samp.1, info.h_samp.2, info.h_samp.3]
        let v = [info.v_samp.0, info.v_samp.1, info.v_samp.2, info.v_samp.3]
        let sampling = (0..<min(components, 4)).map { JPEGHeader.Sampling(horizontal: Int(h[$0]), vertical: Int(v[$0])) }
        let process = markers.frame.map { JPEGHeader.Process(frameMarker: $0.marker) }
            ?? (info.progressive != 0 ? .progressive : .baseline)
        var header = JPEGHeader(
            width: Int(info.width), height: Int(info.height), componentCount: components,
            precision: Int(info.data_precision), process: process, isArithmeticCoded: info.arithmetic != 0,
            colorSpace: colorSpace(info.jpeg_color_space), sampling: sampling,
            adobeTransform: info.saw_adobe != 0 ? Int(info.adobe_transform) : nil,
            hasJFIF: info.saw_jfif != 0, hasMultipleScans: info.has_multiple_scans != 0)
        if info.has_luma_quant != 0 {
            header.quality = withUnsafeBytes(of: info.luma_quant) { JPEGQuality(lumaTable: Array($0.bindMemory(to: UInt16.self))) }
        }
        return Parsed(header: header, markers: markers, metadata: JPEGMetadata(markers: markers, bytes: bytes))
    }

    private static func colorSpace(_ jcs: Int32) -> JPEGHeader.ColorSpace {
        switch Int(jcs) {
        case IMGLAB_JCS_GRAYSCALE: return .gray
        case IMGLAB_JCS_RGB: return .rgb
        case IMGLAB_JCS_YCBCR: return .yCbCr
        case IMGLAB_JCS_CMYK: return .cmyk
        case IMGLAB_JCS_YCCK: return .ycck
        default: return .unknown
        }
    }

    /// Runs `body` with a libjpeg decoder reading `bytes`, and frees the decoder afterwards.
    private static func withLibjpeg<R>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(DecodeError) -> R) throws(DecodeError) -> R {
        guard bytes.count >= 2 else {
            throw .truncated(.jpeg, reason: "\(bytes.count) bytes cannot hold an SOI marker", offset: 0)
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(DecodeError) -> R in
            guard let base = buffer.baseAddress, let decoder = imglab_jpeg_decoder_create(base, buffer.count, maxScans) else {
                // malloc refused the decoder's few kilobytes: no memory is available at all.
                throw .limitExceeded(.bytes, requested: Int.max, allowed: 0)
            }
            defer { imglab_jpeg_decoder_destroy(decoder) }
            return try body(decoder)
        }
    }

    /// The typed error for a failed C call; `memoryAllowed` is libjpeg's memory cap (0: none).
    static func failure(_ status: imglab_jpeg_status, _ decoder: OpaquePointer, step: String,
                                memoryAllowed: Int) -> DecodeError {
        let message = String(cString: imglab_jpeg_error_message(decoder))
        let offset = Int(imglab_jpeg_error_offset(decoder))
        let reason = "libjpeg \(step): \(message.isEmpty ? "failed" : message)"
        if status == IMGLAB_JPEG_SCAN_LIMIT { return .malformed(.jpeg, reason: reason, offset: offset) }
        switch imglab_jpeg_error_kind(decoder) {
        case IMGLAB_JPEG_FAILURE_TRUNCATED: return .truncated(.jpeg, reason: reason, offset: offset)
        case IMGLAB_JPEG_FAILURE_UNSUPPORTED: return .unsupported(.jpeg, feature: reason)
        // libjpeg does not say how much it wanted: Int.max stands for "more than allowed".
        case IMGLAB_JPEG_FAILURE_MEMORY:
            return .limitExceeded(.bytes, requested: Int.max, allowed: memoryAllowed > 0 ? memoryAllowed : Int.max)
        default: return .malformed(.jpeg, reason: reason, offset: offset)
        }
    }
}

import CImageShim
import ImageCore
#if canImport(Glibc)
import Glibc
#endif

/// A JPEG decoded row by row straight from its file: libjpeg reads the file a buffer at a time
/// (stdio source) and delivers scanlines at 1/1, 1/2, 1/4 or 1/8 scale, so memory holds a few
/// MCU rows, not the file or the image. Only the markers before the first scan are read into
/// memory, for the EXIF orientation and ICC profile.
final class JPEGRowReader: RowReader {
    let container = ContainerFormat.jpeg
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation: Orientation
    let metadata: ImageMetadata
    private let file: UnsafeMutablePointer<FILE>
    private let decoder: OpaquePointer
    private let memoryCap: Int

    init(path: String, options: DecodeOptions) throws(DecodeError) {
        let d = options.jpegScaleDenominator
        guard JPEGHeader.scaleDenominators.contains(d) else {
            throw .unsupported(.jpeg, feature: "scale 1/\(d) (libjpeg-turbo scales by 1/1, 1/2, 1/4 or 1/8)")
        }
        guard let file = FileSystemName.withRepresentation(path, { fopen($0, "rb") }) else { throw .io(path: path, reason: "cannot open (errno \(errno))") }
        // libjpeg's stdio source asks for 4 KiB at a time; a 256 KiB stdio buffer turns the
        // ~1,700 read calls of a 7 MB photo into ~30.
        setvbuf(file, nil, _IOFBF, 256 << 10)
        guard let decoder = imglab_jpeg_decoder_create_file(file, JPEGDecoder.maxScans) else {
            fclose(file)
            throw .limitExceeded(.bytes, requested: Int.max, allowed: 0)
        }
        do throws(DecodeError) {
            let prefix = try Self.markerPrefix(file, path: path)
            rewind(file)
            let parsed = try JPEGDecoder.parse(prefix, decoder)
            guard let format = parsed.header.deliveredFormat else {
                throw .unsupported(.jpeg, feature: "\(parsed.header.componentCount)-component JPEG without a known colour space")
            }
            var limits = options.limits
            let plan = try JPEGDecoder.Plan(parsed.header, format: format, scaleDenominator: d, limits: &limits)
            var size = stat()
            if fstat(fileno(file), &size) == 0 { try JPEGEntropyBound.check(parsed.header, fileBytes: Int(size.st_size)) }
            var outWidth: UInt32 = 0, outHeight: UInt32 = 0, outComponents: Int32 = 0
            let space = Int32(format.colorModel == .gray ? IMGLAB_JCS_GRAYSCALE
                              : format.colorModel == .rgb ? IMGLAB_JCS_RGB : IMGLAB_JCS_CMYK)
            let started = imglab_jpeg_start(decoder, space, Int32(d), plan.memoryCap, &outWidth, &outHeight, &outComponents)
            guard started == IMGLAB_JPEG_OK else {
                throw JPEGDecoder.failure(started, decoder, step: "jpeg_start_decompress", memoryAllowed: plan.memoryCap)
            }
            guard Int(outWidth) == plan.width, Int(outHeight) == plan.height, Int(outComponents) == format.slotCount else {
                throw .malformed(.jpeg, reason: "libjpeg chose \(outWidth)×\(outHeight)×\(outComponents) output, expected \(plan.width)×\(plan.height)×\(format.slotCount)", offset: nil)
            }
            var metadata = JPEGDecoder.imageMetadata(parsed)
            if d != 1 { metadata.properties["jpeg.scale"] = "1/\(d)" }
            self.width = plan.width
            self.height = plan.height
            self.format = format
            self.orientation = parsed.metadata.orientation
            self.metadata = metadata
            self.memoryCap = plan.memoryCap
            self.file = file
            self.decoder = decoder
        } catch {
            imglab_jpeg_decoder_destroy(decoder)
            fclose(file)
            throw error
        }
    }

    deinit {
        imglab_jpeg_decoder_destroy(decoder)
        fclose(file)
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        guard let base = buffer.baseAddress, count > 0, buffer.count >= (count - 1) * stride + format.minimumBytesPerRow(width: width) else { return 0 }
        var read: UInt32 = 0
        let status = imglab_jpeg_read_some_rows(decoder, base.assumingMemoryBound(to: UInt8.self), stride, UInt32(count), &read)
        guard status == IMGLAB_JPEG_OK else {
            throw JPEGDecoder.failure(status, decoder, step: "jpeg_read_scanlines", memoryAllowed: memoryCap)
        }
        return Int(read)
    }

    /// The file's bytes up to its first scan (where the marker walk stops), read in growing
    /// chunks: EXIF and ICC sit before the scan, so a few hundred KiB nearly always suffice.
    private static func markerPrefix(_ file: UnsafeMutablePointer<FILE>, path: String) throws(DecodeError) -> [UInt8] {
        var prefix: [UInt8] = []
        var chunk = 256 << 10
        while true {
            var bytes = [UInt8](repeating: 0, count: chunk)
            let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunk, file) }
            prefix += bytes.prefix(n)
            let atEnd = n < chunk
            // The header (a 557 KB ICC profile in 18 APP2 segments, say) must be whole, up to the first scan.
            if try JPEGMarkers(prefix).reachedScan || atEnd { return prefix }
            chunk *= 2
        }
    }
}

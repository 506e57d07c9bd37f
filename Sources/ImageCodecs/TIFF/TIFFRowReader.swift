#if canImport(Glibc)
import Glibc
#endif
import CImageShim
import ImageCore

/// The first page of a TIFF read a band at a time from its file: libtiff reads the file with
/// `pread` (no mapping), and each band — one strip (`TIFFReadEncodedStrip`, every plane of it
/// when planar) or one row of tiles (`TIFFReadEncodedTile`) — is decoded and turned into
/// delivered rows by the same ``TIFFPixelPlan`` as the whole-image decoder. Memory is one band
/// of stored samples and one band of delivered rows, whatever the file's size (a file stored as
/// one strip is one band).
///
/// Pages that go through libtiff's RGBA interface (YCbCr, CIE L\*a\*b\*, LogLuv, old-style JPEG)
/// are decoded whole instead: ``init(path:options:)`` returns `nil` for them. libtiff warnings
/// raised while reading strips are not in ``metadata`` (it is made before the first band).
final class TIFFRowReader: RowReader {
    let container = ContainerFormat.tiff
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation: Orientation
    let metadata: ImageMetadata
    private let handle: OpaquePointer
    private let directory: TIFFDirectory
    private let plan: TIFFPixelPlan
    private let bandRows: Int
    /// The budget every band (stored samples, tile buffer, delivered rows) must fit.
    private let limits: DecodeLimits
    /// Delivered rows of the current band, and the image row of its first one.
    private var band: Bitmap?
    private var bandStart = 0
    private var next = 0

    /// Opens the file at `path`, or returns `nil` when the page must be decoded whole.
    init?(path: String, options: DecodeOptions) throws(DecodeError) {
        var message = [CChar](repeating: 0, count: Int(IMGLAB_MESSAGE_SIZE))
        var opened: OpaquePointer?
        let cap = options.limits.maxBytes == .max ? 0 : max(options.limits.maxBytes - options.limits.reservedBytes, 1)
        guard FileSystemName.withRepresentation(path, { imglab_tiff_open_file($0, Int64(cap), &opened, &message) }) != 0, let opened else {
            throw TIFFReader.error(TIFFReader.text(message), doing: "opening the file")
        }
        var keep = false
        defer { if !keep { imglab_tiff_close(opened) } }
        let reader = TIFFReader(handle: opened)
        let (d, dropped) = try TIFFDecoder.withoutEmptyPlanes(reader.directory(), reader)
        try options.limits.check(width: d.width, height: d.height)
        let plan = try TIFFPixelPlan(d)
        guard plan.route == .samples else { return nil }
        let rows = d.isTiled ? d.tileLength : min(d.rowsPerStrip, d.height)
        guard rows > 0 else { return nil }  // the whole-image decoder names the broken field
        handle = opened
        directory = d
        self.plan = plan
        bandRows = rows
        limits = options.limits
        width = d.width
        height = d.height
        format = plan.format
        orientation = d.orientation ?? .up
        var metadata = TIFFDecoder.metadata(d, plan, fileSize: Self.fileSize(path)) { offset, count in Self.read(path, at: offset, count: count) }
        if let dropped { metadata.warnings.append(dropped) }
        metadata.properties["pages"] = String(reader.pageCount())
        self.metadata = metadata
        keep = true
    }

    deinit { imglab_tiff_close(handle) }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let outRow = format.minimumBytesPerRow(width: width)
        var done = 0
        while done < count, next < height {
            if band == nil || next >= bandStart + (band?.height ?? 0) {
                band = nil
                bandStart = next / bandRows * bandRows
                band = try readBand(bandStart)
            }
            guard let band else { break }
            let n = min(count - done, bandStart + band.height - next)
            band.bytes.withUnsafeBytes { source in
                for i in 0..<n {
                    let from = (next - bandStart + i) * band.bytesPerRow
                    let to = (done + i) * stride
                    UnsafeMutableRawBufferPointer(rebasing: buffer[to..<(to + outRow)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + outRow)]))
                }
            }
            done += n
            next += n
        }
        return done
    }

    /// The delivered rows of the band starting at image row `start`.
    private func readBand(_ start: Int) throws(DecodeError) -> Bitmap {
        let d = directory
        let reader = TIFFReader(handle: handle)
        let rows = min(bandRows, height - start)
        let planeCount = d.isPlanar ? d.samplesPerPixel : 1
        let samplesPerPlane = d.isPlanar ? 1 : d.samplesPerPixel
        guard let rowBits = TIFFRaster.product(d.width, samplesPerPlane, d.bitsPerSample),
              let total = TIFFRaster.product(TIFFRaster.bytes(bits: rowBits), rows, planeCount) else {
            throw .limitExceeded(.bytes, requested: .max, allowed: limits.maxBytes)
        }
        let rowBytes = TIFFRaster.bytes(bits: rowBits)
        // Each band is charged to a fresh copy of the budget: one band must fit it, as the whole image must for the whole decoder.
        var budget = limits
        try budget.reserve(bytes: total)
        var raster = TIFFRaster(bytes: [UInt8](repeating: 0, count: total), planeCount: planeCount,
                                samplesPerPlane: samplesPerPlane, rowBytes: rowBytes, height: rows)
        let planeBytes = raster.planeBytes
        if d.isTiled {
            guard let tileRowBits = TIFFRaster.product(d.tileWidth, samplesPerPlane, d.bitsPerSample),
                  let tileBytes = TIFFRaster.product(TIFFRaster.bytes(bits: tileRowBits), d.tileLength),
                  tileRowBits % 8 == 0, TIFFRaster.bytes(bits: tileRowBits) == d.tileRowSize, d.tileWidth > 0 else {
                throw .malformed(.tiff, reason: "tile size \(d.tileWidth)×\(d.tileLength) does not fit its samples", offset: nil)
            }
            let tileRowBytes = TIFFRaster.bytes(bits: tileRowBits)
            let across = (d.width + d.tileWidth - 1) / d.tileWidth
            let down = (height + d.tileLength - 1) / d.tileLength
            guard d.tileCount >= across * down * planeCount else {
                throw .malformed(.tiff, reason: "\(d.tileCount) tiles for \(planeCount) plane(s) of \(across)×\(down) tiles", offset: nil)
            }
            try budget.reserve(bytes: tileBytes)
            var tile = [UInt8](repeating: 0, count: tileBytes)
            let ty = start / d.tileLength
            for plane in 0..<planeCount {
                for tx in 0..<across {
                    let index = (plane * down + ty) * across + tx
                    try TIFFRaster.checkUncompressedSize(reader, d, index: index, needs: tileBytes, what: "tile")
                    let decoded = tile.withUnsafeMutableBytes { b in Result { () throws(DecodeError) -> Int in try reader.readTile(index, into: b) } }
                    let n = try decoded.get()
                    guard n >= tileBytes else {
                        throw .truncated(.tiff, reason: "tile \(index) decoded to \(n) bytes, expected \(tileBytes)", offset: nil)
                    }
                    let xByte = tx * tileRowBytes, count = min(tileRowBytes, rowBytes - xByte)
                    raster.bytes.withUnsafeMutableBytes { destination in
                        tile.withUnsafeBytes { source in
                            for r in 0..<rows {
                                let to = plane * planeBytes + r * rowBytes + xByte, from = r * tileRowBytes
                                destination[to..<(to + count)].copyBytes(from: source[from..<(from + count)])
                            }
                        }
                    }
                }
            }
        } else {
            guard d.scanlineSize == rowBytes else {
                throw .malformed(.tiff, reason: "libtiff's row size \(d.scanlineSize) differs from the \(rowBytes) bytes that \(d.width) × \(samplesPerPlane) samples of \(d.bitsPerSample) bits need", offset: nil)
            }
            let stripsPerPlane = (height + bandRows - 1) / bandRows
            guard d.stripCount >= stripsPerPlane * planeCount else {
                throw .malformed(.tiff, reason: "\(d.stripCount) strips for \(planeCount) plane(s) of \(stripsPerPlane) strips of \(bandRows) rows", offset: nil)
            }
            let wanted = rows * rowBytes
            for plane in 0..<planeCount {
                let index = plane * stripsPerPlane + start / bandRows
                try TIFFRaster.checkUncompressedSize(reader, d, index: index, needs: wanted, what: "strip")
                let decoded = raster.bytes.withUnsafeMutableBytes { b in
                    Result { () throws(DecodeError) -> Int in
                        try reader.readStrip(index, into: UnsafeMutableRawBufferPointer(rebasing: b[(plane * planeBytes)..<(plane * planeBytes + wanted)]))
                    }
                }
                let n = try decoded.get()
                guard n >= wanted else {
                    throw .truncated(.tiff, reason: "strip \(index) decoded to \(n) bytes, \(rows) rows need \(wanted)", offset: nil)
                }
            }
        }
        var bandDirectory = d
        bandDirectory.height = rows
        return try plan.bitmap(from: &raster, bandDirectory, limits: &budget)
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return FileSystemName.withRepresentation(path, { stat($0, &status) }) == 0 ? Int(status.st_size) : 0
    }

    /// Up to `count` bytes of the file at `path` from `offset`.
    private static func read(_ path: String, at offset: Int, count: Int) -> [UInt8] {
        let fd = FileSystemName.withRepresentation(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return Array(bytes.prefix(max(n, 0)))
    }
}

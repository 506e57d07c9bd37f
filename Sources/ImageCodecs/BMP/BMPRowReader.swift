#if canImport(Glibc)
import Glibc
#endif
import ImageCore

/// An uncompressed BMP read row by row from its file: the headers and colour table are read
/// first, then each band of rows the consumer asks for is read with one `pread` (bottom-up
/// files from the end of the pixel data backwards) and converted as ``BMPDecoder`` converts
/// it, so neither the file nor the image is held in memory.
///
/// Run-length files (their rows are not at fixed offsets), files with an embedded ICC profile
/// (usually stored after the pixels) and headerless DIBs are decoded whole instead:
/// ``init(path:options:)`` returns `nil` for them.
final class BMPRowReader: RowReader {
    let container = ContainerFormat.bmp
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation = Orientation.up
    let metadata: ImageMetadata
    private let header: BMPHeader
    private let layout: BMPDecoder.Layout
    private let descriptor: Int32
    private var band: [UInt8] = []
    private var next = 0

    /// Opens the file at `path`, or returns `nil` when it must be decoded whole.
    /// - Throws: as ``BMPCodec/decode(_:options:)`` for the headers, and ``DecodeError/truncated(_:reason:offset:)``
    ///   when the pixel rows do not fit the file.
    init?(path: String, options: DecodeOptions) throws(DecodeError) {
        let fd = FileSystemName.withRepresentation(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open (errno \(errno))") }
        var keep = false
        defer { if !keep { close(fd) } }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(path: path, reason: "cannot stat the file") }
        let size = Int(status.st_size)
        let start = Self.read(fd, at: 0, count: 54)
        guard start.count >= 54, start[0] == 0x42, start[1] == 0x4D else { return nil }
        let pixelOffset = Int(start[10]) | Int(start[11]) << 8 | Int(start[12]) << 16 | Int(start[13]) << 24
        let compression = Int(start[30]) | Int(start[31]) << 8
        let headerSize = Int(start[14]) | Int(start[15]) << 8
        // Only uncompressed rows (BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS of a Windows header) sit at fixed offsets.
        guard headerSize >= 40, [0, 3, 6].contains(compression), pixelOffset > 0, pixelOffset < size,
              pixelOffset <= 64 << 20 else { return nil }
        // Headers, masks and colour table; at least what the parser reads even when the table overlaps the pixels.
        let prefix = Self.read(fd, at: 0, count: max(pixelOffset + 1, min(size, 14 + 124 + 16 + 1024)))
        let header = try BMPHeader(parsing: prefix, limits: options.limits)
        guard header.colorSpaceType != "MBED" else { return nil }
        let layout = try BMPDecoder.layout(of: header, bytes: prefix, limits: options.limits)
        if case .runLength = layout { return nil }
        let stride = header.storedRowBytes
        let lastRow = (header.width * header.bitCount + 7) / 8
        let (body, overflow) = stride.multipliedReportingOverflow(by: header.height - 1)
        guard !overflow, body + lastRow <= size - header.pixelOffset else {
            throw .truncated(.bmp, reason: "\(header.height) rows of \(stride) bytes need \(body + lastRow) bytes of pixels, \(size - header.pixelOffset) present",
                             offset: header.pixelOffset)
        }
        self.header = header
        self.layout = layout
        width = header.width
        height = header.height
        format = layout.format
        metadata = BMPDecoder.metadata(of: header, layout: layout)
        descriptor = fd
        keep = true
    }

    deinit { close(descriptor) }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let n = min(count, height - next)
        let outRow = format.minimumBytesPerRow(width: width)
        guard n > 0, buffer.count >= (n - 1) * stride + outRow else { return 0 }
        let stored = header.storedRowBytes
        let lastRow = (width * header.bitCount + 7) / 8
        // The n rows are contiguous in the file: rows next…next+n−1 top-down, or stored rows
        // height−next−n…height−next−1 bottom-up (read as one block, then walked backwards).
        let firstStored = header.topDown ? next : height - next - n
        let span = (n - 1) * stored + lastRow
        if band.count < span { band = [UInt8](repeating: 0, count: span) }
        let got = band.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, span, off_t(header.pixelOffset + firstStored * stored)) }
        guard got == span else {
            throw .truncated(.bmp, reason: "rows \(next)…\(next + n - 1) could not be read (\(got) of \(span) bytes)", offset: header.pixelOffset + firstStored * stored)
        }
        band.withUnsafeBytes { source in
            for i in 0..<n {
                let row = header.topDown ? i : n - 1 - i
                let from = row * stored
                BMPDecoder.convertRow(header, layout: layout, from: UnsafeRawBufferPointer(rebasing: source[from..<(from + lastRow)]),
                                      into: UnsafeMutableRawBufferPointer(rebasing: buffer[(i * stride)..<(i * stride + outRow)]))
            }
        }
        next += n
        return n
    }

    /// Up to `count` bytes of the file from `offset`.
    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }
}

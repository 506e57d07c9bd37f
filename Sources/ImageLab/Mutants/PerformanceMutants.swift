import ImageCodecs
import ImageCore
import ImageResize

/// A deliberately wasteful variant of the built-in file resize (`imglab resize --size`,
/// `imglab thumbnail`), for `imglab selftest --profile scale`: the pixels are right, the cost is
/// wrong. Each is composed from the public entries of ImageCodecs and ImageResize
/// (``FileResize/rows(path:width:height:contentMode:options:limits:)`` and
/// ``FileResize/resized(_:width:height:contentMode:options:limits:)``, their thumbnail peers,
/// ``ImageCodecs/decode(contentsOf:options:)``), never by a switch inside the resizer. They are
/// meant for stills: an animated GIF or APNG gets its first frame only, except from `whole-image`.
public enum PerformanceMutant: String, CaseIterable, Sendable {
    /// The JPEG decoded at full size, then resized (still streamed).
    case noShrinkOnLoad = "no-shrink-on-load"
    /// The whole source decoded into memory, then resized in memory.
    case wholeImage = "whole-image"
    /// Streamed, but one heap allocation per pixel while the rows are read.
    case perPixelAllocation = "per-pixel-allocation"
    /// The whole source converted to a float RGBA working image (16 bytes a pixel) at full
    /// source size before resampling.
    case fullSizeFloat = "full-size-float"

    /// Stable identifier, as `--performance-mutant` takes it.
    public var id: String { rawValue }

    /// What the variant does, in one line.
    public var title: String {
        switch self {
        case .noShrinkOnLoad: return "the JPEG decoded at full size, then resized (streamed): no shrink-on-load"
        case .wholeImage: return "the whole source decoded into memory, then resized in memory: no streaming"
        case .perPixelAllocation: return "streamed, but one heap allocation per pixel while the rows are read"
        case .fullSizeFloat: return "the whole source held as a float RGBA working image at full size (16 bytes a pixel) before resampling"
        }
    }

    /// The cost diagnosis that must name the failure the variant causes.
    public var diagnosis: String {
        switch self {
        case .noShrinkOnLoad: return "no DCT-domain scaling: decodes the JPEG at full size"
        case .wholeImage: return "memory grows with the input, not the output: the whole image is held"
        case .perPixelAllocation: return "CPU grows with allocations: one per pixel"
        case .fullSizeFloat: return "memory grows with the input: a full-size float working image"
        }
    }

    /// Why `request` cannot be run by a performance mutant, or `nil`: they cover a box
    /// (`--size` with `--mode`, any `--scale`) and the thumbnail, without crop, border, corners
    /// or added alpha.
    public static func problem(with request: FileResizeRequest) -> String? {
        if request.crop != nil || request.border > 0 || request.cornerRadius > 0 || request.addsAlpha {
            return "a performance mutant runs a plain box resize or thumbnail: no crop, border, rounded corners or added alpha"
        }
        switch request.size {
        case .box, .maxPixelSize: return nil
        case .original, .rect: return "a performance mutant needs --size WxH (without --from-rect) or --max-pixel-size"
        }
    }

    /// Performs `request` the wasteful way and writes its output, as ``FileResizeRequest/write()``
    /// does: the same pixels (within one code value), another cost.
    /// - Throws: ``FileResizeError``; ``FileResizeError/resize(_:)`` with an invalid-geometry
    ///   error when ``problem(with:)`` finds one.
    public func run(_ request: FileResizeRequest) throws(FileResizeError) {
        let image = try resized(request)
        do {
            try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: request.container, options: request.encoding), to: request.output)
        } catch {
            throw .write(path: request.output, underlying: error)
        }
    }

    /// The result of `request` made the wasteful way, without writing it.
    public func resized(_ request: FileResizeRequest) throws(FileResizeError) -> Image {
        if let problem = Self.problem(with: request) { throw .resize(.invalidGeometry(problem)) }
        var options = request.options
        options.straightAlpha = !request.container.storesPremultipliedAlpha
        do {
            switch request.size {
            case .box(let w, let h, let mode):
                let width = try PointSize.pixels(w, scale: request.scale), height = try PointSize.pixels(h, scale: request.scale)
                var image = try box(request.input, width: width, height: height, mode: mode, options: options, limits: request.limits)
                image.metadata.scale = request.scale
                return image
            case .maxPixelSize(let limit):
                return try thumbnail(request.input, maxPixelSize: limit, options: options, limits: request.limits)
            case .original, .rect:
                throw ResizeError.invalidGeometry("unreachable: checked by problem(with:)")
            }
        } catch let error as ResizeError {
            throw .resize(error)
        } catch {
            throw .read(path: request.input, underlying: error)
        }
    }

    /// A box resize of the file at `path`.
    private func box(_ path: String, width: Int, height: Int, mode: ContentMode, options: ResizeOptions, limits: DecodeLimits) throws -> Image {
        switch self {
        case .noShrinkOnLoad:
            return try FileResize.resized(fullSizeRows(path, limits: limits), width: width, height: height, contentMode: mode,
                                          options: options, limits: limits)
        case .wholeImage:
            let image = try ImageCodecs.decode(contentsOf: path, options: DecodeOptions(limits: limits))
            return try image.resized(width: width, height: height, contentMode: mode, options: options)
        case .perPixelAllocation:
            let rows = try FileResize.rows(path: path, width: width, height: height, contentMode: mode, options: options, limits: limits)
            return try FileResize.resized(PerPixelAllocatingReader.wrapping(rows), width: width, height: height, contentMode: mode,
                                          options: options, limits: limits)
        case .fullSizeFloat:
            let rows = try FullSizeFloatReader.holding(try fullSizeRows(path, limits: limits))
            return try FileResize.resized(rows, width: width, height: height, contentMode: mode, options: options, limits: limits)
        }
    }

    /// The ImageIO thumbnail of the file at `path`.
    private func thumbnail(_ path: String, maxPixelSize: Int, options: ResizeOptions, limits: DecodeLimits) throws -> Image {
        switch self {
        case .noShrinkOnLoad:
            return try MaxPixelSizeThumbnail.thumbnail(of: fullSizeRows(path, limits: limits), maxPixelSize: maxPixelSize,
                                                       options: options, limits: limits)
        case .wholeImage:
            guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
            let image = try ImageCodecs.decode(contentsOf: path, options: DecodeOptions(limits: limits))
            let display = image.displaySize
            let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
            return try image.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
        case .perPixelAllocation:
            let rows = try MaxPixelSizeThumbnail.rows(path: path, maxPixelSize: maxPixelSize, limits: limits)
            return try MaxPixelSizeThumbnail.thumbnail(of: PerPixelAllocatingReader.wrapping(rows), maxPixelSize: maxPixelSize,
                                                       options: options, limits: limits)
        case .fullSizeFloat:
            let rows = try FullSizeFloatReader.holding(try fullSizeRows(path, limits: limits))
            return try MaxPixelSizeThumbnail.thumbnail(of: rows, maxPixelSize: maxPixelSize, options: options, limits: limits)
        }
    }

    /// The file's rows at full size (no DCT scaling), streamed where the container allows.
    private func fullSizeRows(_ path: String, limits: DecodeLimits) throws -> ScaledRows {
        ScaledRows(reader: try ImageCodecs.rowReader(path: path, options: DecodeOptions(limits: limits)))
    }
}

/// How a pixel's components sit in a row, for the wasteful readers: `count` components of
/// `bytes` bytes each (1, or 2 in `bigEndian` order), or, for a layout without whole-byte
/// components (packed, sub-byte, float), every byte of the pixel as one component.
private struct PixelComponents {
    var count: Int
    var bytes: Int
    var bigEndian: Bool
    var pixelBytes: Int

    init(_ format: PixelFormat) {
        let bpc = format.bitsPerComponent, slots = format.slotCount
        if !format.isFloat, bpc == 8 || bpc == 16, format.bitsPerPixel == slots * bpc {
            count = slots
            bytes = bpc / 8
            bigEndian = bpc == 16 && format.byteOrder != .little16
            pixelBytes = slots * bytes
        } else {
            pixelBytes = max(1, format.bitsPerPixel / 8)
            count = pixelBytes
            bytes = 1
            bigEndian = false
        }
    }

    /// Component `k` of the pixel at `p`.
    func load(_ p: UnsafeMutableRawPointer, _ k: Int) -> Float {
        if bytes == 1 { return Float(p.load(fromByteOffset: k, as: UInt8.self)) }
        let hi = UInt16(p.load(fromByteOffset: 2 * k, as: UInt8.self)), lo = UInt16(p.load(fromByteOffset: 2 * k + 1, as: UInt8.self))
        return Float(bigEndian ? hi << 8 | lo : lo << 8 | hi)
    }

    /// Stores `value` (an exact integer code) as component `k` of the pixel at `p`.
    func store(_ value: Float, _ p: UnsafeMutableRawPointer, _ k: Int) {
        if bytes == 1 { p.storeBytes(of: UInt8(value), toByteOffset: k, as: UInt8.self); return }
        let v = UInt16(value)
        let first = bigEndian ? UInt8(v >> 8) : UInt8(v & 0xFF), second = bigEndian ? UInt8(v & 0xFF) : UInt8(v >> 8)
        p.storeBytes(of: first, toByteOffset: 2 * k, as: UInt8.self)
        p.storeBytes(of: second, toByteOffset: 2 * k + 1, as: UInt8.self)
    }
}

/// A reader that passes the rows of another through, every pixel copied through a freshly
/// heap-allocated buffer of floats: the same bytes, one allocation per pixel.
private final class PerPixelAllocatingReader: RowReader {
    let inner: any RowReader
    let components: PixelComponents
    var container: ContainerFormat { inner.container }
    var width: Int { inner.width }
    var height: Int { inner.height }
    var format: PixelFormat { inner.format }
    var orientation: Orientation { inner.orientation }
    var metadata: ImageMetadata { inner.metadata }

    init(_ inner: any RowReader) {
        self.inner = inner
        components = PixelComponents(inner.format)
    }

    /// `rows` with this reader in front of its reader.
    static func wrapping(_ rows: ScaledRows) -> ScaledRows {
        var wrapped = rows
        wrapped.reader = PerPixelAllocatingReader(rows.reader)
        return wrapped
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let got = try inner.readRows(into: buffer, stride: stride, count: count)
        guard let base = buffer.baseAddress else { return got }
        let c = components
        for row in 0..<got {
            for x in 0..<inner.width {
                let p = base + row * stride + x * c.pixelBytes
                // The waste: a heap block per pixel (swift_slowAlloc, which the optimiser cannot elide).
                let pixel = UnsafeMutablePointer<Float>.allocate(capacity: c.count)
                for k in 0..<c.count { pixel[k] = c.load(p, k) }
                for k in 0..<c.count { c.store(pixel[k], p, k) }
                pixel.deallocate()
            }
        }
        return got
    }
}

/// A reader that first reads every row of another into a float RGBA working image at the
/// reader's full size (4 floats, 16 bytes, a pixel; a pixel of more than four components gets
/// one float each), then delivers the rows from it, converted back to the same bytes.
private final class FullSizeFloatReader: RowReader {
    let container: ContainerFormat
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation: Orientation
    let metadata: ImageMetadata
    private let components: PixelComponents
    private let floatsPerPixel: Int
    private var working: [Float]
    private var next = 0

    /// `rows` read whole into the working image; the result has denominator 1 when the rows had.
    static func holding(_ rows: ScaledRows) throws -> ScaledRows {
        var held = rows
        held.reader = try FullSizeFloatReader(rows.reader)
        return held
    }

    init(_ inner: any RowReader) throws {
        container = inner.container
        width = inner.width
        height = inner.height
        format = inner.format
        orientation = inner.orientation
        metadata = inner.metadata
        let c = PixelComponents(inner.format)
        components = c
        floatsPerPixel = max(4, c.count)
        let scale = Float(c.bytes == 2 ? 65535 : 255)
        working = [Float](repeating: 0, count: width * height * floatsPerPixel)
        let stride = max(1, inner.format.minimumBytesPerRow(width: width))
        var row = [UInt8](repeating: 0, count: stride)
        let fpp = floatsPerPixel, w = width
        for y in 0..<height {
            let got = try row.withUnsafeMutableBytes { try inner.readRows(into: $0, stride: stride, count: 1) }
            guard got == 1 else {
                throw DecodeError.truncated(inner.container, reason: "the decoder delivered \(y) of \(height) rows", offset: nil)
            }
            row.withUnsafeMutableBytes { bytes in
                working.withUnsafeMutableBufferPointer { floats in
                    guard let src = bytes.baseAddress, let dst = floats.baseAddress else { return }
                    for x in 0..<w {
                        let p = src + x * c.pixelBytes, f = dst + (y * w + x) * fpp
                        for k in 0..<c.count { f[k] = c.load(p, k) / scale }
                        if c.count < 4 { f[3] = 1 }
                    }
                }
            }
        }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let n = min(count, height - next)
        guard n > 0, let base = buffer.baseAddress else { return 0 }
        let c = components, fpp = floatsPerPixel, w = width
        let scale = Float(c.bytes == 2 ? 65535 : 255)
        working.withUnsafeBufferPointer { floats in
            guard let src = floats.baseAddress else { return }
            for i in 0..<n {
                for x in 0..<w {
                    let f = src + ((next + i) * w + x) * fpp, p = base + i * stride + x * c.pixelBytes
                    for k in 0..<c.count { c.store((f[k] * scale).rounded(), p, k) }
                }
            }
        }
        next += n
        return n
    }
}

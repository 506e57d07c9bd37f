import CImageShim
import ImageCore

/// Reads a GIF record by record through giflib (`DGifOpen` on a memory source), never with
/// `DGifSlurp`, so limits are checked per frame before anything is allocated for it.
///
/// Leniency: when the file ends, or a record is broken, after at least one complete frame,
/// reading stops there and ``GIFStream/stopReason`` says why; the same failure before the
/// first complete frame throws. A missing trailer therefore costs nothing.
enum GIFReader {
    /// How much of the file to read.
    enum Depth {
        /// Every record, skipping pixel data: sizes, tables, controls, frame count.
        case structure
        /// Records up to and including the first image's pixels.
        case firstFrame
        /// Every record with pixels.
        case allFrames
    }

    /// Parses `bytes` to the given depth, spending `limits` on the frame index buffers.
    static func read(_ bytes: [UInt8], depth: Depth, limits: inout DecodeLimits) throws(DecodeError) -> GIFStream {
        var budget = limits
        let result: Result<GIFStream, DecodeError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                return .failure(.truncated(.gif, reason: "the file is empty", offset: 0))
            }
            var source = imglab_gif_source(bytes: base, count: buffer.count, position: 0)
            return withUnsafeMutablePointer(to: &source) { sourcePointer in
                var code: Int32 = 0
                guard let file = imglab_gif_open_source(sourcePointer, &code) else {
                    return .failure(error(code: code, context: "the header and screen descriptor", offset: sourcePointer.pointee.position))
                }
                defer { var ignored: Int32 = 0; _ = DGifCloseFile(file, &ignored) }
                var session = Session(file: file, source: sourcePointer, depth: depth, limits: budget)
                do throws(DecodeError) {
                    let stream = try session.run()
                    budget = session.limits
                    return .success(stream)
                } catch {
                    return .failure(error)
                }
            }
        }
        let stream = try result.get()
        limits = budget
        return stream
    }

    /// Maps a giflib error code to a typed error at `offset`.
    static func error(code: Int32, context: String, offset: Int) -> DecodeError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return .truncated(.gif, reason: "\(context): \(message)", offset: offset)
        default:
            return .malformed(.gif, reason: "\(context): \(message)", offset: offset)
        }
    }

    /// One pass over an open file.
    private struct Session {
        let file: UnsafeMutablePointer<GifFileType>
        let source: UnsafeMutablePointer<imglab_gif_source>
        let depth: Depth
        var limits: DecodeLimits

        var offset: Int { source.pointee.position }

        func failure(_ context: String) -> DecodeError {
            GIFReader.error(code: file.pointee.Error, context: context, offset: offset)
        }

        mutating func run() throws(DecodeError) -> GIFStream {
            let screen = file.pointee
            let width = Int(screen.SWidth), height = Int(screen.SHeight)
            try limits.check(width: width, height: height)
            let version = source.pointee.count >= 6
                ? String(decoding: UnsafeBufferPointer(start: source.pointee.bytes + 3, count: 3), as: UTF8.self) : "?"
            var stream = GIFStream(width: width, height: height, globalTable: Self.table(screen.SColorMap),
                                   globalTableBits: screen.SColorMap.map { Int($0.pointee.BitsPerPixel) },
                                   backgroundIndex: Int(screen.SBackGroundColor), loopCount: nil, frames: [],
                                   iccProfile: nil, comments: [], version: version, stopReason: nil)
            var pendingControl: GIFGraphicsControl?
            // Every record consumes at least one byte, so this loop ends within the file's length.
            records: while true {
                var type = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(file, &type) == GIF_OK else {
                    let e = failure("record \(stream.frames.count + 1) after \(stream.frames.count) image(s)")
                    if stream.frames.isEmpty { throw e }
                    stream.stopReason = e.description
                    break records
                }
                switch type {
                case IMAGE_DESC_RECORD_TYPE:
                    do {
                        let frame = try readImage(index: stream.frames.count, screenWidth: width, screenHeight: height, control: pendingControl)
                        stream.frames.append(frame)
                    } catch let e {
                        if stream.frames.isEmpty { throw e }
                        if case .limitExceeded = e { throw e }
                        stream.stopReason = e.description
                        break records
                    }
                    pendingControl = nil
                    if depth == .firstFrame { break records }
                case EXTENSION_RECORD_TYPE:
                    do {
                        let (code, blocks) = try readExtension()
                        apply(extension: code, blocks: blocks, to: &stream, control: &pendingControl)
                    } catch let e {
                        if stream.frames.isEmpty { throw e }
                        stream.stopReason = e.description
                        break records
                    }
                case TERMINATE_RECORD_TYPE:
                    break records
                default:
                    throw .malformed(.gif, reason: "unknown record type", offset: offset)
                }
            }
            if stream.frames.isEmpty {
                throw .malformed(.gif, reason: "the file has no image descriptor", offset: offset)
            }
            return stream
        }

        /// Reads an image descriptor and, unless only the structure is wanted, its pixels.
        mutating func readImage(index: Int, screenWidth: Int, screenHeight: Int, control: GIFGraphicsControl?) throws(DecodeError) -> GIFFrameRecord {
            try limits.check(frames: index + 1)
            var wideCodeSize: Int?
            if DGifGetImageDesc(file) != GIF_OK {
                // giflib has read the descriptor and the code-size byte, then refused a code size above 8.
                let position = offset
                guard file.pointee.Error == D_GIF_ERR_READ_FAILED, position > 0, position < source.pointee.count,
                      (9...11).contains(Int(source.pointee.bytes[position - 1])) else {
                    throw failure("image descriptor \(index + 1)")
                }
                wideCodeSize = Int(source.pointee.bytes[position - 1])
            }
            let descriptor = file.pointee.Image
            let rect = PixelRect(x: Int(descriptor.Left), y: Int(descriptor.Top),
                                 width: Int(descriptor.Width), height: Int(descriptor.Height))
            let visible = GIFFrameRecord.clip(rect, width: screenWidth, height: screenHeight)
            var frame = GIFFrameRecord(rect: rect, visible: visible, interlaced: descriptor.Interlace,
                                       localTable: Self.table(descriptor.ColorMap),
                                       localTableBits: descriptor.ColorMap.map { Int($0.pointee.BitsPerPixel) },
                                       control: control, indices: [])
            let raw = UnsafeBufferPointer(start: source.pointee.bytes, count: source.pointee.count)
            if wideCodeSize != nil, depth == .structure || rect.width == 0 || rect.height == 0 {
                source.pointee.position = GIFWideCodeLZW.subBlocks(raw, from: offset).end
                return frame
            }
            if depth == .structure || rect.width == 0 || rect.height == 0 {
                try skipImageData(index: index)
                return frame
            }
            // The declared size bounds the LZW work even where the frame is clipped away.
            try limits.check(width: rect.width, height: rect.height)
            try limits.reserve(bytes: visible.width * visible.height + rect.width)
            var indices = [UInt8](repeating: 0, count: visible.width * visible.height)
            var row = [UInt8](repeating: 0, count: rect.width)
            let order = descriptor.Interlace ? gifInterlacedRowOrder(height: rect.height) : Array(0..<rect.height)
            var wide: [UInt8] = []
            if let wideCodeSize {
                let start = offset
                let (data, end) = GIFWideCodeLZW.subBlocks(raw, from: start)
                try limits.reserve(bytes: rect.width * rect.height)
                wide = GIFWideCodeLZW.decode(data, minCodeSize: wideCodeSize, pixelCount: rect.width * rect.height)
                guard wide.count == rect.width * rect.height else {
                    throw .malformed(.gif, reason: "image \(index + 1): LZW data (code size \(wideCodeSize)) gives \(wide.count) of \(rect.width * rect.height) pixels", offset: start)
                }
                source.pointee.position = end
            }
            for stored in 0..<rect.height {
                if wideCodeSize != nil {
                    for x in 0..<rect.width { row[x] = wide[stored * rect.width + x] }
                } else {
                    let ok = row.withUnsafeMutableBufferPointer { DGifGetLine(file, $0.baseAddress, Int32(rect.width)) }
                    guard ok == GIF_OK else { throw failure("image \(index + 1), stored row \(stored) of \(rect.height)") }
                }
                let y = rect.y + order[stored]
                guard y >= visible.y, y < visible.y + visible.height else { continue }
                let from = visible.x - rect.x
                let to = (y - visible.y) * visible.width
                for x in 0..<visible.width { indices[to + x] = row[from + x] }
            }
            frame.indices = indices
            return frame
        }

        /// Skips the LZW sub-blocks of the current image without decoding them.
        func skipImageData(index: Int) throws(DecodeError) {
            var codeSize: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetCode(file, &codeSize, &block) == GIF_OK else { throw failure("image \(index + 1) data") }
            while block != nil {
                guard DGifGetCodeNext(file, &block) == GIF_OK else { throw failure("image \(index + 1) data") }
            }
        }

        /// Reads one extension: its label and the payloads of its sub-blocks.
        func readExtension() throws(DecodeError) -> (Int, [[UInt8]]) {
            var code: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetExtension(file, &code, &block) == GIF_OK else { throw failure("extension") }
            var blocks: [[UInt8]] = []
            while let b = block {
                // giflib hands out each sub-block as a length byte followed by the payload.
                blocks.append(Array(UnsafeBufferPointer(start: b + 1, count: Int(b[0]))))
                guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw failure("extension 0x\(String(code, radix: 16)) sub-block") }
            }
            return (Int(code), blocks)
        }

        func apply(extension code: Int, blocks: [[UInt8]], to stream: inout GIFStream, control: inout GIFGraphicsControl?) {
            switch code {
            case Int(GRAPHICS_EXT_FUNC_CODE):
                if let body = blocks.first, let gce = GIFGraphicsControl(body: body) { control = gce }
            case Int(APPLICATION_EXT_FUNC_CODE):
                guard let identifier = blocks.first.map({ String(decoding: $0, as: UTF8.self) }) else { return }
                if identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0" {
                    if let sub = blocks.dropFirst().first(where: { $0.count >= 3 && $0[0] == 1 }) {
                        stream.loopCount = Int(sub[1]) | Int(sub[2]) << 8
                    }
                } else if identifier == "ICCRGBG1012" {
                    stream.iccProfile = blocks.dropFirst().flatMap { $0 }
                }
            case Int(COMMENT_EXT_FUNC_CODE):
                stream.comments.append(String(blocks.flatMap { $0 }.map { Character(Unicode.Scalar($0)) }))
            default:
                break
            }
        }

        /// Copies a giflib colour map as opaque palette entries.
        static func table(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [Palette.Entry]? {
            guard let map, let colors = map.pointee.Colors else { return nil }
            let count = Int(map.pointee.ColorCount)
            return (0..<max(count, 0)).map { i in
                Palette.Entry(red: colors[i].Red, green: colors[i].Green, blue: colors[i].Blue)
            }
        }
    }
}

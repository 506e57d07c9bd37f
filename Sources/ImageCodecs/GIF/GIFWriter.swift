import CImageShim
import ImageCore

/// Writes a ``GIFStream`` through giflib (`EGifOpen` on a memory sink).
///
/// Each frame is written at its `visible` rectangle with `indices` covering it. Colour tables are
/// padded with black to the next power of two (2…256 entries), as the format requires.
/// A Graphics Control Extension is written for every frame that has a `control`, and a
/// NETSCAPE2.0 loop extension when `loopCount` is set.
enum GIFWriter {
    static func write(_ stream: GIFStream, interlaced: Bool) throws(EncodeError) -> [UInt8] {
        var sink = imglab_gif_sink(bytes: nil, count: 0, capacity: 0, failed: 0)
        defer { imglab_gif_sink_release(&sink) }
        var code: Int32 = 0
        guard let file = imglab_gif_open_sink(&sink, &code) else { throw library(code, "opening the encoder") }
        var closed = false
        defer { if !closed { var ignored: Int32 = 0; _ = EGifCloseFile(file, &ignored) } }

        EGifSetGifVersion(file, true)
        let global = try colorMap(stream.globalTable)
        defer { if let global { GifFreeMapObject(global) } }
        let resolution = Int32(global?.pointee.BitsPerPixel ?? 8)
        guard EGifPutScreenDesc(file, Int32(stream.width), Int32(stream.height), resolution,
                                Int32(stream.backgroundIndex), global) == GIF_OK else {
            throw library(file.pointee.Error, "writing the screen descriptor")
        }
        if let loop = stream.loopCount {
            // NETSCAPE2.0 sub-block 1: the loop count, little-endian.
            try putApplicationExtension(file, identifier: "NETSCAPE2.0", payload: [1, UInt8(loop & 0xFF), UInt8((loop >> 8) & 0xFF)])
        }
        if let profile = stream.iccProfile, !profile.isEmpty {
            try putApplicationExtension(file, identifier: "ICCRGBG1012", payload: profile)
        }
        for (index, frame) in stream.frames.enumerated() {
            if let control = frame.control {
                let body = control.body
                guard body.withUnsafeBufferPointer({ EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, $0.baseAddress) }) == GIF_OK else {
                    throw library(file.pointee.Error, "writing the control extension of frame \(index + 1)")
                }
            }
            let local = try colorMap(frame.localTable)
            defer { if let local { GifFreeMapObject(local) } }
            let r = frame.visible
            guard EGifPutImageDesc(file, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), interlaced, local) == GIF_OK else {
                throw library(file.pointee.Error, "writing image descriptor \(index + 1)")
            }
            let order = interlaced ? gifInterlacedRowOrder(height: r.height) : Array(0..<r.height)
            var row = [UInt8](repeating: 0, count: r.width)
            for y in order {
                for x in 0..<r.width { row[x] = frame.indices[y * r.width + x] }
                guard row.withUnsafeMutableBufferPointer({ EGifPutLine(file, $0.baseAddress, Int32(r.width)) }) == GIF_OK else {
                    throw library(file.pointee.Error, "writing row \(y) of frame \(index + 1)")
                }
            }
        }
        closed = true
        var closeError: Int32 = 0
        guard EGifCloseFile(file, &closeError) == GIF_OK else { throw library(closeError, "writing the trailer") }
        guard sink.failed == 0, let bytes = sink.bytes else { throw .library(.gif, "out of memory while writing") }
        return Array(UnsafeBufferPointer(start: bytes, count: sink.count))
    }

    /// Writes an application extension whose payload is split into 255-byte sub-blocks.
    static func putApplicationExtension(_ file: UnsafeMutablePointer<GifFileType>, identifier: String, payload: [UInt8]) throws(EncodeError) {
        let id = Array(identifier.utf8)
        guard EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
              id.withUnsafeBufferPointer({ EGifPutExtensionBlock(file, Int32(id.count), $0.baseAddress) }) == GIF_OK else {
            throw library(file.pointee.Error, "writing the \(identifier) extension")
        }
        var start = 0
        while start < payload.count {
            let chunk = Array(payload[start..<min(start + 255, payload.count)])
            guard chunk.withUnsafeBufferPointer({ EGifPutExtensionBlock(file, Int32(chunk.count), $0.baseAddress) }) == GIF_OK else {
                throw library(file.pointee.Error, "writing the \(identifier) extension")
            }
            start += 255
        }
        guard EGifPutExtensionTrailer(file) == GIF_OK else { throw library(file.pointee.Error, "writing the \(identifier) extension") }
    }

    /// A giflib colour map of the table padded to a power of two; the caller frees it.
    static func colorMap(_ table: [Palette.Entry]?) throws(EncodeError) -> UnsafeMutablePointer<ColorMapObject>? {
        guard let table else { return nil }
        let bits = tableBits(count: table.count)
        let colors = (0..<(1 << bits)).map { i -> GifColorType in
            let e = i < table.count ? table[i] : Palette.Entry(red: 0, green: 0, blue: 0)
            return GifColorType(Red: e.red, Green: e.green, Blue: e.blue)
        }
        guard let map = colors.withUnsafeBufferPointer({ GifMakeMapObject(Int32(1 << bits), $0.baseAddress) }) else {
            throw .library(.gif, "cannot allocate a colour map")
        }
        return map
    }

    /// Index bits of the smallest GIF table (2…256 entries) holding `count` colours.
    static func tableBits(count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count && bits < 8 { bits += 1 }
        return bits
    }

    static func library(_ code: Int32, _ context: String) -> EncodeError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .library(.gif, "\(context): \(message)")
    }
}

import CImageShim
import ImageCore

/// A libtiff handle reading from memory, alive only inside ``TIFFReader/withReader(_:maxSingleAllocation:_:)``
/// (which keeps the bytes pinned and closes the handle on every path).
///
/// libtiff reports problems through per-handle handlers that record the first message; each
/// call here turns a failure status plus that message into a ``DecodeError``.
struct TIFFReader {
    private let handle: OpaquePointer

    /// Wraps an open handle; the caller closes it (``TIFFRowReader`` owns its handle).
    init(handle: OpaquePointer) { self.handle = handle }

    /// Opens `bytes` (libtiff reads the first IFD) and runs `body` with the reader.
    /// - Parameter maxSingleAllocation: the largest single allocation libtiff may make, in bytes; 0 for none.
    static func withReader<T>(_ bytes: [UInt8], maxSingleAllocation: Int,
                              _ body: (TIFFReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard bytes.count >= 8 else {
            throw .truncated(.tiff, reason: "the TIFF header needs 8 bytes, the file has \(bytes.count)", offset: 0)
        }
        let result: Result<T, DecodeError> = bytes.withUnsafeBufferPointer { buffer in
            var message = [CChar](repeating: 0, count: Int(IMGLAB_MESSAGE_SIZE))
            var handle: OpaquePointer?
            let opened = imglab_tiff_open(buffer.baseAddress, buffer.count, Int64(maxSingleAllocation), &handle, &message)
            guard opened != 0, let handle else {
                return .failure(Self.error(Self.text(message), doing: "opening the file"))
            }
            defer { imglab_tiff_close(handle) }
            return Result { () throws(DecodeError) -> T in try body(TIFFReader(handle: handle)) }
        }
        return try result.get()
    }

    /// The current (first) IFD.
    func directory() throws(DecodeError) -> TIFFDirectory {
        var raw = imglab_tiff_directory()
        guard imglab_tiff_read_directory(handle, &raw) != 0 else { throw failure(doing: "reading the first IFD") }
        return TIFFDirectory(raw)
    }

    /// Number of IFDs in the main chain (pages); 1 when the chain cannot be walked.
    func pageCount() -> Int {
        var count: UInt32 = 0
        return imglab_tiff_count_directories(handle, &count) != 0 ? max(Int(count), 1) : 1
    }

    /// libtiff's warnings so far: the first one's text and how many there were; `nil` when none.
    /// They mark repairs libtiff made silently (a bogus StripByteCounts recomputed, a tag ignored).
    func warnings() -> (first: String, count: Int)? {
        var count: Int32 = 0
        let first = String(cString: imglab_tiff_first_warning(handle, &count))
        return count > 0 ? (first, Int(count)) : nil
    }

    /// Decodes strip `index` into `buffer`; returns the bytes decoded.
    func readStrip(_ index: Int, into buffer: UnsafeMutableRawBufferPointer) throws(DecodeError) -> Int {
        let n = imglab_tiff_read_strip(handle, UInt32(index), buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
        guard n >= 0 else { throw failure(doing: "decoding strip \(index)") }
        return Int(n)
    }

    /// The stored size of strip or tile `index` (StripByteCounts / TileByteCounts).
    func storedByteCount(_ index: Int) throws(DecodeError) -> Int {
        let n = imglab_tiff_stored_byte_count(handle, UInt32(index))
        guard n >= 0 else { throw failure(doing: "reading the byte count of strip or tile \(index)") }
        return Int(n)
    }

    /// Decodes tile `index` into `buffer`; returns the bytes decoded.
    func readTile(_ index: Int, into buffer: UnsafeMutableRawBufferPointer) throws(DecodeError) -> Int {
        let n = imglab_tiff_read_tile(handle, UInt32(index), buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
        guard n >= 0 else { throw failure(doing: "decoding tile \(index)") }
        return Int(n)
    }

    /// Reads the image through libtiff's RGBA interface into `raster` (width × height words,
    /// rows as stored, alpha premultiplied).
    func readRGBA(width: Int, height: Int, into raster: inout [UInt32]) throws(DecodeError) {
        let ok = raster.withUnsafeMutableBufferPointer { imglab_tiff_read_rgba(handle, $0.baseAddress, UInt32(width), UInt32(height)) }
        guard ok != 0 else { throw failure(doing: "reading through libtiff's RGBA interface") }
    }

    private func failure(doing what: String) -> DecodeError {
        Self.error(String(cString: imglab_tiff_message(handle)), doing: what)
    }

    /// The text of a NUL-terminated C message buffer.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Maps a libtiff message to the error case that says who must act.
    static func error(_ message: String, doing what: String) -> DecodeError {
        let text = message.isEmpty ? "libtiff gave no reason" : message
        // libtiff's cap from TIFFOpenOptionsSetMaxSingleMemAlloc: "Memory allocation of N bytes
        // is beyond the M byte limit defined in open options".
        if text.contains("byte limit") {
            let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count >= 2 { return .limitExceeded(.bytes, requested: numbers[0], allowed: numbers[1]) }
        }
        if text.contains("Cannot read TIFF header") || text.contains("Not a TIFF") {
            return .malformed(.tiff, reason: "\(what): \(text)", offset: 0)
        }
        return .malformed(.tiff, reason: "\(what): \(text)", offset: nil)
    }
}
